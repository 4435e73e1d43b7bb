//===- PruneBarriers.cpp - barriers that order no memory access -----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The barriers between the ops of a row group that order no memory access
// (what the threads hold in registers needs none) go.
//
//===----------------------------------------------------------------------===//

#include "MapLinalg.h"

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::kernels;
using namespace mlir::rlx::map_linalg;

namespace {

/// The buffers an op and the ops in it read and write.
struct MemoryAccesses {
  llvm::SmallDenseSet<Value, 4> reads, writes;
  bool unknown = false;

  void add(Operation *top) {
    top->walk([&](Operation *op) {
      if (op->hasTrait<OpTrait::IsTerminator>() ||
          op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        return;
      auto iface = dyn_cast<MemoryEffectOpInterface>(op);
      if (!iface) {
        unknown |= !isMemoryEffectFree(op);
        return;
      }
      SmallVector<MemoryEffects::EffectInstance> effects;
      iface.getEffects(effects);
      for (MemoryEffects::EffectInstance &effect : effects) {
        if (isa<MemoryEffects::Allocate, MemoryEffects::Free>(
                effect.getEffect()))
          continue;
        if (!effect.getValue())
          unknown = true;
        else if (isa<MemoryEffects::Read>(effect.getEffect()))
          reads.insert(effect.getValue());
        else
          writes.insert(effect.getValue());
      }
    });
  }

  void add(const MemoryAccesses &other) {
    reads.insert(other.reads.begin(), other.reads.end());
    writes.insert(other.writes.begin(), other.writes.end());
    unknown |= other.unknown;
  }

  /// Whether `later` may touch memory that these accesses touched, with a
  /// write on either side (then a barrier must order them).
  bool conflictsWith(const MemoryAccesses &later) const {
    if (unknown || later.unknown)
      return true;
    auto meets = [](auto &a, auto &b) {
      return llvm::any_of(a, [&](Value v) { return b.contains(v); });
    };
    return meets(writes, later.reads) || meets(writes, later.writes) ||
           meets(reads, later.writes);
  }
};

} // namespace

void map_linalg::pruneBarriers(Block &body,
                               ArrayRef<gpu::BarrierOp> removable) {
  SmallVector<MemoryAccesses> segments(1);
  SmallVector<gpu::BarrierOp> barriers;
  for (Operation &op : body) {
    if (auto barrier = dyn_cast<gpu::BarrierOp>(op)) {
      barriers.push_back(barrier);
      segments.emplace_back();
      continue;
    }
    segments.back().add(&op);
  }
  MemoryAccesses sinceBarrier = segments.front();
  for (auto [barrier, next] :
       llvm::zip(barriers, ArrayRef(segments).drop_front())) {
    if (llvm::is_contained(removable, barrier) &&
        !sinceBarrier.conflictsWith(next)) {
      barrier.erase();
      sinceBarrier.add(next);
      continue;
    }
    sinceBarrier = next;
  }
}
