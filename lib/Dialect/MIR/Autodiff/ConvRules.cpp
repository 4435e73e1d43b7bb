//===- ConvRules.cpp - VJP/JVP of convolutions and pooling ----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A convolution is bilinear in (input, weight). Its VJPs are the dedicated
// conv2d_backward_input / conv2d_backward_weight ops (1-D convolutions run
// as 2-D ones of height 1); the backward ops are bilinear too, and their
// VJPs are again a convolution and a backward op, so convolutions can be
// differentiated to any order. A transposed convolution is the
// backward-input op of a convolution, so its rules reuse the same ops.
// Pooling is written with depthwise convolutions: average pooling is one
// with a constant 1/k weight; max pooling picks, per window, the first
// position (in row-major window order, as PyTorch) that holds the maximum,
// through one one-hot depthwise convolution per kernel offset.
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::autodiff;

namespace {
/// The window of a convolution or pooling as 2-D attributes.
struct Window {
  SmallVector<int64_t> strides, padding, dilations;
  int64_t groups = 1;
};
} // namespace

/// `attrs` (of a 1-D op when `oneD`) as the attributes of a 2-D op; empty
/// lists keep meaning the defaults.
static Window window2D(bool oneD, ArrayRef<int64_t> strides,
                       ArrayRef<int64_t> padding, ArrayRef<int64_t> dilations,
                       int64_t groups) {
  Window w;
  w.groups = groups;
  if (!oneD) {
    w.strides.assign(strides.begin(), strides.end());
    w.padding.assign(padding.begin(), padding.end());
    w.dilations.assign(dilations.begin(), dilations.end());
    return w;
  }
  if (!strides.empty())
    w.strides = {1, strides[0]};
  if (!padding.empty())
    w.padding = {0, 0, padding[0], padding[1]};
  if (!dilations.empty())
    w.dilations = {1, dilations[0]};
  return w;
}

/// [N, C, L] as [N, C, 1, L] (identity on 4-D values).
static Value to2D(OpBuilder &b, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getRank() != 3)
    return v;
  SmallVector<int64_t> shape(type.getShape());
  shape.insert(shape.begin() + 2, 1);
  return ReshapeOp::create(b, loc, type.clone(shape), v);
}

/// `v` reshaped back to `like`'s type (after to2D).
static Value back(OpBuilder &b, Location loc, Value v, Type like) {
  return v.getType() == like ? v : Value(ReshapeOp::create(b, loc, like, v));
}

/// The sum over all dims but the channel dim 1: a bias's cotangent.
static Value channelSum(OpBuilder &b, Location loc, Value ct) {
  int64_t rank = cast<RankedTensorType>(ct.getType()).getRank();
  SmallVector<int64_t> axes = {0};
  for (int64_t i = 2; i < rank; ++i)
    axes.push_back(i);
  return ReduceOp::create(b, loc, ReduceKind::Sum, ct, axes, false);
}

/// A bias tangent [C] broadcast over a [N, C, ...] result.
static Value channelBroadcast(OpBuilder &b, Location loc, Value bias,
                              RankedTensorType result) {
  SmallVector<int64_t> shape(result.getRank(), 1);
  shape[1] = result.getDimSize(1);
  auto type = cast<RankedTensorType>(bias.getType());
  return ExpandOp::create(b, loc, result,
                          ReshapeOp::create(b, loc, type.clone(shape), bias));
}

static Value convBackwardInput(OpBuilder &b, Location loc, Type result, Value d,
                               Value w, const Window &win) {
  return Conv2DBackwardInputOp::create(b, loc, result, d, w, win.strides,
                                       win.padding, win.dilations, win.groups);
}

static Value convBackwardWeight(OpBuilder &b, Location loc, Type result,
                                Value d, Value x, const Window &win) {
  return Conv2DBackwardWeightOp::create(b, loc, result, d, x, win.strides,
                                        win.padding, win.dilations, win.groups);
}

static Value conv2D(OpBuilder &b, Location loc, Value x, Value w,
                    const Window &win) {
  return ConvOp::create(b, loc, x, w, Value(), win.strides, win.padding,
                        win.dilations, win.groups);
}

//===----------------------------------------------------------------------===//
// conv
//===----------------------------------------------------------------------===//

static Window windowOf(ConvOp op) {
  return window2D(op.getInput().getType().getRank() == 3, op.getStrides(),
                  op.getPadding(), op.getDilations(), op.getGroups());
}

static LogicalResult convVjp(ConvOp op, OpBuilder &b, ValueRange ct,
                             SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  Window win = windowOf(op);
  Value x = to2D(b, loc, op.getInput()), w = to2D(b, loc, op.getWeight());
  Value d = to2D(b, loc, ct[0]);
  out.push_back(back(b, loc, convBackwardInput(b, loc, x.getType(), d, w, win),
                     op.getInput().getType()));
  out.push_back(back(b, loc, convBackwardWeight(b, loc, w.getType(), d, x, win),
                     op.getWeight().getType()));
  if (op.getBias())
    out.push_back(channelSum(b, loc, ct[0]));
  return success();
}

