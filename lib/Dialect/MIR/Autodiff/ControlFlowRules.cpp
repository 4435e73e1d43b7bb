//===- ControlFlowRules.cpp - VJP/JVP of rlx.custom_fn --------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx.custom_fn uses its own `vjp` / `jvp` regions when it has them and
// otherwise differentiates its `fwd` region, inlined. (rlx.if and
// rlx.while are rewritten into primitives before differentiation; see
// --rlx-expand-autodiff.)
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"

#include "RLX/Dialect/MIR/IR/RegionUtils.h"

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::autodiff;

/// `values` with null entries replaced by zeros of the types of `like`.
static FailureOr<SmallVector<Value>>
orZeros(OpBuilder &b, Location loc, ValueRange values, ValueRange like) {
  SmallVector<Value> filled;
  for (auto [v, l] : llvm::zip(values, like)) {
    filled.push_back(v ? v : splat(b, loc, l.getType(), 0.0));
    if (!filled.back())
      return failure();
  }
  return filled;
}

static LogicalResult customFnVjp(CustomFnOp op, OpBuilder &b, ValueRange ct,
                                 SmallVectorImpl<Value> &out) {
  if (op.getVjp().empty())
    return vjpOf(
        b, op.getInputs(),
        [&](OpBuilder &nb) -> FailureOr<SmallVector<Value>> {
          return cloneRegionBody(nb, op.getFwd(), op.getInputs());
        },
        ct, out);
  FailureOr<SmallVector<Value>> cts =
      orZeros(b, op.getLoc(), ct, op.getResults());
  if (failed(cts))
    return failure();
  SmallVector<Value> args(op.getInputs());
  llvm::append_range(args, op.getResults());
  llvm::append_range(args, *cts);
  SmallVector<Value> grads = cloneRegionBody(b, op.getVjp(), args);
  for (auto [input, grad] : llvm::zip(op.getInputs(), grads))
    out.push_back(isDifferentiable(input.getType()) ? grad : Value());
  return success();
}

static LogicalResult customFnJvp(CustomFnOp op, OpBuilder &b, ValueRange t,
                                 SmallVectorImpl<Value> &out) {
  if (op.getJvp().empty())
    return jvpOf(
        b, op.getInputs(),
        [&](OpBuilder &nb) -> FailureOr<SmallVector<Value>> {
          return cloneRegionBody(nb, op.getFwd(), op.getInputs());
        },
        t, out);
  FailureOr<SmallVector<Value>> ts = orZeros(b, op.getLoc(), t, op.getInputs());
  if (failed(ts))
    return failure();
  SmallVector<Value> args(op.getInputs());
  llvm::append_range(args, *ts);
  // The region yields (y..., dy...); y is the op's own result.
  SmallVector<Value> yielded = cloneRegionBody(b, op.getJvp(), args);
  for (auto [result, tangent] :
       llvm::zip(op.getResults(),
                 ArrayRef<Value>(yielded).drop_front(op.getNumResults())))
    out.push_back(isDifferentiable(result.getType()) ? tangent : Value());
  return success();
}

void autodiff::attachControlFlowRules(MLIRContext *ctx) {
  attach<CustomFnOp, customFnVjp, customFnJvp>(ctx);
}
