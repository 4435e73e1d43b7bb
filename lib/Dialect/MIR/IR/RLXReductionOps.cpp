//===- RLXReductionOps.cpp - reductions and scans ---===//
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
#include "RLX/Dialect/MIR/IR/RLXReductionOps.cpp.inc"

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto type = cast<RankedTensorType>(adaptor.getInput().getType());
  if (failed(requireAttr(loc, getOperationName(), adaptor.getAxesAttr(),
                         "axes")))
    return failure();
  if (adaptor.getAxes().empty())
    return emitInferError(loc, getOperationName(),
                          "'axes' must name at least one dim");
  FailureOr<SmallVector<int64_t>> axes = normalizeAxes(
      loc, getOperationName(), "axes", adaptor.getAxes(), type.getRank());
  if (failed(axes))
    return failure();
  types.push_back(type.clone(reduceShape(
      type.getShape(), *axes, boolOr(adaptor.getKeepdimAttr(), false))));
  return success();
}

LogicalResult ReduceOp::verify() {
  if (getKind() == ReduceKind::Mean &&
      !isa<FloatType>(getElementTypeOrSelf(getInput().getType())))
    return emitOpError("kind 'mean' needs a float operand, got ")
           << getInput().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// ArgMaxOp / ArgMinOp
//===----------------------------------------------------------------------===//

template <typename OpTy>
static LogicalResult inferArgReduce(std::optional<Location> loc,
                                    typename OpTy::Adaptor adaptor,
                                    SmallVectorImpl<Type> &types) {
  auto type = cast<RankedTensorType>(adaptor.getInput().getType());
  if (failed(requireAttr(loc, OpTy::getOperationName(), adaptor.getAxisAttr(),
                         "axis")))
    return failure();
  FailureOr<int64_t> axis = normalizeAxis(loc, OpTy::getOperationName(),
                                          "axis", adaptor.getAxis(),
                                          type.getRank());
  if (failed(axis))
    return failure();
  types.push_back(RankedTensorType::get(
      reduceShape(type.getShape(), {*axis},
                  boolOr(adaptor.getKeepdimAttr(), false)),
      IntegerType::get(type.getContext(), 64)));
  return success();
}

LogicalResult ArgMaxOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  return inferArgReduce<ArgMaxOp>(loc, adaptor, types);
}

LogicalResult ArgMinOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  return inferArgReduce<ArgMinOp>(loc, adaptor, types);
}

//===----------------------------------------------------------------------===//
// SoftmaxOp / LogSoftmaxOp / CumsumOp
//===----------------------------------------------------------------------===//

template <typename OpTy> static LogicalResult verifyAxisOp(OpTy op) {
  return normalizeAxis(op.getLoc(), op.getOperationName(), "axis",
                       op.getAxis(), op.getInput().getType().getRank());
}

LogicalResult SoftmaxOp::verify() { return verifyAxisOp(*this); }
LogicalResult LogSoftmaxOp::verify() { return verifyAxisOp(*this); }
LogicalResult CumsumOp::verify() { return verifyAxisOp(*this); }

//===----------------------------------------------------------------------===//
// TopKOp
//===----------------------------------------------------------------------===//

LogicalResult TopKOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  auto type = cast<RankedTensorType>(adaptor.getInput().getType());
  if (failed(requireAttr(loc, getOperationName(), adaptor.getKAttr(), "k")) ||
      failed(requireAttr(loc, getOperationName(), adaptor.getAxisAttr(),
                         "axis")))
    return failure();
  FailureOr<int64_t> axis = normalizeAxis(
      loc, getOperationName(), "axis", adaptor.getAxis(), type.getRank());
  if (failed(axis))
    return failure();
  int64_t k = adaptor.getK();
  int64_t size = type.getDimSize(*axis);
  if (k < 1)
    return emitInferError(loc, getOperationName(), "'k' must be at least 1, "
                                                   "got ",
                          k);
  if (!ShapedType::isDynamic(size) && k > size)
    return emitInferError(loc, getOperationName(), "'k' (", k,
                       ") must be in [1, ", Twine(dimStr(size)),
                       "], the size of dim ", *axis);
  SmallVector<int64_t> shape(type.getShape());
  shape[*axis] = k;
  types.push_back(type.clone(shape));
  types.push_back(RankedTensorType::get(shape, IntegerType::get(context, 64)));
  return success();
}

//===----------------------------------------------------------------------===//
// SoftmaxCrossEntropyOp
//===----------------------------------------------------------------------===//

LogicalResult SoftmaxCrossEntropyOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  FailureOr<RankedTensorType> loss = inferCrossEntropyType(
      loc, getOperationName(), adaptor.getLogits(), adaptor.getLabels());
  if (failed(loss))
    return failure();
  types.push_back(*loss);
  return success();
}
