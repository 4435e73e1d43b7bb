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

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::rlx;

//===----------------------------------------------------------------------===//
// Leaves and casts
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

/// Whether casting `from` to `to` keeps every value exactly, so that casting
/// back gives the original: a wider float, or a wider signless integer
/// (sign-extended, then truncated back).
static bool isExactWidening(Type from, Type to) {
  if (isa<FloatType>(from) && isa<FloatType>(to)) {
    // Every value of `from`, subnormals included, is one of `to`: enough
    // precision and exponent range, and a smallest subnormal no larger
    // (bf16 -> f32 is exact although bf16's subnormals are f32's).
    const llvm::fltSemantics &f = cast<FloatType>(from).getFloatSemantics();
    const llvm::fltSemantics &t = cast<FloatType>(to).getFloatSemantics();
    int pf = APFloat::semanticsPrecision(f), pt = APFloat::semanticsPrecision(t);
    return from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth() &&
           pt >= pf &&
           APFloat::semanticsMaxExponent(t) >=
               APFloat::semanticsMaxExponent(f) &&
           APFloat::semanticsMinExponent(t) - pt <=
               APFloat::semanticsMinExponent(f) - pf;
  }
  return from.isSignlessInteger() && to.isSignlessInteger() &&
         !from.isInteger(1) &&
         from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth();
}

/// The constant `input` cast to the element type of `type`, computed as the
/// lowered cast computes it: float to float rounds to nearest even, a
/// signless integer to a float as sitofp, integer to integer sign-extends or
/// truncates. The result has the constant's shape (cast keeps shapes). Only f32/f64 and signless integers other than i1 take part
/// (as for the arithmetic folds below); float to integer is left to run
/// time, where out-of-range values have no defined result.
static Attribute foldCastConstant(Attribute input, RankedTensorType type) {
  auto dense = dyn_cast_if_present<DenseElementsAttr>(input);
  if (!dense)
    return {};
  Type from = dense.getElementType(), to = type.getElementType();
  auto part = [](Type t) {
    return t.isF32() || t.isF64() || (t.isSignlessInteger() && !t.isInteger(1));
  };
  if (!part(from) || !part(to) || (isa<FloatType>(from) && !isa<FloatType>(to)))
    return {};
  if (auto toFloat = dyn_cast<FloatType>(to)) {
    const llvm::fltSemantics &sem = toFloat.getFloatSemantics();
    SmallVector<APFloat> values;
    if (isa<FloatType>(from)) {
      for (APFloat v : dense.getValues<APFloat>()) {
        bool lost;
        v.convert(sem, APFloat::rmNearestTiesToEven, &lost);
        values.push_back(v);
      }
    } else {
      for (const APInt &v : dense.getValues<APInt>()) {
        APFloat f(sem);
        f.convertFromAPInt(v, /*IsSigned=*/true, APFloat::rmNearestTiesToEven);
        values.push_back(f);
      }
    }
    return DenseElementsAttr::get(type, values);
  }
  unsigned width = to.getIntOrFloatBitWidth();
  SmallVector<APInt> values;
  for (const APInt &v : dense.getValues<APInt>())
    values.push_back(v.sextOrTrunc(width));
  return DenseElementsAttr::get(type, values);
}

// cast(x : T -> T) -> x; cast(cast(x : A -> B) : B -> A) -> x when B holds
// every value of A; constants fold.
OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (auto inner = getInput().getDefiningOp<CastOp>())
    if (inner.getInput().getType() == getType() &&
        isExactWidening(getElementTypeOrSelf(getType()),
                        getElementTypeOrSelf(inner.getType())))
      return inner.getInput();
  return foldCastConstant(adaptor.getInput(), getType());
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

