//===- CPUVectorizeMatmul.cpp - register-tiled, vectorized matmuls --------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A matmul written as loops streams C through memory once per step of k.
// Tiled into MR x NR blocks of C that stay in vector registers for the whole
// k loop, each step loads one row of B (NR/lanes vectors) and MR scalars of
// A and issues MR x NR/lanes FMAs. All of it is upstream: SCF tiling,
// linalg vectorization into vector.contract; after bufferization
// rlx-cpu-lower-vectors hoists the C block out of the k loop into vector
// registers and lowers the contract to FMAs.
//
//===----------------------------------------------------------------------===//

#include "GemmLoops.h"
#include "RLX/Target/CPU/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_CPUVECTORIZEMATMULPASS
#include "RLX/Target/CPU/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {

/// Tiles `op` with `sizes` (a size per loop, 0 = untiled); returns the
/// tiled op and the loops, or failure.
FailureOr<scf::SCFTilingResult> tile(RewriterBase &rewriter, Operation *op,
                                     ArrayRef<int64_t> sizes,
                                     ArrayRef<int64_t> interchange = {}) {
  SmallVector<OpFoldResult> tileSizes;
  for (int64_t s : sizes)
    tileSizes.push_back(rewriter.getIndexAttr(s));
  scf::SCFTilingOptions options;
  options.setTileSizes(tileSizes);
  options.setInterchange(interchange);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> result =
      scf::tileUsingSCF(rewriter, cast<TilingInterface>(op), options);
  if (succeeded(result))
    rewriter.replaceOp(op, result->replacements);
  return result;
}

/// Row blocks of C that must reuse a column panel of B before it is packed
/// (packPanel): a copy of the panel pays for itself over several blocks,
/// not over one or two.
constexpr int64_t kMinBlocksToPack = 4;

/// Copies the panel of B that `block` (a register tile of C, in the
/// row-block loop `rowLoop` inside its column-block loop and block of k)
/// reads, NR columns by the block's k rows, into a contiguous [k, NR]
/// tensor once per column block and block of k, and has every row block
/// read the copy:
/// - where B is read row-major ([.., k, n]: n innermost) and its rows are a
///   multiple of 4 KiB apart: consecutive k steps then read addresses that
///   fall in the same L1 set, and the panel cannot stay in L1. Medians of
///   `rlx-run --bench`, f32, M x K x N, unpacked -> packed: 1024x1024x1024
///   16.7 -> 11.1 ms, 256x1024x1024 3.9 -> 3.0, 512x768x3072 16.1 -> 13.1,
///   128x768x3072 4.05 -> 3.91; rows 9 KiB or 3 KiB apart gain nothing and
///   lose up to 23% to the copy (128x768x2304 2.36 -> 2.91, 512x768x2304
///   10.0 -> 10.0);
/// - always where B is read transposed ([n, k]: k innermost, a matmul with
///   transpose_b, as the backward's products with a weight are): each k
///   step would gather NR values a row of B apart. The copy transposes the
///   panel, and the block reads it as [k, n]. Medians, M x K x N with
///   transpose_b: 256x3072x768 76 -> 6.6 ms, 256x768x3072 12.0 -> 6.9.
void packPanel(RewriterBase &rewriter, linalg::GenericOp block,
               scf::ForOp rowLoop, const rlx::GemmLoops &loops,
               bool severalColumnBlocks) {
  OpOperand *panel = nullptr;
  bool transposed = false;
  for (OpOperand *input : block.getDpsInputOperands()) {
    AffineMap map = block.getMatchingIndexingMap(input);
    if (map.getNumResults() == 0 || map.isFunctionOfDim(loops.m) ||
        !map.isFunctionOfDim(loops.k))
      continue;
    auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!last)
      continue;
    if (last.getPosition() == loops.n) {
      panel = input;
    } else if (last.getPosition() == loops.k && map.getNumResults() == 2 &&
               map.getResult(0) == getAffineDimExpr(loops.n,
                                                    block.getContext())) {
      panel = input;
      transposed = true;
    }
  }
  if (!panel)
    return;
  auto slice = panel->get().getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || slice->getParentOp() != rowLoop.getOperation())
    return;
  RankedTensorType source = slice.getSourceType();
  int64_t rowBytes = source.getShape().back() *
                     source.getElementType().getIntOrFloatBitWidth() / 8;
  if (!transposed && (!severalColumnBlocks || rowBytes % 4096 != 0))
    return;
  // The panel depends on the column block alone: hoist its slice (and the
  // index computations it reads) out of the row-block loop.
  moveLoopInvariantCode(cast<LoopLikeOpInterface>(rowLoop.getOperation()));
  if (slice->getParentOp() == rowLoop.getOperation())
    return;
  RankedTensorType type = slice.getResultType();
  rewriter.setInsertionPointAfter(slice);
  if (!transposed) {
    Value empty = tensor::EmptyOp::create(
        rewriter, slice.getLoc(), type.getShape(), type.getElementType());
    auto copy = linalg::CopyOp::create(rewriter, slice.getLoc(),
                                       slice.getResult(), empty);
    rewriter.replaceAllUsesExcept(slice.getResult(), copy.getResult(0), copy);
    return;
  }
  if (type.getRank() != 2)
    return;
  Value empty = tensor::EmptyOp::create(
      rewriter, slice.getLoc(),
      ArrayRef<int64_t>{type.getDimSize(1), type.getDimSize(0)},
      type.getElementType());
  auto copy = linalg::TransposeOp::create(
      rewriter, slice.getLoc(), slice.getResult(), empty,
      ArrayRef<int64_t>{1, 0});
  SmallVector<AffineMap> maps = block.getIndexingMapsArray();
  AffineMap map = maps[panel->getOperandNumber()];
  maps[panel->getOperandNumber()] = AffineMap::get(
      map.getNumDims(), 0, {map.getResult(1), map.getResult(0)},
      block.getContext());
  rewriter.modifyOpInPlace(block, [&] {
    panel->set(copy.getResult()[0]);
    block.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  });
}

