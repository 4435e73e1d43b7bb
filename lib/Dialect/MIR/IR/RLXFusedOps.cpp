//===- RLXFusedOps.cpp - fused ops ---===//
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
#include "RLX/Dialect/MIR/IR/RLXFusedOps.cpp.inc"

/// Checks that `bias` (when present) is 1-D of size `size`.
static LogicalResult checkBias(std::optional<Location> loc, StringRef opName,
                               StringRef name, Value bias, int64_t size,
                               StringRef what) {
  if (!bias)
    return success();
  auto type = cast<RankedTensorType>(bias.getType());
  if (failed(checkRank(loc, opName, name, type, 1)))
    return failure();
  return checkDim(loc, opName, name, type, 0, size, what);
}

//===----------------------------------------------------------------------===//
// FusedMatmulBiasActOp
//===----------------------------------------------------------------------===//

LogicalResult FusedMatmulBiasActOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto lhs = cast<RankedTensorType>(adaptor.getLhs().getType());
  auto rhs = cast<RankedTensorType>(adaptor.getRhs().getType());
  if (failed(checkSameElementType(loc, name, adaptor.getOperands(),
                                  {"lhs", "rhs", "bias"})))
    return failure();
  FailureOr<SmallVector<int64_t>> shape =
      inferMatmulShape(loc, name, lhs, rhs, /*transposeLhs=*/false,
                       boolOr(adaptor.getTransposeBAttr(), false));
  if (failed(shape) ||
      failed(checkBias(loc, name, "bias", adaptor.getBias(), shape->back(),
                       "the output features")))
    return failure();
  types.push_back(lhs.clone(*shape));
  return success();
}

//===----------------------------------------------------------------------===//
// FusedResidualLayerNormOp / FusedResidualRmsNormOp
//===----------------------------------------------------------------------===//

LogicalResult FusedResidualLayerNormOp::verify() {
  if (failed(verifyEpsilon(*this, getEpsilon())))
    return failure();
  return verifyNormGamma(*this, getInput(), getGamma());
}

LogicalResult FusedResidualRmsNormOp::verify() {
  if (failed(verifyEpsilon(*this, getEpsilon())))
    return failure();
  return verifyNormGamma(*this, getInput(), getGamma());
}

//===----------------------------------------------------------------------===//
// FusedSwigluOp
//===----------------------------------------------------------------------===//

LogicalResult FusedSwigluOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto x = cast<RankedTensorType>(adaptor.getInput().getType());
  auto wg = cast<RankedTensorType>(adaptor.getWGate().getType());
  auto wu = cast<RankedTensorType>(adaptor.getWUp().getType());
  if (failed(checkSameElementType(loc, name, adaptor.getOperands(),
                                  {"input", "w_gate", "w_up"})) ||
      failed(checkRank(loc, name, "input", x, 1, /*orMore=*/true)) ||
      failed(checkRank(loc, name, "w_gate", wg, 2)) ||
      failed(checkRank(loc, name, "w_up", wu, 2)) ||
      failed(checkDim(loc, name, "w_gate", wg, 0, x.getShape().back(),
                      "the last dim of 'input'")) ||
      failed(checkDim(loc, name, "w_up", wu, 0, x.getShape().back(),
                      "the last dim of 'input'")) ||
      failed(checkDim(loc, name, "w_up", wu, 1, wg.getDimSize(1),
                      "the hidden size of 'w_gate'")))
    return failure();
  SmallVector<int64_t> shape(x.getShape().drop_back());
  shape.push_back(refineDim(wg.getDimSize(1), wu.getDimSize(1)));
  types.push_back(x.clone(shape));
  return success();
}

//===----------------------------------------------------------------------===//
// Attention block shape rules
//===----------------------------------------------------------------------===//

namespace {
/// The operands and head counts of an attention block.
struct AttentionBlock {
  Value input, wQkv, wOut, qkvBias, outBias, cos, sin;
  int64_t heads, kvHeads;
};
} // namespace

