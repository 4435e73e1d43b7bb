//===- CopyRepeatedResults.cpp - one buffer per returned result -----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_COPYREPEATEDRESULTSPASS
#include "RLX/Conversion/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {
struct CopyRepeatedResultsPass
    : rlx::impl::CopyRepeatedResultsPassBase<CopyRepeatedResultsPass> {
  void runOnOperation() override {
    OpBuilder b(&getContext());
    getOperation().walk([&](func::ReturnOp ret) {
      llvm::SmallPtrSet<Value, 8> seen;
      for (OpOperand &operand : ret->getOpOperands()) {
        Value value = operand.get();
        auto type = dyn_cast<MemRefType>(value.getType());
        if (!type || seen.insert(value).second)
          continue;
        b.setInsertionPoint(ret);
        Location loc = ret.getLoc();
        SmallVector<Value> dynamicSizes;
        for (int64_t i = 0; i < type.getRank(); ++i)
          if (type.isDynamicDim(i))
            dynamicSizes.push_back(memref::DimOp::create(b, loc, value, i));
        // A new buffer has the identity layout whatever the original's.
        auto copyType =
            MemRefType::get(type.getShape(), type.getElementType(),
                            MemRefLayoutAttrInterface(), type.getMemorySpace());
        if (!memref::CastOp::areCastCompatible(copyType, type)) {
          ret.emitError("rlx-copy-repeated-results: result #")
              << operand.getOperandNumber() << " repeats a buffer of type "
              << type << ", which a new buffer cannot be cast to";
          return signalPassFailure();
        }
        Value copy = memref::AllocOp::create(b, loc, copyType, dynamicSizes);
        memref::CopyOp::create(b, loc, value, copy);
        if (copyType != type)
          copy = memref::CastOp::create(b, loc, type, copy);
        operand.set(copy);
      }
    });
  }
};
} // namespace
