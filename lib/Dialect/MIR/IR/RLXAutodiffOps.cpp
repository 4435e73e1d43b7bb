//===- RLXAutodiffOps.cpp - autodiff transform ops ---===//
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
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::rlx;

#define GET_OP_CLASSES
#include "RLX/Dialect/MIR/IR/RLXAutodiffOps.cpp.inc"

/// Looks up `callee` as a func.func and checks `operands` match its inputs.
static FailureOr<func::FuncOp> lookupCallee(Operation *op,
                                            SymbolTableCollection &symbols,
                                            FlatSymbolRefAttr callee,
                                            TypeRange operands,
                                            StringRef operandName) {
  auto fn = symbols.lookupNearestSymbolFrom<func::FuncOp>(op, callee);
  if (!fn)
    return op->emitOpError("'")
           << callee.getValue() << "' does not name a func.func";
  FunctionType type = fn.getFunctionType();
  if (TypeRange(type.getInputs()) != operands) {
    InFlightDiagnostic diag = op->emitOpError("'")
                              << operandName << "' types (";
    llvm::interleaveComma(operands, diag);
    diag << ") do not match the inputs of '" << callee.getValue() << "' (";
    llvm::interleaveComma(type.getInputs(), diag);
    return diag << ")";
  }
  return fn;
}

/// Emits "results must be (...), got (...)" unless `actual` is `expected`.
static LogicalResult checkResults(Operation *op, TypeRange expected,
                                  TypeRange actual) {
  if (expected == actual)
    return success();
  InFlightDiagnostic diag = op->emitOpError("results must be (");
  llvm::interleaveComma(expected, diag);
  diag << ") from the callee's signature, got (";
  llvm::interleaveComma(actual, diag);
  return diag << ")";
}

//===----------------------------------------------------------------------===//
// GradOp
//===----------------------------------------------------------------------===//

LogicalResult GradOp::verifySymbolUses(SymbolTableCollection &symbols) {
  FailureOr<func::FuncOp> fn = lookupCallee(
      *this, symbols, getCalleeAttr(), getOperands().getTypes(), "operands");
  if (failed(fn))
    return failure();
  TypeRange outputs = fn->getFunctionType().getResults();
  auto loss = outputs.size() == 1 ? dyn_cast<RankedTensorType>(outputs[0])
                                  : RankedTensorType();
  if (!loss || loss.getRank() != 0 || !isa<FloatType>(loss.getElementType())) {
    InFlightDiagnostic diag =
        emitOpError("'") << getCallee()
                         << "' must return one rank-0 float tensor (a scalar "
                            "loss) to take its gradient, but returns (";
    llvm::interleaveComma(outputs, diag);
    return diag << ")";
  }
  SmallVector<Type> expected = {loss};
  ArrayRef<int64_t> wrt = getWrt();
  if (wrt.empty())
    return emitOpError("'wrt' must name at least one argument");
  int64_t numArgs = getOperands().size();
  // Indices may count from the end, as Python's (and jax's argnums).
  SmallVector<int64_t> indices;
  for (int64_t i : wrt) {
    if (i < -numArgs || i >= numArgs)
      return emitOpError("'wrt' names argument ")
             << i << " but '" << getCallee() << "' takes " << numArgs
             << " arguments";
    int64_t index = i < 0 ? i + numArgs : i;
    if (llvm::is_contained(indices, index))
      return emitOpError("'wrt' names argument ") << index << " twice";
    indices.push_back(index);
  }
  for (int64_t i : indices) {
    Type arg = getOperands()[i].getType();
    if (!isa<FloatType>(getElementTypeOrSelf(arg)))
      return emitOpError("argument #")
             << i << " named in 'wrt' has type " << arg
             << "; only float arguments have gradients";
    expected.push_back(arg);
  }
  return checkResults(*this, expected, getResultTypes());
}

//===----------------------------------------------------------------------===//
// JvpOp
//===----------------------------------------------------------------------===//

