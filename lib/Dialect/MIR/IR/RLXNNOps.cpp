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
