//===- Unfuse.cpp - fused rlx ops back to primitive chains ----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "FusionMatchers.h"

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_UNFUSEPASS
#include "RLX/Dialect/MIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

Value rlx::buildActivation(OpBuilder &b, Location loc, Value x,
                           Activation activation) {
  switch (activation) {
  case Activation::None:
    return x;
  case Activation::Relu:
    return ReluOp::create(b, loc, x);
  case Activation::Gelu:
    return GeluOp::create(b, loc, x, GeluApproximation::None);
  case Activation::GeluTanh:
    return GeluOp::create(b, loc, x, GeluApproximation::Tanh);
  case Activation::Silu:
    return SiluOp::create(b, loc, x);
  case Activation::Sigmoid:
    return SigmoidOp::create(b, loc, x);
  case Activation::Tanh:
    return TanhOp::create(b, loc, x);
  }
  llvm_unreachable("unknown activation");
}

/// matmul(x, w [, transposed]) + bias (when given). A vector x [K] is
/// multiplied as the matrix [1, K] (rlx.matmul needs rank 2).
static Value linear(PatternRewriter &b, Location loc, Value x, Value w,
                    Value bias, bool transposeB = false) {
  auto xType = cast<RankedTensorType>(x.getType());
  if (xType.getRank() == 1)
    x = ReshapeOp::create(b, loc, xType.clone({1, xType.getDimSize(0)}), x);
  Value y = MatmulOp::create(b, loc, x, w, /*transpose_a=*/false, transposeB);
  if (xType.getRank() == 1) {
    auto yType = cast<RankedTensorType>(y.getType());
    y = ReshapeOp::create(b, loc, yType.clone({yType.getDimSize(1)}), y);
  }
  if (bias)
    y = AddOp::create(b, loc, y, bias);
  return y;
}

/// The attention block of rlx.fused_attention_block's description, for
/// static [B, S, E] inputs.
static FailureOr<Value> buildAttentionBlock(PatternRewriter &b, Location loc,
                                            const AttentionBlockParts &p) {
  auto x = cast<RankedTensorType>(p.input.getType());
  if (!x.hasStaticShape() ||
      !cast<RankedTensorType>(p.wQkv.getType()).hasStaticShape())
    return failure();
  int64_t batch = x.getDimSize(0), seq = x.getDimSize(1);
  int64_t cols = cast<RankedTensorType>(p.wQkv.getType()).getDimSize(1);
  int64_t d = cols / (p.heads + 2 * p.kvHeads);
  Value qkv = linear(b, loc, p.input, p.wQkv, p.qkvBias);
  // One head group of the QKV columns as [B, heads, S, D].
  auto split = [&](int64_t start, int64_t heads) -> Value {
    Value cols = NarrowOp::create(b, loc, qkv, 2, start, heads * d);
    Value heads4 = ReshapeOp::create(
        b, loc, x.clone({batch, seq, heads, d}), cols);
    return TransposeOp::create(b, loc, heads4, ArrayRef<int64_t>{0, 2, 1, 3});
  };
  Value q = split(0, p.heads);
  Value k = split(p.heads * d, p.kvHeads);
  Value v = split((p.heads + p.kvHeads) * d, p.kvHeads);
  if (p.cos) {
    q = RopeOp::create(b, loc, q.getType(), q, p.cos, p.sin, p.ropeStyle);
    k = RopeOp::create(b, loc, k.getType(), k, p.cos, p.sin, p.ropeStyle);
  }
  SmallVector<Value> operands = {q, k, v};
  if (p.attnMask)
    operands.push_back(p.attnMask);
  SmallVector<NamedAttribute> attrs = {
      b.getNamedAttr("mask", b.getStringAttr(stringifyMaskKind(p.mask)))};
  if (p.window)
    attrs.push_back(b.getNamedAttr("window", p.window));
  if (p.scale)
    attrs.push_back(b.getNamedAttr("scale", p.scale));
  Value a = AttentionOp::create(b, loc, operands, attrs);
  Value back = TransposeOp::create(b, loc, a, ArrayRef<int64_t>{0, 2, 1, 3});
  Value merged = ReshapeOp::create(
      b, loc, x.clone({batch, seq, p.heads * d}), back);
  return linear(b, loc, merged, p.wOut, p.outBias);
}

namespace {

// fused_matmul_bias_act(x, w, b) -> act(matmul(x, w) + b)
struct UnfuseMatmulBiasAct : OpRewritePattern<FusedMatmulBiasActOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(FusedMatmulBiasActOp op,
                                PatternRewriter &b) const override {
    Value y = linear(b, op.getLoc(), op.getLhs(), op.getRhs(), op.getBias(),
                     op.getTransposeB());
    b.replaceOp(op, buildActivation(b, op.getLoc(), y, op.getActivation()));
    return success();
  }
};

// fused_residual_layer_norm(x, r, g, b) -> (layer_norm(x + r), x + r)
struct UnfuseResidualLayerNorm : OpRewritePattern<FusedResidualLayerNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(FusedResidualLayerNormOp op,
                                PatternRewriter &b) const override {
    Value sum = AddOp::create(b, op.getLoc(), op.getInput(), op.getResidual());
    Value y = LayerNormOp::create(b, op.getLoc(), sum.getType(), sum,
                                  op.getGamma(), op.getBeta(),
                                  op.getEpsilonAttr());
    b.replaceOp(op, {y, sum});
    return success();
  }
};

