//===- QuantToLinalg.cpp - rlx quantization ops to linalg -----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Affine (de)quantization is elementwise: each element reads its scale and
// zero point per tensor or per channel of `axis`. Rounding is half to even,
// as PyTorch's. dequant_matmul decodes its packed weight into a float
// tensor and multiplies by it; the decoding of the schemes whose scales
// live among the packed bytes (GGUF, nvfp4) is in GGUFDecode.cpp.
//
//===----------------------------------------------------------------------===//

#include "PatternGroups.h"
#include "Utils.h"

#include "RLX/Dialect/MIR/IR/RLXOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <limits>

using namespace mlir;
using namespace mlir::rlx;

/// The map reading a per-tensor (rank 0) or per-`axis` (rank 1) parameter.
static AffineMap paramMap(MLIRContext *ctx, int64_t rank,
                          std::optional<int64_t> axis) {
  if (!axis)
    return AffineMap::get(rank, 0, {}, ctx);
  return AffineMap::get(rank, 0, getAffineDimExpr(*axis, ctx), ctx);
}

/// The scales and zero points of an affine quantization as f32 constant
/// tensors (rank 0 when per tensor).
static std::pair<Value, Value> affineParams(OpBuilder &b, Location loc,
                                            ArrayRef<float> scales,
                                            ArrayRef<int64_t> zeroPoints,
                                            bool perChannel) {
  SmallVector<int64_t> shape;
  if (perChannel)
    shape.push_back(scales.size());
  auto type = RankedTensorType::get(shape, b.getF32Type());
  SmallVector<float> zp(zeroPoints.begin(), zeroPoints.end());
  Value s = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, scales));
  Value z = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, ArrayRef<float>(zp)));
  return {s, z};
}

/// clamp(roundeven(x / s) + z, lo, hi) in f32.
static Value quantizeScalar(OpBuilder &b, Location loc, Value x, Value s,
                            Value z, double lo, double hi) {
  Value q = math::RoundEvenOp::create(b, loc,
                                      arith::DivFOp::create(b, loc, x, s));
  q = arith::AddFOp::create(b, loc, q, z);
  q = arith::MaximumFOp::create(b, loc, q,
                                createScalarConstant(b, loc, x.getType(), lo));
  return arith::MinimumFOp::create(
      b, loc, q, createScalarConstant(b, loc, x.getType(), hi));
}

/// The type the arithmetic runs in: f64 for f64 tensors, else f32.
static Type computeType(Type element) {
  if (element.isF64())
    return element;
  return Float32Type::get(element.getContext());
}

static std::optional<int64_t> axisOf(std::optional<uint64_t> axis,
                                     int64_t rank) {
  if (!axis)
    return std::nullopt;
  return positiveAxis(static_cast<int64_t>(*axis), rank);
}

// Decoded with integer operations because arith-to-llvm does not lower f8
// types.
Value rlx::decodeE4M3FN(OpBuilder &b, Location loc, Value bits) {
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  auto c = [&](Type type, double v) {
    return createScalarConstant(b, loc, type, v);
  };
  Value v = arith::ExtUIOp::create(b, loc, i32, bits);
  Value fifteen = c(i32, 15);
  Value e = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, v, c(i32, 3)), fifteen);
  Value m = arith::AndIOp::create(b, loc, v, c(i32, 7));
  // A normal value's f32 bits: exponent rebiased to 127, mantissa widened
  // from 3 to 23 bits.
  Value mantissa = arith::ShLIOp::create(b, loc, m, c(i32, 20));
  Value twentyThree = c(i32, 23);
  Value rebiased = arith::AddIOp::create(b, loc, e, c(i32, 127 - 7));
  Value exponent = arith::ShLIOp::create(b, loc, rebiased, twentyThree);
  Value normal = arith::OrIOp::create(b, loc, exponent, mantissa);
  // A subnormal is m * 2^(1 - 7 - 3).
  Value subnormalScale = c(f32, 0x1p-9);
  Value subnormal = arith::MulFOp::create(
      b, loc, arith::UIToFPOp::create(b, loc, f32, m), subnormalScale);
  Value normalF = arith::BitcastOp::create(b, loc, f32, normal);
  Value isSubnormal =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, e, c(i32, 0));
  Value mag = arith::SelectOp::create(b, loc, isSubnormal, subnormal, normalF);
  Value nanBits = c(i32, 0x7F);
  Value nan = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::AndIOp::create(b, loc, v, c(i32, 0x7F)), nanBits);
  mag = arith::SelectOp::create(
      b, loc, nan, c(f32, std::numeric_limits<double>::quiet_NaN()), mag);
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, v, c(i32, 0x80));
  return arith::SelectOp::create(b, loc, negative,
                                 arith::NegFOp::create(b, loc, mag), mag);
}

