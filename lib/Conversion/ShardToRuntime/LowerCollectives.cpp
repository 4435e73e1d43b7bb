//===- LowerCollectives.cpp - shard collectives as runtime calls ----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Upstream lowers only shard.all_reduce, to its mpi dialect; RLX's
// collectives go to the vendor's library (NCCL) or to the CPU runtime's
// shared memory, through one C ABI (RLX/Runtime/Common/Collectives.h), so
// this lowering is RLX's own. It runs on tensors, before bufferization: the
// runtime reads and writes contiguous buffers (bufferization.to_buffer
// makes a strided view contiguous), and the layout work around the calls
// (a gather along an inner axis) is linalg.transpose and reshapes that the
// pipelines compile as any other.
//
//===----------------------------------------------------------------------===//

#include "RLX/Conversion/BufferAddress.h"
#include "RLX/Conversion/Passes.h"
#include "RLX/Runtime/Common/Collectives.h"
#include "ScheduleCollectives.h"

#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_LOWERCOLLECTIVESPASS
#include "RLX/Conversion/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {

/// RlxCollectiveType of an element type, or -1.
int32_t collectiveType(Type element) {
  if (element.isF32())
    return RLX_COLLECTIVE_F32;
  if (element.isF64())
    return RLX_COLLECTIVE_F64;
  if (element.isBF16())
    return RLX_COLLECTIVE_BF16;
  if (element.isF16())
    return RLX_COLLECTIVE_F16;
  if (element.isInteger(32))
    return RLX_COLLECTIVE_I32;
  if (element.isInteger(64))
    return RLX_COLLECTIVE_I64;
  return -1;
}

/// RlxCollectiveReduction of `op`'s reduction `kind`, or an error at `op`.
FailureOr<int32_t> reductionCode(Operation *op, shard::ReductionKind kind) {
  switch (kind) {
  case shard::ReductionKind::Sum:
    return RLX_COLLECTIVE_SUM;
  case shard::ReductionKind::Product:
    return RLX_COLLECTIVE_PRODUCT;
  case shard::ReductionKind::Max:
    return RLX_COLLECTIVE_MAX;
  case shard::ReductionKind::Min:
    return RLX_COLLECTIVE_MIN;
  default:
    return op->emitOpError("reduces with ")
           << shard::stringifyReductionKind(kind)
           << ", which RLX's collectives do not (sum, product, max and min)";
  }
}

/// The permutation moving dim `from` of a rank-`rank` tensor to `to`.
SmallVector<int64_t> moveDim(int64_t rank, int64_t from, int64_t to) {
  SmallVector<int64_t> order = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  order.erase(order.begin() + from);
  order.insert(order.begin() + to, from);
  return order;
}

/// Reassociation grouping dims `dim` and `dim + 1` of a rank-`rank` shape.
SmallVector<ReassociationIndices> mergeWithNext(int64_t rank, int64_t dim) {
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < rank; ++d) {
    if (d == dim + 1)
      groups.back().push_back(d);
    else
      groups.push_back({d});
  }
  return groups;
}

/// The first op of `op`'s block that reads `op`'s results (itself or in its
/// regions), else the block's terminator.
Operation *firstReader(Operation *op) {
  Block *block = op->getBlock();
  Operation *first = block->getTerminator();
  for (Operation *user : op->getUsers())
    if (Operation *reader = block->findAncestorOpInBlock(*user))
      if (reader->isBeforeInBlock(first))
        first = reader;
  return first;
}

/// Builds the calls of one collective.
struct CallBuilder {
  OpBuilder &b;
  Location loc;
  ModuleOp module;

