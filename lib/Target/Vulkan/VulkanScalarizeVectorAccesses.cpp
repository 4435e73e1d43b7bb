//===- VulkanScalarizeVectorAccesses.cpp - vector accesses as scalars -----===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The GPU front loads rows in 16-byte vectors; a SPIR-V storage buffer of
// scalars can only be read element by element under logical addressing
// (see Passes.td). Reading a buffer as an array of vectors instead would
// need every access to it to be vector-aligned, which the front does not
// promise.
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/Vulkan/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_VULKANSCALARIZEVECTORACCESSESPASS
#include "RLX/Target/Vulkan/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

/// The indices of lane `lane`: `indices` with `lane` added to the last.
static SmallVector<Value> laneIndices(PatternRewriter &rewriter, Location loc,
                                      ValueRange indices, int64_t lane) {
  SmallVector<Value> result(indices);
  if (lane != 0) {
    Value offset = arith::ConstantIndexOp::create(rewriter, loc, lane);
    result.back() = arith::AddIOp::create(rewriter, loc, result.back(), offset);
  }
  return result;
}

namespace {
// vector.load %m[..., j] : vector<N> -> from_elements(load %m[..., j + k])
struct ScalarizeLoad : OpRewritePattern<vector::LoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::LoadOp op,
                                PatternRewriter &rewriter) const override {
    VectorType type = op.getVectorType();
    if (type.getRank() != 1 || type.isScalable() || op.getIndices().empty())
      return rewriter.notifyMatchFailure(op, "not a 1-D load of a buffer");
    SmallVector<Value> lanes;
    for (int64_t k = 0; k < type.getNumElements(); ++k)
      lanes.push_back(memref::LoadOp::create(
          rewriter, op.getLoc(), op.getBase(),
          laneIndices(rewriter, op.getLoc(), op.getIndices(), k)));
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, type, lanes);
    return success();
  }
};

// vector.store %v, %m[..., j] -> store extract(%v, k), %m[..., j + k]
struct ScalarizeStore : OpRewritePattern<vector::StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::StoreOp op,
                                PatternRewriter &rewriter) const override {
    VectorType type = op.getVectorType();
    if (type.getRank() != 1 || type.isScalable() || op.getIndices().empty())
      return rewriter.notifyMatchFailure(op, "not a 1-D store to a buffer");
    for (int64_t k = 0; k < type.getNumElements(); ++k) {
      Value lane = vector::ExtractOp::create(rewriter, op.getLoc(),
                                             op.getValueToStore(), k);
      memref::StoreOp::create(
          rewriter, op.getLoc(), lane, op.getBase(),
          laneIndices(rewriter, op.getLoc(), op.getIndices(), k));
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct VulkanScalarizeVectorAccessesPass
    : public rlx::impl::VulkanScalarizeVectorAccessesPassBase<
          VulkanScalarizeVectorAccessesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ScalarizeLoad, ScalarizeStore>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
