//===- CUDARuntime.cpp - the mgpu* functions over the CUDA driver API -----===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Debian ships no libmlir_cuda_runtime, so this is RLX's own (see
// CUDARuntime.h). The driver is opened at run time and only the entry
// points used here are looked up; their C types are spelled in
// CUDADriver.h, so no CUDA header or library is needed to build.
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/CUDA/CUDARuntime.h"
#include "CUDADriver.h"

#include <cstdlib>
#include <dlfcn.h>
#include <string>

using namespace rlx::cuda;

namespace {
void *theUserStream = nullptr;
} // namespace

namespace rlx::cuda {

rlx::runtime::ErrorRecord &errors() {
  static rlx::runtime::ErrorRecord record("rlx-cuda");
  return record;
}

void recordError(const std::string &message) { errors().record(message); }

const Driver *driver() {
  static Driver d;
  static bool loaded = [] {
    const char *path = std::getenv("RLX_CUDA_DRIVER");
    if (!path || !*path)
      path = "libcuda.so.1";
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      recordError(std::string("cannot load the CUDA driver ") + path + ": " +
                  dlerror());
      return false;
    }
    bool ok = true;
    const std::string what = std::string("the CUDA driver ") + path;
    auto bind = [&](auto &fn, const char *name) {
      rlx::runtime::bindSymbol(lib, fn, name, what, ok, errors());
    };
    bind(d.cuInit, "cuInit");
    bind(d.cuDeviceGet, "cuDeviceGet");
    bind(d.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    bind(d.cuCtxGetCurrent, "cuCtxGetCurrent");
    bind(d.cuCtxSetCurrent, "cuCtxSetCurrent");
    bind(d.cuModuleLoadData, "cuModuleLoadData");
    bind(d.cuModuleUnload, "cuModuleUnload");
    bind(d.cuModuleGetFunction, "cuModuleGetFunction");
    bind(d.cuFuncSetAttribute, "cuFuncSetAttribute");
    bind(d.cuLaunchKernel, "cuLaunchKernel");
    bind(d.cuStreamCreate, "cuStreamCreate");
    bind(d.cuStreamDestroy, "cuStreamDestroy_v2");
    bind(d.cuStreamSynchronize, "cuStreamSynchronize");
    bind(d.cuMemAllocAsync, "cuMemAllocAsync");
    bind(d.cuMemFreeAsync, "cuMemFreeAsync");
    bind(d.cuMemAlloc, "cuMemAlloc_v2");
    bind(d.cuMemcpyHtoD, "cuMemcpyHtoD_v2");
    bind(d.cuMemsetD32Async, "cuMemsetD32Async");
    bind(d.cuEventCreate, "cuEventCreate");
    bind(d.cuEventDestroy, "cuEventDestroy_v2");
    bind(d.cuEventRecord, "cuEventRecord");
    bind(d.cuEventSynchronize, "cuEventSynchronize");
    bind(d.cuEventElapsedTime, "cuEventElapsedTime");
    bind(d.cuGetErrorName, "cuGetErrorName");
    return ok;
  }();
  return loaded ? &d : nullptr;
}

bool check(CUresult result, const char *call) {
  if (result == 0)
    return true;
  const char *name = nullptr;
  if (const Driver *d = driver())
    d->cuGetErrorName(result, &name);
  recordError(std::string(call) +
              " failed: " + (name ? name : "unknown error") + " (" +
              std::to_string(result) + ")");
  return false;
}

const Driver *ready() {
  const Driver *d = driver();
  if (!d)
    return nullptr;
  Handle ctx = nullptr;
  if (!check(d->cuCtxGetCurrent(&ctx), "cuCtxGetCurrent"))
    return nullptr;
  if (ctx)
    return d;
  CUdevice device;
  if (!check(d->cuInit(0), "cuInit") ||
      !check(d->cuDeviceGet(&device, 0), "cuDeviceGet") ||
      !check(d->cuDevicePrimaryCtxRetain(&ctx, device),
             "cuDevicePrimaryCtxRetain") ||
      !check(d->cuCtxSetCurrent(ctx), "cuCtxSetCurrent"))
    return nullptr;
  return d;
}

void *userStream() { return theUserStream; }

} // namespace rlx::cuda

extern "C" {

void rlxCudaSetStream(void *stream) { theUserStream = stream; }

const char *rlxCudaGetLastError(void) { return errors().first(); }

void rlxCudaClearError(void) { errors().clear(); }

void *mgpuModuleLoad(void *data, size_t) {
  const Driver *d = ready();
  Handle module = nullptr;
  if (d)
    check(d->cuModuleLoadData(&module, data), "cuModuleLoadData");
  return module;
}

// PTX: the driver compiles it at load time.
void *mgpuModuleLoadJIT(void *data, int) { return mgpuModuleLoad(data, 0); }

void mgpuModuleUnload(void *module) {
  // Unloading runs from a global destructor, possibly after the process
  // has torn the context down; nothing to report then.
  if (const Driver *d = driver(); d && module)
    d->cuModuleUnload(module);
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  const Driver *d = ready();
  Handle function = nullptr;
  if (!d)
    return nullptr;
  if (!module) {
    recordError(std::string("no module for kernel ") + name);
    return nullptr;
  }
  check(d->cuModuleGetFunction(&function, module, name), "cuModuleGetFunction");
  return function;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t) {
  const Driver *d = ready();
  if (!d)
    return;
  if (!function) {
    recordError("launch of a kernel that was not loaded");
    return;
  }
  check(d->cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ,
                          smem, stream, params, extra),
        "cuLaunchKernel");
}

void *mgpuStreamCreate(void) {
  if (theUserStream)
    return theUserStream;
  const Driver *d = ready();
  Handle stream = nullptr;
  if (d)
    // CU_STREAM_DEFAULT: ordered after work on the legacy default stream,
    // where a caller that set no stream most likely wrote the inputs.
    check(d->cuStreamCreate(&stream, /*CU_STREAM_DEFAULT=*/0),
          "cuStreamCreate");
  return stream;
}

void mgpuStreamDestroy(void *stream) {
  const Driver *d = driver();
  if (d && stream && stream != theUserStream)
    check(d->cuStreamDestroy(stream), "cuStreamDestroy");
}

void mgpuStreamSynchronize(void *stream) {
  const Driver *d = driver();
  if (d && stream != theUserStream)
    check(d->cuStreamSynchronize(stream), "cuStreamSynchronize");
}

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared) {
  const Driver *d = ready();
  if (!d)
    return nullptr;
  if (isHostShared) {
    recordError("host-shared allocations are not supported");
    return nullptr;
  }
  CUdeviceptr ptr = 0;
  if (sizeBytes)
    check(d->cuMemAllocAsync(&ptr, sizeBytes, stream), "cuMemAllocAsync");
  return reinterpret_cast<void *>(ptr);
}

void mgpuMemFree(void *ptr, void *stream) {
  const Driver *d = driver();
  if (d && ptr)
    check(d->cuMemFreeAsync(reinterpret_cast<CUdeviceptr>(ptr), stream),
          "cuMemFreeAsync");
}

} // extern "C"
