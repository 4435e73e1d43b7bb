//===- ReductionRules.cpp - VJP/JVP of reductions, softmax, cumsum --------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::autodiff;

//===----------------------------------------------------------------------===//
// reduce
//===----------------------------------------------------------------------===//

/// The reduce's axes in [0, rank), sorted.
static SmallVector<int64_t> reducedAxes(ReduceOp op) {
  int64_t rank = op.getInput().getType().getRank();
  SmallVector<int64_t> axes;
  for (int64_t axis : op.getAxes())
    axes.push_back(normalizeAxis(axis, rank));
  llvm::sort(axes);
  return axes;
}

/// For max/min: the share of an output's derivative that each input gets:
/// 1/k for the k inputs equal to the extremum (as torch.amax), else 0.
static Value extremumShare(ReduceOp op, OpBuilder &b) {
  Location loc = op.getLoc();
  auto type = op.getInput().getType();
  SmallVector<int64_t> axes = reducedAxes(op);
  Value y = expandReduced(b, loc, op.getResult(), axes, op.getInput());
  Value hit = CmpOp::create(b, loc, CmpPredicate::EQ, op.getInput(), y);
  Value zero = scalar(b, loc, type, 0.0);
  Value unit = scalar(b, loc, type, 1.0);
  Value one = WhereOp::create(b, loc, hit, unit, zero);
  Value count = ReduceOp::create(b, loc, ReduceKind::Sum, one, axes, true);
  return DivOp::create(b, loc, one, count);
}

static LogicalResult reduceVjp(ReduceOp op, OpBuilder &b, ValueRange ct,
                               SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  auto type = op.getInput().getType();
  Value spread = expandReduced(b, loc, ct[0], reducedAxes(op), op.getInput());
  switch (op.getKind()) {
  case ReduceKind::Sum:
    break;
  case ReduceKind::Mean:
    spread = MulOp::create(
        b, loc, spread, reciprocalCount(b, loc, op.getInput(), reducedAxes(op)));
    break;
  case ReduceKind::Max:
  case ReduceKind::Min:
    spread = MulOp::create(b, loc, spread, extremumShare(op, b));
    break;
  case ReduceKind::Prod: {
    // d prod / d x_i = prod / x_i (undefined where x_i = 0).
    Value y =
        expandReduced(b, loc, op.getResult(), reducedAxes(op), op.getInput());
    spread =
        MulOp::create(b, loc, spread, DivOp::create(b, loc, y, op.getInput()));
    break;
  }
  }
  out.push_back(spread);
  return success();
}

static LogicalResult reduceJvp(ReduceOp op, OpBuilder &b, ValueRange t,
                               SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  switch (op.getKind()) {
  case ReduceKind::Sum:
  case ReduceKind::Mean:
    return linearJvp(op, b, t, out);
  case ReduceKind::Max:
  case ReduceKind::Min:
    out.push_back(
        ReduceOp::create(b, loc, ReduceKind::Sum,
                         MulOp::create(b, loc, t[0], extremumShare(op, b)),
                         op.getAxes(), op.getKeepdim()));
    return success();
  case ReduceKind::Prod:
    out.push_back(MulOp::create(
        b, loc, op.getResult(),
        ReduceOp::create(b, loc, ReduceKind::Sum,
                         DivOp::create(b, loc, t[0], op.getInput()),
                         op.getAxes(), op.getKeepdim())));
    return success();
  }
  llvm_unreachable("unknown reduce kind");
}

//===----------------------------------------------------------------------===//
// softmax, log_softmax, cumsum
//===----------------------------------------------------------------------===//

/// sum(v, axis) kept as a size-1 dim.
static Value sumKeep(OpBuilder &b, Location loc, Value v, int64_t axis) {
  return ReduceOp::create(b, loc, ReduceKind::Sum, v, ArrayRef<int64_t>{axis},
                          /*keepdim=*/true);
}

// y = softmax(x): dx = y (v - sum(v y)) in both directions (the Jacobian
// diag(y) - y y^T is symmetric).
static LogicalResult softmaxRule(SoftmaxOp op, OpBuilder &b, ValueRange seeds,
                                 SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  Value y = op.getResult(), v = seeds[0];
  Value dot = sumKeep(b, loc, MulOp::create(b, loc, v, y), op.getAxis());
  out.push_back(MulOp::create(b, loc, y, SubOp::create(b, loc, v, dot)));
  return success();
}

// y = log_softmax(x), p = exp(y): VJP dx = v - p sum(v); JVP dy = t - sum(p t).
static LogicalResult logSoftmaxVjp(LogSoftmaxOp op, OpBuilder &b, ValueRange ct,
                                   SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  Value p = ExpOp::create(b, loc, op.getResult());
  Value total = sumKeep(b, loc, ct[0], op.getAxis());
  out.push_back(SubOp::create(b, loc, ct[0], MulOp::create(b, loc, p, total)));
  return success();
}

