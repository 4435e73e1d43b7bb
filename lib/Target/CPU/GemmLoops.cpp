//===- GemmLoops.cpp - a contraction seen as a loop nest around a gemm ----===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "GemmLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

using namespace mlir;

/// Every result of `map` is a loop dim or the constant 0 (a broadcast).
static bool isPlainMap(AffineMap map) {
  return llvm::all_of(map.getResults(), [](AffineExpr e) {
    if (auto c = dyn_cast<AffineConstantExpr>(e))
      return c.getValue() == 0;
    return isa<AffineDimExpr>(e);
  });
}

std::optional<rlx::GemmLoops> rlx::matchGemmLoops(linalg::GenericOp op) {
  // The body is checked here rather than with isaContractionOpInterface,
  // which also rejects the constant-0 map of a broadcast size-1 batch dim.
  auto isMulAdd = [](Operation *mul, Operation *add) {
    return (isa<arith::MulFOp>(mul) && isa<arith::AddFOp>(add)) ||
           (isa<arith::MulIOp>(mul) && isa<arith::AddIOp>(add));
  };
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 1 ||
      !linalg::detail::isContractionBody(*op.getBlock(), isMulAdd))
    return std::nullopt;
  // f32 and f64 products in their own type; int8 products summed in i32
  // (rlx.int8_matmul), whose operands the body sign-extends.
  Type element = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  Type input =
      element.isInteger(32) ? IntegerType::get(op.getContext(), 8) : element;
  if (!element.isF32() && !element.isF64() && !element.isInteger(32))
    return std::nullopt;
  for (Value operand : op.getDpsInputs())
    if (getElementTypeOrSelf(operand.getType()) != input)
      return std::nullopt;
  if (!llvm::all_of(op.getIndexingMapsArray(), isPlainMap))
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->k.size() != 1 || dims->m.empty() || dims->n.empty())
    return std::nullopt;
  // The innermost m and n dims of the result become the gemm's.
  AffineMap out = op.getIndexingMapsArray()[2];
  auto position = [&](unsigned d) {
    return *out.getResultPosition(getAffineDimExpr(d, op.getContext()));
  };
  auto innermost = [&](ArrayRef<unsigned> candidates) {
    return *llvm::max_element(candidates, [&](unsigned a, unsigned b) {
      return position(a) < position(b);
    });
  };
  GemmLoops loops{innermost(dims->m), innermost(dims->n), dims->k.front(), {}};
  for (unsigned d = 0; d < op.getNumLoops(); ++d)
    if (d != loops.m && d != loops.n && d != loops.k)
      loops.outer.push_back(d);
  return loops;
}
