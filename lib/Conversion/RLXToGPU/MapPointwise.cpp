//===- MapPointwise.cpp - one thread per point of a linalg op -------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx-gpu-map-linalg's default schedule: one thread per point of a
// generic's parallel loops (vector accesses where the innermost loop is
// contiguous in every operand that reads it), looping over its reduction
// loops.
//
//===----------------------------------------------------------------------===//

#include "MapLinalg.h"

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::kernels;
using namespace mlir::rlx::map_linalg;

void map_linalg::emitPointwise(ImplicitLocOpBuilder &b, const Schedule &s,
                               int64_t blockSize) {
  linalg::GenericOp op = s.op;
  SmallVector<unsigned> parallel, reduction;
  for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray()))
    (it == utils::IteratorType::parallel ? parallel : reduction).push_back(i);
  unsigned innermost = s.ranges.size() - 1;
  SmallVector<int64_t> threadRanges;
  for (unsigned d : parallel)
    threadRanges.push_back(d == innermost ? s.ranges[d] / s.lanes
                                          : s.ranges[d]);
  int64_t points = product(threadRanges);
  int64_t grid = std::max<int64_t>(1, llvm::divideCeil(points, blockSize));
  gpu::LaunchOp launch = createLaunch(b, op, grid, std::min(points, blockSize));
  Value id = arith::AddIOp::create(
      b,
      arith::MulIOp::create(b, launch.getBlockIds().x, launch.getBlockSize().x),
      launch.getThreadIds().x);
  auto guard = scf::IfOp::create(b, inRange(b, id, points), /*withElse=*/false);
  b.setInsertionPointToStart(guard.thenBlock());

  SmallVector<Value> ivs(s.ranges.size(), indexConstant(b, 0));
  for (auto [d, iv] : llvm::zip(parallel, delinearize(b, id, threadRanges)))
    ivs[d] = d == innermost && s.lanes > 1
                 ? arith::MulIOp::create(b, iv, indexConstant(b, s.lanes))
                 : iv;

  // Outputs are loaded once per point and carried through the reduction
  // loops; an elementwise body that ignores its output reads none.
  SmallVector<SmallVector<Value>> outs;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    if (reduction.empty() && op.getMatchingBlockArgument(&init).use_empty()) {
      outs.push_back(SmallVector<Value>(s.lanes, unusedOutput(b, op, init)));
      continue;
    }
    outs.push_back(loadLanes(b, op, init, ivs, innermost, s.lanes));
  }

  auto computeAt = [&](ImplicitLocOpBuilder &b, ValueRange pointIvs,
                       ArrayRef<SmallVector<Value>> current) {
    SmallVector<SmallVector<Value>> inputs;
    for (OpOperand *in : op.getDpsInputOperands())
      inputs.push_back(loadLanes(b, op, *in, pointIvs, innermost, s.lanes));
    return cloneBodyPerLane(b, op, pointIvs, innermost, s.lanes, inputs,
                            current);
  };

  if (reduction.empty()) {
    outs = computeAt(b, ivs, outs);
  } else {
    // Nested loops over the reduction dims (lanes is 1 here), carrying the
    // outputs.
    SmallVector<Value> carried;
    for (auto &lanes : outs)
      carried.push_back(lanes[0]);
    SmallVector<scf::ForOp> loops;
    for (unsigned d : reduction) {
      Value step = indexConstant(b, 1);
      Value upper = indexConstant(b, s.ranges[d]);
      Value lower = indexConstant(b, 0);
      auto loop = scf::ForOp::create(b, lower, upper, step, carried);
      if (!loops.empty())
        scf::YieldOp::create(b, loop.getResults());
      b.setInsertionPointToStart(loop.getBody());
      ivs[d] = loop.getInductionVar();
      carried = llvm::to_vector_of<Value>(loop.getRegionIterArgs());
      loops.push_back(loop);
    }
    SmallVector<SmallVector<Value>> current;
    for (Value v : carried)
      current.push_back({v});
    SmallVector<Value> next;
    for (auto &lanes : computeAt(b, ivs, current))
      next.push_back(lanes[0]);
    scf::YieldOp::create(b, next);
    b.setInsertionPointAfter(loops.front());
    for (auto [r, v] : llvm::enumerate(loops.front().getResults()))
      outs[r] = {v};
  }
  for (auto [init, lanes] : llvm::zip(op.getDpsInitsMutable(), outs))
    storeLanes(b, op, init, ivs, lanes);
}
