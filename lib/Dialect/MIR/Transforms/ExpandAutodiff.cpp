//===- ExpandAutodiff.cpp - rlx.grad / rlx.jvp / rlx.vmap to functions ----===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The pass orders the expansions (innermost first), copies and prepares
// each callee, and replaces the transform op by a call; the derivatives
// themselves are built by appendGradient / appendTangents
// (lib/Dialect/MIR/Autodiff).
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/Autodiff/Autodiff.h"
#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_EXPANDAUTODIFFPASS
#include "RLX/Dialect/MIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

static bool isTransform(Operation *op) {
  return isa<GradOp, JvpOp, VmapOp>(op);
}

/// Whether `fn`, or a function it calls, holds a transform op.
static bool reachesTransform(func::FuncOp fn, SymbolTable &symbols,
                             DenseSet<Operation *> &visited) {
  if (!fn || !visited.insert(fn).second)
    return false;
  bool found = false;
  fn.walk([&](Operation *op) {
    if (isTransform(op)) {
      found = true;
      return WalkResult::interrupt();
    }
    if (auto call = dyn_cast<func::CallOp>(op))
      if (reachesTransform(symbols.lookup<func::FuncOp>(call.getCallee()),
                           symbols, visited)) {
        found = true;
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return found;
}

namespace {

// A scan whose body uses values defined outside it -> a scan that carries
// them unchanged instead, so that the scan's rules (which give cotangents
// and tangents to operands only) see every value its body depends on.
// Constants stay captured: they carry no derivative.
struct CarryCapturedValues : OpRewritePattern<ScanOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ScanOp op, PatternRewriter &b) const override {
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(op.getBody(), captured);
    SmallVector<Value> moved = llvm::filter_to_vector(captured, [](Value v) {
      return !v.getDefiningOp<ConstantOp>();
    });
    if (moved.empty())
      return b.notifyMatchFailure(op, "captures no value with a derivative");
    unsigned k = op.getInits().size();
    SmallVector<Value> inits(op.getInits());
    llvm::append_range(inits, moved);
    SmallVector<Type> types(TypeRange(op.getResultTypes()).take_front(k));
    llvm::append_range(types, ValueRange(moved).getTypes());
    llvm::append_range(types, TypeRange(op.getResultTypes()).drop_front(k));
    auto scan = ScanOp::create(b, op.getLoc(), types, inits, op.getXs(),
                               op.getLengthAttr(), op.getReverse());
    scan.getBody().takeBody(op.getBody());
    Block &body = scan.getBody().front();
    Operation *yield = body.getTerminator();
    SmallVector<Value> yielded(yield->getOperands());
    Region &region = scan.getBody();
    for (auto [i, value] : llvm::enumerate(moved)) {
      BlockArgument arg =
          body.insertArgument(k + i, value.getType(), value.getLoc());
      b.replaceUsesWithIf(value, arg, [&](OpOperand &use) {
        return region.isAncestor(use.getOwner()->getParentRegion());
      });
      yielded.insert(yielded.begin() + k + i, arg);
    }
    b.modifyOpInPlace(yield, [&] { yield->setOperands(yielded); });
    SmallVector<Value> results(scan.getResults().take_front(k));
    llvm::append_range(results, scan.getResults().drop_front(k + moved.size()));
    b.replaceOp(op, results);
    return success();
  }
};

class Expander {
public:
  Expander(ModuleOp module, bool unusedIsError)
      : module(module), symbols(module), unusedIsError(unusedIsError) {}

  LogicalResult run();

private:
  FailureOr<func::FuncOp> expand(Operation *op, func::FuncOp callee);
  FailureOr<func::FuncOp> prepareCopy(func::FuncOp callee, StringRef name,
                                      Operation *user);
  LogicalResult inlineCalls(func::FuncOp fn);
  FailureOr<func::FuncOp> buildVmap(VmapOp op, func::FuncOp callee);

  ModuleOp module;
  SymbolTable symbols;
  bool unusedIsError;
  /// Generated functions by what they compute, so that equal transforms
  /// share one.
  llvm::StringMap<func::FuncOp> generated;
};

} // namespace

LogicalResult Expander::run() {
  while (true) {
    SmallVector<Operation *> pending;
    module.walk([&](Operation *op) {
      if (isTransform(op))
        pending.push_back(op);
    });
    if (pending.empty())
      return success();
    bool progress = false;
    for (Operation *op : pending) {
      auto callee = symbols.lookup<func::FuncOp>(
          op->getAttrOfType<FlatSymbolRefAttr>("callee").getValue());
      DenseSet<Operation *> visited;
      if (reachesTransform(callee, symbols, visited))
        continue; // expanded once the transforms it reaches are
      FailureOr<func::FuncOp> fn = expand(op, callee);
      if (failed(fn))
        return failure();
      // Rules build what any cotangent might need; drop what this one does
      // not (and fold the constants they made).
      (void)applyPatternsGreedily(*fn, FrozenRewritePatternSet());
      OpBuilder b(op);
      auto call = func::CallOp::create(b, op->getLoc(), *fn, op->getOperands());
      op->replaceAllUsesWith(call.getResults());
      op->erase();
      progress = true;
    }
    if (!progress)
      return pending.front()->emitOpError(
          "differentiates a function that reaches itself through "
          "transforms or calls");
  }
}

/// The argument positions `wrt` in a generated function's name: "_0_2";
/// a run of more than four consecutive ones as "_1_to_288", so that the
/// name of a whole model's gradient (which every kernel outlined from it
/// repeats) does not grow with its number of weights.
static std::string wrtSuffix(ArrayRef<int64_t> wrt) {
  bool run = wrt.size() > 4;
  for (size_t i = 1; run && i < wrt.size(); ++i)
    run = wrt[i] == wrt[i - 1] + 1;
  if (run)
    return "_" + std::to_string(wrt.front()) + "_to_" +
           std::to_string(wrt.back());
  std::string suffix;
  for (int64_t i : wrt)
    suffix += "_" + std::to_string(i);
  return suffix;
}

FailureOr<func::FuncOp> Expander::expand(Operation *op, func::FuncOp callee) {
  std::string key = callee.getSymName().str();
  if (auto grad = dyn_cast<GradOp>(op)) {
    int64_t numArgs = grad.getOperands().size();
    SmallVector<int64_t> wrt;
    for (int64_t i : grad.getWrt())
      wrt.push_back(i < 0 ? i + numArgs : i);
    key += "_grad" + wrtSuffix(wrt);
    if (func::FuncOp fn = generated.lookup(key))
      return fn;
    FailureOr<func::FuncOp> fn = prepareCopy(callee, key, op);
    if (failed(fn) || failed(appendGradient(*fn, wrt, unusedIsError, op)))
      return failure();
    return generated[key] = *fn;
  }
  if (isa<JvpOp>(op)) {
    key += "_jvp";
    if (func::FuncOp fn = generated.lookup(key))
      return fn;
    FailureOr<func::FuncOp> fn = prepareCopy(callee, key, op);
    if (failed(fn) || failed(appendTangents(*fn, op)))
      return failure();
    return generated[key] = *fn;
  }
  return buildVmap(cast<VmapOp>(op), callee);
}

/// Clones `callee` as the private function `name` (renamed if taken),
/// inlines its calls and rewrites it into the primitives that have rules.
FailureOr<func::FuncOp> Expander::prepareCopy(func::FuncOp callee,
                                              StringRef name, Operation *user) {
  if (callee.isExternal() || !llvm::hasSingleElement(callee.getBody()))
    return user->emitOpError("cannot differentiate '")
           << callee.getSymName() << "': it has no single-block body";
  func::FuncOp fn = callee.clone();
  fn.setSymName(name);
  fn.setPrivate();
  // A new function of another signature: the discardable attributes that
  // described the callee's (a tool's element types of its arguments and
  // results, a C-interface marker) do not hold for it.
  fn->setDiscardableAttrs(DictionaryAttr::get(fn.getContext()));
  symbols.insert(fn, std::next(Block::iterator(callee)));
  if (failed(inlineCalls(fn)))
    return failure();
  // RLX's prepare_graph_for_ad: fused ops and regions back to primitives,
  // the ops without rules of their own (dot_general, if, while,
  // selective_scan) rewritten into ops with rules, and scans made to carry
  // what their bodies capture.
  RewritePatternSet patterns(fn.getContext());
  populateLegalizePatterns(patterns);
  populateUnfuseElementwiseRegionsPatterns(patterns);
  populateSelectiveScanToScanPatterns(patterns);
  patterns.add<CarryCapturedValues>(fn.getContext());
  (void)applyPatternsGreedily(fn, std::move(patterns));
  return fn;
}

/// Replaces every func.call in `fn` (transitively) by the callee's body.
LogicalResult Expander::inlineCalls(func::FuncOp fn) {
  // Deeper nesting than this is taken to be recursion.
  constexpr int kMaxDepth = 64;
  for (int depth = 0;; ++depth) {
    SmallVector<func::CallOp> calls;
    fn.walk([&](func::CallOp call) { calls.push_back(call); });
    if (calls.empty())
      return success();
    for (func::CallOp call : calls) {
      auto target = symbols.lookup<func::FuncOp>(call.getCallee());
      if (depth == kMaxDepth)
        return call.emitOpError("is recursive; it cannot be differentiated");
      if (!target || target.isExternal() ||
          !llvm::hasSingleElement(target.getBody()))
        return call.emitOpError("calls '")
               << call.getCallee()
               << "', which has no single-block body to differentiate";
      Block &body = target.getBody().front();
      IRMapping mapping;
      mapping.map(body.getArguments(), call.getOperands());
      OpBuilder b(call);
      for (Operation &op : body.without_terminator())
        b.clone(op, mapping);
      for (auto [result, value] :
           llvm::zip(call.getResults(), body.getTerminator()->getOperands()))
        result.replaceAllUsesWith(mapping.lookupOrDefault(value));
      call.erase();
    }
  }
}

/// f mapped over a batch: one call per batch element on the slices of the
/// mapped operands; each result's slices are concatenated along its
/// out_axis. Correct for every callee; its size grows with the batch.
FailureOr<func::FuncOp> Expander::buildVmap(VmapOp op, func::FuncOp callee) {
  std::string key = callee.getSymName().str() + "_vmap";
  for (int64_t a : op.getInAxes())
    key += "_" + std::to_string(a);
  for (int64_t a : op.getOutAxes())
    key += "_" + std::to_string(a);
  for (Type t : op.getOperandTypes())
    key += "_" + std::to_string(cast<RankedTensorType>(t).getNumElements());
  if (func::FuncOp fn = generated.lookup(key))
    return fn;
  int64_t batch = ShapedType::kDynamic;
  for (auto [operand, axis] : llvm::zip(op.getOperands(), op.getInAxes()))
    if (axis >= 0)
      batch = cast<RankedTensorType>(operand.getType()).getDimSize(axis);
  if (ShapedType::isDynamic(batch))
    return op.emitOpError("needs a static batch size to be expanded");

  OpBuilder b(module.getContext());
  auto type = FunctionType::get(module.getContext(), op.getOperandTypes(),
                                op.getResultTypes());
  auto fn = func::FuncOp::create(b, op.getLoc(),
                                 callee.getSymName().str() + "_vmap", type);
  fn.setPrivate();
  symbols.insert(fn, std::next(Block::iterator(callee)));
  Block *body = fn.addEntryBlock();
  b.setInsertionPointToStart(body);
  Location loc = op.getLoc();
  FunctionType calleeType = callee.getFunctionType();
  SmallVector<SmallVector<Value>> slices(op.getNumResults());
  for (int64_t i = 0; i < batch; ++i) {
    SmallVector<Value> args;
    for (auto [arg, axis, argType] : llvm::zip(
             body->getArguments(), op.getInAxes(), calleeType.getInputs())) {
      if (axis < 0) {
        args.push_back(arg);
        continue;
      }
      Value slice = NarrowOp::create(b, loc, arg, axis, i, 1);
      args.push_back(ReshapeOp::create(b, loc, argType, slice));
    }
    auto call = func::CallOp::create(b, loc, callee, args);
    for (auto [j, result, axis] :
         llvm::enumerate(call.getResults(), op.getOutAxes())) {
      auto resultType = cast<RankedTensorType>(result.getType());
      SmallVector<int64_t> shape(resultType.getShape());
      shape.insert(shape.begin() + axis, 1);
      slices[j].push_back(
          ReshapeOp::create(b, loc, resultType.clone(shape), result));
    }
  }
  SmallVector<Value> results;
  for (auto [parts, axis] : llvm::zip(slices, op.getOutAxes()))
    results.push_back(parts.size() == 1
                          ? parts[0]
                          : Value(ConcatOp::create(b, loc, parts, axis)));
  func::ReturnOp::create(b, loc, results);
  return generated[key] = fn;
}

namespace {

struct ExpandAutodiffPass
    : rlx::impl::ExpandAutodiffPassBase<ExpandAutodiffPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerDifferentiableOpModels(registry);
  }

  void runOnOperation() override {
    if (unusedWrt != "zeros" && unusedWrt != "error") {
      getOperation().emitError("unused-wrt must be 'zeros' or 'error', got '")
          << unusedWrt << "'";
      return signalPassFailure();
    }
    Expander expander(getOperation(), unusedWrt == "error");
    if (failed(expander.run()))
      signalPassFailure();
  }
};

} // namespace
