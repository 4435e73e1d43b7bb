//===- BackwardToLinalg.cpp - rlx dedicated backward ops to linalg --------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The backward ops recompute what they need of the forward (norm
// statistics, attention probabilities, softmax) with the forward lowerings'
// helpers, in the same accumulation type (f32 for f16/bf16), and cast the
// cotangents back at the end. Convolution gradients are a transposed
// convolution (input) and a contraction over batch and output positions
// (weight); grouped-query attention sums the per-query-head gradients of a
// kv head.
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

/// Builds the new accumulators of a reduction body from (input scalars...,
/// accumulators...).
using MultiBodyBuilder =
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)>;

/// A linalg.generic over `iterators` reading `inputs` through `inputMaps`
/// and accumulating into `numResults` zero-filled tensors of `resultType`
/// (dynamic dims `dynamicDims`), all written through `resultMap`.
static SmallVector<Value> buildMultiReduction(
    OpBuilder &b, Location loc, ValueRange inputs,
    ArrayRef<AffineMap> inputMaps, RankedTensorType resultType,
    ValueRange dynamicDims, AffineMap resultMap, unsigned numResults,
    ArrayRef<utils::IteratorType> iterators, MultiBodyBuilder body) {
  Value zeros = createFilled(
      b, loc, resultType, dynamicDims,
      createScalarConstant(b, loc, resultType.getElementType(), 0));
  SmallVector<Value> inits(numResults, zeros);
  SmallVector<AffineMap> maps(inputMaps);
  maps.append(numResults, resultMap);
  SmallVector<Type> types(numResults, resultType);
  auto op = linalg::GenericOp::create(
      b, loc, types, inputs, inits, maps, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(nb, l, body(nb, l, args));
      });
  return SmallVector<Value>(op.getResults().begin(), op.getResults().end());
}

