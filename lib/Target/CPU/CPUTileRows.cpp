//===- CPUTileRows.cpp - one loop over rows per fused group ---------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Softmax, the norms and cross-entropy lower to a few linalg ops over the
// same rows (max, sum of exp, normalize). Run one after the other, each is a
// pass over the whole tensor; tiled together by rows, each row is read from
// memory once and the later passes over it hit the L1 cache. The tiling
// and the fusion are upstream's (scf::tileConsumerAndFuseProducersUsingSCF);
// what is RLX's is the choice of what to tile and what to fuse.
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_CPUTILEROWSPASS
#include "RLX/Target/CPU/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {

/// Contractions and convolutions reuse each input element many times; a
/// row at a time they would stream their whole right-hand side per row.
bool isReuseHeavy(linalg::LinalgOp op) {
  return linalg::isaContractionOpInterface(op) ||
         linalg::isaConvolutionOpInterface(op);
}

/// The tile sizes that walk `op` one row at a time: 1 for every parallel
/// loop but the innermost loop, 0 (untiled) for reductions and the
/// innermost loop. Empty when nothing would be tiled.
SmallVector<OpFoldResult> rowTileSizes(OpBuilder &b, linalg::LinalgOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (iterators.size() < 2)
    return {};
  SmallVector<OpFoldResult> sizes;
  bool tiled = false;
  for (auto [i, iterator] : llvm::enumerate(iterators)) {
    bool tile =
        i + 1 < iterators.size() && iterator == utils::IteratorType::parallel;
    sizes.push_back(b.getIndexAttr(tile ? 1 : 0));
    tiled |= tile;
  }
  if (!tiled)
    return {};
  return sizes;
}

/// Fuses a producer into the row loop only when the loop needs a strict
/// part of its result: a producer whose whole result every row reads (a
/// reduction over the rows, a broadcast operand) would be recomputed per
/// row.
std::optional<scf::SCFTileAndFuseOptions::ControlFnResult>
fuseIfSliced(tensor::ExtractSliceOp slice, OpResult producer, bool) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(producer.getOwner());
  if (!linalgOp || isReuseHeavy(linalgOp))
    return std::nullopt;
  auto full = cast<RankedTensorType>(producer.getType());
  bool strict = false;
  for (auto [size, dim] : llvm::zip(slice.getMixedSizes(), full.getShape())) {
    std::optional<int64_t> constant = getConstantIntValue(size);
    strict |= !constant || ShapedType::isDynamic(dim) || *constant < dim;
  }
  if (!strict)
    return std::nullopt;
  // Nothing is yielded for readers outside the loop: a producer that other
  // groups read too stays (and is computed once more) outside.
  return scf::SCFTileAndFuseOptions::ControlFnResult{};
}

/// The single-result, all-parallel linalg op `op` whose payload never reads
/// its output element: its result depends only on its inputs.
bool writesWithoutReading(linalg::LinalgOp op) {
  return op->getNumResults() == 1 &&
         op.getNumParallelLoops() == op.getNumLoops() &&
         !op.payloadUsesValueFromOperand(op.getDpsInitOperand(0));
}

/// Whether `later` computes what `earlier` computes (same inputs, maps and
/// payload), differing at most in the tensor it writes into.
bool recomputes(linalg::LinalgOp later, linalg::LinalgOp earlier) {
  if (!writesWithoutReading(earlier) || !writesWithoutReading(later))
    return false;
  Value earlierInit = earlier.getDpsInitOperand(0)->get();
  Value laterInit = later.getDpsInitOperand(0)->get();
  if (earlierInit.getType() != laterInit.getType())
    return false;
  DenseMap<Value, Value> same;
  return OperationEquivalence::isEquivalentTo(
      later, earlier,
      [&](Value a, Value b) {
        return success(a == b || same.lookup(a) == b ||
                       (a == laterInit && b == earlierInit));
      },
      [&](Value a, Value b) { same[a] = b; }, OperationEquivalence::None);
}

