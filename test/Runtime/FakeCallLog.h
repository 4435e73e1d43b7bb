//===- FakeCallLog.h - the call log of the runtime's fake libraries -------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The fake CUDA driver and the fake cuBLASLt each append one line per call
// to their own log, which the unit test reads back. Each fake is a shared
// library of its own; this header gives each its own log (internal
// linkage).
//
//===----------------------------------------------------------------------===//

#ifndef TEST_RUNTIME_FAKECALLLOG_H
#define TEST_RUNTIME_FAKECALLLOG_H

#include <cstdarg>
#include <cstdio>
#include <string>

namespace {
std::string callLog;

void log(const char *format, ...) __attribute__((format(printf, 1, 2)));
void log(const char *format, ...) {
  // Sized by a first pass: a kernel parameter's words make long lines.
  va_list args, again;
  va_start(args, format);
  va_copy(again, args);
  std::string line(vsnprintf(nullptr, 0, format, args) + 1, '\0');
  vsnprintf(line.data(), line.size(), format, again);
  va_end(again);
  va_end(args);
  line.back() = '\n';
  callLog += line;
}
} // namespace

#endif // TEST_RUNTIME_FAKECALLLOG_H
