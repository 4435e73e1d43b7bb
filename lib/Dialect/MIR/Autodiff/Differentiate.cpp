//===- Differentiate.cpp - reverse sweep and forward tangents -------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Source-to-source differentiation of a one-block rlx function: the ops
// are visited in order (JVP) or reverse order (VJP) and each builds its own
// rule through DifferentiableOpInterface. Only values that depend on a
// differentiated argument are visited (activity analysis), so constant
// subgraphs need no rules and cost nothing.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/Autodiff/Autodiff.h"
#include "RuleUtils.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::autodiff;

/// Attaches a note at `user`, the transform op, when there is one.
static void noteUser(InFlightDiagnostic &diag, Operation *user) {
  if (auto callee =
          user ? user->getAttrOfType<FlatSymbolRefAttr>("callee") : nullptr)
    diag.attachNote(user->getLoc())
        << "needed to differentiate '" << callee.getValue() << "' here";
}

/// The rule of `op`, or an error naming it.
static DifferentiableOpInterface getRule(Operation *op, Operation *user) {
  auto rule = dyn_cast<DifferentiableOpInterface>(op);
  if (!rule) {
    InFlightDiagnostic diag = op->emitOpError("has no differentiation rule");
    noteUser(diag, user);
  }
  return rule;
}

/// Fails, with an error at `op`, when an operand for which `carries` holds
/// is one that `rule` cannot differentiate.
static LogicalResult
checkOperandDerivatives(Operation *op, DifferentiableOpInterface rule,
                        Operation *user, function_ref<bool(Value)> carries) {
  for (OpOperand &operand : op->getOpOperands()) {
    if (!carries(operand.get()) ||
        rule.hasOperandDerivative(operand.getOperandNumber()))
      continue;
    InFlightDiagnostic diag =
        op->emitOpError("has no derivative with respect to operand #")
        << operand.getOperandNumber()
        << ", which depends on a differentiated argument";
    noteUser(diag, user);
    return failure();
  }
  return success();
}

/// Checks that a rule gave one value per entry of `expected`, of its type
/// (or null).
static LogicalResult checkRuleOutput(Operation *op, StringRef what,
                                     ValueRange expected, ArrayRef<Value> got) {
  if (got.size() != expected.size())
    return op->emitOpError("rule built ")
           << got.size() << " " << what << "s for " << expected.size()
           << " values";
  for (auto [value, derivative] : llvm::zip(expected, got))
    if (derivative && derivative.getType() != value.getType())
      return op->emitOpError("rule built a ")
             << what << " of type " << derivative.getType()
             << " for a value of type " << value.getType();
  return success();
}

/// Visits `ops` (in program order) backwards, turning the cotangents of
/// their results in `cts` into cotangents of their operands (summed with
/// rlx.add); operands outside `active` (when given) get none.
static LogicalResult reverseSweep(ArrayRef<Operation *> ops, OpBuilder &b,
                                  DenseMap<Value, Value> &cts,
                                  const DenseSet<Value> *active,
                                  Operation *user) {
  for (Operation *op : llvm::reverse(ops)) {
    SmallVector<Value> resultCts;
    bool any = false;
    for (Value result : op->getResults()) {
      resultCts.push_back(cts.lookup(result));
      any |= bool(resultCts.back());
    }
    // Nothing flows back through an op without float or complex operands
    // (a constant, an integer op).
    if (!any || llvm::none_of(op->getOperandTypes(), isDifferentiable))
      continue;
    DifferentiableOpInterface rule = getRule(op, user);
    if (!rule ||
        failed(checkOperandDerivatives(op, rule, user, [&](Value v) {
          return active && active->contains(v);
        })))
      return failure();
    for (auto [result, ct] : llvm::zip(op->getResults(), resultCts))
      if (!ct && isDifferentiable(result.getType()))
        if (!(ct = splat(b, op->getLoc(), result.getType(), 0.0, result)))
          return failure();
    SmallVector<Value> operandCts;
    if (failed(rule.buildVJP(b, resultCts, operandCts)) ||
        failed(checkRuleOutput(op, "cotangent", op->getOperands(), operandCts)))
      return failure();
    for (auto [operand, ct] : llvm::zip(op->getOperands(), operandCts)) {
      if (!ct || (active && !active->contains(operand)))
        continue;
      Value &sum = cts[operand];
      sum = addOrNull(b, op->getLoc(), sum, ct);
    }
  }
  return success();
}

