//===- RLXShapeOps.cpp - shape and data-movement ops ---===//
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
#include "RLX/Dialect/MIR/IR/RLXShapeOps.cpp.inc"

//===----------------------------------------------------------------------===//
// ReshapeOp
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  RankedTensorType in = getInput().getType(), out = getType();
  if (in.getElementType() != out.getElementType())
    return emitOpError("result element type ")
           << out.getElementType() << " differs from the input's "
           << in.getElementType();
  if (in.hasStaticShape() && out.hasStaticShape() &&
      in.getNumElements() != out.getNumElements())
    return emitOpError("cannot reshape ")
           << in.getNumElements() << " elements (" << in << ") into "
           << out.getNumElements() << " (" << out << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// TransposeOp
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto type = cast<RankedTensorType>(adaptor.getInput().getType());
  if (failed(requireAttr(loc, name, adaptor.getPermutationAttr(),
                         "permutation")))
    return failure();
  ArrayRef<int64_t> perm = adaptor.getPermutation();
  if (static_cast<int64_t>(perm.size()) != type.getRank())
    return emitInferError(loc, name, "'permutation' has ", perm.size(),
                          " entries but the input has rank ", type.getRank());
  SmallVector<bool> seen(perm.size(), false);
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    if (p < 0 || p >= type.getRank() || seen[p])
      return emitInferError(loc, name, "'permutation' [",
                            Twine(listStr(perm)),
                            "] is not a permutation of [0, ", type.getRank(),
                            ")");
    seen[p] = true;
    shape.push_back(type.getDimSize(p));
  }
  types.push_back(type.clone(shape));
  return success();
}

namespace {

/// transpose(x) that moves only dims of size 1 (the others keep their
/// order) -> reshape(x): the same elements in the same order, so a view
/// rather than a copy (a decode step's [B, 1, H, D] -> [B, H, 1, D]).
struct UnitDimTransposeToReshape : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType in = op.getInput().getType();
    if (!in.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shape");
    int64_t last = -1;
    for (int64_t p : op.getPermutation()) {
      if (in.getDimSize(p) == 1)
        continue;
      if (p < last)
        return rewriter.notifyMatchFailure(op, "moves a dim of size > 1");
      last = p;
    }
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), op.getInput());
    return success();
  }
};

} // namespace

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                              MLIRContext *context) {
  patterns.add<UnitDimTransposeToReshape>(context);
}

//===----------------------------------------------------------------------===//
// NarrowOp
//===----------------------------------------------------------------------===//

LogicalResult NarrowOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto type = cast<RankedTensorType>(adaptor.getInput().getType());
  if (failed(requireAttr(loc, name, adaptor.getAxisAttr(), "axis")) ||
      failed(requireAttr(loc, name, adaptor.getStartAttr(), "start")) ||
      failed(requireAttr(loc, name, adaptor.getLengthAttr(), "length")))
    return failure();
  FailureOr<int64_t> axis =
      normalizeAxis(loc, name, "axis", adaptor.getAxis(), type.getRank());
  if (failed(axis))
    return failure();
  int64_t start = adaptor.getStart(), length = adaptor.getLength();
  int64_t size = type.getDimSize(*axis);
  // Compared without forming start + length, which may overflow.
  if (start < 0 || length < 0 ||
      (!ShapedType::isDynamic(size) && (start > size || length > size - start)))
    return emitInferError(loc, name, "slice of length ", length,
                          " at start ", start, " does not fit in dim ", *axis,
                          " of size ", Twine(dimStr(size)));
  SmallVector<int64_t> shape(type.getShape());
  shape[*axis] = length;
  types.push_back(type.clone(shape));
  return success();
}

