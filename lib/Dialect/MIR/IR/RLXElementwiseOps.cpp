//===- RLXElementwiseOps.cpp - elementwise ops ---===//
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
#include "RLX/Dialect/MIR/IR/RLXElementwiseOps.cpp.inc"

//===----------------------------------------------------------------------===//
// CmpOp
//===----------------------------------------------------------------------===//

LogicalResult CmpOp::inferReturnTypes(MLIRContext *context,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
  if (failed(checkSameElementType(loc, getOperationName(), {lhs, rhs},
                                  {"lhs", "rhs"})))
    return failure();
  return inferElementwiseResult(loc, getOperationName(), {lhs, rhs},
                                {"lhs", "rhs"}, IntegerType::get(context, 1),
                                types);
}

LogicalResult CmpOp::verify() {
  CmpPredicate predicate = getPredicate();
  if (isa<ComplexType>(getElementTypeOrSelf(getLhs().getType())) &&
      predicate != CmpPredicate::EQ && predicate != CmpPredicate::NE)
    return emitOpError("complex operands only compare with 'eq' and 'ne', "
                       "not '")
           << stringifyCmpPredicate(predicate) << "'";
  return success();
}

//===----------------------------------------------------------------------===//
// WhereOp
//===----------------------------------------------------------------------===//

LogicalResult WhereOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  Value onTrue = adaptor.getOnTrue(), onFalse = adaptor.getOnFalse();
  if (failed(checkSameElementType(loc, getOperationName(), {onTrue, onFalse},
                                  {"on_true", "on_false"})))
    return failure();
  return inferElementwiseResult(
      loc, getOperationName(), adaptor.getOperands(),
      {"condition", "on_true", "on_false"},
      getElementTypeOrSelf(onTrue.getType()), types);
}

//===----------------------------------------------------------------------===//
// FmaOp
//===----------------------------------------------------------------------===//

LogicalResult FmaOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  return inferElementwiseResult(loc, getOperationName(), adaptor.getOperands(),
                                {"a", "b", "c"}, /*resultElementType=*/nullptr,
                                types);
}

//===----------------------------------------------------------------------===//
// ElementwiseRegionOp
//===----------------------------------------------------------------------===//

LogicalResult ElementwiseRegionOp::verifyRegions() {
  if (getResults().empty())
    return emitOpError("must have at least one result");
  if (getInputs().empty())
    return emitOpError("must have at least one input (use rlx.constant for "
                       "values that depend on none)");
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("body has ")
           << body.getNumArguments() << " arguments but the op has "
           << getInputs().size() << " inputs";
  for (auto [i, input, arg] :
       llvm::enumerate(getInputs(), body.getArguments())) {
    Type element = getElementTypeOrSelf(input.getType());
    if (arg.getType() != element)
      return emitOpError("body argument #")
             << i << " has type " << arg.getType()
             << " but input #" << i << " has element type " << element;
  }
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getNumOperands() != getNumResults())
    return emitOpError("body yields ")
           << yield.getNumOperands() << " values but the op has "
           << getNumResults() << " results";
  for (auto [i, value, result] :
       llvm::enumerate(yield.getOperands(), getResults())) {
    Type element = getElementTypeOrSelf(result.getType());
    if (value.getType() != element)
      return emitOpError("body yields ")
             << value.getType() << " for result #" << i
             << " whose element type is " << element;
  }
  // Every result has the broadcast shape of the inputs.
  SmallVector<Type> inferred;
  SmallVector<std::string> nameStorage;
  for (size_t i = 0; i < getInputs().size(); ++i)
    nameStorage.push_back("input #" + std::to_string(i));
  SmallVector<StringRef> names(nameStorage.begin(), nameStorage.end());
  if (failed(inferElementwiseResult(getLoc(), getOperationName(), getInputs(),
                                    names, getElementTypeOrSelf(getType(0)),
                                    inferred)))
    return failure();
  for (auto [i, result] : llvm::enumerate(getResults())) {
    auto shape = cast<RankedTensorType>(result.getType()).getShape();
    if (shape != cast<RankedTensorType>(inferred.front()).getShape())
      return emitOpError("result #")
             << i << " has type " << result.getType()
             << " but the inputs broadcast to " << inferred.front();
  }
  return success();
}

bool mlir::rlx::isBroadcastingElementwise(Operation *op) {
  return isa<AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp, PowOp, CmpOp, WhereOp,
             FmaOp>(op);
}
