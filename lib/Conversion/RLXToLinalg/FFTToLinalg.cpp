//===- FFTToLinalg.cpp - rlx.fft/rfft/irfft as DFT contractions -----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The transforms are direct DFTs: one contraction linalg.generic per op whose
// body computes the twiddle factor from the loop indices. This is O(n^2) but
// exact for any length (no power-of-two restriction); the angle is reduced
// as (j k mod n) and evaluated in f64, so long transforms keep f32 accuracy
// (f64 transforms keep f64's).
//
//===----------------------------------------------------------------------===//

#include "PatternGroups.h"
#include "Utils.h"

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace mlir::rlx;

/// The scale PyTorch applies for `norm` to a forward or inverse transform.
static Value fftScale(OpBuilder &b, Location loc, FftNorm norm, bool inverse,
                      Value n, Type type) {
  Value nf = arith::SIToFPOp::create(
      b, loc, type, arith::IndexCastOp::create(b, loc, b.getI64Type(), n));
  Value one = createScalarConstant(b, loc, type, 1.0);
  if (norm == FftNorm::Ortho)
    return arith::DivFOp::create(b, loc, one, math::SqrtOp::create(b, loc, nf));
  bool divide = inverse ? norm == FftNorm::Backward : norm == FftNorm::Forward;
  return divide ? arith::DivFOp::create(b, loc, one, nf).getResult() : one;
}

/// (cos, sin) of sign * 2 pi (a b mod n) / n, as values of `part` (f32 or
/// f64).
static std::pair<Value, Value> twiddle(OpBuilder &b, Location loc, Value a,
                                       Value bIdx, Value n, double sign,
                                       FloatType part) {
  Value prod = arith::RemUIOp::create(
      b, loc, arith::MulIOp::create(b, loc, a, bIdx), n);
  auto toF64 = [&](Value i) {
    return arith::SIToFPOp::create(
        b, loc, b.getF64Type(),
        arith::IndexCastOp::create(b, loc, b.getI64Type(), i));
  };
  Value length = toF64(n);
  Value turn = createScalarConstant(b, loc, b.getF64Type(), sign * 2.0 * M_PI);
  Value product = toF64(prod);
  Value angle = arith::DivFOp::create(
      b, loc, arith::MulFOp::create(b, loc, product, turn), length);
  Value c = math::CosOp::create(b, loc, angle);
  Value s = math::SinOp::create(b, loc, angle);
  if (!part.isF64()) {
    c = arith::TruncFOp::create(b, loc, part, c);
    s = arith::TruncFOp::create(b, loc, part, s);
  }
  return {c, s};
}

/// A contraction over the last input dim `j` producing the last output dim
/// `k`: out[..., k] = sum_j body(in[..., j], k, j).
static Value buildDFT(OpBuilder &b, Location loc, Value input,
                      RankedTensorType outType, ValueRange outDyn, Value init,
                      function_ref<Value(OpBuilder &, Location, Value, Value,
                                         Value, Value)>
                          body) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = outType.getRank();
  SmallVector<AffineExpr> in, out;
  for (int64_t i = 0; i < rank - 1; ++i) {
    in.push_back(getAffineDimExpr(i, ctx));
    out.push_back(getAffineDimExpr(i, ctx));
  }
  in.push_back(getAffineDimExpr(rank, ctx));
  out.push_back(getAffineDimExpr(rank - 1, ctx));
  SmallVector<utils::IteratorType> iterators(rank + 1,
                                             utils::IteratorType::parallel);
  iterators[rank] = utils::IteratorType::reduction;
  Value filled = createFilled(b, loc, outType, outDyn, init);
  return linalg::GenericOp::create(
             b, loc, outType, input, filled,
             ArrayRef<AffineMap>{AffineMap::get(rank + 1, 0, in, ctx),
                                 AffineMap::get(rank + 1, 0, out, ctx)},
             iterators,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value k = linalg::IndexOp::create(nb, l, rank - 1);
               Value j = linalg::IndexOp::create(nb, l, rank);
               linalg::YieldOp::create(nb, l,
                                       body(nb, l, args[0], args[1], k, j));
             })
      .getResult(0);
}

/// Multiplies every element by the real `scale`.
static Value scaleAll(OpBuilder &b, Location loc, Value t, Value scale) {
  auto type = cast<RankedTensorType>(t.getType());
  return buildElementwiseGeneric(
      b, loc, type, t, [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value v = args[0];
        if (auto c = dyn_cast<ComplexType>(v.getType())) {
          Value zero = createScalarConstant(nb, l, c.getElementType(), 0);
          Value s = complex::CreateOp::create(nb, l, c, scale, zero);
          return complex::MulOp::create(nb, l, v, s).getResult();
        }
        return arith::MulFOp::create(nb, l, v, scale).getResult();
      });
}

/// `t` cut to `length` along its last dim (when shorter than it).
static Value cropLast(OpBuilder &b, Location loc, Value t, int64_t length) {
  auto type = cast<RankedTensorType>(t.getType());
  if (type.getShape().back() == length)
    return t;
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(type.getRank(), b.getIndexAttr(1));
  for (int64_t i = 0; i + 1 < type.getRank(); ++i)
    sizes.push_back(getAsOpFoldResult(getDimSize(b, loc, t, i)));
  sizes.push_back(b.getIndexAttr(length));
  return tensor::ExtractSliceOp::create(b, loc, t, offsets, sizes, strides);
}