struct CPUVectorizeMatmulPass
    : rlx::impl::CPUVectorizeMatmulPassBase<CPUVectorizeMatmulPass> {
  using CPUVectorizeMatmulPassBase::CPUVectorizeMatmulPassBase;

  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, rlx::GemmLoops>> gemms;
    getOperation().walk([&](linalg::GenericOp op) {
      if (!op.hasPureTensorSemantics())
        return;
      std::optional<rlx::GemmLoops> loops = rlx::matchGemmLoops(op);
      // int8 products go to rlx_cpu_gemm_s8 (rlx-cpu-dispatch-blas).
      if (!loops || !isa<FloatType>(getElementTypeOrSelf(
                        op.getDpsInits()[0].getType())))
        return;
      // Whole register tiles only: the vectors have static shapes.
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      if (ShapedType::isDynamicShape(ranges) ||
          ranges[loops->m] % rowsPerTile != 0 ||
          ranges[loops->n] % colsPerTile(op) != 0)
        return;
      gemms.emplace_back(op, *loops);
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, loops] : gemms) {
      unsigned numLoops = op.getNumLoops();
      SmallVector<int64_t> registerTile(numLoops, 1);
      registerTile[loops.m] = rowsPerTile;
      // Read before tiling, which erases `op`.
      int64_t cols = colsPerTile(op);
      registerTile[loops.n] = cols;
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      // k in blocks of `kBlock` where they divide it: the [kBlock, NR]
      // part of B's panel that the row blocks read in turn stays in L1
      // (32 KiB for f32) instead of streaming from L2 for each of them.
      // Batched 8x128x3072 @ 3072x768 f32: 34.4 -> 24.4 ms (blocks of 256;
      // 512: 25.0, 1024: 28.0); K = 768 or 1024 unchanged.
      registerTile[loops.k] = kBlock > 0 && ranges[loops.k] > kBlock &&
                                      ranges[loops.k] % kBlock == 0
                                  ? kBlock
                                  : 0;
      // Column blocks outside blocks of k outside row blocks: the panel of
      // B is reused from the cache by every row block, and A streams.
      SmallVector<int64_t> order(loops.outer.begin(), loops.outer.end());
      order.append({loops.n, loops.k, loops.m});
      FailureOr<scf::SCFTilingResult> outer =
          tile(rewriter, op, registerTile, order);
      if (failed(outer))
        continue;
      // The batch and column-block loops (outermost, in `order`) write
      // disjoint blocks of C; the loops over k inside them do not.
      for (LoopLikeOpInterface loop :
           ArrayRef(outer->loops).take_front(loops.outer.size() + 1))
        loop->setAttr(rlx::kParallelLoopAttrName, rewriter.getUnitAttr());
      // The batch loops of a block have one iteration: drop them, so that
      // the vectorizer sees a plain (m, n, k) contraction.
      auto block = cast<linalg::GenericOp>(outer->tiledOps.front());
      if (packPanels && ranges[loops.m] >= kMinBlocksToPack * rowsPerTile)
        if (auto rowLoop = dyn_cast<scf::ForOp>(
                outer->loops.back().getOperation()))
          packPanel(rewriter, block, rowLoop, loops,
                    /*severalColumnBlocks=*/ranges[loops.n] > cols);
      unsigned k = loops.k;
      if (!loops.outer.empty()) {
        linalg::ControlDropUnitDims control;
        control.rankReductionStrategy = linalg::ControlDropUnitDims::
            RankReductionStrategy::ExtractInsertSlice;
        SmallVector<unsigned> batch = loops.outer;
        control.controlFn = [batch](Operation *) { return batch; };
        rewriter.setInsertionPoint(block);
        FailureOr<linalg::DropUnitDimsResult> dropped =
            linalg::dropUnitDims(rewriter, block, control);
        if (failed(dropped))
          continue;
        rewriter.replaceOp(block, dropped->replacements);
        block = cast<linalg::GenericOp>(dropped->resultOp.getOperation());
        k -= llvm::count_if(batch, [&](unsigned b) { return b < k; });
      }
      SmallVector<int64_t> kStep(block.getNumLoops(), 0);
      kStep[k] = 1;
      FailureOr<scf::SCFTilingResult> inner = tile(rewriter, block, kStep);
      if (failed(inner))
        continue;
      Operation *step = inner->tiledOps.front();
      rewriter.setInsertionPoint(step);
      FailureOr<linalg::VectorizationResult> vectorized = linalg::vectorize(
          rewriter, step, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
          /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
          /*assumeDynamicDimsMatchVecSizes=*/false,
          /*createNamedContraction=*/true);
      if (failed(vectorized))
        continue;
      rewriter.replaceOp(step, vectorized->replacements);
    }
    // The vectorizer reads A and B broadcast to the (m, n, k) block; split
    // the broadcasts out of the reads and fold them into the contract's
    // maps, so that A is read as [m, k] and B as [k, n].
    RewritePatternSet patterns(&getContext());
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
    vector::populateVectorReductionToContractPatterns(patterns);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns,
                                                        &getContext());
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns,
                                                         &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }

  /// Two 512-bit registers of the element type per row of the tile.
  int64_t colsPerTile(linalg::GenericOp op) const {
    Type element = getElementTypeOrSelf(op.getDpsInits()[0].getType());
    return vectorBits * 2 / element.getIntOrFloatBitWidth();
  }
};

} // namespace
