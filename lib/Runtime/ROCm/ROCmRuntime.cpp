//===- ROCmRuntime.cpp - the mgpu* functions over the HIP runtime ---------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The HIP runtime under the runtimes' shared mgpu* functions
// (Common/MgpuFunctions.cpp), and the runtime's own API (ROCmRuntime.h).
// The HIP runtime is opened at run time and only the entry points used
// here are looked up; their C types are spelled in HIP.h, so no ROCm
// header or library is needed to build. HIP keeps the current device per
// thread (device 0 unless the caller chose another), so unlike the CUDA
// driver there is no context to make current.
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/ROCm/ROCmRuntime.h"
#include "DynamicLibrary.h"
#include "HIP.h"

#include <string>

using namespace rlx::rocm;

namespace {
/// hipGetErrorName once bound (check() runs while hip() initializes).
const char *(*errorName)(hipError_t) = nullptr;
} // namespace

namespace rlx::rocm {

rlx::runtime::ErrorRecord &errors() {
  static rlx::runtime::ErrorRecord record("rlx-rocm");
  return record;
}

const HIP *hip() {
  static HIP h;
  static bool loaded = [] {
    // $RLX_HIP_RUNTIME, else the unversioned name (a ROCm install's) or
    // the versioned ones (a runtime package's).
    void *lib = rlx::runtime::openLibrary(
        "the HIP runtime", "RLX_HIP_RUNTIME",
        {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"}, errors());
    if (!lib)
      return false;
    rlx::runtime::SymbolBinder bind(lib, "the HIP runtime", errors());
    bind(h.hipInit, "hipInit");
    bind(h.hipModuleLoadData, "hipModuleLoadData");
    bind(h.hipModuleUnload, "hipModuleUnload");
    bind(h.hipModuleGetFunction, "hipModuleGetFunction");
    bind(h.hipModuleLaunchKernel, "hipModuleLaunchKernel");
    bind(h.hipStreamCreateWithFlags, "hipStreamCreateWithFlags");
    bind(h.hipStreamDestroy, "hipStreamDestroy");
    bind(h.hipStreamSynchronize, "hipStreamSynchronize");
    bind(h.hipMallocAsync, "hipMallocAsync");
    bind(h.hipFreeAsync, "hipFreeAsync");
    bind(h.hipMalloc, "hipMalloc");
    bind(h.hipFree, "hipFree");
    bind(h.hipMemcpy, "hipMemcpy");
    bind(h.hipGetErrorName, "hipGetErrorName");
    errorName = h.hipGetErrorName;
    return bind.ok() && check(h.hipInit(0), "hipInit");
  }();
  return loaded ? &h : nullptr;
}

bool check(hipError_t result, const char *call) {
  if (result == 0)
    return true;
  errors().recordFailure(call, result, errorName ? errorName(result) : nullptr);
  return false;
}

} // namespace rlx::rocm

namespace {
/// The mgpu* functions' calls, over the HIP runtime.
class HIPGPUDriver final : public rlx::runtime::GPUDriver {
public:
  explicit HIPGPUDriver(const HIP &h) : h(h) {}

  bool loadModule(void **module, const void *image) const override {
    // The rocm pipeline embeds code objects, never text to compile at load
    // time; HIP takes either through hipModuleLoadData.
    return check(h.hipModuleLoadData(module, image), "hipModuleLoadData");
  }
  void unloadModule(void *module) const override { h.hipModuleUnload(module); }
  bool getFunction(void **function, void *module,
                   const char *name) const override {
    return check(h.hipModuleGetFunction(function, module, name),
                 "hipModuleGetFunction");
  }
  bool launchKernel(void *function, unsigned gridX, unsigned gridY,
                    unsigned gridZ, unsigned blockX, unsigned blockY,
                    unsigned blockZ, unsigned sharedBytes, void *stream,
                    void **params, void **extra) const override {
    return check(h.hipModuleLaunchKernel(function, gridX, gridY, gridZ, blockX,
                                         blockY, blockZ, sharedBytes, stream,
                                         params, extra),
                 "hipModuleLaunchKernel");
  }
  bool createStream(void **stream) const override {
    // hipStreamDefault: ordered after work on the null stream.
    return check(h.hipStreamCreateWithFlags(stream, /*hipStreamDefault=*/0),
                 "hipStreamCreateWithFlags");
  }
  bool destroyStream(void *stream) const override {
    return check(h.hipStreamDestroy(stream), "hipStreamDestroy");
  }
  bool synchronizeStream(void *stream) const override {
    return check(h.hipStreamSynchronize(stream), "hipStreamSynchronize");
  }
  bool allocateAsync(void **ptr, uint64_t bytes, void *stream) const override {
    return check(h.hipMallocAsync(ptr, bytes, stream), "hipMallocAsync");
  }
  bool freeAsync(void *ptr, void *stream) const override {
    return check(h.hipFreeAsync(ptr, stream), "hipFreeAsync");
  }

private:
  const HIP &h;
};

/// The initialized HIP runtime as the mgpu* functions call it, or null.
const rlx::runtime::GPUDriver *gpuDriver() {
  const HIP *h = hip();
  if (!h)
    return nullptr;
  static const HIPGPUDriver driver(*h);
  return &driver;
}
} // namespace

const rlx::runtime::GPURuntime &rlx::runtime::gpuRuntime() {
  // No context to make current: loaded is ready.
  static const GPURuntime runtime{errors(), gpuDriver, gpuDriver};
  return runtime;
}

extern "C" {

void rlxRocmSetStream(void *stream) { rlx::runtime::setUserStream(stream); }

const char *rlxRocmGetLastError(void) { return errors().first(); }

void rlxRocmClearError(void) { errors().clear(); }

// The rocm target's description offers no flash-attention kernel, so
// compiled code never calls this; a caller of the ABI learns why.
void rlxFlashAttention(int32_t, int32_t, int64_t, int64_t, int64_t, int64_t,
                       int64_t, int64_t, int64_t, float, const void *, int64_t,
                       int64_t, int64_t, const void *, int64_t, int64_t,
                       int64_t, const void *, int64_t, int64_t, int64_t, void *,
                       int64_t, int64_t, int64_t) {
  errors().record("rlxFlashAttention: librlx_rocm_runtime has no "
                  "flash-attention kernel");
}

} // extern "C"
