//===- GGUFDecode.cpp - decoding of GGUF and nvfp4 blocks -----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// llama.cpp's GGUF quants pack 32 or 256 weights into a block whose scales
// live among the packed bytes; nvfp4 packs 16 weights and their e4m3 scale
// the same way. The decoded weight is one linalg.generic over (n, k) whose
// body reads, with tensor.extract, the few bytes that weight (n, k) depends
// on and computes it as ggml's dequantize_row_q4_0, _q8_0, _q2_K, _q3_K,
// _q4_K, _q5_K, _q6_K and _q8_K (ggml-quants.c) do, in the same f32
// operations and order. Multi-byte fields (f16 halves, q8_K's f32 scale)
// are little-endian, as GGUF files store them.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::rlx;

namespace {

/// Emits, in the body of the decoding generic, the reads and arithmetic of
/// weight (row, k): `j` is k's position in its super-block and `base` the
/// super-block's byte offset in the packed row (index values). Byte offsets
/// passed to the readers are from the super-block's first byte.
class SuperBlock {
public:
  OpBuilder &b;
  Location loc;
  Value packed, row, j, base;

  SuperBlock(OpBuilder &b, Location loc, Value packed, int64_t weights,
             int64_t bytes)
      : b(b), loc(loc), packed(packed) {
    row = linalg::IndexOp::create(b, loc, 0);
    Value k = linalg::IndexOp::create(b, loc, 1);
    j = rem(k, weights);
    base = mul(div(k, weights), bytes);
  }

  Value index(int64_t v) {
    return createScalarConstant(b, loc, b.getIndexType(), v);
  }
  Value i32(int64_t v) {
    return createScalarConstant(b, loc, b.getI32Type(), v);
  }
  Value add(Value x, int64_t c) {
    return c ? arith::AddIOp::create(b, loc, x, index(c)) : x;
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t c) {
    return arith::MulIOp::create(b, loc, x, index(c));
  }
  Value div(Value x, int64_t c) {
    return arith::DivUIOp::create(b, loc, x, index(c));
  }
  Value rem(Value x, int64_t c) {
    return arith::RemUIOp::create(b, loc, x, index(c));
  }

  /// The byte at `offset` as i32, zero- or (`isSigned`) sign-extended.
  Value byte(Value offset, bool isSigned = false) {
    return read(add(base, offset), isSigned);
  }

  /// The little-endian `width`-byte word at `offset` as i32.
  Value word(int64_t offset, int64_t width) {
    Value w = read(add(base, offset), /*isSigned=*/false);
    for (int64_t i = 1; i < width; ++i) {
      Value next = read(add(base, offset + i), /*isSigned=*/false);
      w = arith::OrIOp::create(b, loc, w,
                               arith::ShLIOp::create(b, loc, next, i32(8 * i)));
    }
    return w;
  }

  /// The ggml_half at `offset` in f32.
  Value half(int64_t offset) {
    Value bits =
        arith::TruncIOp::create(b, loc, b.getI16Type(), word(offset, 2));
    Value h = arith::BitcastOp::create(b, loc, b.getF16Type(), bits);
    return arith::ExtFOp::create(b, loc, b.getF32Type(), h);
  }

  /// The f32 at `offset`.
  Value f32(int64_t offset) {
    return arith::BitcastOp::create(b, loc, b.getF32Type(), word(offset, 4));
  }

  /// (v >> shift) & mask for an i32 `v` and an index `shift`.
  Value bits(Value v, Value shift, int64_t mask) {
    Value s = arith::IndexCastOp::create(b, loc, b.getI32Type(), shift);
    Value maskCst = i32(mask);
    Value shifted = arith::ShRUIOp::create(b, loc, v, s);
    return arith::AndIOp::create(b, loc, shifted, maskCst);
  }
  Value bits(Value v, int64_t shift, int64_t mask) {
    if (shift)
      v = arith::ShRUIOp::create(b, loc, v, i32(shift));
    return arith::AndIOp::create(b, loc, v, i32(mask));
  }

  Value toFloat(Value v) {
    return arith::SIToFPOp::create(b, loc, b.getF32Type(), v);
  }

private:
  /// The byte at index `at` of the packed row.
  Value read(Value at, bool isSigned) {
    Value v = tensor::ExtractOp::create(b, loc, packed, ValueRange{row, at});
    if (isSigned)
      return arith::ExtSIOp::create(b, loc, b.getI32Type(), v);
    return arith::ExtUIOp::create(b, loc, b.getI32Type(), v);
  }
};

} // namespace

