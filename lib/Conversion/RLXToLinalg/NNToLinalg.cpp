//===- NNToLinalg.cpp - rlx norms and attention to linalg -----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Norms compute their statistics in f32 (or f64) with a two-pass mean and
// variance. Attention is scores -> masked stable softmax -> weighted sum,
// with grouped-query heads read through a floordiv in the indexing maps and
// causal / sliding-window masks computed from the loop indices (no mask
// tensor is materialized).
//
//===----------------------------------------------------------------------===//

#include "PatternGroups.h"
#include "Utils.h"

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace mlir::rlx;

/// The map from a rank-`rank` iteration space to its last dim (for the
/// per-feature gamma and beta).
static AffineMap lastDimMap(MLIRContext *ctx, int64_t rank) {
  return AffineMap::get(rank, 0, getAffineDimExpr(rank - 1, ctx), ctx);
}

/// The normalized value of a layer norm (`centered`) or an RMS norm.
static Value buildNorm(OpBuilder &b, Location loc, Value x, Value gamma,
                       Value beta, double epsilon, bool centered) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank(), axis = rank - 1;
  Type element = type.getElementType();
  Type acc = getAccumulatorType(element);
  Value count = getCountAsFloat(b, loc, x, axis, acc);
  Value zero = createScalarConstant(b, loc, acc, 0);
  AffineMap id = b.getMultiDimIdentityMap(rank);
  AffineMap row = getDropDimsMap(ctx, rank, axis);
  // Pass 1: the mean (layer norm only).
  Value sum;
  if (centered)
    sum = buildReduction(b, loc, x, axis, acc, zero,
                         [&](OpBuilder &nb, Location l, ValueRange args) {
                           Value v = castScalar(nb, l, args[0], acc, false,
                                                false);
                           return arith::AddFOp::create(nb, l, args[1], v)
                               .getResult();
                         });
  // Pass 2: the sum of squares of (x - mean), or of x.
  auto rowType = RankedTensorType::get(type.getShape().drop_back(), acc);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators[axis] = utils::IteratorType::reduction;
  Value squaresInit = createFilled(
      b, loc, rowType, getDynamicDimsExcept(b, loc, x, axis), zero);
  SmallVector<Value> inputs = {x};
  SmallVector<AffineMap> maps = {id};
  if (centered) {
    inputs.push_back(sum);
    maps.push_back(row);
  }
  maps.push_back(row);
  auto squares = linalg::GenericOp::create(
      b, loc, rowType, inputs, squaresInit, maps, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value v = castScalar(nb, l, args[0], acc, false, false);
        if (centered)
          v = arith::SubFOp::create(
              nb, l, v, arith::DivFOp::create(nb, l, args[1], count));
        linalg::YieldOp::create(
            nb, l,
            arith::AddFOp::create(nb, l, args.back(),
                                  arith::MulFOp::create(nb, l, v, v))
                .getResult());
      });
  // Pass 3: normalize, scale and shift.
  Value eps = createScalarConstant(b, loc, acc, epsilon);
  SmallVector<Value> outInputs = {x, squares.getResult(0), gamma};
  SmallVector<AffineMap> outMaps = {id, row, lastDimMap(ctx, rank)};
  if (centered) {
    outInputs.append({sum, beta});
    outMaps.append({row, lastDimMap(ctx, rank)});
  }
  return buildMappedGeneric(
      b, loc, type, getDynamicDims(b, loc, x), outInputs, outMaps,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value v = castScalar(nb, l, args[0], acc, false, false);
        Value var = arith::DivFOp::create(nb, l, args[1], count);
        Value inv = math::RsqrtOp::create(
            nb, l, arith::AddFOp::create(nb, l, var, eps));
        if (centered)
          v = arith::SubFOp::create(
              nb, l, v, arith::DivFOp::create(nb, l, args[3], count));
        Value g = castScalar(nb, l, args[2], acc, false, false);
        Value y = arith::MulFOp::create(
            nb, l, arith::MulFOp::create(nb, l, v, inv), g);
        if (centered)
          y = arith::AddFOp::create(
              nb, l, y, castScalar(nb, l, args[4], acc, false, false));
        return castScalar(nb, l, y, element, false, false);
      });
}

