//===- ElementwiseToLinalg.cpp - rlx elementwise ops to linalg ------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Elementwise ops (with NumPy broadcasting), casts and constants become one
// linalg.generic each; the scalar math is arith / math / complex.
// Transcendental functions of f16/bf16 are computed in f32.
//
//===----------------------------------------------------------------------===//

#include "PatternGroups.h"
#include "Utils.h"

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::rlx;

/// Runs `fn` on `x` in f32 when `x` is f16/bf16 and converts back.
static Value inF32(OpBuilder &b, Location loc, Value x,
                   function_ref<Value(Value)> fn) {
  Type type = x.getType();
  Type acc = getAccumulatorType(type);
  if (acc == type)
    return fn(x);
  Value wide = arith::ExtFOp::create(b, loc, acc, x);
  return arith::TruncFOp::create(b, loc, type, fn(wide));
}

static Value constantLike(OpBuilder &b, Location loc, Value like, double v) {
  return createScalarConstant(b, loc, like.getType(), v);
}

/// 1 / (1 + exp(-x))
static Value sigmoid(OpBuilder &b, Location loc, Value x) {
  Value one = constantLike(b, loc, x, 1.0);
  Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
  return arith::DivFOp::create(b, loc, one,
                               arith::AddFOp::create(b, loc, one, e));
}

static Value gelu(OpBuilder &b, Location loc, Value x, bool tanhApprox) {
  Value half = constantLike(b, loc, x, 0.5);
  Value one = constantLike(b, loc, x, 1.0);
  Value inner;
  if (tanhApprox) {
    // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    Value x3 = arith::MulFOp::create(
        b, loc, x, arith::MulFOp::create(b, loc, x, x));
    Value poly = arith::AddFOp::create(
        b, loc, x,
        arith::MulFOp::create(b, loc, constantLike(b, loc, x, 0.044715), x3));
    Value scaled = arith::MulFOp::create(
        b, loc, constantLike(b, loc, x, std::sqrt(2.0 / M_PI)), poly);
    inner = math::TanhOp::create(b, loc, scaled);
  } else {
    // 0.5 x (1 + erf(x / sqrt(2)))
    inner = math::ErfOp::create(
        b, loc,
        arith::MulFOp::create(b, loc, x, constantLike(b, loc, x, M_SQRT1_2)));
  }
  Value t = arith::AddFOp::create(b, loc, one, inner);
  return arith::MulFOp::create(b, loc, arith::MulFOp::create(b, loc, half, x),
                               t);
}

/// The scalar of a unary op; `x` is signless, `isUnsigned` its lost sign.
static Value buildUnary(Operation *op, OpBuilder &b, Location loc, Value x) {
  Type type = x.getType();
  bool isFloat = isa<FloatType>(type);
  bool isComplex = isa<ComplexType>(type);
  auto f32 = [&](function_ref<Value(Value)> fn) { return inF32(b, loc, x, fn); };
  return TypeSwitch<Operation *, Value>(op)
      .Case([&](GeluOp g) {
        return f32([&](Value v) {
          return gelu(b, loc, v,
                      g.getApproximate() == GeluApproximation::Tanh);
        });
      })
      .Case([&](SiluOp) {
        return f32([&](Value v) {
          return arith::MulFOp::create(b, loc, v, sigmoid(b, loc, v));
        });
      })
      .Case([&](SigmoidOp) {
        return f32([&](Value v) { return sigmoid(b, loc, v); });
      })
      .Case([&](ReluOp) -> Value {
        Value zero = constantLike(b, loc, x, 0);
        if (isFloat)
          return arith::MaximumFOp::create(b, loc, x, zero);
        return arith::MaxSIOp::create(b, loc, x, zero);
      })
      .Case([&](TanhOp) {
        return f32([&](Value v) { return math::TanhOp::create(b, loc, v); });
      })
      .Case([&](ExpOp) -> Value {
        if (isComplex)
          return complex::ExpOp::create(b, loc, x);
        return f32([&](Value v) { return math::ExpOp::create(b, loc, v); });
      })
      .Case([&](LogOp) -> Value {
        if (isComplex)
          return complex::LogOp::create(b, loc, x);
        return f32([&](Value v) { return math::LogOp::create(b, loc, v); });
      })
      .Case([&](SqrtOp) {
        return f32([&](Value v) { return math::SqrtOp::create(b, loc, v); });
      })
      .Case([&](RsqrtOp) {
        return f32([&](Value v) { return math::RsqrtOp::create(b, loc, v); });
      })
      .Case([&](NegOp) -> Value {
        if (isFloat)
          return arith::NegFOp::create(b, loc, x);
        if (isComplex)
          return complex::NegOp::create(b, loc, x);
        return arith::SubIOp::create(b, loc, constantLike(b, loc, x, 0), x);
      })
      .Case([&](AbsOp) -> Value {
        if (isFloat)
          return math::AbsFOp::create(b, loc, x);
        return math::AbsIOp::create(b, loc, x);
      })
      .Case([&](SinOp) {
        return f32([&](Value v) { return math::SinOp::create(b, loc, v); });
      })
      .Case([&](CosOp) {
        return f32([&](Value v) { return math::CosOp::create(b, loc, v); });
      })
      .Case([&](TanOp) {
        return f32([&](Value v) { return math::TanOp::create(b, loc, v); });
      })
      .Case([&](AtanOp) {
        return f32([&](Value v) { return math::AtanOp::create(b, loc, v); });
      })
      .Case([&](RoundOp) {
        return math::RoundEvenOp::create(b, loc, x);
      })
      .Default([](Operation *) { return Value(); });
}