/// get_scale_min_k4: the 6-bit scale and min of sub-block `is` (0..7) from
/// the 12 bytes q at `offset`. Sub-blocks 0-3 keep them in the low 6 bits of
/// q[is] and q[is + 4]; sub-blocks 4-7 keep their low 4 bits in the nibbles
/// of q[is + 4] and their top 2 bits in the top bits of q[is - 4] (scale)
/// and q[is] (min).
static std::pair<Value, Value> scaleMinK4(SuperBlock &s, Value is,
                                          int64_t offset) {
  OpBuilder &b = s.b;
  Location loc = s.loc;
  Value at = s.byte(s.add(is, offset));
  Value after = s.byte(s.add(is, offset + 4));
  // q[is - 4] for is >= 4; is % 4 keeps the read in bounds for is < 4.
  Value before = s.byte(s.add(s.rem(is, 4), offset));
  auto high = [&](Value v) {
    Value four = s.i32(4);
    return arith::ShLIOp::create(b, loc, s.bits(v, 6, 3), four);
  };
  Value scaleHigh = high(before);
  Value scaleLow = s.bits(after, 0, 15);
  Value scale = arith::OrIOp::create(b, loc, scaleLow, scaleHigh);
  Value minHigh = high(at);
  Value minLow = s.bits(after, 4, 15);
  Value min = arith::OrIOp::create(b, loc, minLow, minHigh);
  Value low =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, is, s.index(4));
  return {arith::SelectOp::create(b, loc, low, s.bits(at, 0, 63), scale),
          arith::SelectOp::create(b, loc, low, s.bits(after, 0, 63), min)};
}

/// dequantize_row_q4_K / _q5_K: block {half d, dmin; u8 scales[12];
/// (q5_K: u8 qh[32];) u8 qs[128]}. Sub-block is = j / 32 has scale d * sc
/// and min dmin * m; byte qs[32 * (j / 64) + j % 32] holds j's low 4 bits
/// in its low nibble for even sub-blocks, its high nibble for odd ones;
/// q5_K's fifth bit is bit `is` of qh[j % 32]. w = d * sc * q - dmin * m.
static Value decodeQ4KOrQ5K(SuperBlock &s, bool q5) {
  OpBuilder &b = s.b;
  Location loc = s.loc;
  Value is = s.div(s.j, 32), l = s.rem(s.j, 32);
  int64_t qs = q5 ? 48 : 16;
  Value packedByte = s.byte(s.add(s.add(s.mul(s.div(s.j, 64), 32), l), qs));
  Value q = s.bits(packedByte, s.mul(s.rem(is, 2), 4), 15);
  if (q5) {
    Value fifth = s.bits(s.byte(s.add(l, 16)), is, 1);
    q = arith::OrIOp::create(b, loc, q,
                             arith::ShLIOp::create(b, loc, fifth, s.i32(4)));
  }
  auto [sc, m] = scaleMinK4(s, is, 4);
  Value scF = s.toFloat(sc);
  Value d = arith::MulFOp::create(b, loc, s.half(0), scF);
  Value mF = s.toFloat(m);
  Value min = arith::MulFOp::create(b, loc, s.half(2), mF);
  return arith::SubFOp::create(
      b, loc, arith::MulFOp::create(b, loc, d, s.toFloat(q)), min);
}

/// dequantize_row_q6_K: block {u8 ql[128]; u8 qh[64]; i8 scales[16]; half
/// d}. Each half h = j / 128 uses 64 bytes of ql and 32 of qh; its quarter
/// t = j % 128 / 32 takes the low (t < 2) or high nibble of ql[64 h + 32
/// (t % 2) + j % 32] and bits 2t, 2t + 1 of qh[32 h + j % 32] as the top
/// two. w = d * scales[j / 16] * (q - 32).
static Value decodeQ6K(SuperBlock &s) {
  OpBuilder &b = s.b;
  Location loc = s.loc;
  Value h = s.div(s.j, 128), t = s.div(s.rem(s.j, 128), 32);
  Value l = s.rem(s.j, 32);
  Value quarterAt = s.mul(s.rem(t, 2), 32);
  Value lowAt = s.add(s.add(s.mul(h, 64), quarterAt), l);
  Value lowShift = s.mul(s.div(t, 2), 4);
  Value low = s.bits(s.byte(lowAt), lowShift, 15);
  Value highShift = s.mul(t, 2);
  Value highByte = s.byte(s.add(s.add(s.mul(h, 32), l), 128));
  Value high = s.bits(highByte, highShift, 3);
  Value thirtyTwo = s.i32(32);
  Value four = s.i32(4);
  Value highBits = arith::ShLIOp::create(b, loc, high, four);
  Value q = arith::SubIOp::create(
      b, loc, arith::OrIOp::create(b, loc, low, highBits), thirtyTwo);
  Value sc = s.byte(s.add(s.div(s.j, 16), 192), /*isSigned=*/true);
  Value scF = s.toFloat(sc);
  Value d = arith::MulFOp::create(b, loc, s.half(208), scF);
  return arith::MulFOp::create(b, loc, d, s.toFloat(q));
}

