//===- Decompositions.cpp - composite rlx ops in primitives ---------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Decompositions.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::autodiff;

/// mean(v) over the last axis, kept as a size-1 dim.
static Value meanLast(OpBuilder &b, Location loc, Value v) {
  int64_t rank = cast<RankedTensorType>(v.getType()).getRank();
  return ReduceOp::create(b, loc, ReduceKind::Mean, v,
                          ArrayRef<int64_t>{rank - 1}, /*keepdim=*/true);
}

Value autodiff::decomposeLayerNorm(OpBuilder &b, Location loc, Value x,
                                   Value gamma, Value beta, double epsilon) {
  Value xc = SubOp::create(b, loc, x, meanLast(b, loc, x));
  Value var = meanLast(b, loc, MulOp::create(b, loc, xc, xc));
  Value r = RsqrtOp::create(
      b, loc, AddOp::create(b, loc, var, scalar(b, loc, x.getType(), epsilon)));
  Value y = MulOp::create(b, loc, MulOp::create(b, loc, xc, r), gamma);
  return beta ? Value(AddOp::create(b, loc, y, beta)) : y;
}

Value autodiff::decomposeRmsNorm(OpBuilder &b, Location loc, Value x,
                                 Value gamma, double epsilon) {
  Value ms = meanLast(b, loc, MulOp::create(b, loc, x, x));
  Value r = RsqrtOp::create(
      b, loc, AddOp::create(b, loc, ms, scalar(b, loc, x.getType(), epsilon)));
  return MulOp::create(b, loc, MulOp::create(b, loc, x, r), gamma);
}

/// A per-channel `v` [C] as [1, C, 1, ...] for an input of rank `rank`.
static Value perChannel(OpBuilder &b, Location loc, Value v, int64_t rank) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape(rank, 1);
  shape[1] = type.getDimSize(0);
  return ReshapeOp::create(b, loc, type.clone(shape), v);
}

Value autodiff::decomposeGroupNorm(OpBuilder &b, Location loc, Value x,
                                   Value gamma, Value beta, int64_t groups,
                                   double epsilon) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t perSample = 1;
  for (int64_t d = 1; d < type.getRank(); ++d)
    perSample *= type.getDimSize(d);
  auto grouped = type.clone({type.getDimSize(0), groups, perSample / groups});
  Value xg = ReshapeOp::create(b, loc, grouped, x);
  Value xc = SubOp::create(b, loc, xg, meanLast(b, loc, xg));
  Value var = meanLast(b, loc, MulOp::create(b, loc, xc, xc));
  Value r = RsqrtOp::create(
      b, loc, AddOp::create(b, loc, var, scalar(b, loc, type, epsilon)));
  Value xh = ReshapeOp::create(b, loc, type, MulOp::create(b, loc, xc, r));
  int64_t rank = type.getRank();
  Value shift = perChannel(b, loc, beta, rank);
  Value scaled = MulOp::create(b, loc, xh, perChannel(b, loc, gamma, rank));
  return AddOp::create(b, loc, scaled, shift);
}

Value autodiff::decomposeBatchNorm(OpBuilder &b, Location loc, Value x,
                                   Value gamma, Value beta, Value mean,
                                   Value variance, double epsilon) {
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  Value r = RsqrtOp::create(
      b, loc,
      AddOp::create(b, loc, variance, scalar(b, loc, x.getType(), epsilon)));
  Value scale = MulOp::create(b, loc, r, gamma);
  Value xc = SubOp::create(b, loc, x, perChannel(b, loc, mean, rank));
  Value shift = perChannel(b, loc, beta, rank);
  Value scaled = MulOp::create(b, loc, xc, perChannel(b, loc, scale, rank));
  return AddOp::create(b, loc, scaled, shift);
}

/// `x` [B, Hkv, S, D] with each head repeated `rep` times: [B, Hkv*rep, S, D]
/// (query head h reads kv head h / rep).
static Value repeatHeads(OpBuilder &b, Location loc, Value x, int64_t rep) {
  if (rep == 1)
    return x;
  auto type = cast<RankedTensorType>(x.getType());
  ArrayRef<int64_t> s = type.getShape();
  Value five =
      ReshapeOp::create(b, loc, type.clone({s[0], s[1], 1, s[2], s[3]}), x);
  Value wide =
      ExpandOp::create(b, loc, type.clone({s[0], s[1], rep, s[2], s[3]}), five);
  return ReshapeOp::create(b, loc, type.clone({s[0], s[1] * rep, s[2], s[3]}),
                           wide);
}

FailureOr<Value> autodiff::decomposeAttention(OpBuilder &b, Location loc,
                                              Value q, Value k, Value v,
                                              Value mask,
                                              const AttentionAttrs &attrs) {
  auto qt = cast<RankedTensorType>(q.getType());
  auto kt = cast<RankedTensorType>(k.getType());
  if (!qt.hasStaticShape() || !kt.hasStaticShape() ||
      !cast<RankedTensorType>(v.getType()).hasStaticShape())
    return emitError(loc, "attention is differentiated for static shapes only");
  int64_t heads = qt.getDimSize(1), seq = qt.getDimSize(2),
          dim = qt.getDimSize(3);
  int64_t kvHeads = kt.getDimSize(1), kvSeq = kt.getDimSize(2);
  Value kr = repeatHeads(b, loc, k, heads / kvHeads);
  Value vr = repeatHeads(b, loc, v, heads / kvHeads);
  Value s = MatmulOp::create(b, loc, q, kr, false, /*transpose_b=*/true);
  double scale = attrs.scale ? *attrs.scale : 1.0 / std::sqrt(double(dim));
  s = MulOp::create(b, loc, s, scalar(b, loc, qt, scale));

  // Masked scores become the lowest finite value (not -inf, so that a
  // fully masked row stays finite); its probabilities are zeroed after.
  Value visible;
  switch (attrs.mask) {
  case MaskKind::None:
    break;
  case MaskKind::Bias:
    s = AddOp::create(b, loc, s, mask);
    break;
  case MaskKind::Custom:
    visible = mask;
    break;
  case MaskKind::Causal:
  case MaskKind::SlidingWindow: {
    SmallVector<bool> bits;
    int64_t off = kvSeq - seq;
    for (int64_t i = 0; i < seq; ++i)
      for (int64_t j = 0; j < kvSeq; ++j)
        bits.push_back(j <= i + off && (attrs.mask == MaskKind::Causal ||
                                        j > i + off - *attrs.window));
    auto type = RankedTensorType::get({seq, kvSeq}, b.getI1Type());
    visible = ConstantOp::create(b, loc, DenseElementsAttr::get(type, bits));
    break;
  }
  }
  if (visible) {
    auto element = cast<FloatType>(qt.getElementType());
    double lowest =
        APFloat::getLargest(element.getFloatSemantics(), /*Negative=*/true)
            .convertToDouble();
    s = WhereOp::create(b, loc, visible, s, scalar(b, loc, qt, lowest));
  }
  Value p = SoftmaxOp::create(b, loc, s, 3);
  if (visible) {
    Value hidden = scalar(b, loc, qt, 0.0);
    Value shown = scalar(b, loc, qt, 1.0);
    p = MulOp::create(b, loc, p,
                      WhereOp::create(b, loc, visible, shown, hidden));
  }
  return Value(MatmulOp::create(b, loc, p, vr));
}
