//===- RLXLinalgOps.cpp - linear algebra ops ---===//
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
#include "RLX/Dialect/MIR/IR/RLXLinalgOps.cpp.inc"

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  if (failed(checkSameElementType(loc, name, adaptor.getOperands(),
                                  {"lhs", "rhs"})))
    return failure();
  auto lhs = cast<RankedTensorType>(adaptor.getLhs().getType());
  auto rhs = cast<RankedTensorType>(adaptor.getRhs().getType());
  FailureOr<SmallVector<int64_t>> shape = inferMatmulShape(
      loc, name, lhs, rhs, boolOr(adaptor.getTransposeAAttr(), false),
      boolOr(adaptor.getTransposeBAttr(), false));
  if (failed(shape))
    return failure();
  types.push_back(lhs.clone(*shape));
  return success();
}

//===----------------------------------------------------------------------===//
// DotGeneralOp
//===----------------------------------------------------------------------===//

LogicalResult DotGeneralOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  if (failed(requireRanked(loc, name, adaptor.getOperands())) ||
      failed(checkSameElementType(loc, name, adaptor.getOperands(),
                                  {"lhs", "rhs"})))
    return failure();
  auto lhs = cast<RankedTensorType>(adaptor.getLhs().getType());
  auto rhs = cast<RankedTensorType>(adaptor.getRhs().getType());
  ArrayRef<int64_t> lb = arrayOrEmpty(adaptor.getLhsBatchDimsAttr());
  ArrayRef<int64_t> rb = arrayOrEmpty(adaptor.getRhsBatchDimsAttr());
  ArrayRef<int64_t> lc = arrayOrEmpty(adaptor.getLhsContractingDimsAttr());
  ArrayRef<int64_t> rc = arrayOrEmpty(adaptor.getRhsContractingDimsAttr());
  if (lb.size() != rb.size())
    return emitInferError(loc, name, "'lhs_batch_dims' has ", lb.size(),
                          " dims but 'rhs_batch_dims' has ", rb.size());
  if (lc.size() != rc.size())
    return emitInferError(loc, name, "'lhs_contracting_dims' has ", lc.size(),
                          " dims but 'rhs_contracting_dims' has ", rc.size());
  // Every dim of an operand is named at most once across its two lists.
  SmallVector<int64_t> lhsNamed(lb), rhsNamed(rb);
  llvm::append_range(lhsNamed, lc);
  llvm::append_range(rhsNamed, rc);
  FailureOr<SmallVector<int64_t>> lhsDims = normalizeAxes(
      loc, name, "lhs_batch_dims/lhs_contracting_dims", lhsNamed,
      lhs.getRank());
  FailureOr<SmallVector<int64_t>> rhsDims = normalizeAxes(
      loc, name, "rhs_batch_dims/rhs_contracting_dims", rhsNamed,
      rhs.getRank());
  if (failed(lhsDims) || failed(rhsDims))
    return failure();
  SmallVector<int64_t> shape;
  for (auto [l, r] : llvm::zip(*lhsDims, *rhsDims)) {
    int64_t ld = lhs.getDimSize(l), rd = rhs.getDimSize(r);
    if (!dimsCompatible(ld, rd))
      return emitInferError(loc, name, "lhs dim ", l, " (", Twine(dimStr(ld)),
                            ") and rhs dim ", r, " (", Twine(dimStr(rd)),
                            ") are paired but differ");
  }
  for (size_t i = 0; i < lb.size(); ++i)
    shape.push_back(refineDim(lhs.getDimSize((*lhsDims)[i]),
                              rhs.getDimSize((*rhsDims)[i])));
  for (int64_t i = 0; i < lhs.getRank(); ++i)
    if (!llvm::is_contained(*lhsDims, i))
      shape.push_back(lhs.getDimSize(i));
  for (int64_t i = 0; i < rhs.getRank(); ++i)
    if (!llvm::is_contained(*rhsDims, i))
      shape.push_back(rhs.getDimSize(i));
  types.push_back(lhs.clone(shape));
  return success();
}

