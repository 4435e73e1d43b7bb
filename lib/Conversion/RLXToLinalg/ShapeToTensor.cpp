//===- ShapeToTensor.cpp - rlx shape ops to tensor/linalg -----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "PatternGroups.h"
#include "Utils.h"

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::rlx;

namespace {

/// The static dims of `t` split at its dynamic dims: the product of those
/// before the first, between each two and after the last; the positions
/// of the dynamic dims in `dynamic`.
static SmallVector<int64_t> staticGroups(RankedTensorType t,
                                         SmallVectorImpl<int64_t> &dynamic) {
  SmallVector<int64_t> products(1, 1);
  for (int64_t i = 0; i < t.getRank(); ++i) {
    if (t.isDynamicDim(i)) {
      dynamic.push_back(i);
      products.push_back(1);
    } else {
      products.back() *= t.getDimSize(i);
    }
  }
  return products;
}

/// rlx.reshape between static shapes -> views (reshapeStatic). Otherwise
/// (dynamic dims) tensor.reshape with a shape operand: one dynamic result
/// dim is sized so that the element count is kept. Several pair up in
/// order with as many dynamic input dims, each with the static dims after
/// it: a group whose element count the reshape keeps (the dims before the
/// first dynamic one must keep theirs), so result dim j is input dim j
/// times the static product after it in the input, divided by that in the
/// result ([?, ?, 32] -> [?, ?, 4, 8] keeps both; [?, ?, 32] -> [?, ?, 8]
/// multiplies the second by 4).
struct ReshapePattern : OpConversionPattern<ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inType = cast<RankedTensorType>(input.getType());
    if (type.getNumDynamicDims() > 1) {
      SmallVector<int64_t> inDynamic, outDynamic;
      SmallVector<int64_t> inGroups = staticGroups(inType, inDynamic);
      SmallVector<int64_t> outGroups = staticGroups(type, outDynamic);
      if (inDynamic.size() != outDynamic.size() ||
          inGroups.front() != outGroups.front())
        return rewriter.notifyMatchFailure(
            op, "a reshape to several dynamic dims needs as many dynamic "
                "input dims and the same static dims before the first");
      SmallVector<Value> sizes;
      unsigned next = 0;
      for (int64_t i = 0; i < type.getRank(); ++i) {
        if (!type.isDynamicDim(i)) {
          sizes.push_back(
              arith::ConstantIndexOp::create(rewriter, loc, type.getDimSize(i)));
          continue;
        }
        // (dim * in) / out, the count of the group kept.
        int64_t in = inGroups[next + 1], out = outGroups[next + 1];
        Value size =
            tensor::DimOp::create(rewriter, loc, input, inDynamic[next++]);
        if (in != out) {
          size = arith::MulIOp::create(
              rewriter, loc, size,
              arith::ConstantIndexOp::create(rewriter, loc, in));
          size = arith::DivUIOp::create(
              rewriter, loc, size,
              arith::ConstantIndexOp::create(rewriter, loc, out));
        }
        sizes.push_back(size);
      }
      replaceWithReshape(rewriter, op, type, input, sizes);
      return success();
    }
    if (inType == type) {
      rewriter.replaceOp(op, input);
      return success();
    }
    if (inType.hasStaticShape() && type.hasStaticShape()) {
      rewriter.replaceOp(op, reshapeStatic(rewriter, loc, input, type));
      return success();
    }
    SmallVector<Value> sizes;
    int64_t staticProduct = 1;
    for (int64_t d : type.getShape())
      if (!ShapedType::isDynamic(d))
        staticProduct *= d;
    for (int64_t i = 0; i < type.getRank(); ++i) {
      if (!type.isDynamicDim(i)) {
        sizes.push_back(
            arith::ConstantIndexOp::create(rewriter, loc, type.getDimSize(i)));
        continue;
      }
      Value total = arith::ConstantIndexOp::create(rewriter, loc, 1);
      for (int64_t j = 0; j < inType.getRank(); ++j)
        total = arith::MulIOp::create(rewriter, loc, total,
                                      getDimSize(rewriter, loc, input, j));
      Value known = arith::ConstantIndexOp::create(rewriter, loc, staticProduct);
      sizes.push_back(arith::DivUIOp::create(rewriter, loc, total, known));
    }
    replaceWithReshape(rewriter, op, type, input, sizes);
    return success();
  }

  /// `op` as a tensor.reshape of `input` to `type`, whose dims are `sizes`.
  static void replaceWithReshape(ConversionPatternRewriter &rewriter,
                                 Operation *op, RankedTensorType type,
                                 Value input, ValueRange sizes) {
    Value shape = tensor::FromElementsOp::create(
        rewriter, op->getLoc(),
        RankedTensorType::get({type.getRank()}, rewriter.getIndexType()),
        sizes);
    rewriter.replaceOpWithNewOp<tensor::ReshapeOp>(op, type, input, shape);
  }
};