Value rlx::buildAttentionProbs(OpBuilder &b, Location loc, Value q, Value k,
                               Value attnMask, MaskKind kind,
                               IntegerAttr windowAttr, double scale) {
  MLIRContext *ctx = b.getContext();
  auto qt = cast<RankedTensorType>(q.getType());
  auto kt = cast<RankedTensorType>(k.getType());
  int64_t heads = qt.getDimSize(1), group = heads / kt.getDimSize(1);
  Type acc = getAccumulatorType(qt.getElementType());
  AffineExpr b0 = getAffineDimExpr(0, ctx), h = getAffineDimExpr(1, ctx),
             i = getAffineDimExpr(2, ctx), j = getAffineDimExpr(3, ctx),
             r = getAffineDimExpr(4, ctx);
  AffineExpr kvHead = group == 1 ? h : h.floorDiv(group);

  // scores[b, h, i, j] = scale * sum_d q[b, h, i, d] k[b, h/g, j, d]
  SmallVector<int64_t> scoreShape = {qt.getDimSize(0), heads, qt.getDimSize(2),
                                     kt.getDimSize(2)};
  auto scoreType = RankedTensorType::get(scoreShape, acc);
  SmallVector<Value> scoreDyn;
  if (qt.isDynamicDim(0))
    scoreDyn.push_back(getDimSize(b, loc, q, 0));
  if (qt.isDynamicDim(2))
    scoreDyn.push_back(getDimSize(b, loc, q, 2));
  if (kt.isDynamicDim(2))
    scoreDyn.push_back(getDimSize(b, loc, k, 2));
  Value zero = createScalarConstant(b, loc, acc, 0);
  Value scoreInit = createFilled(b, loc, scoreType, scoreDyn, zero);
  SmallVector<utils::IteratorType> it5(5, utils::IteratorType::parallel);
  it5[4] = utils::IteratorType::reduction;
  Value scores =
      buildContraction(b, loc, q, k, scoreInit,
                       {AffineMap::get(5, 0, {b0, h, i, r}, ctx),
                        AffineMap::get(5, 0, {b0, kvHead, j, r}, ctx),
                        AffineMap::get(5, 0, {b0, h, i, j}, ctx)},
                       it5);

  // Scale, then add the bias or replace masked scores by -inf.
  Value offset; // Skv - S: the causal diagonal aligned at the end.
  if (kind == MaskKind::Causal || kind == MaskKind::SlidingWindow) {
    Value queryLen = getDimSize(b, loc, q, 2);
    Value keyLen = getDimSize(b, loc, k, 2);
    offset = arith::SubIOp::create(b, loc, keyLen, queryLen);
  }
  SmallVector<Value> maskInputs = {scores};
  SmallVector<AffineMap> maskMaps = {b.getMultiDimIdentityMap(4)};
  if (Value m = attnMask) {
    maskInputs.push_back(m);
    maskMaps.push_back(
        getBroadcastMap(ctx, cast<RankedTensorType>(m.getType()), scoreShape));
  }
  Value masked = buildMappedGeneric(
      b, loc, scoreType, scoreDyn, maskInputs, maskMaps,
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value s = arith::MulFOp::create(
            nb, l, args[0], createScalarConstant(nb, l, acc, scale));
        Value negInf = createScalarConstant(nb, l, acc, -INFINITY);
        switch (kind) {
        case MaskKind::None:
          return s;
        case MaskKind::Bias:
          return arith::AddFOp::create(
              nb, l, s, castScalar(nb, l, args[1], acc, false, false));
        case MaskKind::Custom:
          return arith::SelectOp::create(nb, l, args[1], s, negInf);
        case MaskKind::Causal:
        case MaskKind::SlidingWindow: {
          Value qi = linalg::IndexOp::create(nb, l, 2);
          Value kj = linalg::IndexOp::create(nb, l, 3);
          Value diag = arith::AddIOp::create(nb, l, qi, offset);
          Value visible =
              arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sle, kj, diag);
          if (kind == MaskKind::SlidingWindow) {
            Value lo = arith::SubIOp::create(
                nb, l, diag,
                arith::ConstantIndexOp::create(nb, l, windowAttr.getInt()));
            visible = arith::AndIOp::create(
                nb, l, visible,
                arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sgt, kj,
                                      lo));
          }
          return arith::SelectOp::create(nb, l, visible, s, negInf);
        }
        }
        llvm_unreachable("unknown mask kind");
      });

  return buildMaskedSoftmax(b, loc, masked, scoreDyn);
}

