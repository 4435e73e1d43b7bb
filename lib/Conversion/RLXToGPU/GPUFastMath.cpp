//===- GPUFastMath.cpp - cheaper f32 exp and divisions in kernels ---------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_GPUFASTMATHPASS
#include "RLX/Conversion/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {

bool isF32(Type type) { return getElementTypeOrSelf(type).isF32(); }

struct GPUFastMathPass : rlx::impl::GPUFastMathPassBase<GPUFastMathPass> {
  void runOnOperation() override {
    // In walk order, so that the rewrite does not depend on pointer order.
    llvm::MapVector<Value, SmallVector<arith::DivFOp>> byDivisor;
    getOperation()->walk([&](Operation *op) {
      if (auto exp = dyn_cast<math::ExpOp>(op); exp && isF32(exp.getType()))
        exp.setFastmath(exp.getFastmath() | arith::FastMathFlags::afn);
      if (auto div = dyn_cast<arith::DivFOp>(op); div && isF32(div.getType()))
        byDivisor[div.getRhs()].push_back(div);
    });
    OpBuilder b(&getContext());
    for (auto &[divisor, divs] : byDivisor) {
      if (divs.size() < 2)
        continue;
      b.setInsertionPointAfterValue(divisor);
      Location loc = divisor.getLoc();
      Value one = arith::ConstantOp::create(
          b, loc, cast<TypedAttr>(b.getOneAttr(divisor.getType())));
      Value reciprocal = arith::DivFOp::create(b, loc, one, divisor);
      for (arith::DivFOp div : divs) {
        b.setInsertionPoint(div);
        Value product = arith::MulFOp::create(b, div.getLoc(), div.getLhs(),
                                              reciprocal, div.getFastmath());
        div.getResult().replaceAllUsesWith(product);
        div.erase();
      }
    }
  }
};

} // namespace
