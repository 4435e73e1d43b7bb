//===- MatmulToLinalg.cpp - rlx.matmul to a linalg contraction ------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx.matmul becomes one contraction linalg.generic whose indexing maps
// carry the transposes and the broadcasting of batch dims, so no transposed
// or broadcast copy is made. f16/bf16 products accumulate in f32. Integer
// products wrap in the element width, which is the same for signed and
// unsigned integers, so the signless ops serve both.
//
//===----------------------------------------------------------------------===//

#include "PatternGroups.h"
#include "Utils.h"

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::rlx;

/// The map reading a matmul operand: its batch dims aligned at the end of
/// the `numBatch` result batch dims (size-1 dims stretching), then its two
/// matrix dims `rowDim`, `colDim` of the iteration space.
static AffineMap operandMap(MLIRContext *ctx, RankedTensorType type,
                            ArrayRef<int64_t> resultBatch, int64_t numLoops,
                            int64_t rowDim, int64_t colDim) {
  int64_t numBatch = resultBatch.size();
  int64_t ownBatch = type.getRank() - 2;
  SmallVector<AffineExpr> exprs;
  for (int64_t j = 0; j < ownBatch; ++j) {
    int64_t r = numBatch - ownBatch + j;
    if (type.getDimSize(j) == 1 && resultBatch[r] != 1)
      exprs.push_back(getAffineConstantExpr(0, ctx));
    else
      exprs.push_back(getAffineDimExpr(r, ctx));
  }
  exprs.push_back(getAffineDimExpr(rowDim, ctx));
  exprs.push_back(getAffineDimExpr(colDim, ctx));
  return AffineMap::get(numLoops, 0, exprs, ctx);
}

Value rlx::buildMatmul(OpBuilder &b, Location loc, Value lhs, Value rhs,
                       bool transposeA, bool transposeB,
                       RankedTensorType resultType) {
  MLIRContext *ctx = b.getContext();
  auto lt = cast<RankedTensorType>(lhs.getType());
  auto rt = cast<RankedTensorType>(rhs.getType());
  int64_t rank = resultType.getRank();
  int64_t numBatch = rank - 2;
  int64_t m = numBatch, n = numBatch + 1, k = numBatch + 2;
  ArrayRef<int64_t> resultBatch = resultType.getShape().take_front(numBatch);
  AffineMap lhsMap = transposeA
                         ? operandMap(ctx, lt, resultBatch, k + 1, k, m)
                         : operandMap(ctx, lt, resultBatch, k + 1, m, k);
  AffineMap rhsMap = transposeB
                         ? operandMap(ctx, rt, resultBatch, k + 1, n, k)
                         : operandMap(ctx, rt, resultBatch, k + 1, k, n);
  SmallVector<AffineExpr> outExprs;
  for (int64_t i = 0; i < rank; ++i)
    outExprs.push_back(getAffineDimExpr(i, ctx));
  AffineMap outMap = AffineMap::get(k + 1, 0, outExprs, ctx);

  // Dynamic result dims: batch dims from whichever operand has them
  // dynamic, M from lhs, N from rhs.
  SmallVector<Value> dyn;
  for (int64_t i = 0; i < rank; ++i) {
    if (!resultType.isDynamicDim(i))
      continue;
    if (i == m) {
      dyn.push_back(
          getDimSize(b, loc, lhs, lt.getRank() - (transposeA ? 1 : 2)));
    } else if (i == n) {
      dyn.push_back(
          getDimSize(b, loc, rhs, rt.getRank() - (transposeB ? 2 : 1)));
    } else {
      int64_t lj = i - (numBatch - (lt.getRank() - 2));
      int64_t rj = i - (numBatch - (rt.getRank() - 2));
      dyn.push_back(lj >= 0 && lt.isDynamicDim(lj)
                        ? getDimSize(b, loc, lhs, lj)
                        : getDimSize(b, loc, rhs, rj));
    }
  }
  Type element = resultType.getElementType();
  Type acc = isa<FloatType>(element) ? getAccumulatorType(element) : element;
  auto accType = resultType.clone(acc);
  Value init = createFilled(b, loc, accType, dyn,
                            createScalarConstant(b, loc, acc, 0));
  SmallVector<utils::IteratorType> iterators(k + 1,
                                             utils::IteratorType::parallel);
  iterators[k] = utils::IteratorType::reduction;
  Value result = buildContraction(b, loc, lhs, rhs, init,
                                  {lhsMap, rhsMap, outMap}, iterators);
  return castTensor(b, loc, result, element);
}

