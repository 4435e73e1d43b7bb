//===- ROCmRuntime.cpp - the mgpu* functions over the HIP runtime ---------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Debian ships no libmlir_rocm_runtime, so this is RLX's own (see
// ROCmRuntime.h). The HIP runtime is opened at run time and only the entry
// points used here are looked up; their C types are spelled in HIP.h, so
// no ROCm header or library is needed to build. HIP keeps the current
// device per thread (device 0 unless the caller chose another), so unlike
// the CUDA driver there is no context to make current.
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/ROCm/ROCmRuntime.h"
#include "HIP.h"

#include <cstdlib>
#include <dlfcn.h>
#include <string>

using namespace rlx::rocm;

namespace {
void *theUserStream = nullptr;
/// hipGetErrorName once bound (check() runs while hip() initializes).
const char *(*errorName)(hipError_t) = nullptr;

/// dlopen's handle of the HIP runtime: $RLX_HIP_RUNTIME, else the
/// unversioned name (a ROCm install's) or the versioned ones (a runtime
/// package's). Records what was tried if none loads.
void *openHIP() {
  const char *chosen = std::getenv("RLX_HIP_RUNTIME");
  std::string tried;
  for (const char *path :
       {chosen, "libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"}) {
    if (!path || !*path)
      continue;
    if (void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL))
      return lib;
    tried += (tried.empty() ? "" : ", ") + std::string(path);
    // Only the library asked for.
    if (path == chosen)
      break;
  }
  errors().record("cannot load the HIP runtime (tried " + tried + ")");
  return nullptr;
}
} // namespace

namespace rlx::rocm {

rlx::runtime::ErrorRecord &errors() {
  static rlx::runtime::ErrorRecord record("rlx-rocm");
  return record;
}

const HIP *hip() {
  static HIP h;
  static bool loaded = [] {
    void *lib = openHIP();
    if (!lib)
      return false;
    bool ok = true;
    auto bind = [&](auto &fn, const char *name) {
      rlx::runtime::bindSymbol(lib, fn, name, "the HIP runtime", ok, errors());
    };
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
    return ok && check(h.hipInit(0), "hipInit");
  }();
  return loaded ? &h : nullptr;
}

bool check(hipError_t result, const char *call) {
  if (result == 0)
    return true;
  const char *name = errorName ? errorName(result) : nullptr;
  errors().record(std::string(call) +
                  " failed: " + (name ? name : "unknown error") + " (" +
                  std::to_string(result) + ")");
  return false;
}

void *userStream() { return theUserStream; }

} // namespace rlx::rocm

extern "C" {

void rlxRocmSetStream(void *stream) { theUserStream = stream; }

const char *rlxRocmGetLastError(void) { return errors().first(); }

void rlxRocmClearError(void) { errors().clear(); }

void *mgpuModuleLoad(void *data, size_t) {
  const HIP *h = hip();
  Handle module = nullptr;
  if (h)
    check(h->hipModuleLoadData(&module, data), "hipModuleLoadData");
  return module;
}

// The rocm pipeline embeds code objects, never text to compile at load
// time; HIP takes either through hipModuleLoadData.
void *mgpuModuleLoadJIT(void *data, int) { return mgpuModuleLoad(data, 0); }

void mgpuModuleUnload(void *module) {
  // Unloading runs from a global destructor, possibly after HIP has torn
  // down; nothing to report then.
  if (const HIP *h = hip(); h && module)
    h->hipModuleUnload(module);
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  const HIP *h = hip();
  Handle function = nullptr;
  if (!h)
    return nullptr;
  if (!module) {
    errors().record(std::string("no module for kernel ") + name);
    return nullptr;
  }
  check(h->hipModuleGetFunction(&function, module, name),
        "hipModuleGetFunction");
  return function;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t) {
  const HIP *h = hip();
  if (!h)
    return;
  if (!function) {
    errors().record("launch of a kernel that was not loaded");
    return;
  }
  check(h->hipModuleLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY,
                                 blockZ, smem, stream, params, extra),
        "hipModuleLaunchKernel");
}

void *mgpuStreamCreate(void) {
  if (theUserStream)
    return theUserStream;
  const HIP *h = hip();
  Handle stream = nullptr;
  if (h)
    // hipStreamDefault: ordered after work on the null stream, where a
    // caller that set no stream most likely wrote the inputs.
    check(h->hipStreamCreateWithFlags(&stream, /*hipStreamDefault=*/0),
          "hipStreamCreateWithFlags");
  return stream;
}

void mgpuStreamDestroy(void *stream) {
  const HIP *h = hip();
  if (h && stream && stream != theUserStream)
    check(h->hipStreamDestroy(stream), "hipStreamDestroy");
}

void mgpuStreamSynchronize(void *stream) {
  const HIP *h = hip();
  if (h && stream != theUserStream)
    check(h->hipStreamSynchronize(stream), "hipStreamSynchronize");
}

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared) {
  const HIP *h = hip();
  if (!h)
    return nullptr;
  if (isHostShared) {
    errors().record("host-shared allocations are not supported");
    return nullptr;
  }
  void *ptr = nullptr;
  if (sizeBytes)
    check(h->hipMallocAsync(&ptr, sizeBytes, stream), "hipMallocAsync");
  return ptr;
}

void mgpuMemFree(void *ptr, void *stream) {
  const HIP *h = hip();
  if (h && ptr)
    check(h->hipFreeAsync(ptr, stream), "hipFreeAsync");
}

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
