//===- FakeCUDADriver.cpp - a CUDA driver that records its calls ----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Stands in for libcuda.so.1 in the runtime's unit test (no GPU in CI):
// the entry points librlx_cuda_runtime looks up, each appending one line
// to a log the test reads back. A launch with gridX == 0 fails with
// CUDA_ERROR_INVALID_VALUE (1), as the real driver's does; $FAKE_CUDA_FAIL
// makes chosen calls fail (see injected()); event timings
// come from $FAKE_CUDA_ELAPSED; $FAKE_CUDA_PARAM_WORDS logs the first
// parameter's bytes.
//
//===----------------------------------------------------------------------===//

#include "FakeLibrary.h"

namespace {
int contextCurrent = 0;

/// The error code that $FAKE_CUDA_FAIL ("cuMemAllocAsync:2,...") injects
/// into every call of driver function `name`, or 0.
int injected(const char *name) { return injected("FAKE_CUDA_FAIL", name); }
} // namespace

extern "C" {
const char *fakeCudaLog() { return callLog.c_str(); }
void fakeCudaClearLog() { callLog.clear(); }

int cuInit(unsigned flags) {
  log("cuInit %u", flags);
  return 0;
}
int cuDeviceGet(int *device, int ordinal) {
  *device = ordinal;
  return 0;
}
int cuDevicePrimaryCtxRetain(void **ctx, int device) {
  log("cuDevicePrimaryCtxRetain %d", device);
  *ctx = newHandle();
  return 0;
}
int cuCtxGetCurrent(void **ctx) {
  *ctx = contextCurrent ? reinterpret_cast<void *>(0x1) : nullptr;
  return 0;
}
int cuCtxSetCurrent(void *) {
  contextCurrent = 1;
  log("cuCtxSetCurrent");
  return 0;
}
int cuModuleLoadData(void **module, const void *image) {
  // A binary image (a fatbin, say) by its first word, text as it is.
  const unsigned char *bytes = static_cast<const unsigned char *>(image);
  bool text = true;
  for (int i = 0; i < 4 && bytes[i]; ++i)
    text &= bytes[i] >= 0x20 && bytes[i] <= 0x7e;
  if (!text)
    log("cuModuleLoadData <binary %08x>", *static_cast<const unsigned *>(image));
  else
    log("cuModuleLoadData %s", static_cast<const char *>(image));
  *module = newHandle();
  return 0;
}
int cuModuleUnload(void *) { return 0; }
int cuModuleGetFunction(void **function, void *, const char *name) {
  log("cuModuleGetFunction %s", name);
  *function = newHandle();
  return 0;
}
int cuFuncSetAttribute(void *, int attribute, int value) {
  log("cuFuncSetAttribute %d %d", attribute, value);
  return 0;
}
int cuLaunchKernel(void *, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                   unsigned by, unsigned bz, unsigned smem, void *stream,
                   void **params, void **) {
  log("cuLaunchKernel grid %u %u %u block %u %u %u smem %u stream %p "
      "param0 %d",
      gx, gy, gz, bx, by, bz, smem, stream, *static_cast<int *>(params[0]));
  // $FAKE_CUDA_PARAM_WORDS: that many 32-bit words of the first parameter.
  if (const char *words = getenv("FAKE_CUDA_PARAM_WORDS")) {
    std::string line = "param0 words";
    const unsigned *param = static_cast<const unsigned *>(params[0]);
    for (int i = 0, e = atoi(words); i < e; ++i) {
      char word[16];
      snprintf(word, sizeof(word), " %08x", param[i]);
      line += word;
    }
    log("%s", line.c_str());
  }
  return gx == 0 ? 1 : 0;
}
int cuStreamCreate(void **stream, unsigned) {
  *stream = newHandle();
  log("cuStreamCreate %p", *stream);
  return 0;
}
int cuStreamDestroy_v2(void *stream) {
  log("cuStreamDestroy %p", stream);
  return 0;
}
int cuStreamSynchronize(void *stream) {
  log("cuStreamSynchronize %p", stream);
  return 0;
}
int cuMemAllocAsync(unsigned long long *ptr, size_t size, void *stream) {
  if (int error = injected("cuMemAllocAsync"))
    return error;
  *ptr = 0x100000;
  log("cuMemAllocAsync %zu %p", size, stream);
  return 0;
}
int cuMemFreeAsync(unsigned long long ptr, void *stream) {
  if (int error = injected("cuMemFreeAsync"))
    return error;
  log("cuMemFreeAsync %llx %p", ptr, stream);
  return 0;
}
int cuMemAlloc_v2(unsigned long long *ptr, size_t size) {
  if (int error = injected("cuMemAlloc_v2"))
    return error;
  static unsigned long long next = 0x200000;
  *ptr = next;
  next += 0x100000;
  log("cuMemAlloc %zu -> %llx", size, *ptr);
  return 0;
}
int cuMemcpyHtoD_v2(unsigned long long dst, const void *src, size_t size) {
  if (int error = injected("cuMemcpyHtoD_v2"))
    return error;
  log("cuMemcpyHtoD %llx %zu bytes, first %08x", dst, size,
      *static_cast<const unsigned *>(src));
  return 0;
}
int cuMemsetD32Async(unsigned long long dst, unsigned value, size_t count,
                     void *stream) {
  log("cuMemsetD32Async %llx %08x x %zu %p", dst, value, count, stream);
  return 0;
}
int cuEventCreate(void **event, unsigned) {
  *event = newHandle();
  return 0;
}
int cuEventDestroy_v2(void *) { return 0; }
int cuEventRecord(void *, void *) { return 0; }
int cuStreamWaitEvent(void *stream, void *event, unsigned) {
  log("cuStreamWaitEvent %p for %p", stream, event);
  return 0;
}
int cuEventSynchronize(void *) { return 0; }
// The elapsed times, in milliseconds, are $FAKE_CUDA_ELAPSED's
// comma-separated values in turn (then 1).
int cuEventElapsedTime(float *ms, void *, void *) {
  static const char *next = getenv("FAKE_CUDA_ELAPSED");
  *ms = 1.0f;
  if (next && *next) {
    char *end;
    *ms = strtof(next, &end);
    next = *end ? end + 1 : end;
  }
  log("cuEventElapsedTime %g", *ms);
  return 0;
}
int cuGetErrorName(int error, const char **name) {
  *name = error == 1     ? "CUDA_ERROR_INVALID_VALUE"
          : error == 2   ? "CUDA_ERROR_OUT_OF_MEMORY"
          : error == 700 ? "CUDA_ERROR_ILLEGAL_ADDRESS"
                         : "CUDA_ERROR_UNKNOWN";
  return 0;
}
}
