//===- RLXFolds.cpp - folders of RLX MIR ops ------------------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The cheap, obviously right folds: identities, constants, and the
// composition of back-to-back shape ops (done in place, as fold allows).
// Folds that must create ops live in the canonicalization patterns.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/IR/RLXOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::rlx;

//===----------------------------------------------------------------------===//
// Leaves and casts
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

// cast(x : T -> T) -> x
OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  // reshape(x : T -> T) -> x
  if (getInput().getType() == getType())
    return getInput();
  // reshape(constant) -> constant
  if (auto dense = dyn_cast_if_present<DenseElementsAttr>(adaptor.getInput()))
    if (getType().hasStaticShape())
      return dense.reshape(getType());
  // reshape(reshape(x)) -> reshape(x)
  if (auto inner = getInput().getDefiningOp<ReshapeOp>()) {
    if (inner.getInput().getType() == getType())
      return inner.getInput();
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  return {};
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  // transpose(x, identity) -> x
  if (llvm::equal(getPermutation(), llvm::seq<int64_t>(0, getPermutation().size())))
    return getInput();
  // transpose(transpose(x, p), q) -> transpose(x, p∘q): result dim i is
  // inner dim q[i], which is x dim p[q[i]].
  auto inner = getInput().getDefiningOp<TransposeOp>();
  if (!inner)
    return {};
  ArrayRef<int64_t> p = inner.getPermutation(), q = getPermutation();
  SmallVector<int64_t> composed;
  for (int64_t i : q)
    composed.push_back(p[i]);
  if (llvm::equal(composed, llvm::seq<int64_t>(0, composed.size())))
    return inner.getInput();
  getInputMutable().assign(inner.getInput());
  setPermutation(composed);
  return getResult();
}

// narrow(x) over a whole axis -> x
OpFoldResult NarrowOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType() && getStart() == 0)
    return getInput();
  return {};
}

// concat(x) -> x
OpFoldResult ConcatOp::fold(FoldAdaptor) {
  if (getInputs().size() == 1 && getInputs().front().getType() == getType())
    return getInputs().front();
  return {};
}

// expand(x : T -> T) -> x
OpFoldResult ExpandOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

/// The axes of a reverse op as a sorted set of non-negative dims.
static SmallVector<int64_t> normalizedReverseAxes(ReverseOp op) {
  int64_t rank = op.getType().getRank();
  SmallVector<int64_t> axes;
  for (int64_t a : op.getAxes())
    axes.push_back(a < 0 ? a + rank : a);
  llvm::sort(axes);
  return axes;
}

// reverse(reverse(x, a), a) -> x; reverse(x, []) -> x
OpFoldResult ReverseOp::fold(FoldAdaptor) {
  if (getAxes().empty())
    return getInput();
  auto inner = getInput().getDefiningOp<ReverseOp>();
  if (inner && normalizedReverseAxes(inner) == normalizedReverseAxes(*this))
    return inner.getInput();
  return {};
}
