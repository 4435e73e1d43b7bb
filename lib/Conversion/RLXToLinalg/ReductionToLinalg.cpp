//===- ReductionToLinalg.cpp - rlx reductions to linalg -------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Reductions become reduction linalg.generics; f16/bf16 accumulate in f32.
// softmax and log_softmax subtract the row max before exponentiating, and
// cross entropy goes through log_softmax, so no exp overflows.
//
//===----------------------------------------------------------------------===//

#include "PatternGroups.h"
#include "Utils.h"

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace mlir::rlx;

/// The identity of `kind` in `type` (the lowest value for max, ...).
static Value reductionIdentity(OpBuilder &b, Location loc, ReduceKind kind,
                               Type type, bool isUnsigned) {
  if (kind == ReduceKind::Max || kind == ReduceKind::Min) {
    bool max = kind == ReduceKind::Max;
    if (auto f = dyn_cast<FloatType>(type))
      return arith::ConstantOp::create(
          b, loc, b.getFloatAttr(f, max ? -INFINITY : INFINITY));
    unsigned w = type.getIntOrFloatBitWidth();
    APInt v = isUnsigned ? (max ? APInt::getMinValue(w) : APInt::getMaxValue(w))
                         : (max ? APInt::getSignedMinValue(w)
                                : APInt::getSignedMaxValue(w));
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, v));
  }
  return createScalarConstant(b, loc, type,
                              kind == ReduceKind::Prod ? 1.0 : 0.0);
}

/// acc (op) x for `kind`.
static Value combine(OpBuilder &b, Location loc, ReduceKind kind, Value x,
                     Value acc, bool isUnsigned) {
  bool isFloat = isa<FloatType>(acc.getType());
  switch (kind) {
  case ReduceKind::Sum:
  case ReduceKind::Mean:
    return isFloat ? arith::AddFOp::create(b, loc, acc, x).getResult()
                   : arith::AddIOp::create(b, loc, acc, x).getResult();
  case ReduceKind::Prod:
    return isFloat ? arith::MulFOp::create(b, loc, acc, x).getResult()
                   : arith::MulIOp::create(b, loc, acc, x).getResult();
  case ReduceKind::Max:
    if (isFloat)
      return arith::MaximumFOp::create(b, loc, acc, x);
    return isUnsigned ? arith::MaxUIOp::create(b, loc, acc, x).getResult()
                      : arith::MaxSIOp::create(b, loc, acc, x).getResult();
  case ReduceKind::Min:
    if (isFloat)
      return arith::MinimumFOp::create(b, loc, acc, x);
    return isUnsigned ? arith::MinUIOp::create(b, loc, acc, x).getResult()
                      : arith::MinSIOp::create(b, loc, acc, x).getResult();
  }
  llvm_unreachable("unknown reduce kind");
}

/// Adds size-1 dims at the sorted `axes` of `tensor` (keepdim).
static Value keepDims(OpBuilder &b, Location loc, Value tensor,
                      RankedTensorType resultType, ArrayRef<int64_t> axes) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (type == resultType)
    return tensor;
  // Reassociation: each reduced dim joins the group of the kept dim before
  // it; leading reduced dims join the first kept dim's group. A rank-0
  // source has no groups.
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices leading;
  int64_t rank = resultType.getRank();
  for (int64_t i = 0; i < rank; ++i) {
    if (llvm::is_contained(axes, i)) {
      (groups.empty() ? leading : groups.back()).push_back(i);
      continue;
    }
    groups.push_back(leading);
    groups.back().push_back(i);
    leading.clear();
  }
  SmallVector<OpFoldResult> shape;
  for (int64_t i = 0; i < rank; ++i) {
    if (!resultType.isDynamicDim(i)) {
      shape.push_back(b.getIndexAttr(resultType.getDimSize(i)));
      continue;
    }
    int64_t src = 0;
    for (int64_t j = 0; j < i; ++j)
      if (!llvm::is_contained(axes, j))
        ++src;
    shape.push_back(tensor::DimOp::create(b, loc, tensor, src).getResult());
  }
  return tensor::ExpandShapeOp::create(b, loc, resultType, tensor, groups,
                                       shape);
}

