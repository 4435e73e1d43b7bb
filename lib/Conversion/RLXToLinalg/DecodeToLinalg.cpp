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
// rlx.grouped_matmul is one contraction over (row, column, k) whose body
// reads the weight with a tensor.extract at the row's expert index, clamped
// to [0, E - 1]: no gather of the weights into a [R, K, N] tensor.
//
// rlx.gated_delta_net is an scf.for over the T steps carrying the state
// [B, H, Dk, Dv] and the output [B, T, H, Dv] (f32 for f16/bf16): per step
// the state is decayed, the delta rule's rank-1 update is added, and the
// step's output row is a contraction of the state with the scaled query,
// written into the output with a tensor.insert_slice. The step's q, k, v,
// g and beta are rank-reduced slices (views) of the operands.
//
// rlx.sample sorts nothing: on [B, V] rows (a rank-1 row is expanded to
// [1, V]) every filter is a threshold found bit by bit from the top, one
// masked reduction over the rows per bit, in an scf.for carrying the [B]
// thresholds. The order (logit descending, index ascending) is the order
// of the keys (u, -i), where u is the logit's bits mapped to an unsigned
// integer of the same order; top_k is the largest key with at least top_k
// keys at or above it (the largest u first, then the index among its
// ties), top_p the same with the probability mass for the count, and the
// draw the largest index whose preceding kept mass is at most u * total.
//
//===----------------------------------------------------------------------===//

#include "PatternGroups.h"
#include "Utils.h"

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>
#include <cstdint>

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

/// The body of a row search: the membership of element (b, j) in the set
/// of candidate `cand`, from j (i64), the element's `full` scalars and the
/// row's `rows` scalars.
using MemberBuilder =
    function_ref<Value(OpBuilder &, Location, Value cand, Value j,
                       ValueRange full, ValueRange rows)>;
/// Whether a candidate of a row search is taken, from the mass of its set
/// and the row's `rows` scalars.
using AcceptBuilder =
    function_ref<Value(OpBuilder &, Location, Value sum, ValueRange rows)>;

/// Row sums over [B, V] into [B] f64 of `weights` (1 when null) over the
/// elements with member(cand[b], j, full[b, j], rows[b]) (with `cand` null,
/// member gets a null candidate).
static Value sumRows(OpBuilder &b, Location loc, Value weights, ValueRange full,
                     Value cand, ValueRange rows, ValueRange rowDyn,
                     MemberBuilder member) {
  MLIRContext *ctx = b.getContext();
  Type f64 = b.getF64Type();
  auto anyFull =
      cast<RankedTensorType>((weights ? weights : full.front()).getType());
  auto rowType = RankedTensorType::get({anyFull.getDimSize(0)}, f64);
  Value init = createFilled(b, loc, rowType, rowDyn,
                            createScalarConstant(b, loc, f64, 0));
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  AffineMap id2 = b.getMultiDimIdentityMap(2), row = getDropDimsMap(ctx, 2, 1);
  if (weights) {
    inputs.push_back(weights);
    maps.push_back(id2);
  }
  for (Value v : full) {
    inputs.push_back(v);
    maps.push_back(id2);
  }
  if (cand) {
    inputs.push_back(cand);
    maps.push_back(row);
  }
  for (Value v : rows) {
    inputs.push_back(v);
    maps.push_back(row);
  }
  maps.push_back(row);
  size_t nw = weights ? 1 : 0, nf = full.size(), nc = cand ? 1 : 0;
  auto generic = linalg::GenericOp::create(
      b, loc, rowType, inputs, init, maps,
      {utils::IteratorType::parallel, utils::IteratorType::reduction},
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value w = nw ? args[0] : createScalarConstant(nb, l, f64, 1);
        Value j = arith::IndexCastOp::create(nb, l, nb.getI64Type(),
                                             linalg::IndexOp::create(nb, l, 1));
        Value in =
            member(nb, l, nc ? args[nw + nf] : Value(), j, args.slice(nw, nf),
                   args.slice(nw + nf + nc, rows.size()));
        Value sum = arith::AddFOp::create(nb, l, args.back(), w);
        linalg::YieldOp::create(
            nb, l,
            ValueRange{arith::SelectOp::create(nb, l, in, sum, args.back())});
      });
  return generic.getResult(0);
}

