//===- Partition.cpp - a sharded program as the program of one device -----===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Upstream's sharding-propagation and shard-partition do the work (over the
// rlx ops' models, ShardingInterfaceImpl.cpp); this pass runs them on every
// function, checks between them what upstream asserts on (a split that does
// not divide its dim), and lowers what partitioning leaves that RLX's
// runtimes do not carry as collectives (slices of replicated values and
// process indices) with upstream's patterns.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Transforms/Passes.h"
#include "mlir/Dialect/Shard/Transforms/Transforms.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/InterleavedRange.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_PARTITIONPASS
#include "RLX/Dialect/MIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {

/// Every split dim of every `shard.shard` divides over its devices.
LogicalResult checkSplitsDivide(ModuleOp module,
                                SymbolTableCollection &symbols) {
  WalkResult walk = module.walk([&](shard::ShardOp op) {
    RankedTensorType type = op.getSrc().getType();
    shard::Sharding sharding(op.getSharding());
    shard::GridOp grid =
        shard::getGridOrNull(op, sharding.getGridAttr(), symbols);
    if (!grid)
      return WalkResult::advance();
    for (auto [dim, axes] : llvm::enumerate(sharding.getSplitAxes())) {
      if (axes.empty() || dim >= static_cast<size_t>(type.getRank()))
        continue;
      int64_t devices = shard::collectiveProcessGroupSize(axes.asArrayRef(),
                                                          grid);
      int64_t size = type.getDimSize(dim);
      if (ShapedType::isDynamic(size) || ShapedType::isDynamic(devices)) {
        op.emitError("dim ")
            << dim << " of " << type
            << " is split over grid @" << grid.getSymName()
            << ", but only static sizes split";
        return WalkResult::interrupt();
      }
      if (size % devices != 0) {
        emitError(op.getSrc().getLoc(), "dim ")
            << dim << " of size " << size << " of " << type
            << " does not split over the " << devices
            << " devices of grid @" << grid.getSymName() << " axes ["
            << llvm::interleaved(axes.asArrayRef(), ", ", "", "") << "]";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// What partitioning may leave in the program: the grid, the collectives
/// the runtimes carry (Collectives.h) and process indices.
bool isCarried(Operation *op) {
  return isa<shard::GridOp, shard::AllReduceOp, shard::AllGatherOp,
             shard::ReduceScatterOp, shard::AllToAllOp,
             shard::ProcessLinearIndexOp>(op);
}

struct PartitionPass : public rlx::impl::PartitionPassBase<PartitionPass> {
  /// Lowering process indices makes affine.delinearize_index (declared
  /// here: the affine dialect's header in Passes.h clashes with names in
  /// the passes that include it).
  void getDependentDialects(DialectRegistry &registry) const override {
    PartitionPassBase::getDependentDialects(registry);
    registry.insert<affine::AffineDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto grids = llvm::to_vector(module.getOps<shard::GridOp>());
    // Nothing annotated (or partitioned already: partitioning consumes the
    // annotations), nothing to do.
    bool annotated = false;
    module.walk([&](shard::ShardOp) {
      annotated = true;
      return WalkResult::interrupt();
    });
    if (grids.empty() || !annotated)
      return;
    for (shard::GridOp grid : grids)
      if (ShapedType::isDynamicShape(grid.getShape())) {
        grid.emitError("grid @")
            << grid.getSymName() << " needs static sizes to partition over";
        return signalPassFailure();
      }

    OpPassManager propagate(ModuleOp::getOperationName());
    propagate.addNestedPass<func::FuncOp>(shard::createShardingPropagation());
    if (failed(runPipeline(propagate, module)))
      return signalPassFailure();
    SymbolTableCollection symbols;
    if (failed(checkSplitsDivide(module, symbols)))
      return signalPassFailure();
    OpPassManager partition(ModuleOp::getOperationName());
    partition.addNestedPass<func::FuncOp>(shard::createPartition());
    if (failed(runPipeline(partition, module)))
      return signalPassFailure();

    RewritePatternSet patterns(&getContext());
    shard::populateAllSliceOpLoweringPatterns(patterns, symbols);
    shard::populateProcessMultiIndexOpLoweringPatterns(patterns, symbols);
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();

    WalkResult walk = module.walk([&](Operation *op) {
      if (!isa<shard::ShardDialect>(op->getDialect()) || isCarried(op))
        return WalkResult::advance();
      op->emitOpError("is not carried by RLX's runtimes: only all_reduce, "
                      "all_gather, reduce_scatter and all_to_all are");
      return WalkResult::interrupt();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
