//===- LinalgFuseElementwise.cpp - elementwise fusion, not into reductions ===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_LINALGFUSEELEMENTWISEPASS
#include "RLX/Conversion/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {
/// The number of operations in the body of the linalg op `op`.
size_t bodySize(linalg::LinalgOp op) {
  return op->getRegion(0).front().getOperations().size();
}

struct LinalgFuseElementwisePass
    : rlx::impl::LinalgFuseElementwisePassBase<LinalgFuseElementwisePass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    unsigned limit = maxBodyOps;
    linalg::populateElementwiseOpsFusionPatterns(
        patterns, [limit](OpOperand *fused) {
          auto consumer = dyn_cast<linalg::LinalgOp>(fused->getOwner());
          if (!consumer ||
              consumer.getNumLoops() != consumer.getNumParallelLoops())
            return false;
          // A producer read only here moves into the consumer; one read
          // elsewhere too is duplicated, which is bounded.
          auto producer = fused->get().getDefiningOp<linalg::LinalgOp>();
          return !producer || producer->hasOneUse() ||
                 bodySize(consumer) + bodySize(producer) <= limit;
        });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
