//===- DataParallel.cpp - average rlx.grad's results over processes -------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Data parallelism written as the collectives it needs rather than as a
// sharding of the batch: sharding propagation would have to see through
// the functions that rlx-expand-autodiff generates and give every backward
// op a model, while averaging the gradients that rlx.grad returns is what
// DDP does and what every loss that is a mean over its batch needs.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/Transforms/Passes.h"

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_DATAPARALLELPASS
#include "RLX/Dialect/MIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {

constexpr StringLiteral kGridName = "rlx_data_parallel";

int64_t bytesOf(RankedTensorType type) {
  return type.getNumElements() *
         ((type.getElementType().getIntOrFloatBitWidth() + 7) / 8);
}

/// The results of `grad` to average (float tensors: the loss and the
/// gradients but those with respect to `batchArgs`) split into buckets:
/// consecutive results of one element type, at most `limit` bytes each (a
/// larger one alone).
SmallVector<SmallVector<Value>> buckets(rlx::GradOp grad, int64_t limit,
                                        ArrayRef<int64_t> batchArgs) {
  SmallVector<SmallVector<Value>> result;
  int64_t bytes = 0;
  ArrayRef<int64_t> wrt = grad.getWrt();
  for (auto [index, value] : llvm::enumerate(grad.getResults())) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || !isa<FloatType>(type.getElementType()))
      continue;
    if (index > 0 && llvm::is_contained(batchArgs, wrt[index - 1]))
      continue;
    int64_t size = bytesOf(type);
    bool fits = !result.empty() && limit > 0 && bytes + size <= limit &&
                cast<RankedTensorType>(result.back().front().getType())
                        .getElementType() == type.getElementType();
    if (!fits) {
      result.emplace_back();
      bytes = 0;
    }
    result.back().push_back(value);
    bytes += size;
  }
  return result;
}

struct DataParallelPass
    : public rlx::impl::DataParallelPassBase<DataParallelPass> {
  using DataParallelPassBase::DataParallelPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (gridSize < 1) {
      module.emitError("rlx-data-parallel: grid-size must be at least 1, "
                       "got ")
          << static_cast<int64_t>(gridSize);
      return signalPassFailure();
    }
    SmallVector<rlx::GradOp> grads;
    module.walk([&](rlx::GradOp op) { grads.push_back(op); });
    if (grads.empty() || gridSize == 1)
      return;
    if (failed(declareGrid(module)))
      return signalPassFailure();
    for (rlx::GradOp grad : grads) {
      // The buckets in the results' order, after the grad.
      OpBuilder b(grad);
      b.setInsertionPointAfter(grad);
      for (ArrayRef<Value> bucket : buckets(grad, bucketBytes, batchArgs))
        average(b, grad.getLoc(), bucket);
      // The gradients with respect to this process's examples: of the
      // whole batch's mean, 1 / grid-size of the local mean's.
      for (auto [i, arg] : llvm::enumerate(grad.getWrt())) {
        if (!llvm::is_contained(batchArgs, arg))
          continue;
        Value value = grad.getResult(i + 1);
        auto type = dyn_cast<RankedTensorType>(value.getType());
        if (!type || !isa<FloatType>(type.getElementType()))
          continue;
        Value scaled =
            rlx::MulOp::create(b, grad.getLoc(), type, value,
                               reciprocal(b, grad.getLoc(),
                                          type.getElementType()));
        value.replaceAllUsesExcept(scaled, scaled.getDefiningOp());
      }
    }
  }

  LogicalResult declareGrid(ModuleOp module) {
    Operation *symbol = SymbolTable::lookupSymbolIn(module, kGridName);
    if (auto grid = dyn_cast_or_null<shard::GridOp>(symbol)) {
      if (grid.getShape() == ArrayRef<int64_t>{gridSize})
        return success();
    }
    if (symbol)
      return symbol->emitError("@")
             << kGridName << " is not a grid of "
             << static_cast<int64_t>(gridSize)
             << " devices, which rlx-data-parallel averages over";
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    shard::GridOp::create(b, module.getLoc(), kGridName,
                          ArrayRef<int64_t>{gridSize});
    return success();
  }

  /// 1 / grid-size as a scalar tensor of `element`.
  Value reciprocal(OpBuilder &b, Location loc, Type element) {
    auto scalar = RankedTensorType::get({}, element);
    return rlx::ConstantOp::create(
        b, loc, scalar,
        DenseElementsAttr::get(scalar,
                               b.getFloatAttr(element, 1.0 / gridSize)));
  }

  /// The bucket's values replaced by their mean over the grid: one
  /// all-reduce of their concatenation, scaled once.
  void average(OpBuilder &b, Location loc, ArrayRef<Value> bucket) {
    auto first = cast<RankedTensorType>(bucket.front().getType());
    Type element = first.getElementType();
    Value flat = bucket.front();
    // The bucket's own reads of its values (the flattening reshapes).
    llvm::SmallPtrSet<Operation *, 8> own;
    if (bucket.size() > 1) {
      SmallVector<Value> pieces;
      for (Value value : bucket) {
        auto type = cast<RankedTensorType>(value.getType());
        auto line = RankedTensorType::get({type.getNumElements()}, element);
        Value piece = rlx::ReshapeOp::create(b, loc, line, value);
        own.insert(piece.getDefiningOp());
        pieces.push_back(piece);
      }
      flat = rlx::ConcatOp::create(b, loc, pieces, uint64_t(0));
    }
    Value sum = shard::AllReduceOp::create(b, loc, flat, kGridName,
                                           ArrayRef<shard::GridAxis>{0},
                                           shard::ReductionKind::Sum);
    own.insert(sum.getDefiningOp());
    Value mean = rlx::MulOp::create(b, loc, sum.getType(), sum,
                                    reciprocal(b, loc, element));
    auto others = [&](OpOperand &use) { return !own.contains(use.getOwner()); };
    if (bucket.size() == 1) {
      Value value = bucket.front();
      value.replaceUsesWithIf(mean, others);
      return;
    }
    int64_t offset = 0;
    for (Value value : bucket) {
      auto type = cast<RankedTensorType>(value.getType());
      int64_t n = type.getNumElements();
      Value part = rlx::NarrowOp::create(b, loc, mean, uint64_t(0),
                                         uint64_t(offset), uint64_t(n));
      Value shaped = rlx::ReshapeOp::create(b, loc, type, part);
      offset += n;
      value.replaceUsesWithIf(shaped, others);
    }
  }
};

} // namespace
