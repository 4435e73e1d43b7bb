//===- ElementwiseRules.cpp - VJP/JVP of elementwise rlx ops
//---------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Unary ops are differentiated through f'(x), built from x and y = f(x):
// VJP ct * conj(f'(x)), JVP t * f'(x). Binary ops broadcast, so their
// operand cotangents are unbroadcast and their tangents broadcast to the
// result. The conjugates (no-ops on real values) make the VJPs of the ops
// that take complex values (exp, log, mul, div, fma) the adjoints of their
// real-linear Jacobians, PyTorch's convention (RuleUtils.h).
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"

#include <cmath>

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::autodiff;

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

template <typename OpT> using Derivative = Value (*)(OpT, OpBuilder &);

template <typename OpT, Derivative<OpT> D>
static LogicalResult unaryVjp(OpT op, OpBuilder &b, ValueRange ct,
                              SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  out.push_back(MulOp::create(b, loc, ct[0], conj(b, loc, D(op, b))));
  return success();
}

template <typename OpT, Derivative<OpT> D>
static LogicalResult unaryJvp(OpT op, OpBuilder &b, ValueRange t,
                              SmallVectorImpl<Value> &out) {
  out.push_back(MulOp::create(b, op.getLoc(), t[0], D(op, b)));
  return success();
}

template <typename OpT, Derivative<OpT> D>
static void attachUnary(MLIRContext *ctx) {
  attach<OpT, unaryVjp<OpT, D>, unaryJvp<OpT, D>>(ctx);
}

/// The scalar constant `v` of x's element type.
template <typename OpT> static Value c(OpT op, OpBuilder &b, double v) {
  return scalar(b, op.getLoc(), op.getType(), v);
}

static Value dExp(ExpOp op, OpBuilder &) { return op.getResult(); }

static Value dLog(LogOp op, OpBuilder &b) {
  return DivOp::create(b, op.getLoc(), c(op, b, 1.0), op.getInput());
}

static Value dSqrt(SqrtOp op, OpBuilder &b) {
  return DivOp::create(b, op.getLoc(), c(op, b, 0.5), op.getResult());
}

// d rsqrt(x) = -x^(-3/2) / 2 = -y^3 / 2
static Value dRsqrt(RsqrtOp op, OpBuilder &b) {
  Location loc = op.getLoc();
  Value y = op.getResult();
  Value y3 = MulOp::create(b, loc, MulOp::create(b, loc, y, y), y);
  return MulOp::create(b, loc, y3, c(op, b, -0.5));
}

// d sigmoid = y (1 - y)
static Value dSigmoid(SigmoidOp op, OpBuilder &b) {
  Location loc = op.getLoc();
  Value y = op.getResult();
  return MulOp::create(b, loc, y, SubOp::create(b, loc, c(op, b, 1.0), y));
}

// d tanh = 1 - y^2
static Value dTanh(TanhOp op, OpBuilder &b) {
  Location loc = op.getLoc();
  Value y = op.getResult();
  Value y2 = MulOp::create(b, loc, y, y);
  return SubOp::create(b, loc, c(op, b, 1.0), y2);
}

static Value dSin(SinOp op, OpBuilder &b) {
  return CosOp::create(b, op.getLoc(), op.getInput());
}

static Value dCos(CosOp op, OpBuilder &b) {
  return NegOp::create(b, op.getLoc(),
                       SinOp::create(b, op.getLoc(), op.getInput()));
}

// d tan = 1 + y^2
static Value dTan(TanOp op, OpBuilder &b) {
  Location loc = op.getLoc();
  Value y = op.getResult();
  Value y2 = MulOp::create(b, loc, y, y);
  return AddOp::create(b, loc, c(op, b, 1.0), y2);
}

// d atan = 1 / (1 + x^2)
static Value dAtan(AtanOp op, OpBuilder &b) {
  Location loc = op.getLoc();
  Value x = op.getInput();
  Value x2 = MulOp::create(b, loc, x, x);
  Value denominator = AddOp::create(b, loc, c(op, b, 1.0), x2);
  return DivOp::create(b, loc, c(op, b, 1.0), denominator);
}