/// The scalar of a binary op; `isUnsigned` is the operands' lost sign.
static Value buildBinary(Operation *op, OpBuilder &b, Location loc, Value l,
                         Value r, bool isUnsigned) {
  Type type = l.getType();
  bool isFloat = isa<FloatType>(type);
  bool isComplex = isa<ComplexType>(type);
  return TypeSwitch<Operation *, Value>(op)
      .Case([&](AddOp) -> Value {
        if (isFloat)
          return arith::AddFOp::create(b, loc, l, r);
        if (isComplex)
          return complex::AddOp::create(b, loc, l, r);
        return arith::AddIOp::create(b, loc, l, r);
      })
      .Case([&](SubOp) -> Value {
        if (isFloat)
          return arith::SubFOp::create(b, loc, l, r);
        if (isComplex)
          return complex::SubOp::create(b, loc, l, r);
        return arith::SubIOp::create(b, loc, l, r);
      })
      .Case([&](MulOp) -> Value {
        if (isFloat)
          return arith::MulFOp::create(b, loc, l, r);
        if (isComplex)
          return complex::MulOp::create(b, loc, l, r);
        return arith::MulIOp::create(b, loc, l, r);
      })
      .Case([&](DivOp) -> Value {
        if (isFloat)
          return arith::DivFOp::create(b, loc, l, r);
        if (isComplex)
          return complex::DivOp::create(b, loc, l, r);
        if (isUnsigned)
          return arith::DivUIOp::create(b, loc, l, r);
        return arith::DivSIOp::create(b, loc, l, r);
      })
      .Case([&](MaxOp) -> Value {
        if (isFloat)
          return arith::MaximumFOp::create(b, loc, l, r);
        if (isUnsigned)
          return arith::MaxUIOp::create(b, loc, l, r);
        return arith::MaxSIOp::create(b, loc, l, r);
      })
      .Case([&](MinOp) -> Value {
        if (isFloat)
          return arith::MinimumFOp::create(b, loc, l, r);
        if (isUnsigned)
          return arith::MinUIOp::create(b, loc, l, r);
        return arith::MinSIOp::create(b, loc, l, r);
      })
      .Case([&](PowOp) {
        return inF32(b, loc, l, [&](Value wl) {
          Value wr = wl.getType() == r.getType()
                         ? r
                         : arith::ExtFOp::create(b, loc, wl.getType(), r);
          return math::PowFOp::create(b, loc, wl, wr);
        });
      })
      .Default([](Operation *) { return Value(); });
}

/// The i1 scalar of rlx.cmp.
static Value buildCompare(OpBuilder &b, Location loc, CmpPredicate predicate,
                          Value l, Value r, bool isUnsigned) {
  Type type = l.getType();
  if (isa<ComplexType>(type))
    return predicate == CmpPredicate::EQ
               ? complex::EqualOp::create(b, loc, l, r).getResult()
               : complex::NotEqualOp::create(b, loc, l, r).getResult();
  if (isa<FloatType>(type)) {
    // Ordered comparisons: false on NaN, except `ne`, which is true.
    arith::CmpFPredicate p = arith::CmpFPredicate::OEQ;
    switch (predicate) {
    case CmpPredicate::EQ: p = arith::CmpFPredicate::OEQ; break;
    case CmpPredicate::NE: p = arith::CmpFPredicate::UNE; break;
    case CmpPredicate::LT: p = arith::CmpFPredicate::OLT; break;
    case CmpPredicate::LE: p = arith::CmpFPredicate::OLE; break;
    case CmpPredicate::GT: p = arith::CmpFPredicate::OGT; break;
    case CmpPredicate::GE: p = arith::CmpFPredicate::OGE; break;
    }
    return arith::CmpFOp::create(b, loc, p, l, r);
  }
  arith::CmpIPredicate p = arith::CmpIPredicate::eq;
  switch (predicate) {
  case CmpPredicate::EQ: p = arith::CmpIPredicate::eq; break;
  case CmpPredicate::NE: p = arith::CmpIPredicate::ne; break;
  case CmpPredicate::LT:
    p = isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
    break;
  case CmpPredicate::LE:
    p = isUnsigned ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
    break;
  case CmpPredicate::GT:
    p = isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
    break;
  case CmpPredicate::GE:
    p = isUnsigned ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
    break;
  }
  return arith::CmpIOp::create(b, loc, p, l, r);
}

namespace {

/// Any unary or binary elementwise op -> linalg.generic.
template <typename OpTy>
struct ElementwisePattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using Adaptor = typename OpTy::Adaptor;

