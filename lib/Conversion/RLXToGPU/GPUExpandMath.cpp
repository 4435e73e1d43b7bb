//===- GPUExpandMath.cpp - math ops that a kernel language lacks ----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx-gpu-expand-math: f32 erf and erfc as upstream's polynomial
// approximations, for the targets whose kernel language has neither.
//
//===----------------------------------------------------------------------===//

#include "RLX/Conversion/Passes.h"

#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_GPUEXPANDMATHPASS
#include "RLX/Conversion/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

void rlx::populateGPUExpandMathPatterns(RewritePatternSet &patterns) {
  populatePolynomialApproximateErfPattern(patterns);
  populatePolynomialApproximateErfcPattern(patterns);
}

namespace {
struct GPUExpandMathPass
    : public rlx::impl::GPUExpandMathPassBase<GPUExpandMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    rlx::populateGPUExpandMathPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