/// The cotangents (d_input, d_gamma[, d_beta]) of a layer norm (`centered`)
/// or an RMS norm over the last dim, from xhat = (x - mean) * inv with inv =
/// rsqrt(var + eps) (mean 0 and var the mean square for RMS):
///   g = dy * gamma
///   d_input = inv * (g - mean(g) - xhat * mean(g * xhat))
///   d_gamma = sum(dy * xhat), d_beta = sum(dy) over the leading dims.
/// The statistics are the forward's two passes (mean, then the sum of
/// squared deviations), so the forward and backward see the same xhat.
static SmallVector<Value> buildNormBackward(OpBuilder &b, Location loc,
                                            Value dy, Value x, Value gamma,
                                            double epsilon, bool centered) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(x.getType());
  auto gammaType = cast<RankedTensorType>(gamma.getType());
  int64_t rank = type.getRank(), axis = rank - 1;
  Type element = type.getElementType();
  Type acc = getAccumulatorType(element);
  Value count = getCountAsFloat(b, loc, x, axis, acc);
  Value eps = createScalarConstant(b, loc, acc, epsilon);
  AffineMap id = b.getMultiDimIdentityMap(rank);
  AffineMap row = getDropDimsMap(ctx, rank, axis);
  AffineMap feature = AffineMap::get(rank, 0, getAffineDimExpr(axis, ctx), ctx);
  auto rowType = RankedTensorType::get(type.getShape().drop_back(), acc);
  SmallVector<Value> rowDyn = getDynamicDimsExcept(b, loc, x, axis);
  SmallVector<utils::IteratorType> rowIterators(rank,
                                                utils::IteratorType::parallel);
  rowIterators[axis] = utils::IteratorType::reduction;
  auto toAcc = [&](OpBuilder &nb, Location l, Value v) {
    return castScalar(nb, l, v, acc, false, false);
  };
  auto div = [&](OpBuilder &nb, Location l, Value v) {
    return arith::DivFOp::create(nb, l, v, count).getResult();
  };

  // Row statistics: [sum,] sum of squares (of x - mean for a layer norm).
  SmallVector<Value> stats;
  if (centered)
    stats.push_back(buildReduction(
        b, loc, x, axis, acc, createScalarConstant(b, loc, acc, 0),
        [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
          return arith::AddFOp::create(nb, l, args[1], toAcc(nb, l, args[0]));
        }));
  SmallVector<AffineMap> statMaps(stats.size(), row);
  SmallVector<Value> squaresInputs = {x};
  squaresInputs.append(stats);
  SmallVector<AffineMap> squaresMaps = {id};
  squaresMaps.append(statMaps);
  stats.push_back(buildMultiReduction(
      b, loc, squaresInputs, squaresMaps, rowType, rowDyn, row, 1, rowIterators,
      [&](OpBuilder &nb, Location l, ValueRange args) -> SmallVector<Value> {
        Value v = toAcc(nb, l, args[0]);
        if (centered)
          v = arith::SubFOp::create(nb, l, v, div(nb, l, args[1]));
        return {arith::AddFOp::create(nb, l, args.back(),
                                      arith::MulFOp::create(nb, l, v, v))};
      })[0]);
  statMaps.push_back(row);

  // (xhat, inv) of the scalar x from the statistics' scalars.
  auto normalize = [&](OpBuilder &nb, Location l, Value xs,
                       ValueRange st) -> std::pair<Value, Value> {
    Value v = toAcc(nb, l, xs);
    if (centered)
      v = arith::SubFOp::create(nb, l, v, div(nb, l, st[0]));
    Value inv = math::RsqrtOp::create(
        nb, l, arith::AddFOp::create(nb, l, div(nb, l, st.back()), eps));
    return {arith::MulFOp::create(nb, l, v, inv).getResult(), inv};
  };
  size_t numStats = stats.size();

  // Row sums of g * xhat [and of g].
  SmallVector<Value> gInputs = {dy, x, gamma};
  gInputs.append(stats);
  SmallVector<AffineMap> gMaps = {id, id, feature};
  gMaps.append(statMaps);
  SmallVector<Value> gSums = buildMultiReduction(
      b, loc, gInputs, gMaps, rowType, rowDyn, row, centered ? 2 : 1,
      rowIterators,
      [&](OpBuilder &nb, Location l, ValueRange args) -> SmallVector<Value> {
        Value gammaAcc = toAcc(nb, l, args[2]);
        Value dyAcc = toAcc(nb, l, args[0]);
        Value g = arith::MulFOp::create(nb, l, dyAcc, gammaAcc);
        Value xhat = normalize(nb, l, args[1], args.slice(3, numStats)).first;
        ValueRange accs = args.drop_front(3 + numStats);
        SmallVector<Value> out = {arith::AddFOp::create(
            nb, l, accs[0], arith::MulFOp::create(nb, l, g, xhat))};
        if (centered)
          out.push_back(arith::AddFOp::create(nb, l, accs[1], g));
        return out;
      });

  SmallVector<Value> dxInputs(gInputs);
  dxInputs.append(gSums);
  SmallVector<AffineMap> dxMaps(gMaps);
  dxMaps.append(gSums.size(), row);
  Value dx = buildMappedGeneric(
      b, loc, type, getDynamicDims(b, loc, x), dxInputs, dxMaps,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value gammaAcc = toAcc(nb, l, args[2]);
        Value dyAcc = toAcc(nb, l, args[0]);
        Value g = arith::MulFOp::create(nb, l, dyAcc, gammaAcc);
        auto [xhat, inv] = normalize(nb, l, args[1], args.slice(3, numStats));
        ValueRange sums = args.drop_front(3 + numStats);
        Value v = arith::SubFOp::create(
            nb, l, g, arith::MulFOp::create(nb, l, xhat, div(nb, l, sums[0])));
        if (centered)
          v = arith::SubFOp::create(nb, l, v, div(nb, l, sums[1]));
        return castScalar(nb, l, arith::MulFOp::create(nb, l, inv, v), element,
                          false, false);
      });

  // d_gamma [and d_beta]: reductions over every dim but the last.
  SmallVector<utils::IteratorType> featureIterators(
      rank, utils::IteratorType::reduction);
  featureIterators[axis] = utils::IteratorType::parallel;
  SmallVector<Value> paramInputs = {dy, x};
  paramInputs.append(stats);
  SmallVector<AffineMap> paramMaps = {id, id};
  paramMaps.append(statMaps);
  SmallVector<Value> params = buildMultiReduction(
      b, loc, paramInputs, paramMaps, gammaType.clone(acc),
      getDynamicDims(b, loc, gamma), feature, centered ? 2 : 1,
      featureIterators,
      [&](OpBuilder &nb, Location l, ValueRange args) -> SmallVector<Value> {
        Value d = toAcc(nb, l, args[0]);
        Value xhat = normalize(nb, l, args[1], args.slice(2, numStats)).first;
        ValueRange accs = args.drop_front(2 + numStats);
        SmallVector<Value> out = {arith::AddFOp::create(
            nb, l, accs[0], arith::MulFOp::create(nb, l, d, xhat))};
        if (centered)
          out.push_back(arith::AddFOp::create(nb, l, accs[1], d));
        return out;
      });
  SmallVector<Value> results = {dx};
  for (Value p : params)
    results.push_back(castTensor(b, loc, p, gammaType.getElementType()));
  return results;
}

