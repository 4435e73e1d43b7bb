//===- StaticReshape.cpp - static reshapes as views -----------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A reshape between static shapes of a contiguous tensor is a view: as
// tensor.collapse_shape / tensor.expand_shape it keeps its shape in its
// type, where tensor.reshape takes a shape operand, a constant buffer in
// host memory that GPU kernels cannot read.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

using namespace mlir;
using namespace mlir::rlx;

namespace {

/// `in` (static, no zero dims) with each dim split where a running product
/// of `out`'s dims falls inside it, with the reassociation of the split; or
/// nullopt where a dim of one shape straddles two of the other's without
/// dividing them (4x6 -> 6x4).
std::optional<
    std::pair<SmallVector<int64_t>, SmallVector<ReassociationIndices>>>
splitToCommonDims(ArrayRef<int64_t> in, ArrayRef<int64_t> out) {
  SmallVector<int64_t> cuts; // running products of `out`
  int64_t product = 1;
  for (int64_t d : out)
    cuts.push_back(product *= d);
  SmallVector<int64_t> fine;
  SmallVector<ReassociationIndices> groups;
  const int64_t *cut = cuts.begin();
  product = 1;
  for (int64_t d : in) {
    ReassociationIndices &group = groups.emplace_back();
    int64_t end = product * d, at = product;
    // The cuts strictly inside this dim split it.
    while (cut != cuts.end() && *cut <= at)
      ++cut;
    for (; cut != cuts.end() && *cut < end; ++cut) {
      if (*cut % at != 0)
        return std::nullopt;
      group.push_back(fine.size());
      fine.push_back(*cut / at);
      at = *cut;
    }
    if (end % at != 0)
      return std::nullopt;
    group.push_back(fine.size());
    fine.push_back(end / at);
    product = end;
  }
  return std::make_pair(fine, groups);
}

} // namespace

/// `input` as `type` (both of rank 1 or more: a scalar and a shape of ones
/// reshape directly) through one dim of all its elements: a collapse to it
/// and an expand from it.
static Value reshapeThroughOneDim(OpBuilder &b, Location loc, Value input,
                                  RankedTensorType type) {
  auto inType = cast<RankedTensorType>(input.getType());
  auto flatType = inType.clone({inType.getNumElements()});
  auto allDims = [](int64_t rank) {
    return SmallVector<ReassociationIndices>{
        llvm::to_vector(llvm::seq<int64_t>(0, rank))};
  };
  Value flat = input;
  if (inType.getRank() > 1)
    flat = tensor::CollapseShapeOp::create(b, loc, flatType, input,
                                           allDims(inType.getRank()));
  if (type.getRank() == 1)
    return flat;
  return tensor::ExpandShapeOp::create(b, loc, type, flat,
                                       allDims(type.getRank()));
}

Value mlir::rlx::reshapeStatic(OpBuilder &b, Location loc, Value input,
                               RankedTensorType type) {
  auto inType = cast<RankedTensorType>(input.getType());
  assert(inType.hasStaticShape() && type.hasStaticShape() &&
         inType.getNumElements() == type.getNumElements() &&
         "a reshape between static shapes of as many elements");
  if (inType == type)
    return input;
  // No elements: nothing to view.
  if (type.getNumElements() == 0)
    return tensor::EmptyOp::create(b, loc, type.getShape(),
                                   type.getElementType());
  if (inType.getRank() != type.getRank())
    if (std::optional<SmallVector<ReassociationIndices>> groups =
            getReassociationIndicesForReshape(inType, type)) {
      if (inType.getRank() > type.getRank())
        return tensor::CollapseShapeOp::create(b, loc, type, input, *groups);
      return tensor::ExpandShapeOp::create(b, loc, type, input, *groups);
    }
  // Through the shapes' common refinement (1x4x8 -> 1x2x16 through
  // 1x2x2x8) where there is one that both reach.
  if (inType.getRank() > 0 && type.getRank() > 0)
    if (auto split = splitToCommonDims(inType.getShape(), type.getShape())) {
      auto fineType = inType.clone(split->first);
      std::optional<SmallVector<ReassociationIndices>> merge =
          getReassociationIndicesForReshape(fineType, type);
      if (fineType.getRank() > inType.getRank() &&
          fineType.getRank() > type.getRank() && merge) {
        Value fine = tensor::ExpandShapeOp::create(b, loc, fineType, input,
                                                   split->second);
        return tensor::CollapseShapeOp::create(b, loc, type, fine, *merge);
      }
    }
  // Unit dims apart (2x4x16x8 -> 2x1x64x8 through 2x64x8): the unit dims
  // dropped, the other dims reshaped among themselves, the unit dims put
  // back.
  auto withoutUnitDims = [](RankedTensorType t) {
    SmallVector<int64_t> dims;
    llvm::copy_if(t.getShape(), std::back_inserter(dims),
                  [](int64_t d) { return d != 1; });
    return t.clone(dims);
  };
  RankedTensorType inCore = withoutUnitDims(inType);
  RankedTensorType core = withoutUnitDims(type);
  auto directly = [](RankedTensorType from, RankedTensorType to) {
    return from == to || getReassociationIndicesForReshape(from, to);
  };
  // The outer two steps are direct and the middle one has no unit dims,
  // so none of them comes back here.
  if ((inCore != inType || core != type) && directly(inType, inCore) &&
      directly(core, type)) {
    Value squeezed = reshapeStatic(b, loc, input, inCore);
    return reshapeStatic(b, loc, reshapeStatic(b, loc, squeezed, core), type);
  }
  // Else through one dim (4x6 -> 6x4 through 24).
  return reshapeThroughOneDim(b, loc, input, type);
}
