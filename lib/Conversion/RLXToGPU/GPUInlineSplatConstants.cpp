//===- GPUInlineSplatConstants.cpp - splat globals as body constants ------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_GPUINLINESPLATCONSTANTSPASS
#include "RLX/Conversion/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {

/// The value every element of the constant global `get` reads has, or null.
TypedAttr splatValue(memref::GetGlobalOp get, SymbolTableCollection &symbols) {
  auto global =
      symbols.lookupNearestSymbolFrom<memref::GlobalOp>(get, get.getNameAttr());
  if (!global)
    return nullptr;
  auto init = dyn_cast_or_null<DenseElementsAttr>(global.getConstantInitValue());
  if (!init || !init.isSplat())
    return nullptr;
  return dyn_cast<TypedAttr>(init.getSplatValue<Attribute>());
}

struct GPUInlineSplatConstantsPass
    : rlx::impl::GPUInlineSplatConstantsPassBase<GPUInlineSplatConstantsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SymbolTableCollection symbols;
    bool changed = false;
    func.walk([&](linalg::GenericOp op) {
      for (OpOperand *input : op.getDpsInputOperands()) {
        auto get = input->get().getDefiningOp<memref::GetGlobalOp>();
        TypedAttr value = get ? splatValue(get, symbols) : nullptr;
        if (!value)
          continue;
        BlockArgument arg = op.getMatchingBlockArgument(input);
        OpBuilder b = OpBuilder::atBlockBegin(arg.getOwner());
        arg.replaceAllUsesWith(
            arith::ConstantOp::create(b, op.getLoc(), value));
        changed = true;
      }
    });
    if (!changed)
      return;
    // The inputs read no more go (upstream's cleanup of linalg operands),
    // then the globals' handles no one uses.
    RewritePatternSet patterns(&getContext());
    linalg::populateEraseUnusedOperandsAndResultsPatterns(patterns);
    if (failed(applyPatternsGreedily(func, std::move(patterns))))
      return signalPassFailure();
    func.walk([](memref::GetGlobalOp get) {
      if (get->use_empty())
        get->erase();
    });
  }
};

} // namespace
