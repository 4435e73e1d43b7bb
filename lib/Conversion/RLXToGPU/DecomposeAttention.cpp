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

/// `x` with element type `type` (itself if it has it).
Value castTo(PatternRewriter &rewriter, Location loc, Value x, Type type) {
  auto t = cast<RankedTensorType>(x.getType());
  if (t.getElementType() == type)
    return x;
  return CastOp::create(rewriter, loc, t.clone(type), x);
}

/// A rank-0 constant `value` of float type `type`.
Value scalar(PatternRewriter &rewriter, Location loc, Type type,
             double value) {
  auto scalarType = RankedTensorType::get({}, type);
  return ConstantOp::create(
      rewriter, loc,
      DenseElementsAttr::get(scalarType, rewriter.getFloatAttr(type, value)));
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

/// Whether attention of `kind` over these operands decomposes: static
/// shapes, no mask or bias tensor, and every row sees a key.
LogicalResult checkDecomposable(PatternRewriter &rewriter, Operation *op,
                                Value attnMask, MaskKind kind, Value q,
                                Value k, Value v) {
  // The flash kernel computes it (rlx-gpu-dispatch-attention).
  if (isInRuntimeKernelFunction(op))
    return rewriter.notifyMatchFailure(op, "outlined for a runtime kernel");
  // A custom mask or bias tensor stays one op (and one kernel).
  if (attnMask || (kind != MaskKind::None && kind != MaskKind::Causal &&
                   kind != MaskKind::SlidingWindow))
    return rewriter.notifyMatchFailure(op,
                                       "a mask or bias tensor stays fused");
  auto qt = cast<RankedTensorType>(q.getType());
  auto kt = cast<RankedTensorType>(k.getType());
  auto vt = cast<RankedTensorType>(v.getType());
  if (!qt.hasStaticShape() || !kt.hasStaticShape() || !vt.hasStaticShape())
    return rewriter.notifyMatchFailure(op, "needs static shapes");
  // Every row sees a key only where there are as many keys as queries; a
  // row that sees none is zero in rlx.attention but NaN in a softmax.
  if (kind != MaskKind::None && kt.getDimSize(2) < qt.getDimSize(2))
    return rewriter.notifyMatchFailure(
        op, "a causal mask with fewer keys than queries stays fused");
  return success();
}

/// The probabilities of attention as rlx ops, in the accumulator type
/// (f32 for f16/bf16): softmax(mask(q * scale @ k^T)) over [B, Hkv, G * S,
/// Sk].
struct Probabilities {
  Value probs;
  Type element, acc;
  int64_t kvHeads;
  bool grouped;
  double scale;
};

Probabilities buildProbabilities(PatternRewriter &rewriter, Location loc,
                                 Value query, Value key, MaskKind kind,
                                 std::optional<int64_t> window,
                                 std::optional<APFloat> scaleAttr) {
  auto qt = cast<RankedTensorType>(query.getType());
  auto kt = cast<RankedTensorType>(key.getType());
  Probabilities p;
  p.element = qt.getElementType();
  p.acc = getAccumulatorType(p.element);
  p.kvHeads = kt.getDimSize(1);
  p.grouped = qt.getDimSize(1) != p.kvHeads;
  p.scale = scaleAttr ? scaleAttr->convertToDouble()
                      : 1.0 / std::sqrt(double(qt.getDimSize(3)));
  Value q = castTo(rewriter, loc, query, p.acc);
  Value k = castTo(rewriter, loc, key, p.acc);
  // Scaling q (S x D) costs less than scaling the scores (S x Skv).
  Value scaled = MulOp::create(rewriter, loc, q.getType(), q,
                               scalar(rewriter, loc, p.acc, p.scale));
  if (p.grouped)
    scaled = groupHeads(rewriter, loc, scaled, p.kvHeads);
  auto rowsType = cast<RankedTensorType>(scaled.getType());
  int64_t seqQ = qt.getDimSize(2), seqK = kt.getDimSize(2);
  auto scoresType = RankedTensorType::get(
      {qt.getDimSize(0), p.kvHeads, rowsType.getDimSize(2), seqK}, p.acc);
  Value scores =
      MatmulOp::create(rewriter, loc, scoresType, scaled, k,
                       rewriter.getBoolAttr(false), rewriter.getBoolAttr(true));
  if (kind != MaskKind::None)
    scores = maskScores(rewriter, loc, scores, kind, seqQ, seqK,
                        window.value_or(0));
  p.probs = SoftmaxOp::create(rewriter, loc, scoresType, scores,
                              rewriter.getI64IntegerAttr(-1));
  return p;
}

/// `a @ b` (each optionally transposed) as an rlx.matmul of result type
/// `type`.
Value matmul(PatternRewriter &rewriter, Location loc, RankedTensorType type,
             Value a, Value b, bool transposeA, bool transposeB) {
  return MatmulOp::create(rewriter, loc, type, a, b,
                          rewriter.getBoolAttr(transposeA),
                          rewriter.getBoolAttr(transposeB));
}

// attention(q, k, v) mask = none | causal | sliding_window
//   -> matmul(cast(softmax(mask(matmul(q * scale, k, transpose_b)))), v)
struct DecomposeAttention : OpRewritePattern<AttentionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AttentionOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkDecomposable(rewriter, op, op.getAttnMask(), op.getMask(),
                                 op.getQuery(), op.getKey(), op.getValue())))
      return failure();
    Location loc = op.getLoc();
    auto qt = cast<RankedTensorType>(op.getQuery().getType());
    auto vt = cast<RankedTensorType>(op.getValue().getType());
    Probabilities p =
        buildProbabilities(rewriter, loc, op.getQuery(), op.getKey(),
                           op.getMask(), op.getWindow(), op.getScale());
    // The probabilities, in [0, 1], times v in v's type with f32
    // accumulation, as flash attention does: the second product runs at the
    // low-precision rate, which a bf16 BERT layer measured worth it.
    Value probs = castTo(rewriter, loc, p.probs, p.element);
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t rows = cast<RankedTensorType>(probs.getType()).getDimSize(2);
    Value out = matmul(
        rewriter, loc,
        resultType.clone({qt.getDimSize(0), p.kvHeads, rows, vt.getDimSize(3)}),
        probs, op.getValue(), false, false);
    if (p.grouped)
      out = ungroupHeads(rewriter, loc, out, resultType, p.kvHeads);
    rewriter.replaceOp(op, out);
    return success();
  }
};