  LogicalResult
  matchAndRewrite(OpTy op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(
        this->getTypeConverter()->convertType(op.getType()));
    bool isUnsigned = isUnsignedElement(op->getOperand(0).getType());
    Operation *rlxOp = op.getOperation();
    Value result = buildElementwiseGeneric(
        rewriter, op.getLoc(), type, adaptor.getOperands(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          if (args.size() == 1)
            return buildUnary(rlxOp, b, loc, args[0]);
          return buildBinary(rlxOp, b, loc, args[0], args[1], isUnsigned);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct CmpPattern : OpConversionPattern<CmpOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CmpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Booleans order false < true, as unsigned 0 < 1.
    Type element = getElementTypeOrSelf(op.getLhs().getType());
    bool isUnsigned = element.isUnsignedInteger() || element.isInteger(1);
    CmpPredicate predicate = op.getPredicate();
    Value result = buildElementwiseGeneric(
        rewriter, op.getLoc(), op.getType(), adaptor.getOperands(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return buildCompare(b, loc, predicate, args[0], args[1], isUnsigned);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct WherePattern : OpConversionPattern<WhereOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WhereOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value result = buildElementwiseGeneric(
        rewriter, op.getLoc(), type, adaptor.getOperands(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return arith::SelectOp::create(b, loc, args[0], args[1], args[2])
              .getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct FmaPattern : OpConversionPattern<FmaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(FmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value result = buildElementwiseGeneric(
        rewriter, op.getLoc(), type, adaptor.getOperands(),
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Type t = args[0].getType();
          if (isa<FloatType>(t))
            return math::FmaOp::create(b, loc, args[0], args[1], args[2]);
          if (isa<ComplexType>(t))
            return complex::AddOp::create(
                b, loc, complex::MulOp::create(b, loc, args[0], args[1]),
                args[2]);
          return arith::AddIOp::create(
              b, loc, arith::MulIOp::create(b, loc, args[0], args[1]),
              args[2]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct CastPattern : OpConversionPattern<CastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    bool fromUnsigned = isUnsignedElement(op.getInput().getType());
    bool toUnsigned = isUnsignedElement(op.getType());
    Value result = buildElementwiseGeneric(
        rewriter, op.getLoc(), type, adaptor.getInput(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return castScalar(b, loc, args[0], type.getElementType(),
                            fromUnsigned, toUnsigned);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// rlx.stop_gradient is the identity once autodiff has run.
struct StopGradientPattern : OpConversionPattern<StopGradientOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(StopGradientOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getInput());
    return success();
  }
};

struct ConstantPattern : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense)
      return rewriter.notifyMatchFailure(op, "only dense constants lower");
    if (dense.getType() != type)
      dense = dense.bitcast(type.getElementType());
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type, dense);
    return success();
  }
};

/// rlx.elementwise_region: its scalar body becomes the generic's body.
struct ElementwiseRegionPattern : OpConversionPattern<ElementwiseRegionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ElementwiseRegionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (llvm::any_of(op->getOperandTypes(), isUnsignedElement) ||
        llvm::any_of(op->getResultTypes(), isUnsignedElement))
      return rewriter.notifyMatchFailure(
          op, "unsigned element types in a region body are not lowered");
    Location loc = op.getLoc();
    SmallVector<Value> results;
    for (auto [i, resultType] : llvm::enumerate(op.getResultTypes())) {
      Value r = buildElementwiseGeneric(
          rewriter, loc, cast<RankedTensorType>(resultType),
          adaptor.getInputs(),
          [&](OpBuilder &b, Location nloc, ValueRange args) {
            IRMapping map;
            Block &body = op.getBody().front();
            map.map(body.getArguments(), args);
            for (Operation &inner : body.without_terminator())
              b.clone(inner, map);
            return map.lookup(body.getTerminator()->getOperand(i));
          });
      results.push_back(r);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void rlx::populateElementwiseToLinalgPatterns(const TypeConverter &converter,
                                              RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<
      ElementwisePattern<GeluOp>, ElementwisePattern<SiluOp>,
      ElementwisePattern<ReluOp>, ElementwisePattern<SigmoidOp>,
      ElementwisePattern<TanhOp>, ElementwisePattern<ExpOp>,
      ElementwisePattern<LogOp>, ElementwisePattern<SqrtOp>,
      ElementwisePattern<RsqrtOp>, ElementwisePattern<NegOp>,
      ElementwisePattern<AbsOp>, ElementwisePattern<SinOp>,
      ElementwisePattern<CosOp>, ElementwisePattern<TanOp>,
      ElementwisePattern<AtanOp>, ElementwisePattern<RoundOp>,
      ElementwisePattern<AddOp>, ElementwisePattern<SubOp>,
      ElementwisePattern<MulOp>, ElementwisePattern<DivOp>,
      ElementwisePattern<MaxOp>, ElementwisePattern<MinOp>,
      ElementwisePattern<PowOp>, CmpPattern, WherePattern, FmaPattern,
      CastPattern, StopGradientPattern, ConstantPattern,
      ElementwiseRegionPattern>(converter, ctx);
}
