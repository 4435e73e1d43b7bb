//===- SolveToLinalg.cpp - rlx.dense_solve by Gaussian elimination --------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx.dense_solve is Gaussian elimination with partial pivoting on the
// augmented matrix W = [A | B], then back substitution; O(n^3) per system.
// An scf.for over the pivot columns carries W: each step is an argmax
// reduction (every batch element's pivot row) and one linalg.generic that
// swaps the pivot row into place and eliminates below it. A second scf.for
// solves one row of X per step, from the last up. The batch dims are
// parallel dims of every generic, so all systems advance together.
// f16/bf16 solve in f32. A singular system divides by zero, which gives
// inf/NaN (undefined values) and never traps.
//
//===----------------------------------------------------------------------===//

#include "PatternGroups.h"
#include "Utils.h"

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::rlx;

/// a's and b's types with every dim static that either operand has static
/// (n: any of a's two matrix dims and b's rows). The verifier found them
/// compatible, so after casting to these types any tensor's sizes can
/// slice the others without a static/dynamic mismatch.
static std::pair<RankedTensorType, RankedTensorType>
refineTypes(RankedTensorType a, RankedTensorType b) {
  int64_t rank = a.getRank();
  SmallVector<int64_t> aShape(a.getShape()), bShape(b.getShape());
  for (int64_t i = 0; i < rank - 2; ++i)
    if (ShapedType::isDynamic(aShape[i]))
      aShape[i] = bShape[i];
  int64_t n = ShapedType::kDynamic;
  for (int64_t d : {aShape[rank - 2], aShape[rank - 1], bShape[rank - 2]})
    if (!ShapedType::isDynamic(d))
      n = d;
  aShape[rank - 2] = aShape[rank - 1] = n;
  for (int64_t i = 0; i < rank - 1; ++i)
    bShape[i] = aShape[i];
  return {a.clone(aShape), b.clone(bShape)};
}

/// Offsets, sizes and unit strides of rows [row, row + rows) and columns
/// [col, col + cols) of every matrix of `t` (all batch dims). The result
/// keeps the unit dims, so no rank-reduced slice has to say which to drop.
static void blockOf(OpBuilder &b, Location loc, Value t, OpFoldResult row,
                    OpFoldResult rows, OpFoldResult col, OpFoldResult cols,
                    SmallVectorImpl<OpFoldResult> &offsets,
                    SmallVectorImpl<OpFoldResult> &sizes,
                    SmallVectorImpl<OpFoldResult> &strides) {
  int64_t rank = cast<RankedTensorType>(t.getType()).getRank();
  for (int64_t i = 0; i < rank - 2; ++i) {
    offsets.push_back(b.getIndexAttr(0));
    sizes.push_back(tensor::getMixedSize(b, loc, t, i));
  }
  offsets.append({row, col});
  sizes.append({rows, cols});
  strides.assign(rank, b.getIndexAttr(1));
}

/// The block of rows [row, row + rows) and columns [col, col + cols) of
/// every matrix of `t`.
static Value extractBlock(OpBuilder &b, Location loc, Value t, OpFoldResult row,
                          OpFoldResult rows, OpFoldResult col,
                          OpFoldResult cols) {
  SmallVector<OpFoldResult> offsets, sizes, strides;
  blockOf(b, loc, t, row, rows, col, cols, offsets, sizes, strides);
  return tensor::ExtractSliceOp::create(b, loc, t, offsets, sizes, strides);
}

