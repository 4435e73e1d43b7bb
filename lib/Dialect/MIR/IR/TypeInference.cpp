//===- TypeInference.cpp - shape rules shared by RLX ops ------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/TypeInference.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::rlx;

std::string rlx::dimStr(int64_t d) {
  return ShapedType::isDynamic(d) ? std::string("?") : std::to_string(d);
}

std::string rlx::listStr(ArrayRef<int64_t> values) {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(values, os);
  return s;
}

LogicalResult rlx::requireAttr(std::optional<Location> loc, StringRef opName,
                               Attribute attr, StringRef name) {
  if (attr)
    return success();
  return emitInferError(loc, opName, "requires attribute '", name, "'");
}

FailureOr<SmallVector<int64_t>>
rlx::broadcastShapes(std::optional<Location> loc, StringRef opName,
                     ArrayRef<ArrayRef<int64_t>> shapes,
                     ArrayRef<StringRef> names) {
  size_t rank = 0;
  for (ArrayRef<int64_t> s : shapes)
    rank = std::max(rank, s.size());
  SmallVector<int64_t> result(rank, 1);
  // Which operand fixed each result dim to a size other than 1, for the
  // diagnostic.
  SmallVector<int> owner(rank, -1);
  for (auto [idx, shape] : llvm::enumerate(shapes)) {
    size_t offset = rank - shape.size();
    for (auto [i, d] : llvm::enumerate(shape)) {
      int64_t &r = result[offset + i];
      if (d == 1)
        continue;
      if (r == 1) {
        r = d;
        owner[offset + i] = idx;
        continue;
      }
      if (ShapedType::isDynamic(d))
        continue;
      if (ShapedType::isDynamic(r)) {
        r = d;
        owner[offset + i] = idx;
        continue;
      }
      if (r != d) {
        return emitInferError(loc, opName, "operands '", names[owner[offset + i]], "' and '", names[idx], "' are not broadcast-compatible: dim ", Twine(dimStr(r)), " vs ", Twine(dimStr(d)), " at result dim ", offset + i);
      }
    }
  }
  return result;
}

LogicalResult rlx::checkSameElementType(std::optional<Location> loc,
                                        StringRef opName,
                                        ValueRange values,
                                        ArrayRef<StringRef> names) {
  Type first = getElementTypeOrSelf(values.front().getType());
  for (auto [v, name] : llvm::zip(values.drop_front(), names.drop_front())) {
    Type t = getElementTypeOrSelf(v.getType());
    if (t != first)
      return emitInferError(loc, opName, "operand '", name, "' has element type ", t, " but '", names.front(), "' has ", first);
  }
  return success();
}

LogicalResult rlx::inferElementwiseResult(std::optional<Location> loc,
                                          StringRef opName,
                                          ValueRange operands,
                                          ArrayRef<StringRef> names,
                                          Type resultElementType,
                                          SmallVectorImpl<Type> &types) {
  SmallVector<ArrayRef<int64_t>> shapes;
  for (Value v : operands) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t)
      return emitInferError(loc, opName, "expects ranked tensor operands");
    shapes.push_back(t.getShape());
  }
  if (!resultElementType) {
    if (failed(checkSameElementType(loc, opName, operands, names)))
      return failure();
    resultElementType = getElementTypeOrSelf(operands.front().getType());
  }
  FailureOr<SmallVector<int64_t>> shape =
      broadcastShapes(loc, opName, shapes, names);
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(*shape, resultElementType));
  return success();
}

FailureOr<int64_t> rlx::normalizeAxis(std::optional<Location> loc,
                                      StringRef opName, StringRef attrName,
                                      int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) {
    return emitInferError(loc, opName, "'", attrName, "' ", axis, " is out of range for rank ", rank, " (expected in [", -rank, ", ", rank, "))");
  }
  return axis < 0 ? axis + rank : axis;
}

FailureOr<SmallVector<int64_t>>
rlx::normalizeAxes(std::optional<Location> loc, StringRef opName,
                   StringRef attrName, ArrayRef<int64_t> axes, int64_t rank) {
  SmallVector<int64_t> result;
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t a : axes) {
    FailureOr<int64_t> n = normalizeAxis(loc, opName, attrName, a, rank);
    if (failed(n))
      return failure();
    if (!seen.insert(*n).second) {
      return emitInferError(loc, opName, "'", attrName, "' names dim ", *n, " twice");
    }
    result.push_back(*n);
  }
  return result;
}

SmallVector<int64_t> rlx::reduceShape(ArrayRef<int64_t> shape,
                                      ArrayRef<int64_t> axes, bool keepdim) {
  SmallVector<int64_t> result;
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (!llvm::is_contained(axes, static_cast<int64_t>(i)))
      result.push_back(d);
    else if (keepdim)
      result.push_back(1);
  }
  return result;
}

LogicalResult rlx::checkRank(std::optional<Location> loc, StringRef opName,
                             StringRef name, ShapedType type, int64_t rank,
                             bool orMore) {
  int64_t actual = type.getRank();
  if (actual == rank || (orMore && actual > rank))
    return success();
  return emitInferError(loc, opName, "operand '", name, "' must have rank ", (orMore ? "at least " : ""), rank, ", got ", actual);
}

LogicalResult rlx::checkDim(std::optional<Location> loc, StringRef opName,
                            StringRef name, ShapedType type, int64_t dim,
                            int64_t expected, StringRef what) {
  int64_t actual = type.getDimSize(dim);
  if (dimsCompatible(actual, expected))
    return success();
  return emitInferError(loc, opName, "operand '", name, "' dim ", dim, " (", Twine(dimStr(actual)), ") must match ", what, " (", Twine(dimStr(expected)), ")");
}

FailureOr<SmallVector<int64_t>>
rlx::inferMatmulShape(std::optional<Location> loc, StringRef opName,
                      ShapedType lhs, ShapedType rhs, bool transposeLhs,
                      bool transposeRhs) {
  if (failed(checkRank(loc, opName, "lhs", lhs, 2, /*orMore=*/true)) ||
      failed(checkRank(loc, opName, "rhs", rhs, 2, /*orMore=*/true)))
    return failure();
  ArrayRef<int64_t> a = lhs.getShape(), b = rhs.getShape();
  int64_t m = a[a.size() - (transposeLhs ? 1 : 2)];
  int64_t ka = a[a.size() - (transposeLhs ? 2 : 1)];
  int64_t kb = b[b.size() - (transposeRhs ? 1 : 2)];
  int64_t n = b[b.size() - (transposeRhs ? 2 : 1)];
  if (!dimsCompatible(ka, kb)) {
    return emitInferError(loc, opName, "contracting dims differ: 'lhs' has ", Twine(dimStr(ka)), ", 'rhs' has ", Twine(dimStr(kb)));
  }
  StringRef names[] = {"lhs", "rhs"};
  ArrayRef<int64_t> batches[] = {a.drop_back(2), b.drop_back(2)};
  FailureOr<SmallVector<int64_t>> batch =
      broadcastShapes(loc, opName, batches, names);
  if (failed(batch))
    return failure();
  SmallVector<int64_t> result = *batch;
  result.push_back(m);
  result.push_back(n);
  return result;
}