/// The max of `input` along `axis` in `acc` (the elements cast to it),
/// -inf for an empty row, for exp(x - max): NaN elements are skipped
/// (maxnumf), which changes no result, as exp(NaN - max) makes the row's
/// sum NaN and so every element of the row NaN, as a NaN max would. On
/// x86 maxnumf is three vector ops (vmaxps and a NaN fix-up), maximumf six.
static Value buildRowMax(OpBuilder &b, Location loc, Value input,
                         int64_t axis, Type acc) {
  return buildReduction(
      b, loc, input, axis, acc, createScalarConstant(b, loc, acc, -INFINITY),
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        Value x = castScalar(nb, nloc, args[0], acc, false, false);
        return arith::MaxNumFOp::create(nb, nloc, args[1], x);
      });
}

/// exp(x - max) for the scalars `x` and `max` of `acc`, and 0 where x is
/// -inf, also when the whole row is -inf: a masked element weighs nothing.
/// exp(-inf) is 0, so only a row whose max is -inf needs care (-inf - -inf
/// would be NaN): it is shifted by 0 instead. The test is on the row's max,
/// which LLVM hoists out of the loop over the row (a compare per element
/// on x was 1 of the ~17 vector ops per element of softmax's exp pass).
static Value buildShiftedExp(OpBuilder &b, Location loc, Value x, Value max,
                             Type acc) {
  Value maxIsNegInf =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, max,
                            createScalarConstant(b, loc, acc, -INFINITY));
  Value shift = arith::SelectOp::create(
      b, loc, maxIsNegInf, createScalarConstant(b, loc, acc, 0), max);
  return math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, x, shift));
}

std::pair<Value, Value> rlx::softmaxStats(OpBuilder &b, Location loc,
                                            Value input, int64_t axis,
                                            Type acc) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
  Value max = buildRowMax(b, loc, input, axis, acc);
  // exp(x - max) summed; rows of -inf (fully masked) sum to 0.
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators[axis] = utils::IteratorType::reduction;
  AffineMap id = b.getMultiDimIdentityMap(rank);
  AffineMap row = getDropDimsMap(ctx, rank, axis);
  auto rowType = cast<RankedTensorType>(max.getType());
  Value zero = createScalarConstant(b, loc, acc, 0);
  Value zeros = createFilled(b, loc, rowType,
                             getDynamicDimsExcept(b, loc, input, axis), zero);
  auto sum = linalg::GenericOp::create(
      b, loc, rowType, ValueRange{input, max}, zeros,
      ArrayRef<AffineMap>{id, row, row}, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value x = castScalar(nb, nloc, args[0], acc, false, false);
        Value e = buildShiftedExp(nb, nloc, x, args[1], acc);
        linalg::YieldOp::create(nb, nloc,
                                arith::AddFOp::create(nb, nloc, args[2], e)
                                    .getResult());
      });
  return {max, sum.getResult(0)};
}

namespace {

struct ReducePattern : OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    int64_t rank = op.getInput().getType().getRank();
    SmallVector<int64_t> axes;
    for (int64_t a : op.getAxes())
      axes.push_back(positiveAxis(a, rank));
    llvm::sort(axes);
    bool isUnsigned = isUnsignedElement(op.getInput().getType());
    ReduceKind kind = op.getKind();
    Type element = type.getElementType();
    Type acc = isa<FloatType>(element) ? getAccumulatorType(element) : element;
    Value init = reductionIdentity(rewriter, loc, kind, acc, isUnsigned);
    Value reduced = buildReduction(
        rewriter, loc, input, axes, acc, init,
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value x = castScalar(b, nloc, args[0], acc, false, false);
          return combine(b, nloc, kind, x, args[1], isUnsigned);
        });
    if (kind == ReduceKind::Mean) {
      Value count = getCountAsFloat(rewriter, loc, input, axes, acc);
      reduced = buildElementwiseGeneric(
          rewriter, loc, cast<RankedTensorType>(reduced.getType()), reduced,
          [&](OpBuilder &b, Location nloc, ValueRange args) {
            return arith::DivFOp::create(b, nloc, args[0], count).getResult();
          });
    }
    reduced = castTensor(rewriter, loc, reduced, element);
    rewriter.replaceOp(op, keepDims(rewriter, loc, reduced, type, axes));
    return success();
  }
};

