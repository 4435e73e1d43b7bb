//===- MapColumnReductions.cpp - column reductions of few points ----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx-gpu-map-linalg's schedule for a reduction of few points that each
// reduce many values (a bias gradient): blocks of points x slices of the
// reduction, then a second kernel that folds the blocks' partial values.
//
//===----------------------------------------------------------------------===//

#include "MapLinalg.h"

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::kernels;
using namespace mlir::rlx::map_linalg;

/// A column reduction needs fewer points than this to be split across the
/// threads of blocks: with more, one thread per point fills the GPU.
constexpr int64_t kMaxColumnPoints = 32768;
/// Blocks a split column reduction aims at (a few per multiprocessor of a
/// large GPU), and the fewest reduction points each thread folds.
constexpr int64_t kColumnBlocks = 512;
constexpr int64_t kMinFoldsPerThread = 16;

std::optional<SmallVector<RowReduction>>
map_linalg::matchColumnReduction(const Schedule &s, int64_t blockSize,
                                 int64_t subgroup) {
  linalg::GenericOp op = s.op;
  if (op.getNumReductionLoops() == 0 ||
      op.getIteratorTypesArray().back() != utils::IteratorType::parallel)
    return std::nullopt;
  int64_t points = 1, folds = 1;
  for (auto [range, it] : llvm::zip(s.ranges, op.getIteratorTypesArray()))
    (it == utils::IteratorType::parallel ? points : folds) *= range;
  if (points >= kMaxColumnPoints ||
      folds < 2 * kMinFoldsPerThread * (blockSize / subgroup))
    return std::nullopt;
  SmallVector<RowReduction> combiners;
  for (unsigned i = 0; i < op.getNumDpsInits(); ++i) {
    std::optional<RowReduction> red = matchCombiner(op, i);
    if (!red)
      return std::nullopt;
    combiners.push_back(*red);
  }
  return combiners;
}