static LogicalResult logSoftmaxJvp(LogSoftmaxOp op, OpBuilder &b, ValueRange t,
                                   SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  Value p = ExpOp::create(b, loc, op.getResult());
  Value dot = sumKeep(b, loc, MulOp::create(b, loc, p, t[0]), op.getAxis());
  out.push_back(SubOp::create(b, loc, t[0], dot));
  return success();
}

// The transpose of a prefix sum is a suffix sum: reverse, cumsum, reverse.
static LogicalResult cumsumVjp(CumsumOp op, OpBuilder &b, ValueRange ct,
                               SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  SmallVector<int64_t> axes = {
      normalizeAxis(op.getAxis(), op.getType().getRank())};
  Value flipped = ReverseOp::create(b, loc, ct[0], axes);
  Value sums = CumsumOp::create(b, loc, flipped, axes[0]);
  out.push_back(ReverseOp::create(b, loc, sums, axes));
  return success();
}

static LogicalResult cumsumJvp(CumsumOp op, OpBuilder &b, ValueRange t,
                               SmallVectorImpl<Value> &out) {
  return linearJvp(op, b, t, out);
}

//===----------------------------------------------------------------------===//
// topk
//===----------------------------------------------------------------------===//

/// topk's values are the input at its indices: with the axis moved last
/// (a transpose, its own inverse here), `hit` [..., n, k] is the one-hot
/// mask of the chosen positions. VJP scatters through it, JVP gathers.
struct TopKMask {
  Value hit;
  SmallVector<int64_t> perm; // empty when the axis is already last
  int64_t rank;
};

static Value permute(OpBuilder &b, Location loc, Value x,
                     ArrayRef<int64_t> perm) {
  return perm.empty() ? x : Value(TransposeOp::create(b, loc, x, perm));
}

/// `x` [..., m] as [..., 1, m] (atN = false) or [..., m, 1] (atN = true).
static Value insertUnit(OpBuilder &b, Location loc, Value x, bool last) {
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape.insert(last ? shape.end() : shape.end() - 1, 1);
  return ReshapeOp::create(b, loc, type.clone(shape), x);
}

static TopKMask topkMask(TopKOp op, OpBuilder &b) {
  Location loc = op.getLoc();
  auto inType = op.getInput().getType();
  TopKMask m;
  m.rank = inType.getRank();
  int64_t axis = normalizeAxis(op.getAxis(), m.rank);
  if (axis != m.rank - 1) {
    m.perm = llvm::to_vector(llvm::seq<int64_t>(0, m.rank));
    std::swap(m.perm[axis], m.perm[m.rank - 1]);
  }
  Value idx = insertUnit(b, loc, permute(b, loc, op.getIndices(), m.perm),
                         /*last=*/false);
  int64_t n = inType.getDimSize(axis);
  SmallVector<int64_t> iota = llvm::to_vector(llvm::seq<int64_t>(0, n));
  auto iotaType = RankedTensorType::get({n, 1}, b.getI64Type());
  Value positions = ConstantOp::create(
      b, loc, DenseElementsAttr::get(iotaType, ArrayRef<int64_t>(iota)));
  m.hit = CmpOp::create(b, loc, CmpPredicate::EQ, idx, positions);
  return m;
}

static LogicalResult topkVjp(TopKOp op, OpBuilder &b, ValueRange ct,
                             SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  TopKMask m = topkMask(op, b);
  Value v = insertUnit(b, loc, permute(b, loc, ct[0], m.perm), false);
  Value picked =
      WhereOp::create(b, loc, m.hit, v, scalar(b, loc, v.getType(), 0.0));
  Value summed = ReduceOp::create(b, loc, ReduceKind::Sum, picked,
                                  ArrayRef<int64_t>{m.rank}, false);
  out.push_back(permute(b, loc, summed, m.perm));
  return success();
}

static LogicalResult topkJvp(TopKOp op, OpBuilder &b, ValueRange t,
                             SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  TopKMask m = topkMask(op, b);
  Value v = insertUnit(b, loc, permute(b, loc, t[0], m.perm), true);
  Value picked =
      WhereOp::create(b, loc, m.hit, v, scalar(b, loc, v.getType(), 0.0));
  Value summed = ReduceOp::create(b, loc, ReduceKind::Sum, picked,
                                  ArrayRef<int64_t>{m.rank - 1}, false);
  out.push_back(permute(b, loc, summed, m.perm));
  out.push_back(Value());
  return success();
}

void autodiff::attachReductionRules(MLIRContext *ctx) {
  attach<ReduceOp, reduceVjp, reduceJvp>(ctx);
  attach<SoftmaxOp, softmaxRule, softmaxRule>(ctx);
  attach<LogSoftmaxOp, logSoftmaxVjp, logSoftmaxJvp>(ctx);
  attach<CumsumOp, cumsumVjp, cumsumJvp>(ctx);
  attach<TopKOp, topkVjp, topkJvp>(ctx);
}
