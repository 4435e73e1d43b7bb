//===- FuseSharedInput.cpp - matmuls of one input into one ----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Matmuls that read one input with different weights become one matmul of
// the weights concatenated along their columns, each former result a
// narrow of its columns. Every column of a matmul is computed from the
// input and that column alone, so the values are those of the separate
// matmuls, bit for bit.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"

#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_FUSESHAREDINPUTMATMULPASS
#include "RLX/Dialect/MIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

/// Whether `w` is a weight known before the program runs: a function
/// argument, an rlx.constant or an rlx.param.
static bool isWeight(Value w) {
  if (isa<BlockArgument>(w))
    return isa_and_nonnull<FunctionOpInterface>(
        cast<BlockArgument>(w).getOwner()->getParentOp());
  return isa_and_nonnull<ConstantOp, ParamOp>(w.getDefiningOp());
}

/// Whether `matmul` is the gate or the up projection of a SwiGLU
/// (silu(x Wg) * (x Wu)), which rlx-fuse-swiglu fuses as it is.
static bool isSwigluOperand(MatmulOp matmul) {
  if (!matmul->hasOneUse())
    return false;
  Operation *user = *matmul->user_begin();
  if (auto silu = dyn_cast<SiluOp>(user)) {
    if (!silu->hasOneUse())
      return false;
    user = *silu->user_begin();
  }
  auto mul = dyn_cast<MulOp>(user);
  if (!mul)
    return false;
  for (Value v : mul->getOperands()) {
    if (auto silu = v.getDefiningOp<SiluOp>())
      v = silu.getInput();
    auto other = v.getDefiningOp<MatmulOp>();
    if (other && other != matmul && other.getLhs() == matmul.getLhs())
      return true;
  }
  return false;
}

/// Why `matmul` cannot join a merge with the other matmuls of its input
/// `x` (whose weight rows are `rows`, element type `element`), or null.
static const char *whyNotMergeable(MatmulOp matmul, int64_t rows,
                                   Type element) {
  if (matmul.getTransposeA() || matmul.getTransposeB())
    return "a matmul transposes an operand";
  auto w = cast<RankedTensorType>(matmul.getRhs().getType());
  if (w.getRank() != 2 || !w.hasStaticShape())
    return "a weight is not 2-D of static shape";
  if (w.getDimSize(0) != rows || w.getElementType() != element)
    return "the weights differ in rows or element type";
  if (!isWeight(matmul.getRhs()))
    return "a weight is computed (not an argument, constant or param)";
  if (matmul.getRhs() == matmul.getLhs())
    return "a matmul reads the input as its weight";
  if (matmul->hasOneUse() && isa<AddOp>(*matmul->user_begin()))
    return "a matmul's bias add is left to matmul-bias-act";
  if (isSwigluOperand(matmul))
    return "a matmul is part of a SwiGLU (left to swiglu)";
  return nullptr;
}

namespace {

// matmul(x, w1), ..., matmul(x, wn)
//   -> narrow(matmul(x, concat(w1, ..., wn, axis 1)), columns of each)
struct FuseSharedInputMatmul : OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    Value x = op.getLhs();
    auto xType = cast<RankedTensorType>(x.getType());
    auto wType = cast<RankedTensorType>(op.getRhs().getType());
    if (xType.getRank() < 2 || wType.getRank() != 2)
      return rewriter.notifyMatchFailure(op, "needs a 2-D weight and an input "
                                             "of rank 2 or more");
    int64_t rows = wType.getDimSize(0);
    Type element = wType.getElementType();
    if (const char *why = whyNotMergeable(op, rows, element))
      return rewriter.notifyMatchFailure(op, why);
    // The other mergeable matmuls of x in op's block, in block order.
    SmallVector<MatmulOp> group;
    for (Operation *user : x.getUsers()) {
      auto matmul = dyn_cast<MatmulOp>(user);
      if (!matmul || matmul.getLhs() != x ||
          matmul->getBlock() != op->getBlock() ||
          llvm::is_contained(group, matmul) ||
          whyNotMergeable(matmul, rows, element))
        continue;
      group.push_back(matmul);
    }
    if (group.size() < 2)
      return rewriter.notifyMatchFailure(op, "no other matmul of the input to "
                                             "merge with");
    llvm::sort(group,
               [](MatmulOp a, MatmulOp b) { return a->isBeforeInBlock(b); });
    Operation *first = group.front();
    DominanceInfo dom;
    SmallVector<Value> weights;
    for (MatmulOp matmul : group) {
      if (!dom.properlyDominates(matmul.getRhs(), first))
        return rewriter.notifyMatchFailure(
            op, "a weight is defined after the first matmul");
      weights.push_back(matmul.getRhs());
    }
    rewriter.setInsertionPoint(first);
    Location loc = op.getLoc();
    Value w = ConcatOp::create(rewriter, loc, weights, /*axis=*/1);
    Value merged = MatmulOp::create(rewriter, loc, x, w, /*transpose_a=*/false,
                                    /*transpose_b=*/false);
    int64_t axis = cast<RankedTensorType>(merged.getType()).getRank() - 1;
    int64_t start = 0;
    for (MatmulOp matmul : group) {
      int64_t cols =
          cast<RankedTensorType>(matmul.getRhs().getType()).getDimSize(1);
      Value part = NarrowOp::create(rewriter, matmul.getLoc(), merged, axis,
                                    start, cols);
      start += cols;
      rewriter.replaceOp(matmul, part);
    }
    return success();
  }
};

struct FuseSharedInputMatmulPass
    : rlx::impl::FuseSharedInputMatmulPassBase<FuseSharedInputMatmulPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFuseSharedInputMatmulPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void rlx::populateFuseSharedInputMatmulPatterns(RewritePatternSet &patterns) {
  patterns.add<FuseSharedInputMatmul>(patterns.getContext());
}