/// Per row, the largest t in [0, 2^bits) of integer type `type`, built bit
/// by bit from the top, whose set {j : member(t, j, ...)} has a mass (sum
/// of `weights`, or count when null) that `accept`s; the acceptance must
/// be monotone in t (true up to some t, false after) and hold at t = 0.
/// One masked reduction over the rows per bit.
static Value searchRows(OpBuilder &b, Location loc, IntegerType type,
                        unsigned bits, Value weights, ValueRange full,
                        ValueRange rows, ValueRange rowDyn, int64_t batch,
                        MemberBuilder member, AcceptBuilder accept) {
  auto rowType = RankedTensorType::get({batch}, type);
  AffineMap id1 = b.getMultiDimIdentityMap(1);
  Value zero = createFilled(b, loc, rowType, rowDyn,
                            createScalarConstant(b, loc, type, 0));
  Value lb = arith::ConstantIndexOp::create(b, loc, 0);
  Value ub = arith::ConstantIndexOp::create(b, loc, bits);
  Value step = arith::ConstantIndexOp::create(b, loc, 1);
  Value top = arith::ConstantIndexOp::create(b, loc, bits - 1);
  auto loop = scf::ForOp::create(
      b, loc, lb, ub, step, ValueRange{zero},
      [&](OpBuilder &nb, Location l, Value iv, ValueRange iter) {
        Value t = iter[0];
        // cand = t | 1 << (bits - 1 - iv)
        Value shift = arith::IndexCastOp::create(
            nb, l, type, arith::SubIOp::create(nb, l, top, iv));
        Value bit = arith::ShLIOp::create(
            nb, l, createScalarConstant(nb, l, type, 1), shift);
        Value cand = buildMappedGeneric(
            nb, l, rowType, rowDyn, t, {id1},
            [&](OpBuilder &ib, Location il, ValueRange args) -> Value {
              return arith::OrIOp::create(ib, il, args[0], bit);
            });
        Value sum = sumRows(nb, l, weights, full, cand, rows, rowDyn, member);
        SmallVector<Value> inputs{sum, cand, t};
        llvm::append_range(inputs, rows);
        SmallVector<AffineMap> maps(inputs.size(), id1);
        Value next = buildMappedGeneric(
            nb, l, rowType, rowDyn, inputs, maps,
            [&](OpBuilder &ib, Location il, ValueRange args) -> Value {
              return arith::SelectOp::create(
                  ib, il, accept(ib, il, args[0], args.drop_front(3)), args[1],
                  args[2]);
            });
        scf::YieldOp::create(nb, l, next);
      });
  return loop.getResult(0);
}

/// key > t || (key == t && j <= jt) (keys unsigned): whether (key, j) comes
/// at or before (t, jt) in the order (key descending, index ascending).
static Value atOrBefore(OpBuilder &b, Location loc, Value key, Value j, Value t,
                        Value jt) {
  Value above =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, key, t);
  Value tie = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, key, t);
  Value before =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, j, jt);
  return arith::OrIOp::create(b, loc, above,
                              arith::AndIOp::create(b, loc, tie, before));
}

/// The last (key, index) of the order (key descending, index ascending) at
/// which the mass of `weights` (count when null) from the start of the
/// order reaches `target` [B] f64 (which the whole row's mass must reach):
/// the threshold key (a search over the key's `keyBits` bits) and the index
/// among its ties (a search over `indexBits` bits).
static std::pair<Value, Value> searchOrder(OpBuilder &b, Location loc,
                                           Value keys, Value weights,
                                           Value target, unsigned keyBits,
                                           unsigned indexBits,
                                           ValueRange rowDyn, int64_t batch) {
  auto keyType = cast<IntegerType>(
      cast<RankedTensorType>(keys.getType()).getElementType());
  // The largest t with mass(key >= t) >= target.
  Value t = searchRows(
      b, loc, keyType, keyBits, weights, keys, target, rowDyn, batch,
      [](OpBuilder &nb, Location l, Value cand, Value, ValueRange full,
         ValueRange) -> Value {
        return arith::CmpIOp::create(nb, l, arith::CmpIPredicate::uge, full[0],
                                     cand);
      },
      [](OpBuilder &nb, Location l, Value sum, ValueRange rows) -> Value {
        return arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OGE, sum,
                                     rows[0]);
      });
  // The largest jt with mass(key > t or (key == t and j < jt)) < target:
  // the target is reached at (t, jt).
  Value jt = searchRows(
      b, loc, b.getI64Type(), indexBits, weights, keys, ValueRange{target, t},
      rowDyn, batch,
      [](OpBuilder &nb, Location l, Value cand, Value j, ValueRange full,
         ValueRange rows) -> Value {
        Value last = arith::SubIOp::create(
            nb, l, cand, createScalarConstant(nb, l, nb.getI64Type(), 1));
        return atOrBefore(nb, l, full[0], j, rows[1], last);
      },
      [](OpBuilder &nb, Location l, Value sum, ValueRange rows) -> Value {
        return arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OLT, sum,
                                     rows[0]);
      });
  return {t, jt};
}

