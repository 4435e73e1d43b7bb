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
  char line[256];
  va_list args;
  va_start(args, format);
  vsnprintf(line, sizeof(line), format, args);
  va_end(args);
  callLog += line;
  callLog += '\n';
}
} // namespace

#endif // TEST_RUNTIME_FAKECALLLOG_H
