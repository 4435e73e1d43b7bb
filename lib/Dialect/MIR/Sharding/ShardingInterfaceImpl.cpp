//===- ShardingInterfaceImpl.cpp - rlx ops as shardable ops ---------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each rlx op is described by a loop space (LoopSpace): its loops, which of
// them reduce and with what, which must stay whole on one device, and for
// each dim of each operand and result the loop it runs along. One model
// over that description implements upstream's ShardingInterface.
//
// Why not upstream's default implementations over indexing maps: rlx ops
// broadcast NumPy-style (a size-1 dim of an operand runs along a loop it
// must not be split on, which an affine map cannot say: the defaults
// reject constant results), rlx.reshape's dims correspond by groups (no
// affine map at all), and some loops of an op must stay whole (a norm's
// normalized axis, a softmax's axis, attention's sequence and head dims).
// A split that an op cannot take is dropped from its sharding option, so
// the partition reshards (all-gathers) there instead of computing wrongly.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/Sharding/ShardingInterfaceImpl.h"

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "mlir/Dialect/Func/Extensions/ShardingExtensions.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterface.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterfaceImpl.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using shard::GridAxis;
using shard::ReductionKind;
using shard::Sharding;
using shard::ShardingOption;
using utils::IteratorType;

namespace {

/// A dim that no loop of the op can be split along: a size-1 dim that
/// broadcasts, or one that a loop runs over only in part (a reshape's
/// inner dims).
constexpr int64_t kNoLoop = -1;

/// How an op iterates: see the file comment.
struct LoopSpace {
  SmallVector<IteratorType> iterators;
  /// Per operand, then per result: the loop of each dim, or kNoLoop.
  SmallVector<SmallVector<int64_t>> dimLoops;
  /// Loops that must not be split.
  SmallVector<bool> whole;
  /// How the reduction loops combine partial results.
  ReductionKind reduction = ReductionKind::Sum;
  /// Why the op cannot be described, where it cannot.
  std::string unsupported;
};

LoopSpace unsupported(const Twine &why) {
  LoopSpace space;
  space.unsupported = why.str();
  return space;
}

int64_t rankOf(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type ? type.getRank() : 0;
}

/// The loops of an operand broadcast NumPy-style against loops
/// 0 .. resultShape.size(): its dims align with the trailing loops, and a
/// size-1 dim of a larger loop runs along none.
SmallVector<int64_t> broadcastLoops(Value operand,
                                    ArrayRef<int64_t> resultShape,
                                    int64_t firstLoop = 0) {
  auto type = cast<RankedTensorType>(operand.getType());
  int64_t lead = static_cast<int64_t>(resultShape.size()) - type.getRank();
  SmallVector<int64_t> loops;
  for (int64_t dim = 0; dim < type.getRank(); ++dim) {
    int64_t loop = dim + lead;
    bool broadcasts =
        type.getDimSize(dim) == 1 && resultShape[loop] != 1;
    loops.push_back(broadcasts ? kNoLoop : loop + firstLoop);
  }
  return loops;
}

SmallVector<int64_t> identityLoops(int64_t rank) {
  return llvm::to_vector(llvm::seq<int64_t>(0, rank));
}

/// Every loop parallel over the result's dims, every operand broadcast
/// against it: the elementwise ops, rlx.expand, and (with whole loops) the
/// norms, softmax and rope.
LoopSpace elementwiseSpace(Operation *op) {
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!result || !result.hasStaticShape())
    return unsupported("needs a static result shape");
  LoopSpace space;
  space.iterators.assign(result.getRank(), IteratorType::parallel);
  space.whole.assign(result.getRank(), false);
  for (Value operand : op->getOperands()) {
    if (!isa<RankedTensorType>(operand.getType()) ||
        rankOf(operand) > result.getRank())
      return unsupported("has an operand that does not broadcast to the "
                         "result");
    space.dimLoops.push_back(broadcastLoops(operand, result.getShape()));
  }
  space.dimLoops.push_back(identityLoops(result.getRank()));
  return space;
}