/// argmax/argmin: a reduction carrying (best value, its index); the first
/// index wins ties, and NaN counts as the largest value (as PyTorch).
template <typename OpTy, bool IsMax>
struct ArgReducePattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using Adaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value input = adaptor.getInput();
    auto inType = cast<RankedTensorType>(input.getType());
    int64_t rank = inType.getRank();
    int64_t axis = positiveAxis(op.getAxis(), rank);
    Type element = inType.getElementType();
    bool isUnsigned = isUnsignedElement(op.getInput().getType());
    SmallVector<int64_t> shape;
    for (int64_t i = 0; i < rank; ++i)
      if (i != axis)
        shape.push_back(inType.getDimSize(i));
    SmallVector<Value> dyn = getDynamicDimsExcept(rewriter, loc, input, axis);
    Value best = createFilled(
        rewriter, loc, RankedTensorType::get(shape, element), dyn,
        reductionIdentity(rewriter, loc,
                          IsMax ? ReduceKind::Max : ReduceKind::Min, element,
                          isUnsigned));
    auto indexType = RankedTensorType::get(shape, rewriter.getI64Type());
    Value index = createFilled(
        rewriter, loc, indexType, dyn,
        arith::ConstantOp::create(rewriter, loc, rewriter.getI64IntegerAttr(0)));
    AffineMap out = getDropDimsMap(ctx, rank, axis);
    SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank), out,
                                   out};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators[axis] = utils::IteratorType::reduction;
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{best.getType(), indexType}, input,
        ValueRange{best, index}, maps, iterators,
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value x = args[0], cur = args[1], curIdx = args[2];
          Value i = arith::IndexCastOp::create(
              b, nloc, b.getI64Type(), linalg::IndexOp::create(b, nloc, axis));
          Value better;
          if (isa<FloatType>(element)) {
            // Strictly better, or x is the first NaN.
            Value strict = arith::CmpFOp::create(
                b, nloc,
                IsMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT,
                x, cur);
            Value xNan = arith::CmpFOp::create(b, nloc,
                                               arith::CmpFPredicate::UNO, x, x);
            Value curNan = arith::CmpFOp::create(
                b, nloc, arith::CmpFPredicate::UNO, cur, cur);
            Value notCurNan = arith::XOrIOp::create(
                b, nloc, curNan,
                arith::ConstantOp::create(b, nloc, b.getBoolAttr(true)));
            better = arith::OrIOp::create(
                b, nloc, strict,
                arith::AndIOp::create(b, nloc, xNan, notCurNan));
          } else {
            arith::CmpIPredicate p =
                IsMax ? (isUnsigned ? arith::CmpIPredicate::ugt
                                    : arith::CmpIPredicate::sgt)
                      : (isUnsigned ? arith::CmpIPredicate::ult
                                    : arith::CmpIPredicate::slt);
            better = arith::CmpIOp::create(b, nloc, p, x, cur);
          }
          // The first element always replaces the identity.
          Value first = arith::CmpIOp::create(
              b, nloc, arith::CmpIPredicate::eq, i,
              arith::ConstantOp::create(b, nloc, b.getI64IntegerAttr(0)));
          Value take = arith::OrIOp::create(b, nloc, better, first);
          linalg::YieldOp::create(
              b, nloc,
              ValueRange{arith::SelectOp::create(b, nloc, take, x, cur),
                         arith::SelectOp::create(b, nloc, take, i, curIdx)});
        });
    rewriter.replaceOp(op, keepDims(rewriter, loc, generic.getResult(1),
                                    op.getType(), axis));
    return success();
  }
};

/// softmax of an f32/f64 `input` along `axis` computing each exp once:
/// e = exp(x - max) (0 for -inf elements), then e * (1 / sum(e)) written
/// over e. Row-tiled (rlx-cpu-tile-rows), e is the output row itself, so
/// the row is read from memory once and written once, with one exp per
/// element instead of two (and a multiply where a divide was).
static Value buildExpOnceSoftmax(OpBuilder &b, Location loc, Value input,
                                 int64_t axis) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rank = type.getRank();
  Type element = type.getElementType();
  AffineMap id = b.getMultiDimIdentityMap(rank);
  AffineMap row = getDropDimsMap(ctx, rank, axis);
  Value max = buildRowMax(b, loc, input, axis, element);
  Value exps = buildMappedGeneric(
      b, loc, type, getDynamicDims(b, loc, input), ValueRange{input, max},
      {id, row}, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        return buildShiftedExp(nb, nloc, args[0], args[1], element);
      });
  Value sum = buildReduction(
      b, loc, exps, axis, element, createScalarConstant(b, loc, element, 0),
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        return arith::AddFOp::create(nb, nloc, args[1], args[0]);
      });
  SmallVector<utils::IteratorType> parallel(rank,
                                            utils::IteratorType::parallel);
  // The reciprocal is per row: LLVM hoists it out of the inner loop.
  auto normalize = linalg::GenericOp::create(
      b, loc, type, ValueRange{sum}, ValueRange{exps},
      ArrayRef<AffineMap>{row, id}, parallel,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value inverse = arith::DivFOp::create(
            nb, nloc, createScalarConstant(nb, nloc, element, 1), args[0]);
        linalg::YieldOp::create(
            nb, nloc,
            arith::MulFOp::create(nb, nloc, args[1], inverse).getResult());
      });
  return normalize.getResult(0);
}

