//===- CPUDequantMatmul.cpp - GGUF-block matmuls on the CPU ---------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx.dequant_matmul of a GGUF-quantized weight on the CPU (see
// CPUDequantMatmul.h). At batch 1 a decoder reads each weight once per
// token, so its speed is the rate at which weight bytes stream in: the
// generated lowering decodes the whole weight into an f32 tensor and then
// multiplies, writing and reading 4 bytes per weight where the file has
// 0.5 to 1. Here the weight crosses memory once, packed:
// - up to kFewRows rows of x (a decoder's step), on AVX-512 CPUs: each
//   group of 16 weights is decoded in registers and up to four rows of x
//   accumulate against it (multiplyFewRows);
// - otherwise (a prompt's rows, or no AVX-512): each thread decodes a tile
//   of kTileRows weight rows into a buffer that stays in its cache and
//   multiplies every row of x by it there (multiplyTiles), compiled for
//   AVX-512 and AVX2 besides the baseline, picked at load time.
// The decoders follow ggml's dequantize_row_* (ggml-quants.c) in the same
// f32 operations and order (where the compiler contracts d * q - m into
// one FMA, the product is not rounded); the sums run in 16 lanes, so their
// order differs from a sequential dot product's.
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/CPU/CPUDequantMatmul.h"
#include "RLX/Runtime/CPU/CPUThreads.h"

#include <algorithm>
#include <cstring>
#include <vector>

#if defined(__x86_64__)
// GCC 12 reports its own avx512fintrin.h's _mm512_undefined_* values as
// maybe uninitialized where intrinsics inline into each other.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#endif

#if defined(__x86_64__) && defined(__linux__)
#define RLX_VECTOR_CLONES                                                      \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define RLX_VECTOR_CLONES
#endif
#define RLX_INLINE inline __attribute__((always_inline))