/// The e5m2 value of the byte `bits` (i8) in f32: e5m2 is the high byte of
/// an IEEE half (bias 15, subnormals, infinities and NaN alike), and f16
/// lowers where f8 does not.
static Value decodeE5M2(OpBuilder &b, Location loc, Value bits) {
  Value eight = createScalarConstant(b, loc, b.getI16Type(), 8);
  Value half = arith::ShLIOp::create(
      b, loc, arith::ExtUIOp::create(b, loc, b.getI16Type(), bits), eight);
  Value h = arith::BitcastOp::create(b, loc, b.getF16Type(), half);
  return arith::ExtFOp::create(b, loc, b.getF32Type(), h);
}

/// The f32 [n, k] weight of the schemes that store one element per byte or
/// nibble and scale it from operands: `w * scale`, `(w - zero_point) *
/// scale`, `(nibble - 8) * scale`, `fp8(w) * scale` (see #rlx.quant).
static Value decodeScaled(OpBuilder &rewriter, Location loc,
                          QuantSchemeAttr scheme, Value packed,
                          ValueRange params, int64_t n, int64_t k) {
  MLIRContext *ctx = rewriter.getContext();
  QuantKind kind = scheme.getKind();
  int64_t block = scheme.getBlockSize();
  auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  bool int4 = kind == QuantKind::Int4Block;
  SmallVector<Value> inputs = {packed};
  SmallVector<AffineMap> maps = {
      AffineMap::get(2, 0, {d(0), int4 ? d(1).floorDiv(2) : d(1)}, ctx)};
  // fp8 scales are per row, the others per row and block.
  AffineMap paramMap =
      block ? AffineMap::get(2, 0, {d(0), d(1).floorDiv(block)}, ctx)
            : AffineMap::get(2, 0, d(0), ctx);
  for (Value p : params) {
    inputs.push_back(p);
    maps.push_back(paramMap);
  }
  return buildMappedGeneric(
      rewriter, loc, RankedTensorType::get({n, k}, rewriter.getF32Type()), {},
      inputs, maps, [&](OpBuilder &b, Location l, ValueRange args) -> Value {
        Value v;
        if (int4) {
          // Low nibble for even k, high nibble for odd k; q - 8.
          Value byte = arith::ExtUIOp::create(b, l, b.getI32Type(), args[0]);
          Value two = arith::ConstantIndexOp::create(b, l, 2);
          Value column = linalg::IndexOp::create(b, l, 1);
          Value odd = arith::IndexCastOp::create(
              b, l, b.getI32Type(), arith::RemUIOp::create(b, l, column, two));
          Value shift = arith::MulIOp::create(
              b, l, odd,
              arith::ConstantOp::create(b, l, b.getI32IntegerAttr(4)));
          Value mask = arith::ConstantOp::create(b, l, b.getI32IntegerAttr(15));
          Value nibble = arith::AndIOp::create(
              b, l, arith::ShRUIOp::create(b, l, byte, shift), mask);
          Value q = arith::SubIOp::create(
              b, l, nibble,
              arith::ConstantOp::create(b, l, b.getI32IntegerAttr(8)));
          v = arith::SIToFPOp::create(b, l, b.getF32Type(), q);
        } else if (kind == QuantKind::Fp8E4M3) {
          v = decodeE4M3FN(b, l, args[0]);
        } else if (kind == QuantKind::Fp8E5M2) {
          v = decodeE5M2(b, l, args[0]);
        } else {
          v = arith::SIToFPOp::create(
              b, l, b.getF32Type(),
              arith::ExtSIOp::create(b, l, b.getI32Type(), args[0]));
        }
        if (kind == QuantKind::Int8BlockAsym)
          v = arith::SubFOp::create(b, l, v, args[2]);
        return arith::MulFOp::create(b, l, v, args[1]).getResult();
      });
}

