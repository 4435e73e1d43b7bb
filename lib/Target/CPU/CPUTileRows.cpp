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

/// Whether the row loop needs a strict part of `producer`'s result through
/// `slice`: a producer whose whole result every row reads (a reduction
/// over the rows, a broadcast operand) would be recomputed per row.
bool readsStrictPart(tensor::ExtractSliceOp slice, OpResult producer) {
  auto full = cast<RankedTensorType>(producer.getType());
  bool strict = false;
  for (auto [size, dim] : llvm::zip(slice.getMixedSizes(), full.getShape())) {
    std::optional<int64_t> constant = getConstantIntValue(size);
    strict |= !constant || ShapedType::isDynamic(dim) || *constant < dim;
  }
  return strict;
}

/// The group each row-tileable op is computed in, named by its root (the
/// group's last op). An op joins its readers' group when every reader is a
/// row-tileable op of one group in the same block; otherwise (a reader
/// that is a contraction, a return, an op of another group or block) it
/// roots a group of its own. So each op is computed in one loop, once.
/// Fusing a producer that others read too would compute it once more per
/// reader, and through a residual stream (a norm read by the next layer's
/// matmuls and by its residual add) the last loop would reach back through
/// every layer: the cause of a compile time exponential in depth.
/// An op that reads no tensor (a linalg.fill of a reduction's init) is in
/// no group (null): it costs nothing to compute again, so every loop that
/// reads a part of it may fuse it.
/// `ops` is in program order, so readers come after what they read.
DenseMap<Operation *, Operation *>
groupRoots(ArrayRef<linalg::LinalgOp> ops) {
  DenseMap<Operation *, Operation *> root;
  for (linalg::LinalgOp op : llvm::reverse(ops)) {
    if (llvm::none_of(op.getDpsInputs(), [](Value input) {
          return isa<RankedTensorType>(input.getType());
        })) {
      root[op] = nullptr;
      continue;
    }
    Operation *group = nullptr;
    for (Operation *user : op->getUsers()) {
      auto it = root.find(user);
      if (it == root.end() || user->getBlock() != op->getBlock() ||
          (group && group != it->second)) {
        group = nullptr;
        break;
      }
      group = it->second;
    }
    root[op] = group ? group : op.getOperation();
  }
  return root;
}

/// The part of a value that a tensor.extract_slice takes.
struct SlicePart {
  Value source;
  Type type;
  SmallVector<OpFoldResult> offsets, sizes, strides;

  explicit SlicePart(tensor::ExtractSliceOp slice)
      : source(slice.getSource()), type(slice.getType()),
        offsets(slice.getMixedOffsets()), sizes(slice.getMixedSizes()),
        strides(slice.getMixedStrides()) {}

  bool operator==(const SlicePart &other) const {
    return source == other.source && type == other.type &&
           offsets == other.offsets && sizes == other.sizes &&
           strides == other.strides;
  }
};

/// A slice of a producer that was fused into the loop, and where the
/// fused value went: its first reader's operand (the slice itself may be
/// gone once fused).
struct FusedSlice {
  SlicePart part;
  Value slice;
  Operation *reader;
  unsigned operand;
};

/// Decides which producers a group's loop fuses, and fuses each slice of a
/// producer once. Upstream fusion clones a producer per slice that reads
/// it; the three ops of a norm each read their input's row, so without
/// this the input's producer is cloned three times, each clone cloning its
/// own producers in turn. A slice equal to one already fused is left
/// unfused and afterwards reads the fused value (replaceRepeatedSlices).
class RowFusion {
public:
  RowFusion(const DenseMap<Operation *, Operation *> &groups, Operation *group)
      : groups(groups), group(group) {}

