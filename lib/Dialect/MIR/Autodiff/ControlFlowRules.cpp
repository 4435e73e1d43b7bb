//===- ControlFlowRules.cpp - VJP/JVP of rlx.custom_fn and rlx.scan -------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx.custom_fn uses its own `vjp` / `jvp` regions when it has them and
// otherwise differentiates its `fwd` region, inlined.
//
// rlx.scan stays a loop. Its VJP is a scan in the opposite direction over
// (the carry before each step, xs[t], the cotangent of ys[t]) that carries
// the carry's cotangent; its body is the VJP of the forward body (vjpOf on
// a copy of it). The carries before each step come from a second forward
// scan that also yields them. Its JVP is one scan carrying (carry,
// tangent) over (xs, tangents of xs), whose body is jvpOf the forward
// body. --rlx-expand-autodiff first turns the values a scan body captures
// into carries, so every derivative flows through the operands. (rlx.if
// and rlx.while are rewritten into primitives before differentiation.)
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
    filled.push_back(v ? v : splat(b, loc, l.getType(), 0.0, l));
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

/// The static number of steps of `op`, or an error.
static FailureOr<int64_t> scanLength(ScanOp op) {
  int64_t length =
      op.getXs().empty()
          ? static_cast<int64_t>(op.getLength().value_or(ShapedType::kDynamic))
          : cast<RankedTensorType>(op.getXs()[0].getType()).getDimSize(0);
  if (ShapedType::isDynamic(length))
    return op.emitOpError("needs a static length to be differentiated");
  return length;
}

/// `type` with a leading dim of `length` (a per-step output's stack).
static RankedTensorType stacked(Type type, int64_t length) {
  auto tensor = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape = {length};
  llvm::append_range(shape, tensor.getShape());
  return tensor.clone(shape);
}

/// `type` without its leading dim (one step's slice).
static RankedTensorType sliced(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  return tensor.clone(tensor.getShape().drop_front());
}

/// Creates a scan like `op` over `inits` and `xs` with `results`; its body
/// (with arguments of `argTypes`) is filled by `fill`, which returns the
/// values to yield.
static FailureOr<ScanOp>
buildScan(OpBuilder &b, ScanOp op, TypeRange results, ValueRange inits,
          ValueRange xs, bool reverse, TypeRange argTypes,
          function_ref<FailureOr<SmallVector<Value>>(OpBuilder &, ValueRange)>
              fill) {
  Location loc = op.getLoc();
  auto scan = ScanOp::create(b, loc, results, inits, xs, op.getLengthAttr(),
                             reverse);
  Block *block = new Block();
  scan.getBody().push_back(block);
  for (Type type : argTypes)
    block->addArgument(type, loc);
  OpBuilder nb = OpBuilder::atBlockBegin(block);
  FailureOr<SmallVector<Value>> yielded = fill(nb, block->getArguments());
  if (failed(yielded))
    return failure();
  YieldOp::create(nb, loc, *yielded);
  return scan;
}

/// `values` with null entries replaced by zeros of the types of `like`.
static FailureOr<SmallVector<Value>> zerosFor(OpBuilder &b, Location loc,
                                              ValueRange values,
                                              TypeRange like) {
  SmallVector<Value> filled;
  for (auto [v, type] : llvm::zip(values, like)) {
    filled.push_back(v ? v : splat(b, loc, type, 0.0));
    if (!filled.back())
      return failure();
  }
  return filled;
}

static LogicalResult scanVjp(ScanOp op, OpBuilder &b, ValueRange ct,
                             SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  FailureOr<int64_t> length = scanLength(op);
  if (failed(length))
    return failure();
  unsigned k = op.getInits().size();
  TypeRange carryTypes = op.getInits().getTypes();
  TypeRange xsTypes = op.getXs().getTypes();
  TypeRange ysTypes = TypeRange(op.getResultTypes()).drop_front(k);

  // The forward scan again, also yielding the carry each step starts from.
  SmallVector<Type> fwdTypes(op.getResultTypes());
  for (Type type : carryTypes)
    fwdTypes.push_back(stacked(type, *length));
  SmallVector<Type> fwdArgs(carryTypes);
  for (Type type : xsTypes)
    fwdArgs.push_back(sliced(type));
  FailureOr<ScanOp> fwd = buildScan(
      b, op, fwdTypes, op.getInits(), op.getXs(), op.getReverse(), fwdArgs,
      [&](OpBuilder &nb, ValueRange args) -> FailureOr<SmallVector<Value>> {
        SmallVector<Value> yielded = cloneRegionBody(nb, op.getBody(), args);
        llvm::append_range(yielded, args.take_front(k));
        return yielded;
      });
  if (failed(fwd))
    return failure();

  FailureOr<SmallVector<Value>> ctCarry =
      zerosFor(b, loc, ct.take_front(k), carryTypes);
  FailureOr<SmallVector<Value>> ctYs =
      zerosFor(b, loc, ct.drop_front(k), ysTypes);
  if (failed(ctCarry) || failed(ctYs))
    return failure();
  SmallVector<Value> bwdXs(fwd->getResults().take_back(k));
  llvm::append_range(bwdXs, op.getXs());
  llvm::append_range(bwdXs, *ctYs);
  SmallVector<Type> bwdTypes(carryTypes);
  llvm::append_range(bwdTypes, xsTypes);
  // Arguments: the carry's cotangent, then the slices of bwdXs.
  SmallVector<Type> bwdArgs(carryTypes);
  for (Value x : bwdXs)
    bwdArgs.push_back(sliced(x.getType()));
  FailureOr<ScanOp> bwd = buildScan(
      b, op, bwdTypes, *ctCarry, bwdXs, !op.getReverse(), bwdArgs,
      [&](OpBuilder &nb, ValueRange args) -> FailureOr<SmallVector<Value>> {
        ValueRange gCarry = args.take_front(k);
        ValueRange inputs = args.slice(k, k + op.getXs().size());
        SmallVector<Value> cts(gCarry);
        llvm::append_range(cts, args.drop_front(2 * k + op.getXs().size()));
        SmallVector<Value> inputCts;
        if (failed(vjpOf(
                nb, inputs,
                [&](OpBuilder &bb) -> FailureOr<SmallVector<Value>> {
                  return cloneRegionBody(bb, op.getBody(), inputs);
                },
                cts, inputCts)))
          return failure();
        return zerosFor(nb, loc, inputCts, inputs.getTypes());
      });
  if (failed(bwd))
    return failure();
  for (auto [operand, grad] :
       llvm::zip(op.getOperands(), bwd->getResults()))
    out.push_back(isDifferentiable(operand.getType()) ? grad : Value());
  return success();
}

