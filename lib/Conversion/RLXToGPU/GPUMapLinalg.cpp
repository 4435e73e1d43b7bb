//===- GPUMapLinalg.cpp - one gpu.launch per linalg op on buffers ---------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The GPU front's schedules: a row group (consecutive ops over the same
// rows with a row reduction among them: softmax, the norms) becomes one
// kernel of one block per row (one subgroup per row for short rows),
// holding a row that fits and its statistics in registers across its ops;
// any other linalg.generic one kernel, one block per row for a row
// reduction, blocks of points x slices of the reduction for a column
// reduction of few points (then a second kernel that folds the blocks'
// partial values), else one thread per point (vector accesses where the
// innermost loop is contiguous in every operand that reads it). Subgroup
// size, access width and block limits come from the target description
// (the pass options), so the same schedules serve 32-lane and 64-lane
// subgroups.
//
// Upstream's routes do not fit these schedules: `gpu-map-parallel-loops` +
// `convert-parallel-loops-to-gpu` map a reduction's row loop to one thread
// (each thread walks a row alone, every load uncoalesced), and tiling to
// scf.forall with thread mappings needs a partial-result buffer per row
// reduction (linalg::tileReductionUsingForall) that then has to be merged
// across threads through memory. Writing the kernels' loops here keeps the
// reduction in registers and shuffles and the loads 16 bytes wide.
//
// The schedules live one per file (MapLinalg.h): MapRowGroups.cpp (row
// reductions and row groups, with PruneBarriers.cpp), MapColumnReductions.cpp,
// MapPointwise.cpp, and SplitRowReductions.cpp for the rewrites before the
// mapping; their kernels are built from KernelBuilder.h, which
// rlx-gpu-tile-matmul shares.
//
//===----------------------------------------------------------------------===//

#include "MapLinalg.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_GPUMAPLINALGPASS
#include "RLX/Conversion/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx::map_linalg;

namespace {

struct GPUMapLinalgPass : rlx::impl::GPUMapLinalgPassBase<GPUMapLinalgPass> {
  using Base::Base;