/// Sums the query heads of [B, H, X, Y] (acc) that share a kv head:
/// [B, H / group, X, Y].
static Value sumGroups(OpBuilder &b, Location loc, Value perHead,
                       int64_t group) {
  if (group == 1)
    return perHead;
  auto type = cast<RankedTensorType>(perHead.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, perHead);
  sizes[1] = b.getIndexAttr(type.getDimSize(1) / group);
  sizes.insert(sizes.begin() + 2, b.getIndexAttr(group));
  SmallVector<int64_t> shape(type.getShape());
  shape[1] /= group;
  shape.insert(shape.begin() + 2, group);
  Value grouped = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), perHead,
      SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}}, sizes);
  return buildReduction(
      b, loc, grouped, 2, type.getElementType(),
      createScalarConstant(b, loc, type.getElementType(), 0),
      [](OpBuilder &nb, Location l, ValueRange args) -> Value {
        return arith::AddFOp::create(nb, l, args[1], args[0]);
      });
}

namespace {

/// layer_norm_backward (`Centered`: statistics around the mean) and
/// rms_norm_backward share one builder.
template <typename OpTy, bool Centered>
struct NormBackwardPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, buildNormBackward(rewriter, op.getLoc(), adaptor.getDResult(),
                              adaptor.getInput(), adaptor.getGamma(),
                              op.getEpsilon().convertToDouble(), Centered));
    return success();
  }
};

