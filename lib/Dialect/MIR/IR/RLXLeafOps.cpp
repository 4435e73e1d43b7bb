//===- RLXLeafOps.cpp - graph leaves and casts ---===//
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
#include "RLX/Dialect/MIR/IR/RLXLeafOps.cpp.inc"

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  auto type = dyn_cast<RankedTensorType>(adaptor.getValue().getType());
  if (!type)
    return emitInferError(loc, getOperationName(),
                       "'value' must have a ranked tensor type, got ",
                       adaptor.getValue().getType());
  types.push_back(type);
  return success();
}

//===----------------------------------------------------------------------===//
// ParamOp
//===----------------------------------------------------------------------===//

LogicalResult ParamOp::verify() {
  if (getName().empty())
    return emitOpError("'name' must not be empty");
  // The first param of this name in the function fixes the weight's type.
  Operation *scope = (*this)->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
  if (!scope)
    return success();
  ParamOp first;
  scope->walk([&](ParamOp other) {
    if (other.getName() != getName())
      return WalkResult::advance();
    first = other;
    return WalkResult::interrupt();
  });
  if (!first || first == *this || first.getType() == getType())
    return success();
  InFlightDiagnostic diag = emitOpError("weight \"")
                            << getName() << "\" has type " << getType()
                            << " here but " << first.getType()
                            << " at an earlier use";
  diag.attachNote(first.getLoc()) << "first use of \"" << getName() << "\"";
  return diag;
}
