//===- NNRules.cpp - VJP/JVP of norms, attention, rope, cross-entropy -----===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The reverse rules of layer/RMS norm, attention and softmax cross-entropy
// emit the dedicated backward ops (one fused kernel each, see OPS.md);
// their forward rules differentiate the ops' decompositions into
// primitives. The backward ops have rules too (through the same
// decompositions, or written out for cross-entropy), so that these ops
// can be differentiated twice: Hessian-vector products, force losses.
//
//===----------------------------------------------------------------------===//

#include "Decompositions.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::autodiff;

static double epsilonOf(APFloat epsilon) { return epsilon.convertToDouble(); }

//===----------------------------------------------------------------------===//
// layer_norm, rms_norm and their backward ops
//===----------------------------------------------------------------------===//

static LogicalResult layerNormVjp(LayerNormOp op, OpBuilder &b, ValueRange ct,
                                  SmallVectorImpl<Value> &out) {
  auto grads = LayerNormBackwardOp::create(b, op.getLoc(), ct[0], op.getInput(),
                                           op.getGamma(), op.getEpsilon());
  llvm::append_range(out, grads.getResults());
  return success();
}

static LogicalResult layerNormJvp(LayerNormOp op, OpBuilder &b, ValueRange t,
                                  SmallVectorImpl<Value> &out) {
  return jvpOf(
      b, op->getOperands(),
      [&](OpBuilder &nb) -> FailureOr<SmallVector<Value>> {
        return SmallVector<Value>{
            decomposeLayerNorm(nb, op.getLoc(), op.getInput(), op.getGamma(),
                               op.getBeta(), epsilonOf(op.getEpsilon()))};
      },
      t, out);
}

static LogicalResult rmsNormVjp(RmsNormOp op, OpBuilder &b, ValueRange ct,
                                SmallVectorImpl<Value> &out) {
  auto grads = RmsNormBackwardOp::create(b, op.getLoc(), ct[0], op.getInput(),
                                         op.getGamma(), op.getEpsilon());
  llvm::append_range(out, grads.getResults());
  return success();
}

static LogicalResult rmsNormJvp(RmsNormOp op, OpBuilder &b, ValueRange t,
                                SmallVectorImpl<Value> &out) {
  return jvpOf(
      b, op->getOperands(),
      [&](OpBuilder &nb) -> FailureOr<SmallVector<Value>> {
        return SmallVector<Value>{decomposeRmsNorm(nb, op.getLoc(),
                                                   op.getInput(), op.getGamma(),
                                                   epsilonOf(op.getEpsilon()))};
      },
      t, out);
}

// The backward ops are the VJPs of the decomposed norms: their own rules
// differentiate that VJP once more (second order through a norm).
static FailureOr<SmallVector<Value>> layerNormBackward(OpBuilder &b,
                                                       LayerNormBackwardOp op) {
  Location loc = op.getLoc();
  SmallVector<Value> grads;
  Value x = op.getInput(), g = op.getGamma();
  if (failed(vjpOf(
          b, {x, g},
          [&](OpBuilder &nb) -> FailureOr<SmallVector<Value>> {
            return SmallVector<Value>{decomposeLayerNorm(
                nb, loc, x, g, Value(), epsilonOf(op.getEpsilon()))};
          },
          {op.getDResult()}, grads)))
    return failure();
  grads.push_back(unbroadcast(b, loc, op.getDResult(), g.getType()));
  return grads;
}

static FailureOr<SmallVector<Value>> rmsNormBackward(OpBuilder &b,
                                                     RmsNormBackwardOp op) {
  SmallVector<Value> grads;
  Value x = op.getInput(), g = op.getGamma();
  if (failed(vjpOf(
          b, {x, g},
          [&](OpBuilder &nb) -> FailureOr<SmallVector<Value>> {
            return SmallVector<Value>{decomposeRmsNorm(
                nb, op.getLoc(), x, g, epsilonOf(op.getEpsilon()))};
          },
          {op.getDResult()}, grads)))
    return failure();
  return grads;
}