/// u in [0, 1) of row `row` (i64) and `seed` (i64), as f64:
/// splitmix64(seed + 0x9E3779B97F4A7C15 * (row + 1)) >> 40, times 2^-24.
static Value drawUniform(OpBuilder &b, Location loc, Value seed, Value row) {
  Type i64 = b.getI64Type();
  auto c = [&](uint64_t v) -> Value {
    return arith::ConstantOp::create(
        b, loc, b.getIntegerAttr(i64, static_cast<int64_t>(v)));
  };
  auto xorShift = [&](Value z, uint64_t s) -> Value {
    return arith::XOrIOp::create(b, loc, z,
                                 arith::ShRUIOp::create(b, loc, z, c(s)));
  };
  Value counter = arith::AddIOp::create(b, loc, row, c(1));
  Value z = arith::AddIOp::create(
      b, loc, seed,
      arith::MulIOp::create(b, loc, c(0x9E3779B97F4A7C15ull), counter));
  Value mix1 = c(0xBF58476D1CE4E5B9ull);
  z = arith::MulIOp::create(b, loc, xorShift(z, 30), mix1);
  Value mix2 = c(0x94D049BB133111EBull);
  z = arith::MulIOp::create(b, loc, xorShift(z, 27), mix2);
  z = xorShift(z, 31);
  Value high = arith::ShRUIOp::create(b, loc, z, c(40));
  Value asFloat = arith::UIToFPOp::create(b, loc, b.getF64Type(), high);
  return arith::MulFOp::create(
      b, loc, asFloat, createScalarConstant(b, loc, b.getF64Type(), 0x1p-24));
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

// grouped_matmul(x, w, e) -> y[r, n] = sum_k x[r, k] w[clamp(e[r]), k, n]
struct GroupedMatmulPattern : OpConversionPattern<GroupedMatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GroupedMatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    OpBuilder &b = rewriter;
    Value x = adaptor.getInput(), w = adaptor.getWeights(),
          expert = adaptor.getExpert();
    auto resultType =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Type element = resultType.getElementType();
    Type acc = getAccumulatorType(element);

    // The expert of a row is its index clamped to [0, E - 1].
    Value zeroIdx = arith::ConstantIndexOp::create(b, loc, 0);
    Value oneIdx = arith::ConstantIndexOp::create(b, loc, 1);
    Value experts = getDimSize(b, loc, w, 0);
    Value lastExpert = arith::SubIOp::create(b, loc, experts, oneIdx);

    SmallVector<Value> dynamicDims;
    if (resultType.isDynamicDim(0))
      dynamicDims.push_back(getDimSize(b, loc, x, 0));
    if (resultType.isDynamicDim(1))
      dynamicDims.push_back(getDimSize(b, loc, w, 2));
    Value zero = createScalarConstant(b, loc, acc, 0);
    Value init = createFilled(b, loc, resultType.clone(acc), dynamicDims, zero);

    // Loops (r, n, k); the weight is read with tensor.extract at the row's
    // expert.
    AffineExpr r = getAffineDimExpr(0, ctx), n = getAffineDimExpr(1, ctx),
               k = getAffineDimExpr(2, ctx);
    SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {r, k}, ctx),
                                   AffineMap::get(3, 0, {r}, ctx),
                                   AffineMap::get(3, 0, {r, n}, ctx)};
    SmallVector<utils::IteratorType> iterators = {
        utils::IteratorType::parallel, utils::IteratorType::parallel,
        utils::IteratorType::reduction};
    auto generic = linalg::GenericOp::create(
        b, loc, init.getType(), ValueRange{x, expert}, ValueRange{init}, maps,
        iterators, [&](OpBuilder &nb, Location l, ValueRange args) {
          Value index =
              arith::IndexCastOp::create(nb, l, nb.getIndexType(), args[1]);
          Value atLeast0 = arith::MaxSIOp::create(nb, l, index, zeroIdx);
          Value e = arith::MinSIOp::create(nb, l, atLeast0, lastExpert);
          Value col = linalg::IndexOp::create(nb, l, 1);
          Value row = linalg::IndexOp::create(nb, l, 2);
          Value weight =
              tensor::ExtractOp::create(nb, l, w, ValueRange{e, row, col});
          Value sum = multiplyAccumulate(nb, l, args[2], args[0], weight);
          linalg::YieldOp::create(nb, l, sum);
        });
    rewriter.replaceOp(op, castTensor(b, loc, generic.getResult(0), element));
    return success();
  }
};