// attention_backward(q, k, v, o, dO) with P recomputed as above and, per
// k/v head (G query heads as G * S rows),
//   D = rowsum(dO * o), dP = dO @ v^T, dS = scale * P * (dP - D),
//   dQ = dS @ k, dK = dS^T @ q, dV = P^T @ dO:
// five batched matmuls that the library computes instead of contractions
// generated as loops. The products with P and dS take them rounded to the
// operands' type (as the forward's second product), and dP comes back in
// it; D, P and dS are f32.
struct DecomposeAttentionBackward : OpRewritePattern<AttentionBackwardOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AttentionBackwardOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkDecomposable(rewriter, op, op.getAttnMask(), op.getMask(),
                                 op.getQuery(), op.getKey(), op.getValue())))
      return failure();
    Location loc = op.getLoc();
    Probabilities p =
        buildProbabilities(rewriter, loc, op.getQuery(), op.getKey(),
                           op.getMask(), op.getWindow(), op.getScale());
    auto group = [&](Value x) {
      return p.grouped ? groupHeads(rewriter, loc, x, p.kvHeads) : x;
    };
    auto probsType = cast<RankedTensorType>(p.probs.getType());
    auto kt = cast<RankedTensorType>(op.getKey().getType());
    auto vt = cast<RankedTensorType>(op.getValue().getType());
    Value dO = group(op.getDOutput());
    // D = rowsum(dO * o), one value per row: [B, Hkv, G * S, 1].
    Value dOAcc = castTo(rewriter, loc, dO, p.acc);
    Value oAcc = castTo(rewriter, loc, group(op.getOutput()), p.acc);
    Value products = MulOp::create(rewriter, loc, dOAcc.getType(), dOAcc, oAcc);
    Value rowD = ReduceOp::create(rewriter, loc, ReduceKind::Sum, products,
                                  ArrayRef<int64_t>{3}, /*keepdim=*/true);
    Value dP = castTo(
        rewriter, loc,
        matmul(rewriter, loc, probsType.clone(p.element), dO, op.getValue(),
               false, true),
        p.acc);
    Value diff = SubOp::create(rewriter, loc, probsType, dP, rowD);
    Value scale = scalar(rewriter, loc, p.acc, p.scale);
    Value probsDiff = MulOp::create(rewriter, loc, probsType, p.probs, diff);
    Value dS = MulOp::create(rewriter, loc, probsType, probsDiff, scale);
    Value dSLow = castTo(rewriter, loc, dS, p.element);
    Value probsLow = castTo(rewriter, loc, p.probs, p.element);
    Value q = group(op.getQuery());
    auto qRowsType = cast<RankedTensorType>(q.getType());
    Value dQ = matmul(rewriter, loc, qRowsType, dSLow, op.getKey(), false,
                      false);
    if (p.grouped)
      dQ = ungroupHeads(rewriter, loc, dQ,
                        cast<RankedTensorType>(op.getQuery().getType()),
                        p.kvHeads);
    // q, k, v, o and dO share their element type (type inference checks).
    Value dK = matmul(rewriter, loc, kt, dSLow, q, true, false);
    Value dV = matmul(rewriter, loc, vt, probsLow, dO, true, false);
    rewriter.replaceOp(op, {dQ, dK, dV});
    return success();
  }
};

struct DecomposeAttentionPass
    : rlx::impl::DecomposeAttentionPassBase<DecomposeAttentionPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<DecomposeAttention, DecomposeAttentionBackward>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