/// Loops: the result's batch dims, m, n, then k (reducing with a sum).
LoopSpace matmulSpace(rlx::MatmulOp op) {
  auto lhs = cast<RankedTensorType>(op.getLhs().getType());
  auto rhs = cast<RankedTensorType>(op.getRhs().getType());
  auto result = cast<RankedTensorType>(op.getType());
  if (lhs.getRank() < 2 || rhs.getRank() < 2 || !result.hasStaticShape())
    return unsupported("needs operands of rank 2 or more and a static "
                       "result");
  int64_t batch = result.getRank() - 2;
  int64_t m = batch, n = batch + 1, k = batch + 2;
  LoopSpace space;
  space.iterators.assign(batch + 2, IteratorType::parallel);
  space.iterators.push_back(IteratorType::reduction);
  space.whole.assign(batch + 3, false);
  auto operandLoops = [&](RankedTensorType type, int64_t rows, int64_t cols,
                          bool transposed) {
    SmallVector<int64_t> loops;
    if (type.getRank() > 2) {
      // The batch dims broadcast against the result's.
      auto batchDims = result.getShape().take_front(batch);
      int64_t lead = batch - (type.getRank() - 2);
      for (int64_t dim = 0; dim < type.getRank() - 2; ++dim) {
        bool broadcasts =
            type.getDimSize(dim) == 1 && batchDims[dim + lead] != 1;
        loops.push_back(broadcasts ? kNoLoop : dim + lead);
      }
    }
    loops.push_back(transposed ? cols : rows);
    loops.push_back(transposed ? rows : cols);
    return loops;
  };
  space.dimLoops.push_back(
      operandLoops(lhs, m, k, op.getTransposeA()));
  space.dimLoops.push_back(
      operandLoops(rhs, k, n, op.getTransposeB()));
  space.dimLoops.push_back(identityLoops(result.getRank()));
  return space;
}

/// Result dim j runs along loop j; input dim permutation[j] with it.
LoopSpace transposeSpace(rlx::TransposeOp op) {
  ArrayRef<int64_t> permutation = op.getPermutation();
  LoopSpace space;
  int64_t rank = permutation.size();
  space.iterators.assign(rank, IteratorType::parallel);
  space.whole.assign(rank, false);
  SmallVector<int64_t> inputLoops(rank, kNoLoop);
  for (auto [loop, dim] : llvm::enumerate(permutation))
    inputLoops[dim] = loop;
  space.dimLoops = {inputLoops, identityLoops(rank)};
  return space;
}

/// Loops: the result's dims. Input and result dims fall into groups of
/// equal element count; the leading dims of a group split alike (a
/// [.., H * D] split in n is [.., H, D] split in n on H when n divides H),
/// the others not.
LoopSpace reshapeSpace(rlx::ReshapeOp op) {
  auto input = cast<RankedTensorType>(op.getInput().getType());
  auto result = cast<RankedTensorType>(op.getType());
  if (!input.hasStaticShape() || !result.hasStaticShape())
    return unsupported("needs static shapes");
  LoopSpace space;
  space.iterators.assign(result.getRank(), IteratorType::parallel);
  space.whole.assign(result.getRank(), false);
  SmallVector<int64_t> inputLoops(input.getRank(), kNoLoop);
  int64_t i = 0, j = 0;
  while (i < input.getRank() && j < result.getRank()) {
    int64_t firstI = i, firstJ = j;
    int64_t in = input.getDimSize(i++), out = result.getDimSize(j++);
    while (in != out) {
      if (in < out && i < input.getRank())
        in *= input.getDimSize(i++);
      else if (out < in && j < result.getRank())
        out *= result.getDimSize(j++);
      else
        break;
    }
    if (in == out)
      inputLoops[firstI] = firstJ;
  }
  // Inner result dims of a group are loops no input dim runs along: they
  // must stay whole.
  for (int64_t loop = 0; loop < result.getRank(); ++loop)
    space.whole[loop] = !llvm::is_contained(inputLoops, loop);
  space.dimLoops = {inputLoops, identityLoops(result.getRank())};
  return space;
}