Value rlx::buildMaskedSoftmax(OpBuilder &b, Location loc, Value scores,
                              ValueRange dynamicDims) {
  MLIRContext *ctx = b.getContext();
  auto scoreType = cast<RankedTensorType>(scores.getType());
  Type acc = scoreType.getElementType();
  // Stable softmax over keys; fully masked rows give zeros.
  auto [max, sum] = softmaxStats(b, loc, scores, 3, acc);
  AffineMap id4 = b.getMultiDimIdentityMap(4);
  AffineMap row = getDropDimsMap(ctx, 4, 3);
  return buildMappedGeneric(
      b, loc, scoreType, dynamicDims, ValueRange{scores, max, sum},
      {id4, row, row}, [&](OpBuilder &nb, Location l, ValueRange args) {
        Value e = math::ExpOp::create(
            nb, l, arith::SubFOp::create(nb, l, args[0], args[1]));
        Value p = arith::DivFOp::create(nb, l, e, args[2]);
        Value isNegInf =
            arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OEQ, args[0],
                                  createScalarConstant(nb, l, acc, -INFINITY));
        return arith::SelectOp::create(nb, l, isNegInf,
                                       createScalarConstant(nb, l, acc, 0), p)
            .getResult();
      });
}

namespace {

struct LayerNormPattern : OpConversionPattern<LayerNormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LayerNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, buildNorm(rewriter, op.getLoc(), adaptor.getInput(),
                      adaptor.getGamma(), adaptor.getBeta(),
                      op.getEpsilon().convertToDouble(), /*centered=*/true));
    return success();
  }
};

struct RmsNormPattern : OpConversionPattern<RmsNormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RmsNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, buildNorm(rewriter, op.getLoc(), adaptor.getInput(),
                      adaptor.getGamma(), Value(),
                      op.getEpsilon().convertToDouble(), /*centered=*/false));
    return success();
  }
};