LogicalResult JvpOp::verifySymbolUses(SymbolTableCollection &symbols) {
  FailureOr<func::FuncOp> fn = lookupCallee(
      *this, symbols, getCalleeAttr(), getPrimals().getTypes(), "primals");
  if (failed(fn))
    return failure();
  if (getTangents().getTypes() != getPrimals().getTypes())
    return emitOpError("'tangents' must have the types of 'primals' (one "
                       "tangent per primal)");
  SmallVector<Type> expected(fn->getFunctionType().getResults());
  llvm::append_range(expected, fn->getFunctionType().getResults());
  return checkResults(*this, expected, getResultTypes());
}

//===----------------------------------------------------------------------===//
// VmapOp
//===----------------------------------------------------------------------===//

/// `type` with a dim of size `size` inserted at `axis`.
static RankedTensorType insertDim(RankedTensorType type, int64_t axis,
                                  int64_t size) {
  SmallVector<int64_t> shape(type.getShape());
  shape.insert(shape.begin() + axis, size);
  return type.clone(shape);
}

LogicalResult VmapOp::verifySymbolUses(SymbolTableCollection &symbols) {
  auto fn = symbols.lookupNearestSymbolFrom<func::FuncOp>(*this,
                                                          getCalleeAttr());
  if (!fn)
    return emitOpError("'") << getCallee() << "' does not name a func.func";
  FunctionType type = fn.getFunctionType();
  ArrayRef<int64_t> inAxes = getInAxes(), outAxes = getOutAxes();
  if (type.getNumInputs() != getOperands().size())
    return emitOpError("has ") << getOperands().size() << " operands but '"
                               << getCallee() << "' takes "
                               << type.getNumInputs();
  if (inAxes.size() != getOperands().size())
    return emitOpError("'in_axes' has ")
           << inAxes.size() << " entries for " << getOperands().size()
           << " operands";
  if (outAxes.size() != type.getNumResults())
    return emitOpError("'out_axes' has ")
           << outAxes.size() << " entries for " << type.getNumResults()
           << " results";
  int64_t batch = ShapedType::kDynamic;
  bool anyMapped = false;
  for (auto [i, operand, axis, arg] :
       llvm::enumerate(getOperands(), inAxes, type.getInputs())) {
    auto opType = cast<RankedTensorType>(operand.getType());
    if (axis == -1) {
      if (opType != arg)
        return emitOpError("unmapped operand #")
               << i << " has type " << opType << " but the callee takes "
               << arg;
      continue;
    }
    auto argType = dyn_cast<RankedTensorType>(arg);
    if (!argType || axis < 0 || axis > argType.getRank())
      return emitOpError("'in_axes' entry ")
             << axis << " for operand #" << i
             << " must be -1 or a dim of the operand";
    int64_t size = opType.getRank() == argType.getRank() + 1
                       ? opType.getDimSize(axis)
                       : ShapedType::kDynamic;
    if (opType != insertDim(argType, axis, size))
      return emitOpError("operand #")
             << i << " (" << opType << ") must be the callee's argument "
             << arg << " with the batch dim at " << axis;
    if (!dimsCompatible(batch, size))
      return emitOpError("operand #")
             << i << " has batch size " << dimStr(size)
             << " but an earlier operand has " << dimStr(batch);
    batch = refineDim(batch, size);
    anyMapped = true;
  }
  if (!anyMapped)
    return emitOpError("must map at least one operand (all 'in_axes' are -1)");
  SmallVector<Type> expected;
  for (auto [j, result, axis] : llvm::enumerate(type.getResults(), outAxes)) {
    auto resultType = dyn_cast<RankedTensorType>(result);
    if (!resultType || axis < 0 || axis > resultType.getRank())
      return emitOpError("'out_axes' entry ")
             << axis << " for result #" << j << " must be a dim of the result";
    expected.push_back(insertDim(resultType, axis, batch));
  }
  return checkResults(*this, expected, getResultTypes());
}