// d silu = s (1 + x (1 - s)), s = sigmoid(x)
static Value dSilu(SiluOp op, OpBuilder &b) {
  Location loc = op.getLoc();
  Value x = op.getInput();
  Value s = SigmoidOp::create(b, loc, x);
  Value oneMinus = SubOp::create(b, loc, c(op, b, 1.0), s);
  Value xOneMinus = MulOp::create(b, loc, x, oneMinus);
  return MulOp::create(b, loc, s,
                       AddOp::create(b, loc, c(op, b, 1.0), xOneMinus));
}

/// 1 where `x pred 0`, else 0, as x's type.
template <typename OpT>
static Value indicator(OpT op, OpBuilder &b, CmpPredicate pred) {
  Location loc = op.getLoc();
  Value x = op->getOperand(0);
  Value cond = CmpOp::create(b, loc, pred, x, c(op, b, 0.0));
  Value zero = c(op, b, 0.0);
  Value one = c(op, b, 1.0);
  return WhereOp::create(b, loc, cond, one, zero);
}

// d relu = [x > 0] (0 at 0, as torch): the seed passes where y = relu(x) is
// positive, zero elsewhere. Testing y rather than x lets x die at the relu
// (a backward then keeps one activation, not two), and the where takes the
// seed itself instead of multiplying it by a materialized mask. Its own
// transpose, as for the other unary rules.
static LogicalResult reluRule(ReluOp op, OpBuilder &b, ValueRange seeds,
                              SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  Value positive =
      CmpOp::create(b, loc, CmpPredicate::GT, op.getResult(), c(op, b, 0.0));
  out.push_back(WhereOp::create(b, loc, positive, seeds[0], c(op, b, 0.0)));
  return success();
}

// d |x| = sign(x) (0 at 0, as torch)
static Value dAbs(AbsOp op, OpBuilder &b) {
  Value negative = indicator(op, b, CmpPredicate::LT);
  Value positive = indicator(op, b, CmpPredicate::GT);
  return SubOp::create(b, op.getLoc(), positive, negative);
}

// gelu(x) = x Phi(x): d = Phi(x) + x phi(x). rlx has no erf op, so Phi(x)
// is read back as gelu(x) / x (exact to a rounding), 1/2 at x = 0; the
// division runs on a zero-free copy of x so that no NaN reaches a higher
// derivative through the unselected branch.
// gelu_tanh(x) = x (1 + t) / 2 with t = tanh(u), u = c (x + k x^3):
// d = (1 + t) / 2 + x (1 - t^2) c (1 + 3 k x^2) / 2.
static Value dGelu(GeluOp op, OpBuilder &b) {
  Location loc = op.getLoc();
  Value x = op.getInput();
  auto mul = [&](Value l, Value r) -> Value {
    return MulOp::create(b, loc, l, r);
  };
  auto add = [&](Value l, Value r) -> Value {
    return AddOp::create(b, loc, l, r);
  };
  if (op.getApproximate() == GeluApproximation::None) {
    Value isZero = CmpOp::create(b, loc, CmpPredicate::EQ, x, c(op, b, 0.0));
    Value safe = WhereOp::create(b, loc, isZero, c(op, b, 1.0), x);
    Value ratio = DivOp::create(b, loc, GeluOp::create(b, loc, safe), safe);
    Value cdf = WhereOp::create(b, loc, isZero, c(op, b, 0.5), ratio);
    Value norm = c(op, b, 1.0 / std::sqrt(2.0 * M_PI));
    Value minusHalf = c(op, b, -0.5);
    Value exponent = mul(mul(x, x), minusHalf);
    Value pdf = mul(ExpOp::create(b, loc, exponent), norm);
    return add(cdf, mul(x, pdf));
  }
  double k = 0.044715, s = std::sqrt(2.0 / M_PI);
  Value x2 = mul(x, x);
  Value scale = c(op, b, s);
  Value kCst = c(op, b, k);
  Value cubic = mul(mul(x2, x), kCst);
  Value u = mul(add(x, cubic), scale);
  Value t = TanhOp::create(b, loc, u);
  Value halfCst = c(op, b, 0.5);
  Value onePlusT = add(c(op, b, 1.0), t);
  Value half = mul(onePlusT, halfCst);
  Value t2 = mul(t, t);
  Value sech2 = SubOp::create(b, loc, c(op, b, 1.0), t2);
  Value duScale = c(op, b, s);
  Value threeK = c(op, b, 3 * k);
  Value quadratic = mul(x2, threeK);
  Value du = mul(add(c(op, b, 1.0), quadratic), duScale);
  Value outerHalf = c(op, b, 0.5);
  Value tail = mul(mul(mul(x, sech2), du), outerHalf);
  return add(half, tail);
}