  std::optional<scf::SCFTileAndFuseOptions::ControlFnResult>
  control(tensor::ExtractSliceOp slice, OpResult producer, bool) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(producer.getOwner());
    auto it = groups.find(producer.getOwner());
    if (!linalgOp || it == groups.end() ||
        (it->second && it->second != group) ||
        !readsStrictPart(slice, producer))
      return std::nullopt;
    SlicePart part(slice);
    for (const FusedSlice &fused : fusedSlices) {
      if (!(fused.part == part))
        continue;
      Value value = fused.reader->getOperand(fused.operand);
      Operation *def = value.getDefiningOp();
      if (value != fused.slice && def &&
          def->getBlock() == slice->getBlock() && def->isBeforeInBlock(slice)) {
        repeated.push_back({slice, value});
        return std::nullopt;
      }
    }
    if (!slice->use_empty()) {
      OpOperand &use = *slice->getUses().begin();
      fusedSlices.push_back(
          {part, slice.getResult(), use.getOwner(), use.getOperandNumber()});
    }
    // Nothing is yielded for readers outside the loop: the producer has
    // none (groupRoots).
    return scf::SCFTileAndFuseOptions::ControlFnResult{};
  }

  /// Points the slices equal to a fused one at its fused value.
  void replaceRepeatedSlices(RewriterBase &rewriter) {
    for (auto [slice, value] : repeated) {
      rewriter.replaceAllUsesWith(slice.getResult(), value);
      rewriter.eraseOp(slice);
    }
  }

private:
  const DenseMap<Operation *, Operation *> &groups;
  Operation *group;
  SmallVector<FusedSlice> fusedSlices;
  SmallVector<std::pair<tensor::ExtractSliceOp, Value>> repeated;
};

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
    SmallVector<linalg::LinalgOp> tileable;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && !isReuseHeavy(op))
        tileable.push_back(op);
    });
    DenseMap<Operation *, Operation *> groups = groupRoots(tileable);
    DenseMap<Operation *, unsigned> groupSizes;
    for (auto [op, root] : groups)
      if (root)
        ++groupSizes[root];
    // Roots last to first: each root's loop pulls in its group, so an op
    // that was fused is not tiled again. An op its group's loop did not
    // reach (a producer each row reads whole) is tiled on its own.
    IRRewriter rewriter(&getContext());
    llvm::SmallPtrSet<Operation *, 16> fused;
    for (linalg::LinalgOp op : llvm::reverse(tileable)) {
      if (fused.contains(op.getOperation()))
        continue;
      Operation *group = groups.lookup(op);
      if (!group)
        continue;
      // A lone op that a linalg op reads gains nothing from a row loop.
      bool readByLinalg = llvm::any_of(op->getUsers(), [](Operation *user) {
        return isa<linalg::LinalgOp>(user);
      });
      if (group == op.getOperation() && groupSizes.lookup(group) < 2 &&
          readByLinalg)
        continue;
      rewriter.setInsertionPoint(op);
      SmallVector<OpFoldResult> sizes = rowTileSizes(rewriter, op);
      if (sizes.empty())
        continue;
      RowFusion fusion(groups, group);
      scf::SCFTileAndFuseOptions options;
      options.tilingOptions.setTileSizes(sizes);
      options.setFusionControlFn(
          [&](tensor::ExtractSliceOp slice, OpResult producer, bool dest) {
            return fusion.control(slice, producer, dest);
          });
      FailureOr<scf::SCFTileAndFuseResult> result =
          scf::tileConsumerAndFuseProducersUsingSCF(
              rewriter, cast<TilingInterface>(op.getOperation()), options);
      if (failed(result))
        continue;
      fusion.replaceRepeatedSlices(rewriter);
      for (Operation *producer : result->fusedProducers)
        fused.insert(producer);
      Operation *loop = result->loops.front();
      for (auto [value, replacement] : result->replacements)
        rewriter.replaceUsesWithIf(value, replacement, [&](OpOperand &use) {
          return !loop->isAncestor(use.getOwner());
        });
      // Each iteration writes its own rows (only parallel dims are tiled).
      for (LoopLikeOpInterface tileLoop : result->loops)
        tileLoop->setAttr(rlx::kParallelLoopAttrName, rewriter.getUnitAttr());
      fused.insert(op);
      rewriter.eraseOp(op);
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