/// `tensor[:, t]` of a [B, T, ...] tensor, without the T dim (a rank-reduced
/// slice: a view, no copy).
static Value sliceStep(OpBuilder &b, Location loc, Value tensor, Value t) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<OpFoldResult> offsets, sizes, strides;
  sliceAlong(b, loc, tensor, 1, t, b.getIndexAttr(1), offsets, sizes, strides);
  SmallVector<int64_t> shape(type.getShape());
  shape.erase(shape.begin() + 1);
  auto stepType = RankedTensorType::get(shape, type.getElementType());
  return tensor::ExtractSliceOp::create(b, loc, stepType, tensor, offsets,
                                        sizes, strides);
}

/// `value` (a tensor) cast to `type`, which refines its shape (no-op when
/// equal).
static Value refineTo(OpBuilder &b, Location loc, Value value,
                      RankedTensorType type) {
  if (value.getType() == type)
    return value;
  return tensor::CastOp::create(b, loc, type, value);
}

// gated_delta_net(q, k, v, g, beta, S0) -> scf.for t carrying (S, out):
//   S = S exp(g_t); S += k_t (x) ((v_t - S^T k_t) beta_t);
//   out[:, t] = S^T (q_t / sqrt(Dk))
struct GatedDeltaNetPattern : OpConversionPattern<GatedDeltaNetOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatedDeltaNetOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    OpBuilder &b = rewriter;
    auto outType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    auto stateType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getFinalState().getType()));
    Type element = outType.getElementType();
    Type acc = getAccumulatorType(element);
    // The operands at the result types' (most static) shapes, in the
    // accumulation type: [B, T, H, Dk], [B, T, H, Dv], [B, T, H] and
    // [B, H, Dk, Dv].
    ArrayRef<int64_t> o = outType.getShape(), st = stateType.getShape();
    auto qkType = RankedTensorType::get({o[0], o[1], o[2], st[2]}, element);
    auto gateType = RankedTensorType::get({o[0], o[1], o[2]}, element);
    auto operand = [&](Value v, RankedTensorType type) {
      Value refined = refineTo(b, loc, v, type);
      return castTensor(b, loc, refined, acc);
    };
    Value q = operand(adaptor.getQuery(), qkType);
    Value k = operand(adaptor.getKey(), qkType);
    Value v = operand(adaptor.getValue(), outType);
    Value g = operand(adaptor.getGate(), gateType);
    Value beta = operand(adaptor.getBeta(), gateType);
    Value state = operand(adaptor.getState(), stateType);

    // The sizes B, T, H, Dk, Dv and the dynamic ones of the loop's tensors.
    Value batch = getDimSize(b, loc, q, 0);
    Value steps = getDimSize(b, loc, q, 1);
    Value heads = getDimSize(b, loc, q, 2);
    Value dk = getDimSize(b, loc, q, 3);
    Value dv = getDimSize(b, loc, v, 3);
    auto dynamicOf = [](RankedTensorType type, ArrayRef<Value> sizes) {
      SmallVector<Value> dims;
      for (auto [i, size] : llvm::enumerate(sizes))
        if (type.isDynamicDim(i))
          dims.push_back(size);
      return dims;
    };
    auto accState = stateType.clone(acc);
    auto accOut = outType.clone(acc);
    auto rowType = RankedTensorType::get({o[0], o[2], o[3]}, acc);
    SmallVector<Value> stateDyn = dynamicOf(accState, {batch, heads, dk, dv});
    SmallVector<Value> outDyn = dynamicOf(accOut, {batch, steps, heads, dv});
    SmallVector<Value> rowDyn = dynamicOf(rowType, {batch, heads, dv});

    // q * 1/sqrt(Dk), once for all steps (as the reference scales it).
    Value scale;
    if (!qkType.isDynamicDim(3)) {
      scale = createScalarConstant(
          b, loc, acc, 1.0 / std::sqrt(double(qkType.getDimSize(3))));
    } else {
      Value dkInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), dk);
      Value dkFloat = arith::SIToFPOp::create(b, loc, acc, dkInt);
      scale = math::RsqrtOp::create(b, loc, dkFloat);
    }
    AffineMap id4 = b.getMultiDimIdentityMap(4);
    AffineMap id3 = b.getMultiDimIdentityMap(3);
    Value scaledQ = buildMappedGeneric(
        b, loc, cast<RankedTensorType>(q.getType()), getDynamicDims(b, loc, q),
        q, {id4}, [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
          return arith::MulFOp::create(nb, l, args[0], scale);
        });

    AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx),
               d2 = getAffineDimExpr(2, ctx), d3 = getAffineDimExpr(3, ctx);
    // Loops (b, h, j, i) of a contraction of the state over i: S[b, h, i,
    // j] * x[b, h, i] summed into [b, h, j].
    SmallVector<AffineMap> contractMaps = {
        AffineMap::get(4, 0, {d0, d1, d3, d2}, ctx),
        AffineMap::get(4, 0, {d0, d1, d3}, ctx),
        AffineMap::get(4, 0, {d0, d1, d2}, ctx)};
    SmallVector<utils::IteratorType> contractIters(
        3, utils::IteratorType::parallel);
    contractIters.push_back(utils::IteratorType::reduction);
    AffineMap perHead4 = AffineMap::get(4, 0, {d0, d1}, ctx);
    AffineMap perHead3 = AffineMap::get(3, 0, {d0, d1}, ctx);
    AffineMap rowI = AffineMap::get(4, 0, {d0, d1, d2}, ctx);
    AffineMap rowJ = AffineMap::get(4, 0, {d0, d1, d3}, ctx);
    Value zero = createScalarConstant(b, loc, acc, 0);
    Value zeroIdx = arith::ConstantIndexOp::create(b, loc, 0);
    Value oneIdx = arith::ConstantIndexOp::create(b, loc, 1);
    Value outInit =
        tensor::EmptyOp::create(b, loc, accOut.getShape(), acc, outDyn);

    auto loop = scf::ForOp::create(
        b, loc, zeroIdx, steps, oneIdx, ValueRange{state, outInit},
        [&](OpBuilder &nb, Location l, Value t, ValueRange carried) {
          Value qt = sliceStep(nb, l, scaledQ, t);
          Value kt = sliceStep(nb, l, k, t);
          Value vt = sliceStep(nb, l, v, t);
          Value gt = sliceStep(nb, l, g, t);
          Value betaT = sliceStep(nb, l, beta, t);
          // S * exp(g_t)
          Value decayed = buildMappedGeneric(
              nb, l, accState, stateDyn, ValueRange{carried[0], gt},
              {id4, perHead4},
              [&](OpBuilder &bb, Location bl, ValueRange args) -> Value {
                Value decay = math::ExpOp::create(bb, bl, args[1]);
                return arith::MulFOp::create(bb, bl, args[0], decay);
              });
          // kv_mem[b, h, j] = sum_i S[b, h, i, j] k_t[b, h, i]
          Value memInit = createFilled(nb, l, rowType, rowDyn, zero);
          Value mem = buildContraction(nb, l, decayed, kt, memInit,
                                       contractMaps, contractIters);
          // delta = (v_t - kv_mem) * beta_t
          Value delta = buildMappedGeneric(
              nb, l, rowType, rowDyn, ValueRange{vt, mem, betaT},
              {id3, id3, perHead3},
              [&](OpBuilder &bb, Location bl, ValueRange args) -> Value {
                Value diff = arith::SubFOp::create(bb, bl, args[0], args[1]);
                return arith::MulFOp::create(bb, bl, diff, args[2]);
              });
          // S[b, h, i, j] += k_t[b, h, i] delta[b, h, j]
          Value updated = buildMappedGeneric(
              nb, l, accState, stateDyn, ValueRange{decayed, kt, delta},
              {id4, rowI, rowJ},
              [&](OpBuilder &bb, Location bl, ValueRange args) -> Value {
                Value outer = arith::MulFOp::create(bb, bl, args[1], args[2]);
                return arith::AddFOp::create(bb, bl, args[0], outer);
              });
          // out[b, t, h, j] = sum_i S[b, h, i, j] q_t[b, h, i] scale
          Value outRowInit = createFilled(nb, l, rowType, rowDyn, zero);
          Value outRow = buildContraction(nb, l, updated, qt, outRowInit,
                                          contractMaps, contractIters);
          SmallVector<OpFoldResult> offsets, sizes, strides;
          sliceAlong(nb, l, carried[1], 1, t, nb.getIndexAttr(1), offsets,
                     sizes, strides);
          Value out = tensor::InsertSliceOp::create(nb, l, outRow, carried[1],
                                                    offsets, sizes, strides);
          scf::YieldOp::create(nb, l, ValueRange{updated, out});
        });
    Value result = castTensor(b, loc, loop.getResult(1), element);
    Value finalState = castTensor(b, loc, loop.getResult(0), element);
    rewriter.replaceOp(op, ValueRange{result, finalState});
    return success();
  }
};