/// A producer that two consumers in one row loop read is fused once per
/// consumer (upstream fusion clones it per slice). CSE merges the copies
/// that are identical; it cannot merge a copy fused into a consumer's
/// output (softmax's exp, which its normalization overwrites in place)
/// with one fused into an input. This merges those too: the earlier copy
/// takes over the later one's output tensor (an extract_slice of the loop's
/// destination, moved up where needed), so each element is computed once
/// and written where the result goes.
void mergeRecomputedProducers(RewriterBase &rewriter, scf::ForOp loop) {
  SmallVector<linalg::LinalgOp> ops;
  for (Operation &op : loop.getBody()->getOperations())
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(&op))
      ops.push_back(linalgOp);
  DominanceInfo dominance(loop);
  llvm::SmallPtrSet<Operation *, 8> merged;
  for (auto [i, earlier] : llvm::enumerate(ops)) {
    if (merged.contains(earlier))
      continue;
    for (linalg::LinalgOp later : ArrayRef(ops).drop_front(i + 1)) {
      if (merged.contains(later) || !recomputes(later, earlier))
        continue;
      Value init = later.getDpsInitOperand(0)->get();
      if (!dominance.properlyDominates(init, earlier)) {
        // An extract_slice of values defined before `earlier` moves up.
        auto slice = init.getDefiningOp<tensor::ExtractSliceOp>();
        if (!slice || !llvm::all_of(slice->getOperands(), [&](Value v) {
              return dominance.properlyDominates(v, earlier);
            }))
          continue;
        rewriter.moveOpBefore(slice, earlier);
      }
      rewriter.modifyOpInPlace(
          earlier, [&] { earlier.getDpsInitOperand(0)->set(init); });
      rewriter.replaceOp(later, earlier->getResults());
      merged.insert(later);
    }
  }
}

struct CPUTileRowsPass : rlx::impl::CPUTileRowsPassBase<CPUTileRowsPass> {
  void runOnOperation() override {
    // Consumers last to first: each tiled consumer pulls its producers into
    // its loop, so a producer that was fused is not a root any more.
    SmallVector<linalg::LinalgOp> roots;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && !isReuseHeavy(op))
        roots.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    llvm::SmallPtrSet<Operation *, 16> erased;
    for (linalg::LinalgOp root : llvm::reverse(roots)) {
      if (erased.contains(root.getOperation()))
        continue;
      // Only the last op of a group is a root: one whose results no other
      // tileable linalg op reads.
      bool readByLinalg = llvm::any_of(root->getUsers(), [](Operation *user) {
        return isa<linalg::LinalgOp>(user);
      });
      if (readByLinalg)
        continue;
      rewriter.setInsertionPoint(root);
      SmallVector<OpFoldResult> sizes = rowTileSizes(rewriter, root);
      if (sizes.empty())
        continue;
      scf::SCFTileAndFuseOptions options;
      options.tilingOptions.setTileSizes(sizes);
      options.setFusionControlFn(fuseIfSliced);
      FailureOr<scf::SCFTileAndFuseResult> result =
          scf::tileConsumerAndFuseProducersUsingSCF(
              rewriter, cast<TilingInterface>(root.getOperation()), options);
      if (failed(result))
        continue;
      for (Operation *producer : result->fusedProducers)
        erased.insert(producer);
      Operation *loop = result->loops.front();
      for (auto [value, replacement] : result->replacements)
        rewriter.replaceUsesWithIf(value, replacement, [&](OpOperand &use) {
          return !loop->isAncestor(use.getOwner());
        });
      erased.insert(root);
      rewriter.eraseOp(root);
    }
    // Row slices of tensor.empty become row-sized tensor.empty, so each
    // row's temporaries bufferize to small buffers (promoted to the stack).
    RewritePatternSet patterns(&getContext());
    tensor::populateFoldTensorEmptyPatterns(patterns);
    linalg::FillOp::getCanonicalizationPatterns(patterns, &getContext());
    tensor::ExtractSliceOp::getCanonicalizationPatterns(patterns,
                                                        &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    DominanceInfo dominance(getOperation());
    eliminateCommonSubExpressions(rewriter, dominance, getOperation());
    getOperation().walk(
        [&](scf::ForOp loop) { mergeRecomputedProducers(rewriter, loop); });
  }
};

} // namespace