void map_linalg::emitColumnReduction(ImplicitLocOpBuilder &b, const Schedule &s,
                                     ArrayRef<RowReduction> reds,
                                     int64_t blockSize, int64_t subgroup) {
  linalg::GenericOp op = s.op;
  SmallVector<unsigned> parallel, reduction;
  SmallVector<int64_t> pointRanges, foldRanges;
  for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray())) {
    bool isParallel = it == utils::IteratorType::parallel;
    (isParallel ? parallel : reduction).push_back(i);
    (isParallel ? pointRanges : foldRanges).push_back(s.ranges[i]);
  }
  int64_t points = product(pointRanges), folds = product(foldRanges);
  int64_t slices = blockSize / subgroup;
  int64_t pointBlocks = llvm::divideCeil(points, subgroup);
  int64_t chunks = std::clamp<int64_t>(
      llvm::divideCeil(kColumnBlocks, pointBlocks), 1,
      std::max<int64_t>(1, folds / (slices * kMinFoldsPerThread)));
  int64_t chunkFolds = llvm::divideCeil(folds, chunks);
  chunks = llvm::divideCeil(folds, chunkFolds);

  SmallVector<Type> accTypes;
  SmallVector<Type> slicesTypes;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    Type acc = op.getMatchingBlockArgument(&init).getType();
    accTypes.push_back(acc);
    slicesTypes.push_back(workgroupMemRefType({slices, subgroup}, acc));
  }
  // The partial values of each chunk, [chunk, point], when there are
  // several chunks.
  SmallVector<Value> partials;
  b.setInsertionPoint(op);
  if (chunks > 1)
    for (Type acc : accTypes)
      partials.push_back(
          memref::AllocOp::create(b, MemRefType::get({chunks, points}, acc)));

  auto neutrals = [&] {
    return llvm::map_to_vector(reds, [&](const RowReduction &red) -> Value {
      return arith::ConstantOp::create(b, red.neutral);
    });
  };
  // The loop point of output point `point` (the reduction loops at 0: the
  // outputs do not read them).
  auto pointIvs = [&](Value point) {
    SmallVector<Value> ivs(s.ranges.size(), indexConstant(b, 0));
    for (auto [d, iv] : llvm::zip(parallel, delinearize(b, point, pointRanges)))
      ivs[d] = iv;
    return ivs;
  };
  // Folds the initial value of every output at `ivs` into `values` and
  // stores the results.
  auto storeOutputs = [&](ValueRange ivs, ValueRange values) {
    for (auto [init, red, v] :
         llvm::zip(op.getDpsInitsMutable(), reds, values)) {
      Value initial = loadLanes(b, op, init, ivs, 0, 1)[0];
      storeLanes(b, op, init, ivs, {combine(b, red, initial, v)});
    }
  };

  gpu::LaunchOp launch =
      createLaunch(b, op, pointBlocks * chunks, blockSize, slicesTypes);
  Value tid = launch.getThreadIds().x, bid = launch.getBlockIds().x;
  Value lane = arith::RemUIOp::create(b, tid, indexConstant(b, subgroup));
  Value slice = arith::DivUIOp::create(b, tid, indexConstant(b, subgroup));
  Value chunk = arith::DivUIOp::create(b, bid, indexConstant(b, pointBlocks));
  Value subgroupSize = indexConstant(b, subgroup);
  Value pointBlock =
      arith::RemUIOp::create(b, bid, indexConstant(b, pointBlocks));
  Value point = arith::AddIOp::create(
      b, arith::MulIOp::create(b, pointBlock, subgroupSize), lane);
  Value inside = inRange(b, point, points);
  SmallVector<Value> ivs = pointIvs(point);
  // Each thread folds points start, start + slices, ... of its chunk.
  auto fold = scf::IfOp::create(b, accTypes, inside, /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(fold.thenBlock());
    Value first = arith::MulIOp::create(b, chunk, indexConstant(b, chunkFolds));
    Value foldCount = indexConstant(b, folds);
    Value chunkEnd =
        arith::AddIOp::create(b, first, indexConstant(b, chunkFolds));
    Value end = arith::MinUIOp::create(b, chunkEnd, foldCount);
    SmallVector<Value> init = neutrals();
    Value step = indexConstant(b, slices);
    Value start = arith::AddIOp::create(b, first, slice);
    auto loop = scf::ForOp::create(b, start, end, step, init);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> loopIvs = ivs;
    for (auto [d, iv] : llvm::zip(
             reduction, delinearize(b, loop.getInductionVar(), foldRanges)))
      loopIvs[d] = iv;
    SmallVector<Value> args;
    for (OpOperand *in : op.getDpsInputOperands())
      args.push_back(loadLanes(b, op, *in, loopIvs, 0, 1)[0]);
    llvm::append_range(args, loop.getRegionIterArgs());
    scf::YieldOp::create(b, cloneBody(b, op, loopIvs, args));
    b.setInsertionPointAfter(loop);
    scf::YieldOp::create(b, loop.getResults());
    b.setInsertionPointToStart(fold.elseBlock());
    scf::YieldOp::create(b, neutrals());
  }
  ValueRange slicesMem = launch.getWorkgroupAttributions();
  for (auto [v, mem] : llvm::zip(fold.getResults(), slicesMem))
    memref::StoreOp::create(b, v, mem, ValueRange{slice, lane});
  gpu::BarrierOp::create(b);
  Value isSlice0 = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, slice,
                                         indexConstant(b, 0));
  auto store = scf::IfOp::create(b, arith::AndIOp::create(b, isSlice0, inside),
                                 /*withElse=*/false);
  b.setInsertionPointToStart(store.thenBlock());
  SmallVector<Value> totals;
  for (auto [red, mem] : llvm::zip(reds, slicesMem)) {
    Value total =
        memref::LoadOp::create(b, mem, ValueRange{indexConstant(b, 0), lane});
    for (int64_t j = 1; j < slices; ++j)
      total = combine(b, red, total,
                      memref::LoadOp::create(
                          b, mem, ValueRange{indexConstant(b, j), lane}));
    totals.push_back(total);
  }
  if (chunks == 1) {
    storeOutputs(ivs, totals);
    return;
  }
  for (auto [total, buffer] : llvm::zip(totals, partials))
    memref::StoreOp::create(b, total, buffer, ValueRange{chunk, point});

  // One thread per point folds the chunks' partial values.
  int64_t block = std::min(points, blockSize);
  gpu::LaunchOp finish =
      createLaunch(b, op, llvm::divideCeil(points, block), block);
  Value id = arith::AddIOp::create(
      b,
      arith::MulIOp::create(b, finish.getBlockIds().x, indexConstant(b, block)),
      finish.getThreadIds().x);
  auto guard = scf::IfOp::create(b, inRange(b, id, points), /*withElse=*/false);
  b.setInsertionPointToStart(guard.thenBlock());
  SmallVector<Value> init = neutrals();
  Value step = indexConstant(b, 1);
  Value upper = indexConstant(b, chunks);
  Value lower = indexConstant(b, 0);
  auto loop = scf::ForOp::create(b, lower, upper, step, init);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> next;
    for (auto [red, buffer, acc] :
         llvm::zip(reds, partials, loop.getRegionIterArgs()))
      next.push_back(
          combine(b, red, acc,
                  memref::LoadOp::create(
                      b, buffer, ValueRange{loop.getInductionVar(), id})));
    scf::YieldOp::create(b, next);
  }
  storeOutputs(pointIvs(id), loop.getResults());
  b.setInsertionPoint(op);
  for (Value buffer : partials)
    memref::DeallocOp::create(b, buffer);
}