  /// The kernels' shapes need whole subgroups of a power-of-two size in a
  /// block the target allows, and one subgroup must reduce the per-subgroup
  /// words of a block.
  LogicalResult checkTarget(func::FuncOp func) {
    auto bad = [&]() { return func.emitError() << "rlx-gpu-map-linalg: "; };
    // Plain values: a pass option streams into a diagnostic as a character.
    int64_t subgroupSize = this->subgroupSize, vectorBytes = this->vectorBytes,
            blockSize = this->blockSize,
            maxThreadsPerBlock = this->maxThreadsPerBlock;
    if (subgroupSize < 1 || !llvm::isPowerOf2_64(subgroupSize))
      return bad() << "subgroup-size " << subgroupSize
                   << " is not a power of two";
    if (vectorBytes < 1 || !llvm::isPowerOf2_64(vectorBytes))
      return bad() << "vector-bytes " << vectorBytes
                   << " is not a power of two";
    if (blockSize < subgroupSize || blockSize % subgroupSize != 0)
      return bad() << "block-size " << blockSize
                   << " is not a multiple of subgroup-size " << subgroupSize;
    if (blockSize > maxThreadsPerBlock)
      return bad() << "block-size " << blockSize
                   << " exceeds the target's max-threads-per-block "
                   << maxThreadsPerBlock;
    if (blockSize / subgroupSize > subgroupSize)
      return bad() << "block-size " << blockSize << " has more than "
                   << subgroupSize << " subgroups of " << subgroupSize
                   << " lanes (their partial values are reduced by one "
                      "subgroup)";
    return success();
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (failed(checkTarget(func)))
      return signalPassFailure();
    IRRewriter rewriter(&getContext());

    splitLongRowReductions(func, rewriter, subgroupSize);
    // Copies and named ops become generics.
    SmallVector<Operation *> toGeneralize;
    func.walk([&](Operation *op) {
      if (isa<memref::CopyOp>(op) ||
          (isa<linalg::LinalgOp>(op) && !isa<linalg::GenericOp>(op)))
        toGeneralize.push_back(op);
    });
    for (Operation *op : toGeneralize) {
      rewriter.setInsertionPoint(op);
      if (auto copy = dyn_cast<memref::CopyOp>(op)) {
        linalg::makeMemRefCopyOp(rewriter, copy.getLoc(), copy.getSource(),
                                 copy.getTarget());
        rewriter.eraseOp(copy);
        continue;
      }
      if (failed(linalg::generalizeNamedOp(rewriter,
                                           cast<linalg::LinalgOp>(op)))) {
        op->emitError("rlx-gpu-map-linalg: cannot generalize this op");
        return signalPassFailure();
      }
    }

    splitRowReductionResults(func, rewriter);
    if (fuseRows) {
      for (RowGroup &g : findRowGroups(func, vectorBytes)) {
        ImplicitLocOpBuilder b(g.ops.back().op.getLoc(), g.ops.back().op);
        if (failed(emitRowGroup(b, g, blockSize, subgroupRows, subgroupSize,
                                sharedMemoryBytes)))
          return signalPassFailure();
        for (Schedule &s : g.ops)
          rewriter.eraseOp(s.op);
      }
    }

    // Pre-order: a generic is mapped (with the loads its body makes from
    // captured buffers, as rope's does) before those loads are seen.
    WalkResult result = func.walk<WalkOrder::PreOrder>([&](Operation *op)
                                                           -> WalkResult {
      if (isa<memref::LoadOp, memref::StoreOp>(op) &&
          !op->getParentOfType<gpu::LaunchOp>())
        return op->emitError(
            "rlx-gpu-map-linalg: host code reads or writes a device buffer");
      auto generic = dyn_cast<linalg::GenericOp>(op);
      if (!generic)
        return WalkResult::advance();
      if (!generic.hasPureBufferSemantics())
        return op->emitError("rlx-gpu-map-linalg: expects buffers (run "
                             "bufferization first)");
      Schedule s{generic, generic.getStaticLoopRanges()};
      if (llvm::any_of(s.ranges, ShapedType::isDynamic))
        return op->emitError(
            "rlx-gpu-map-linalg: dynamic shapes are not supported yet");
      if (s.ranges.empty())
        s.ranges.push_back(1);
      ImplicitLocOpBuilder b(op->getLoc(), op);
      unsigned innermost = s.ranges.size() - 1;
      std::optional<RowReduction> red = matchRowReduction(generic);
      bool innermostParallel = generic.getNumLoops() > 0 &&
                               generic.getIteratorTypesArray()[innermost] ==
                                   utils::IteratorType::parallel;
      if (red && s.ranges[innermost] >= subgroupSize) {
        s.lanes =
            vectorLanes(generic, innermost, s.ranges[innermost], vectorBytes);
        emitRowReduction(b, s, *red, blockSize, subgroupSize);
      } else if (std::optional<SmallVector<RowReduction>> columns =
                     matchColumnReduction(s, blockSize, subgroupSize)) {
        emitColumnReduction(b, s, *columns, blockSize, subgroupSize);
      } else {
        if (generic.getNumReductionLoops() == 0 && innermostParallel)
          s.lanes =
              vectorLanes(generic, innermost, s.ranges[innermost], vectorBytes);
        emitPointwise(b, s, blockSize);
      }
      rewriter.eraseOp(op);
      return WalkResult::skip();
    });
    if (result.wasInterrupted())
      return signalPassFailure();

    // Allocations whose accesses all went to registers are not needed.
    SmallVector<memref::AllocOp> unused;
    func.walk([&](memref::AllocOp alloc) {
      if (llvm::all_of(alloc->getUsers(), llvm::IsaPred<memref::DeallocOp>))
        unused.push_back(alloc);
    });
    for (memref::AllocOp alloc : unused) {
      for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
        rewriter.eraseOp(user);
      rewriter.eraseOp(alloc);
    }

    // Host allocations become device allocations.
    func.walk([&](Operation *op) {
      rewriter.setInsertionPoint(op);
      if (auto alloc = dyn_cast<memref::AllocOp>(op))
        rewriter.replaceOpWithNewOp<gpu::AllocOp>(
            alloc, alloc.getType(), /*asyncToken=*/Type(), ValueRange{},
            alloc.getDynamicSizes(), alloc.getSymbolOperands());
      else if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
        rewriter.replaceOpWithNewOp<gpu::DeallocOp>(
            dealloc, /*asyncToken=*/Type(), ValueRange{}, dealloc.getMemref());
    });
  }
};

} // namespace