namespace {

/// Weight rows decoded together: every row of x is multiplied by the tile
/// while it is in the cache.
constexpr int64_t kTileRows = 8;
/// Up to this many rows of x take multiplyFewRows.
constexpr int64_t kFewRows = 8;

RLX_INLINE float halfToFloat(const uint8_t *p) {
  uint32_t h = p[0] | (uint32_t(p[1]) << 8);
  uint32_t sign = (h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else {
    // Zero or subnormal: mantissa * 2^-24, exact in f32.
    float f = float(mantissa) * 5.9604644775390625e-8f;
    return sign ? -f : f;
  }
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

/// ggml's get_scale_min_k4: the 6-bit scale and min of sub-block j.
RLX_INLINE void scaleMinK4(int j, const uint8_t *q, uint8_t &d, uint8_t &m) {
  if (j < 4) {
    d = q[j] & 63;
    m = q[j + 4] & 63;
  } else {
    d = (q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4);
    m = (q[j + 4] >> 4) | ((q[j] >> 6) << 4);
  }
}

RLX_INLINE void decodeQ4_0(const uint8_t *b, float *y) {
  float d = halfToFloat(b);
  const uint8_t *qs = b + 2;
  for (int j = 0; j < 16; ++j) {
    y[j] = float((qs[j] & 0x0F) - 8) * d;
    y[j + 16] = float((qs[j] >> 4) - 8) * d;
  }
}

RLX_INLINE void decodeQ8_0(const uint8_t *b, float *y) {
  float d = halfToFloat(b);
  const int8_t *qs = reinterpret_cast<const int8_t *>(b + 2);
  for (int j = 0; j < 32; ++j)
    y[j] = float(qs[j]) * d;
}

RLX_INLINE void decodeQ4_K(const uint8_t *b, float *y) {
  float d = halfToFloat(b), min = halfToFloat(b + 2);
  const uint8_t *scales = b + 4, *q = b + 16;
  for (int j = 0, is = 0; j < 256; j += 64, is += 2, q += 32) {
    uint8_t sc, m;
    scaleMinK4(is, scales, sc, m);
    float d1 = d * sc, m1 = min * m;
    scaleMinK4(is + 1, scales, sc, m);
    float d2 = d * sc, m2 = min * m;
    for (int l = 0; l < 32; ++l)
      y[j + l] = d1 * (q[l] & 0xF) - m1;
    for (int l = 0; l < 32; ++l)
      y[j + 32 + l] = d2 * (q[l] >> 4) - m2;
  }
}

RLX_INLINE void decodeQ5_K(const uint8_t *b, float *y) {
  float d = halfToFloat(b), min = halfToFloat(b + 2);
  const uint8_t *scales = b + 4, *qh = b + 16, *ql = b + 48;
  uint8_t u1 = 1, u2 = 2;
  for (int j = 0, is = 0; j < 256; j += 64, is += 2, ql += 32) {
    uint8_t sc, m;
    scaleMinK4(is, scales, sc, m);
    float d1 = d * sc, m1 = min * m;
    scaleMinK4(is + 1, scales, sc, m);
    float d2 = d * sc, m2 = min * m;
    for (int l = 0; l < 32; ++l)
      y[j + l] = d1 * ((ql[l] & 0xF) + (qh[l] & u1 ? 16 : 0)) - m1;
    for (int l = 0; l < 32; ++l)
      y[j + 32 + l] = d2 * ((ql[l] >> 4) + (qh[l] & u2 ? 16 : 0)) - m2;
    u1 <<= 2;
    u2 <<= 2;
  }
}

RLX_INLINE void decodeQ6_K(const uint8_t *b, float *y) {
  const uint8_t *ql = b, *qh = b + 128;
  const int8_t *sc = reinterpret_cast<const int8_t *>(b + 192);
  float d = halfToFloat(b + 208);
  for (int n = 0; n < 256; n += 128, ql += 64, qh += 32, sc += 8) {
    for (int l = 0; l < 32; ++l) {
      int is = l / 16;
      int q1 = int((ql[l] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32;
      int q2 = int((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32;
      int q3 = int((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
      int q4 = int((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
      y[n + l] = d * sc[is] * q1;
      y[n + l + 32] = d * sc[is + 2] * q2;
      y[n + l + 64] = d * sc[is + 4] * q3;
      y[n + l + 96] = d * sc[is + 6] * q4;
    }
  }
}

RLX_INLINE void decodeQ8_K(const uint8_t *b, float *y) {
  float d;
  std::memcpy(&d, b, sizeof(d));
  const int8_t *qs = reinterpret_cast<const int8_t *>(b + 4);
  for (int j = 0; j < 256; ++j)
    y[j] = d * qs[j];
}

/// Decodes the block at `b` into `y` (f.weights floats).
RLX_INLINE void decodeBlock(int32_t scheme, const uint8_t *b, float *y) {
  switch (scheme) {
  case RLX_CPU_DEQUANT_Q4_0:
    return decodeQ4_0(b, y);
  case RLX_CPU_DEQUANT_Q8_0:
    return decodeQ8_0(b, y);
  case RLX_CPU_DEQUANT_Q4_K:
    return decodeQ4_K(b, y);
  case RLX_CPU_DEQUANT_Q5_K:
    return decodeQ5_K(b, y);
  case RLX_CPU_DEQUANT_Q6_K:
    return decodeQ6_K(b, y);
  case RLX_CPU_DEQUANT_Q8_K:
    return decodeQ8_K(b, y);
  }
}

/// Decodes one weight row of `k` weights from its packed blocks.
RLX_INLINE void decodeRow(int32_t scheme, const uint8_t *row, int64_t k,
                          float *w) {
  RlxCpuDequantFormat f = rlxCpuDequantFormat(scheme);
  for (int64_t i = 0; i < k / f.weights; ++i)
    decodeBlock(scheme, row + i * f.bytes, w + i * f.weights);
}

/// The sum of the 16 lanes of `acc`.
RLX_INLINE float lanesSum(float *acc) {
  for (int width = 8; width > 0; width /= 2)
    for (int j = 0; j < width; ++j)
      acc[j] += acc[j + width];
  return acc[0];
}

/// The sum of a[i] * b[i] over `k` (a multiple of 16), in 16 lanes.
RLX_INLINE float dot(const float *a, const float *b, int64_t k) {
  float acc[16] = {};
  for (int64_t i = 0; i < k; i += 16)
    for (int j = 0; j < 16; ++j)
      acc[j] += a[i + j] * b[i + j];
  return lanesSum(acc);
}

struct Problem {
  const float *x;
  const uint8_t *packed;
  float *out;
  int64_t m, k, n;
  int32_t scheme;
  /// For the K-quants with mins (Q4_K, Q5_K) on the few-rows path: the sum
  /// of each 32 x values that one (scale, min) pair covers, [m, k / 32].
  const float *subBlockSums = nullptr;
};

/// Whether a scheme's weights are d * q - min per 32 (the mins are folded
/// out of the few-rows path's products: sum x (d q - min) =
/// sum d q x - min sum x, as llama.cpp computes them).
constexpr bool hasMins(int32_t scheme) {
  return scheme == RLX_CPU_DEQUANT_Q4_K || scheme == RLX_CPU_DEQUANT_Q5_K;
}

#if defined(__x86_64__)
// The few-rows kernel in AVX-512 intrinsics, chosen at run time: written
// portably (vector extensions), GCC 12 converted bytes to floats lane by
// lane, and through a buffer the decoding's 32-byte stores did not forward
// to the FMA's 64-byte loads (2-3x slower).
#define RLX_AVX512 __attribute__((target("avx512f,avx512bw,fma,f16c")))

/// halfToFloat in one instruction (every AVX-512 CPU has F16C).
RLX_AVX512 RLX_INLINE float halfAt(const uint8_t *p) {
  uint16_t h;
  std::memcpy(&h, p, sizeof(h));
  return _cvtsh_ss(h);
}

RLX_AVX512 RLX_INLINE __m512i bytesU(const uint8_t *p) {
  return _mm512_cvtepu8_epi32(
      _mm_loadu_si128(reinterpret_cast<const __m128i *>(p)));
}
RLX_AVX512 RLX_INLINE __m512i bytesS(const uint8_t *p) {
  return _mm512_cvtepi8_epi32(
      _mm_loadu_si128(reinterpret_cast<const __m128i *>(p)));
}

/// A block's float scales (and mins), computed once for its groups.
struct BlockScales {
  float d[16], min[8];
};

template <int32_t Scheme>
RLX_AVX512 RLX_INLINE void blockScales(const uint8_t *b, BlockScales &s) {
  if constexpr (Scheme == RLX_CPU_DEQUANT_Q4_0 ||
                Scheme == RLX_CPU_DEQUANT_Q8_0) {
    s.d[0] = halfAt(b);
  } else if constexpr (Scheme == RLX_CPU_DEQUANT_Q4_K ||
                       Scheme == RLX_CPU_DEQUANT_Q5_K) {
    float d = halfAt(b), min = halfAt(b + 2);
    for (int j = 0; j < 8; ++j) {
      uint8_t sc, m;
      scaleMinK4(j, b + 4, sc, m);
      s.d[j] = d * sc;
      s.min[j] = min * m;
    }
  } else if constexpr (Scheme == RLX_CPU_DEQUANT_Q6_K) {
    float d = halfAt(b + 208);
    const int8_t *sc = reinterpret_cast<const int8_t *>(b + 192);
    for (int j = 0; j < 16; ++j)
      s.d[j] = d * sc[j];
  } else {
    std::memcpy(&s.d[0], b, sizeof(float));
  }
}

/// Weights [16 g, 16 g + 16) of the block at `b` with scales `s`, in the
/// operations of the scalar decoders above (but the min of Q4_K and Q5_K:
/// see hasMins).
template <int32_t Scheme>
RLX_AVX512 RLX_INLINE __m512 group(const uint8_t *b, int g,
                                   const BlockScales &s) {
  if constexpr (Scheme == RLX_CPU_DEQUANT_Q4_0) {
    __m512i qs = bytesU(b + 2);
    __m512i nibbles = g == 0 ? _mm512_and_si512(qs, _mm512_set1_epi32(0xF))
                             : _mm512_srli_epi32(qs, 4);
    __m512i q = _mm512_sub_epi32(nibbles, _mm512_set1_epi32(8));
    return _mm512_mul_ps(_mm512_cvtepi32_ps(q), _mm512_set1_ps(s.d[0]));
  } else if constexpr (Scheme == RLX_CPU_DEQUANT_Q8_0) {
    return _mm512_mul_ps(_mm512_cvtepi32_ps(bytesS(b + 2 + 16 * g)),
                         _mm512_set1_ps(s.d[0]));
  } else if constexpr (Scheme == RLX_CPU_DEQUANT_Q4_K ||
                       Scheme == RLX_CPU_DEQUANT_Q5_K) {
    // 64 weights per pair of scales: the low nibbles of 32 bytes, then
    // their high nibbles.
    int chunk = g / 4, high = (g / 2) % 2, half = g % 2;
    int qsOffset = Scheme == RLX_CPU_DEQUANT_Q4_K ? 16 : 48;
    __m512i bytes = bytesU(b + qsOffset + 32 * chunk + 16 * half);
    __m512i q = high ? _mm512_srli_epi32(bytes, 4)
                     : _mm512_and_si512(bytes, _mm512_set1_epi32(0xF));
    if constexpr (Scheme == RLX_CPU_DEQUANT_Q5_K) {
      __m512i qh =
          _mm512_srli_epi32(bytesU(b + 16 + 16 * half), 2 * chunk + high);
      __m512i bit = _mm512_and_si512(qh, _mm512_set1_epi32(1));
      q = _mm512_add_epi32(q, _mm512_slli_epi32(bit, 4));
    }
    // d q without the min, which multiplyRow folds out.
    int j = 2 * chunk + high;
    return _mm512_mul_ps(_mm512_set1_ps(s.d[j]), _mm512_cvtepi32_ps(q));
  } else if constexpr (Scheme == RLX_CPU_DEQUANT_Q6_K) {
    // Two halves of 128: four quarters of 32 from 64 low-nibble bytes and
    // 32 bytes of 2-bit highs.
    int h = g / 8, quarter = (g % 8) / 2, lane0 = 16 * (g % 2);
    const uint8_t *ql = b + 64 * h, *qh = b + 128 + 32 * h;
    __m512i low = bytesU(ql + lane0 + 32 * (quarter % 2));
    low = quarter < 2 ? _mm512_and_si512(low, _mm512_set1_epi32(0xF))
                      : _mm512_srli_epi32(low, 4);
    __m512i high =
        _mm512_and_si512(_mm512_srli_epi32(bytesU(qh + lane0), 2 * quarter),
                         _mm512_set1_epi32(3));
    __m512i q =
        _mm512_sub_epi32(_mm512_or_si512(low, _mm512_slli_epi32(high, 4)),
                         _mm512_set1_epi32(32));
    return _mm512_mul_ps(_mm512_set1_ps(s.d[8 * h + g % 2 + 2 * quarter]),
                         _mm512_cvtepi32_ps(q));
  } else {
    return _mm512_mul_ps(_mm512_set1_ps(s.d[0]),
                         _mm512_cvtepi32_ps(bytesS(b + 4 + 16 * g)));
  }
}

/// out[m, r] for the `R` rows of x from `m`: each group of 16 weights of
/// row `r` is decoded in registers and the R rows accumulate against it,
/// in two chains (one FMA chain would wait on its latency).
template <int32_t Scheme, int R>
RLX_AVX512 RLX_INLINE void multiplyRow(const Problem &p, int64_t r, int64_t m) {
  constexpr RlxCpuDequantFormat f = rlxCpuDequantFormat(Scheme);
  const uint8_t *row = p.packed + r * (p.k / f.weights * f.bytes);
  __m512 acc[R][2];
  float mins[R] = {};
  for (int rr = 0; rr < R; ++rr)
    acc[rr][0] = acc[rr][1] = _mm512_setzero_ps();
  for (int64_t b = 0; b < p.k / f.weights; ++b) {
    BlockScales scales;
    blockScales<Scheme>(row + b * f.bytes, scales);
    if constexpr (hasMins(Scheme)) {
      for (int rr = 0; rr < R; ++rr) {
        const float *sums = p.subBlockSums + (m + rr) * (p.k / 32) + 8 * b;
        for (int j = 0; j < 8; ++j)
          mins[rr] += scales.min[j] * sums[j];
      }
    }
    // Two groups a step, one per chain (an index by g % 2 kept the
    // accumulators in memory).
    for (int g = 0; g < f.weights / 16; g += 2) {
      __m512 w0 = group<Scheme>(row + b * f.bytes, g, scales);
      __m512 w1 = group<Scheme>(row + b * f.bytes, g + 1, scales);
      for (int rr = 0; rr < R; ++rr) {
        const float *x = p.x + (m + rr) * p.k + b * f.weights + 16 * g;
        acc[rr][0] = _mm512_fmadd_ps(_mm512_loadu_ps(x), w0, acc[rr][0]);
        acc[rr][1] = _mm512_fmadd_ps(_mm512_loadu_ps(x + 16), w1, acc[rr][1]);
      }
    }
  }
  for (int rr = 0; rr < R; ++rr)
    p.out[(m + rr) * p.n + r] =
        _mm512_reduce_add_ps(_mm512_add_ps(acc[rr][0], acc[rr][1])) -
        mins[rr];
}

/// Weight rows [begin * kTileRows, ...) times every row of x, four rows of
/// x at a time.
template <int32_t Scheme>
RLX_AVX512 void multiplyRows(const Problem &p, int64_t begin, int64_t end) {
  for (int64_t r = begin * kTileRows; r < std::min(end * kTileRows, p.n); ++r) {
    int64_t m = 0;
    for (; m + 4 <= p.m; m += 4)
      multiplyRow<Scheme, 4>(p, r, m);
    switch (p.m - m) {
    case 3:
      multiplyRow<Scheme, 3>(p, r, m);
      break;
    case 2:
      multiplyRow<Scheme, 2>(p, r, m);
      break;
    case 1:
      multiplyRow<Scheme, 1>(p, r, m);
      break;
    }
  }
}

/// For few rows of x (a decoder's step): the weight is read once per four
/// rows of x and never written out decoded.
void multiplyFewRows(void *context, int64_t begin, int64_t end) {
  const Problem &p = *static_cast<Problem *>(context);
  switch (p.scheme) {
  case RLX_CPU_DEQUANT_Q4_0:
    return multiplyRows<RLX_CPU_DEQUANT_Q4_0>(p, begin, end);
  case RLX_CPU_DEQUANT_Q8_0:
    return multiplyRows<RLX_CPU_DEQUANT_Q8_0>(p, begin, end);
  case RLX_CPU_DEQUANT_Q4_K:
    return multiplyRows<RLX_CPU_DEQUANT_Q4_K>(p, begin, end);
  case RLX_CPU_DEQUANT_Q5_K:
    return multiplyRows<RLX_CPU_DEQUANT_Q5_K>(p, begin, end);
  case RLX_CPU_DEQUANT_Q6_K:
    return multiplyRows<RLX_CPU_DEQUANT_Q6_K>(p, begin, end);
  case RLX_CPU_DEQUANT_Q8_K:
    return multiplyRows<RLX_CPU_DEQUANT_Q8_K>(p, begin, end);
  }
}

bool hasAVX512() {
  static const bool has =
      __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
  return has;
}
#endif

/// Rows [tile * kTileRows, ...) of W for tiles [begin, end), decoded into
/// `tile`. (Clang's target_clones leaves the library's inline functions that
/// a clone calls, std::vector's, undefined: the clone calls only the
/// always-inlined helpers above, and its caller owns the buffer.)
RLX_VECTOR_CLONES void multiplyTileRange(const Problem &p, int64_t begin,
                                         int64_t end, float *tile) {
  RlxCpuDequantFormat f = rlxCpuDequantFormat(p.scheme);
  int64_t rowBytes = p.k / f.weights * f.bytes;
  for (int64_t t = begin; t < end; ++t) {
    int64_t first = t * kTileRows;
    int64_t count = p.n - first < kTileRows ? p.n - first : kTileRows;
    for (int64_t r = 0; r < count; ++r)
      decodeRow(p.scheme, p.packed + (first + r) * rowBytes, p.k,
                tile + r * p.k);
    for (int64_t i = 0; i < p.m; ++i)
      for (int64_t r = 0; r < count; ++r)
        p.out[i * p.n + first + r] = dot(p.x + i * p.k, tile + r * p.k, p.k);
  }
}

/// Tiles [begin, end) of kTileRows weight rows.
void multiplyTiles(void *context, int64_t begin, int64_t end) {
  const Problem &p = *static_cast<Problem *>(context);
  std::vector<float> tile(kTileRows * p.k);
  multiplyTileRange(p, begin, end, tile.data());
}

} // namespace

extern "C" void rlx_cpu_dequant_matmul(const float *x, int64_t m, int64_t k,
                                       const uint8_t *packed, int64_t n,
                                       float *out, int32_t scheme) {
  // The compiler checked k against the block size.
  int64_t blockWeights = rlxCpuDequantFormat(scheme).weights;
  if (blockWeights == 0 || k % blockWeights != 0)
    __builtin_trap();
  Problem p{x, packed, out, m, k, n, scheme};
  int64_t tiles = (n + kTileRows - 1) / kTileRows;
  rlx_cpu_chunk_fn kernel = multiplyTiles;
#if defined(__x86_64__)
  // The sums of x per (scale, min) pair, once per call for every weight
  // row; kept per thread, so a decoder's steps allocate nothing.
  thread_local std::vector<float> subBlockSums;
  if (m <= kFewRows && hasAVX512()) {
    kernel = multiplyFewRows;
    if (hasMins(scheme)) {
      subBlockSums.resize(m * (k / 32));
      for (int64_t i = 0; i < m * (k / 32); ++i) {
        float sum = 0;
        for (int64_t e = 0; e < 32; ++e)
          sum += x[i * 32 + e];
        subBlockSums[i] = sum;
      }
      p.subBlockSums = subBlockSums.data();
    }
  }
#endif
  if (m > 0)
    rlx_cpu_parallel_for(kernel, &p, tiles, /*maxThreads=*/0);
}