namespace {

struct FftPattern : OpConversionPattern<FftOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(FftOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getInput();
    auto type = cast<RankedTensorType>(x.getType());
    auto complexType = cast<ComplexType>(type.getElementType());
    auto part = cast<FloatType>(complexType.getElementType());
    Value n = getDimSize(rewriter, loc, x, type.getRank() - 1);
    bool inverse = op.getInverse();
    Value zero = createScalarConstant(rewriter, loc, complexType, 0);
    Value dft = buildDFT(
        rewriter, loc, x, type, getDynamicDims(rewriter, loc, x), zero,
        [&](OpBuilder &b, Location l, Value in, Value acc, Value k, Value j) {
          auto [c, s] = twiddle(b, l, k, j, n, inverse ? 1.0 : -1.0, part);
          Value w = complex::CreateOp::create(b, l, complexType, c, s);
          return complex::AddOp::create(b, l, acc,
                                        complex::MulOp::create(b, l, in, w))
              .getResult();
        });
    Value scale = fftScale(rewriter, loc, op.getNorm(), inverse, n, part);
    rewriter.replaceOp(op, scaleAll(rewriter, loc, dft, scale));
    return success();
  }
};

struct RfftPattern : OpConversionPattern<RfftOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RfftOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getInput();
    auto type = cast<RankedTensorType>(x.getType());
    int64_t m = type.getShape().back();
    if (ShapedType::isDynamic(m))
      return rewriter.notifyMatchFailure(op, "rfft needs a static length");
    int64_t n = op.getN() ? static_cast<int64_t>(*op.getN()) : m;
    // Longer signals are cropped; shorter ones are zero-padded, which adds
    // nothing to the sums.
    Value used = cropLast(rewriter, loc, x, std::min(m, n));
    auto outType = op.getType();
    auto complexType = cast<ComplexType>(outType.getElementType());
    auto part = cast<FloatType>(complexType.getElementType());
    Value nv = arith::ConstantIndexOp::create(rewriter, loc, n);
    Value zero = createScalarConstant(rewriter, loc, complexType, 0);
    SmallVector<Value> dyn = getDynamicDimsExcept(
        rewriter, loc, x, {type.getRank() - 1});
    Value dft = buildDFT(
        rewriter, loc, used, outType, dyn, zero,
        [&](OpBuilder &b, Location l, Value in, Value acc, Value k, Value j) {
          auto [c, s] = twiddle(b, l, k, j, nv, -1.0, part);
          Value imag = arith::MulFOp::create(b, l, in, s);
          Value real = arith::MulFOp::create(b, l, in, c);
          Value term = complex::CreateOp::create(b, l, complexType, real, imag);
          return complex::AddOp::create(b, l, acc, term).getResult();
        });
    Value scale =
        fftScale(rewriter, loc, op.getNorm(), /*inverse=*/false, nv, part);
    rewriter.replaceOp(op, scaleAll(rewriter, loc, dft, scale));
    return success();
  }
};

/// x[t] = sum_k w_k (Re X[k] cos - Im X[k] sin)(2 pi k t / n), with w_k = 1
/// for the DC and Nyquist terms and 2 for the others (their conjugates).
struct IrfftPattern : OpConversionPattern<IrfftOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(IrfftOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getInput();
    auto type = cast<RankedTensorType>(x.getType());
    int64_t m = type.getShape().back();
    if (ShapedType::isDynamic(m))
      return rewriter.notifyMatchFailure(op, "irfft needs a static length");
    int64_t n = op.getN() ? static_cast<int64_t>(*op.getN()) : 2 * (m - 1);
    Value used = cropLast(rewriter, loc, x, std::min(m, n / 2 + 1));
    auto outType = op.getType();
    auto part = cast<FloatType>(outType.getElementType());
    Value nv = arith::ConstantIndexOp::create(rewriter, loc, n);
    Value zero = createScalarConstant(rewriter, loc, part, 0);
    SmallVector<Value> dyn = getDynamicDimsExcept(
        rewriter, loc, x, {type.getRank() - 1});
    Value dft = buildDFT(
        rewriter, loc, used, outType, dyn, zero,
        [&](OpBuilder &b, Location l, Value in, Value acc, Value t, Value k) {
          auto [c, s] = twiddle(b, l, k, t, nv, 1.0, part);
          Value re = complex::ReOp::create(b, l, in);
          Value im = complex::ImOp::create(b, l, in);
          Value imSin = arith::MulFOp::create(b, l, im, s);
          Value reCos = arith::MulFOp::create(b, l, re, c);
          Value term = arith::SubFOp::create(b, l, reCos, imSin);
          Value isDC = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::eq, k,
              arith::ConstantIndexOp::create(b, l, 0));
          Value single = isDC;
          if (n % 2 == 0)
            single = arith::OrIOp::create(
                b, l, isDC,
                arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::eq, k,
                    arith::ConstantIndexOp::create(b, l, n / 2)));
          Value two = createScalarConstant(b, l, part, 2);
          Value one = createScalarConstant(b, l, part, 1);
          Value weight = arith::SelectOp::create(b, l, single, one, two);
          return arith::AddFOp::create(b, l, acc,
                                       arith::MulFOp::create(b, l, weight,
                                                             term))
              .getResult();
        });
    Value scale =
        fftScale(rewriter, loc, op.getNorm(), /*inverse=*/true, nv, part);
    rewriter.replaceOp(op, scaleAll(rewriter, loc, dft, scale));
    return success();
  }
};

} // namespace

void rlx::populateFFTToLinalgPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns) {
  patterns.add<FftPattern, RfftPattern, IrfftPattern>(converter,
                                                      patterns.getContext());
}
