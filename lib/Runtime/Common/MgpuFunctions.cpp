//===- MgpuFunctions.cpp - the mgpu* functions over a GPUDriver -----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What upstream's gpu-to-llvm lowering calls (GPURuntime.h), once for every
// runtime library over a vendor's driver API (GPUDriver.h). Debian ships no
// libmlir_cuda_runtime or libmlir_rocm_runtime, so these are RLX's own.
// Errors are recorded, never fatal: a call that cannot go on returns null
// or does nothing.
//
//===----------------------------------------------------------------------===//

#include "GPUDriver.h"
#include "RLX/Runtime/Common/GPURuntime.h"

#include <string>

using namespace rlx::runtime;

static void *theUserStream = nullptr;

void *rlx::runtime::userStream() { return theUserStream; }
void rlx::runtime::setUserStream(void *stream) { theUserStream = stream; }

static const GPUDriver *loaded() { return gpuRuntime().loaded(); }
static const GPUDriver *ready() { return gpuRuntime().ready(); }
static void recordError(const std::string &message) {
  gpuRuntime().errors.record(message);
}

extern "C" {

void *mgpuModuleLoad(void *data, size_t) {
  const GPUDriver *d = ready();
  void *module = nullptr;
  if (d)
    d->loadModule(&module, data);
  return module;
}

// Both drivers take an image or text to compile at load time through the
// same call.
void *mgpuModuleLoadJIT(void *data, int) { return mgpuModuleLoad(data, 0); }

void mgpuModuleUnload(void *module) {
  if (const GPUDriver *d = loaded(); d && module)
    d->unloadModule(module);
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  const GPUDriver *d = ready();
  void *function = nullptr;
  if (!d)
    return nullptr;
  if (!module) {
    recordError(std::string("no module for kernel ") + name);
    return nullptr;
  }
  d->getFunction(&function, module, name);
  return function;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t) {
  const GPUDriver *d = ready();
  if (!d)
    return;
  if (!function) {
    recordError("launch of a kernel that was not loaded");
    return;
  }
  d->launchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ, smem,
                  stream, params, extra);
}

void *mgpuStreamCreate(void) {
  if (theUserStream)
    return theUserStream;
  const GPUDriver *d = ready();
  void *stream = nullptr;
  if (d)
    d->createStream(&stream);
  return stream;
}

void mgpuStreamDestroy(void *stream) {
  const GPUDriver *d = loaded();
  if (d && stream && stream != theUserStream)
    d->destroyStream(stream);
}

void mgpuStreamSynchronize(void *stream) {
  const GPUDriver *d = loaded();
  if (d && stream != theUserStream)
    d->synchronizeStream(stream);
}

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared) {
  const GPUDriver *d = ready();
  if (!d)
    return nullptr;
  if (isHostShared) {
    recordError("host-shared allocations are not supported");
    return nullptr;
  }
  void *ptr = nullptr;
  if (sizeBytes)
    d->allocateAsync(&ptr, sizeBytes, stream);
  return ptr;
}

void mgpuMemFree(void *ptr, void *stream) {
  const GPUDriver *d = loaded();
  if (d && ptr)
    d->freeAsync(ptr, stream);
}

} // extern "C"
