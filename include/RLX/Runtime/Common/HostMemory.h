//===- HostMemory.h - host memory for tensors and compiled code -*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one allocation function of the CPU runtime: the allocation entry
// points of compiled code (CPUAlloc.cpp) and rlx-run's tensors and caching
// allocator all take their memory from it.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_RUNTIME_HOSTMEMORY_H
#define RLX_RUNTIME_HOSTMEMORY_H

#include <cstdint>

namespace mlir {
namespace rlx {
namespace runtime {

/// Blocks of this size or more are backed by transparent huge pages.
constexpr uint64_t kHugePageBytes = uint64_t(2) << 20;

/// Allocates `size` bytes (at least one) on an `alignment` boundary (a power
/// of two); free the block with std::free. A block of kHugePageBytes or
/// more is placed on a huge-page boundary, rounded up to whole huge pages,
/// and advised as huge-page backed (madvise(MADV_HUGEPAGE)): a memory-bound
/// kernel sweeping 64 MiB on 4 KiB pages misses the TLB once per 4 KiB, and
/// where transparent huge pages are `madvise`-only (the common default)
/// nothing else gives it 2 MiB pages. Returns nullptr when out of memory.
void *allocateHostMemory(uint64_t alignment, uint64_t size);

} // namespace runtime
} // namespace rlx
} // namespace mlir

#endif // RLX_RUNTIME_HOSTMEMORY_H