template <typename OpTy, bool IsLog>
struct SoftmaxPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using Adaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value input = adaptor.getInput();
    auto type = cast<RankedTensorType>(input.getType());
    int64_t rank = type.getRank();
    int64_t axis = positiveAxis(op.getAxis(), rank);
    Type element = type.getElementType();
    Type acc = getAccumulatorType(element);
    AffineMap id = rewriter.getMultiDimIdentityMap(rank);
    AffineMap row = getDropDimsMap(ctx, rank, axis);
    if (!IsLog && acc == element) {
      rewriter.replaceOp(op, buildExpOnceSoftmax(rewriter, loc, input, axis));
      return success();
    }
    auto [max, sum] = softmaxStats(rewriter, loc, input, axis, acc);
    Value result = buildMappedGeneric(
        rewriter, loc, type, getDynamicDims(rewriter, loc, input),
        ValueRange{input, max, sum}, {id, row, row},
        [&](OpBuilder &b, Location nloc, ValueRange args) -> Value {
          Value x = castScalar(b, nloc, args[0], acc, false, false);
          Value shifted = arith::SubFOp::create(b, nloc, x, args[1]);
          Value y;
          if (IsLog)
            y = arith::SubFOp::create(b, nloc, shifted,
                                      math::LogOp::create(b, nloc, args[2]));
          else
            y = arith::DivFOp::create(
                b, nloc, math::ExpOp::create(b, nloc, shifted), args[2]);
          return castScalar(b, nloc, y, element, false, false);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// rlx.cumsum -> an scf.for along the axis adding one slice at a time.
struct CumsumPattern : OpConversionPattern<CumsumOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CumsumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto type = cast<RankedTensorType>(input.getType());
    int64_t rank = type.getRank();
    int64_t axis = positiveAxis(op.getAxis(), rank);
    // A slice of unit size along the axis, full elsewhere.
    auto slice = [&](OpBuilder &b, Location l, Value t, Value at) {
      SmallVector<OpFoldResult> offsets, sizes, strides;
      sliceAlong(b, l, t, axis, at, b.getIndexAttr(1), offsets, sizes,
                 strides);
      return std::make_tuple(offsets, sizes, strides);
    };
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value length = getDimSize(rewriter, loc, input, axis);
    // Row 0 is copied by starting from the input itself.
    auto loop = scf::ForOp::create(
        rewriter, loc, one, length, one, ValueRange{input},
        [&](OpBuilder &b, Location l, Value i, ValueRange iter) {
          Value prev = arith::SubIOp::create(b, l, i, one);
          auto [po, ps, pst] = slice(b, l, iter[0], prev);
          auto [co, cs, cst] = slice(b, l, iter[0], i);
          Value a = tensor::ExtractSliceOp::create(b, l, iter[0], po, ps, pst);
          Value c = tensor::ExtractSliceOp::create(b, l, iter[0], co, cs, cst);
          Value s = buildElementwiseGeneric(
              b, l, cast<RankedTensorType>(c.getType()), ValueRange{c, a},
              [](OpBuilder &ib, Location il, ValueRange v) -> Value {
                if (isa<FloatType>(v[0].getType()))
                  return arith::AddFOp::create(ib, il, v[0], v[1]);
                return arith::AddIOp::create(ib, il, v[0], v[1]);
              });
          scf::YieldOp::create(
              b, l,
              tensor::InsertSliceOp::create(b, l, s, iter[0], co, cs, cst)
                  .getResult());
        });
    rewriter.replaceOp(op, loop.getResult(0));
    return success();
  }
};