  Value i64(int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 64); }
  Value i32(int32_t v) { return arith::ConstantIntOp::create(b, loc, v, 32); }

  func::FuncOp declare(StringRef name, FunctionType type) {
    if (auto fn = module.lookupSymbol<func::FuncOp>(name))
      return fn;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto fn = func::FuncOp::create(b, loc, name, type);
    fn.setPrivate();
    return fn;
  }

  Value rank() {
    func::FuncOp fn =
        declare("rlxCollectiveRank", b.getFunctionType({}, {b.getI64Type()}));
    return func::CallOp::create(b, loc, fn, ValueRange{}).getResult(0);
  }

  /// The process group over `axes` of `grid` (Collectives.h): the axes in
  /// their order as base-17 digits (axis + 1), the grid's index above bit
  /// 40 (one id per ordered set of axes: a runtime keeps one communicator
  /// per id, and the key depends on the order), then color, key and size
  /// from the rank's coordinates in the grid.
  SmallVector<Value> group(shard::GridOp grid, int64_t gridIndex,
                           ArrayRef<shard::GridAxis> axes) {
    ArrayRef<int64_t> shape = grid.getShape();
    Value r = rank();
    SmallVector<Value> coords(shape.size());
    int64_t stride = 1;
    for (int64_t d = shape.size() - 1; d >= 0; --d) {
      Value q = arith::DivUIOp::create(b, loc, r, i64(stride));
      coords[d] = arith::RemUIOp::create(b, loc, q, i64(shape[d]));
      stride *= shape[d];
    }
    auto linear = [&](ArrayRef<int64_t> dims) {
      Value index = i64(0);
      for (int64_t d : dims) {
        index = arith::MulIOp::create(b, loc, index, i64(shape[d]));
        index = arith::AddIOp::create(b, loc, index, coords[d]);
      }
      return index;
    };
    SmallVector<int64_t> on, off;
    int64_t id = 0, size = 1;
    for (shard::GridAxis axis : axes) {
      on.push_back(axis);
      id = id * 17 + axis + 1;
      size *= shape[axis];
    }
    id |= gridIndex << 40;
    for (int64_t d = 0, e = shape.size(); d < e; ++d)
      if (!llvm::is_contained(on, d))
        off.push_back(d);
    return {i64(id), linear(off), linear(on), i64(size)};
  }

  /// `tensor` as a contiguous buffer (read only).
  Value contiguous(Value tensor) {
    auto type = cast<RankedTensorType>(tensor.getType());
    auto memref = MemRefType::get(type.getShape(), type.getElementType());
    return bufferization::ToBufferOp::create(b, loc, memref, tensor,
                                             /*read_only=*/true);
  }

  Value address(Value buffer) { return rlx::alignedPointer(b, loc, buffer); }

  Value alloc(ArrayRef<int64_t> shape, Type element) {
    return memref::AllocOp::create(b, loc, MemRefType::get(shape, element),
                                   b.getI64IntegerAttr(64));
  }

  Value asTensor(Value buffer) {
    auto type = cast<MemRefType>(buffer.getType());
    return bufferization::ToTensorOp::create(
        b, loc, RankedTensorType::get(type.getShape(), type.getElementType()),
        buffer, /*restrict=*/true, /*writable=*/true);
  }

  Value transpose(Value tensor, ArrayRef<int64_t> permutation) {
    auto type = cast<RankedTensorType>(tensor.getType());
    SmallVector<int64_t> shape;
    for (int64_t d : permutation)
      shape.push_back(type.getDimSize(d));
    Value init = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
    return linalg::TransposeOp::create(b, loc, tensor, init, permutation)
        .getResult()[0];
  }

  /// Splits dim `dim` of `tensor` into [parts, size / parts] and moves the
  /// parts to the front: block j of the result is the j-th slice.
  Value blocksFirst(Value tensor, int64_t dim, int64_t parts) {
    auto type = cast<RankedTensorType>(tensor.getType());
    SmallVector<int64_t> shape = llvm::to_vector(type.getShape());
    shape[dim] /= parts;
    shape.insert(shape.begin() + dim, parts);
    Value split = tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get(shape, type.getElementType()), tensor,
        mergeWithNext(shape.size(), dim));
    if (dim == 0)
      return split;
    return transpose(split, moveDim(shape.size(), dim, 0));
  }

  /// The inverse: blocks [parts, ...] put side by side along dim `dim` of
  /// the block shape.
  Value blocksAlong(Value blocks, int64_t dim) {
    auto type = cast<RankedTensorType>(blocks.getType());
    int64_t rank = type.getRank();
    Value moved = dim == 0 ? blocks : transpose(blocks, moveDim(rank, 0, dim));
    auto movedType = cast<RankedTensorType>(moved.getType());
    SmallVector<int64_t> shape = llvm::to_vector(movedType.getShape());
    shape[dim] *= shape[dim + 1];
    shape.erase(shape.begin() + dim + 1);
    return tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get(shape, type.getElementType()), moved,
        mergeWithNext(rank, dim));
  }

  void call(StringRef name, ArrayRef<Value> args) {
    SmallVector<Type> types;
    for (Value arg : args)
      types.push_back(arg.getType());
    func::FuncOp fn = declare(name, b.getFunctionType(types, {}));
    func::CallOp::create(b, loc, fn, args);
  }
};

