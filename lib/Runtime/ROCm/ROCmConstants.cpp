//===- ROCmConstants.cpp - device copies of constant buffers --------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlxGpuConstant (GPURuntime.h) over HIP: the cache of device copies is the
// runtimes' shared one (Common/ConstantCache.h).
//
//===----------------------------------------------------------------------===//

#include "ConstantCache.h"
#include "HIP.h"
#include "RLX/Runtime/ROCm/ROCmRuntime.h"

using namespace rlx::rocm;

/// A device allocation holding `bytes` bytes at `host`, or null.
static void *copyToDevice(const void *host, int64_t bytes) {
  const HIP *h = hip();
  void *copy = nullptr;
  if (!h || !check(h->hipMalloc(&copy, size_t(bytes)), "hipMalloc"))
    return nullptr;
  // Synchronous: the copy is on the device before any kernel reads it.
  if (!check(h->hipMemcpy(copy, host, size_t(bytes), kHipMemcpyHostToDevice),
             "hipMemcpy")) {
    h->hipFree(copy);
    return nullptr;
  }
  return copy;
}

extern "C" void *rlxGpuConstant(const void *host, int64_t bytes) {
  return rlx::runtime::deviceConstant(host, bytes, copyToDevice, errors());
}