/// x[a] ranks before x[b] in descending order: it is greater, NaN counting
/// as the largest value (as torch.topk), or equal and at a lower index.
static Value ranksBefore(OpBuilder &b, Location loc, Value xa, Value xb,
                         Value ia, Value ib, bool isUnsigned) {
  Value lowerIndex =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, ia, ib);
  if (!isa<FloatType>(xa.getType())) {
    auto gt = isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
    Value greater = arith::CmpIOp::create(b, loc, gt, xa, xb);
    Value equal =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, xa, xb);
    return arith::OrIOp::create(b, loc, greater,
                                arith::AndIOp::create(b, loc, equal,
                                                      lowerIndex));
  }
  Value nanA = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, xa, xa);
  Value nanB = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, xb, xb);
  Value notNanB = arith::XOrIOp::create(
      b, loc, nanB, arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
  Value nanOverNumber = arith::AndIOp::create(b, loc, nanA, notNanB);
  Value numberGreater =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, xa, xb);
  Value greater = arith::OrIOp::create(b, loc, numberGreater, nanOverNumber);
  Value bothNan = arith::AndIOp::create(b, loc, nanA, nanB);
  Value numberEqual =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, xa, xb);
  Value equal = arith::OrIOp::create(b, loc, numberEqual, bothNan);
  return arith::OrIOp::create(b, loc, greater,
                              arith::AndIOp::create(b, loc, equal, lowerIndex));
}

/// rlx.topk by selection: k passes over the axis, pass j taking the element
/// that ranks first (descending, NaN largest, lower index first on ties)
/// among those ranking after the one pass j-1 took. O(k n) per row, each
/// pass one reduction with no data-dependent control flow. (Ranking every
/// element instead costs O(n^2), prohibitive for a vocabulary-sized axis.)
struct TopKPattern : OpConversionPattern<TopKOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TopKOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value x = adaptor.getInput();
    auto type = cast<RankedTensorType>(x.getType());
    int64_t rank = type.getRank();
    int64_t axis = positiveAxis(op.getAxis(), rank);
    bool isUnsigned = isUnsignedElement(op.getInput().getType());
    Type element = type.getElementType();
    Type i64 = rewriter.getI64Type();
    auto valueType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getValues().getType()));
    auto indexType = cast<RankedTensorType>(op.getIndices().getType());
    SmallVector<Value> dyn = getDynamicDimsExcept(rewriter, loc, x, axis);
    SmallVector<int64_t> rowShape;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        rowShape.push_back(type.getDimSize(d));
    auto rowValues = RankedTensorType::get(rowShape, element);
    auto rowIndices = RankedTensorType::get(rowShape, i64);
    // No element taken yet: index -1 (the value is then never read).
    Value none = arith::ConstantOp::create(rewriter, loc,
                                           rewriter.getI64IntegerAttr(-1));
    Value anyValue = createScalarConstant(rewriter, loc, element, 0);
    auto fill = [&](RankedTensorType t, Value v) {
      return createFilled(rewriter, loc, t, dyn, v);
    };
    AffineMap id = rewriter.getMultiDimIdentityMap(rank);
    AffineMap row = getDropDimsMap(ctx, rank, axis);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators[axis] = utils::IteratorType::reduction;

    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value k = arith::ConstantIndexOp::create(rewriter, loc, op.getK());
    auto loop = scf::ForOp::create(
        rewriter, loc, zero, k, one,
        ValueRange{tensor::EmptyOp::create(rewriter, loc, valueType.getShape(),
                                           element, dyn),
                   tensor::EmptyOp::create(rewriter, loc, indexType.getShape(),
                                           i64, dyn),
                   fill(rowValues, anyValue), fill(rowIndices, none)},
        [&](OpBuilder &b, Location l, Value j, ValueRange iter) {
          auto best = linalg::GenericOp::create(
              b, l, TypeRange{rowValues, rowIndices},
              ValueRange{x, iter[2], iter[3]},
              ValueRange{createFilled(b, l, rowValues, dyn, anyValue),
                         createFilled(b, l, rowIndices, dyn, none)},
              ArrayRef<AffineMap>{id, row, row, row, row}, iterators,
              [&](OpBuilder &nb, Location nl, ValueRange args) {
                Value v = args[0], prevV = args[1], prevI = args[2],
                      curV = args[3], curI = args[4];
                Value i = arith::IndexCastOp::create(
                    nb, nl, i64, linalg::IndexOp::create(nb, nl, axis));
                auto isNone = [&](Value index) {
                  return arith::CmpIOp::create(
                      nb, nl, arith::CmpIPredicate::eq, index, none);
                };
                Value beatsPrev =
                    ranksBefore(nb, nl, prevV, v, prevI, i, isUnsigned);
                Value eligible =
                    arith::OrIOp::create(nb, nl, isNone(prevI), beatsPrev);
                Value beatsCur =
                    ranksBefore(nb, nl, v, curV, i, curI, isUnsigned);
                Value better =
                    arith::OrIOp::create(nb, nl, isNone(curI), beatsCur);
                Value take = arith::AndIOp::create(nb, nl, eligible, better);
                linalg::YieldOp::create(
                    nb, nl,
                    ValueRange{arith::SelectOp::create(nb, nl, take, v, curV),
                               arith::SelectOp::create(nb, nl, take, i,
                                                       curI)});
              });
          // Slot j along the axis of both results takes this pass' pick.
          auto insert = [&](Value rowValue, Value into) -> Value {
            SmallVector<OpFoldResult> offsets, sizes, strides;
            sliceAlong(b, l, into, axis, j, b.getIndexAttr(1), offsets, sizes,
                       strides);
            return tensor::InsertSliceOp::create(b, l, rowValue, into, offsets,
                                                 sizes, strides);
          };
          scf::YieldOp::create(
              b, l,
              ValueRange{insert(best.getResult(0), iter[0]),
                         insert(best.getResult(1), iter[1]),
                         best.getResult(0), best.getResult(1)});
        });
    rewriter.replaceOp(op, {loop.getResult(0), loop.getResult(1)});
    return success();
  }
};