/// dequantize_row_q8_K: block {f32 d; i8 qs[256]; i16 bsums[16]} (the sums
/// only speed up dot products). w = d * qs[j].
static Value decodeQ8K(SuperBlock &s) {
  Value q = s.byte(s.add(s.j, 4), /*isSigned=*/true);
  Value qF = s.toFloat(q);
  return arith::MulFOp::create(s.b, s.loc, s.f32(0), qF);
}

/// dequantize_row_q4_0: block {half d; u8 qs[16]}. Weight j < 16 is the low
/// nibble of qs[j], weight j >= 16 the high nibble of qs[j - 16].
/// w = (q - 8) * d.
static Value decodeQ4_0(SuperBlock &s) {
  Value packedByte = s.byte(s.add(s.rem(s.j, 16), 2));
  Value eight = s.i32(8);
  Value nibble = s.bits(packedByte, s.mul(s.div(s.j, 16), 4), 15);
  Value q = arith::SubIOp::create(s.b, s.loc, nibble, eight);
  Value d = s.half(0);
  return arith::MulFOp::create(s.b, s.loc, s.toFloat(q), d);
}

/// dequantize_row_q8_0: block {half d; i8 qs[32]}. w = qs[j] * d.
static Value decodeQ8_0(SuperBlock &s) {
  Value q = s.byte(s.add(s.j, 2), /*isSigned=*/true);
  Value d = s.half(0);
  return arith::MulFOp::create(s.b, s.loc, s.toFloat(q), d);
}

/// The 2-bit quant of weight j in the qs[64] at `offset` shared by q2_K and
/// q3_K: each half h = j / 128 uses 32 bytes, its quarter t = j % 128 / 32
/// takes bits 2t, 2t + 1 of qs[32 h + j % 32]. Returns (q, t).
static std::pair<Value, Value> twoBitQuant(SuperBlock &s, int64_t offset) {
  Value h = s.div(s.j, 128), t = s.div(s.rem(s.j, 128), 32);
  Value column = s.rem(s.j, 32);
  Value at = s.add(s.add(s.mul(h, 32), column), offset);
  Value shift = s.mul(t, 2);
  return {s.bits(s.byte(at), shift, 3), t};
}

/// dequantize_row_q2_K: block {u8 scales[16]; u8 qs[64]; half d, dmin}.
/// scales[j / 16] holds the sub-block's scale (low nibble) and min (high
/// nibble). w = d * sc * q - dmin * m.
static Value decodeQ2K(SuperBlock &s) {
  OpBuilder &b = s.b;
  Location loc = s.loc;
  Value q = twoBitQuant(s, 16).first;
  Value packedScale = s.byte(s.div(s.j, 16));
  Value scale = s.toFloat(s.bits(packedScale, 0, 15));
  Value dl = arith::MulFOp::create(b, loc, s.half(80), scale);
  Value min = s.toFloat(s.bits(packedScale, 4, 15));
  Value ml = arith::MulFOp::create(b, loc, s.half(82), min);
  return arith::SubFOp::create(
      b, loc, arith::MulFOp::create(b, loc, dl, s.toFloat(q)), ml);
}

/// dequantize_row_q3_K: block {u8 hmask[32]; u8 qs[64]; u8 scales[12]; half
/// d}. The 2-bit quant is q2_K's; the third bit is bit 4 h + t of
/// hmask[j % 32] (hmask is not advanced between halves), and a clear bit
/// subtracts 4. The 16 6-bit scales (ggml unpacks them with kmask1 and
/// kmask2): sub-block is = j / 16 takes its low 4 bits from the nibble
/// is / 8 of scales[is % 8] and its top 2 bits from bits 2 (is / 4), +1 of
/// scales[8 + is % 4]. w = d * (sc - 32) * q.
static Value decodeQ3K(SuperBlock &s) {
  OpBuilder &b = s.b;
  Location loc = s.loc;
  auto [low, t] = twoBitQuant(s, 32);
  Value h = s.div(s.j, 128);
  Value highShift = s.add(s.mul(h, 4), t);
  Value high = s.bits(s.byte(s.rem(s.j, 32)), highShift, 1);
  // q = low - (high ? 0 : 4) = low + 4 high - 4.
  Value four = s.i32(4);
  Value two = s.i32(2);
  Value highBit = arith::ShLIOp::create(b, loc, high, two);
  Value q = arith::SubIOp::create(
      b, loc, arith::AddIOp::create(b, loc, low, highBit), four);
  Value is = s.div(s.j, 16);
  Value scLowShift = s.mul(s.div(is, 8), 4);
  Value scLow = s.bits(s.byte(s.add(s.rem(is, 8), 96)), scLowShift, 15);
  Value scHighShift = s.mul(s.div(is, 4), 2);
  Value scHigh = s.bits(s.byte(s.add(s.rem(is, 4), 104)), scHighShift, 3);
  Value thirtyTwo = s.i32(32);
  Value scFour = s.i32(4);
  Value scHighBits = arith::ShLIOp::create(b, loc, scHigh, scFour);
  Value sc = arith::SubIOp::create(
      b, loc, arith::OrIOp::create(b, loc, scLow, scHighBits), thirtyTwo);
  Value scF = s.toFloat(sc);
  Value dl = arith::MulFOp::create(b, loc, s.half(108), scF);
  return arith::MulFOp::create(b, loc, dl, s.toFloat(q));
}

