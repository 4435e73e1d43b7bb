//===- CUDAConstants.cpp - device copies of constant buffers --------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlxCudaConstant (CUDARuntime.h): a constant that host code hands to a
// runtime kernel (a cuBLASLt matmul's constant weight) lives in host
// memory, as a global of the compiled program; the first call copies it
// to the device and every later call returns that copy. (Constants that
// generated kernels read need none of this: they are globals of the
// kernels' module.)
//
//===----------------------------------------------------------------------===//

#include "CUDADriver.h"
#include "RLX/Runtime/CUDARuntime.h"

#include <map>
#include <mutex>
#include <string>

using namespace rlx::cuda;

namespace {
std::mutex constantsMutex;
/// Host address -> (bytes, device copy).
std::map<const void *, std::pair<int64_t, CUdeviceptr>> constants;
} // namespace

extern "C" void *rlxCudaConstant(const void *host, int64_t bytes) {
  std::lock_guard<std::mutex> lock(constantsMutex);
  auto it = constants.find(host);
  if (it != constants.end()) {
    if (it->second.first != bytes) {
      recordError("rlxCudaConstant: " + std::to_string(bytes) +
                  " bytes asked of a constant copied with " +
                  std::to_string(it->second.first));
      return nullptr;
    }
    return reinterpret_cast<void *>(it->second.second);
  }
  if (!host || bytes <= 0) {
    recordError("rlxCudaConstant: no constant (" + std::to_string(bytes) +
                " bytes)");
    return nullptr;
  }
  const Driver *d = ready();
  CUdeviceptr copy = 0;
  if (!d || !check(d->cuMemAlloc(&copy, size_t(bytes)), "cuMemAlloc"))
    return nullptr;
  // Synchronous: the copy is on the device before any kernel reads it.
  if (!check(d->cuMemcpyHtoD(copy, host, size_t(bytes)), "cuMemcpyHtoD"))
    return nullptr;
  constants.emplace(host, std::make_pair(bytes, copy));
  return reinterpret_cast<void *>(copy);
}
