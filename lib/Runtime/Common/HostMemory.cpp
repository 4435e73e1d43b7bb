//===- HostMemory.cpp - host memory for tensors and compiled code ---------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/Common/HostMemory.h"

#include <algorithm>
#include <cstdlib>
#include <sys/mman.h>

using namespace mlir::rlx::runtime;

void *mlir::rlx::runtime::allocateHostMemory(uint64_t alignment,
                                             uint64_t size) {
  if (size >= kHugePageBytes)
    alignment = std::max(alignment, kHugePageBytes);
  uint64_t rounded = std::max((size + alignment - 1) / alignment * alignment,
                              alignment);
  void *p = std::aligned_alloc(alignment, rounded);
#ifdef MADV_HUGEPAGE
  // Advice only: where the kernel has no transparent huge pages the block
  // stays on small pages and madvise's failure changes nothing.
  if (p && size >= kHugePageBytes)
    (void)madvise(p, rounded, MADV_HUGEPAGE);
#endif
  return p;
}
