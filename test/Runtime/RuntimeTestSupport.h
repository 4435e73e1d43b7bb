//===- RuntimeTestSupport.h - what the runtimes' test programs share ------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx-cuda-runtime-test and rlx-rocm-runtime-test drive a runtime library
// as compiled host code does, then print the stand-in libraries' call logs
// (FakeLibrary.h) and the runtime's recorded error for FileCheck.
//
//===----------------------------------------------------------------------===//

#ifndef TEST_RUNTIME_RUNTIMETESTSUPPORT_H
#define TEST_RUNTIME_RUNTIMETESTSUPPORT_H

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>

namespace {
/// The call log of the stand-in library that $`variable` names, read
/// through its function `logFunction`; `otherwise` if that library is not
/// a stand-in or not loaded.
const char *fakeLog(const char *variable, const char *logFunction,
                    const char *otherwise) {
  const char *path = getenv(variable);
  void *lib = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : nullptr;
  auto fn = lib ? reinterpret_cast<const char *(*)()>(dlsym(lib, logFunction))
                : nullptr;
  return fn ? fn() : otherwise;
}

/// What every scenario ends with: the driver's and the BLAS-Lt library's
/// logs, the recorded error, and that clearing forgets it.
int finish(const char *driverLog, const char *blasLtLog,
           const char *(*lastError)(), void (*clearError)()) {
  printf("%s", driverLog);
  printf("%s", blasLtLog);
  const char *error = lastError();
  printf("error: %s\n", error ? error : "none");
  clearError();
  printf("after clear: %s\n", lastError() ? "error" : "none");
  return 0;
}
} // namespace

#endif // TEST_RUNTIME_RUNTIMETESTSUPPORT_H
