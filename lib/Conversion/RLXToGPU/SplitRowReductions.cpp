//===- SplitRowReductions.cpp - row reductions reshaped for the GPU -------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Rewrites of rlx-gpu-map-linalg before it maps ops to kernels: a row
// reduction of few long rows split in two, and one of several results
// split into one generic per result.
//
//===----------------------------------------------------------------------===//

#include "MapLinalg.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::kernels;
using namespace mlir::rlx::map_linalg;

/// A row reduction of fewer rows than this, each longer than
/// kMinSplitRowFolds, is split in two (splitLongRowReductions).
constexpr int64_t kMinRows = 256;
constexpr int64_t kMinSplitRowFolds = 65536;

void map_linalg::splitLongRowReductions(func::FuncOp func,
                                        RewriterBase &rewriter,
                                        int64_t subgroup) {
  SmallVector<std::pair<linalg::GenericOp, RowReduction>> generics;
  func.walk([&](linalg::GenericOp op) {
    std::optional<RowReduction> red = matchRowReduction(op);
    if (!op.hasPureBufferSemantics() || !red ||
        !op.getMatchingIndexingMap(&op.getDpsInitsMutable()[0])
             .isProjectedPermutation())
      return;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (llvm::any_of(ranges, ShapedType::isDynamic))
      return;
    unsigned numParallel = op.getNumParallelLoops();
    if (product(ArrayRef(ranges).take_front(numParallel)) < kMinRows &&
        product(ArrayRef(ranges).drop_front(numParallel)) >= kMinSplitRowFolds)
      generics.emplace_back(op, *red);
  });
  for (auto &entry : generics) {
    // Named, not bound: a lambda below captures them.
    linalg::GenericOp op = entry.first;
    const RowReduction &red = entry.second;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    unsigned numLoops = ranges.size(), numParallel = op.getNumParallelLoops();
    int64_t rows = product(ArrayRef(ranges).take_front(numParallel));
    int64_t folds = product(ArrayRef(ranges).drop_front(numParallel));
    // The loops [numParallel, split) become rows of the first reduction.
    unsigned split = numParallel;
    while (split + 1 < numLoops && rows < kMinRows &&
           folds / ranges[split] >= subgroup) {
      rows *= ranges[split];
      folds /= ranges[split];
      ++split;
    }
    if (split == numParallel)
      continue;
    OpOperand &init = op.getDpsInitsMutable()[0];
    Type acc = op.getMatchingBlockArgument(&init).getType();
    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    // The partial values: the output's dims, then the split loops.
    AffineMap outMap = op.getMatchingIndexingMap(&init);
    SmallVector<int64_t> partialShape;
    SmallVector<AffineExpr> partialExprs(outMap.getResults());
    for (AffineExpr e : outMap.getResults())
      partialShape.push_back(ranges[cast<AffineDimExpr>(e).getPosition()]);
    for (unsigned d = numParallel; d < split; ++d) {
      partialShape.push_back(ranges[d]);
      partialExprs.push_back(getAffineDimExpr(d, ctx));
    }
    Value partial = memref::AllocOp::create(rewriter, loc,
                                            MemRefType::get(partialShape, acc));
    Value neutral = arith::ConstantOp::create(rewriter, loc, red.neutral);
    linalg::FillOp::create(rewriter, loc, neutral, partial);
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    for (unsigned d = numParallel; d < split; ++d)
      iterators[d] = utils::IteratorType::parallel;
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    maps.back() = AffineMap::get(numLoops, 0, partialExprs, ctx);
    auto first =
        linalg::GenericOp::create(rewriter, loc, TypeRange{}, op.getDpsInputs(),
                                  ValueRange{partial}, maps, iterators);
    rewriter.inlineRegionBefore(op.getRegion(), first.getRegion(),
                                first.getRegion().end());
    // The second reduction: the output's loops, then the split ones.
    unsigned outRank = outMap.getNumResults();
    unsigned secondLoops = partialShape.size();
    SmallVector<utils::IteratorType> secondIterators(
        outRank, utils::IteratorType::parallel);
    secondIterators.append(secondLoops - outRank,
                           utils::IteratorType::reduction);
    AffineMap all = rewriter.getMultiDimIdentityMap(secondLoops);
    AffineMap outputs = AffineMap::get(
        secondLoops, 0, all.getResults().take_front(outRank), ctx);
    linalg::GenericOp::create(
        rewriter, loc, TypeRange{}, ValueRange{partial}, ValueRange{init.get()},
        ArrayRef<AffineMap>{all, outputs}, secondIterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          IRMapping mapping;
          mapping.map(red.combiner->getOperand(red.accOperand), args[1]);
          mapping.map(red.combiner->getOperand(1 - red.accOperand), args[0]);
          linalg::YieldOp::create(
              b, l, b.clone(*red.combiner, mapping)->getResult(0));
        });
    memref::DeallocOp::create(rewriter, loc, partial);
    rewriter.eraseOp(op);
  }
}

