//===- CUDARuntime.cpp - the mgpu* functions over the CUDA driver API -----===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The CUDA driver under the runtimes' shared mgpu* functions
// (Common/MgpuFunctions.cpp), and the runtime's own API (CUDARuntime.h).
// The driver is opened at run time and only the entry points used here are
// looked up; their C types are spelled in CUDADriver.h, so no CUDA header
// or library is needed to build.
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/CUDA/CUDARuntime.h"
#include "CUDADriver.h"
#include "DynamicLibrary.h"

#include <cstdlib>
#include <cstring>
#include <string>

using namespace rlx::cuda;

namespace rlx::cuda {

rlx::runtime::ErrorRecord &errors() {
  static rlx::runtime::ErrorRecord record("rlx-cuda");
  return record;
}

void recordError(const std::string &message) { errors().record(message); }

const Driver *driver() {
  static Driver d;
  static bool loaded = [] {
    // $RLX_CUDA_DRIVER, else the driver's soname; dlerror says why it did
    // not load (no driver installed, a driver without a GPU).
    rlx::runtime::OpenedLibrary lib =
        rlx::runtime::openFirst("RLX_CUDA_DRIVER", {"libcuda.so.1"});
    if (!lib.handle) {
      recordError("cannot load the CUDA driver " + lib.tried + ": " +
                  lib.reason);
      return false;
    }
    rlx::runtime::SymbolBinder bind(lib.handle, "the CUDA driver " + lib.tried,
                                    errors());
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
    d.cuStreamQuery = reinterpret_cast<decltype(d.cuStreamQuery)>(
        dlsym(lib.handle, "cuStreamQuery"));
    d.cuMemcpyAsync = reinterpret_cast<decltype(d.cuMemcpyAsync)>(
        dlsym(lib.handle, "cuMemcpyAsync"));
    d.cuStreamWaitEvent = reinterpret_cast<decltype(d.cuStreamWaitEvent)>(
        dlsym(lib.handle, "cuStreamWaitEvent"));
    d.cuStreamCreateWithPriority =
        reinterpret_cast<decltype(d.cuStreamCreateWithPriority)>(
            dlsym(lib.handle, "cuStreamCreateWithPriority"));
    d.cuCtxGetStreamPriorityRange =
        reinterpret_cast<decltype(d.cuCtxGetStreamPriorityRange)>(
            dlsym(lib.handle, "cuCtxGetStreamPriorityRange"));
    return bind.ok();
  }();
  return loaded ? &d : nullptr;
}

bool check(CUresult result, const char *call) {
  if (result == 0)
    return true;
  const char *name = nullptr;
  if (const Driver *d = driver())
    d->cuGetErrorName(result, &name);
  errors().recordFailure(call, result, name);
  return false;
}

/// The device of this process when it must make a context current: one
/// process per GPU, the launcher's local rank ($RLX_LOCAL_RANK, else
/// torchrun's $LOCAL_RANK, else 0), except that a process shown one GPU
/// (CUDA_VISIBLE_DEVICES naming one) uses that one.
static int processDevice() {
  if (const char *visible = std::getenv("CUDA_VISIBLE_DEVICES");
      visible && *visible && !std::strchr(visible, ','))
    return 0;
  for (const char *name : {"RLX_LOCAL_RANK", "LOCAL_RANK"}) {
    const char *value = std::getenv(name);
    if (!value || !*value)
      continue;
    char *end = nullptr;
    long device = std::strtol(value, &end, 10);
    if (*end == '\0' && device >= 0)
      return int(device);
  }
  return 0;
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
      !check(d->cuDeviceGet(&device, processDevice()), "cuDeviceGet") ||
      !check(d->cuDevicePrimaryCtxRetain(&ctx, device),
             "cuDevicePrimaryCtxRetain") ||
      !check(d->cuCtxSetCurrent(ctx), "cuCtxSetCurrent"))
    return nullptr;
  return d;
}

} // namespace rlx::cuda

namespace {
/// The mgpu* functions' calls, over the driver.
class CUDAGPUDriver final : public rlx::runtime::GPUDriver {
public:
  explicit CUDAGPUDriver(const Driver &d) : d(d) {}

  bool loadModule(void **module, const void *image) const override {
    // PTX too: the driver compiles it at load time.
    return check(d.cuModuleLoadData(module, image), "cuModuleLoadData");
  }
  void unloadModule(void *module) const override { d.cuModuleUnload(module); }
  bool getFunction(void **function, void *module,
                   const char *name) const override {
    return check(d.cuModuleGetFunction(function, module, name),
                 "cuModuleGetFunction");
  }
  bool launchKernel(void *function, unsigned gridX, unsigned gridY,
                    unsigned gridZ, unsigned blockX, unsigned blockY,
                    unsigned blockZ, unsigned sharedBytes, void *stream,
                    void **params, void **extra) const override {
    return check(d.cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY,
                                  blockZ, sharedBytes, stream, params, extra),
                 "cuLaunchKernel");
  }
  bool createStream(void **stream) const override {
    // CU_STREAM_DEFAULT: ordered after work on the legacy default stream.
    return check(d.cuStreamCreate(stream, /*CU_STREAM_DEFAULT=*/0),
                 "cuStreamCreate");
  }
  bool destroyStream(void *stream) const override {
    return check(d.cuStreamDestroy(stream), "cuStreamDestroy");
  }
  bool synchronizeStream(void *stream) const override {
    return check(d.cuStreamSynchronize(stream), "cuStreamSynchronize");
  }
  bool allocateAsync(void **ptr, uint64_t bytes, void *stream) const override {
    CUdeviceptr address = 0;
    bool ok =
        check(d.cuMemAllocAsync(&address, bytes, stream), "cuMemAllocAsync");
    *ptr = reinterpret_cast<void *>(address);
    return ok;
  }
  bool freeAsync(void *ptr, void *stream) const override {
    return check(d.cuMemFreeAsync(reinterpret_cast<CUdeviceptr>(ptr), stream),
                 "cuMemFreeAsync");
  }

private:
  const Driver &d;
};

/// `d` as the mgpu* functions call it, or null.
const rlx::runtime::GPUDriver *asGPUDriver(const Driver *d) {
  if (!d)
    return nullptr;
  static const CUDAGPUDriver gpuDriver(*d);
  return &gpuDriver;
}
} // namespace

const rlx::runtime::GPURuntime &rlx::runtime::gpuRuntime() {
  // Releasing things needs no current context: they run from global
  // destructors too, possibly after the process has torn it down.
  static const GPURuntime runtime{errors(),
                                  [] { return asGPUDriver(driver()); },
                                  [] { return asGPUDriver(ready()); }};
  return runtime;
}

extern "C" {

void rlxCudaSetStream(void *stream) { rlx::runtime::setUserStream(stream); }

const char *rlxCudaGetLastError(void) { return errors().first(); }

void rlxCudaClearError(void) { errors().clear(); }

} // extern "C"
