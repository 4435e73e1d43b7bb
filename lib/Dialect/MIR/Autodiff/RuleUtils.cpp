//===- RuleUtils.cpp - helpers shared by the differentiation rules --------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/Sequence.h"

using namespace mlir;
using namespace mlir::rlx;
using namespace mlir::rlx::autodiff;

bool autodiff::isDifferentiable(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType, ComplexType>(tensor.getElementType());
}

/// Complex constants are built as real ones cast to complex (imaginary
/// part zero), the only complex values the rules need.
static Value castIfComplex(OpBuilder &b, Location loc, Value real,
                           RankedTensorType type) {
  if (real.getType() == type)
    return real;
  return CastOp::create(b, loc, type, real);
}

/// The float type of `element`'s parts (itself when real).
static Type partType(Type element) {
  if (auto complex = dyn_cast<ComplexType>(element))
    return complex.getElementType();
  return element;
}

Value autodiff::scalar(OpBuilder &b, Location loc, Type like, double value) {
  Type element = getElementTypeOrSelf(like);
  Type part = partType(element);
  auto partTensor = RankedTensorType::get({}, part);
  Value real = ConstantOp::create(
      b, loc, DenseElementsAttr::get(partTensor, b.getFloatAttr(part, value)));
  return castIfComplex(b, loc, real, partTensor.clone(element));
}

Value autodiff::splat(OpBuilder &b, Location loc, Type type, double value,
                      Value like) {
  auto tensor = cast<RankedTensorType>(type);
  if (!tensor.hasStaticShape() && like &&
      cast<RankedTensorType>(like.getType()).getRank() == tensor.getRank()) {
    Value element = splat(b, loc, tensor.clone(ArrayRef<int64_t>{}), value);
    return element ? ExpandOp::create(b, loc, tensor, element, like) : Value();
  }
  if (!tensor.hasStaticShape()) {
    emitError(loc) << "autodiff needs a static shape for a constant of type "
                   << type;
    return {};
  }
  Type element = partType(tensor.getElementType());
  // Integer and boolean zeros stand for the (absent) tangents of
  // non-float results.
  TypedAttr fill = isa<FloatType>(element)
                       ? TypedAttr(b.getFloatAttr(element, value))
                       : TypedAttr(b.getIntegerAttr(element, int64_t(value)));
  Value real = ConstantOp::create(
      b, loc, DenseElementsAttr::get(tensor.clone(element), fill));
  return castIfComplex(b, loc, real, tensor);
}

// rlx has no conjugation op: conj(z) = 2 Re(z) - z, exact in floating
// point (Re(z) + Re(z) doubles exactly; 2a - (a + ib) = a - ib).
Value autodiff::conj(OpBuilder &b, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  auto complex = dyn_cast<ComplexType>(type.getElementType());
  if (!complex)
    return v;
  Value re = CastOp::create(b, loc, type.clone(complex.getElementType()), v);
  Value twice =
      CastOp::create(b, loc, type, AddOp::create(b, loc, re, re).getResult());
  return SubOp::create(b, loc, twice, v);
}

Value autodiff::unbroadcast(OpBuilder &b, Location loc, Value ct, Type target) {
  if (ct.getType() == target)
    return ct;
  auto from = cast<RankedTensorType>(ct.getType());
  auto to = cast<RankedTensorType>(target);
  int64_t lead = from.getRank() - to.getRank();
  SmallVector<int64_t> axes;
  for (int64_t i = 0; i < from.getRank(); ++i)
    if (i < lead || (to.getDimSize(i - lead) == 1 && from.getDimSize(i) != 1))
      axes.push_back(i);
  Value sum = ct;
  if (!axes.empty())
    sum = ReduceOp::create(b, loc, ReduceKind::Sum, ct, axes,
                           /*keepdim=*/false);
  if (sum.getType() != target)
    sum = ReshapeOp::create(b, loc, target, sum);
  return sum;
}

