//===- PromoteParams.cpp - rlx.param to trailing function arguments -------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_PROMOTEPARAMSPASS
#include "RLX/Dialect/MIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

/// Replaces the params of `fn` by new trailing arguments.
static LogicalResult promote(func::FuncOp fn, ModuleOp module) {
  // The params in textual order, grouped by name in first-use order.
  llvm::MapVector<StringAttr, SmallVector<ParamOp>> byName;
  bool ok = true;
  fn.walk<WalkOrder::PreOrder>([&](ParamOp param) {
    if (param->getParentWithTrait<OpTrait::IsIsolatedFromAbove>() !=
        fn.getOperation()) {
      param.emitError("cannot promote param \"")
          << param.getName()
          << "\": it lies in a region isolated from the function";
      ok = false;
      return;
    }
    SmallVector<ParamOp> &uses = byName[param.getNameAttr()];
    if (!uses.empty() && uses.front().getType() != param.getType()) {
      InFlightDiagnostic diag =
          param.emitError("param \"")
          << param.getName() << "\" has type " << param.getType()
          << " here but " << uses.front().getType() << " at its first use";
      diag.attachNote(uses.front().getLoc())
          << "first use of \"" << param.getName() << "\"";
      ok = false;
      return;
    }
    uses.push_back(param);
  });
  if (!ok)
    return failure();
  if (byName.empty())
    return success();

  // Calls in the module would lack the new arguments.
  if (std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(fn, module)) {
    if (!uses->empty()) {
      InFlightDiagnostic diag =
          fn.emitError("cannot promote the params of @")
          << fn.getName()
          << ": it is referenced in the module, and its callers would lack "
             "the new arguments";
      for (const SymbolTable::SymbolUse &use : *uses)
        diag.attachNote(use.getUser()->getLoc()) << "referenced here";
      return failure();
    }
  }

  Builder b(fn.getContext());
  unsigned index = fn.getNumArguments();
  for (auto &[name, params] : byName) {
    NamedAttribute attr = b.getNamedAttr("rlx.param", name);
    if (failed(fn.insertArgument(index, params.front().getType(),
                                 b.getDictionaryAttr(attr),
                                 params.front().getLoc())))
      return params.front().emitError("cannot add an argument for param \"")
             << name.getValue() << "\"";
    BlockArgument arg = fn.getArgument(index);
    for (ParamOp param : params) {
      param.getResult().replaceAllUsesWith(arg);
      param.erase();
    }
    ++index;
  }
  return success();
}

namespace {

struct PromoteParamsPass
    : rlx::impl::PromoteParamsPassBase<PromoteParamsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> targets;
    if (functions.empty()) {
      for (auto fn : module.getOps<func::FuncOp>())
        if (fn.isPublic() && !fn.isExternal())
          targets.push_back(fn);
    } else {
      llvm::StringSet<> seen;
      for (const std::string &name : functions) {
        if (!seen.insert(name).second)
          continue;
        auto fn = module.lookupSymbol<func::FuncOp>(name);
        if (!fn || fn.isExternal()) {
          module.emitError("rlx-promote-params: no function body named '")
              << name << "'";
          return signalPassFailure();
        }
        targets.push_back(fn);
      }
    }
    bool ok = true;
    for (func::FuncOp fn : targets)
      ok &= succeeded(promote(fn, module));
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