/// rlx.reduce: the input's dims are the loops, the reduced ones reduce by
/// `kind` (a mean's loops stay whole: the mean of means is not shard's).
LoopSpace reduceSpace(rlx::ReduceOp op) {
  auto input = cast<RankedTensorType>(op.getInput().getType());
  int64_t rank = input.getRank();
  LoopSpace space;
  space.iterators.assign(rank, IteratorType::parallel);
  space.whole.assign(rank, false);
  SmallVector<bool> reduced(rank, false);
  for (int64_t axis : op.getAxes())
    reduced[axis < 0 ? axis + rank : axis] = true;
  switch (op.getKind()) {
  case rlx::ReduceKind::Sum:
    space.reduction = ReductionKind::Sum;
    break;
  case rlx::ReduceKind::Max:
    space.reduction = ReductionKind::Max;
    break;
  case rlx::ReduceKind::Min:
    space.reduction = ReductionKind::Min;
    break;
  case rlx::ReduceKind::Prod:
    space.reduction = ReductionKind::Product;
    break;
  default:
    space.reduction = ReductionKind::Generic;
    break;
  }
  SmallVector<int64_t> resultLoops;
  for (int64_t loop = 0; loop < rank; ++loop) {
    if (reduced[loop]) {
      space.iterators[loop] = IteratorType::reduction;
      space.whole[loop] = space.reduction == ReductionKind::Generic;
      if (op.getKeepdim())
        resultLoops.push_back(kNoLoop);
    } else {
      resultLoops.push_back(loop);
    }
  }
  space.dimLoops = {identityLoops(rank), resultLoops};
  return space;
}

/// rlx.attention over [batch, heads, seq, head dim]: loops b, h, s, t (the
/// keys, reducing), d; only b and h split (k and v split their heads as q:
/// with GQA each device keeps its query heads' key/value heads).
LoopSpace attentionSpace(rlx::AttentionOp op) {
  if (rankOf(op.getQuery()) != 4 || rankOf(op.getKey()) != 4)
    return unsupported("needs [batch, heads, seq, head dim] operands");
  enum { B, H, S, T, D };
  LoopSpace space;
  space.iterators = {IteratorType::parallel, IteratorType::parallel,
                     IteratorType::parallel, IteratorType::reduction,
                     IteratorType::parallel};
  space.whole = {false, false, true, true, true};
  space.dimLoops = {{B, H, S, D}, {B, H, T, D}, {B, H, T, D}};
  if (Value mask = op.getAttnMask()) {
    auto query = cast<RankedTensorType>(op.getQuery().getType());
    auto key = cast<RankedTensorType>(op.getKey().getType());
    SmallVector<int64_t> scores = {query.getDimSize(0), query.getDimSize(1),
                                   query.getDimSize(2), key.getDimSize(2)};
    if (rankOf(mask) > 4)
      return unsupported("has a mask of rank above 4");
    space.dimLoops.push_back(broadcastLoops(mask, scores));
  }
  space.dimLoops.push_back({B, H, S, D});
  return space;
}

/// Marks loop `axis` (negative from the end) of an elementwise space whole.
LoopSpace withWholeAxis(LoopSpace space, int64_t axis) {
  if (!space.unsupported.empty())
    return space;
  int64_t rank = space.whole.size();
  space.whole[axis < 0 ? axis + rank : axis] = true;
  return space;
}