/// Checks the projections of an attention block and returns its head dim.
static FailureOr<int64_t> inferAttentionBlock(std::optional<Location> loc,
                                              StringRef name,
                                              const AttentionBlock &block) {
  auto x = cast<RankedTensorType>(block.input.getType());
  auto wqkv = cast<RankedTensorType>(block.wQkv.getType());
  auto wout = cast<RankedTensorType>(block.wOut.getType());
  if (failed(checkRank(loc, name, "input", x, 3)) ||
      failed(checkRank(loc, name, "w_qkv", wqkv, 2)) ||
      failed(checkRank(loc, name, "w_out", wout, 2)))
    return failure();
  int64_t h = block.heads, hkv = block.kvHeads;
  if (h < 1 || hkv < 1 || h % hkv != 0)
    return emitInferError(loc, name, "'num_heads' (", h,
                          ") must be a positive multiple of 'num_kv_heads' (",
                          hkv, ")");
  int64_t e = x.getDimSize(2), cols = wqkv.getDimSize(1);
  if (failed(checkDim(loc, name, "w_qkv", wqkv, 0, e, "the features of "
                                                      "'input'")) ||
      failed(checkDim(loc, name, "w_out", wout, 1, e,
                      "the features of 'input'")))
    return failure();
  if (ShapedType::isDynamic(cols))
    return emitInferError(loc, name,
                          "'w_qkv' needs a static column count to fix the "
                          "head dim");
  if (cols % (h + 2 * hkv) != 0)
    return emitInferError(loc, name, "'w_qkv' has ", cols,
                          " columns, not a multiple of num_heads + 2 * "
                          "num_kv_heads (",
                          h + 2 * hkv, ")");
  int64_t d = cols / (h + 2 * hkv);
  if (failed(checkDim(loc, name, "w_out", wout, 0, h * d,
                      "num_heads * head dim")) ||
      failed(checkBias(loc, name, "qkv_bias", block.qkvBias, cols,
                       "the columns of 'w_qkv'")) ||
      failed(checkBias(loc, name, "out_bias", block.outBias, e,
                       "the features of 'input'")))
    return failure();
  if (bool(block.cos) != bool(block.sin))
    return emitInferError(loc, name, "rope needs both 'cos' and 'sin'");
  if (block.cos) {
    if (d % 2 != 0)
      return emitInferError(loc, name, "rope needs an even head dim, got ", d);
    for (auto [tname, v] : {std::pair<StringRef, Value>{"cos", block.cos},
                            {"sin", block.sin}}) {
      auto t = cast<RankedTensorType>(v.getType());
      if (failed(checkRank(loc, name, tname, t, 2)) ||
          failed(checkDim(loc, name, tname, t, 0, x.getDimSize(1),
                          "the sequence length of 'input'")) ||
          failed(checkDim(loc, name, tname, t, 1, d / 2,
                          "half the head dim")))
        return failure();
    }
  }
  return d;
}

//===----------------------------------------------------------------------===//
// FusedAttentionBlockOp
//===----------------------------------------------------------------------===//

LogicalResult FusedAttentionBlockOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  if (failed(requireAttr(loc, name, adaptor.getNumHeadsAttr(), "num_heads")))
    return failure();
  if (failed(requireRanked(loc, name, adaptor.getOperands())))
    return failure();
  SmallVector<Value> floats;
  SmallVector<StringRef> names;
  for (auto [opName, v] :
       {std::pair<StringRef, Value>{"input", adaptor.getInput()},
        {"w_qkv", adaptor.getWQkv()},
        {"w_out", adaptor.getWOut()},
        {"qkv_bias", adaptor.getQkvBias()},
        {"out_bias", adaptor.getOutBias()},
        {"cos", adaptor.getCos()},
        {"sin", adaptor.getSin()}}) {
    if (!v)
      continue;
    floats.push_back(v);
    names.push_back(opName);
  }
  if (failed(checkSameElementType(loc, name, floats, names)))
    return failure();
  int64_t heads = adaptor.getNumHeads();
  AttentionBlock block{adaptor.getInput(),   adaptor.getWQkv(),
                       adaptor.getWOut(),    adaptor.getQkvBias(),
                       adaptor.getOutBias(), adaptor.getCos(),
                       adaptor.getSin(),     heads,
                       optionalInt(adaptor.getNumKvHeadsAttr()).value_or(heads)};
  if (failed(inferAttentionBlock(loc, name, block)))
    return failure();
  types.push_back(adaptor.getInput().getType());
  return success();
}