/// The constant `input` transposed by `permutation` (result dim i is input
/// dim permutation[i]) as a constant of `type`; null for dynamic shapes.
static Attribute permuteConstant(DenseElementsAttr input,
                                 ArrayRef<int64_t> permutation,
                                 RankedTensorType type) {
  if (!type.hasStaticShape() || !input.getType().hasStaticShape())
    return {};
  ArrayRef<int64_t> inShape = input.getType().getShape();
  int64_t rank = inShape.size();
  SmallVector<int64_t> inStrides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    inStrides[d] = inStrides[d + 1] * inShape[d + 1];
  // Walks the result in row-major order, carrying the input offset.
  SmallVector<Attribute> values;
  auto all = llvm::to_vector(input.getValues<Attribute>());
  values.reserve(all.size());
  SmallVector<int64_t> index(rank, 0);
  for (int64_t n = 0, e = type.getNumElements(); n < e; ++n) {
    int64_t offset = 0;
    for (int64_t i = 0; i < rank; ++i)
      offset += index[i] * inStrides[permutation[i]];
    values.push_back(all[offset]);
    for (int64_t i = rank - 1; i >= 0; --i) {
      if (++index[i] < type.getDimSize(i))
        break;
      index[i] = 0;
    }
  }
  return DenseElementsAttr::get(type, values);
}

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  // transpose(x, identity) -> x
  if (llvm::equal(getPermutation(), llvm::seq<int64_t>(0, getPermutation().size())))
    return getInput();
  // transpose(splat constant) -> splat constant
  if (Attribute splat = splatAs(adaptor.getInput(), getType()))
    return splat;
  // transpose(constant) -> constant
  if (auto dense = dyn_cast_if_present<DenseElementsAttr>(adaptor.getInput()))
    if (Attribute permuted = permuteConstant(dense, getPermutation(), getType()))
      return permuted;
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
  if (Attribute splat = splatAs(adaptor.getInput(), getType()))
    return splat;
  // A static result needs no sizes from `like` (and a reader of the op,
  // rlx-partition's broadcasting model, need not see it).
  if (getLike() && getType().hasStaticShape()) {
    getLikeMutable().clear();
    return getResult();
  }
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

/// Evaluates `lhs op rhs` on two constants when both are splats, or each
/// is a splat or has the result's shape (a splat broadcasts to any shape;
/// other broadcasts are not replayed). The shift of `rlx-quant-propagate`'s
/// zero point, colsum(qb) [1, N] times a scalar, is the case with one splat.
template <typename FloatFn, typename IntFn>
Attribute foldConstants(Operation *op, Attribute lhs, Attribute rhs,
                        FloatFn floatFn, IntFn intFn) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  auto l = dyn_cast_if_present<DenseElementsAttr>(lhs);
  auto r = dyn_cast_if_present<DenseElementsAttr>(rhs);
  if (!l || !r || !foldableElement(type.getElementType()))
    return {};
  bool splats = l.isSplat() && r.isSplat();
  auto fits = [&](DenseElementsAttr v) {
    return v.isSplat() || v.getType().getShape() == type.getShape();
  };
  if (!splats && (!type.hasStaticShape() || !fits(l) || !fits(r)))
    return {};
  bool lSplat = l.isSplat(), rSplat = r.isSplat();
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
    return apply([&](int64_t i) { return lv[lSplat ? 0 : i]; },
                 [&](int64_t i) { return rv[rSplat ? 0 : i]; }, floatFn,
                 [&](ArrayRef<APFloat> v) -> Attribute {
                   return splats ? DenseElementsAttr::get(type, v.front())
                                 : DenseElementsAttr::get(type, v);
                 });
  }
  auto lv = l.getValues<APInt>();
  auto rv = r.getValues<APInt>();
  return apply([&](int64_t i) { return lv[lSplat ? 0 : i]; },
               [&](int64_t i) { return rv[rSplat ? 0 : i]; }, intFn,
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

// Constants fold: NaN wins and -0 < +0, as arith.maximumf; integers compare
// signed.
OpFoldResult MaxOp::fold(FoldAdaptor adaptor) {
  return foldConstants(
      *this, adaptor.getLhs(), adaptor.getRhs(),
      [](const APFloat &a, const APFloat &b) { return llvm::maximum(a, b); },
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return llvm::APIntOps::smax(a, b);
      });
}

// Constants fold: NaN wins and -0 < +0, as arith.minimumf; integers compare
// signed.
OpFoldResult MinOp::fold(FoldAdaptor adaptor) {
  return foldConstants(
      *this, adaptor.getLhs(), adaptor.getRhs(),
      [](const APFloat &a, const APFloat &b) { return llvm::minimum(a, b); },
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return llvm::APIntOps::smin(a, b);
      });
}

// neg(neg(x)) -> x; constants fold (integers wrap, as arith.subi from 0).
OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  if (auto inner = getInput().getDefiningOp<NegOp>())
    return inner.getInput();
  auto dense = dyn_cast_if_present<DenseElementsAttr>(adaptor.getInput());
  if (!dense || !foldableElement(dense.getElementType()))
    return {};
  if (isa<FloatType>(dense.getElementType()))
    return dense.mapValues(dense.getElementType(), [](const APFloat &v) {
      APFloat n = v;
      n.changeSign();
      return n.bitcastToAPInt();
    });
  return dense.mapValues(dense.getElementType(),
                         [](const APInt &v) { return -v; });
}

