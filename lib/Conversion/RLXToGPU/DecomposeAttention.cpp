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
// which the runtime's library matmul computes (through
// rlx-gpu-dispatch-matmul), and the softmax between them is a row kernel.
// The scores and the softmax are f32 for f16/bf16 inputs, as the fused
// lowering keeps them; the probabilities are rounded to the input type for
// the second product (as flash attention does), so the decomposition
// changes results by rounding only.
//
// Grouped-query attention computes the G query heads that share a k/v head
// as one product of G * S rows (q is contiguous, so that is a reshape), and
// causal / sliding-window masks are a select on the scores computed from
// the row and key indices (a linalg.generic: MIR has no index op), which
// the row kernel of the softmax absorbs; no mask tensor is made.
//
//===----------------------------------------------------------------------===//

#include "RLX/Conversion/Passes.h"
#include "RLX/Conversion/RLXToGPU/RuntimeKernels.h"
#include "RLX/Dialect/MIR/IR/AccumulatorType.h"
#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_DECOMPOSEATTENTIONPASS
#include "RLX/Conversion/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

namespace {

/// `x` [B, H, S, D] as [B, Hkv, G * S, D] (H = Hkv * G), through
/// [B, Hkv, G, S, D]: each step only splits or merges dims.
Value groupHeads(PatternRewriter &rewriter, Location loc, Value x,
                 int64_t kvHeads) {
  auto type = cast<RankedTensorType>(x.getType());
  ArrayRef<int64_t> s = type.getShape();
  int64_t group = s[1] / kvHeads;
  Value split = ReshapeOp::create(
      rewriter, loc, type.clone({s[0], kvHeads, group, s[2], s[3]}), x);
  return ReshapeOp::create(
      rewriter, loc, type.clone({s[0], kvHeads, group * s[2], s[3]}), split);
}

/// The inverse of groupHeads, back to `type`.
Value ungroupHeads(PatternRewriter &rewriter, Location loc, Value x,
                   RankedTensorType type, int64_t kvHeads) {
  ArrayRef<int64_t> s = type.getShape();
  Value split = ReshapeOp::create(
      rewriter, loc,
      type.clone({s[0], kvHeads, s[1] / kvHeads, s[2], s[3]}), x);
  return ReshapeOp::create(rewriter, loc, type, split);
}

/// `scores` [B, Hkv, G * S, Sk] with what query position r mod S must not
/// see replaced by -inf: keys after its diagonal (aligned at the end, as
/// rlx.attention's), and for a sliding window keys `window` or more before
/// it.
Value maskScores(PatternRewriter &rewriter, Location loc, Value scores,
                 MaskKind kind, int64_t seqQ, int64_t seqK, int64_t window) {
  auto type = cast<RankedTensorType>(scores.getType());
  Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                       type.getElementType());
  AffineMap id = rewriter.getMultiDimIdentityMap(4);
  auto generic = linalg::GenericOp::create(
      rewriter, loc, type, ValueRange{scores}, ValueRange{init},
      ArrayRef<AffineMap>{id, id},
      SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
      [&](OpBuilder &b, Location l, ValueRange args) {
        auto index = [&](int64_t v) -> Value {
          return arith::ConstantIndexOp::create(b, l, v);
        };
        Value row = linalg::IndexOp::create(b, l, 2);
        Value key = linalg::IndexOp::create(b, l, 3);
        Value position = arith::RemUIOp::create(b, l, row, index(seqQ));
        Value diagonal =
            arith::AddIOp::create(b, l, position, index(seqK - seqQ));
        Value visible = arith::CmpIOp::create(
            b, l, arith::CmpIPredicate::sle, key, diagonal);
        if (kind == MaskKind::SlidingWindow) {
          Value first = arith::SubIOp::create(b, l, diagonal, index(window));
          visible = arith::AndIOp::create(
              b, l, visible,
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::sgt, key,
                                    first));
        }
        Value negInf = arith::ConstantOp::create(
            b, l, b.getFloatAttr(type.getElementType(), -INFINITY));
        linalg::YieldOp::create(
            b, l, arith::SelectOp::create(b, l, visible, args[0], negInf)
                      .getResult());
      });
  return generic.getResult(0);
}

// attention(q, k, v) mask = none | causal | sliding_window
//   -> matmul(cast(softmax(mask(matmul(q * scale, k, transpose_b)))), v)
struct DecomposeAttention : OpRewritePattern<AttentionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AttentionOp op,
                                PatternRewriter &rewriter) const override {
    // The flash kernel computes it (rlx-gpu-dispatch-attention).
    if (isInRuntimeKernelFunction(op))
      return rewriter.notifyMatchFailure(op, "outlined for a runtime kernel");
    MaskKind kind = op.getMask();
    // A custom mask or bias tensor stays one op (and one kernel).
    if (op.getAttnMask() ||
        (kind != MaskKind::None && kind != MaskKind::Causal &&
         kind != MaskKind::SlidingWindow))
      return rewriter.notifyMatchFailure(
          op, "a mask or bias tensor stays fused");
    auto qt = cast<RankedTensorType>(op.getQuery().getType());
    auto kt = cast<RankedTensorType>(op.getKey().getType());
    auto vt = cast<RankedTensorType>(op.getValue().getType());
    if (!qt.hasStaticShape() || !kt.hasStaticShape() || !vt.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    int64_t seqQ = qt.getDimSize(2), seqK = kt.getDimSize(2);
    // Every row sees a key only where there are as many keys as queries; a
    // row that sees none is zero in rlx.attention but NaN in a softmax.
    if (kind != MaskKind::None && seqK < seqQ)
      return rewriter.notifyMatchFailure(
          op, "a causal mask with fewer keys than queries stays fused");
    int64_t kvHeads = kt.getDimSize(1);
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
    bool grouped = qt.getDimSize(1) != kvHeads;
    if (grouped)
      q = groupHeads(rewriter, loc, q, kvHeads);
    auto rowsType = cast<RankedTensorType>(q.getType());
    auto scoresType = RankedTensorType::get(
        {qt.getDimSize(0), kvHeads, rowsType.getDimSize(2), seqK}, acc);
    Value scores =
        MatmulOp::create(rewriter, loc, scoresType, q, k,
                         rewriter.getBoolAttr(false), rewriter.getBoolAttr(true));
    if (kind != MaskKind::None)
      scores = maskScores(rewriter, loc, scores, kind, seqQ, seqK,
                          op.getWindow().value_or(0));
    Value probs = SoftmaxOp::create(rewriter, loc, scoresType, scores,
                                    rewriter.getI64IntegerAttr(-1));
    // The probabilities, in [0, 1], times v in v's type with f32
    // accumulation, as flash attention does: the second product runs at the
    // low-precision rate, which a bf16 BERT layer measured worth it.
    if (acc != element)
      probs = CastOp::create(rewriter, loc, scoresType.clone(element), probs);
    auto resultType = cast<RankedTensorType>(op.getType());
    Value out = MatmulOp::create(
        rewriter, loc,
        resultType.clone({qt.getDimSize(0), kvHeads, rowsType.getDimSize(2),
                          vt.getDimSize(3)}),
        probs, op.getValue(), rewriter.getBoolAttr(false),
        rewriter.getBoolAttr(false));
    if (grouped)
      out = ungroupHeads(rewriter, loc, out, resultType, kvHeads);
    rewriter.replaceOp(op, out);
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