//===----------------------------------------------------------------------===//
// Ops with zero or linear derivatives
//===----------------------------------------------------------------------===//

template <typename OpT>
static LogicalResult zeroRule(OpT op, OpBuilder &, ValueRange,
                              SmallVectorImpl<Value> &out) {
  // round and stop_gradient: no derivative flows (torch's round has a zero
  // gradient; stop_gradient is detach).
  out.push_back(Value());
  return success();
}

static LogicalResult negVjp(NegOp op, OpBuilder &b, ValueRange ct,
                            SmallVectorImpl<Value> &out) {
  out.push_back(NegOp::create(b, op.getLoc(), ct[0]));
  return success();
}

template <typename OpT>
static LogicalResult linearRule(OpT op, OpBuilder &b, ValueRange tangents,
                                SmallVectorImpl<Value> &out) {
  return linearJvp(op, b, tangents, out);
}

static LogicalResult castVjp(CastOp op, OpBuilder &b, ValueRange ct,
                             SmallVectorImpl<Value> &out) {
  Type in = op.getInput().getType();
  out.push_back(isDifferentiable(in)
                    ? Value(CastOp::create(b, op.getLoc(), in, ct[0]))
                    : Value());
  return success();
}

static LogicalResult castJvp(CastOp op, OpBuilder &b, ValueRange t,
                             SmallVectorImpl<Value> &out) {
  Type result = op.getType();
  out.push_back(isDifferentiable(result) && t[0]
                    ? Value(CastOp::create(b, op.getLoc(), result, t[0]))
                    : Value());
  return success();
}

//===----------------------------------------------------------------------===//
// Binary and ternary ops
//===----------------------------------------------------------------------===//

/// The operand cotangents ct * dl and ct * dr (null factor: not needed;
/// a factor of exactly ct passes `one`), unbroadcast to the operands.
static void binaryVjp(Operation *op, OpBuilder &b, Value ctL, Value ctR,
                      SmallVectorImpl<Value> &out) {
  Location loc = op->getLoc();
  out.push_back(ctL ? unbroadcast(b, loc, ctL, op->getOperand(0).getType())
                    : Value());
  out.push_back(ctR ? unbroadcast(b, loc, ctR, op->getOperand(1).getType())
                    : Value());
}

/// The sum of the non-null terms, broadcast to the op's result type.
static void sumJvp(Operation *op, OpBuilder &b, ArrayRef<Value> terms,
                   SmallVectorImpl<Value> &out) {
  Value sum;
  for (Value term : terms)
    sum = addOrNull(b, op->getLoc(), sum, term);
  out.push_back(
      sum ? broadcastTo(b, op->getLoc(), sum, op->getResult(0))
          : Value());
}

/// x * y when `x` is non-null, else null.
static Value mulIf(OpBuilder &b, Location loc, Value x, Value y) {
  return x ? Value(MulOp::create(b, loc, x, y)) : Value();
}

static LogicalResult addVjp(AddOp op, OpBuilder &b, ValueRange ct,
                            SmallVectorImpl<Value> &out) {
  binaryVjp(op, b, ct[0], ct[0], out);
  return success();
}

static LogicalResult addJvp(AddOp op, OpBuilder &b, ValueRange t,
                            SmallVectorImpl<Value> &out) {
  sumJvp(op, b, {t[0], t[1]}, out);
  return success();
}

static LogicalResult subVjp(SubOp op, OpBuilder &b, ValueRange ct,
                            SmallVectorImpl<Value> &out) {
  binaryVjp(op, b, ct[0], NegOp::create(b, op.getLoc(), ct[0]), out);
  return success();
}

static LogicalResult subJvp(SubOp op, OpBuilder &b, ValueRange t,
                            SmallVectorImpl<Value> &out) {
  Value neg = t[1] ? Value(NegOp::create(b, op.getLoc(), t[1])) : Value();
  sumJvp(op, b, {t[0], neg}, out);
  return success();
}

