//===- ConstantCache.cpp - device copies of constant buffers --------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ConstantCache.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <string>

using namespace rlx::runtime;

namespace {
/// Bytes of each end of a constant kept to recognize it.
constexpr int64_t kSampleBytes = 64;

/// A constant's device copy, and samples of its host bytes: code unloaded
/// and other code loaded at the same address would have other constants
/// there, which must not get this copy.
struct DeviceCopy {
  int64_t bytes;
  void *copy;
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

void *rlx::runtime::deviceConstant(const void *host, int64_t bytes,
                                   CopyToDevice copy, ErrorRecord &errors) {
  if (!host || bytes <= 0) {
    errors.record("rlxGpuConstant: no constant (" + std::to_string(bytes) +
                  " bytes)");
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(constantsMutex);
  auto it = constants.find(host);
  if (it != constants.end()) {
    const DeviceCopy &known = it->second;
    if (known.bytes == bytes && known.head == head(host, bytes) &&
        known.tail == tail(host, bytes))
      return known.copy;
    // Another constant at a known address: its copy replaces the old one
    // (kept: a kernel may still read it).
    constants.erase(it);
  }
  void *device = copy(host, bytes);
  if (!device)
    return nullptr;
  constants.emplace(
      host, DeviceCopy{bytes, device, head(host, bytes), tail(host, bytes)});
  return device;
}