LoopSpace describeLoops(Operation *op) {
  return llvm::TypeSwitch<Operation *, LoopSpace>(op)
      .Case([](rlx::MatmulOp op) { return matmulSpace(op); })
      .Case([](rlx::TransposeOp op) { return transposeSpace(op); })
      .Case([](rlx::ReshapeOp op) { return reshapeSpace(op); })
      .Case([](rlx::ReduceOp op) { return reduceSpace(op); })
      .Case([](rlx::AttentionOp op) { return attentionSpace(op); })
      .Case<rlx::LayerNormOp, rlx::RmsNormOp, rlx::RopeOp>(
          [](Operation *op) { return withWholeAxis(elementwiseSpace(op), -1); })
      // Whole along `axis`: a softmax's reduction, a slice's or a join's
      // axis; the other dims elementwise (split alike in and out).
      .Case<rlx::SoftmaxOp, rlx::LogSoftmaxOp, rlx::NarrowOp,
            rlx::ConcatOp>([](Operation *op) {
        return withWholeAxis(elementwiseSpace(op),
                             op->getAttrOfType<IntegerAttr>("axis").getInt());
      })
      .Default([](Operation *op) { return elementwiseSpace(op); });
}

/// The op's operands, then its results: the order of LoopSpace::dimLoops.
SmallVector<Value> operandsAndResults(Operation *op) {
  SmallVector<Value> values(op->getOperands());
  llvm::append_range(values, op->getResults());
  return values;
}

/// The sharding of `value` (dims running along `loops`) when the op's loops
/// split as `option` says.
Sharding valueSharding(Value value, ArrayRef<int64_t> loops,
                       const ShardingOption &option) {
  if (!isa<RankedTensorType>(value.getType()))
    return Sharding();
  SmallVector<SmallVector<GridAxis>> split(loops.size());
  for (auto [dim, loop] : llvm::enumerate(loops))
    if (loop != kNoLoop &&
        loop < static_cast<int64_t>(option.shardingArray.size()))
      split[dim] = option.shardingArray[loop];
  shard::removeTrailingEmptySubArray(split);
  SmallVector<shard::GridAxesAttr> axes;
  for (ArrayRef<GridAxis> dims : split)
    axes.push_back(shard::GridAxesAttr::get(value.getContext(), dims));
  return Sharding::get(option.grid, axes);
}

/// The shardings of the op's operands, then results, when its loops split as
/// `option` says.
std::vector<Sharding> shardingsOf(Operation *op, const LoopSpace &space,
                                  const ShardingOption &option) {
  std::vector<Sharding> shardings;
  for (auto [value, loops] :
       llvm::zip_equal(operandsAndResults(op), space.dimLoops))
    shardings.push_back(valueSharding(value, loops, option));
  return shardings;
}

/// Drops the split of every loop that some dim running along it does not
/// divide into (a reshape's [8, 6] -> [8, 3, 2] split in 2 on the 6
/// splits the 3 too): the op then runs on the whole loop, the partition
/// gathering its operands, instead of an error at the value.
void dropUnevenSplits(Operation *op, const LoopSpace &space,
                      ShardingOption &option) {
  if (!option.grid)
    return;
  SymbolTableCollection symbols;
  shard::GridOp grid = shard::getGridOrNull(op, option.grid, symbols);
  if (!grid || ShapedType::isDynamicShape(grid.getShape()))
    return;
  for (auto [value, loops] :
       llvm::zip_equal(operandsAndResults(op), space.dimLoops)) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      continue;
    for (auto [dim, loop] : llvm::enumerate(loops)) {
      if (loop == kNoLoop ||
          loop >= static_cast<int64_t>(option.shardingArray.size()) ||
          option.shardingArray[loop].empty())
        continue;
      int64_t devices =
          shard::collectiveProcessGroupSize(option.shardingArray[loop], grid);
      int64_t size = type.getDimSize(dim);
      if (ShapedType::isDynamic(size) || size % devices != 0)
        option.shardingArray[loop].clear();
    }
  }
}

