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

/// A splat constant of `type` (static) when `input` is a splat constant:
/// broadcasting or permuting a splat only changes its shape.
static Attribute splatAs(Attribute input, RankedTensorType type) {
  auto splat = dyn_cast_if_present<SplatElementsAttr>(input);
  if (!splat || !type.hasStaticShape())
    return {};
  return SplatElementsAttr::get(type, splat.getSplatValue<Attribute>());
}

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

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  // transpose(x, identity) -> x
  if (llvm::equal(getPermutation(), llvm::seq<int64_t>(0, getPermutation().size())))
    return getInput();
  // transpose(splat constant) -> splat constant
  if (Attribute splat = splatAs(adaptor.getInput(), getType()))
    return splat;
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

// expand(x : T -> T) -> x; expand(splat constant) -> splat constant
OpFoldResult ExpandOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return splatAs(adaptor.getInput(), getType());
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

//===----------------------------------------------------------------------===//
// Elementwise arithmetic
//===----------------------------------------------------------------------===//

namespace {

/// Element types whose constant arithmetic folds to exactly what the
/// lowered code computes: f32 and f64 (APFloat rounds as the hardware
/// does) and signless integers (wrapping). f16/bf16 are computed in f32 and
/// rounded once at the end, which a direct APFloat operation in the narrow
/// type does not always reproduce; they are left alone.
bool foldableElement(Type type) {
  return type.isF32() || type.isF64() || type.isSignlessInteger();
}

/// Evaluates `lhs op rhs` on two constants when both are splats, or both
/// have the result's shape (no broadcasting to replay).
template <typename FloatFn, typename IntFn>
Attribute foldConstants(Operation *op, Attribute lhs, Attribute rhs,
                        FloatFn floatFn, IntFn intFn) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  auto l = dyn_cast_if_present<DenseElementsAttr>(lhs);
  auto r = dyn_cast_if_present<DenseElementsAttr>(rhs);
  if (!l || !r || !foldableElement(type.getElementType()))
    return {};
  bool splats = l.isSplat() && r.isSplat();
  if (!splats && (l.getType().getShape() != type.getShape() ||
                  r.getType().getShape() != type.getShape()))
    return {};
  auto apply = [&](auto getL, auto getR, auto fn, auto makeAttr) {
    if (splats)
      return makeAttr(SmallVector<decltype(fn(getL(0), getR(0)))>{
          fn(getL(0), getR(0))});
    SmallVector<decltype(fn(getL(0), getR(0)))> values;
    for (int64_t i = 0, e = type.getNumElements(); i < e; ++i)
      values.push_back(fn(getL(i), getR(i)));
    return makeAttr(values);
  };
  if (isa<FloatType>(type.getElementType())) {
    auto lv = l.getValues<APFloat>();
    auto rv = r.getValues<APFloat>();
    return apply([&](int64_t i) { return lv[splats ? 0 : i]; },
                 [&](int64_t i) { return rv[splats ? 0 : i]; }, floatFn,
                 [&](ArrayRef<APFloat> v) -> Attribute {
                   return splats ? DenseElementsAttr::get(type, v.front())
                                 : DenseElementsAttr::get(type, v);
                 });
  }
  auto lv = l.getValues<APInt>();
  auto rv = r.getValues<APInt>();
  return apply([&](int64_t i) { return lv[splats ? 0 : i]; },
               [&](int64_t i) { return rv[splats ? 0 : i]; }, intFn,
               [&](ArrayRef<std::optional<APInt>> v) -> Attribute {
                 SmallVector<APInt> ints;
                 for (const std::optional<APInt> &x : v) {
                   if (!x)
                     return {};
                   ints.push_back(*x);
                 }
                 return splats ? DenseElementsAttr::get(type, ints.front())
                               : DenseElementsAttr::get(type, ints);
               });
}

/// True if `attr` is a splat constant equal to `value` (for floats, also
/// matching the sign of zero).
bool isSplatOf(Attribute attr, double value) {
  auto splat = dyn_cast_if_present<SplatElementsAttr>(attr);
  if (!splat)
    return false;
  Type element = splat.getElementType();
  if (isa<FloatType>(element)) {
    APFloat v = splat.getSplatValue<APFloat>();
    return v.isZero() == (value == 0) && v.isNegative() == std::signbit(value) &&
           v.convertToDouble() == value;
  }
  if (element.isSignlessInteger())
    return splat.getSplatValue<APInt>().getSExtValue() == int64_t(value);
  return false;
}

/// `other` replaces the op when the constant operand is the identity and
/// `other` already has the result's type (no broadcast, no new type).
OpFoldResult identity(Operation *op, Value other) {
  return other.getType() == op->getResult(0).getType() ? other : Value();
}

} // namespace

// x + -0.0 -> x (x + +0.0 is not x when x is -0.0); x + 0 -> x for
// integers; constants fold.
OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  double zero = isa<FloatType>(getElementTypeOrSelf(getType())) ? -0.0 : 0.0;
  if (isSplatOf(adaptor.getRhs(), zero))
    if (OpFoldResult r = identity(*this, getLhs()))
      return r;
  if (isSplatOf(adaptor.getLhs(), zero))
    if (OpFoldResult r = identity(*this, getRhs()))
      return r;
  return foldConstants(
      *this, adaptor.getLhs(), adaptor.getRhs(),
      [](APFloat a, const APFloat &b) {
        a.add(b, APFloat::rmNearestTiesToEven);
        return a;
      },
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a + b;
      });
}

// x - 0 -> x; constants fold.
OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(adaptor.getRhs(), 0.0))
    if (OpFoldResult r = identity(*this, getLhs()))
      return r;
  return foldConstants(
      *this, adaptor.getLhs(), adaptor.getRhs(),
      [](APFloat a, const APFloat &b) {
        a.subtract(b, APFloat::rmNearestTiesToEven);
        return a;
      },
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a - b;
      });
}

// x * 1 -> x; constants fold.
OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(adaptor.getRhs(), 1.0))
    if (OpFoldResult r = identity(*this, getLhs()))
      return r;
  if (isSplatOf(adaptor.getLhs(), 1.0))
    if (OpFoldResult r = identity(*this, getRhs()))
      return r;
  return foldConstants(
      *this, adaptor.getLhs(), adaptor.getRhs(),
      [](APFloat a, const APFloat &b) {
        a.multiply(b, APFloat::rmNearestTiesToEven);
        return a;
      },
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a * b;
      });
}

// x / 1 -> x; constants fold (integer division by zero, and the overflow
// of INT_MIN / -1, are left to run time).
OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(adaptor.getRhs(), 1.0))
    if (OpFoldResult r = identity(*this, getLhs()))
      return r;
  return foldConstants(
      *this, adaptor.getLhs(), adaptor.getRhs(),
      [](APFloat a, const APFloat &b) {
        a.divide(b, APFloat::rmNearestTiesToEven);
        return a;
      },
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        if (b.isZero() || (a.isMinSignedValue() && b.isAllOnes()))
          return std::nullopt;
        return a.sdiv(b);
      });
}
