//===- ResultsInPlace.cpp - results held by their arguments ---------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Upstream's drop-equivalent-buffer-results removes a result only where
// bufferization proved it equivalent to an argument, and says nothing to
// the caller; here the entry point's signature is a contract with the
// runtime (result J is handed back as argument I), so the result goes in
// every case, with a copy where the program did not write in place.
//
//===----------------------------------------------------------------------===//

#include "RLX/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/BitVector.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_RESULTSINPLACEPASS
#include "RLX/Conversion/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {

/// `value` without the casts between memref types of one buffer.
Value stripCasts(Value value) {
  while (auto cast = value.getDefiningOp<memref::CastOp>())
    value = cast.getSource();
  return value;
}

LogicalResult returnInPlace(func::FuncOp fn, ModuleOp module) {
  SmallVector<std::pair<unsigned, unsigned>> pairs; // (argument, result)
  llvm::BitVector taken(fn.getNumResults());
  for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
    Attribute attr = fn.getArgAttr(i, rlx::kInPlaceResultAttrName);
    if (!attr)
      continue;
    auto index = dyn_cast<IntegerAttr>(attr);
    if (!index || index.getInt() < 0 ||
        index.getInt() >= int64_t(fn.getNumResults()))
      return fn.emitError() << "argument #" << i << ": "
                            << rlx::kInPlaceResultAttrName
                            << " must be the index of one of the "
                            << fn.getNumResults() << " results, got " << attr;
    unsigned j = index.getInt();
    if (taken.test(j))
      return fn.emitError() << "result #" << j
                            << " is held in place by two arguments";
    taken.set(j);
    if (fn.getArgument(i).getType() != fn.getResultTypes()[j])
      return fn.emitError()
             << "argument #" << i << " of type " << fn.getArgument(i).getType()
             << " cannot hold result #" << j << " of type "
             << fn.getResultTypes()[j];
    pairs.push_back({i, j});
  }
  if (pairs.empty())
    return success();
  // The attribute has done its work (LLVM's translation would warn of it).
  for (auto [i, j] : pairs)
    fn.removeArgAttr(i, rlx::kInPlaceResultAttrName);
  if (std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(fn, module);
      uses && !uses->empty())
    return fn.emitError() << "results held in place by arguments ("
                          << rlx::kInPlaceResultAttrName
                          << ") are for entry points; @" << fn.getName()
                          << " is called in the module";

  for (Block &block : fn.getBody()) {
    auto ret = dyn_cast<func::ReturnOp>(block.getTerminator());
    if (!ret)
      continue;
    OpBuilder b(ret);
    for (auto [i, j] : pairs) {
      Value argument = fn.getArgument(i);
      Value result = ret.getOperand(j);
      if (stripCasts(result) == argument)
        continue;
      if (!cast<MemRefType>(argument.getType()).hasStaticShape())
        return fn.emitError()
               << "result #" << j << " is not computed in argument #" << i
               << "'s buffer and has a dynamic shape (" << argument.getType()
               << "): its copy there cannot be checked";
      memref::CopyOp::create(b, ret.getLoc(), result, argument);
    }
  }
  llvm::BitVector drop(fn.getNumResults());
  for (auto [i, j] : pairs)
    drop.set(j);
  for (Block &block : fn.getBody())
    if (auto ret = dyn_cast<func::ReturnOp>(block.getTerminator()))
      ret->eraseOperands(drop);
  if (failed(fn.eraseResults(drop)))
    return fn.emitError() << "cannot remove the results held in place";
  return success();
}

struct ResultsInPlacePass
    : rlx::impl::ResultsInPlacePassBase<ResultsInPlacePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto fn : module.getOps<func::FuncOp>())
      if (!fn.isExternal() && failed(returnInPlace(fn, module)))
        return signalPassFailure();
  }
};

} // namespace
