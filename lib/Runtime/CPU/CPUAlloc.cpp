//===- CPUAlloc.cpp - the allocation entry points of compiled code --------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// --rlx-cpu-pipeline lowers allocations to calls of the generic functions
// below (finalize-memref-to-llvm with use-generic-functions), so that a
// host can route them. This is the plain version that objects from
// rlx-compile link against (malloc, with large blocks on huge pages:
// HostMemory.h); rlx-run substitutes its own (poisoning, caching) ones in
// the JIT, over the same allocation function.
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/Common/HostMemory.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using mlir::rlx::runtime::allocateHostMemory;

extern "C" void *_mlir_memref_to_llvm_alloc(uint64_t size) {
  return allocateHostMemory(alignof(std::max_align_t), size);
}

extern "C" void *_mlir_memref_to_llvm_aligned_alloc(uint64_t alignment,
                                                    uint64_t size) {
  return allocateHostMemory(alignment, size);
}

extern "C" void _mlir_memref_to_llvm_free(void *p) { std::free(p); }
