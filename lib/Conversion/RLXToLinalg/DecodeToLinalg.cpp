//===- DecodeToLinalg.cpp - rlx KV-cache ops to tensor and linalg ---------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx.kv_cache_write is one tensor.insert_slice into the cache at the
// run-time position, which one-shot bufferization turns into a copy of the
// new rows into a subview of the cache's buffer (in place when the cache
// is dead afterwards). rlx.decode_attention reads only the visible part of
// each cache, [start, length) with start = length - S - window + 1 under a
// window (else 0), through a tensor.extract_slice (a subview: no copy), so
// a step reads the positions it attends to, not the whole cache. Then
// scores -> causal / window mask from the loop indices -> stable softmax ->
// weighted sum, as rlx.attention, with the kv head read as h floordiv
// (H / Hkv). The score rows are max_seq long, with the visible part
// computed into a slice of them and the rest masked: rows of a static
// length keep the CPU pipeline's per-row temporaries static, which it
// allocates per thread (a dynamically sized one is shared by the threads).
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

/// The rank-0 i64 tensor `scalar` read as an index.
static Value readIndex(OpBuilder &b, Location loc, Value scalar) {
  Value v = tensor::ExtractOp::create(b, loc, scalar, ValueRange{});
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
}

/// `cache[:, start:start + size]` of a [B, max_seq, Hkv, D] cache.
static Value sliceCache(OpBuilder &b, Location loc, Value cache,
                        OpFoldResult start, Value size) {
  SmallVector<OpFoldResult> offsets, sizes, strides;
  sliceAlong(b, loc, cache, 1, start, size, offsets, sizes, strides);
  return tensor::ExtractSliceOp::create(b, loc, cache, offsets, sizes, strides);
}

namespace {

// kv_cache_write(cache, new, pos) -> insert_slice new into cache[.., pos, :, :]
struct KVCacheWritePattern : OpConversionPattern<KVCacheWriteOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(KVCacheWriteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value update = adaptor.getUpdate();
    auto type = cast<RankedTensorType>(update.getType());
    int64_t seq = type.getRank() - 3;
    OpFoldResult n =
        type.isDynamicDim(seq)
            ? OpFoldResult(
                  tensor::DimOp::create(rewriter, loc, update, seq).getResult())
            : OpFoldResult(rewriter.getIndexAttr(type.getDimSize(seq)));
    SmallVector<OpFoldResult> offsets, sizes, strides;
    sliceAlong(rewriter, loc, update, seq,
               readIndex(rewriter, loc, adaptor.getPosition()), n, offsets,
               sizes, strides);
    rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
        op, update, adaptor.getCache(), offsets, sizes, strides);
    return success();
  }
};