/// Visits `ops` in order, building the tangents of their results from
/// those of their operands in `tangents`, each right after its op.
static LogicalResult forwardSweep(ArrayRef<Operation *> ops,
                                  DenseMap<Value, Value> &tangents,
                                  OpBuilder::Listener *listener,
                                  Operation *user) {
  if (ops.empty())
    return success();
  OpBuilder b(ops.front()->getContext(), listener);
  for (Operation *op : ops) {
    SmallVector<Value> operandTs;
    bool any = false;
    for (Value operand : op->getOperands()) {
      operandTs.push_back(tangents.lookup(operand));
      any |= bool(operandTs.back());
    }
    // No tangent comes out of an op without float or complex results (cmp,
    // argmax).
    if (!any || llvm::none_of(op->getResultTypes(), isDifferentiable))
      continue;
    DifferentiableOpInterface rule = getRule(op, user);
    if (!rule ||
        failed(checkOperandDerivatives(op, rule, user, [&](Value v) {
          return bool(tangents.lookup(v));
        })))
      return failure();
    b.setInsertionPointAfter(op);
    SmallVector<Value> resultTs;
    if (failed(rule.buildJVP(b, operandTs, resultTs)) ||
        failed(checkRuleOutput(op, "tangent", op->getResults(), resultTs)))
      return failure();
    for (auto [result, t] : llvm::zip(op->getResults(), resultTs))
      if (t)
        tangents[result] = t;
  }
  return success();
}

namespace {
/// Records the ops a builder inserts (and passes them on to the builder's
/// own listener, so that nested decompositions are seen by outer ones).
struct Recorder : OpBuilder::Listener {
  explicit Recorder(OpBuilder::Listener *parent) : parent(parent) {}
  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint previous) override {
    ops.push_back(op);
    if (parent)
      parent->notifyOperationInserted(op, previous);
  }
  OpBuilder::Listener *parent;
  SmallVector<Operation *> ops;
};
} // namespace

/// Builds `decomposition` at `b`'s insertion point, recording its ops.
static FailureOr<SmallVector<Value>>
buildRecorded(OpBuilder &b, Decomposition decomposition, Recorder &recorder) {
  OpBuilder sub(b.getContext(), &recorder);
  sub.setInsertionPoint(b.getInsertionBlock(), b.getInsertionPoint());
  return decomposition(sub);
}

LogicalResult autodiff::vjpOf(OpBuilder &b, ValueRange inputs,
                              Decomposition decomposition,
                              ValueRange cotangents,
                              SmallVectorImpl<Value> &inputCts) {
  Recorder recorder(b.getListener());
  FailureOr<SmallVector<Value>> outputs =
      buildRecorded(b, decomposition, recorder);
  if (failed(outputs))
    return failure();
  DenseMap<Value, Value> cts;
  for (auto [output, ct] : llvm::zip(*outputs, cotangents))
    if (ct)
      cts[output] = addOrNull(b, output.getLoc(), cts.lookup(output), ct);
  if (failed(reverseSweep(recorder.ops, b, cts, nullptr, nullptr)))
    return failure();
  for (Value input : inputs)
    inputCts.push_back(isDifferentiable(input.getType()) ? cts.lookup(input)
                                                         : Value());
  return success();
}

