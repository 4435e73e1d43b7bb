//===- VulkanGuardEmptyLoops.cpp - zero-trip loops keep their inits -------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A workaround for upstream's SCFToSPIRV (see Passes.td): its ForOp
// conversion never stores the init values into the variables that carry
// the loop's results out of the spirv.mlir.loop.
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/Vulkan/Passes.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_VULKANGUARDEMPTYLOOPSPASS
#include "RLX/Target/Vulkan/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

/// Whether `loop` runs at least once whatever its operands (constant
/// bounds with lb < ub).
static bool runsOnce(scf::ForOp loop) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  return lb && ub && *lb < *ub;
}

namespace {
struct VulkanGuardEmptyLoopsPass
    : public rlx::impl::VulkanGuardEmptyLoopsPassBase<
          VulkanGuardEmptyLoopsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop.getNumResults() && !runsOnce(loop))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops) {
      OpBuilder b(loop);
      Location loc = loop.getLoc();
      auto predicate = loop.getUnsignedCmp() ? arith::CmpIPredicate::ult
                                             : arith::CmpIPredicate::slt;
      Value nonEmpty = arith::CmpIOp::create(
          b, loc, predicate, loop.getLowerBound(), loop.getUpperBound());
      auto guard = scf::IfOp::create(b, loc, loop.getResultTypes(), nonEmpty,
                                     /*withElseRegion=*/true);
      loop->replaceAllUsesWith(guard.getResults());
      Block *thenBlock = guard.thenBlock();
      loop->moveBefore(thenBlock, thenBlock->end());
      b.setInsertionPointToEnd(thenBlock);
      scf::YieldOp::create(b, loc, loop.getResults());
      b.setInsertionPointToEnd(guard.elseBlock());
      scf::YieldOp::create(b, loc, loop.getInitArgs());
    }
  }
};
} // namespace
