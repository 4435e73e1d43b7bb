//===- CUDAConstants.cpp - device copies of constant buffers --------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlxGpuConstant (CUDARuntime.h): a constant that host code hands to a
// runtime kernel (a cuBLASLt matmul's constant weight) lives in host
// memory, as a global of the compiled program; the first call copies it
// to the device and every later call returns that copy. (Constants that
// generated kernels read need none of this: they are globals of the
// kernels' module.)
//
//===----------------------------------------------------------------------===//

#include "CUDADriver.h"
#include "RLX/Runtime/CUDA/CUDARuntime.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <string>

using namespace rlx::cuda;

namespace {
/// Bytes of each end of a constant kept to recognize it.
constexpr int64_t kSampleBytes = 64;

/// A constant's device copy, and samples of its host bytes: code unloaded
/// and other code loaded at the same address would have other constants
/// there, which must not get this copy.
struct DeviceCopy {
  int64_t bytes;
  CUdeviceptr copy;
  std::string head, tail;
};

std::mutex constantsMutex;
/// Host address -> its device copy.
std::map<const void *, DeviceCopy> constants;

std::string head(const void *host, int64_t bytes) {
  return std::string(static_cast<const char *>(host),
                     size_t(std::min(bytes, kSampleBytes)));
}
std::string tail(const void *host, int64_t bytes) {
  int64_t n = std::min(bytes, kSampleBytes);
  return std::string(static_cast<const char *>(host) + bytes - n, size_t(n));
}
} // namespace

extern "C" void *rlxGpuConstant(const void *host, int64_t bytes) {
  if (!host || bytes <= 0) {
    recordError("rlxGpuConstant: no constant (" + std::to_string(bytes) +
                " bytes)");
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(constantsMutex);
  auto it = constants.find(host);
  if (it != constants.end()) {
    const DeviceCopy &known = it->second;
    if (known.bytes == bytes && known.head == head(host, bytes) &&
        known.tail == tail(host, bytes))
      return reinterpret_cast<void *>(known.copy);
    // Another constant at a known address: its copy replaces the old one
    // (kept: a kernel may still read it).
    constants.erase(it);
  }
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
  constants.emplace(
      host, DeviceCopy{bytes, copy, head(host, bytes), tail(host, bytes)});
  return reinterpret_cast<void *>(copy);
}