/// How the loops of `space` split, read from the given shardings of the
/// op's operands and results (results first, as upstream's default does);
/// a split that conflicts with one already taken, of a whole loop, or that
/// a dim along the loop does not divide into, is not taken.
ShardingOption loopSplits(Operation *op, const LoopSpace &space,
                          ArrayRef<Sharding> operandShardings,
                          ArrayRef<Sharding> resultShardings) {
  ShardingOption option;
  option.shardingArray.resize(space.iterators.size());
  auto take = [&](const Sharding &sharding, ArrayRef<int64_t> loops) {
    if (!sharding)
      return;
    if (!option.grid)
      option.grid = sharding.getGridAttr();
    if (option.grid != sharding.getGridAttr())
      return;
    for (auto [dim, axes] : llvm::enumerate(sharding.getSplitAxes())) {
      ArrayRef<GridAxis> split = axes.asArrayRef();
      if (split.empty() || dim >= loops.size() || loops[dim] == kNoLoop)
        continue;
      int64_t loop = loops[dim];
      if (space.whole[loop] || !option.shardingArray[loop].empty())
        continue;
      bool used = llvm::any_of(option.shardingArray, [&](auto &taken) {
        return llvm::any_of(split, [&](GridAxis axis) {
          return llvm::is_contained(taken, axis);
        });
      });
      if (used)
        continue;
      option.shardingArray[loop].assign(split.begin(), split.end());
    }
  };
  unsigned numOperands = op->getNumOperands();
  for (auto [index, sharding] : llvm::enumerate(resultShardings))
    take(sharding, space.dimLoops[numOperands + index]);
  for (auto [index, sharding] : llvm::enumerate(operandShardings))
    take(sharding, space.dimLoops[index]);
  dropUnevenSplits(op, space, option);
  shard::removeTrailingEmptySubArray(option.shardingArray);
  return option;
}