struct LowerCollectivesPass
    : public rlx::impl::LowerCollectivesPassBase<LowerCollectivesPass> {
  using LowerCollectivesPassBase::LowerCollectivesPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbols;
    SmallVector<shard::GridOp> grids =
        llvm::to_vector(module.getOps<shard::GridOp>());
    auto gridOf = [&](Operation *op, FlatSymbolRefAttr name,
                      int64_t &index) -> shard::GridOp {
      shard::GridOp grid = shard::getGridOrNull(op, name, symbols);
      index = llvm::find(grids, grid) - grids.begin();
      return grid;
    };

    if (overlap) {
      SmallVector<Block *> blocks;
      module.walk([&](Operation *op) {
        if (rlx::isShardCollective(op) &&
            !llvm::is_contained(blocks, op->getBlock()))
          blocks.push_back(op->getBlock());
      });
      for (Block *block : blocks)
        rlx::scheduleForOverlap(*block);
    }

    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<shard::ShardDialect>(op->getDialect()) && !isa<shard::GridOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      if (!carried) {
        op->emitOpError("needs collectives, which the runtime of target '")
            << target << "' does not carry (the CPU's and CUDA's do)";
        return signalPassFailure();
      }
      OpBuilder b(op);
      CallBuilder call{b, op->getLoc(), module};
      if (auto index = dyn_cast<shard::ProcessLinearIndexOp>(op)) {
        Value rank = arith::IndexCastOp::create(b, op->getLoc(),
                                                b.getIndexType(), call.rank());
        index.getResult().replaceAllUsesWith(rank);
        op->erase();
        continue;
      }
      if (failed(lowerCollective(op, call, gridOf)))
        return signalPassFailure();
    }
    for (shard::GridOp grid : grids)
      grid.erase();
  }

  LogicalResult
  lowerCollective(Operation *op, CallBuilder &call,
                  llvm::function_ref<shard::GridOp(Operation *,
                                                   FlatSymbolRefAttr,
                                                   int64_t &)>
                      gridOf) {
    if (!rlx::isShardCollective(op))
      return op->emitOpError("has no lowering to RLX's runtimes: only "
                             "all_reduce, all_gather, reduce_scatter, "
                             "all_to_all and process_linear_index do");
    Value input = op->getOperand(0);
    // Only an input that nothing else reads may stay in use past the call:
    // a later op could otherwise take its buffer to write in place.
    bool async = overlap && input.hasOneUse();
    auto inType = dyn_cast<RankedTensorType>(input.getType());
    auto outType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!inType || !outType || !inType.hasStaticShape() ||
        !outType.hasStaticShape())
      return op->emitOpError("needs static tensor shapes to call the "
                             "runtime's collectives");
    Type element = inType.getElementType();
    int32_t type = collectiveType(element);
    if (type < 0)
      return op->emitOpError("has element type ")
             << element
             << ", which RLX's collectives do not carry (f32, f64, bf16, "
                "f16, i32 and i64 are)";
    auto gridName = op->getAttrOfType<FlatSymbolRefAttr>("grid");
    int64_t gridIndex;
    shard::GridOp grid = gridOf(op, gridName, gridIndex);
    if (!grid)
      return op->emitOpError("names no shard.grid");
    auto axes = op->getAttrOfType<DenseI16ArrayAttr>("grid_axes");
    SmallVector<shard::GridAxis> gridAxes(axes.asArrayRef());
    int64_t parts = shard::collectiveProcessGroupSize(gridAxes, grid);
    SmallVector<Value> group = call.group(grid, gridIndex, gridAxes);
    // What each kind calls: its input as a contiguous buffer, the buffer
    // it writes, the call's arguments between them, and how the result is
    // read from the written buffer.
    Value inBuffer, outBuffer;
    StringRef name;
    SmallVector<Value> leading, trailing;
    std::function<Value(Value)> read = [](Value out) { return out; };
    if (auto reduce = dyn_cast<shard::AllReduceOp>(op)) {
      FailureOr<int32_t> reduction = reductionCode(op, reduce.getReduction());
      if (failed(reduction))
        return failure();
      name = "rlxCollectiveAllReduce";
      inBuffer = call.contiguous(input);
      outBuffer = call.alloc(outType.getShape(), element);
      leading = {call.i32(type), call.i32(*reduction)};
      trailing = {call.i64(inType.getNumElements())};
    } else if (auto gather = dyn_cast<shard::AllGatherOp>(op)) {
      int64_t axis = gather.getGatherAxis().getSExtValue();
      SmallVector<int64_t> blocks = llvm::to_vector(inType.getShape());
      blocks.insert(blocks.begin(), parts);
      name = "rlxCollectiveAllGather";
      inBuffer = call.contiguous(input);
      outBuffer = call.alloc(blocks, element);
      leading = {call.i32(type)};
      trailing = {call.i64(inType.getNumElements())};
      read = [&call, axis](Value out) { return call.blocksAlong(out, axis); };
    } else if (auto scatter = dyn_cast<shard::ReduceScatterOp>(op)) {
      FailureOr<int32_t> reduction =
          reductionCode(op, scatter.getReduction());
      if (failed(reduction))
        return failure();
      int64_t axis = scatter.getScatterAxis().getSExtValue();
      name = "rlxCollectiveReduceScatter";
      inBuffer = call.contiguous(call.blocksFirst(input, axis, parts));
      outBuffer = call.alloc(outType.getShape(), element);
      leading = {call.i32(type), call.i32(*reduction)};
      trailing = {call.i64(outType.getNumElements())};
    } else {
      auto toAll = cast<shard::AllToAllOp>(op);
      int64_t split = toAll.getSplitAxis().getSExtValue();
      int64_t concat = toAll.getConcatAxis().getSExtValue();
      Value blocks = call.blocksFirst(input, split, parts);
      auto blocksType = cast<RankedTensorType>(blocks.getType());
      name = "rlxCollectiveAllToAll";
      inBuffer = call.contiguous(blocks);
      outBuffer = call.alloc(blocksType.getShape(), element);
      leading = {call.i32(type)};
      trailing = {call.i64(inType.getNumElements() / parts)};
      read = [&call, concat](Value out) {
        return call.blocksAlong(out, concat);
      };
    }
    SmallVector<Value> args = leading;
    args.append({call.address(inBuffer), call.address(outBuffer)});
    args.append(trailing);
    args.append(group);
    call.call(async ? (name + "Async").str() : name.str(), args);
    if (async) {
      // The result is read, and the input may be reused, only after the
      // collective: the wait goes before the first reader, and its use of
      // the input keeps that buffer alive (unfreed, unplanned over) until
      // then.
      call.b.setInsertionPoint(firstReader(op));
      call.call("rlxCollectiveWait",
                {call.address(outBuffer), call.address(inBuffer)});
    }
    Value result = read(call.asTensor(outBuffer));
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
    return success();
  }
};

} // namespace