struct TransposePattern : OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Location loc = op.getLoc();
    SmallVector<Value> dyn;
    for (auto [i, p] : llvm::enumerate(op.getPermutation()))
      if (type.isDynamicDim(i))
        dyn.push_back(
            tensor::DimOp::create(rewriter, loc, adaptor.getInput(), p));
    Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                         type.getElementType(), dyn);
    auto transpose = linalg::TransposeOp::create(
        rewriter, loc, adaptor.getInput(), init, op.getPermutation());
    rewriter.replaceOp(op, transpose.getResult());
    return success();
  }
};

struct NarrowPattern : OpConversionPattern<NarrowOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(NarrowOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    int64_t rank = type.getRank();
    int64_t axis = positiveAxis(op.getAxis(), rank);
    // An empty slice may start at the end of the axis, an offset that
    // tensor.extract_slice rejects: it reads nothing anyway.
    if (op.getLength() == 0) {
      rewriter.replaceOpWithNewOp<tensor::EmptyOp>(
          op, type,
          getDynamicDimsExcept(rewriter, op.getLoc(), adaptor.getInput(),
                               {axis}));
      return success();
    }
    SmallVector<OpFoldResult> offsets, sizes, strides;
    sliceAlong(rewriter, op.getLoc(), adaptor.getInput(), axis,
               rewriter.getIndexAttr(static_cast<int64_t>(op.getStart())),
               rewriter.getIndexAttr(static_cast<int64_t>(op.getLength())),
               offsets, sizes, strides);
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, type, adaptor.getInput(), offsets, sizes, strides);
    return success();
  }
};