template <typename Op>
struct LoopSpaceShardingModel
    : public shard::ShardingInterface::ExternalModel<LoopSpaceShardingModel<Op>,
                                                     Op> {
  SmallVector<IteratorType> getLoopIteratorTypes(Operation *op) const {
    return describeLoops(op).iterators;
  }

  SmallVector<ReductionKind>
  getReductionLoopIteratorKinds(Operation *op) const {
    LoopSpace space = describeLoops(op);
    return SmallVector<ReductionKind>(
        llvm::count(space.iterators, IteratorType::reduction),
        space.reduction);
  }

  /// Informative only (this model's methods read LoopSpace): a dim that
  /// runs along no loop reads as the constant 0.
  SmallVector<AffineMap> getIndexingMaps(Operation *op) const {
    LoopSpace space = describeLoops(op);
    SmallVector<AffineMap> maps;
    for (ArrayRef<int64_t> loops : space.dimLoops) {
      SmallVector<AffineExpr> exprs;
      for (int64_t loop : loops)
        exprs.push_back(loop == kNoLoop
                            ? getAffineConstantExpr(0, op->getContext())
                            : getAffineDimExpr(loop, op->getContext()));
      maps.push_back(
          AffineMap::get(space.iterators.size(), 0, exprs, op->getContext()));
    }
    return maps;
  }

  FailureOr<ShardingOption>
  getShardingOption(Operation *op, ArrayRef<Sharding> operandShardings,
                    ArrayRef<Sharding> resultShardings) const {
    LoopSpace space = describeLoops(op);
    if (!space.unsupported.empty())
      return op->emitOpError("cannot be sharded: it ") << space.unsupported;
    ShardingOption option =
        loopSplits(op, space, operandShardings, resultShardings);
    // Replicated neighbours are information too (as in upstream's default):
    // the op is then annotated replicated.
    if (!option.grid)
      return ShardingOption::makeEmpty();
    return option;
  }

  FailureOr<std::vector<Sharding>>
  getShardingAnnotations(Operation *op, const ShardingOption &option) const {
    LoopSpace space = describeLoops(op);
    if (!space.unsupported.empty())
      return failure();
    return shardingsOf(op, space, option);
  }

  LogicalResult addShardingAnnotations(Operation *op, OpBuilder &b,
                                       const ShardingOption &option) const {
    FailureOr<std::vector<Sharding>> shardings =
        getShardingAnnotations(op, option);
    if (failed(shardings))
      return failure();
    unsigned numOperands = op->getNumOperands();
    for (OpResult result : op->getResults())
      if (Sharding sharding = (*shardings)[numOperands + result.getResultNumber()])
        shard::maybeInsertTargetShardingAnnotation(sharding, result, b);
    for (OpOperand &operand : op->getOpOperands()) {
      OpBuilder::InsertionGuard guard(b);
      if (Sharding sharding = (*shardings)[operand.getOperandNumber()])
        shard::maybeInsertSourceShardingAnnotation(sharding, operand, b);
    }
    return success();
  }

  /// The op on the local shards, then, where a reduction loop is split,
  /// an all-reduce of its partial results over those grid axes.
  LogicalResult partition(Operation *op, ArrayRef<Value> partitionedOperands,
                          ArrayRef<Sharding> operandShardings,
                          ArrayRef<Sharding> resultShardings,
                          IRMapping &partitionMap,
                          SymbolTableCollection &symbolTable,
                          OpBuilder &builder) const {
    LoopSpace space = describeLoops(op);
    if (!space.unsupported.empty())
      return op->emitOpError("cannot be sharded: it ") << space.unsupported;
    ShardingOption option =
        loopSplits(op, space, operandShardings, resultShardings);
    // The shardings around the op must be the ones its option gives: the
    // propagation annotated them so, and the partition resharded to them.
    std::vector<Sharding> expected = shardingsOf(op, space, option);
    for (auto [index, sharding] : llvm::enumerate(operandShardings))
      if (sharding && expected[index] &&
          !sharding.equalSplitAxes(expected[index]))
        return op->emitOpError("operand ")
               << index << " is sharded across loops the op splits otherwise";
    SmallVector<GridAxis> reductionAxes;
    for (auto [loop, axes] : llvm::enumerate(option.shardingArray))
      if (space.iterators[loop] == IteratorType::reduction)
        llvm::append_range(reductionAxes, axes);
    if (!reductionAxes.empty() && space.reduction == ReductionKind::Generic)
      return op->emitOpError("cannot be sharded along its reduction");
    shard::partitionTriviallyShardableOperation(*op, partitionedOperands,
                                                operandShardings,
                                                resultShardings, partitionMap,
                                                symbolTable, builder);
    if (reductionAxes.empty())
      return success();
    for (auto [result, sharding] :
         llvm::zip_equal(op->getResults(), resultShardings)) {
      Value partial = partitionMap.lookup(result);
      Value reduced = shard::AllReduceOp::create(
          builder, op->getLoc(), partial, sharding.getGrid(), reductionAxes,
          space.reduction);
      partitionMap.map(result, reduced);
    }
    return success();
  }
};

template <typename... Ops>
void attachModels(MLIRContext *context) {
  (Ops::template attachInterface<LoopSpaceShardingModel<Ops>>(*context), ...);
}

} // namespace

void rlx::registerShardingInterfaceModels(DialectRegistry &registry) {
  func::registerShardingInterfaceExternalModels(registry);
  registry.addExtension(+[](MLIRContext *context, RLXDialect *) {
    // shard-partition creates shard collectives among rlx ops.
    context->getOrLoadDialect<shard::ShardDialect>();
    attachModels<
        // Elementwise, broadcasting NumPy-style.
        GeluOp, SiluOp, ReluOp, SigmoidOp, TanhOp, ExpOp, LogOp, SqrtOp,
        RsqrtOp, NegOp, AbsOp, SinOp, CosOp, TanOp, AtanOp, RoundOp, AddOp,
        SubOp, MulOp, DivOp, MaxOp, MinOp, PowOp, CmpOp, WhereOp, FmaOp,
        CastOp, StopGradientOp, ExpandOp,
        // With a loop that stays whole.
        LayerNormOp, RmsNormOp, RopeOp, SoftmaxOp, LogSoftmaxOp, NarrowOp,
        ConcatOp,
        // Their own loop spaces.
        MatmulOp, TransposeOp, ReshapeOp, ReduceOp, AttentionOp>(context);
  });
}