// decode_attention(q, kc, vc, L) -> softmax(scale q kc[:, start:L]^T + mask)
//                                   vc[:, start:L]
struct DecodeAttentionPattern : OpConversionPattern<DecodeAttentionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DecodeAttentionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    OpBuilder &b = rewriter;
    Value q = adaptor.getQuery(), kc = adaptor.getKeyCache(),
          vc = adaptor.getValueCache();
    auto qt = cast<RankedTensorType>(q.getType());
    auto kct = cast<RankedTensorType>(kc.getType());
    auto vt = cast<RankedTensorType>(vc.getType());
    int64_t heads = qt.getDimSize(1), headDim = qt.getDimSize(3);
    if (ShapedType::isDynamic(heads))
      return rewriter.notifyMatchFailure(op, "query heads must be static");
    if (!op.getScale() && ShapedType::isDynamic(headDim))
      return rewriter.notifyMatchFailure(
          op, "the default scale needs a static head dim");
    int64_t group = heads / static_cast<int64_t>(op.getNumKvHeads());
    int64_t window = op.getWindow();
    double scale = op.getScale() ? op.getScale()->convertToDouble()
                                 : 1.0 / std::sqrt(double(headDim));
    Type element = qt.getElementType();
    Type acc = getAccumulatorType(element);

    // The visible positions [start, end): end is length clamped to the
    // cache, so that no read leaves it whatever the length.
    Value length = readIndex(b, loc, adaptor.getLength());
    Value zeroIdx = arith::ConstantIndexOp::create(b, loc, 0);
    Value queries = getDimSize(b, loc, q, 2);
    Value maxSeq = getDimSize(b, loc, kc, 1);
    Value nonNegative = arith::MaxSIOp::create(b, loc, length, zeroIdx);
    Value end = arith::MinSIOp::create(b, loc, nonNegative, maxSeq);
    // Query i sits at position length - S + i, i.e. at slice index
    // i + diag.
    Value first = arith::SubIOp::create(b, loc, length, queries);
    OpFoldResult start = b.getIndexAttr(0);
    Value size = end, diag = first;
    if (window > 0) {
      Value reach = arith::ConstantIndexOp::create(b, loc, window - 1);
      Value lo = arith::SubIOp::create(b, loc, first, reach);
      Value loInCache = arith::MaxSIOp::create(b, loc, lo, zeroIdx);
      Value from = arith::MinSIOp::create(b, loc, loInCache, end);
      size = arith::SubIOp::create(b, loc, end, from);
      diag = arith::SubIOp::create(b, loc, first, from);
      start = from;
    }
    Value k = sliceCache(b, loc, kc, start, size);
    Value v = sliceCache(b, loc, vc, start, size);

    AffineExpr b0 = getAffineDimExpr(0, ctx), h = getAffineDimExpr(1, ctx),
               i = getAffineDimExpr(2, ctx), j = getAffineDimExpr(3, ctx),
               r = getAffineDimExpr(4, ctx);
    AffineExpr kvHead = group == 1 ? h : h.floorDiv(group);
    SmallVector<utils::IteratorType> it5(5, utils::IteratorType::parallel);
    it5[4] = utils::IteratorType::reduction;
    Value zero = createScalarConstant(b, loc, acc, 0);

    // Score rows [B, H, S, max_seq]: as long as the cache (static when it
    // is), not as the visible part, so that the CPU pipeline's per-row
    // temporaries have a static size. The visible part [0, size) of each
    // row is computed in a slice of them; the rest is masked below.
    auto rowType = RankedTensorType::get(
        {qt.getDimSize(0), heads, qt.getDimSize(2), kct.getDimSize(1)}, acc);
    // The dynamic sizes of the [B, H, S, x] tensors: B and S, then x.
    SmallVector<Value> rowDyn, outDyn;
    if (qt.isDynamicDim(0))
      rowDyn.push_back(getDimSize(b, loc, q, 0));
    if (qt.isDynamicDim(2))
      rowDyn.push_back(queries);
    outDyn = rowDyn;
    if (kct.isDynamicDim(1))
      rowDyn.push_back(maxSeq);
    if (vt.isDynamicDim(3))
      outDyn.push_back(getDimSize(b, loc, vc, 3));
    Value rows =
        tensor::EmptyOp::create(b, loc, rowType.getShape(), acc, rowDyn);
    SmallVector<OpFoldResult> offsets, sizes, strides;
    sliceAlong(b, loc, rows, 3, b.getIndexAttr(0), size, offsets, sizes,
               strides);
    Value part =
        tensor::ExtractSliceOp::create(b, loc, rows, offsets, sizes, strides);
    Value partInit = linalg::FillOp::create(b, loc, zero, part).getResult(0);
    // scores[b, h, i, j] = sum_d q[b, h, i, d] k[b, j, h/g, d], j < size
    Value partScores =
        buildContraction(b, loc, q, k, partInit,
                         {AffineMap::get(5, 0, {b0, h, i, r}, ctx),
                          AffineMap::get(5, 0, {b0, j, kvHead, r}, ctx),
                          AffineMap::get(5, 0, {b0, h, i, j}, ctx)},
                         it5);
    Value scores = tensor::InsertSliceOp::create(b, loc, partScores, rows,
                                                 offsets, sizes, strides);

    // Scale; -inf at and past `size`, past the query's position and, with a
    // window, at or before position - window.
    Value masked = buildMappedGeneric(
        b, loc, rowType, rowDyn, scores, {b.getMultiDimIdentityMap(4)},
        [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
          Value s = arith::MulFOp::create(
              nb, l, args[0], createScalarConstant(nb, l, acc, scale));
          Value at = arith::AddIOp::create(
              nb, l, linalg::IndexOp::create(nb, l, 2), diag);
          Value key = linalg::IndexOp::create(nb, l, 3);
          Value inPart = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt,
                                               key, size);
          Value causal =
              arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sle, key, at);
          Value visible = arith::AndIOp::create(nb, l, inPart, causal);
          if (window > 0) {
            Value lo = arith::SubIOp::create(
                nb, l, at, arith::ConstantIndexOp::create(nb, l, window));
            visible = arith::AndIOp::create(
                nb, l, visible,
                arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sgt, key,
                                      lo));
          }
          return arith::SelectOp::create(
              nb, l, visible, s, createScalarConstant(nb, l, acc, -INFINITY));
        });
    Value probs = buildMaskedSoftmax(b, loc, masked, rowDyn);
    Value partProbs =
        tensor::ExtractSliceOp::create(b, loc, probs, offsets, sizes, strides);

    // out[b, h, i, e] = sum_j p[b, h, i, j] v[b, j, h/g, e]; loops
    // (b, h, i, e, j).
    auto outType =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value outInit = createFilled(b, loc, outType.clone(acc), outDyn, zero);
    Value out = buildContraction(b, loc, partProbs, v, outInit,
                                 {AffineMap::get(5, 0, {b0, h, i, r}, ctx),
                                  AffineMap::get(5, 0, {b0, r, kvHead, j}, ctx),
                                  AffineMap::get(5, 0, {b0, h, i, j}, ctx)},
                                 it5);
    rewriter.replaceOp(op, castTensor(b, loc, out, element));
    return success();
  }
};

} // namespace

void rlx::populateDecodeToLinalgPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<KVCacheWritePattern, DecodeAttentionPattern>(
      converter, patterns.getContext());
}
