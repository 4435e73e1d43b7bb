//===- SpecializeShapes.cpp - bind dynamic dims to sizes ------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Upstream has no pass that re-runs type inference after a signature
// change (canonicalization folds tensor.cast into some ops, one at a time);
// RLX's ops infer their result types, so the specialised types flow
// through the function in one walk.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_SPECIALIZESHAPESPASS
#include "RLX/Dialect/MIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {

struct DimBinding {
  unsigned argument;
  unsigned dim;
  int64_t size;
};

/// Parses "ARG:DIM=SIZE".
FailureOr<DimBinding> parseBinding(StringRef text) {
  auto [place, size] = text.split('=');
  auto [argument, dim] = place.split(':');
  DimBinding b;
  if (argument.trim().getAsInteger(10, b.argument) ||
      dim.trim().getAsInteger(10, b.dim) ||
      size.trim().getAsInteger(10, b.size))
    return failure();
  return b;
}

/// Infers the result types of `op` from its operands; true if they changed.
bool reinfer(Operation *op) {
  auto infer = dyn_cast<InferTypeOpInterface>(op);
  if (!infer || op->getNumRegions() != 0)
    return false;
  SmallVector<Type> types;
  if (failed(infer.inferReturnTypes(
          op->getContext(), op->getLoc(), op->getOperands(),
          op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
          op->getRegions(), types)) ||
      types.size() != op->getNumResults())
    return false;
  bool changed = false;
  for (auto [result, type] : llvm::zip(op->getResults(), types))
    if (result.getType() != type) {
      result.setType(type);
      changed = true;
    }
  return changed;
}

LogicalResult specialize(func::FuncOp fn, ArrayRef<DimBinding> bindings) {
  SmallVector<Type> inputs(fn.getArgumentTypes());
  for (const DimBinding &b : bindings) {
    if (b.argument >= inputs.size())
      return fn.emitError() << "rlx-specialize-shapes: @" << fn.getName()
                            << " has " << inputs.size()
                            << " arguments, no argument " << b.argument;
    auto type = dyn_cast<RankedTensorType>(inputs[b.argument]);
    if (!type || b.dim >= type.getRank())
      return fn.emitError()
             << "rlx-specialize-shapes: argument " << b.argument << " of @"
             << fn.getName() << " (" << inputs[b.argument] << ") has no dim "
             << b.dim;
    if (b.size <= 0)
      return fn.emitError() << "rlx-specialize-shapes: dim " << b.dim
                            << " of argument " << b.argument
                            << " must have a positive size, got " << b.size;
    int64_t old = type.getDimSize(b.dim);
    if (!ShapedType::isDynamic(old) && old != b.size)
      return fn.emitError()
             << "rlx-specialize-shapes: dim " << b.dim << " of argument "
             << b.argument << " (" << type << ") is " << old << ", not "
             << b.size;
    SmallVector<int64_t> shape(type.getShape());
    shape[b.dim] = b.size;
    inputs[b.argument] = type.clone(shape);
  }

  Block &entry = fn.getBody().front();
  for (auto [argument, type] : llvm::zip(entry.getArguments(), inputs))
    argument.setType(type);
  // Each op, in order: inferred again from its operands; an op that does
  // not infer (a call, a region op) reads its operands' old types.
  DenseMap<Value, Type> before;
  for (auto [argument, type] : llvm::zip(entry.getArguments(),
                                         fn.getArgumentTypes()))
    before[argument] = type;
  fn.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == fn.getOperation() || isa<func::ReturnOp>(op))
      return WalkResult::advance();
    for (OpOperand &use : op->getOpOperands()) {
      auto old = before.find(use.get());
      if (old == before.end() || old->second == use.get().getType())
        continue;
      if (isa<InferTypeOpInterface>(op) && op->getNumRegions() == 0)
        continue;
      OpBuilder b(op);
      use.set(tensor::CastOp::create(b, op->getLoc(), old->second,
                                     use.get()));
    }
    SmallVector<Type> oldTypes(op->getResultTypes());
    if (reinfer(op))
      for (auto [result, type] : llvm::zip(op->getResults(), oldTypes))
        before[result] = type;
    // A region op's body reads its own block arguments: left as it is.
    return op->getNumRegions() != 0 ? WalkResult::skip()
                                    : WalkResult::advance();
  });
  SmallVector<Type> results;
  fn.walk([&](func::ReturnOp ret) {
    if (ret->getParentOp() == fn.getOperation() && results.empty())
      results.assign(ret.getOperandTypes().begin(),
                     ret.getOperandTypes().end());
  });
  if (results.empty())
    results.assign(fn.getResultTypes().begin(), fn.getResultTypes().end());
  fn.setFunctionType(FunctionType::get(fn.getContext(), inputs, results));
  if (failed(verify(fn)))
    return fn.emitError() << "rlx-specialize-shapes: @" << fn.getName()
                          << " is not valid at the bound sizes";
  return success();
}

struct SpecializeShapesPass
    : rlx::impl::SpecializeShapesPassBase<SpecializeShapesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto fn = module.lookupSymbol<func::FuncOp>(function);
    if (!fn || fn.isExternal()) {
      module.emitError() << "rlx-specialize-shapes: no function '"
                         << function << "' with a body";
      return signalPassFailure();
    }
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(fn, module);
        uses && !uses->empty()) {
      fn.emitError() << "rlx-specialize-shapes: @" << fn.getName()
                     << " is called in the module; its callers would pass "
                        "the old types";
      return signalPassFailure();
    }
    SmallVector<DimBinding> bindings;
    for (const std::string &text : dims) {
      FailureOr<DimBinding> b = parseBinding(text);
      if (failed(b)) {
        fn.emitError() << "rlx-specialize-shapes: '" << text
                       << "' is not ARG:DIM=SIZE";
        return signalPassFailure();
      }
      bindings.push_back(*b);
    }
    if (failed(specialize(fn, bindings)))
      return signalPassFailure();
  }
};

} // namespace
