//===- DecomposeAttention.cpp - attention as matmuls around a softmax -----===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The seeds' kernel-dispatch policy for attention where no fused attention
// kernel exists for the target: its two products are batched matmuls,
// which a library computes (cuBLASLt on CUDA, through
// rlx-gpu-dispatch-matmul), and the softmax between them is a row kernel.
// The scores and the softmax are f32 for f16/bf16 inputs, as the fused
// lowering keeps them; the probabilities are rounded to the input type for
// the second product (as flash attention does), so the decomposition
// changes results by rounding only.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/AccumulatorType.h"
#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Dialect/MIR/Transforms/GPUDispatch.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_DECOMPOSEATTENTIONPASS
#include "RLX/Dialect/MIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

namespace {

// attention(q, k, v) mask = none
//   -> matmul(cast(softmax(matmul(q * scale, k, transpose_b))), v)
struct DecomposeAttention : OpRewritePattern<AttentionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AttentionOp op,
                                PatternRewriter &rewriter) const override {
    // A mask would become a mask tensor the size of the scores; masked
    // attention stays one op (and one kernel).
    // The flash kernel computes it (rlx-gpu-dispatch-attention).
    if (isInRuntimeKernelFunction(op))
      return rewriter.notifyMatchFailure(op, "outlined for a runtime kernel");
    if (op.getMask() != MaskKind::None)
      return rewriter.notifyMatchFailure(op, "a masked attention stays fused");
    auto qt = cast<RankedTensorType>(op.getQuery().getType());
    auto kt = cast<RankedTensorType>(op.getKey().getType());
    auto vt = cast<RankedTensorType>(op.getValue().getType());
    if (!qt.hasStaticShape() || !kt.hasStaticShape() || !vt.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    if (qt.getDimSize(1) != kt.getDimSize(1))
      return rewriter.notifyMatchFailure(
          op, "grouped-query attention stays fused (its heads share k, v)");
    Location loc = op.getLoc();
    Type element = qt.getElementType();
    Type acc = getAccumulatorType(element);
    auto toAcc = [&](Value x) -> Value {
      auto type = cast<RankedTensorType>(x.getType());
      if (type.getElementType() == acc)
        return x;
      return CastOp::create(rewriter, loc, type.clone(acc), x);
    };
    Value q = toAcc(op.getQuery()), k = toAcc(op.getKey());
    double scale = op.getScale() ? op.getScale()->convertToDouble()
                                 : 1.0 / std::sqrt(double(qt.getDimSize(3)));
    auto scalarType = RankedTensorType::get({}, acc);
    Value scaleValue = ConstantOp::create(
        rewriter, loc,
        DenseElementsAttr::get(scalarType, rewriter.getFloatAttr(acc, scale)));
    // Scaling q (S x D) costs less than scaling the scores (S x Skv).
    q = MulOp::create(rewriter, loc, q.getType(), q, scaleValue);
    auto scoresType = RankedTensorType::get(
        {qt.getDimSize(0), qt.getDimSize(1), qt.getDimSize(2),
         kt.getDimSize(2)},
        acc);
    Value scores =
        MatmulOp::create(rewriter, loc, scoresType, q, k,
                         rewriter.getBoolAttr(false), rewriter.getBoolAttr(true));
    Value probs = SoftmaxOp::create(rewriter, loc, scoresType, scores,
                                    rewriter.getI64IntegerAttr(-1));
    // The probabilities, in [0, 1], times v in v's type with f32
    // accumulation, as flash attention does: the second product runs at the
    // low-precision rate, which a bf16 BERT layer measured worth it.
    if (acc != element)
      probs = CastOp::create(rewriter, loc, scoresType.clone(element), probs);
    rewriter.replaceOp(op, MatmulOp::create(rewriter, loc, op.getType(), probs,
                                            op.getValue(),
                                            rewriter.getBoolAttr(false),
                                            rewriter.getBoolAttr(false)));
    return success();
  }
};

struct DecomposeAttentionPass
    : rlx::impl::DecomposeAttentionPassBase<DecomposeAttentionPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<DecomposeAttention>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