static LogicalResult scanJvp(ScanOp op, OpBuilder &b, ValueRange t,
                             SmallVectorImpl<Value> &out) {
  Location loc = op.getLoc();
  if (failed(scanLength(op)))
    return failure();
  unsigned k = op.getInits().size(), m = op.getXs().size();
  unsigned n = op.getNumResults() - k;
  FailureOr<SmallVector<Value>> tInits =
      zerosFor(b, loc, t.take_front(k), op.getInits().getTypes());
  FailureOr<SmallVector<Value>> tXs =
      zerosFor(b, loc, t.drop_front(k), op.getXs().getTypes());
  if (failed(tInits) || failed(tXs))
    return failure();
  // Carries (c, dc), xs (x, dx), per-step outputs (y, dy).
  SmallVector<Value> inits(op.getInits());
  llvm::append_range(inits, *tInits);
  SmallVector<Value> xs(op.getXs());
  llvm::append_range(xs, *tXs);
  SmallVector<Type> types(op.getInits().getTypes());
  llvm::append_range(types, op.getInits().getTypes());
  llvm::append_range(types, TypeRange(op.getResultTypes()).drop_front(k));
  llvm::append_range(types, TypeRange(op.getResultTypes()).drop_front(k));
  SmallVector<Type> args(ValueRange(inits).getTypes());
  for (Value x : xs)
    args.push_back(sliced(x.getType()));
  FailureOr<ScanOp> scan = buildScan(
      b, op, types, inits, xs, op.getReverse(), args,
      [&](OpBuilder &nb, ValueRange blockArgs) -> FailureOr<SmallVector<Value>> {
        SmallVector<Value> inputs(blockArgs.take_front(k));
        llvm::append_range(inputs, blockArgs.slice(2 * k, m));
        SmallVector<Value> tangents(blockArgs.slice(k, k));
        llvm::append_range(tangents, blockArgs.drop_front(2 * k + m));
        SmallVector<Value> outputs, outputTs;
        if (failed(jvpOf(
                nb, inputs,
                [&](OpBuilder &bb) -> FailureOr<SmallVector<Value>> {
                  outputs = cloneRegionBody(bb, op.getBody(), inputs);
                  return outputs;
                },
                tangents, outputTs)))
          return failure();
        FailureOr<SmallVector<Value>> filled =
            zerosFor(nb, loc, outputTs, ValueRange(outputs).getTypes());
        if (failed(filled))
          return failure();
        SmallVector<Value> yielded(ArrayRef<Value>(outputs).take_front(k));
        llvm::append_range(yielded, ArrayRef<Value>(*filled).take_front(k));
        llvm::append_range(yielded, ArrayRef<Value>(outputs).drop_front(k));
        llvm::append_range(yielded, ArrayRef<Value>(*filled).drop_front(k));
        return yielded;
      });
  if (failed(scan))
    return failure();
  ResultRange results = scan->getResults();
  for (unsigned i = 0; i < k; ++i)
    out.push_back(isDifferentiable(op.getResult(i).getType()) ? results[k + i]
                                                              : Value());
  for (unsigned j = 0; j < n; ++j)
    out.push_back(isDifferentiable(op.getResult(k + j).getType())
                      ? results[2 * k + n + j]
                      : Value());
  return success();
}

void autodiff::attachControlFlowRules(MLIRContext *ctx) {
  attach<CustomFnOp, customFnVjp, customFnJvp>(ctx);
  attach<ScanOp, scanVjp, scanJvp>(ctx);
}
