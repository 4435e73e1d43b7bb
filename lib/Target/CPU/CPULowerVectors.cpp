//===- CPULowerVectors.cpp - vector ops down to 1-D FMAs and transfers ----===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/CPU/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_CPULOWERVECTORSPASS
#include "RLX/Target/CPU/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {
struct CPULowerVectorsPass
    : rlx::impl::CPULowerVectorsPassBase<CPULowerVectorsPass> {
  void runOnOperation() override {
    // Transfers through subviews read the underlying buffer at offset
    // indices instead; the hoisting below only trusts transfers on buffers
    // that are not views.
    RewritePatternSet folds(&getContext());
    memref::populateFoldMemRefAliasOpPatterns(folds);
    // As upstream's fold-memref-alias-ops, whatever is folded when the
    // driver stops is kept: a transfer that reads a column block through an
    // expand_shape (a matmul's A from a reshape) cannot fold, and the
    // driver reports that it did not converge although the IR is final.
    (void)applyPatternsGreedily(getOperation(), std::move(folds));
    // A block of C read before and written after each step of a loop (the
    // k loop of a vectorized matmul) becomes a vector the loop carries.
    linalg::hoistRedundantVectorTransfers(getOperation());
    RewritePatternSet patterns(&getContext());
    vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
    // Outer products: one FMA of a broadcast A element with a row of B per
    // row of the C block, the shape the register tiles were chosen for.
    vector::populateVectorContractLoweringPatterns(
        patterns, vector::VectorContractLowering::OuterProduct);
    vector::populateVectorOuterProductLoweringPatterns(patterns);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerParallel);
    vector::populateVectorBroadcastLoweringPatterns(patterns);
    vector::populateVectorShapeCastLoweringPatterns(patterns);
    vector::populateVectorTransposeLoweringPatterns(
        patterns, vector::VectorTransposeLowering::EltWise);
    vector::populateVectorTransferLoweringPatterns(patterns,
                                                   /*maxTransferRank=*/1);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      getOperation().emitError(
          "rlx-cpu-lower-vectors: lowering the vector ops did not converge");
      signalPassFailure();
    }
  }
};
} // namespace
