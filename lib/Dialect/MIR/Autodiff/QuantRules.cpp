//===- QuantRules.cpp - VJP/JVP of fake_quantize and dequant_matmul -------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// fake_quantize is piecewise constant; training uses a straight-through
// estimator (STE) chosen by its `ste` attribute. With u = x / scale +
// zero_point the (unrounded) code and [qmin, qmax] its range, centre
// c = (qmin + qmax) / 2 and half-width r = (qmax - qmin) / 2:
//   identity:          d = 1
//   clipped_identity:  d = [qmin <= round(u) <= qmax]   (as torch's)
//   hard_tanh:         d = [|u - c| <= r]               (hardtanh' of (u-c)/r)
//   tanh:              d = 1 - tanh((u - c) / r)^2      (tanh' of (u-c)/r)
// The scale gets the LSQ gradient of torch's learnable fake quantize
// (torch._fake_quantize_learnable_per_{tensor,channel}_affine, grad_factor
// 1) whatever the STE: with q = round(x / s) + z,
//   dy/ds = q - z - x / s   where qmin <= q <= qmax,
//           qmin - z        where q < qmin (clamped),
//           qmax - z        where q > qmax,
// summed over everything but the channel axis. The zero point is an i32
// operand and has no derivative.
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::autodiff;

/// A per-channel `v` [C] reshaped to broadcast along `axis` of `like`.
static Value alongAxis(OpBuilder &b, Location loc, Value v,
                       RankedTensorType like, std::optional<int64_t> axis) {
  auto type = cast<RankedTensorType>(v.getType());
  if (!axis || type.getRank() == 0)
    return v;
  SmallVector<int64_t> shape(like.getRank(), 1);
  shape[normalizeAxis(*axis, like.getRank())] = type.getDimSize(0);
  return ReshapeOp::create(b, loc, type.clone(shape), v);
}

namespace {
/// The values both derivatives of a fake_quantize are built from.
struct FakeQuantTerms {
  FakeQuantTerms(FakeQuantizeOp op, OpBuilder &b) : op(op), b(b) {
    Location loc = op.getLoc();
    auto type = op.getType();
    std::optional<int64_t> axis = op.getAxis();
    scale = alongAxis(b, loc, op.getScale(), type, axis);
    zp = alongAxis(
        b, loc,
        CastOp::create(b, loc,
                       cast<RankedTensorType>(op.getZeroPoint().getType())
                           .clone(type.getElementType()),
                       op.getZeroPoint()),
        type, axis);
    scaled = DivOp::create(b, loc, op.getInput(), scale);
    u = AddOp::create(b, loc, scaled, zp);
    qmin = -std::ldexp(1.0, op.getBits() - 1);
    qmax = -qmin - 1;
  }

  Value c(double v) { return scalar(b, op.getLoc(), op.getType(), v); }

  /// 1 where lo <= v <= hi, else 0.
  Value inRange(Value v, double lo, double hi) {
    Location loc = op.getLoc();
    Value ge = CmpOp::create(b, loc, CmpPredicate::GE, v, c(lo));
    Value le = CmpOp::create(b, loc, CmpPredicate::LE, v, c(hi));
    Value outside = c(0.0);
    Value belowHiZero = c(0.0);
    Value belowHiOne = c(1.0);
    Value belowHi = WhereOp::create(b, loc, le, belowHiOne, belowHiZero);
    return WhereOp::create(b, loc, ge, belowHi, outside);
  }

  /// The STE's derivative dy/dx, per element.
  Value steDerivative() {
    Location loc = op.getLoc();
    double centre = (qmin + qmax) / 2, half = (qmax - qmin) / 2;
    switch (op.getSte()) {
    case SteKind::Identity:
      return c(1.0);
    case SteKind::ClippedIdentity:
      return inRange(RoundOp::create(b, loc, u), qmin, qmax);
    case SteKind::HardTanh:
      return inRange(u, qmin, qmax);
    case SteKind::Tanh: {
      Value invHalf = c(1.0 / half);
      Value centred = SubOp::create(b, loc, u, c(centre));
      Value v = MulOp::create(b, loc, centred, invHalf);
      Value t = TanhOp::create(b, loc, v);
      Value t2 = MulOp::create(b, loc, t, t);
      return SubOp::create(b, loc, c(1.0), t2);
    }
    }
    return c(1.0);
  }

  /// The LSQ derivative dy/ds, per element.
  Value scaleDerivative() {
    Location loc = op.getLoc();
    Value q = RoundOp::create(b, loc, u);
    Value inside = SubOp::create(b, loc, SubOp::create(b, loc, q, zp), scaled);
    Value low = SubOp::create(b, loc, c(qmin), zp);
    Value high = SubOp::create(b, loc, c(qmax), zp);
    Value atLow = CmpOp::create(b, loc, CmpPredicate::LT, q, c(qmin));
    Value atHigh = CmpOp::create(b, loc, CmpPredicate::GT, q, c(qmax));
    return WhereOp::create(b, loc, atLow, low,
                           WhereOp::create(b, loc, atHigh, high, inside));
  }

