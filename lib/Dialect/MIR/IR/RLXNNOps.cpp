//===- RLXNNOps.cpp - normalization, attention and position ops ---===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "RLXAsmDirectives.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::rlx;

#define GET_OP_CLASSES
#include "RLX/Dialect/MIR/IR/RLXNNOps.cpp.inc"

//===----------------------------------------------------------------------===//
// LayerNormOp / RmsNormOp
//===----------------------------------------------------------------------===//

LogicalResult LayerNormOp::verify() {
  if (failed(verifyEpsilon(*this, getEpsilon())))
    return failure();
  return verifyNormGamma(*this, getInput(), getGamma());
}

LogicalResult RmsNormOp::verify() {
  if (failed(verifyEpsilon(*this, getEpsilon())))
    return failure();
  return verifyNormGamma(*this, getInput(), getGamma());
}

//===----------------------------------------------------------------------===//
// GroupNormOp / BatchNormInferenceOp
//===----------------------------------------------------------------------===//

LogicalResult GroupNormOp::verify() {
  RankedTensorType in = getInput().getType();
  if (failed(checkRank(getLoc(), getOperationName(), "input", in, 2,
                       /*orMore=*/true)) ||
      failed(verifyEpsilon(*this, getEpsilon())) ||
      failed(verifyFeatureParam(*this, getInput(), getGamma(), "gamma", 1,
                                "the channels of 'input'")))
    return failure();
  int64_t groups = getNumGroups(), channels = in.getDimSize(1);
  if (groups < 1)
    return emitOpError("'num_groups' must be positive, got ") << groups;
  if (!ShapedType::isDynamic(channels) && channels % groups != 0)
    return emitOpError("'num_groups' (")
           << groups << ") must divide the channels of 'input' (" << channels
           << ")";
  return success();
}

LogicalResult BatchNormInferenceOp::verify() {
  if (failed(checkRank(getLoc(), getOperationName(), "input",
                       getInput().getType(), 2, /*orMore=*/true)) ||
      failed(verifyEpsilon(*this, getEpsilon())))
    return failure();
  return verifyFeatureParam(*this, getInput(), getGamma(), "gamma", 1,
                            "the channels of 'input'");
}

//===----------------------------------------------------------------------===//
// AttentionOp
//===----------------------------------------------------------------------===//

LogicalResult AttentionOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  FailureOr<RankedTensorType> type =
      inferAttentionType(loc, getOperationName(), adaptor.getQuery(),
                         adaptor.getKey(), adaptor.getValue());
  if (failed(type))
    return failure();
  types.push_back(*type);
  return success();
}

LogicalResult AttentionOp::verify() {
  RankedTensorType q = getQuery().getType();
  int64_t scores[] = {q.getDimSize(0), q.getDimSize(1), q.getDimSize(2),
                      getKey().getType().getDimSize(2)};
  return verifyAttentionAttrs(*this, getMask(), getWindow(), getScale(),
                              getAttnMask(), q.getElementType(), scores);
}

//===----------------------------------------------------------------------===//
// RopeOp
//===----------------------------------------------------------------------===//

LogicalResult RopeOp::verify() {
  RankedTensorType in = getInput().getType(), cs = getCos().getType();
  StringRef name = getOperationName();
  if (failed(checkRank(getLoc(), name, "input", in, 4)) ||
      failed(checkRank(getLoc(), name, "cos", cs, 2)) ||
      failed(checkSameElementType(getLoc(), name, {getInput(), getCos()},
                                  {"input", "cos"})))
    return failure();
  int64_t d = in.getDimSize(3);
  if (!ShapedType::isDynamic(d) && d % 2 != 0)
    return emitOpError("the head dim of 'input' (") << d << ") must be even";
  return failure(
      failed(checkDim(getLoc(), name, "cos", cs, 0, in.getDimSize(2),
                      "the sequence length of 'input'")) ||
      failed(checkDim(getLoc(), name, "cos", cs, 1,
                      ShapedType::isDynamic(d) ? d : d / 2,
                      "half the head dim of 'input'")));
}

//===----------------------------------------------------------------------===//
// KVCacheWriteOp
//===----------------------------------------------------------------------===//

LogicalResult KVCacheWriteOp::verify() {
  RankedTensorType cache = getCache().getType(), update = getUpdate().getType();
  StringRef name = getOperationName();
  if (failed(checkRank(getLoc(), name, "cache", cache, 3, /*orMore=*/true)) ||
      failed(checkRank(getLoc(), name, "update", update, cache.getRank())) ||
      failed(
          checkRank(getLoc(), name, "position", getPosition().getType(), 0)) ||
      failed(checkSameElementType(getLoc(), name, {getCache(), getUpdate()},
                                  {"cache", "update"})))
    return failure();
  // Every dim but the sequence axis (rank - 3) is the cache's.
  int64_t rank = cache.getRank(), seq = rank - 3;
  for (int64_t i = 0; i < rank; ++i) {
    if (i == seq)
      continue;
    std::string what = i == rank - 1 ? "the head dim of 'cache'"
                       : i == rank - 2
                           ? "the kv heads of 'cache'"
                           : "dim " + std::to_string(i) + " of 'cache'";
    if (failed(checkDim(getLoc(), name, "update", update, i,
                        cache.getDimSize(i), what)))
      return failure();
  }
  int64_t n = update.getDimSize(seq), maxSeq = cache.getDimSize(seq);
  if (!ShapedType::isDynamic(n) && !ShapedType::isDynamic(maxSeq) && n > maxSeq)
    return emitOpError("the update's ")
           << n << " positions (dim " << seq
           << ") do not fit in the cache's max_seq (" << maxSeq << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// DecodeAttentionOp
//===----------------------------------------------------------------------===//

LogicalResult
DecodeAttentionOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                    Adaptor adaptor,
                                    SmallVectorImpl<Type> &types) {
  FailureOr<RankedTensorType> type = inferDecodeAttentionType(
      loc, getOperationName(), adaptor.getQuery(), adaptor.getKeyCache(),
      adaptor.getValueCache(), adaptor.getLength());
  if (failed(type))
    return failure();
  types.push_back(*type);
  return success();
}