//===----------------------------------------------------------------------===//
// DenseSolveOp
//===----------------------------------------------------------------------===//

LogicalResult DenseSolveOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto a = cast<RankedTensorType>(adaptor.getA().getType());
  auto b = cast<RankedTensorType>(adaptor.getB().getType());
  if (failed(checkSameElementType(loc, name, adaptor.getOperands(),
                                  {"a", "b"})) ||
      failed(checkRank(loc, name, "a", a, 2, /*orMore=*/true)) ||
      failed(checkRank(loc, name, "b", b, a.getRank())))
    return failure();
  int64_t rank = a.getRank();
  int64_t rows = a.getDimSize(rank - 2), cols = a.getDimSize(rank - 1);
  if (!dimsCompatible(rows, cols))
    return emitInferError(loc, name, "operand 'a' must be square, got ",
                          Twine(dimStr(rows)), "x", Twine(dimStr(cols)));
  if (failed(checkDim(loc, name, "b", b, rank - 2, rows, "the rows of 'a'")))
    return failure();
  for (int64_t i = 0; i < rank - 2; ++i)
    if (failed(checkDim(loc, name, "b", b, i, a.getDimSize(i),
                        "the batch dim of 'a'")))
      return failure();
  types.push_back(b);
  return success();
}

//===----------------------------------------------------------------------===//
// FftOp / RfftOp / IrfftOp
//===----------------------------------------------------------------------===//

LogicalResult FftOp::verify() {
  if (getInput().getType().getRank() < 1)
    return emitOpError("operand 'input' must have rank at least 1");
  return success();
}

/// Checks `n` (when given) is positive and returns it, or `otherwise`.
static FailureOr<int64_t> fftLength(std::optional<Location> loc,
                                    StringRef name, IntegerAttr n,
                                    int64_t otherwise) {
  std::optional<int64_t> given = optionalInt(n);
  if (!given)
    return otherwise;
  if (*given < 1)
    return emitInferError(loc, name, "'n' must be positive, got ", *given);
  return *given;
}

LogicalResult RfftOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  auto type = cast<RankedTensorType>(adaptor.getInput().getType());
  if (failed(checkRank(loc, getOperationName(), "input", type, 1, true)))
    return failure();
  FailureOr<int64_t> n = fftLength(loc, getOperationName(), adaptor.getNAttr(),
                                   type.getShape().back());
  if (failed(n))
    return failure();
  SmallVector<int64_t> shape(type.getShape());
  shape.back() = ShapedType::isDynamic(*n) ? *n : *n / 2 + 1;
  types.push_back(
      RankedTensorType::get(shape, ComplexType::get(type.getElementType())));
  return success();
}

LogicalResult IrfftOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  auto type = cast<RankedTensorType>(adaptor.getInput().getType());
  if (failed(checkRank(loc, getOperationName(), "input", type, 1, true)))
    return failure();
  int64_t m = type.getShape().back();
  if (m == 0)
    return emitInferError(loc, getOperationName(),
                          "'input' has no frequencies on its last dim");
  int64_t fallback = ShapedType::isDynamic(m) ? m : 2 * (m - 1);
  FailureOr<int64_t> n =
      fftLength(loc, getOperationName(), adaptor.getNAttr(), fallback);
  if (failed(n))
    return failure();
  if (!ShapedType::isDynamic(*n) && *n < 1)
    return emitInferError(loc, getOperationName(),
                          "needs 'n' when the input has one frequency");
  SmallVector<int64_t> shape(type.getShape());
  shape.back() = *n;
  // The operand's type is verified later: a real one infers itself.
  Type element = type.getElementType();
  if (auto complex = dyn_cast<ComplexType>(element))
    element = complex.getElementType();
  types.push_back(RankedTensorType::get(shape, element));
  return success();
}