static LogicalResult convJvp(ConvOp op, OpBuilder &b, ValueRange t,
                             SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  auto conv = [&](Value x, Value w) -> Value {
    return ConvOp::create(b, loc, x, w, Value(), op.getStrides(),
                          op.getPadding(), op.getDilations(), op.getGroups());
  };
  Value dy;
  if (t[0])
    dy = conv(t[0], op.getWeight());
  if (t[1])
    dy = addOrNull(b, loc, dy, conv(op.getInput(), t[1]));
  if (t.size() > 2 && t[2])
    dy = addOrNull(b, loc, dy, channelBroadcast(b, loc, t[2], op.getType()));
  out.push_back(dy);
  return success();
}

//===----------------------------------------------------------------------===//
// conv_transpose2d: the backward-input op of the convolution with the same
// window, whose input is this op's result.
//===----------------------------------------------------------------------===//

static Window windowOf(ConvTranspose2DOp op) {
  return window2D(false, op.getStrides(), op.getPadding(), op.getDilations(),
                  op.getGroups());
}

static LogicalResult convTransposeVjp(ConvTranspose2DOp op, OpBuilder &b,
                                      ValueRange ct,
                                      SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  Window win = windowOf(op);
  out.push_back(conv2D(b, loc, ct[0], op.getWeight(), win));
  out.push_back(convBackwardWeight(b, loc, op.getWeight().getType(),
                                   op.getInput(), ct[0], win));
  if (op.getBias())
    out.push_back(channelSum(b, loc, ct[0]));
  return success();
}

static LogicalResult convTransposeJvp(ConvTranspose2DOp op, OpBuilder &b,
                                      ValueRange t,
                                      SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  auto apply = [&](Value x, Value w) -> Value {
    return ConvTranspose2DOp::create(b, loc, x, w, Value(), op.getStrides(),
                                     op.getPadding(), op.getDilations(),
                                     op.getOutputPadding(), op.getGroups());
  };
  Value dy;
  if (t[0])
    dy = apply(t[0], op.getWeight());
  if (t[1])
    dy = addOrNull(b, loc, dy, apply(op.getInput(), t[1]));
  if (t.size() > 2 && t[2])
    dy = addOrNull(b, loc, dy, channelBroadcast(b, loc, t[2], op.getType()));
  out.push_back(dy);
  return success();
}

//===----------------------------------------------------------------------===//
// The backward ops, bilinear: <ct, bi(d, w)> = <d, conv(ct, w)> and
// <ct, bw(d, x)> = <d, conv(x, ct)>.
//===----------------------------------------------------------------------===//

template <typename OpT> static Window windowOfBackward(OpT op) {
  return window2D(false, op.getStrides(), op.getPadding(), op.getDilations(),
                  op.getGroups());
}

static LogicalResult backwardInputVjp(Conv2DBackwardInputOp op, OpBuilder &b,
                                      ValueRange ct,
                                      SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  Window win = windowOfBackward(op);
  out.push_back(conv2D(b, loc, ct[0], op.getOther(), win));
  out.push_back(convBackwardWeight(b, loc, op.getOther().getType(),
                                   op.getDResult(), ct[0], win));
  return success();
}

static LogicalResult backwardWeightVjp(Conv2DBackwardWeightOp op, OpBuilder &b,
                                       ValueRange ct,
                                       SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  Window win = windowOfBackward(op);
  out.push_back(conv2D(b, loc, op.getOther(), ct[0], win));
  out.push_back(convBackwardInput(b, loc, op.getOther().getType(),
                                  op.getDResult(), ct[0], win));
  return success();
}

/// d(op(u, v)) = op(du, v) + op(u, dv) for an op bilinear in its two
/// operands, by cloning it.
template <typename OpT>
static LogicalResult bilinearJvp(OpT op, OpBuilder &b, ValueRange t,
                                 SmallVectorImpl<Value> &out) {
  Value dy;
  for (unsigned i = 0; i < 2; ++i) {
    if (!t[i])
      continue;
    Operation *clone = b.clone(*op);
    clone->setOperand(i, t[i]);
    dy = addOrNull(b, op.getLoc(), dy, clone->getResult(0));
  }
  out.push_back(dy);
  return success();
}

//===----------------------------------------------------------------------===//
// pool
//===----------------------------------------------------------------------===//

/// The pool's window as a depthwise 2-D convolution's (strides default to
/// the kernel).
static Window windowOf(PoolOp op, int64_t channels) {
  bool oneD = op.getInput().getType().getRank() == 3;
  SmallVector<int64_t> strides(op.getStrides());
  if (strides.empty())
    strides.assign(op.getKernel().begin(), op.getKernel().end());
  return window2D(oneD, strides, op.getPadding(), {}, channels);
}

