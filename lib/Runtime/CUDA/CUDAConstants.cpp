//===- CUDAConstants.cpp - device copies of constant buffers --------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlxGpuConstant (GPURuntime.h) over the CUDA driver: the cache of device
// copies is the runtimes' shared one (Common/ConstantCache.h).
//
//===----------------------------------------------------------------------===//

#include "CUDADriver.h"
#include "ConstantCache.h"
#include "RLX/Runtime/CUDA/CUDARuntime.h"

using namespace rlx::cuda;

/// A device allocation holding `bytes` bytes at `host`, or null.
static void *copyToDevice(const void *host, int64_t bytes) {
  const Driver *d = ready();
  CUdeviceptr copy = 0;
  if (!d || !check(d->cuMemAlloc(&copy, size_t(bytes)), "cuMemAlloc"))
    return nullptr;
  // Synchronous: the copy is on the device before any kernel reads it.
  if (!check(d->cuMemcpyHtoD(copy, host, size_t(bytes)), "cuMemcpyHtoD")) {
    // The failed copy's allocation goes back (on the legacy stream, which
    // orders it after everything before it).
    d->cuMemFreeAsync(copy, nullptr);
    return nullptr;
  }
  return reinterpret_cast<void *>(copy);
}

extern "C" void *rlxGpuConstant(const void *host, int64_t bytes) {
  return rlx::runtime::deviceConstant(host, bytes, copyToDevice, errors());
}