/// `into` with `block` written over its matrices from (row, col) on.
static Value insertBlock(OpBuilder &b, Location loc, Value block, Value into,
                         OpFoldResult row, OpFoldResult col) {
  auto type = cast<RankedTensorType>(block.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets, sizes, strides;
  OpFoldResult blockCols = tensor::getMixedSize(b, loc, block, rank - 1);
  OpFoldResult blockRows = tensor::getMixedSize(b, loc, block, rank - 2);
  blockOf(b, loc, into, row, blockRows, col, blockCols, offsets, sizes,
          strides);
  return tensor::InsertSliceOp::create(b, loc, block, into, offsets, sizes,
                                       strides);
}

/// The pivot of column j of every matrix of `w`: the largest |w[p, j]|
/// over rows p >= j, returned as (w[p, j], p - j), two tensors over the
/// batch dims. Ties keep the first row (as LAPACK); NaN never wins, and a
/// column of zeros keeps row j with a zero pivot.
static std::pair<Value, Value> findPivots(OpBuilder &b, Location loc, Value w,
                                          Value j, Value n) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(w.getType());
  int64_t numBatch = type.getRank() - 2;
  Value rows = arith::SubIOp::create(b, loc, n, j);
  Value column = extractBlock(b, loc, w, j, rows, j, b.getIndexAttr(1));
  // Loops (batch..., p - j).
  SmallVector<AffineExpr> columnExprs;
  for (int64_t d = 0; d <= numBatch; ++d)
    columnExprs.push_back(getAffineDimExpr(d, ctx));
  columnExprs.push_back(getAffineConstantExpr(0, ctx));
  AffineMap batchMap = getDropDimsMap(ctx, numBatch + 1, numBatch);
  SmallVector<utils::IteratorType> iterators(numBatch + 1,
                                             utils::IteratorType::parallel);
  iterators[numBatch] = utils::IteratorType::reduction;

  ArrayRef<int64_t> batchShape = type.getShape().take_front(numBatch);
  SmallVector<Value> dyn =
      getDynamicDimsExcept(b, loc, w, {numBatch, numBatch + 1});
  Type element = type.getElementType();
  auto valueType = RankedTensorType::get(batchShape, element);
  auto offsetType = RankedTensorType::get(batchShape, b.getIndexType());
  Value value = createFilled(b, loc, valueType, dyn,
                             createScalarConstant(b, loc, element, 0));
  Value offset = createFilled(b, loc, offsetType, dyn,
                              arith::ConstantIndexOp::create(b, loc, 0));
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{valueType, offsetType}, column,
      ValueRange{value, offset},
      ArrayRef<AffineMap>{AffineMap::get(numBatch + 1, 0, columnExprs, ctx),
                          batchMap, batchMap},
      iterators, [&](OpBuilder &nb, Location l, ValueRange args) {
        Value x = args[0], best = args[1], bestOffset = args[2];
        Value bestMagnitude = math::AbsFOp::create(nb, l, best);
        Value magnitude = math::AbsFOp::create(nb, l, x);
        Value larger = arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OGT,
                                             magnitude, bestMagnitude);
        Value at = linalg::IndexOp::create(nb, l, numBatch);
        linalg::YieldOp::create(
            nb, l,
            ValueRange{arith::SelectOp::create(nb, l, larger, x, best),
                       arith::SelectOp::create(nb, l, larger, at, bestOffset)});
      });
  return {generic.getResult(0), generic.getResult(1)};
}

/// One elimination step on `w` for column j: S is w with row j swapped
/// with each batch element's pivot row j + offset, and every row r > j of
/// S loses S[r, j] / S[j, j] times row j of S. Rows move, so the body reads
/// w by coordinates; rows above j come through unchanged.
static Value eliminate(OpBuilder &b, Location loc, Value w, Value j,
                       Value pivot, Value offset) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(w.getType());
  int64_t numBatch = type.getRank() - 2;
  AffineMap batchMap =
      getDropDimsMap(ctx, numBatch + 2, {numBatch, numBatch + 1});
  return buildMappedGeneric(
      b, loc, type, getDynamicDims(b, loc, w), ValueRange{pivot, offset},
      {batchMap, batchMap},
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        SmallVector<Value> coords;
        for (int64_t d = 0; d < numBatch; ++d)
          coords.push_back(linalg::IndexOp::create(nb, l, d));
        auto at = [&](Value row, Value col) -> Value {
          SmallVector<Value> c(coords);
          c.append({row, col});
          return tensor::ExtractOp::create(nb, l, w, c);
        };
        Value r = linalg::IndexOp::create(nb, l, numBatch);
        Value c = linalg::IndexOp::create(nb, l, numBatch + 1);
        Value p = arith::AddIOp::create(nb, l, j, args[1]);
        // Row r of S is row src of w.
        Value isJ =
            arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, r, j);
        Value isP =
            arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, r, p);
        Value src = arith::SelectOp::create(
            nb, l, isJ, p, arith::SelectOp::create(nb, l, isP, j, r));
        Value s = at(src, c);
        Value factor = arith::DivFOp::create(nb, l, at(src, j), args[0]);
        Value reduced = arith::SubFOp::create(
            nb, l, s, arith::MulFOp::create(nb, l, factor, at(p, c)));
        Value below =
            arith::CmpIOp::create(nb, l, arith::CmpIPredicate::ugt, r, j);
        return arith::SelectOp::create(nb, l, below, reduced, s);
      });
}

