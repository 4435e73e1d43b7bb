//===- MapLinalgBodies.cpp - loop bodies of the linalg kernels ------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the schedules of rlx-gpu-map-linalg share: a generic's operands
// loaded and stored at a loop point (as vectors of lanes along a contiguous
// innermost loop), its body cloned per lane, and the combiners of its
// reductions with their subgroup shuffles.
//
//===----------------------------------------------------------------------===//

#include "MapLinalg.h"

#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::kernels;
using namespace mlir::rlx::map_linalg;

SmallVector<Value> map_linalg::operandIndices(ImplicitLocOpBuilder &b,
                                              AffineMap map, ValueRange ivs) {
  SmallVector<Value> indices;
  for (unsigned r = 0; r < map.getNumResults(); ++r) {
    AffineExpr e = map.getResult(r);
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      indices.push_back(ivs[dim.getPosition()]);
    else
      indices.push_back(
          affine::AffineApplyOp::create(b, map.getSubMap({r}), ivs));
  }
  return indices;
}

/// True if operand `map` reads loop `d` only as its last, contiguous dim.
static bool readsAsLastDim(AffineMap map, unsigned d) {
  if (!map.isFunctionOfDim(d))
    return true;
  auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
  if (!last || last.getPosition() != d)
    return false;
  for (AffineExpr e : map.getResults().drop_back())
    if (e.isFunctionOfDim(d))
      return false;
  return true;
}

/// True if in `type` a multiple of `lanes` elements along the last dim is
/// as aligned as the buffer's base: the identity layout, or a strided view
/// (a slice of the columns, a transpose's source) whose last stride is 1
/// and whose offset and other strides are static multiples of `lanes`.
static bool alignsLanes(MemRefType type, int64_t lanes) {
  if (type.getLayout().isIdentity())
    return true;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.empty() ||
      strides.back() != 1 || ShapedType::isDynamic(offset) ||
      offset % lanes != 0)
    return false;
  return llvm::all_of(ArrayRef(strides).drop_back(), [&](int64_t stride) {
    return !ShapedType::isDynamic(stride) && stride % lanes == 0;
  });
}

int64_t map_linalg::vectorLanes(linalg::GenericOp op, unsigned d, int64_t range,
                                int64_t vectorBytes) {
  int64_t widest = 0;
  SmallVector<MemRefType> readers;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type)
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (!map.isFunctionOfDim(d))
      continue;
    // Complex and index elements have no bit width here: one lane.
    if (!type.getElementType().isIntOrFloat())
      return 1;
    unsigned bits = type.getElementTypeBitWidth();
    if (bits % 8)
      return 1;
    if (!readsAsLastDim(map, d))
      return 1;
    widest = std::max<int64_t>(widest, bits / 8);
    readers.push_back(type);
  }
  if (widest == 0)
    return 1;
  int64_t lanes = vectorBytes / widest;
  if (lanes == 1 || range % lanes != 0)
    return 1;
  // Each reader loads `lanes` elements: their address must be a multiple
  // of lanes elements from the buffer's base.
  for (MemRefType type : readers)
    if (!alignsLanes(type, lanes))
      return 1;
  return lanes;
}

SmallVector<Value> map_linalg::loadLanes(ImplicitLocOpBuilder &b,
                                         linalg::GenericOp op,
                                         OpOperand &operand, ValueRange ivs,
                                         unsigned d, int64_t lanes) {
  Value source = operand.get();
  if (!isa<MemRefType>(source.getType()))
    return SmallVector<Value>(lanes, source);
  AffineMap map = op.getMatchingIndexingMap(&operand);
  SmallVector<Value> indices = operandIndices(b, map, ivs);
  if (lanes == 1 || !map.isFunctionOfDim(d))
    return SmallVector<Value>(lanes,
                              memref::LoadOp::create(b, source, indices));
  Type elem = cast<MemRefType>(source.getType()).getElementType();
  auto vecType = VectorType::get({lanes}, elem);
  Value vec = vector::LoadOp::create(
      b, vecType, source, indices, /*nontemporal=*/false,
      llvm::MaybeAlign(lanes * elem.getIntOrFloatBitWidth() / 8));
  SmallVector<Value> out;
  for (int64_t l = 0; l < lanes; ++l)
    out.push_back(vector::ExtractOp::create(b, vec, l));
  return out;
}

Value map_linalg::unusedOutput(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                               OpOperand &init) {
  return ub::PoisonOp::create(b, op.getMatchingBlockArgument(&init).getType());
}

