//===- LowerLIR.cpp - the rlx-lower-lir pass ------------------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Makes a planned function executable by upstream bufferization: the arena
// becomes one memref.alloc, every buffer and alias a memref.view of it at
// its absolute offset, and every kernel its MIR body inline, reading its
// buffers through bufferization.to_tensor and writing its outputs with
// bufferization.materialize_in_destination. After empty-tensor
// elimination, one-shot bufferization makes each kernel's last op write
// straight into its planned buffer; temporaries inside one kernel (a
// softmax's row maxima, an attention's scores) stay kernel-local
// allocations.
//
// Kernels stay in program order and read their inputs when they run, so the
// IR after this pass must not move one kernel's reads past a later kernel's
// writes: the CPU pipeline skips its cross-op elementwise fusion on this
// path (to_tensor has no declared effects, so CSE does not merge reads), and
// eliminates empty tensors before CSE can merge two kernels' inits.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/LIR/IR/RLXLIROps.h"
#include "RLX/Dialect/LIR/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_LOWERLIRPASS
#include "RLX/Dialect/LIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::lir;

/// Byte offset of a buffer or alias in its arena.
static int64_t getArenaOffset(Value value) {
  if (auto alias = value.getDefiningOp<AliasOp>())
    return getArenaOffset(alias.getSource()) + alias.getOffset();
  return value.getDefiningOp<BufferOp>().getOffset();
}

static void lowerKernel(KernelOp kernel) {
  OpBuilder builder(kernel);
  Location loc = kernel.getLoc();
  IRMapping mapping;
  Block &body = kernel.getBody().front();
  for (auto [input, arg] : llvm::zip(kernel.getInputs(), body.getArguments())) {
    Value value = input;
    if (isa<MemRefType>(input.getType()))
      value = bufferization::ToTensorOp::create(builder, loc, arg.getType(),
                                                input, /*restrict=*/true,
                                                /*writable=*/false);
    mapping.map(arg, value);
  }
  // A result may be the bytes of an input buffer (a returned view, a folded
  // identity), which later kernels overwrite: it goes into a tensor of its
  // own. Made before the body, so that empty-tensor elimination can have
  // the kernel compute into it (no copy unless the result aliased the
  // arena); an alloc_tensor, unlike a tensor.empty, is not merged by CSE
  // with another result's.
  SmallVector<Value> fresh;
  for (Type type : kernel.getResultTypes())
    fresh.push_back(bufferization::AllocTensorOp::create(
        builder, loc, cast<RankedTensorType>(type), ValueRange()));
  for (Operation &op : body.without_terminator())
    builder.clone(op, mapping);
  auto yield = cast<lir::YieldOp>(body.getTerminator());
  size_t numOutputs = kernel.getOutputs().size();
  for (auto [i, value] : llvm::enumerate(yield.getValues())) {
    Value mapped = mapping.lookupOrDefault(value);
    if (i < numOutputs) {
      auto materialize = bufferization::MaterializeInDestinationOp::create(
          builder, loc, mapped, kernel.getOutputs()[i]);
      materialize.setRestrict(true);
      materialize.setWritable(true);
    } else {
      Value result = bufferization::MaterializeInDestinationOp::create(
                         builder, loc, mapped, fresh[i - numOutputs])
                         .getResult();
      kernel.getResult(i - numOutputs).replaceAllUsesWith(result);
    }
  }
  kernel.erase();
}

static LogicalResult lowerFunction(func::FuncOp func) {
  SmallVector<ArenaOp> arenas(func.getOps<ArenaOp>());
  if (arenas.empty())
    return success();
  if (arenas.size() > 1)
    return arenas[1].emitOpError() << "is the second arena of @"
                                   << func.getSymName() << "; expected one";
  WalkResult weights =
      func.walk([](WeightOp weight) {
        weight.emitOpError()
            << "cannot run on the CPU path yet: bind parameters as arguments "
               "(--rlx-promote-params before --rlx-plan-memory)";
        return WalkResult::interrupt();
      });
  if (weights.wasInterrupted())
    return failure();

  ArenaOp arena = arenas.front();
  OpBuilder builder(arena);
  Location loc = arena.getLoc();
  auto alloc = memref::AllocOp::create(
      builder, loc, cast<MemRefType>(arena.getType()),
      builder.getI64IntegerAttr(arena.getPlan().getAlignment()));
  // Views of the arena, in the order of the buffer and alias ops.
  SmallVector<Operation *> planned;
  for (Operation &op : func.getBody().front())
    if (isa<BufferOp, AliasOp>(op))
      planned.push_back(&op);
  SmallVector<int64_t> offsets;
  for (Operation *op : planned)
    offsets.push_back(getArenaOffset(op->getResult(0)));
  for (auto [op, byteOffset] : llvm::zip(planned, offsets)) {
    builder.setInsertionPoint(op);
    Value result = op->getResult(0);
    Value offset =
        arith::ConstantIndexOp::create(builder, op->getLoc(), byteOffset);
    Value view = memref::ViewOp::create(builder, op->getLoc(), result.getType(),
                                        alloc, offset, ValueRange());
    result.replaceAllUsesWith(view);
  }
  for (Operation *op : llvm::reverse(planned))
    op->erase();
  arena.getResult().replaceAllUsesWith(alloc);
  arena.erase();
  for (KernelOp kernel : llvm::make_early_inc_range(func.getOps<KernelOp>()))
    lowerKernel(kernel);
  return success();
}

namespace {
struct LowerLIRPass : public rlx::impl::LowerLIRPassBase<LowerLIRPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (failed(lowerFunction(func)))
        return signalPassFailure();
    getOperation()->removeAttr(RLXLIRDialect::getWeightsAttrName());
  }
};
} // namespace
