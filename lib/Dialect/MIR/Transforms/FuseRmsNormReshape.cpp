//===- FuseRmsNormReshape.cpp - rms_norm after a reshape ------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx.rms_norm normalizes each row of the last axis on its own, so a
// reshape that keeps the last dimension permutes no element of a row and
// commutes with the norm: the norm then writes the reshaped result itself
// and the reshape of its input is a view.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_FUSERMSNORMRESHAPEPASS
#include "RLX/Dialect/MIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

namespace {

// reshape(rms_norm(x, g), T) -> rms_norm(reshape(x, T), g)
//   when T keeps x's last dimension
struct FuseRmsNormReshape : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto norm = op.getInput().getDefiningOp<RmsNormOp>();
    if (!norm)
      return rewriter.notifyMatchFailure(op, "the reshape reads no rms_norm");
    if (!norm->hasOneUse())
      return rewriter.notifyMatchFailure(op,
                                         "the norm's result has other users");
    // rms_norm(x + r) is left to rlx-fuse-residual-norm (a reshape
    // between the add and the norm would hide the add from it).
    if (auto add = norm.getInput().getDefiningOp<AddOp>())
      if (add.getLhs().getType() == add.getType() &&
          add.getRhs().getType() == add.getType())
        return rewriter.notifyMatchFailure(
            op, "the norm of a residual add is left to residual-norm");
    auto in = cast<RankedTensorType>(norm.getType());
    auto out = cast<RankedTensorType>(op.getType());
    if (!in.hasStaticShape() || !out.hasStaticShape() || in.getRank() == 0 ||
        out.getRank() == 0)
      return rewriter.notifyMatchFailure(op, "needs static, non-scalar shapes");
    if (in.getShape().back() != out.getShape().back())
      return rewriter.notifyMatchFailure(
          op, "the reshape does not keep the normalized last dimension");
    if (norm.getInput().getType() != in)
      return rewriter.notifyMatchFailure(op, "the norm's input is not of its "
                                             "result's type");
    Value x = ReshapeOp::create(rewriter, norm.getLoc(), out, norm.getInput());
    rewriter.replaceOpWithNewOp<RmsNormOp>(op, out, x, norm.getGamma(),
                                           norm.getEpsilonAttr());
    return success();
  }
};

struct FuseRmsNormReshapePass
    : rlx::impl::FuseRmsNormReshapePassBase<FuseRmsNormReshapePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFuseRmsNormReshapePatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void rlx::populateFuseRmsNormReshapePatterns(RewritePatternSet &patterns) {
  patterns.add<FuseRmsNormReshape>(patterns.getContext());
}