/// mean_n(logsumexp(logits[n]) - logits[n, labels[n]])
struct SoftmaxCrossEntropyPattern : OpConversionPattern<SoftmaxCrossEntropyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SoftmaxCrossEntropyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value logits = adaptor.getLogits(), labels = adaptor.getLabels();
    Type element = op.getType().getElementType();
    Type acc = getAccumulatorType(element);
    auto [max, sum] = softmaxStats(rewriter, loc, logits, 1, acc);
    // Per row: log(sum) + max - logits[n, label].
    auto rowType = cast<RankedTensorType>(max.getType());
    Value perRow = buildElementwiseGeneric(
        rewriter, loc, rowType, ValueRange{max, sum, labels},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value n = linalg::IndexOp::create(b, l, 0);
          Value c = arith::IndexCastOp::create(b, l, b.getIndexType(), args[2]);
          Value picked = castScalar(
              b, l, tensor::ExtractOp::create(b, l, logits, ValueRange{n, c}),
              acc, false, false);
          Value lse = arith::AddFOp::create(
              b, l, math::LogOp::create(b, l, args[1]), args[0]);
          return arith::SubFOp::create(b, l, lse, picked);
        });
    Value total = buildReduction(
        rewriter, loc, perRow, 0, acc, createScalarConstant(rewriter, loc, acc, 0),
        [](OpBuilder &b, Location l, ValueRange args) -> Value {
          return arith::AddFOp::create(b, l, args[1], args[0]);
        });
    Value count = getCountAsFloat(rewriter, loc, logits, 0, acc);
    Value mean = buildElementwiseGeneric(
        rewriter, loc, cast<RankedTensorType>(total.getType()).clone(element),
        total,
        [&](OpBuilder &b, Location l, ValueRange args) {
          return castScalar(b, l,
                            arith::DivFOp::create(b, l, args[0], count),
                            element, false, false);
        });
    rewriter.replaceOp(op, mean);
    return success();
  }
};

} // namespace

void rlx::populateReductionToLinalgPatterns(const TypeConverter &converter,
                                            RewritePatternSet &patterns) {
  patterns.add<ReducePattern, ArgReducePattern<ArgMaxOp, true>,
               ArgReducePattern<ArgMinOp, false>,
               SoftmaxPattern<SoftmaxOp, false>,
               SoftmaxPattern<LogSoftmaxOp, true>, CumsumPattern, TopKPattern,
               SoftmaxCrossEntropyPattern>(converter, patterns.getContext());
}