LogicalResult FusedAttentionBlockOp::verify() {
  RankedTensorType x = getInput().getType();
  int64_t scores[] = {x.getDimSize(0), static_cast<int64_t>(getNumHeads()),
                      x.getDimSize(1), x.getDimSize(1)};
  return verifyAttentionAttrs(*this, getMask(), getWindow(), getScale(),
                              getAttnMask(),
                             x.getElementType(), scores);
}

//===----------------------------------------------------------------------===//
// FusedTransformerLayerOp
//===----------------------------------------------------------------------===//

LogicalResult FusedTransformerLayerOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  if (failed(requireAttr(loc, name, adaptor.getNumHeadsAttr(), "num_heads")))
    return failure();
  if (failed(requireRanked(loc, name, adaptor.getOperands())))
    return failure();
  ValueRange floats = adaptor.getOperands().take_front(13);
  SmallVector<StringRef> names = {
      "input",    "w_qkv",  "qkv_bias", "w_out",  "out_bias",
      "ln1_gamma", "ln1_beta", "w_ffn1", "b_ffn1", "w_ffn2",
      "b_ffn2",   "ln2_gamma", "ln2_beta"};
  if (floats.size() != 13 ||
      failed(checkSameElementType(loc, name, floats, names)))
    return failure();
  int64_t heads = adaptor.getNumHeads();
  AttentionBlock block{adaptor.getInput(), adaptor.getWQkv(),
                       adaptor.getWOut(),  adaptor.getQkvBias(),
                       adaptor.getOutBias(), nullptr,
                       nullptr,            heads,
                       heads};
  if (failed(inferAttentionBlock(loc, name, block)))
    return failure();
  auto x = cast<RankedTensorType>(adaptor.getInput().getType());
  auto w1 = cast<RankedTensorType>(adaptor.getWFfn1().getType());
  auto w2 = cast<RankedTensorType>(adaptor.getWFfn2().getType());
  int64_t e = x.getDimSize(2);
  if (failed(checkRank(loc, name, "w_ffn1", w1, 2)) ||
      failed(checkRank(loc, name, "w_ffn2", w2, 2)) ||
      failed(checkDim(loc, name, "w_ffn1", w1, 0, e,
                      "the features of 'input'")) ||
      failed(checkDim(loc, name, "w_ffn2", w2, 0, w1.getDimSize(1),
                      "the hidden size of 'w_ffn1'")) ||
      failed(checkDim(loc, name, "w_ffn2", w2, 1, e,
                      "the features of 'input'")) ||
      failed(checkBias(loc, name, "b_ffn1", adaptor.getBFfn1(),
                       w1.getDimSize(1), "the hidden size of 'w_ffn1'")) ||
      failed(checkBias(loc, name, "b_ffn2", adaptor.getBFfn2(), e,
                       "the features of 'input'")))
    return failure();
  for (auto [pname, v] :
       {std::pair<StringRef, Value>{"ln1_gamma", adaptor.getLn1Gamma()},
        {"ln1_beta", adaptor.getLn1Beta()},
        {"ln2_gamma", adaptor.getLn2Gamma()},
        {"ln2_beta", adaptor.getLn2Beta()}})
    if (failed(checkBias(loc, name, pname, v, e, "the features of 'input'")))
      return failure();
  types.push_back(x);
  return success();
}

LogicalResult FusedTransformerLayerOp::verify() {
  RankedTensorType x = getInput().getType();
  if (getMask() == MaskKind::SlidingWindow)
    return emitOpError("mask kind 'sliding_window' is not supported by the "
                       "BERT-style layer (it has no 'window')");
  int64_t scores[] = {x.getDimSize(0), static_cast<int64_t>(getNumHeads()),
                      x.getDimSize(1), x.getDimSize(1)};
  if (failed(verifyEpsilon(*this, getEpsilon())))
    return failure();
  return verifyAttentionAttrs(*this, getMask(), std::nullopt, std::nullopt,
                              getAttnMask(),
                             x.getElementType(), scores);
}