// fused_residual_rms_norm(x, r, g) -> (rms_norm(x + r), x + r)
struct UnfuseResidualRmsNorm : OpRewritePattern<FusedResidualRmsNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(FusedResidualRmsNormOp op,
                                PatternRewriter &b) const override {
    Value sum = AddOp::create(b, op.getLoc(), op.getInput(), op.getResidual());
    Value y = RmsNormOp::create(b, op.getLoc(), sum.getType(), sum,
                                op.getGamma(), op.getEpsilonAttr());
    b.replaceOp(op, {y, sum});
    return success();
  }
};

// fused_swiglu(x, wg, wu) -> silu(matmul(x, wg)) * matmul(x, wu)
struct UnfuseSwiglu : OpRewritePattern<FusedSwigluOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(FusedSwigluOp op,
                                PatternRewriter &b) const override {
    Location loc = op.getLoc();
    Value gate = SiluOp::create(
        b, loc, linear(b, loc, op.getInput(), op.getWGate(), Value()));
    Value up = linear(b, loc, op.getInput(), op.getWUp(), Value());
    b.replaceOpWithNewOp<MulOp>(op, gate, up);
    return success();
  }
};

struct UnfuseAttentionBlock : OpRewritePattern<FusedAttentionBlockOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(FusedAttentionBlockOp op,
                                PatternRewriter &b) const override {
    int64_t heads = op.getNumHeads();
    AttentionBlockParts parts{
        op.getInput(),   op.getWQkv(),  op.getWOut(),
        op.getQkvBias(), op.getOutBias(), op.getCos(),
        op.getSin(),     op.getAttnMask(), heads,
        op.getNumKvHeads() ? static_cast<int64_t>(*op.getNumKvHeads())
                           : heads,
        op.getMask(),    op.getWindowAttr(), op.getScaleAttr(),
        op.getRopeStyle()};
    FailureOr<Value> y = buildAttentionBlock(b, op.getLoc(), parts);
    if (failed(y))
      return b.notifyMatchFailure(op, "needs static input and w_qkv shapes");
    b.replaceOp(op, *y);
    return success();
  }
};

// The post-LN BERT layer of rlx.fused_transformer_layer's description.
struct UnfuseTransformerLayer : OpRewritePattern<FusedTransformerLayerOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(FusedTransformerLayerOp op,
                                PatternRewriter &b) const override {
    Location loc = op.getLoc();
    int64_t heads = op.getNumHeads();
    AttentionBlockParts parts{op.getInput(),   op.getWQkv(),
                              op.getWOut(),    op.getQkvBias(),
                              op.getOutBias(), Value(),
                              Value(),         op.getAttnMask(),
                              heads,           heads,
                              op.getMask(),    IntegerAttr(),
                              FloatAttr(),     RopeStyle::Neox};
    FailureOr<Value> a = buildAttentionBlock(b, loc, parts);
    if (failed(a))
      return b.notifyMatchFailure(op, "needs static input and w_qkv shapes");
    Value s1 = AddOp::create(b, loc, op.getInput(), *a);
    Value h = LayerNormOp::create(b, loc, s1.getType(), s1, op.getLn1Gamma(),
                                  op.getLn1Beta(), op.getEpsilonAttr());
    Value f = buildActivation(
        b, loc, linear(b, loc, h, op.getWFfn1(), op.getBFfn1()),
        op.getActivation());
    f = linear(b, loc, f, op.getWFfn2(), op.getBFfn2());
    Value s2 = AddOp::create(b, loc, h, f);
    b.replaceOpWithNewOp<LayerNormOp>(op, s2.getType(), s2, op.getLn2Gamma(),
                                      op.getLn2Beta(), op.getEpsilonAttr());
    return success();
  }
};

// lora_matmul(x, w, a, b, s) -> matmul(x, w) + matmul(matmul(x, a) * s, b)
struct UnfuseLoraMatmul : OpRewritePattern<LoraMatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LoraMatmulOp op,
                                PatternRewriter &b) const override {
    Location loc = op.getLoc();
    Type element = op.getType().getElementType();
    Value base = linear(b, loc, op.getInput(), op.getWeight(), Value());
    Value down = linear(b, loc, op.getInput(), op.getLoraA(), Value());
    auto scalarType = RankedTensorType::get({}, element);
    Value scale = ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(
            scalarType,
            b.getFloatAttr(element, op.getScale().convertToDouble())));
    Value scaled = MulOp::create(b, loc, down, scale);
    Value up = linear(b, loc, scaled, op.getLoraB(), Value());
    b.replaceOpWithNewOp<AddOp>(op, base, up);
    return success();
  }
};

struct UnfusePass : rlx::impl::UnfusePassBase<UnfusePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateUnfusePatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void rlx::populateUnfusePatterns(RewritePatternSet &patterns) {
  patterns.add<UnfuseMatmulBiasAct, UnfuseResidualLayerNorm,
               UnfuseResidualRmsNorm, UnfuseSwiglu, UnfuseAttentionBlock,
               UnfuseTransformerLayer, UnfuseLoraMatmul>(patterns.getContext());
}