static LogicalResult mulVjp(MulOp op, OpBuilder &b, ValueRange ct,
                            SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  Value ctR = MulOp::create(b, loc, ct[0], conj(b, loc, op.getLhs()));
  Value ctL = MulOp::create(b, loc, ct[0], conj(b, loc, op.getRhs()));
  binaryVjp(op, b, ctL, ctR, out);
  return success();
}

static LogicalResult mulJvp(MulOp op, OpBuilder &b, ValueRange t,
                            SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  sumJvp(op, b,
         {mulIf(b, loc, t[0], op.getRhs()), mulIf(b, loc, t[1], op.getLhs())},
         out);
  return success();
}

// z = l / r: dz = dl / r - dr z / r
static LogicalResult divVjp(DivOp op, OpBuilder &b, ValueRange ct,
                            SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  Value ctL = DivOp::create(b, loc, ct[0], conj(b, loc, op.getRhs()));
  Value ctR = NegOp::create(
      b, loc, MulOp::create(b, loc, ctL, conj(b, loc, op.getResult())));
  binaryVjp(op, b, ctL, ctR, out);
  return success();
}

static LogicalResult divJvp(DivOp op, OpBuilder &b, ValueRange t,
                            SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  Value num = subOrNull(b, loc, t[0], mulIf(b, loc, t[1], op.getResult()));
  sumJvp(op, b, {DivOp::create(b, loc, num, op.getRhs())}, out);
  return success();
}

/// For max (min): the share of the derivative that goes to lhs: 1 where
/// lhs wins, 1/2 on ties (as torch.maximum), 0 elsewhere.
template <typename OpT>
static Value lhsShare(OpT op, OpBuilder &b, CmpPredicate wins) {
  Location loc = op.getLoc();
  Value l = op.getLhs(), r = op.getRhs();
  Value zero = c(op, b, 0.0);
  Value half = c(op, b, 0.5);
  Value equal = CmpOp::create(b, loc, CmpPredicate::EQ, l, r);
  Value tie = WhereOp::create(b, loc, equal, half, zero);
  Value one = c(op, b, 1.0);
  Value lhsWins = CmpOp::create(b, loc, wins, l, r);
  return WhereOp::create(b, loc, lhsWins, one, tie);
}

template <typename OpT, CmpPredicate Wins>
static LogicalResult extremumVjp(OpT op, OpBuilder &b, ValueRange ct,
                                 SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  Value share = lhsShare(op, b, Wins);
  Value ctL = MulOp::create(b, loc, ct[0], share);
  binaryVjp(op, b, ctL, SubOp::create(b, loc, ct[0], ctL), out);
  return success();
}

template <typename OpT, CmpPredicate Wins>
static LogicalResult extremumJvp(OpT op, OpBuilder &b, ValueRange t,
                                 SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  Value share = lhsShare(op, b, Wins);
  Value other = SubOp::create(b, loc, c(op, b, 1.0), share);
  sumJvp(op, b, {mulIf(b, loc, t[0], share), mulIf(b, loc, t[1], other)}, out);
  return success();
}

// z = l^r: dz/dl = r l^(r-1), dz/dr = z log(l) (taken as 0 where l <= 0,
// where the real power is only defined for integral r).
static std::pair<Value, Value> powPartials(PowOp op, OpBuilder &b) {
  Location loc = op.getLoc();
  Value l = op.getLhs(), r = op.getRhs();
  Value dl = MulOp::create(
      b, loc, r,
      PowOp::create(b, loc, l, SubOp::create(b, loc, r, c(op, b, 1.0))));
  Value positive = CmpOp::create(b, loc, CmpPredicate::GT, l, c(op, b, 0.0));
  Value logL = LogOp::create(
      b, loc, WhereOp::create(b, loc, positive, l, c(op, b, 1.0)));
  Value dr = MulOp::create(b, loc, op.getResult(), logL);
  return {dl, dr};
}

static LogicalResult powVjp(PowOp op, OpBuilder &b, ValueRange ct,
                            SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  auto [dl, dr] = powPartials(op, b);
  Value ctR = MulOp::create(b, loc, ct[0], dr);
  Value ctL = MulOp::create(b, loc, ct[0], dl);
  binaryVjp(op, b, ctL, ctR, out);
  return success();
}