Value autodiff::broadcastTo(OpBuilder &b, Location loc, Value v, Value like) {
  auto target = cast<RankedTensorType>(like.getType());
  if (v.getType() == target)
    return v;
  return ExpandOp::create(b, loc, target, v,
                          target.hasStaticShape() ? Value() : like);
}

Value autodiff::addOrNull(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (!lhs)
    return rhs;
  if (!rhs)
    return lhs;
  return AddOp::create(b, loc, lhs, rhs);
}

Value autodiff::subOrNull(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (!rhs)
    return lhs;
  if (!lhs)
    return NegOp::create(b, loc, rhs);
  return SubOp::create(b, loc, lhs, rhs);
}

LogicalResult autodiff::linearJvp(Operation *op, OpBuilder &b,
                                  ValueRange tangents,
                                  SmallVectorImpl<Value> &out) {
  IRMapping mapping;
  for (auto [operand, tangent] : llvm::zip(op->getOperands(), tangents)) {
    if (!isDifferentiable(operand.getType()))
      continue;
    Value t =
        tangent ? tangent
                : splat(b, op->getLoc(), operand.getType(), 0.0, operand);
    if (!t)
      return failure();
    mapping.map(operand, t);
  }
  Operation *clone = b.clone(*op, mapping);
  for (Value result : clone->getResults())
    out.push_back(isDifferentiable(result.getType()) ? result : Value());
  return success();
}

int64_t autodiff::normalizeAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

Value autodiff::expandReduced(OpBuilder &b, Location loc, Value v,
                              ArrayRef<int64_t> axes, Value full) {
  auto fullType = cast<RankedTensorType>(full.getType());
  SmallVector<int64_t> kept(fullType.getShape());
  for (int64_t axis : axes)
    kept[axis] = 1;
  auto keptType = fullType.clone(kept);
  if (v.getType() != keptType)
    v = ReshapeOp::create(b, loc, keptType, v);
  return broadcastTo(b, loc, v, full);
}

Value autodiff::reciprocalCount(OpBuilder &b, Location loc, Value v,
                                ArrayRef<int64_t> axes) {
  auto type = cast<RankedTensorType>(v.getType());
  int64_t n = 1;
  for (int64_t axis : axes)
    n = type.isDynamicDim(axis) || n == ShapedType::kDynamic
            ? ShapedType::kDynamic
            : n * type.getDimSize(axis);
  if (n != ShapedType::kDynamic)
    return scalar(b, loc, type, 1.0 / double(n));
  // rlx has no op reading a dim's size: sum ones of v's shape in i64
  // (exact), then take the reciprocal in at least f32, so that n is not
  // rounded to a narrow float before it is inverted.
  auto i64 = b.getI64Type();
  Value one = ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(RankedTensorType::get({}, i64), int64_t(1)));
  Value ones = ExpandOp::create(b, loc, type.clone(i64), one, v);
  // Every element of the sum over `axes` is n: one of them, as rank 0.
  Value count = ReduceOp::create(b, loc, ReduceKind::Sum, ones, axes,
                                 /*keepdim=*/false);
  if (int64_t rank = cast<RankedTensorType>(count.getType()).getRank())
    count = ReduceOp::create(b, loc, ReduceKind::Max, count,
                             llvm::to_vector(llvm::seq<int64_t>(0, rank)),
                             /*keepdim=*/false);
  auto countType = cast<RankedTensorType>(count.getType());
  Type part = partType(type.getElementType());
  Type wide = part.isF64() ? part : b.getF32Type();
  // One op per statement: C++ leaves the order of a call's arguments open.
  Value unit = scalar(b, loc, RankedTensorType::get({}, wide), 1.0);
  Value countWide = CastOp::create(b, loc, countType.clone(wide), count);
  Value inverse = DivOp::create(b, loc, unit, countWide);
  if (wide == type.getElementType())
    return inverse;
  return CastOp::create(b, loc, countType.clone(type.getElementType()),
                        inverse);
}
