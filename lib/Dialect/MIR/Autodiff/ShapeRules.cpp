//===- ShapeRules.cpp - VJP/JVP of shape and data-movement ops ------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every op here is linear in its float operands, so each JVP is the op
// applied to the tangents; each VJP is the op's transpose.
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::autodiff;

template <typename OpT>
static LogicalResult linearRule(OpT op, OpBuilder &b, ValueRange tangents,
                                SmallVectorImpl<Value> &out) {
  return linearJvp(op, b, tangents, out);
}

static LogicalResult reshapeVjp(ReshapeOp op, OpBuilder &b, ValueRange ct,
                                SmallVectorImpl<Value> &out) {
  out.push_back(
      ReshapeOp::create(b, op.getLoc(), op.getInput().getType(), ct[0]));
  return success();
}

static LogicalResult transposeVjp(TransposeOp op, OpBuilder &b, ValueRange ct,
                                  SmallVectorImpl<Value> &out) {
  ArrayRef<int64_t> perm = op.getPermutation();
  SmallVector<int64_t> inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = i;
  out.push_back(TransposeOp::create(b, op.getLoc(), ct[0], inverse));
  return success();
}

// `like` only gives sizes: its derivative is zero.
static LogicalResult expandVjp(ExpandOp op, OpBuilder &b, ValueRange ct,
                               SmallVectorImpl<Value> &out) {
  out.push_back(unbroadcast(b, op.getLoc(), ct[0], op.getInput().getType()));
  if (op.getLike())
    out.push_back(Value());
  return success();
}

static LogicalResult expandJvp(ExpandOp op, OpBuilder &b, ValueRange t,
                               SmallVectorImpl<Value> &out) {
  out.push_back(t[0] ? ExpandOp::create(b, op.getLoc(), op.getType(), t[0],
                                        op.getLike())
                     : Value());
  return success();
}

static LogicalResult reverseVjp(ReverseOp op, OpBuilder &b, ValueRange ct,
                                SmallVectorImpl<Value> &out) {
  out.push_back(ReverseOp::create(b, op.getLoc(), ct[0], op.getAxes()));
  return success();
}

// The cotangent of a slice is the slice's cotangent padded with zeros.
static LogicalResult narrowVjp(NarrowOp op, OpBuilder &b, ValueRange ct,
                               SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  auto in = op.getInput().getType();
  int64_t axis = normalizeAxis(op.getAxis(), in.getRank());
  int64_t start = op.getStart(), length = op.getLength();
  int64_t after = in.getDimSize(axis) - start - length;
  SmallVector<Value> pieces;
  auto zeros = [&](int64_t n) -> LogicalResult {
    SmallVector<int64_t> shape(in.getShape());
    shape[axis] = n;
    Value z = splat(b, loc, in.clone(shape), 0.0, op.getInput());
    if (!z)
      return failure();
    pieces.push_back(z);
    return success();
  };
  if (start > 0 && failed(zeros(start)))
    return failure();
  pieces.push_back(ct[0]);
  if (after > 0 && failed(zeros(after)))
    return failure();
  out.push_back(pieces.size() == 1
                    ? pieces[0]
                    : Value(ConcatOp::create(b, loc, pieces, axis)));
  return success();
}

// The cotangent of each input is its slice of the result's.
static LogicalResult concatVjp(ConcatOp op, OpBuilder &b, ValueRange ct,
                               SmallVectorImpl<Value> &out) {
  int64_t axis = normalizeAxis(op.getAxis(), op.getType().getRank());
  int64_t start = 0;
  for (Value input : op.getInputs()) {
    int64_t length = cast<RankedTensorType>(input.getType()).getDimSize(axis);
    out.push_back(isDifferentiable(input.getType())
                      ? Value(NarrowOp::create(b, op.getLoc(), ct[0], axis,
                                               start, length))
                      : Value());
    start += length;
  }
  return success();
}

// gather's transpose adds each result slice back at its index (repeated
// indices accumulate); scatter_add needs 1-D indices, so they and the
// cotangent's index dims are flattened first.
static LogicalResult gatherVjp(GatherOp op, OpBuilder &b, ValueRange ct,
                               SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  auto table = op.getTable().getType();
  auto indices = op.getIndices().getType();
  int64_t axis = normalizeAxis(op.getAxis(), table.getRank());
  Value zeros = splat(b, loc, table, 0.0, op.getTable());
  if (!zeros)
    return failure();
  Value idx = op.getIndices(), upd = ct[0];
  if (indices.getRank() != 1) {
    int64_t n = indices.getNumElements();
    idx = ReshapeOp::create(b, loc, indices.clone({n}), idx);
    SmallVector<int64_t> shape(table.getShape());
    shape[axis] = n;
    upd = ReshapeOp::create(b, loc, table.clone(shape), upd);
  }
  out.push_back(ScatterAddOp::create(b, loc, zeros, idx, upd, axis));
  out.push_back(Value());
  return success();
}

static LogicalResult scatterAddVjp(ScatterAddOp op, OpBuilder &b, ValueRange ct,
                                   SmallVectorImpl<Value> &out) {
  out.push_back(ct[0]);
  out.push_back(Value());
  out.push_back(
      GatherOp::create(b, op.getLoc(), ct[0], op.getIndices(), op.getAxis()));
  return success();
}

void autodiff::attachShapeRules(MLIRContext *ctx) {
  attach<ReshapeOp, reshapeVjp, linearRule<ReshapeOp>>(ctx);
  attach<TransposeOp, transposeVjp, linearRule<TransposeOp>>(ctx);
  attach<ExpandOp, expandVjp, expandJvp>(ctx);
  attach<ReverseOp, reverseVjp, linearRule<ReverseOp>>(ctx);
  attach<NarrowOp, narrowVjp, linearRule<NarrowOp>>(ctx);
  attach<ConcatOp, concatVjp, linearRule<ConcatOp>>(ctx);
  attach<GatherOp, gatherVjp, linearRule<GatherOp>>(ctx);
  attach<ScatterAddOp, scatterAddVjp, linearRule<ScatterAddOp>>(ctx);
}