static LogicalResult powJvp(PowOp op, OpBuilder &b, ValueRange t,
                            SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  auto [dl, dr] = powPartials(op, b);
  sumJvp(op, b, {mulIf(b, loc, t[0], dl), mulIf(b, loc, t[1], dr)}, out);
  return success();
}

static LogicalResult fmaVjp(FmaOp op, OpBuilder &b, ValueRange ct,
                            SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  out.push_back(
      unbroadcast(b, loc, MulOp::create(b, loc, ct[0], conj(b, loc, op.getB())),
                  op.getA().getType()));
  out.push_back(
      unbroadcast(b, loc, MulOp::create(b, loc, ct[0], conj(b, loc, op.getA())),
                  op.getB().getType()));
  out.push_back(unbroadcast(b, loc, ct[0], op.getC().getType()));
  return success();
}

static LogicalResult fmaJvp(FmaOp op, OpBuilder &b, ValueRange t,
                            SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  sumJvp(op, b,
         {mulIf(b, loc, t[0], op.getB()), mulIf(b, loc, t[1], op.getA()), t[2]},
         out);
  return success();
}

// where(c, a, b): the cotangent goes to a where c holds, to b elsewhere.
static LogicalResult whereVjp(WhereOp op, OpBuilder &b, ValueRange ct,
                              SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  Value cond = op.getCondition(), zero = c(op, b, 0.0);
  out.push_back(Value());
  for (auto [operand, onTrue] :
       {std::pair{op.getOnTrue(), true}, {op.getOnFalse(), false}}) {
    if (!isDifferentiable(operand.getType())) {
      out.push_back(Value());
      continue;
    }
    Value picked = onTrue ? WhereOp::create(b, loc, cond, ct[0], zero)
                          : WhereOp::create(b, loc, cond, zero, ct[0]);
    out.push_back(unbroadcast(b, loc, picked, operand.getType()));
  }
  return success();
}

static LogicalResult whereJvp(WhereOp op, OpBuilder &b, ValueRange t,
                              SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  Value zero = c(op, b, 0.0);
  Value picked = WhereOp::create(b, loc, op.getCondition(), t[1] ? t[1] : zero,
                                 t[2] ? t[2] : zero);
  sumJvp(op, b, {picked}, out);
  return success();
}

void autodiff::attachElementwiseRules(MLIRContext *ctx) {
  attachUnary<ExpOp, dExp>(ctx);
  attachUnary<LogOp, dLog>(ctx);
  attachUnary<SqrtOp, dSqrt>(ctx);
  attachUnary<RsqrtOp, dRsqrt>(ctx);
  attachUnary<SigmoidOp, dSigmoid>(ctx);
  attachUnary<TanhOp, dTanh>(ctx);
  attachUnary<SinOp, dSin>(ctx);
  attachUnary<CosOp, dCos>(ctx);
  attachUnary<TanOp, dTan>(ctx);
  attachUnary<AtanOp, dAtan>(ctx);
  attachUnary<SiluOp, dSilu>(ctx);
  attach<ReluOp, reluRule, reluRule>(ctx);
  attachUnary<AbsOp, dAbs>(ctx);
  attachUnary<GeluOp, dGelu>(ctx);
  attach<NegOp, negVjp, linearRule<NegOp>>(ctx);
  attach<RoundOp, zeroRule<RoundOp>, zeroRule<RoundOp>>(ctx);
  attach<StopGradientOp, zeroRule<StopGradientOp>, zeroRule<StopGradientOp>>(
      ctx);
  attach<CastOp, castVjp, castJvp>(ctx);
  attach<AddOp, addVjp, addJvp>(ctx);
  attach<SubOp, subVjp, subJvp>(ctx);
  attach<MulOp, mulVjp, mulJvp>(ctx);
  attach<DivOp, divVjp, divJvp>(ctx);
  attach<MaxOp, extremumVjp<MaxOp, CmpPredicate::GT>,
         extremumJvp<MaxOp, CmpPredicate::GT>>(ctx);
  attach<MinOp, extremumVjp<MinOp, CmpPredicate::LT>,
         extremumJvp<MinOp, CmpPredicate::LT>>(ctx);
  attach<PowOp, powVjp, powJvp>(ctx);
  attach<FmaOp, fmaVjp, fmaJvp>(ctx);
  attach<WhereOp, whereVjp, whereJvp>(ctx);
}