/// nvfp4: block {u8 scale (e4m3); u8 qs[8]}: weight j is nibble j % 2 of
/// qs[j / 2], an e2m1 code (sign, 2 exponent bits of bias 1, 1 mantissa
/// bit). w = e2m1(q) * e4m3(scale) * tensorScale; the first product is
/// exact in f32 (2 + 4 significant bits).
static Value decodeNvfp4(SuperBlock &s, Value tensorScale) {
  OpBuilder &b = s.b;
  Location loc = s.loc;
  Value nibbleShift = s.mul(s.rem(s.j, 2), 4);
  Value code = s.bits(s.byte(s.add(s.div(s.j, 2), 1)), nibbleShift, 15);
  // Twice the magnitude as an integer: m for exponent 0 (0 or 0.5), else
  // (2 + m) << (e - 1) (1, 1.5, 2, 3, 4, 6).
  Value e = s.bits(code, 1, 3), m = s.bits(code, 0, 1);
  Value exponent = arith::SubIOp::create(b, loc, e, s.i32(1));
  Value significand = arith::AddIOp::create(b, loc, m, s.i32(2));
  Value normal = arith::ShLIOp::create(b, loc, significand, exponent);
  Value isSubnormal =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, e, s.i32(0));
  Value twice = arith::SelectOp::create(b, loc, isSubnormal, m, normal);
  Value half = createScalarConstant(b, loc, b.getF32Type(), 0.5);
  Value mag = arith::MulFOp::create(b, loc, s.toFloat(twice), half);
  Value zero = s.i32(0);
  Value sign = s.bits(code, 3, 1);
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, sign, zero);
  Value v = arith::SelectOp::create(
      b, loc, negative, arith::NegFOp::create(b, loc, mag), mag);
  Value scaleByte = arith::TruncIOp::create(b, loc, b.getI8Type(),
                                            s.byte(s.index(0)));
  Value scaled =
      arith::MulFOp::create(b, loc, v, decodeE4M3FN(b, loc, scaleByte));
  return arith::MulFOp::create(b, loc, scaled, tensorScale);
}

Value rlx::buildPackedBlockDecode(OpBuilder &b, Location loc,
                                  QuantSchemeAttr scheme, Value packed,
                                  ValueRange params, int64_t n, int64_t k) {
  int64_t weights = scheme.getEffectiveBlockSize();
  int64_t bytes = scheme.getPackedRowBytes(weights);
  QuantKind kind = scheme.getKind();
  // nvfp4's per-tensor scale is the generic's one (rank 0) input.
  SmallVector<AffineMap> maps(params.size(),
                              AffineMap::get(2, 0, {}, b.getContext()));
  return buildMappedGeneric(
      b, loc, RankedTensorType::get({n, k}, b.getF32Type()), {}, params, maps,
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        SuperBlock s(nb, l, packed, weights, bytes);
        switch (kind) {
        case QuantKind::GgufQ4_0:
          return decodeQ4_0(s);
        case QuantKind::GgufQ8_0:
          return decodeQ8_0(s);
        case QuantKind::GgufQ2K:
          return decodeQ2K(s);
        case QuantKind::GgufQ3K:
          return decodeQ3K(s);
        case QuantKind::GgufQ4K:
          return decodeQ4KOrQ5K(s, /*q5=*/false);
        case QuantKind::GgufQ5K:
          return decodeQ4KOrQ5K(s, /*q5=*/true);
        case QuantKind::GgufQ6K:
          return decodeQ6K(s);
        case QuantKind::GgufQ8K:
          return decodeQ8K(s);
        case QuantKind::Nvfp4:
          return decodeNvfp4(s, args[0]);
        default:
          llvm_unreachable("not a packed-block scheme");
        }
      });
}