/// rlx.concat -> tensor.empty + one tensor.insert_slice per input.
struct ConcatPattern : OpConversionPattern<ConcatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Location loc = op.getLoc();
    int64_t rank = type.getRank();
    int64_t axis = positiveAxis(op.getAxis(), rank);
    ValueRange inputs = adaptor.getInputs();
    // Each dynamic result dim: off the axis from the first input, along it
    // the sum of the inputs' sizes.
    SmallVector<Value> dyn;
    for (int64_t i = 0; i < rank; ++i) {
      if (!type.isDynamicDim(i))
        continue;
      if (i != axis) {
        dyn.push_back(getDimSize(rewriter, loc, inputs.front(), i));
        continue;
      }
      Value sum = arith::ConstantIndexOp::create(rewriter, loc, 0);
      for (Value in : inputs)
        sum = arith::AddIOp::create(rewriter, loc, sum,
                                    getDimSize(rewriter, loc, in, axis));
      dyn.push_back(sum);
    }
    Value result = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                           type.getElementType(), dyn);
    // Static sizes stay attributes so that each slice keeps its static
    // type; offsets fold to constants where they can.
    OpFoldResult offset = rewriter.getIndexAttr(0);
    for (Value in : inputs) {
      OpFoldResult size = tensor::getMixedSize(rewriter, loc, in, axis);
      SmallVector<OpFoldResult> offsets, sizes, strides;
      sliceAlong(rewriter, loc, in, axis, offset, size, offsets, sizes,
                 strides);
      result = tensor::InsertSliceOp::create(rewriter, loc, in, result,
                                             offsets, sizes, strides);
      Value sizeValue = getValueOrCreateConstantIndexOp(rewriter, loc, size);
      Value offsetValue =
          getValueOrCreateConstantIndexOp(rewriter, loc, offset);
      offset = arith::AddIOp::create(rewriter, loc, offsetValue, sizeValue)
                   .getResult();
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ExpandPattern : OpConversionPattern<ExpandOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ExpandOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto in = cast<RankedTensorType>(input.getType());
    int64_t offset = type.getRank() - in.getRank();
    // Each dynamic result dim: from `like` when given, else from the input
    // dim it aligns with.
    SmallVector<Value> dynamicDims;
    for (int64_t i = 0; i < type.getRank(); ++i) {
      if (!type.isDynamicDim(i))
        continue;
      if (adaptor.getLike())
        dynamicDims.push_back(
            tensor::DimOp::create(rewriter, loc, adaptor.getLike(), i));
      else if (i >= offset && in.isDynamicDim(i - offset))
        dynamicDims.push_back(
            tensor::DimOp::create(rewriter, loc, input, i - offset));
      else
        return rewriter.notifyMatchFailure(
            op, "a dynamic result dim must come from a dynamic input dim "
                "or from 'like'");
    }
    Value result = buildMappedGeneric(
        rewriter, loc, type, dynamicDims, input,
        getBroadcastMap(rewriter.getContext(), in, type.getShape()),
        [](OpBuilder &, Location, ValueRange args) { return args[0]; });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// rlx.gather -> a generic over the result that extracts from the table.
struct GatherPattern : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value table = adaptor.getTable(), indices = adaptor.getIndices();
    auto tableType = cast<RankedTensorType>(table.getType());
    int64_t axis = positiveAxis(op.getAxis(), tableType.getRank());
    int64_t idxRank = cast<RankedTensorType>(indices.getType()).getRank();
    int64_t rank = type.getRank();
    // Dynamic result dims: table dims before the axis, index dims, table
    // dims after.
    SmallVector<Value> dyn;
    for (int64_t i = 0; i < rank; ++i) {
      if (!type.isDynamicDim(i))
        continue;
      if (i < axis)
        dyn.push_back(tensor::DimOp::create(rewriter, loc, table, i));
      else if (i < axis + idxRank)
        dyn.push_back(tensor::DimOp::create(rewriter, loc, indices, i - axis));
      else
        dyn.push_back(tensor::DimOp::create(rewriter, loc, table,
                                            i - idxRank + 1));
    }
    SmallVector<AffineExpr> idxExprs;
    for (int64_t i = 0; i < idxRank; ++i)
      idxExprs.push_back(getAffineDimExpr(axis + i, ctx));
    AffineMap idxMap = AffineMap::get(rank, 0, idxExprs, ctx);
    Value result = buildMappedGeneric(
        rewriter, loc, type, dyn, indices, idxMap,
        [&](OpBuilder &b, Location nloc, ValueRange args) -> Value {
          SmallVector<Value> coords;
          for (int64_t i = 0; i < axis; ++i)
            coords.push_back(linalg::IndexOp::create(b, nloc, i));
          coords.push_back(arith::IndexCastOp::create(
              b, nloc, b.getIndexType(), args[0]));
          for (int64_t i = axis + idxRank; i < rank; ++i)
            coords.push_back(linalg::IndexOp::create(b, nloc, i));
          return tensor::ExtractOp::create(b, nloc, table, coords);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// rlx.scatter_add -> an scf.for over the indices, adding one slice each.
struct ScatterAddPattern : OpConversionPattern<ScatterAddOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScatterAddOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t rank = op.getType().getRank();
    int64_t axis = positiveAxis(op.getAxis(), rank);
    Value base = adaptor.getBase(), indices = adaptor.getIndices(),
          updates = adaptor.getUpdates();
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value count = getDimSize(rewriter, loc, indices, 0);
    auto loop = scf::ForOp::create(
        rewriter, loc, zero, count, one, ValueRange{base},
        [&](OpBuilder &b, Location nloc, Value j, ValueRange iter) {
          Value acc = iter[0];
          Value target = arith::IndexCastOp::create(
              b, nloc, b.getIndexType(),
              tensor::ExtractOp::create(b, nloc, indices, j));
          OpFoldResult unit = b.getIndexAttr(1);
          SmallVector<OpFoldResult> uo, us, ust, ao, as, ast;
          sliceAlong(b, nloc, updates, axis, j, unit, uo, us, ust);
          sliceAlong(b, nloc, acc, axis, target, unit, ao, as, ast);
          Value upd = tensor::ExtractSliceOp::create(b, nloc, updates, uo, us,
                                                     ust);
          Value cur = tensor::ExtractSliceOp::create(b, nloc, acc, ao, as, ast);
          auto sliceType = cast<RankedTensorType>(cur.getType());
          Value sum = buildElementwiseGeneric(
              b, nloc, sliceType, ValueRange{cur, upd},
              [](OpBuilder &ib, Location iloc, ValueRange s) -> Value {
                if (isa<FloatType>(s[0].getType()))
                  return arith::AddFOp::create(ib, iloc, s[0], s[1]);
                if (isa<ComplexType>(s[0].getType()))
                  return complex::AddOp::create(ib, iloc, s[0], s[1]);
                return arith::AddIOp::create(ib, iloc, s[0], s[1]);
              });
          Value next =
              tensor::InsertSliceOp::create(b, nloc, sum, acc, ao, as, ast);
          scf::YieldOp::create(b, nloc, next);
        });
    rewriter.replaceOp(op, loop.getResult(0));
    return success();
  }
};

/// rlx.reverse -> a generic over the result extracting mirrored indices.
struct ReversePattern : OpConversionPattern<ReverseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReverseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    int64_t rank = type.getRank();
    SmallVector<int64_t> axes;
    for (int64_t a : op.getAxes())
      axes.push_back(positiveAxis(a, rank));
    SmallVector<Value> lastIndex(rank);
    for (int64_t a : axes) {
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      Value size = getDimSize(rewriter, loc, input, a);
      lastIndex[a] = arith::SubIOp::create(rewriter, loc, size, one);
    }
    Value result = buildMappedGeneric(
        rewriter, loc, type, getDynamicDims(rewriter, loc, input), {}, {},
        [&](OpBuilder &b, Location nloc, ValueRange) -> Value {
          SmallVector<Value> coords;
          for (int64_t i = 0; i < rank; ++i) {
            Value idx = linalg::IndexOp::create(b, nloc, i);
            if (lastIndex[i])
              idx = arith::SubIOp::create(b, nloc, lastIndex[i], idx);
            coords.push_back(idx);
          }
          return tensor::ExtractOp::create(b, nloc, input, coords);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void rlx::populateShapeToTensorPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<ReshapePattern, TransposePattern, NarrowPattern, ConcatPattern,
               ExpandPattern, GatherPattern, ScatterAddPattern,
               ReversePattern>(converter, patterns.getContext());
}