//===----------------------------------------------------------------------===//
// ConcatOp
//===----------------------------------------------------------------------===//

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  ValueRange inputs = adaptor.getInputs();
  if (inputs.empty())
    return emitInferError(loc, name, "needs at least one input");
  if (failed(requireRanked(loc, name, inputs)))
    return failure();
  if (failed(requireAttr(loc, name, adaptor.getAxisAttr(), "axis")))
    return failure();
  auto first = cast<RankedTensorType>(inputs.front().getType());
  FailureOr<int64_t> axis =
      normalizeAxis(loc, name, "axis", adaptor.getAxis(), first.getRank());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(first.getShape());
  for (auto [i, v] : llvm::enumerate(inputs.drop_front())) {
    auto type = cast<RankedTensorType>(v.getType());
    if (type.getElementType() != first.getElementType())
      return emitInferError(loc, name, "input #", i + 1, " has element type ",
                            type.getElementType(), " but input #0 has ",
                            first.getElementType());
    if (type.getRank() != first.getRank())
      return emitInferError(loc, name, "input #", i + 1, " has rank ",
                            type.getRank(), " but input #0 has rank ",
                            first.getRank());
    for (int64_t d = 0; d < type.getRank(); ++d) {
      int64_t size = type.getDimSize(d);
      if (d == *axis) {
        shape[d] = ShapedType::isDynamic(shape[d]) ||
                           ShapedType::isDynamic(size)
                       ? ShapedType::kDynamic
                       : shape[d] + size;
        continue;
      }
      if (!dimsCompatible(shape[d], size))
        return emitInferError(loc, name, "input #", i + 1, " dim ", d, " (",
                              Twine(dimStr(size)),
                              ") differs from the other inputs (",
                              Twine(dimStr(shape[d])), ")");
      shape[d] = refineDim(shape[d], size);
    }
  }
  types.push_back(first.clone(shape));
  return success();
}

//===----------------------------------------------------------------------===//
// ExpandOp
//===----------------------------------------------------------------------===//

LogicalResult ExpandOp::verify() {
  RankedTensorType in = getInput().getType(), out = getType();
  if (in.getElementType() != out.getElementType())
    return emitOpError("result element type ")
           << out.getElementType() << " differs from the input's "
           << in.getElementType();
  if (in.getRank() > out.getRank())
    return emitOpError("cannot expand rank ")
           << in.getRank() << " to the smaller rank " << out.getRank();
  int64_t offset = out.getRank() - in.getRank();
  for (int64_t i = 0; i < in.getRank(); ++i) {
    int64_t d = in.getDimSize(i), r = out.getDimSize(offset + i);
    if (d != 1 && !dimsCompatible(d, r))
      return emitOpError("input dim ")
             << i << " (" << dimStr(d) << ") can only expand if it is 1 or "
             << "equal to result dim " << offset + i << " (" << dimStr(r)
             << ")";
  }
  if (!getLike())
    return success();
  auto like = cast<RankedTensorType>(getLike().getType());
  if (like.getRank() != out.getRank())
    return emitOpError("'like' has rank ")
           << like.getRank() << " where the result has rank " << out.getRank();
  return success();
}

//===----------------------------------------------------------------------===//
// GatherOp
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto table = cast<RankedTensorType>(adaptor.getTable().getType());
  auto indices = cast<RankedTensorType>(adaptor.getIndices().getType());
  if (failed(requireAttr(loc, name, adaptor.getAxisAttr(), "axis")))
    return failure();
  FailureOr<int64_t> axis =
      normalizeAxis(loc, name, "axis", adaptor.getAxis(), table.getRank());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(table.getShape().take_front(*axis));
  llvm::append_range(shape, indices.getShape());
  llvm::append_range(shape, table.getShape().drop_front(*axis + 1));
  types.push_back(table.clone(shape));
  return success();
}

//===----------------------------------------------------------------------===//
// ScatterAddOp
//===----------------------------------------------------------------------===//

LogicalResult ScatterAddOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto base = cast<RankedTensorType>(adaptor.getBase().getType());
  auto indices = cast<RankedTensorType>(adaptor.getIndices().getType());
  auto updates = cast<RankedTensorType>(adaptor.getUpdates().getType());
  if (failed(requireAttr(loc, name, adaptor.getAxisAttr(), "axis")) ||
      failed(checkSameElementType(loc, name,
                                  {adaptor.getBase(), adaptor.getUpdates()},
                                  {"base", "updates"})) ||
      failed(checkRank(loc, name, "indices", indices, 1)) ||
      failed(checkRank(loc, name, "updates", updates, base.getRank())))
    return failure();
  FailureOr<int64_t> axis =
      normalizeAxis(loc, name, "axis", adaptor.getAxis(), base.getRank());
  if (failed(axis))
    return failure();
  for (int64_t d = 0; d < base.getRank(); ++d) {
    if (d == *axis) {
      if (failed(checkDim(loc, name, "updates", updates, d,
                          indices.getDimSize(0), "the length of 'indices'")))
        return failure();
      continue;
    }
    if (failed(checkDim(loc, name, "updates", updates, d, base.getDimSize(d),
                        "the same dim of 'base'")))
      return failure();
  }
  types.push_back(base);
  return success();
}

//===----------------------------------------------------------------------===//
// ReverseOp
//===----------------------------------------------------------------------===//

LogicalResult ReverseOp::verify() {
  return normalizeAxes(getLoc(), getOperationName(), "axes", getAxes(),
                       getInput().getType().getRank());
}
