//===- CPUMergeKernels.cpp - one function of each set of equal ones -------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// LLVM's MergeFunctions would find the same functions, but only after its
// optimizer and before code generation: the MLIR lowerings and LLVM's
// optimizer would still have run on every copy, which is most of a deep
// model's compile time. Here they merge right after outlining.
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_CPUMERGEKERNELSPASS
#include "RLX/Target/CPU/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {

/// What equal functions share, cheap to compute (attributes and types are
/// uniqued: their pointers hash): the type, the attributes but the name,
/// and each op's name, attributes, properties and result types in order.
llvm::hash_code shapeHash(func::FuncOp fn) {
  llvm::hash_code hash = hash_value(fn.getFunctionType());
  for (NamedAttribute attr : fn->getAttrs())
    if (attr.getName() != SymbolTable::getSymbolAttrName())
      hash = llvm::hash_combine(hash, attr.getName(), attr.getValue());
  fn.getBody().walk([&](Operation *op) {
    hash = llvm::hash_combine(
        hash, OperationEquivalence::computeHash(
                  op, OperationEquivalence::ignoreHashValue,
                  OperationEquivalence::ignoreHashValue,
                  OperationEquivalence::IgnoreLocations));
  });
  return hash;
}

/// Whether `a` and `b` are the same function but for their names.
bool sameFunction(func::FuncOp a, func::FuncOp b) {
  if (a.getFunctionType() != b.getFunctionType())
    return false;
  NamedAttrList aAttrs(a->getAttrDictionary()), bAttrs(b->getAttrDictionary());
  aAttrs.erase(SymbolTable::getSymbolAttrName());
  bAttrs.erase(SymbolTable::getSymbolAttrName());
  if (aAttrs.getDictionary(a.getContext()) !=
      bAttrs.getDictionary(b.getContext()))
    return false;
  return OperationEquivalence::isRegionEquivalentTo(
      &a.getBody(), &b.getBody(), OperationEquivalence::IgnoreLocations);
}

struct CPUMergeKernelsPass
    : rlx::impl::CPUMergeKernelsPassBase<CPUMergeKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    DenseMap<llvm::hash_code, SmallVector<func::FuncOp>> kept;
    SmallVector<std::pair<func::FuncOp, func::FuncOp>> merged;
    for (func::FuncOp fn : module.getOps<func::FuncOp>()) {
      if (!fn.isPrivate() || fn.isExternal())
        continue;
      SmallVector<func::FuncOp> &same = kept[shapeHash(fn)];
      auto it = llvm::find_if(
          same, [&](func::FuncOp other) { return sameFunction(other, fn); });
      if (it == same.end())
        same.push_back(fn);
      else
        merged.push_back({fn, *it});
    }
    if (merged.empty())
      return;
    // One walk renames every use (a walk per copy was quadratic: 3.4 s of
    // a 12-layer gradient).
    DenseMap<StringAttr, StringAttr> renamed;
    for (auto [copy, original] : merged)
      renamed[copy.getSymNameAttr()] = original.getSymNameAttr();
    AttrTypeReplacer replacer;
    replacer.addReplacement(
        [&](SymbolRefAttr ref) -> std::optional<Attribute> {
          auto it = renamed.find(ref.getRootReference());
          if (it == renamed.end())
            return std::nullopt;
          return SymbolRefAttr::get(it->second, ref.getNestedReferences());
        });
    module.walk([&](Operation *op) {
      replacer.replaceElementsIn(op, /*replaceAttrs=*/true,
                                 /*replaceLocs=*/false,
                                 /*replaceTypes=*/false);
    });
    for (auto [copy, original] : merged)
      copy.erase();
  }
};

} // namespace