namespace {

struct MatmulPattern : OpConversionPattern<MatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    rewriter.replaceOp(op, buildMatmul(rewriter, op.getLoc(), adaptor.getLhs(),
                                       adaptor.getRhs(), op.getTransposeA(),
                                       op.getTransposeB(), type));
    return success();
  }
};

/// The int8 product is the same contraction with i32 as the accumulator:
/// each i8 element is sign-extended before the multiply.
struct Int8MatmulPattern : OpConversionPattern<Int8MatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Int8MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, buildMatmul(rewriter, op.getLoc(), adaptor.getLhs(),
                                       adaptor.getRhs(), op.getTransposeA(),
                                       op.getTransposeB(), op.getType()));
    return success();
  }
};

/// One contraction whose loops are (batch, lhs free, rhs free,
/// contracting), in the order of the result's dims then the contraction.
struct DotGeneralPattern : OpConversionPattern<DotGeneralOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DotGeneralOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    auto lt = cast<RankedTensorType>(lhs.getType());
    auto rt = cast<RankedTensorType>(rhs.getType());
    SmallVector<int64_t> lb = positiveAxes(op.getLhsBatchDims(), lt.getRank());
    SmallVector<int64_t> rb = positiveAxes(op.getRhsBatchDims(), rt.getRank());
    SmallVector<int64_t> lc =
        positiveAxes(op.getLhsContractingDims(), lt.getRank());
    SmallVector<int64_t> rc =
        positiveAxes(op.getRhsContractingDims(), rt.getRank());
    auto resultType = op.getType();
    int64_t numResult = resultType.getRank();
    int64_t numLoops = numResult + lc.size();
    SmallVector<AffineExpr> lhsExprs(lt.getRank()), rhsExprs(rt.getRank());
    SmallVector<Value> dyn;
    int64_t loop = 0;
    for (auto [l, r] : llvm::zip(lb, rb)) {
      lhsExprs[l] = rhsExprs[r] = getAffineDimExpr(loop++, ctx);
      if (resultType.isDynamicDim(loop - 1))
        dyn.push_back(getDimSize(rewriter, loc, lhs, l));
    }
    for (int64_t i = 0; i < lt.getRank(); ++i)
      if (!llvm::is_contained(lb, i) && !llvm::is_contained(lc, i)) {
        lhsExprs[i] = getAffineDimExpr(loop++, ctx);
        if (resultType.isDynamicDim(loop - 1))
          dyn.push_back(getDimSize(rewriter, loc, lhs, i));
      }
    for (int64_t i = 0; i < rt.getRank(); ++i)
      if (!llvm::is_contained(rb, i) && !llvm::is_contained(rc, i)) {
        rhsExprs[i] = getAffineDimExpr(loop++, ctx);
        if (resultType.isDynamicDim(loop - 1))
          dyn.push_back(getDimSize(rewriter, loc, rhs, i));
      }
    for (auto [l, r] : llvm::zip(lc, rc))
      lhsExprs[l] = rhsExprs[r] = getAffineDimExpr(loop++, ctx);
    SmallVector<AffineExpr> outExprs;
    for (int64_t i = 0; i < numResult; ++i)
      outExprs.push_back(getAffineDimExpr(i, ctx));
    Type element = resultType.getElementType();
    Type acc = isa<FloatType>(element) ? getAccumulatorType(element) : element;
    auto accType = resultType.clone(acc);
    Value init = createFilled(rewriter, loc, accType, dyn,
                              createScalarConstant(rewriter, loc, acc, 0));
    SmallVector<utils::IteratorType> iterators(numLoops,
                                               utils::IteratorType::parallel);
    for (int64_t i = numResult; i < numLoops; ++i)
      iterators[i] = utils::IteratorType::reduction;
    Value result = buildContraction(
        rewriter, loc, lhs, rhs, init,
        {AffineMap::get(numLoops, 0, lhsExprs, ctx),
         AffineMap::get(numLoops, 0, rhsExprs, ctx),
         AffineMap::get(numLoops, 0, outExprs, ctx)},
        iterators);
    rewriter.replaceOp(op, castTensor(rewriter, loc, result, element));
    return success();
  }
};

} // namespace

void rlx::populateMatmulToLinalgPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<MatmulPattern, Int8MatmulPattern, DotGeneralPattern>(
      converter, patterns.getContext());
}