LogicalResult DecodeAttentionOp::verify() {
  RankedTensorType q = getQuery().getType(), k = getKeyCache().getType();
  int64_t kvHeads = getNumKvHeads(), window = getWindow();
  if (kvHeads < 1)
    return emitOpError("'num_kv_heads' must be positive, got ") << kvHeads;
  if (failed(checkDim(getLoc(), getOperationName(), "key_cache", k, 2, kvHeads,
                      "'num_kv_heads'")))
    return failure();
  int64_t heads = q.getDimSize(1);
  if (!ShapedType::isDynamic(heads) && heads % kvHeads != 0)
    return emitOpError("query heads (")
           << heads << ") must be a multiple of 'num_kv_heads' (" << kvHeads
           << ")";
  if (window < 0)
    return emitOpError("'window' must be non-negative (0: no window), got ")
           << window;
  if (std::optional<APFloat> scale = getScale();
      scale && (scale->isZero() || scale->isNaN()))
    return emitOpError("'scale' must be non-zero");
  int64_t len = q.getDimSize(2), maxSeq = k.getDimSize(1);
  if (!ShapedType::isDynamic(len) && !ShapedType::isDynamic(maxSeq) &&
      len > maxSeq)
    return emitOpError("the query length (")
           << len << ") must not exceed the cache's max_seq (" << maxSeq << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// SampleOp
//===----------------------------------------------------------------------===//

LogicalResult SampleOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  FailureOr<RankedTensorType> type = inferSampleType(
      loc, getOperationName(), adaptor.getLogits(), adaptor.getSeed());
  if (failed(type))
    return failure();
  types.push_back(*type);
  return success();
}

LogicalResult SampleOp::verify() {
  double temperature = getTemperature().convertToDouble();
  double topP = getTopP().convertToDouble();
  int64_t topK = getTopK();
  // NaN fails both comparisons, so it is rejected too.
  if (!(temperature >= 0))
    return emitOpError("'temperature' must be non-negative (0: greedy), got ")
           << temperature;
  if (topK < 0)
    return emitOpError("'top_k' must be non-negative (0: off), got ") << topK;
  if (!(topP > 0 && topP <= 1))
    return emitOpError("'top_p' must be in (0, 1] (1: off), got ") << topP;
  return success();
}

//===----------------------------------------------------------------------===//
// LoraMatmulOp
//===----------------------------------------------------------------------===//

LogicalResult LoraMatmulOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  FailureOr<RankedTensorType> type = inferLoraMatmulType(
      loc, getOperationName(), adaptor.getInput(), adaptor.getWeight(),
      adaptor.getLoraA(), adaptor.getLoraB());
  if (failed(type))
    return failure();
  types.push_back(*type);
  return success();
}

LogicalResult LoraMatmulOp::verify() {
  APFloat scale = getScale();
  if (!scale.isFinite())
    return emitOpError("'scale' must be finite, got ")
           << scale.convertToDouble();
  return success();
}

//===----------------------------------------------------------------------===//
// GroupedMatmulOp
//===----------------------------------------------------------------------===//

LogicalResult GroupedMatmulOp::inferReturnTypes(MLIRContext *,
                                                std::optional<Location> loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &types) {
  FailureOr<RankedTensorType> type =
      inferGroupedMatmulType(loc, getOperationName(), adaptor.getInput(),
                             adaptor.getWeights(), adaptor.getExpert());
  if (failed(type))
    return failure();
  types.push_back(*type);
  return success();
}

LogicalResult GroupedMatmulOp::verify() {
  if (getWeights().getType().getDimSize(0) == 0)
    return emitOpError("'weights' must hold at least one expert (dim 0 is 0)");
  return success();
}

//===----------------------------------------------------------------------===//
// GatedDeltaNetOp
//===----------------------------------------------------------------------===//

LogicalResult GatedDeltaNetOp::inferReturnTypes(MLIRContext *,
                                                std::optional<Location> loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &types) {
  return inferGatedDeltaNetTypes(loc, getOperationName(), adaptor.getQuery(),
                                 adaptor.getKey(), adaptor.getValue(),
                                 adaptor.getGate(), adaptor.getBeta(),
                                 adaptor.getState(), types);
}