  /// `v`, of the input's shape, summed to the scale's.
  Value sumToScale(Value v) {
    Location loc = op.getLoc();
    auto full = cast<RankedTensorType>(v.getType());
    int64_t rank = full.getRank();
    std::optional<int64_t> axis = op.getAxis();
    bool perChannel = axis && op.getScale().getType().getRank() == 1;
    SmallVector<int64_t> axes;
    for (int64_t i = 0; i < rank; ++i)
      if (!perChannel || i != normalizeAxis(*axis, rank))
        axes.push_back(i);
    Value sum = axes.empty() ? v
                             : Value(ReduceOp::create(b, loc, ReduceKind::Sum,
                                                      v, axes,
                                                      /*keepdim=*/false));
    if (sum.getType() != op.getScale().getType())
      sum = ReshapeOp::create(b, loc, op.getScale().getType(), sum);
    return sum;
  }

  FakeQuantizeOp op;
  OpBuilder &b;
  Value scale, zp, scaled, u;
  double qmin, qmax;
};
} // namespace

static LogicalResult fakeQuantizeVjp(FakeQuantizeOp op, OpBuilder &b,
                                     ValueRange ct,
                                     SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  FakeQuantTerms terms(op, b);
  out.push_back(broadcastTo(
      b, loc, MulOp::create(b, loc, ct[0], terms.steDerivative()),
      op.getResult()));
  out.push_back(terms.sumToScale(
      MulOp::create(b, loc, ct[0], terms.scaleDerivative())));
  out.push_back(Value());
  return success();
}

static LogicalResult fakeQuantizeJvp(FakeQuantizeOp op, OpBuilder &b,
                                     ValueRange t,
                                     SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  FakeQuantTerms terms(op, b);
  Value sum;
  if (t[0])
    sum = MulOp::create(b, loc, t[0], terms.steDerivative());
  if (t[1]) {
    Value scaleDerivative = terms.scaleDerivative();
    Value scaleTangent = alongAxis(b, loc, t[1], op.getType(), op.getAxis());
    sum = addOrNull(b, loc, sum,
                    MulOp::create(b, loc, scaleTangent, scaleDerivative));
  }
  out.push_back(broadcastTo(b, loc, sum, op.getResult()));
  return success();
}

//===----------------------------------------------------------------------===//
// dequant_matmul: y = x W^T with W decoded from packed bytes. Only x has a
// derivative: the packed weight is integer, and the scheme's float scales
// and zero points have no rule (autodiff reports an error when one depends
// on a differentiated argument rather than treating it as a constant).
//===----------------------------------------------------------------------===//

// dx = dy W, with W^T [K, N] decoded by the op itself on the identity.
static LogicalResult dequantMatmulVjp(DequantMatmulOp op, OpBuilder &b,
                                      ValueRange ct,
                                      SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  auto xType = op.getInput().getType();
  int64_t k = xType.getShape().back();
  auto eyeType = xType.clone({k, k});
  SmallVector<Attribute> eye(k * k, b.getFloatAttr(xType.getElementType(), 0));
  for (int64_t i = 0; i < k; ++i)
    eye[i * k + i] = b.getFloatAttr(xType.getElementType(), 1);
  Value identity =
      ConstantOp::create(b, loc, DenseElementsAttr::get(eyeType, eye));
  Operation *decode = b.clone(*op);
  decode->setOperand(0, identity);
  decode->getResult(0).setType(
      xType.clone({k, cast<RankedTensorType>(op.getType()).getShape().back()}));
  Value dy = ct[0];
  auto dyType = cast<RankedTensorType>(dy.getType());
  if (dyType.getRank() == 1)
    dy = ReshapeOp::create(b, loc, dyType.clone({1, dyType.getDimSize(0)}), dy);
  Value dx = MatmulOp::create(b, loc, dy, decode->getResult(0), false, true);
  if (dx.getType() != xType)
    dx = ReshapeOp::create(b, loc, xType, dx);
  out.push_back(dx);
  out.append(op->getNumOperands() - 1, Value());
  return success();
}

static bool onlyInputDerivative(DequantMatmulOp, unsigned index) {
  return index == 0;
}

static LogicalResult dequantMatmulJvp(DequantMatmulOp op, OpBuilder &b,
                                      ValueRange t,
                                      SmallVectorImpl<Value> &out) {
  Operation *clone = b.clone(*op);
  clone->setOperand(0, t[0]);
  out.push_back(clone->getResult(0));
  return success();
}

void autodiff::attachQuantRules(MLIRContext *ctx) {
  attach<FakeQuantizeOp, fakeQuantizeVjp, fakeQuantizeJvp>(ctx);
  attach<DequantMatmulOp, dequantMatmulVjp, dequantMatmulJvp,
         onlyInputDerivative>(ctx);
}
