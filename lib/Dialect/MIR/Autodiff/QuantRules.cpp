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
// Scale and zero point get no gradient (LSQ-style learned scales are not
// covered).
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"

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

/// The STE's derivative d(y)/d(x), per element.
static Value steDerivative(FakeQuantizeOp op, OpBuilder &b) {
  Location loc = op.getLoc();
  auto type = op.getType();
  auto c = [&](double v) { return scalar(b, loc, type, v); };
  if (op.getSte() == SteKind::Identity)
    return c(1.0);
  std::optional<int64_t> axis = op.getAxis();
  Value scale = alongAxis(b, loc, op.getScale(), type, axis);
  Value zp = alongAxis(
      b, loc,
      CastOp::create(b, loc,
                     cast<RankedTensorType>(op.getZeroPoint().getType())
                         .clone(type.getElementType()),
                     op.getZeroPoint()),
      type, axis);
  Value u =
      AddOp::create(b, loc, DivOp::create(b, loc, op.getInput(), scale), zp);
  double qmin = -std::ldexp(1.0, op.getBits() - 1), qmax = -qmin - 1;
  double centre = (qmin + qmax) / 2, half = (qmax - qmin) / 2;
  auto inRange = [&](Value v, double lo, double hi) -> Value {
    Value ge = CmpOp::create(b, loc, CmpPredicate::GE, v, c(lo));
    Value le = CmpOp::create(b, loc, CmpPredicate::LE, v, c(hi));
    return WhereOp::create(b, loc, ge,
                           WhereOp::create(b, loc, le, c(1.0), c(0.0)), c(0.0));
  };
  switch (op.getSte()) {
  case SteKind::Identity:
    break;
  case SteKind::ClippedIdentity:
    return inRange(RoundOp::create(b, loc, u), qmin, qmax);
  case SteKind::HardTanh:
    return inRange(u, qmin, qmax);
  case SteKind::Tanh: {
    Value v = MulOp::create(b, loc, SubOp::create(b, loc, u, c(centre)),
                            c(1.0 / half));
    Value t = TanhOp::create(b, loc, v);
    return SubOp::create(b, loc, c(1.0), MulOp::create(b, loc, t, t));
  }
  }
  return c(1.0);
}

static LogicalResult fakeQuantizeRule(FakeQuantizeOp op, OpBuilder &b,
                                      ValueRange seeds,
                                      SmallVectorImpl<Value> &out) {
  // Elementwise in x: VJP and JVP both multiply by the STE's derivative.
  Value d = steDerivative(op, b);
  out.push_back(seeds[0]
                    ? broadcastTo(b, op.getLoc(),
                                  MulOp::create(b, op.getLoc(), seeds[0], d),
                                  op.getType())
                    : Value());
  return success();
}

static LogicalResult fakeQuantizeVjp(FakeQuantizeOp op, OpBuilder &b,
                                     ValueRange ct,
                                     SmallVectorImpl<Value> &out) {
  if (failed(fakeQuantizeRule(op, b, ct, out)))
    return failure();
  out.append({Value(), Value()});
  return success();
}

//===----------------------------------------------------------------------===//
// dequant_matmul: y = x W^T with W decoded from packed bytes. Only x has a
// derivative (the packed weight is integer; the scheme's scales are
// treated as constants).
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

static LogicalResult dequantMatmulJvp(DequantMatmulOp op, OpBuilder &b,
                                      ValueRange t,
                                      SmallVectorImpl<Value> &out) {
  if (llvm::any_of(t.drop_front(), [](Value v) { return bool(v); }))
    return op.emitOpError("has no derivative with respect to its "
                          "quantization parameters");
  Operation *clone = b.clone(*op);
  clone->setOperand(0, t[0]);
  out.push_back(clone->getResult(0));
  return success();
}

void autodiff::attachQuantRules(MLIRContext *ctx) {
  attach<FakeQuantizeOp, fakeQuantizeVjp, fakeQuantizeRule>(ctx);
  attach<DequantMatmulOp, dequantMatmulVjp, dequantMatmulJvp>(ctx);
}