void map_linalg::splitRowReductionResults(func::FuncOp func,
                                          RewriterBase &rewriter) {
  SmallVector<linalg::GenericOp> generics;
  func.walk([&](linalg::GenericOp op) {
    if (op.getNumDpsInits() < 2 || !op.hasPureBufferSemantics() ||
        op.getNumReductionLoops() == 0)
      return;
    unsigned firstReduction = op.getNumParallelLoops();
    for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray()))
      if ((i < firstReduction) != (it == utils::IteratorType::parallel))
        return;
    SmallVector<Operation *> combiners;
    for (unsigned i = 0; i < op.getNumDpsInits(); ++i) {
      std::optional<RowReduction> red = matchCombiner(op, i);
      if (!red)
        return;
      combiners.push_back(red->combiner);
    }
    // No result's value may depend on another's combiner.
    for (auto [i, combiner] : llvm::enumerate(combiners)) {
      SetVector<Operation *> slice;
      BackwardSliceOptions options;
      options.filter = [&](Operation *o) {
        return o->getBlock() == op.getBlock();
      };
      (void)getBackwardSlice(combiner, &slice, options);
      for (auto [j, other] : llvm::enumerate(combiners))
        if (i != j && slice.contains(other))
          return;
    }
    generics.push_back(op);
  });
  for (linalg::GenericOp op : generics) {
    rewriter.setInsertionPoint(op);
    SmallVector<Value> inputs = op.getDpsInputs();
    SmallVector<AffineMap> maps =
        llvm::map_to_vector(op.getDpsInputOperands(), [&](OpOperand *in) {
          return op.getMatchingIndexingMap(in);
        });
    Block *body = op.getBlock();
    for (OpOperand &init : op.getDpsInitsMutable()) {
      unsigned i = init.getOperandNumber() - op.getNumDpsInputs();
      Value yielded = body->getTerminator()->getOperand(i);
      SetVector<Operation *> slice;
      BackwardSliceOptions options;
      options.filter = [&](Operation *o) { return o->getBlock() == body; };
      options.inclusive = true;
      (void)getBackwardSlice(yielded, &slice, options);
      SmallVector<AffineMap> resultMaps = maps;
      resultMaps.push_back(op.getMatchingIndexingMap(&init));
      linalg::GenericOp::create(
          rewriter, op.getLoc(), TypeRange{}, inputs, ValueRange{init.get()},
          resultMaps, op.getIteratorTypesArray(),
          [&](OpBuilder &b, Location loc, ValueRange args) {
            IRMapping mapping;
            mapping.map(body->getArguments().take_front(inputs.size()),
                        args.drop_back());
            mapping.map(op.getMatchingBlockArgument(&init), args.back());
            for (Operation &inner : body->without_terminator())
              if (slice.contains(&inner))
                b.clone(inner, mapping);
            linalg::YieldOp::create(b, loc, mapping.lookup(yielded));
          });
    }
    rewriter.eraseOp(op);
  }
}
