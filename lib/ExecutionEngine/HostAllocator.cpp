//===- HostAllocator.cpp - the allocator of JIT-compiled programs ---------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/ExecutionEngine/HostAllocator.h"

#include "RLX/Runtime/Common/HostMemory.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_map>
#include <utility>

using namespace mlir::rlx;

namespace {
/// Freed large buffers kept for reuse, by size; released at exit.
struct BlockCache : std::multimap<uint64_t, void *> {
  ~BlockCache() {
    for (auto &[size, block] : *this)
      std::free(block);
  }
};

struct State {
  std::mutex mutex;
  std::unordered_map<void *, uint64_t> live;
  BlockCache cache;
  uint64_t cachedBytes = 0;
  bool poison = true;
  std::vector<uint64_t> log;
};
} // namespace

static constexpr uint64_t kCacheMinBytes = 1 << 20;
static constexpr uint64_t kCacheMaxBytes = uint64_t(1) << 31;

static State &state() {
  static State s;
  return s;
}

void *host_allocator::allocateAligned(uint64_t alignment, uint64_t size) {
  State &s = state();
  alignment = std::max<uint64_t>(alignment, 16);
  bool poison;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    poison = s.poison;
    if (poison)
      s.log.push_back(size);
  }
  size = std::max<uint64_t>((size + alignment - 1) / alignment * alignment,
                            alignment);
  void *p = nullptr;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    auto cached = s.cache.find(size);
    if (cached != s.cache.end()) {
      p = cached->second;
      s.cache.erase(cached);
      s.cachedBytes -= size;
    }
  }
  if (!p)
    p = runtime::allocateHostMemory(alignment, size);
  if (!p)
    return nullptr;
  if (poison)
    std::memset(p, 0xFF, size);
  std::lock_guard<std::mutex> lock(s.mutex);
  s.live[p] = size;
  return p;
}

void *host_allocator::allocate(uint64_t size) {
  return allocateAligned(16, size);
}

void host_allocator::deallocate(void *p) {
  State &s = state();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    auto live = s.live.find(p);
    if (live != s.live.end()) {
      uint64_t size = live->second;
      s.live.erase(live);
      if (size >= kCacheMinBytes && s.cachedBytes + size <= kCacheMaxBytes) {
        s.cache.emplace(size, p);
        s.cachedBytes += size;
        return;
      }
    }
  }
  std::free(p);
}

bool host_allocator::isLiveAllocation(void *p) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.live.count(p);
}

void host_allocator::setPoison(bool poison) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.poison = poison;
}

std::vector<uint64_t> host_allocator::takeAllocationLog() {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return std::exchange(s.log, {});
}