/// With P = softmax(scale q k^T + mask) recomputed and D = rowsum(dO * O)
/// (= rowsum(dP * P), without the [S, Skv] product):
///   dV = P^T dO, dP = dO V^T, dS = scale * P * (dP - D),
///   dQ = dS K, dK = dS^T Q,
/// dK and dV per query head, then summed over the heads of a kv head.
/// Masked entries have P = 0, so they pass no gradient.
struct AttentionBackwardPattern : OpConversionPattern<AttentionBackwardOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AttentionBackwardOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value q = adaptor.getQuery(), k = adaptor.getKey(), v = adaptor.getValue(),
          o = adaptor.getOutput(), dO = adaptor.getDOutput();
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
    Type acc = getAccumulatorType(qt.getElementType());
    double scale = op.getScale() ? op.getScale()->convertToDouble()
                                 : 1.0 / std::sqrt(double(headDim));
    Value probs =
        buildAttentionProbs(rewriter, loc, q, k, adaptor.getAttnMask(),
                            op.getMask(), op.getWindowAttr(), scale);
    auto scoreType = cast<RankedTensorType>(probs.getType());
    SmallVector<Value> scoreDyn = getDynamicDims(rewriter, loc, probs);

    AffineExpr b0 = getAffineDimExpr(0, ctx), h = getAffineDimExpr(1, ctx),
               i = getAffineDimExpr(2, ctx), j = getAffineDimExpr(3, ctx),
               r = getAffineDimExpr(4, ctx);
    AffineExpr kvHead = group == 1 ? h : h.floorDiv(group);
    auto map = [&](ArrayRef<AffineExpr> exprs) {
      return AffineMap::get(5, 0, exprs, ctx);
    };
    Value zero = createScalarConstant(rewriter, loc, acc, 0);
    SmallVector<utils::IteratorType> it5(5, utils::IteratorType::parallel);
    it5[4] = utils::IteratorType::reduction;
    // A zero [B, H, X, Y] accumulator with X, Y the sizes of dim `xDim` of
    // `x` and dim `yDim` of `y`.
    auto zeros = [&](Value x, int64_t xDim, Value y, int64_t yDim) {
      auto xt = cast<RankedTensorType>(x.getType());
      auto yt = cast<RankedTensorType>(y.getType());
      auto type = RankedTensorType::get(
          {qt.getDimSize(0), heads, xt.getDimSize(xDim), yt.getDimSize(yDim)},
          acc);
      SmallVector<Value> dyn;
      if (qt.isDynamicDim(0))
        dyn.push_back(getDimSize(rewriter, loc, q, 0));
      if (xt.isDynamicDim(xDim))
        dyn.push_back(getDimSize(rewriter, loc, x, xDim));
      if (yt.isDynamicDim(yDim))
        dyn.push_back(getDimSize(rewriter, loc, y, yDim));
      return createFilled(rewriter, loc, type, dyn, zero);
    };

    // dP[b, h, i, j] = sum_e dO[b, h, i, e] v[b, h/g, j, e]
    Value dP = buildContraction(
        rewriter, loc, dO, v,
        createFilled(rewriter, loc, scoreType, scoreDyn, zero),
        {map({b0, h, i, r}), map({b0, kvHead, j, r}), map({b0, h, i, j})}, it5);
    Value rowD = buildReduction(rewriter, loc, ValueRange{dO, o}, 3, acc, zero,
                                [&](OpBuilder &b, Location l, ValueRange args) {
                                  return multiplyAccumulate(b, l, args[2],
                                                            args[0], args[1]);
                                });
    AffineMap id4 = rewriter.getMultiDimIdentityMap(4);
    Value dS = buildMappedGeneric(
        rewriter, loc, scoreType, scoreDyn, ValueRange{probs, dP, rowD},
        {id4, id4, getDropDimsMap(ctx, 4, 3)},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value d = arith::SubFOp::create(b, l, args[1], args[2]);
          Value scaleCst = createScalarConstant(b, l, acc, scale);
          Value pd = arith::MulFOp::create(b, l, args[0], d);
          return arith::MulFOp::create(b, l, pd, scaleCst);
        });

    // dQ[b, h, i, d] = sum_j dS[b, h, i, j] k[b, h/g, j, d]
    Value dQ = buildContraction(
        rewriter, loc, dS, k, zeros(q, 2, q, 3),
        {map({b0, h, i, r}), map({b0, kvHead, r, j}), map({b0, h, i, j})}, it5);
    // Per query head, loops (b, h, j, d, i):
    // dK[b, h, j, d] = sum_i dS[b, h, i, j] q[b, h, i, d]
    // dV[b, h, j, e] = sum_i P[b, h, i, j] dO[b, h, i, e]
    SmallVector<AffineMap> transposedMaps = {
        map({b0, h, r, i}), map({b0, h, r, j}), map({b0, h, i, j})};
    Value dK = buildContraction(rewriter, loc, dS, q, zeros(k, 2, q, 3),
                                transposedMaps, it5);
    Value dV = buildContraction(rewriter, loc, probs, dO, zeros(v, 2, v, 3),
                                transposedMaps, it5);
    SmallVector<Value> results = {
        castTensor(rewriter, loc, dQ, qt.getElementType()),
        castTensor(rewriter, loc, sumGroups(rewriter, loc, dK, group),
                   kt.getElementType()),
        castTensor(rewriter, loc, sumGroups(rewriter, loc, dV, group),
                   vt.getElementType())};
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// The input's cotangent is the transposed convolution of d_result by the
/// same weight and window; the result type fixes the rows and columns that
/// the forward's window never reached (zero cotangent).
struct Conv2DBackwardInputPattern : OpConversionPattern<Conv2DBackwardInputOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Conv2DBackwardInputOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value dy = adaptor.getDResult(), weight = adaptor.getOther();
    auto resultType = op.getType();
    if (!resultType.hasStaticShape() ||
        !cast<RankedTensorType>(dy.getType()).hasStaticShape() ||
        !cast<RankedTensorType>(weight.getType()).hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    FailureOr<ConvWindow> w =
        readConvWindow(std::nullopt, "", resultType, op.getStridesAttr(),
                       op.getPaddingAttr(), op.getDilationsAttr(), nullptr, {});
    if (failed(w))
      return failure();
    Type element = resultType.getElementType();
    Value result = buildConvTranspose2D(
        rewriter, loc, dy, weight,
        resultType.clone(getAccumulatorType(element)), *w, op.getGroups());
    rewriter.replaceOp(op, castTensor(rewriter, loc, result, element));
    return success();
  }
};