// sample(logits, seed) -> argmax (temperature 0), else the draw from the
// filtered softmax(logits / temperature)
struct SamplePattern : OpConversionPattern<SampleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SampleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    MLIRContext *ctx = b.getContext();
    Value logits = adaptor.getLogits();
    auto type = cast<RankedTensorType>(logits.getType());
    Type element = type.getElementType();
    bool vector = type.getRank() == 1;
    if (vector) {
      // [V] -> [1, V]
      SmallVector<OpFoldResult> shape{
          b.getIndexAttr(1),
          type.isDynamicDim(0)
              ? OpFoldResult(getDimSize(b, loc, logits, 0))
              : OpFoldResult(b.getIndexAttr(type.getDimSize(0)))};
      type = RankedTensorType::get({1, type.getDimSize(0)}, element);
      logits = tensor::ExpandShapeOp::create(
          b, loc, type, logits, ArrayRef<ReassociationIndices>{{0, 1}}, shape);
    }
    int64_t batch = type.getDimSize(0), vocab = type.getDimSize(1);
    SmallVector<Value> rowDyn, fullDyn;
    if (type.isDynamicDim(0))
      rowDyn.push_back(getDimSize(b, loc, logits, 0));
    fullDyn = rowDyn;
    if (type.isDynamicDim(1))
      fullDyn.push_back(getDimSize(b, loc, logits, 1));
    Type f64 = b.getF64Type(), i64 = b.getI64Type();
    Type acc = element.isF64() ? f64 : b.getF32Type();
    auto accFloat = cast<FloatType>(acc);
    unsigned width = accFloat.getWidth();
    auto keyType = b.getIntegerType(width);
    Value x = castTensor(b, loc, logits, acc);
    AffineMap id1 = b.getMultiDimIdentityMap(1);
    AffineMap id2 = b.getMultiDimIdentityMap(2);
    AffineMap row = getDropDimsMap(ctx, 2, 1);
    auto rowOf = [&](Type t) { return RankedTensorType::get({batch}, t); };
    auto fullOf = [&](Type t) {
      return RankedTensorType::get({batch, vocab}, t);
    };
    // Reduces [B, V] to [B] of `t` from `init`; `combine` gets the scalars
    // of `inputs` and the accumulator.
    auto reduce = [&](ValueRange inputs, ArrayRef<AffineMap> inputMaps, Type t,
                      double init, ScalarBodyBuilder combine) {
      Value filled = createFilled(b, loc, rowOf(t), rowDyn,
                                  createScalarConstant(b, loc, t, init));
      SmallVector<AffineMap> maps(inputMaps);
      maps.push_back(row);
      auto generic = linalg::GenericOp::create(
          b, loc, rowOf(t), inputs, filled, maps,
          {utils::IteratorType::parallel, utils::IteratorType::reduction},
          [&](OpBuilder &nb, Location l, ValueRange args) {
            linalg::YieldOp::create(nb, l, combine(nb, l, args));
          });
      return generic.getResult(0);
    };
    // The first index of each row where `pred`(scalars of `inputs`) holds,
    // or the last one when `last`; rows without one give V (or -1).
    auto firstOrLast =
        [&](ValueRange inputs, ArrayRef<AffineMap> maps, bool last,
            function_ref<Value(OpBuilder &, Location, ValueRange)> pred) {
          return reduce(
              inputs, maps, i64, last ? -1.0 : 0x1p62,
              [&](OpBuilder &nb, Location l, ValueRange a) -> Value {
                Value accIdx = a.back();
                Value j = arith::IndexCastOp::create(
                    nb, l, i64, linalg::IndexOp::create(nb, l, 1));
                Value pick =
                    last ? arith::MaxSIOp::create(nb, l, accIdx, j).getResult()
                         : arith::MinSIOp::create(nb, l, accIdx, j).getResult();
                return arith::SelectOp::create(
                    nb, l, pred(nb, l, a.drop_back()), pick, accIdx);
              });
        };
    auto finish = [&](Value tokens) {
      if (vector)
        tokens = tensor::CollapseShapeOp::create(
            b, loc, RankedTensorType::get({}, i64), tokens,
            ArrayRef<ReassociationIndices>{});
      rewriter.replaceOp(op, tokens);
      return success();
    };
    // The row maxima.
    Value max = reduce(x, {id2}, acc, -INFINITY,
                       [](OpBuilder &nb, Location l, ValueRange a) -> Value {
                         return arith::MaximumFOp::create(nb, l, a[0], a[1]);
                       });

    double temperature = op.getTemperature().convertToDouble();
    if (temperature == 0) {
      // argmax: the first index of the row's maximum.
      return finish(
          firstOrLast(ValueRange{x, max}, {id2, row}, /*last=*/false,
                      [](OpBuilder &nb, Location l, ValueRange a) -> Value {
                        return arith::CmpFOp::create(
                            nb, l, arith::CmpFPredicate::OEQ, a[0], a[1]);
                      }));
    }

    // e = exp((x - max) / temperature) in acc, widened to f64: softmax up to
    // the row's normalisation, which the filters and the draw do not need.
    Value temp = createScalarConstant(b, loc, acc, temperature);
    Value weights = buildMappedGeneric(
        b, loc, fullOf(f64), fullDyn, ValueRange{x, max}, {id2, row},
        [&](OpBuilder &nb, Location l, ValueRange a) -> Value {
          Value scaled = arith::DivFOp::create(nb, l, a[0], temp);
          Value top = arith::DivFOp::create(nb, l, a[1], temp);
          Value e = math::ExpOp::create(
              nb, l, arith::SubFOp::create(nb, l, scaled, top));
          return acc == f64 ? e : arith::ExtFOp::create(nb, l, f64, e);
        });

    int64_t topK = op.getTopK();
    double topP = op.getTopP().convertToDouble();
    unsigned indexBits =
        ShapedType::isDynamic(vocab) ? 40 : llvm::Log2_64_Ceil(vocab + 1);
    bool filterK = topK > 0 && (ShapedType::isDynamic(vocab) || topK < vocab);
    bool filterP = topP < 1;
    Value keys;
    if (filterK || filterP) {
      // The order key of a logit: its bits (of -0 made +0), negatives
      // inverted and positives with the sign bit set, compared unsigned.
      keys = buildMappedGeneric(
          b, loc, fullOf(keyType), fullDyn, x, {id2},
          [&](OpBuilder &nb, Location l, ValueRange a) -> Value {
            Value plus = arith::AddFOp::create(
                nb, l, a[0], createScalarConstant(nb, l, acc, 0.0));
            Value bits = arith::BitcastOp::create(nb, l, keyType, plus);
            Value zero = createScalarConstant(nb, l, keyType, 0);
            Value negative = arith::CmpIOp::create(
                nb, l, arith::CmpIPredicate::slt, bits, zero);
            Value ones = arith::ConstantOp::create(
                nb, l, nb.getIntegerAttr(keyType, APInt::getAllOnes(width)));
            Value sign = arith::ConstantOp::create(
                nb, l,
                nb.getIntegerAttr(keyType, APInt::getSignedMinValue(width)));
            Value flipSign = arith::XOrIOp::create(nb, l, bits, sign);
            Value flipAll = arith::XOrIOp::create(nb, l, bits, ones);
            return arith::SelectOp::create(nb, l, negative, flipAll, flipSign);
          });
    }
    // weights := 0 past the point (t, jt) of the order.
    auto cut = [&](Value t, Value jt) {
      return buildMappedGeneric(
          b, loc, fullOf(f64), fullDyn, ValueRange{weights, keys, t, jt},
          {id2, id2, row, row},
          [&](OpBuilder &nb, Location l, ValueRange a) -> Value {
            Value j = arith::IndexCastOp::create(
                nb, l, i64, linalg::IndexOp::create(nb, l, 1));
            Value zero = createScalarConstant(nb, l, f64, 0);
            Value visible = atOrBefore(nb, l, a[1], j, a[2], a[3]);
            return arith::SelectOp::create(nb, l, visible, a[0], zero);
          });
    };
    auto always = [](OpBuilder &nb, Location l, Value, Value, ValueRange,
                     ValueRange) -> Value {
      return arith::ConstantIntOp::create(nb, l, 1, 1);
    };
    if (filterK) {
      // Keep the first min(top_k, V) tokens of the order.
      Value count = arith::ConstantIntOp::create(b, loc, topK, 64);
      if (ShapedType::isDynamic(vocab))
        count = arith::MinSIOp::create(
            b, loc, count,
            arith::IndexCastOp::create(b, loc, i64,
                                       getDimSize(b, loc, logits, 1)));
      Value k = arith::SIToFPOp::create(b, loc, f64, count);
      Value target = createFilled(b, loc, rowOf(f64), rowDyn, k);
      auto [t, jt] = searchOrder(b, loc, keys, Value(), target, width,
                                 indexBits, rowDyn, batch);
      weights = cut(t, jt);
    }
    if (filterP) {
      // Keep the shortest prefix of the order whose mass reaches top_p
      // times the mass kept so far.
      Value kept = sumRows(b, loc, weights, {}, Value(), {}, rowDyn, always);
      Value p = createScalarConstant(b, loc, f64, topP);
      Value target = buildMappedGeneric(
          b, loc, rowOf(f64), rowDyn, kept, {id1},
          [&](OpBuilder &nb, Location l, ValueRange a) -> Value {
            return arith::MulFOp::create(nb, l, a[0], p);
          });
      auto [t, jt] = searchOrder(b, loc, keys, weights, target, width,
                                 indexBits, rowDyn, batch);
      weights = cut(t, jt);
    }

    // The draw: r = u * total; the token is the largest J with mass(j < J)
    // <= r, i.e. the first index whose running mass exceeds r (bounded by
    // the last kept token against rounding).
    Value total = sumRows(b, loc, weights, {}, Value(), {}, rowDyn, always);
    Value seed =
        tensor::ExtractOp::create(b, loc, adaptor.getSeed(), ValueRange{});
    Value bound = buildMappedGeneric(
        b, loc, rowOf(f64), rowDyn, total, {id1},
        [&](OpBuilder &nb, Location l, ValueRange a) -> Value {
          Value r = arith::IndexCastOp::create(
              nb, l, i64, linalg::IndexOp::create(nb, l, 0));
          return arith::MulFOp::create(nb, l, drawUniform(nb, l, seed, r),
                                       a[0]);
        });
    Value token = searchRows(
        b, loc, cast<IntegerType>(i64), indexBits, weights, {}, bound, rowDyn,
        batch,
        [](OpBuilder &nb, Location l, Value cand, Value j, ValueRange,
           ValueRange) -> Value {
          return arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, j,
                                       cand);
        },
        [](OpBuilder &nb, Location l, Value sum, ValueRange rows) -> Value {
          return arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OLE, sum,
                                       rows[0]);
        });
    Value lastKept =
        firstOrLast(weights, {id2}, /*last=*/true,
                    [](OpBuilder &nb, Location l, ValueRange a) -> Value {
                      return arith::CmpFOp::create(
                          nb, l, arith::CmpFPredicate::OGT, a[0],
                          createScalarConstant(nb, l, a[0].getType(), 0));
                    });
    return finish(buildMappedGeneric(
        b, loc, rowOf(i64), rowDyn, ValueRange{token, lastKept}, {id1, id1},
        [](OpBuilder &nb, Location l, ValueRange a) -> Value {
          return arith::MinSIOp::create(nb, l, a[0], a[1]);
        }));
  }
};

} // namespace

void rlx::populateDecodeToLinalgPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<KVCacheWritePattern, DecodeAttentionPattern, SamplePattern,
               GroupedMatmulPattern, GatedDeltaNetPattern>(
      converter, patterns.getContext());
}