void map_linalg::storeLanes(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                            OpOperand &operand, ValueRange ivs,
                            ArrayRef<Value> values) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  SmallVector<Value> indices = operandIndices(b, map, ivs);
  if (values.size() == 1) {
    memref::StoreOp::create(b, values[0], operand.get(), indices);
    return;
  }
  auto vecType = VectorType::get({(int64_t)values.size()}, values[0].getType());
  Value vec = vector::FromElementsOp::create(b, vecType, values);
  vector::StoreOp::create(
      b, vec, operand.get(), indices, /*nontemporal=*/false,
      llvm::MaybeAlign(values.size() *
                       values[0].getType().getIntOrFloatBitWidth() / 8));
}

SmallVector<Value> map_linalg::cloneBody(ImplicitLocOpBuilder &b,
                                         linalg::GenericOp op, ValueRange ivs,
                                         ValueRange args) {
  IRMapping mapping;
  Block *body = op.getBlock();
  mapping.map(body->getArguments(), args);
  for (Operation &inner : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      mapping.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    b.clone(inner, mapping);
  }
  return llvm::map_to_vector(
      body->getTerminator()->getOperands(),
      [&](Value v) { return mapping.lookupOrDefault(v); });
}

SmallVector<SmallVector<Value>>
map_linalg::cloneBodyPerLane(ImplicitLocOpBuilder &b, linalg::GenericOp op,
                             ValueRange ivs, unsigned innermost, int64_t lanes,
                             ArrayRef<SmallVector<Value>> ins,
                             ArrayRef<SmallVector<Value>> outs) {
  SmallVector<SmallVector<Value>> results(op.getNumDpsInits());
  for (int64_t l = 0; l < lanes; ++l) {
    SmallVector<Value> laneIvs(ivs);
    if (l)
      laneIvs[innermost] =
          arith::AddIOp::create(b, ivs[innermost], indexConstant(b, l));
    SmallVector<Value> args;
    for (auto &values : ins)
      args.push_back(values[l]);
    for (auto &values : outs)
      args.push_back(values[l]);
    for (auto [r, v] : llvm::enumerate(cloneBody(b, op, laneIvs, args)))
      results[r].push_back(v);
  }
  return results;
}

std::optional<RowReduction> map_linalg::matchCombiner(linalg::GenericOp op,
                                                      unsigned i) {
  BlockArgument acc = op.getMatchingBlockArgument(&op.getDpsInitsMutable()[i]);
  Value yielded = op.getBlock()->getTerminator()->getOperand(i);
  Operation *combiner = yielded.getDefiningOp();
  if (!combiner || combiner->getNumOperands() != 2 || !acc.hasOneUse() ||
      combiner->getBlock() != op.getBlock())
    return std::nullopt;
  unsigned accOperand = combiner->getOperand(0) == acc ? 0 : 1;
  if (combiner->getOperand(accOperand) != acc)
    return std::nullopt;
  std::optional<TypedAttr> neutral = arith::getNeutralElement(combiner);
  Type type = acc.getType();
  if (!neutral || !(type.isF32() || type.isF64() || type.isInteger(32) ||
                    type.isInteger(64)))
    return std::nullopt;
  return RowReduction{combiner, accOperand, *neutral};
}

std::optional<RowReduction>
map_linalg::matchRowReduction(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0)
    return std::nullopt;
  auto iterators = op.getIteratorTypesArray();
  unsigned firstReduction = op.getNumParallelLoops();
  for (auto [i, it] : llvm::enumerate(iterators))
    if ((i < firstReduction) != (it == utils::IteratorType::parallel))
      return std::nullopt;
  return matchCombiner(op, 0);
}

Value map_linalg::combine(ImplicitLocOpBuilder &b, const RowReduction &red,
                          Value acc, Value x) {
  IRMapping mapping;
  mapping.map(red.combiner->getOperand(red.accOperand), acc);
  mapping.map(red.combiner->getOperand(1 - red.accOperand), x);
  return b.clone(*red.combiner, mapping)->getResult(0);
}

Value map_linalg::subgroupReduce(ImplicitLocOpBuilder &b,
                                 const RowReduction &red, Value value,
                                 int64_t subgroup) {
  for (int32_t offset = subgroup / 2; offset > 0; offset /= 2) {
    Value other = gpu::ShuffleOp::create(b, value, offset, subgroup,
                                         gpu::ShuffleMode::XOR)
                      .getShuffleResult();
    value = combine(b, red, value, other);
  }
  return value;
}

MemRefType map_linalg::subgroupWordsType(linalg::GenericOp op, int64_t block,
                                         int64_t subgroup) {
  Type accType = op.getBlock()->getArguments().back().getType();
  return workgroupMemRefType({block / subgroup}, accType);
}