/// A [C, 1, kh, kw] weight of the pool's element type: `value` everywhere,
/// or 1 at offset `at` only.
static Value poolWeight(OpBuilder &b, Location loc, PoolOp op, double value,
                        std::optional<int64_t> at = std::nullopt) {
  auto type = op.getInput().getType();
  ArrayRef<int64_t> k = op.getKernel();
  int64_t kh = k.size() == 2 ? k[0] : 1, kw = k.back();
  int64_t channels = type.getDimSize(1);
  auto wType = type.clone({channels, 1, kh, kw});
  if (!at)
    return splat(b, loc, wType, value);
  SmallVector<double> bits(channels * kh * kw, 0.0);
  for (int64_t c = 0; c < channels; ++c)
    bits[c * kh * kw + *at] = 1.0;
  SmallVector<Attribute> attrs = llvm::map_to_vector(bits, [&](double v) {
    return Attribute(b.getFloatAttr(type.getElementType(), v));
  });
  return ConstantOp::create(b, loc, DenseElementsAttr::get(wType, attrs));
}

/// Per kernel offset, the mask of the windows whose first maximum sits at
/// that offset (as 2-D output-grid masks), with the one-hot weight.
static SmallVector<std::pair<Value, Value>> maxPoolPicks(PoolOp op,
                                                         OpBuilder &b) {
  Location loc = op.getLoc();
  auto type = op.getInput().getType();
  Window win = windowOf(op, type.getDimSize(1));
  Value x = to2D(b, loc, op.getInput()), y = to2D(b, loc, op.getResult());
  auto boolConst = [&](bool v) -> Value {
    return ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(RankedTensorType::get({}, b.getI1Type()), v));
  };
  Value found;
  SmallVector<std::pair<Value, Value>> picks;
  int64_t offsets = 1;
  for (int64_t k : op.getKernel())
    offsets *= k;
  for (int64_t at = 0; at < offsets; ++at) {
    Value w = poolWeight(b, loc, op, 1.0, at);
    Value hit =
        CmpOp::create(b, loc, CmpPredicate::EQ, conv2D(b, loc, x, w, win), y);
    Value first =
        found ? Value(WhereOp::create(b, loc, found, boolConst(false), hit))
              : hit;
    found = found ? Value(WhereOp::create(b, loc, found, boolConst(true), hit))
                  : hit;
    picks.push_back({first, w});
  }
  return picks;
}

static LogicalResult poolVjp(PoolOp op, OpBuilder &b, ValueRange ct,
                             SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  auto type = op.getInput().getType();
  Window win = windowOf(op, type.getDimSize(1));
  Type x2 = to2D(b, loc, op.getInput()).getType();
  Value d = to2D(b, loc, ct[0]);
  Value dx;
  if (op.getKind() == PoolKind::Avg) {
    int64_t size = 1;
    for (int64_t k : op.getKernel())
      size *= k;
    Value w = poolWeight(b, loc, op, 1.0 / size);
    dx = convBackwardInput(b, loc, x2, d, w, win);
  } else {
    Value zero = scalar(b, loc, type, 0.0);
    for (auto [first, w] : maxPoolPicks(op, b))
      dx = addOrNull(b, loc, dx,
                     convBackwardInput(b, loc, x2,
                                       WhereOp::create(b, loc, first, d, zero),
                                       w, win));
  }
  out.push_back(back(b, loc, dx, type));
  return success();
}

static LogicalResult poolJvp(PoolOp op, OpBuilder &b, ValueRange t,
                             SmallVectorImpl<Value> &out) {
  if (op.getKind() == PoolKind::Avg)
    return linearJvp(op, b, t, out);
  Location loc = op.getLoc();
  auto type = op.getInput().getType();
  Window win = windowOf(op, type.getDimSize(1));
  Value t2 = to2D(b, loc, t[0]);
  Value zero = scalar(b, loc, type, 0.0);
  Value dy;
  for (auto [first, w] : maxPoolPicks(op, b))
    dy = addOrNull(
        b, loc, dy,
        WhereOp::create(b, loc, first, conv2D(b, loc, t2, w, win), zero));
  out.push_back(back(b, loc, dy, op.getType()));
  return success();
}

void autodiff::attachConvRules(MLIRContext *ctx) {
  attach<ConvOp, convVjp, convJvp>(ctx);
  attach<ConvTranspose2DOp, convTransposeVjp, convTransposeJvp>(ctx);
  attach<Conv2DBackwardInputOp, backwardInputVjp,
         bilinearJvp<Conv2DBackwardInputOp>>(ctx);
  attach<Conv2DBackwardWeightOp, backwardWeightVjp,
         bilinearJvp<Conv2DBackwardWeightOp>>(ctx);
  attach<PoolOp, poolVjp, poolJvp>(ctx);
}