namespace {

struct QuantizePattern : OpConversionPattern<QuantizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QuantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getInput();
    int64_t rank = op.getInput().getType().getRank();
    std::optional<int64_t> axis = axisOf(op.getAxis(), rank);
    auto [s, z] = affineParams(rewriter, loc, op.getScales(),
                               op.getZeroPoints(), axis.has_value());
    AffineMap pm = paramMap(rewriter.getContext(), rank, axis);
    // f64 inputs divide in f64, so values near a rounding tie stay exact.
    Type calc = computeType(op.getInput().getType().getElementType());
    Value result = buildMappedGeneric(
        rewriter, loc, op.getType(), getDynamicDims(rewriter, loc, x),
        ValueRange{x, s, z}, {rewriter.getMultiDimIdentityMap(rank), pm, pm},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value v = castScalar(b, l, args[0], calc, false, false);
          Value zeroPoint = castScalar(b, l, args[2], calc, false, false);
          Value scale = castScalar(b, l, args[1], calc, false, false);
          Value q = quantizeScalar(b, l, v, scale, zeroPoint, -128, 127);
          return arith::FPToSIOp::create(b, l, b.getI8Type(), q);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct DequantizePattern : OpConversionPattern<DequantizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DequantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value q = adaptor.getInput();
    int64_t rank = op.getType().getRank();
    std::optional<int64_t> axis = axisOf(op.getAxis(), rank);
    auto [s, z] = affineParams(rewriter, loc, op.getScales(),
                               op.getZeroPoints(), axis.has_value());
    AffineMap pm = paramMap(rewriter.getContext(), rank, axis);
    Type element = op.getType().getElementType();
    Type calc = computeType(element);
    Value result = buildMappedGeneric(
        rewriter, loc, op.getType(), getDynamicDims(rewriter, loc, q),
        ValueRange{q, s, z}, {rewriter.getMultiDimIdentityMap(rank), pm, pm},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value v = arith::SIToFPOp::create(b, l, calc, args[0]);
          Value scale = castScalar(b, l, args[1], calc, false, false);
          Value zero = castScalar(b, l, args[2], calc, false, false);
          Value x = arith::MulFOp::create(
              b, l, arith::SubFOp::create(b, l, v, zero), scale);
          return castScalar(b, l, x, element, false, false);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// (clamp(roundeven(x / s) + z, qmin, qmax) - z) * s with the scale and
/// zero point read from operands.
struct FakeQuantizePattern : OpConversionPattern<FakeQuantizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(FakeQuantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getInput();
    auto type = cast<RankedTensorType>(x.getType());
    int64_t rank = type.getRank();
    std::optional<int64_t> axis = axisOf(op.getAxis(), rank);
    AffineMap pm = paramMap(rewriter.getContext(), rank, axis);
    int64_t bits = op.getBits();
    double qmin = -double(int64_t(1) << (bits - 1));
    double qmax = double(int64_t(1) << (bits - 1)) - 1;
    Type element = type.getElementType();
    Type acc = getAccumulatorType(element);
    Value result = buildMappedGeneric(
        rewriter, loc, type, getDynamicDims(rewriter, loc, x),
        ValueRange{x, adaptor.getScale(), adaptor.getZeroPoint()},
        {rewriter.getMultiDimIdentityMap(rank), pm, pm},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value v = castScalar(b, l, args[0], acc, false, false);
          Value s = castScalar(b, l, args[1], acc, false, false);
          Value z = arith::SIToFPOp::create(b, l, acc, args[2]);
          Value q = quantizeScalar(b, l, v, s, z, qmin, qmax);
          Value y = arith::MulFOp::create(b, l, arith::SubFOp::create(b, l, q, z),
                                          s);
          return castScalar(b, l, y, element, false, false);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Decodes the packed weight into a float [N, K] tensor (see #rlx.quant),
/// then multiplies x [..., K] by its transpose.
struct DequantMatmulPattern : OpConversionPattern<DequantMatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DequantMatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    QuantSchemeAttr scheme = op.getScheme();
    auto xType = cast<RankedTensorType>(adaptor.getInput().getType());
    Value packed = adaptor.getWeight();
    auto wType = cast<RankedTensorType>(packed.getType());
    int64_t k = xType.getShape().back();
    if (ShapedType::isDynamic(k) || wType.isDynamicDim(0))
      return rewriter.notifyMatchFailure(op, "needs static N and K");
    if (xType.getRank() < 2)
      return rewriter.notifyMatchFailure(op, "needs an input of rank >= 2");
    // With K static, the verifier has checked that it is a multiple of the
    // block size and, where static, the packed row width.
    int64_t n = wType.getDimSize(0);
    Value decoded =
        scheme.hasPackedBlocks()
            ? buildPackedBlockDecode(rewriter, loc, scheme, packed,
                                     adaptor.getParams(), n, k)
            : decodeScaled(rewriter, loc, scheme, packed, adaptor.getParams(),
                           n, k);
    Value weight = castTensor(rewriter, loc, decoded, xType.getElementType());
    auto resultType =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    rewriter.replaceOp(op, buildMatmul(rewriter, loc, adaptor.getInput(),
                                       weight, /*transposeA=*/false,
                                       /*transposeB=*/true, resultType));
    return success();
  }
};

} // namespace

void rlx::populateQuantToLinalgPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<QuantizePattern, DequantizePattern, FakeQuantizePattern,
               DequantMatmulPattern>(converter, patterns.getContext());
}
