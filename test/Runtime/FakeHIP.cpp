//===- FakeHIP.cpp - a HIP runtime that records its calls -----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Stands in for libamdhip64.so in the ROCm runtime's tests (no AMD GPU in
// CI): the entry points librlx_rocm_runtime looks up, each appending one
// line to a log the tests read back. A launch with gridX == 0 fails with
// hipErrorInvalidValue (1), as the real runtime's does; $FAKE_HIP_FAIL
// ("hipMallocAsync:2,...") makes chosen calls fail with that code;
// $FAKE_HIP_PARAMS logs that many kernel parameters as 64-bit words.
//
//===----------------------------------------------------------------------===//

#include "FakeLibrary.h"

namespace {
/// The error code that $FAKE_HIP_FAIL injects into every call of `name`,
/// or 0.
int injected(const char *name) { return injected("FAKE_HIP_FAIL", name); }
} // namespace

extern "C" {
const char *fakeHipLog() { return callLog.c_str(); }

int hipInit(unsigned flags) {
  log("hipInit %u", flags);
  return injected("hipInit");
}
int hipModuleLoadData(void **module, const void *image) {
  // The first word: an HSA code object is an ELF file (7f 'E' 'L' 'F').
  log("hipModuleLoadData <%08x>", *static_cast<const unsigned *>(image));
  *module = newHandle();
  return 0;
}
int hipModuleUnload(void *) { return 0; }
int hipModuleGetFunction(void **function, void *, const char *name) {
  log("hipModuleGetFunction %s", name);
  *function = newHandle();
  return injected("hipModuleGetFunction");
}
int hipModuleLaunchKernel(void *, unsigned gx, unsigned gy, unsigned gz,
                          unsigned bx, unsigned by, unsigned bz, unsigned smem,
                          void *stream, void **params, void **extra) {
  log("hipModuleLaunchKernel grid %u %u %u block %u %u %u smem %u stream %p "
      "extra %p",
      gx, gy, gz, bx, by, bz, smem, stream, static_cast<void *>(extra));
  if (const char *count = getenv("FAKE_HIP_PARAMS")) {
    std::string line = "params";
    for (int i = 0, e = atoi(count); i < e; ++i)
      line += " " + std::to_string(*static_cast<int64_t *>(params[i]));
    log("%s", line.c_str());
  }
  if (int error = injected("hipModuleLaunchKernel"))
    return error;
  return gx == 0 ? 1 : 0;
}
int hipStreamCreateWithFlags(void **stream, unsigned flags) {
  *stream = newHandle();
  log("hipStreamCreateWithFlags %p %u", *stream, flags);
  return 0;
}
int hipStreamDestroy(void *stream) {
  log("hipStreamDestroy %p", stream);
  return 0;
}
int hipStreamSynchronize(void *stream) {
  log("hipStreamSynchronize %p", stream);
  return 0;
}
int hipMallocAsync(void **ptr, size_t size, void *stream) {
  if (int error = injected("hipMallocAsync"))
    return error;
  *ptr = reinterpret_cast<void *>(0x100000);
  log("hipMallocAsync %zu %p", size, stream);
  return 0;
}
int hipFreeAsync(void *ptr, void *stream) {
  log("hipFreeAsync %p %p", ptr, stream);
  return injected("hipFreeAsync");
}
int hipMalloc(void **ptr, size_t size) {
  if (int error = injected("hipMalloc"))
    return error;
  static uintptr_t next = 0x200000;
  *ptr = reinterpret_cast<void *>(next);
  next += 0x100000;
  log("hipMalloc %zu -> %p", size, *ptr);
  return 0;
}
int hipFree(void *ptr) {
  log("hipFree %p", ptr);
  return 0;
}
int hipMemcpy(void *dst, const void *src, size_t size, int kind) {
  if (int error = injected("hipMemcpy"))
    return error;
  log("hipMemcpy %p %zu bytes kind %d, first %08x", dst, size, kind,
      *static_cast<const unsigned *>(src));
  return 0;
}
const char *hipGetErrorName(int error) {
  return error == 1     ? "hipErrorInvalidValue"
         : error == 2   ? "hipErrorOutOfMemory"
         : error == 100 ? "hipErrorNoDevice"
         : error == 719 ? "hipErrorLaunchFailure"
                        : "hipErrorUnknown";
}
}
