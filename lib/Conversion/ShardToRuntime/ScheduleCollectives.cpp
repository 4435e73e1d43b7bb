//===- ScheduleCollectives.cpp - order a block for overlapped collectives -===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A collective overlaps computation only if the program has independent
// work to run between the collective's start and the first use of its
// result. Partitioned programs are written one layer (or one micro-batch)
// after another, so that work usually sits after the use. This list
// scheduler reorders a block so that each collective starts as early as
// its operand allows and the work that does not need it comes next:
//
// - the *stage* of an op counts the collectives on its longest path from
//   the block's inputs (an op reading a collective's result is one stage
//   later than the collective); ops run stage by stage, so what one stage
//   of a micro-batch needs no longer waits behind another micro-batch;
// - within a stage, the ops a collective needs run first, the earliest
//   collective's first (a data-parallel backward then starts each bucket's
//   all-reduce once its gradients exist, as DDP does);
// - otherwise the original order.
//
// Ops with memory effects keep their relative order (each depends on the
// one before; calls of functions whose bodies have none count as pure);
// the collectives are pure shard ops, and the runtime sees
// them in the same order on every process since the order is a function of
// the program alone. Upstream has no such scheduler (its shard passes keep
// the order the partitioner wrote).
//
//===----------------------------------------------------------------------===//

#include "ScheduleCollectives.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <queue>

using namespace mlir;

bool mlir::rlx::isShardCollective(Operation *op) {
  return isa<shard::AllReduceOp, shard::AllGatherOp, shard::ReduceScatterOp,
             shard::AllToAllOp>(op);
}

namespace {

/// Whether `op` reads or writes memory, or has other effects. A call of a
/// function defined with tensor semantics (as the GPU front's library
/// matmuls are, until their calls are lowered) has none.
bool hasEffects(Operation *op, DenseMap<Operation *, bool> &calleeEffects) {
  if (rlx::isShardCollective(op))
    return false;
  auto call = dyn_cast<func::CallOp>(op);
  if (!call)
    return !isMemoryEffectFree(op);
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      op, call.getCalleeAttr());
  if (!callee || callee.isExternal())
    return true;
  auto [it, inserted] = calleeEffects.try_emplace(callee, false);
  if (inserted)
    it->second = callee.getBody()
                     .walk([](Operation *inner) {
                       return isMemoryEffectFree(inner)
                                  ? WalkResult::advance()
                                  : WalkResult::interrupt();
                     })
                     .wasInterrupted();
  return it->second;
}

} // namespace

void mlir::rlx::scheduleForOverlap(Block &block) {
  SmallVector<Operation *> ops;
  for (Operation &op : block.without_terminator())
    ops.push_back(&op);
  if (llvm::none_of(ops, isShardCollective))
    return;
  int64_t n = ops.size();
  DenseMap<Operation *, int64_t> index;
  for (int64_t i = 0; i < n; ++i)
    index[ops[i]] = i;

  // What each op waits for: the block's ops defining its operands (those of
  // its regions' ops too) and, for an op with memory effects, the previous
  // such op.
  SmallVector<SmallVector<int64_t>> deps(n);
  DenseMap<Operation *, bool> calleeEffects;
  int64_t lastEffect = -1;
  for (int64_t i = 0; i < n; ++i) {
    Operation *op = ops[i];
    auto depend = [&](Value v) {
      Operation *def = v.getDefiningOp();
      if (!def)
        return;
      def = block.findAncestorOpInBlock(*def);
      if (def && def != op && index.count(def))
        deps[i].push_back(index[def]);
    };
    op->walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        depend(v);
    });
    if (hasEffects(op, calleeEffects)) {
      if (lastEffect >= 0)
        deps[i].push_back(lastEffect);
      lastEffect = i;
    }
    llvm::sort(deps[i]);
    deps[i].erase(llvm::unique(deps[i]), deps[i].end());
  }

  // Stages, in the original (topological) order.
  SmallVector<int64_t> stage(n, 0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t d : deps[i])
      stage[i] = std::max(stage[i], stage[d] + (isShardCollective(ops[d])));

  // The earliest collective of its own stage that each op feeds (n: none),
  // from the last op back. (Users come out sorted and unique: each op's
  // dependencies are.)
  SmallVector<SmallVector<int64_t>> users(n);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t d : deps[i])
      users[d].push_back(i);
  SmallVector<int64_t> feeds(n, n);
  for (int64_t i = n - 1; i >= 0; --i) {
    if (isShardCollective(ops[i])) {
      feeds[i] = i;
      continue;
    }
    for (int64_t u : users[i])
      if (stage[u] == stage[i])
        feeds[i] = std::min(feeds[i], feeds[u]);
  }

  // List scheduling: of the ops whose dependencies ran, the least (stage,
  // collective fed, original position).
  using Key = std::tuple<int64_t, int64_t, int64_t>;
  std::priority_queue<Key, std::vector<Key>, std::greater<Key>> ready;
  SmallVector<int64_t> waiting(n);
  for (int64_t i = 0; i < n; ++i) {
    waiting[i] = deps[i].size();
    if (!waiting[i])
      ready.push({stage[i], feeds[i], i});
  }
  Operation *terminator = block.getTerminator();
  while (!ready.empty()) {
    int64_t i = std::get<2>(ready.top());
    ready.pop();
    ops[i]->moveBefore(terminator);
    for (int64_t u : users[i])
      if (--waiting[u] == 0)
        ready.push({stage[u], feeds[u], u});
  }
}