//===----------------------------------------------------------------------===//
// Quantization and reductions of constants
//===----------------------------------------------------------------------===//

/// clamp(roundeven(x / s) + z, -128, 127) as the lowering computes it in
/// `Calc` (f32, or f64 for f64 inputs); null at a NaN, whose conversion to
/// i8 has no defined result. Native arithmetic divides and rounds to
/// nearest even as the generated code does (std::nearbyint rounds in the
/// default mode, to nearest even).
template <typename Calc>
static Attribute quantizeConstant(DenseElementsAttr input,
                                  RankedTensorType type,
                                  ArrayRef<float> scales,
                                  ArrayRef<int64_t> zeroPoints,
                                  std::optional<int64_t> axis) {
  ArrayRef<int64_t> shape = type.getShape();
  // Elements of one channel index repeat in runs of `inner` (the dims after
  // the axis) and cycle through the axis' `dim` indices.
  int64_t inner = 1, dim = 1;
  if (axis) {
    dim = shape[*axis];
    for (int64_t d : shape.drop_front(*axis + 1))
      inner *= d;
  }
  SmallVector<int8_t> values;
  values.reserve(type.getNumElements());
  int64_t i = 0;
  for (Calc x : input.getValues<Calc>()) {
    if (std::isnan(x))
      return {};
    int64_t c = axis ? (i++ / inner) % dim : 0;
    Calc q = std::nearbyint(x / Calc(scales[c])) + Calc(zeroPoints[c]);
    q = std::min(std::max(q, Calc(-128)), Calc(127));
    values.push_back(static_cast<int8_t>(q));
  }
  return DenseElementsAttr::get(type, ArrayRef<int8_t>(values));
}

// quantize(constant) -> constant: rlx-specialize-params makes weights
// constants, so their quantization (and the column sums and packing that
// follow) leaves the program. f32 and f64 only, as the other folds.
OpFoldResult QuantizeOp::fold(FoldAdaptor adaptor) {
  auto dense = dyn_cast_if_present<DenseElementsAttr>(adaptor.getInput());
  RankedTensorType type = getType();
  if (!dense || !type.hasStaticShape())
    return {};
  std::optional<int64_t> axis;
  if (std::optional<uint64_t> a = getAxis()) {
    axis = static_cast<int64_t>(*a);
    if (*axis < 0)
      *axis += type.getRank();
  }
  Type element = dense.getElementType();
  if (element.isF32())
    return quantizeConstant<float>(dense, type, getScales(), getZeroPoints(),
                                   axis);
  if (element.isF64())
    return quantizeConstant<double>(dense, type, getScales(), getZeroPoints(),
                                    axis);
  return {};
}

// reduce sum(constant) -> constant for signless integers, wrapping as the
// lowering's addi does (float sums depend on the lowering's order of
// additions and are left alone).
OpFoldResult ReduceOp::fold(FoldAdaptor adaptor) {
  auto dense = dyn_cast_if_present<DenseElementsAttr>(adaptor.getInput());
  RankedTensorType type = getType();
  if (!dense || getKind() != ReduceKind::Sum || !type.hasStaticShape() ||
      !dense.getType().hasStaticShape() ||
      !dense.getElementType().isSignlessInteger())
    return {};
  ArrayRef<int64_t> inShape = dense.getType().getShape();
  int64_t rank = inShape.size();
  SmallVector<bool> reduced(rank, false);
  for (int64_t a : getAxes())
    reduced[a < 0 ? a + rank : a] = true;
  // The result's row-major stride of each input dim (0 for reduced dims),
  // keepdim or not: the kept dims are the result's, in order.
  SmallVector<int64_t> outStrides(rank, 0);
  int64_t stride = 1;
  for (int64_t d = rank - 1; d >= 0; --d)
    if (!reduced[d]) {
      outStrides[d] = stride;
      stride *= inShape[d];
    }
  unsigned width = dense.getElementType().getIntOrFloatBitWidth();
  SmallVector<APInt> sums(type.getNumElements(), APInt(width, 0));
  SmallVector<int64_t> index(rank, 0);
  for (const APInt &v : dense.getValues<APInt>()) {
    int64_t out = 0;
    for (int64_t d = 0; d < rank; ++d)
      out += index[d] * outStrides[d];
    sums[out] += v;
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < inShape[d])
        break;
      index[d] = 0;
    }
  }
  return DenseElementsAttr::get(type, sums);
}
