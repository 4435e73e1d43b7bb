//===- RLXBackwardOps.cpp - dedicated backward ops ---===//
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
#include "RLX/Dialect/MIR/IR/RLXBackwardOps.cpp.inc"

//===----------------------------------------------------------------------===//
// AttentionBackwardOp
//===----------------------------------------------------------------------===//

LogicalResult AttentionBackwardOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  // The forward's shape rules fix the output; the cotangents take the
  // operands' types.
  StringRef name = getOperationName();
  FailureOr<RankedTensorType> forward =
      inferAttentionType(loc, name, adaptor.getQuery(), adaptor.getKey(),
                         adaptor.getValue());
  if (failed(forward))
    return failure();
  for (auto [what, v] :
       {std::pair<StringRef, Value>{"output", adaptor.getOutput()},
        {"d_output", adaptor.getDOutput()}})
    if (v.getType() != *forward)
      return emitInferError(loc, name, "'", what, "' has type ", v.getType(),
                            " but the attention result is ", *forward);
  types.push_back(adaptor.getQuery().getType());
  types.push_back(adaptor.getKey().getType());
  types.push_back(adaptor.getValue().getType());
  return success();
}

LogicalResult AttentionBackwardOp::verify() {
  RankedTensorType q = getQuery().getType();
  int64_t scores[] = {q.getDimSize(0), q.getDimSize(1), q.getDimSize(2),
                      getKey().getType().getDimSize(2)};
  return verifyAttentionAttrs(*this, getMask(), getWindow(), getScale(),
                              getAttnMask(),
                             q.getElementType(), scores);
}

//===----------------------------------------------------------------------===//
// LayerNormBackwardOp / RmsNormBackwardOp
//===----------------------------------------------------------------------===//

LogicalResult LayerNormBackwardOp::verify() {
  if (failed(verifyEpsilon(*this, getEpsilon())))
    return failure();
  return verifyNormGamma(*this, getInput(), getGamma());
}

LogicalResult RmsNormBackwardOp::verify() {
  if (failed(verifyEpsilon(*this, getEpsilon())))
    return failure();
  return verifyNormGamma(*this, getInput(), getGamma());
}

//===----------------------------------------------------------------------===//
// Conv2DBackwardInputOp / Conv2DBackwardWeightOp
//===----------------------------------------------------------------------===//

/// Runs the forward convolution's shape rule on (input, weight) and checks
/// that it yields `dResult`'s type.
template <typename OpTy>
static LogicalResult verifyConvBackward(OpTy op, RankedTensorType input,
                                        RankedTensorType weight) {
  if (input.getRank() != 4 || weight.getRank() != 4)
    return op.emitOpError("the forward convolution's input and weight must "
                          "be rank 4 (NCHW), got ")
           << input << " and " << weight;
  FailureOr<RankedTensorType> forward = inferConvType(
      op.getLoc(), op.getOperationName(), input, weight, /*bias=*/nullptr,
      op.getStridesAttr(), op.getPaddingAttr(), op.getDilationsAttr(),
      op.getGroupsAttr());
  if (failed(forward))
    return failure();
  if (*forward != op.getDResult().getType())
    return op.emitOpError("'d_result' has type ")
           << op.getDResult().getType() << " but the forward convolution of "
           << input << " by " << weight << " gives " << *forward;
  return success();
}

LogicalResult Conv2DBackwardInputOp::verify() {
  return verifyConvBackward(*this, getType(), getOther().getType());
}

LogicalResult Conv2DBackwardWeightOp::verify() {
  return verifyConvBackward(*this, getOther().getType(), getType());
}

//===----------------------------------------------------------------------===//
// SoftmaxCrossEntropyBackwardOp
//===----------------------------------------------------------------------===//

LogicalResult SoftmaxCrossEntropyBackwardOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  FailureOr<RankedTensorType> loss =
      inferCrossEntropyType(loc, getOperationName(), adaptor.getLogits(),
                            adaptor.getLabels());
  if (failed(loss))
    return failure();
  if (adaptor.getDLoss().getType() != *loss)
    return emitInferError(loc, getOperationName(), "'d_loss' has type ",
                          adaptor.getDLoss().getType(), " but the loss is ",
                          *loss);
  types.push_back(adaptor.getLogits().getType());
  return success();
}