LogicalResult autodiff::jvpOf(OpBuilder &b, ValueRange inputs,
                              Decomposition decomposition, ValueRange tangents,
                              SmallVectorImpl<Value> &outputTs) {
  Recorder recorder(b.getListener());
  FailureOr<SmallVector<Value>> outputs =
      buildRecorded(b, decomposition, recorder);
  if (failed(outputs))
    return failure();
  DenseMap<Value, Value> ts;
  for (auto [input, t] : llvm::zip(inputs, tangents))
    if (t)
      ts[input] = t;
  if (failed(forwardSweep(recorder.ops, ts, b.getListener(), nullptr)))
    return failure();
  for (Value output : *outputs)
    outputTs.push_back(ts.lookup(output));
  return success();
}

/// The float values that depend on `seeds` through the ops of `block`.
static DenseSet<Value> activeValues(Block &block, ArrayRef<Value> seeds) {
  DenseSet<Value> active(seeds.begin(), seeds.end());
  for (Operation &op : block.without_terminator()) {
    bool any = llvm::any_of(op.getOperands(),
                            [&](Value v) { return active.contains(v); });
    // Values captured by regions count as operands.
    op.walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        any |= active.contains(v);
    });
    if (!any)
      continue;
    // Float and complex values carry derivatives; integer and boolean
    // values carry none.
    for (Value result : op.getResults())
      if (isDifferentiable(result.getType()))
        active.insert(result);
  }
  return active;
}

static void setResults(func::FuncOp fn, func::ReturnOp ret,
                       ArrayRef<Value> results) {
  ret.getOperandsMutable().assign(results);
  fn.setType(FunctionType::get(fn.getContext(),
                               fn.getBody().front().getArgumentTypes(),
                               ValueRange(results).getTypes()));
}

LogicalResult rlx::appendGradient(func::FuncOp fn, ArrayRef<int64_t> wrt,
                                  bool unusedIsError, Operation *user) {
  Block &body = fn.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  Value loss = ret.getOperand(0);
  SmallVector<Value> seeds;
  for (int64_t i : wrt)
    seeds.push_back(body.getArgument(i));
  DenseSet<Value> active = activeValues(body, seeds);

  OpBuilder b(ret);
  DenseMap<Value, Value> cotangents;
  if (active.contains(loss))
    cotangents[loss] = splat(b, loss.getLoc(), loss.getType(), 1.0);
  SmallVector<Operation *> ops = llvm::map_to_vector(
      body.without_terminator(), [](Operation &op) { return &op; });
  if (failed(reverseSweep(ops, b, cotangents, &active, user)))
    return failure();

  SmallVector<Value> results = {loss};
  for (int64_t i : wrt) {
    Value grad = cotangents.lookup(body.getArgument(i));
    if (!grad) {
      if (unusedIsError)
        return user->emitOpError("argument #")
               << i << " named in 'wrt' does not affect the loss of '"
               << user->getAttrOfType<FlatSymbolRefAttr>("callee").getValue()
               << "' (unused-wrt=error)";
      grad = splat(b, fn.getLoc(), body.getArgument(i).getType(), 0.0,
                   body.getArgument(i));
      if (!grad)
        return failure();
    }
    results.push_back(grad);
  }
  setResults(fn, ret, results);
  return success();
}

LogicalResult rlx::appendTangents(func::FuncOp fn, Operation *user) {
  Block &body = fn.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  SmallVector<Operation *> ops = llvm::map_to_vector(
      body.without_terminator(), [](Operation &op) { return &op; });
  DenseMap<Value, Value> tangents;
  unsigned numArgs = body.getNumArguments();
  for (unsigned i = 0; i < numArgs; ++i) {
    BlockArgument arg = body.getArgument(i);
    BlockArgument tangent = body.addArgument(arg.getType(), arg.getLoc());
    if (isDifferentiable(arg.getType()))
      tangents[arg] = tangent;
  }

  if (failed(forwardSweep(ops, tangents, nullptr, user)))
    return failure();

  OpBuilder b(ret);
  SmallVector<Value> results(ret.getOperands());
  for (Value result : ret.getOperands()) {
    Value t = tangents.lookup(result);
    if (!t && !(t = splat(b, fn.getLoc(), result.getType(), 0.0, result)))
      return failure();
    results.push_back(t);
  }
  setResults(fn, ret, results);
  return success();
}