static FailureOr<SmallVector<Value>> groupNorm(OpBuilder &b, GroupNormOp op) {
  auto type = op.getInput().getType();
  for (int64_t d = 1; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      return op.emitOpError("differentiates with a dynamic batch only; dim ")
             << d << " of " << type << " is dynamic";
  return SmallVector<Value>{decomposeGroupNorm(
      b, op.getLoc(), op.getInput(), op.getGamma(), op.getBeta(),
      op.getNumGroups(), epsilonOf(op.getEpsilon()))};
}

static FailureOr<SmallVector<Value>> batchNorm(OpBuilder &b,
                                               BatchNormInferenceOp op) {
  return SmallVector<Value>{decomposeBatchNorm(
      b, op.getLoc(), op.getInput(), op.getGamma(), op.getBeta(), op.getMean(),
      op.getVariance(), epsilonOf(op.getEpsilon()))};
}

/// The VJP and JVP of an op given as a decomposition `decompose(b, op)`.
template <typename OpT,
          FailureOr<SmallVector<Value>> (*Decompose)(OpBuilder &, OpT)>
static LogicalResult decomposedVjp(OpT op, OpBuilder &b, ValueRange ct,
                                   SmallVectorImpl<Value> &out) {
  return vjpOf(
      b, op->getOperands(), [&](OpBuilder &nb) { return Decompose(nb, op); },
      ct, out);
}

template <typename OpT,
          FailureOr<SmallVector<Value>> (*Decompose)(OpBuilder &, OpT)>
static LogicalResult decomposedJvp(OpT op, OpBuilder &b, ValueRange t,
                                   SmallVectorImpl<Value> &out) {
  return jvpOf(
      b, op->getOperands(), [&](OpBuilder &nb) { return Decompose(nb, op); }, t,
      out);
}

template <typename OpT,
          FailureOr<SmallVector<Value>> (*Decompose)(OpBuilder &, OpT)>
static void attachDecomposed(MLIRContext *ctx) {
  attach<OpT, decomposedVjp<OpT, Decompose>, decomposedJvp<OpT, Decompose>>(
      ctx);
}

//===----------------------------------------------------------------------===//
// attention and its backward op
//===----------------------------------------------------------------------===//

template <typename OpT> static AttentionAttrs attentionAttrs(OpT op) {
  AttentionAttrs attrs{op.getMask(), std::nullopt, std::nullopt};
  if (auto window = op.getWindow())
    attrs.window = *window;
  if (auto scale = op.getScale())
    attrs.scale = scale->convertToDouble();
  return attrs;
}

static FailureOr<SmallVector<Value>> attention(OpBuilder &b, AttentionOp op) {
  FailureOr<Value> o =
      decomposeAttention(b, op.getLoc(), op.getQuery(), op.getKey(),
                         op.getValue(), op.getAttnMask(), attentionAttrs(op));
  if (failed(o))
    return failure();
  return SmallVector<Value>{*o};
}

// The fused backward kernel, but for an attention bias: attention_backward
// does not return its gradient, so a float mask goes through the
// decomposition.
static LogicalResult attentionVjp(AttentionOp op, OpBuilder &b, ValueRange ct,
                                  SmallVectorImpl<Value> &out) {
  Value mask = op.getAttnMask();
  if (mask && isDifferentiable(mask.getType()))
    return decomposedVjp<AttentionOp, attention>(op, b, ct, out);
  auto grads = AttentionBackwardOp::create(
      b, op.getLoc(), op.getQuery(), op.getKey(), op.getValue(), op.getResult(),
      ct[0], mask, op.getMaskAttr(), op.getWindowAttr(), op.getScaleAttr());
  llvm::append_range(out, grads.getResults());
  if (mask)
    out.push_back(Value());
  return success();
}

// attention_backward recomputes the forward from q, k and v; the `output`
// operand it is given equals that forward and gets no cotangent of its own.
static FailureOr<SmallVector<Value>> attentionBackward(OpBuilder &b,
                                                       AttentionBackwardOp op) {
  SmallVector<Value> grads;
  Value q = op.getQuery(), k = op.getKey(), v = op.getValue();
  if (failed(vjpOf(
          b, {q, k, v},
          [&](OpBuilder &nb) -> FailureOr<SmallVector<Value>> {
            FailureOr<Value> o = decomposeAttention(
                nb, op.getLoc(), q, k, v, op.getAttnMask(), attentionAttrs(op));
            if (failed(o))
              return failure();
            return SmallVector<Value>{*o};
          },
          {op.getDOutput()}, grads)))
    return failure();
  return grads;
}

//===----------------------------------------------------------------------===//
// rope
//===----------------------------------------------------------------------===//

/// The two halves of each rotated pair of `x` [..., D], each [..., D/2]:
/// (x[:D/2], x[D/2:]) for neox, (x[0::2], x[1::2]) for gptj.
static std::pair<Value, Value> ropePairs(RopeOp op, OpBuilder &b, Value x) {
  Location loc = op.getLoc();
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank(), d = type.getDimSize(rank - 1);
  SmallVector<int64_t> half(type.getShape());
  half.back() = d / 2;
  if (op.getStyle() == RopeStyle::Neox)
    return {NarrowOp::create(b, loc, x, rank - 1, 0, d / 2),
            NarrowOp::create(b, loc, x, rank - 1, d / 2, d / 2)};
  SmallVector<int64_t> paired(half);
  paired.push_back(2);
  Value p = ReshapeOp::create(b, loc, type.clone(paired), x);
  auto pick = [&](int64_t i) -> Value {
    return ReshapeOp::create(b, loc, type.clone(half),
                             NarrowOp::create(b, loc, p, rank, i, 1));
  };
  return {pick(0), pick(1)};
}

/// The inverse of ropePairs.
static Value ropeJoin(RopeOp op, OpBuilder &b, Value first, Value second) {
  Location loc = op.getLoc();
  auto type = op.getType();
  int64_t rank = type.getRank();
  if (op.getStyle() == RopeStyle::Neox)
    return ConcatOp::create(b, loc, ValueRange{first, second}, rank - 1);
  SmallVector<int64_t> paired(type.getShape());
  paired.back() /= 2;
  paired.push_back(1);
  auto unit = type.clone(paired);
  Value a = ReshapeOp::create(b, loc, unit, first);
  Value c = ReshapeOp::create(b, loc, unit, second);
  return ReshapeOp::create(b, loc, type,
                           ConcatOp::create(b, loc, ValueRange{a, c}, rank));
}

// Each pair rotates: (a, b) -> (a cos - b sin, a sin + b cos). Its
// transpose rotates back (sin -> -sin); cos and sin get
// sum(ct_a a + ct_b b) and sum(ct_b a - ct_a b) over the batch and heads.
static LogicalResult ropeVjp(RopeOp op, OpBuilder &b, ValueRange ct,
                             SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  Value sin = op.getSin();
  out.push_back(RopeOp::create(b, loc, ct[0], op.getCos(),
                               NegOp::create(b, loc, sin), op.getStyle()));
  auto [a, c] = ropePairs(op, b, op.getInput());
  auto [ga, gc] = ropePairs(op, b, ct[0]);
  auto mul = [&](Value l, Value r) -> Value {
    return MulOp::create(b, loc, l, r);
  };
  Value gcC = mul(gc, c);
  Value gaA = mul(ga, a);
  Value dcos = AddOp::create(b, loc, gaA, gcC);
  Value gaC = mul(ga, c);
  Value gcA = mul(gc, a);
  Value dsin = SubOp::create(b, loc, gcA, gaC);
  out.push_back(unbroadcast(b, loc, dcos, op.getCos().getType()));
  out.push_back(unbroadcast(b, loc, dsin, sin.getType()));
  return success();
}

static LogicalResult ropeJvp(RopeOp op, OpBuilder &b, ValueRange t,
                             SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  Value dy;
  if (t[0])
    dy = RopeOp::create(b, loc, t[0], op.getCos(), op.getSin(), op.getStyle());
  if (t[1] || t[2]) {
    // (a dcos - b dsin, a dsin + b dcos)
    auto [a, c] = ropePairs(op, b, op.getInput());
    auto term = [&](Value x, Value dt) -> Value {
      return dt ? Value(MulOp::create(b, loc, x, dt)) : Value();
    };
    Value cDsin = term(c, t[2]);
    Value aDcos = term(a, t[1]);
    Value first = subOrNull(b, loc, aDcos, cDsin);
    Value cDcos = term(c, t[1]);
    Value aDsin = term(a, t[2]);
    Value second = addOrNull(b, loc, aDsin, cDcos);
    dy = addOrNull(b, loc, dy, ropeJoin(op, b, first, second));
  }
  out.push_back(dy);
  return success();
}

//===----------------------------------------------------------------------===//
// softmax_cross_entropy and its backward op
//===----------------------------------------------------------------------===//

/// onehot(labels) [N, C] in `like`'s float type.
static Value oneHot(OpBuilder &b, Location loc, Value labels,
                    RankedTensorType like) {
  int64_t n = like.getDimSize(0), classes = like.getDimSize(1);
  SmallVector<int64_t> iota = llvm::to_vector(llvm::seq<int64_t>(0, classes));
  auto iotaType = RankedTensorType::get({1, classes}, b.getI64Type());
  Value positions = ConstantOp::create(
      b, loc, DenseElementsAttr::get(iotaType, ArrayRef<int64_t>(iota)));
  auto column = RankedTensorType::get({n, 1}, b.getI64Type());
  Value hit =
      CmpOp::create(b, loc, CmpPredicate::EQ,
                    ReshapeOp::create(b, loc, column, labels), positions);
  Value zero = scalar(b, loc, like, 0.0);
  Value one = scalar(b, loc, like, 1.0);
  return WhereOp::create(b, loc, hit, one, zero);
}

static Value rowSum(OpBuilder &b, Location loc, Value v) {
  return ReduceOp::create(b, loc, ReduceKind::Sum, v, ArrayRef<int64_t>{1},
                          /*keepdim=*/true);
}

static LogicalResult crossEntropyVjp(SoftmaxCrossEntropyOp op, OpBuilder &b,
                                     ValueRange ct,
                                     SmallVectorImpl<Value> &out) {
  out.push_back(SoftmaxCrossEntropyBackwardOp::create(
      b, op.getLoc(), op.getLogits(), op.getLabels(), ct[0]));
  out.push_back(Value());
  return success();
}

// dl = mean_n(sum_c (p - onehot) t)
static LogicalResult crossEntropyJvp(SoftmaxCrossEntropyOp op, OpBuilder &b,
                                     ValueRange t,
                                     SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  auto type = op.getLogits().getType();
  Value p = SoftmaxOp::create(b, loc, op.getLogits(), 1);
  Value diff = SubOp::create(b, loc, p, oneHot(b, loc, op.getLabels(), type));
  Value total = ReduceOp::create(b, loc, ReduceKind::Sum,
                                 MulOp::create(b, loc, diff, t[0]),
                                 ArrayRef<int64_t>{0, 1}, false);
  out.push_back(MulOp::create(b, loc, total,
                              reciprocalCount(b, loc, op.getLogits(), {0})));
  return success();
}

// r = (p - onehot) d / N with p = softmax(l): linear in d; in l through
// p, whose Jacobian is symmetric: dp = p (v - sum(p v)).
static Value softmaxDirectional(OpBuilder &b, Location loc, Value p, Value v) {
  return MulOp::create(
      b, loc, p,
      SubOp::create(b, loc, v, rowSum(b, loc, MulOp::create(b, loc, p, v))));
}

static LogicalResult crossEntropyBackwardVjp(SoftmaxCrossEntropyBackwardOp op,
                                             OpBuilder &b, ValueRange ct,
                                             SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  auto type = op.getLogits().getType();
  Value invN = reciprocalCount(b, loc, op.getLogits(), {0});
  Value p = SoftmaxOp::create(b, loc, op.getLogits(), 1);
  Value scaled =
      MulOp::create(b, loc, MulOp::create(b, loc, ct[0], invN), op.getDLoss());
  out.push_back(softmaxDirectional(b, loc, p, scaled));
  out.push_back(Value());
  Value diff = SubOp::create(b, loc, p, oneHot(b, loc, op.getLabels(), type));
  Value dd = ReduceOp::create(b, loc, ReduceKind::Sum,
                              MulOp::create(b, loc, diff, ct[0]),
                              ArrayRef<int64_t>{0, 1}, false);
  out.push_back(unbroadcast(b, loc, MulOp::create(b, loc, dd, invN),
                            op.getDLoss().getType()));
  return success();
}

static LogicalResult crossEntropyBackwardJvp(SoftmaxCrossEntropyBackwardOp op,
                                             OpBuilder &b, ValueRange t,
                                             SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  auto type = op.getLogits().getType();
  Value invN = reciprocalCount(b, loc, op.getLogits(), {0});
  Value p = SoftmaxOp::create(b, loc, op.getLogits(), 1);
  Value dr;
  if (t[0]) {
    Value seed = MulOp::create(b, loc, op.getDLoss(), invN);
    dr = MulOp::create(b, loc, softmaxDirectional(b, loc, p, t[0]), seed);
  }
  if (t[2]) {
    Value diff = SubOp::create(b, loc, p, oneHot(b, loc, op.getLabels(), type));
    dr = addOrNull(
        b, loc, dr,
        MulOp::create(b, loc, diff, MulOp::create(b, loc, t[2], invN)));
  }
  out.push_back(dr);
  return success();
}

void autodiff::attachNNRules(MLIRContext *ctx) {
  attach<LayerNormOp, layerNormVjp, layerNormJvp>(ctx);
  attach<RmsNormOp, rmsNormVjp, rmsNormJvp>(ctx);
  attach<AttentionOp, attentionVjp, decomposedJvp<AttentionOp, attention>>(ctx);
  attachDecomposed<AttentionBackwardOp, attentionBackward>(ctx);
  attachDecomposed<LayerNormBackwardOp, layerNormBackward>(ctx);
  attachDecomposed<RmsNormBackwardOp, rmsNormBackward>(ctx);
  attachDecomposed<GroupNormOp, groupNorm>(ctx);
  attachDecomposed<BatchNormInferenceOp, batchNorm>(ctx);
  attach<RopeOp, ropeVjp, ropeJvp>(ctx);
  attach<SoftmaxCrossEntropyOp, crossEntropyVjp, crossEntropyJvp>(ctx);
  attach<SoftmaxCrossEntropyBackwardOp, crossEntropyBackwardVjp,
         crossEntropyBackwardJvp>(ctx);
}