struct AttentionPattern : OpConversionPattern<AttentionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AttentionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value q = adaptor.getQuery(), k = adaptor.getKey(), v = adaptor.getValue();
    auto qt = cast<RankedTensorType>(q.getType());
    auto kt = cast<RankedTensorType>(k.getType());
    auto vt = cast<RankedTensorType>(v.getType());
    int64_t heads = qt.getDimSize(1), kvHeads = kt.getDimSize(1);
    int64_t headDim = qt.getDimSize(3);
    if (ShapedType::isDynamic(heads) || ShapedType::isDynamic(kvHeads) ||
        ShapedType::isDynamic(headDim))
      return rewriter.notifyMatchFailure(
          op, "head counts and the head dim must be static");
    int64_t group = heads / kvHeads;
    Type element = qt.getElementType();
    Type acc = getAccumulatorType(element);
    double scale = op.getScale() ? op.getScale()->convertToDouble()
                                 : 1.0 / std::sqrt(double(headDim));
    Value probs =
        buildAttentionProbs(rewriter, loc, q, k, adaptor.getAttnMask(),
                            op.getMask(), op.getWindowAttr(), scale);
    AffineExpr b0 = getAffineDimExpr(0, ctx), h = getAffineDimExpr(1, ctx),
               i = getAffineDimExpr(2, ctx), j = getAffineDimExpr(3, ctx),
               r = getAffineDimExpr(4, ctx);
    AffineExpr kvHead = group == 1 ? h : h.floorDiv(group);
    Value zero = createScalarConstant(rewriter, loc, acc, 0);
    SmallVector<utils::IteratorType> it5(5, utils::IteratorType::parallel);
    it5[4] = utils::IteratorType::reduction;

    // out[b, h, i, e] = sum_j p[b, h, i, j] v[b, h/g, j, e]
    auto outType =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    auto accOut = outType.clone(acc);
    SmallVector<Value> outDyn;
    if (qt.isDynamicDim(0))
      outDyn.push_back(getDimSize(rewriter, loc, q, 0));
    if (qt.isDynamicDim(2))
      outDyn.push_back(getDimSize(rewriter, loc, q, 2));
    if (vt.isDynamicDim(3))
      outDyn.push_back(getDimSize(rewriter, loc, v, 3));
    Value outInit = createFilled(rewriter, loc, accOut, outDyn, zero);
    // Loops (b, h, i, e, j): here dim 3 is e and dim 4 (r) is j.
    Value out = buildContraction(
        rewriter, loc, probs, v, outInit,
        {AffineMap::get(5, 0, {b0, h, i, r}, ctx),
         AffineMap::get(5, 0, {b0, kvHead, r, j}, ctx),
         AffineMap::get(5, 0, {b0, h, i, j}, ctx)},
        it5);
    rewriter.replaceOp(op, castTensor(rewriter, loc, out, element));
    return success();
  }
};

} // namespace


/// The map from a rank-`rank` iteration space to dim `dim` (per-channel
/// parameters).
static AffineMap singleDimMap(MLIRContext *ctx, int64_t rank, int64_t dim) {
  return AffineMap::get(rank, 0, getAffineDimExpr(dim, ctx), ctx);
}