/// dW[co, ci, ky, kx] = sum_{n, oy, ox} dy[n, co, oy, ox] *
///     x_padded[n, group(co) * Cin/G + ci, oy * s + ky * d, ox * s + kx * d]
struct Conv2DBackwardWeightPattern
    : OpConversionPattern<Conv2DBackwardWeightOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Conv2DBackwardWeightOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value dy = adaptor.getDResult(), x = adaptor.getOther();
    auto inType = cast<RankedTensorType>(x.getType());
    auto resultType = op.getType();
    if (!resultType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "the weight must be static");
    FailureOr<ConvWindow> w =
        readConvWindow(std::nullopt, "", inType, op.getStridesAttr(),
                       op.getPaddingAttr(), op.getDilationsAttr(), nullptr, {});
    if (failed(w))
      return failure();
    int64_t groups = op.getGroups();
    int64_t coutPerGroup = resultType.getDimSize(0) / groups;
    int64_t cinPerGroup = resultType.getDimSize(1);
    Type element = resultType.getElementType();
    Type acc = getAccumulatorType(element);
    Value padded = padSpatial(
        rewriter, loc, x, w->padding,
        createScalarConstant(rewriter, loc, inType.getElementType(), 0));
    // Loops: co, ci, ky, kx, n, oy, ox.
    auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    AffineExpr channel =
        groups == 1 ? d(1) : d(0).floorDiv(coutPerGroup) * cinPerGroup + d(1);
    AffineMap xMap = AffineMap::get(
        7, 0,
        {d(4), channel, d(5) * w->strides[0] + d(2) * w->dilations[0],
         d(6) * w->strides[1] + d(3) * w->dilations[1]},
        ctx);
    AffineMap dyMap = AffineMap::get(7, 0, {d(4), d(0), d(5), d(6)}, ctx);
    AffineMap outMap = AffineMap::get(7, 0, {d(0), d(1), d(2), d(3)}, ctx);
    SmallVector<utils::IteratorType> iterators(7,
                                               utils::IteratorType::parallel);
    for (int64_t i = 4; i < 7; ++i)
      iterators[i] = utils::IteratorType::reduction;
    Value init = createFilled(rewriter, loc, resultType.clone(acc), {},
                              createScalarConstant(rewriter, loc, acc, 0));
    Value result = buildContraction(rewriter, loc, padded, dy, init,
                                    {xMap, dyMap, outMap}, iterators);
    rewriter.replaceOp(op, castTensor(rewriter, loc, result, element));
    return success();
  }
};

/// (softmax(logits) - onehot(labels)) * d_loss / N, the softmax with the
/// forward's stable statistics.
struct SoftmaxCrossEntropyBackwardPattern
    : OpConversionPattern<SoftmaxCrossEntropyBackwardOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SoftmaxCrossEntropyBackwardOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value logits = adaptor.getLogits();
    auto type = cast<RankedTensorType>(logits.getType());
    Type element = type.getElementType();
    Type acc = getAccumulatorType(element);
    auto [max, sum] = softmaxStats(rewriter, loc, logits, 1, acc);
    Value count = getCountAsFloat(rewriter, loc, logits, 0, acc);
    AffineMap row = getDropDimsMap(ctx, 2, 1);
    Value result = buildMappedGeneric(
        rewriter, loc, type, getDynamicDims(rewriter, loc, logits),
        ValueRange{logits, max, sum, adaptor.getLabels(), adaptor.getDLoss()},
        {rewriter.getMultiDimIdentityMap(2), row, row, row,
         AffineMap::get(2, 0, {}, ctx)},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = castScalar(b, l, args[0], acc, false, false);
          Value p = arith::DivFOp::create(
              b, l,
              math::ExpOp::create(b, l,
                                  arith::SubFOp::create(b, l, x, args[1])),
              args[2]);
          Value label =
              arith::IndexCastOp::create(b, l, b.getIndexType(), args[3]);
          Value isLabel =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                    linalg::IndexOp::create(b, l, 1), label);
          Value g = arith::SelectOp::create(
              b, l, isLabel,
              arith::SubFOp::create(b, l, p,
                                    createScalarConstant(b, l, acc, 1)),
              p);
          Value scaled = arith::DivFOp::create(
              b, l,
              arith::MulFOp::create(
                  b, l, g, castScalar(b, l, args[4], acc, false, false)),
              count);
          return castScalar(b, l, scaled, element, false, false);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void rlx::populateBackwardToLinalgPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<
      AttentionBackwardPattern, NormBackwardPattern<LayerNormBackwardOp, true>,
      NormBackwardPattern<RmsNormBackwardOp, false>, Conv2DBackwardInputPattern,
      Conv2DBackwardWeightPattern, SoftmaxCrossEntropyBackwardPattern>(
      converter, patterns.getContext());
}