/// `x` with row i set to (W[i, n:] - W[i, :n] x) / W[i, i], W upper
/// triangular on the left. Rows i and above of x are still zero, so the
/// product sums only the rows already solved.
static Value substituteRow(OpBuilder &b, Location loc, Value w, Value x,
                           Value i, Value n) {
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  OpFoldResult one = b.getIndexAttr(1);
  OpFoldResult k = tensor::getMixedSize(b, loc, x, rank - 1);
  Value lhs =
      extractBlock(b, loc, w, i, one, b.getIndexAttr(0), getAsOpFoldResult(n));
  Value rhs = extractBlock(b, loc, w, i, one, n, k);
  Value diag = extractBlock(b, loc, w, i, one, i, one);
  auto rowType = cast<RankedTensorType>(rhs.getType());
  Value solved = buildMatmul(b, loc, lhs, x, /*transposeA=*/false,
                             /*transposeB=*/false, rowType);
  Value row = buildElementwiseGeneric(
      b, loc, rowType, ValueRange{rhs, solved, diag},
      [](OpBuilder &nb, Location l, ValueRange args) -> Value {
        return arith::DivFOp::create(
            nb, l, arith::SubFOp::create(nb, l, args[0], args[1]), args[2]);
      });
  return insertBlock(b, loc, row, x, i, b.getIndexAttr(0));
}

namespace {

struct DenseSolvePattern : OpConversionPattern<DenseSolveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DenseSolveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto [aType, bType] =
        refineTypes(cast<RankedTensorType>(adaptor.getA().getType()),
                    cast<RankedTensorType>(adaptor.getB().getType()));
    Type element = aType.getElementType();
    Type acc = getAccumulatorType(element);
    auto refine = [&](Value v, RankedTensorType type) -> Value {
      if (v.getType() == type)
        return v;
      return tensor::CastOp::create(rewriter, loc, type, v);
    };
    Value a = castTensor(rewriter, loc, refine(adaptor.getA(), aType), acc);
    Value b = castTensor(rewriter, loc, refine(adaptor.getB(), bType), acc);
    int64_t rank = aType.getRank();

    // W = [A | B]: [..., n, n + k].
    Value n = getDimSize(rewriter, loc, a, rank - 1);
    SmallVector<int64_t> wShape(bType.getShape());
    SmallVector<Value> wDyn = getDynamicDimsExcept(rewriter, loc, a, rank - 1);
    if (ShapedType::isDynamic(aType.getDimSize(rank - 1)) ||
        bType.isDynamicDim(rank - 1)) {
      wShape.back() = ShapedType::kDynamic;
      wDyn.push_back(arith::AddIOp::create(
          rewriter, loc, n, getDimSize(rewriter, loc, b, rank - 1)));
    } else {
      wShape.back() += aType.getDimSize(rank - 1);
    }
    Value w = tensor::EmptyOp::create(rewriter, loc, wShape, acc, wDyn);
    OpFoldResult zeroAttr = rewriter.getIndexAttr(0);
    w = insertBlock(rewriter, loc, a, w, zeroAttr, zeroAttr);
    w = insertBlock(rewriter, loc, b, w, zeroAttr, n);

    // The last column has no rows below it to eliminate.
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value last = arith::SubIOp::create(rewriter, loc, n, one);
    auto elimination = scf::ForOp::create(
        rewriter, loc, zero, last, one, ValueRange{w},
        [&](OpBuilder &nb, Location l, Value j, ValueRange iter) {
          auto [pivot, offset] = findPivots(nb, l, iter[0], j, n);
          scf::YieldOp::create(nb, l,
                               eliminate(nb, l, iter[0], j, pivot, offset));
        });
    w = elimination.getResult(0);

    Value zeroAcc = createScalarConstant(rewriter, loc, acc, 0);
    Value x0 = createFilled(rewriter, loc, cast<RankedTensorType>(b.getType()),
                            getDynamicDims(rewriter, loc, b), zeroAcc);
    auto substitution = scf::ForOp::create(
        rewriter, loc, zero, n, one, ValueRange{x0},
        [&](OpBuilder &nb, Location l, Value step, ValueRange iter) {
          Value i = arith::SubIOp::create(nb, l, last, step);
          scf::YieldOp::create(nb, l, substituteRow(nb, l, w, iter[0], i, n));
        });
    Value x = castTensor(rewriter, loc, substitution.getResult(0), element);
    rewriter.replaceOp(op, refine(x, op.getType()));
    return success();
  }
};

} // namespace

void rlx::populateSolveToLinalgPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<DenseSolvePattern>(converter, patterns.getContext());
}