namespace {

/// (x - mean[c]) * rsqrt(var[c] + eps) * gamma[c] + beta[c]
struct BatchNormInferencePattern : OpConversionPattern<BatchNormInferenceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BatchNormInferenceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value x = adaptor.getInput();
    auto type = cast<RankedTensorType>(x.getType());
    int64_t rank = type.getRank();
    Type element = type.getElementType();
    Type acc = getAccumulatorType(element);
    double eps = op.getEpsilon().convertToDouble();
    AffineMap channel = singleDimMap(ctx, rank, 1);
    Value result = buildMappedGeneric(
        rewriter, loc, type, getDynamicDims(rewriter, loc, x),
        ValueRange{x, adaptor.getGamma(), adaptor.getBeta(), adaptor.getMean(),
                   adaptor.getVariance()},
        {rewriter.getMultiDimIdentityMap(rank), channel, channel, channel,
         channel},
        [&](OpBuilder &b, Location l, ValueRange args) {
          SmallVector<Value> v;
          for (Value a : args)
            v.push_back(castScalar(b, l, a, acc, false, false));
          Value inv = math::RsqrtOp::create(
              b, l,
              arith::AddFOp::create(b, l, v[4],
                                    createScalarConstant(b, l, acc, eps)));
          Value y = arith::MulFOp::create(
              b, l, arith::SubFOp::create(b, l, v[0], v[3]), inv);
          y = arith::AddFOp::create(b, l, arith::MulFOp::create(b, l, y, v[1]),
                                    v[2]);
          return castScalar(b, l, y, element, false, false);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Statistics per (sample, group) over a [N, G, C/G * spatial] view, then
/// the per-channel affine map.
struct GroupNormPattern : OpConversionPattern<GroupNormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GroupNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value x = adaptor.getInput();
    auto type = cast<RankedTensorType>(x.getType());
    // The batch and the spatial dims may be dynamic; the channels are split
    // into groups, so their count must be known.
    if (type.isDynamicDim(1))
      return rewriter.notifyMatchFailure(op, "group_norm needs static channels");
    int64_t rank = type.getRank();
    int64_t c = type.getDimSize(1);
    int64_t groups = op.getNumGroups(), perGroup = c / groups;
    Type element = type.getElementType();
    Type acc = getAccumulatorType(element);
    // The [N, G, K] view of x: channels split into [G, C/G], then C/G
    // merged with the spatial dims (K = C/G * spatial).
    SmallVector<int64_t> split = {type.getDimSize(0), groups, perGroup};
    SmallVector<OpFoldResult> splitSizes = {
        getAsOpFoldResult(getDimSize(rewriter, loc, x, 0)),
        rewriter.getIndexAttr(groups), rewriter.getIndexAttr(perGroup)};
    SmallVector<ReassociationIndices> splitGroups = {{0}, {1, 2}};
    SmallVector<ReassociationIndices> mergeGroups = {{0}, {1}, {2}};
    for (int64_t d = 2; d < rank; ++d) {
      split.push_back(type.getDimSize(d));
      splitSizes.push_back(getAsOpFoldResult(getDimSize(rewriter, loc, x, d)));
      splitGroups.push_back({d + 1});
      mergeGroups.back().push_back(d + 1);
    }
    Value grouped = tensor::ExpandShapeOp::create(
        rewriter, loc, type.clone(split), x, splitGroups, splitSizes);
    Value view = tensor::CollapseShapeOp::create(rewriter, loc, grouped,
                                                 mergeGroups);
    Value zero = createScalarConstant(rewriter, loc, acc, 0);
    Value countF = getCountAsFloat(rewriter, loc, view, {2}, acc);
    Value sum = buildReduction(
        rewriter, loc, view, 2, acc, zero,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          return arith::AddFOp::create(
              b, l, args[1], castScalar(b, l, args[0], acc, false, false));
        });
    // Sum of squared deviations, reading the group mean through a map.
    SmallVector<utils::IteratorType> it3 = {utils::IteratorType::parallel,
                                           utils::IteratorType::parallel,
                                           utils::IteratorType::reduction};
    AffineMap id3 = rewriter.getMultiDimIdentityMap(3);
    AffineMap row3 = getDropDimsMap(ctx, 3, 2);
    auto statType = cast<RankedTensorType>(sum.getType());
    Value squares =
        linalg::GenericOp::create(
            rewriter, loc, statType, ValueRange{view, sum},
            createFilled(rewriter, loc, statType,
                         getDynamicDims(rewriter, loc, sum), zero),
            ArrayRef<AffineMap>{id3, row3, row3}, it3,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value v = castScalar(b, l, args[0], acc, false, false);
              Value d = arith::SubFOp::create(
                  b, l, v, arith::DivFOp::create(b, l, args[1], countF));
              linalg::YieldOp::create(
                  b, l,
                  arith::AddFOp::create(b, l, args[2],
                                        arith::MulFOp::create(b, l, d, d))
                      .getResult());
            })
            .getResult(0);
    AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx);
    AffineMap groupMap = AffineMap::get(rank, 0, {d0, d1.floorDiv(perGroup)},
                                        ctx);
    AffineMap channel = singleDimMap(ctx, rank, 1);
    double eps = op.getEpsilon().convertToDouble();
    Value result = buildMappedGeneric(
        rewriter, loc, type, getDynamicDims(rewriter, loc, x),
        ValueRange{x, sum, squares, adaptor.getGamma(), adaptor.getBeta()},
        {rewriter.getMultiDimIdentityMap(rank), groupMap, groupMap, channel,
         channel},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value v = castScalar(b, l, args[0], acc, false, false);
          Value mean = arith::DivFOp::create(b, l, args[1], countF);
          Value var = arith::DivFOp::create(b, l, args[2], countF);
          Value inv = math::RsqrtOp::create(
              b, l,
              arith::AddFOp::create(b, l, var,
                                    createScalarConstant(b, l, acc, eps)));
          Value y = arith::MulFOp::create(
              b, l, arith::SubFOp::create(b, l, v, mean), inv);
          Value shift = castScalar(b, l, args[4], acc, false, false);
          Value scale = castScalar(b, l, args[3], acc, false, false);
          Value scaled = arith::MulFOp::create(b, l, y, scale);
          y = arith::AddFOp::create(b, l, scaled, shift);
          return castScalar(b, l, y, element, false, false);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Each output feature reads its pair partner with tensor.extract:
/// (a, b) -> (a cos - b sin, a sin + b cos).
struct RopePattern : OpConversionPattern<RopeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RopeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getInput(), cos = adaptor.getCos(),
          sin = adaptor.getSin();
    auto type = cast<RankedTensorType>(x.getType());
    Type element = type.getElementType();
    Type acc = getAccumulatorType(element);
    bool neox = op.getStyle() == RopeStyle::Neox;
    Value two = arith::ConstantIndexOp::create(rewriter, loc, 2);
    Value headDim = getDimSize(rewriter, loc, x, 3);
    Value half = arith::DivUIOp::create(rewriter, loc, headDim, two);
    Value result = buildMappedGeneric(
        rewriter, loc, type, getDynamicDims(rewriter, loc, x), {}, {},
        [&](OpBuilder &b, Location l, ValueRange) {
          SmallVector<Value> idx;
          for (int64_t i = 0; i < 4; ++i)
            idx.push_back(linalg::IndexOp::create(b, l, i));
          Value d = idx[3];
          Value one = arith::ConstantIndexOp::create(b, l, 1);
          Value two = arith::ConstantIndexOp::create(b, l, 2);
          // first: d is the first of its pair; pair: the pair's index;
          // partner: the other feature of the pair.
          Value first, pair, partner;
          if (neox) {
            first = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, d,
                                          half);
            pair = arith::SelectOp::create(
                b, l, first, d, arith::SubIOp::create(b, l, d, half));
            partner = arith::SelectOp::create(
                b, l, first, arith::AddIOp::create(b, l, d, half), pair);
          } else {
            Value rem = arith::RemUIOp::create(b, l, d, two);
            first = arith::CmpIOp::create(
                b, l, arith::CmpIPredicate::eq, rem,
                arith::ConstantIndexOp::create(b, l, 0));
            pair = arith::DivUIOp::create(b, l, d, two);
            Value below = arith::SubIOp::create(b, l, d, one);
            Value above = arith::AddIOp::create(b, l, d, one);
            partner = arith::SelectOp::create(b, l, first, above, below);
          }
          auto read = [&](Value t, ValueRange at) {
            return castScalar(b, l, tensor::ExtractOp::create(b, l, t, at),
                              acc, false, false);
          };
          Value self = read(x, idx);
          Value other = read(x, {idx[0], idx[1], idx[2], partner});
          Value c = read(cos, {idx[2], pair});
          Value s = read(sin, {idx[2], pair});
          // First of the pair: a cos - b sin with a = self, b = other.
          // Second: a sin + b cos with a = other, b = self.
          Value otherSin = arith::MulFOp::create(b, l, other, s);
          Value selfCos = arith::MulFOp::create(b, l, self, c);
          Value firstOut = arith::SubFOp::create(b, l, selfCos, otherSin);
          Value secondSelfCos = arith::MulFOp::create(b, l, self, c);
          Value secondOtherSin = arith::MulFOp::create(b, l, other, s);
          Value secondOut =
              arith::AddFOp::create(b, l, secondOtherSin, secondSelfCos);
          Value y = arith::SelectOp::create(b, l, first, firstOut, secondOut);
          return castScalar(b, l, y, element, false, false);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void rlx::populateNNToLinalgPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns) {
  patterns.add<LayerNormPattern, RmsNormPattern, AttentionPattern,
               BatchNormInferencePattern, GroupNormPattern, RopePattern>(
      converter, patterns.getContext());
}
