//===- FakeLibrary.h - what the runtimes' stand-in libraries share --------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The stand-in drivers and BLAS-Lt libraries of the runtimes' unit tests
// (no GPU in CI) each append one line per call to their own log, which the
// test program reads back (RuntimeTestSupport.h), hand out made-up
// handles, and fail the calls an environment variable names. Each is a
// shared library of its own; this header gives each its own state
// (internal linkage).
//
//===----------------------------------------------------------------------===//

#ifndef TEST_RUNTIME_FAKELIBRARY_H
#define TEST_RUNTIME_FAKELIBRARY_H

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {
std::string callLog;

/// Appends one printf-formatted line to the log.
inline void log(const char *format, ...) __attribute__((format(printf, 1, 2)));
inline void log(const char *format, ...) {
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

/// A new handle: `step`, 2 * `step`, ... (the logs print them).
inline void *newHandle(uintptr_t step = 0x1000) {
  static uintptr_t handles = 0;
  return reinterpret_cast<void *>(step * ++handles);
}

/// The error code that $`variable` ("hipMallocAsync:2,hipMemcpy:1")
/// injects into every call of the function `name`, or 0.
inline int injected(const char *variable, const char *name) {
  const char *spec = getenv(variable);
  if (!spec)
    return 0;
  std::string key = std::string(name) + ":";
  for (const char *p = strstr(spec, key.c_str()); p;
       p = strstr(p + 1, key.c_str()))
    if (p == spec || p[-1] == ',')
      return atoi(p + key.size());
  return 0;
}
} // namespace

#endif // TEST_RUNTIME_FAKELIBRARY_H
