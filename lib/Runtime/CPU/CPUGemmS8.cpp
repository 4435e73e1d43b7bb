//===- CPUGemmS8.cpp - the int8 gemm compiled programs call ---------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// C (i32) += A (i8, m x k) B (i8, k x n) on strided views, for
// rlx.int8_matmul. No BLAS has an int8 gemm, and the generated contraction
// multiplies in i32 (vpmulld: 16 products per instruction); AVX-512 VNNI's
// vpdpbusd sums 64 u8 x s8 products into 16 i32 lanes per instruction, so
// this kernel is ours:
// - A is shifted to u8 (a + 128) and each C column corrected by
//   128 * (column sum of B): sum (a + 128) b = sum a b + 128 sum b, exact
//   in i32 for k below 2^16;
// - B is packed once per call in panels of 32 columns, [k/4][32][4] bytes
//   each (zero padded), so that one 64-byte load holds 4 consecutive k of
//   16 columns;
// - register tiles of 4 rows by 32 columns (8 accumulators) run over all
//   of k; column panels (k * 32 bytes: 24 KiB for k = 768) are the outer
//   loop, so a panel stays in L1 while every row block reads it.
// Without VNNI (checked at run time) a plain loop computes the same sums.
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/CPU/CPUBlas.h"

#include <algorithm>
#include <cstring>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

using mlir::rlx::runtime::MemRef2D;

namespace {

template <typename T> T &at(const MemRef2D<T> &v, int64_t i, int64_t j) {
  return v.aligned[v.offset + i * v.strides[0] + j * v.strides[1]];
}

void plainGemm(const MemRef2D<int8_t> &a, const MemRef2D<int8_t> &b,
               const MemRef2D<int32_t> &c) {
  int64_t m = c.sizes[0], n = c.sizes[1], k = a.sizes[1];
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p) {
      int32_t x = at(a, i, p);
      for (int64_t j = 0; j < n; ++j)
        at(c, i, j) += x * int32_t(at(b, p, j));
    }
}

#if defined(__x86_64__)
constexpr int64_t kRows = 4, kCols = 32;

__attribute__((target("avx512f,avx512bw,avx512vnni"))) void
vnniGemm(const MemRef2D<int8_t> &a, const MemRef2D<int8_t> &b,
         const MemRef2D<int32_t> &c) {
  int64_t m = c.sizes[0], n = c.sizes[1], k = a.sizes[1];
  int64_t k4 = (k + 3) / 4, nPad = (n + kCols - 1) / kCols * kCols;
  int64_t mPad = (m + kRows - 1) / kRows * kRows;
  // B as panels of 32 columns, each [k4][32][4] and contiguous (a stride of
  // nPad * 4 bytes between steps of k, a multiple of 4 KiB for n = 3072,
  // would map a panel onto one L1 set), and its column sums.
  std::vector<int8_t> packedB(k4 * nPad * 4, 0);
  std::vector<int32_t> colSums(nPad, 0);
  for (int64_t p = 0; p < k; ++p)
    for (int64_t j = 0; j < n; ++j) {
      int8_t v = at(b, p, j);
      packedB[(((j / kCols) * k4 + p / 4) * kCols + j % kCols) * 4 + p % 4] = v;
      colSums[j] += v;
    }
  // A + 128 as u8, rows of k4 * 4 bytes (zero padded: B's padding is 0).
  std::vector<uint8_t> packedA(mPad * k4 * 4, 0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p)
      packedA[i * k4 * 4 + p] = uint8_t(at(a, i, p)) ^ 0x80;

  int32_t tile[kRows][kCols];
  for (int64_t j0 = 0; j0 < nPad; j0 += kCols) {
    __m512i shift0 =
        _mm512_slli_epi32(_mm512_loadu_si512(colSums.data() + j0), 7);
    __m512i shift1 =
        _mm512_slli_epi32(_mm512_loadu_si512(colSums.data() + j0 + 16), 7);
    for (int64_t i0 = 0; i0 < m; i0 += kRows) {
      __m512i acc[kRows][2];
      for (int64_t r = 0; r < kRows; ++r)
        acc[r][0] = acc[r][1] = _mm512_setzero_si512();
      const uint8_t *rowA = packedA.data() + i0 * k4 * 4;
      const int8_t *panel = packedB.data() + j0 * k4 * 4;
      for (int64_t q = 0; q < k4; ++q) {
        __m512i b0 = _mm512_loadu_si512(panel + q * kCols * 4);
        __m512i b1 = _mm512_loadu_si512(panel + q * kCols * 4 + 64);
        for (int64_t r = 0; r < kRows; ++r) {
          int32_t word;
          std::memcpy(&word, rowA + r * k4 * 4 + q * 4, 4);
          __m512i av = _mm512_set1_epi32(word);
          acc[r][0] = _mm512_dpbusd_epi32(acc[r][0], av, b0);
          acc[r][1] = _mm512_dpbusd_epi32(acc[r][1], av, b1);
        }
      }
      int64_t rows = std::min(kRows, m - i0);
      int64_t cols = std::min(kCols, n - j0);
      for (int64_t r = 0; r < rows; ++r) {
        __m512i lo = _mm512_sub_epi32(acc[r][0], shift0);
        __m512i hi = _mm512_sub_epi32(acc[r][1], shift1);
        if (c.strides[1] == 1) {
          // Rows of C contiguous: add in place, masked at the last panel.
          int32_t *row = &at(c, i0 + r, j0);
          __mmask16 m0 = cols >= 16 ? 0xFFFF : (1u << cols) - 1;
          __mmask16 m1 = cols >= 32  ? 0xFFFF
                         : cols > 16 ? (1u << (cols - 16)) - 1
                                     : 0;
          _mm512_mask_storeu_epi32(
              row, m0, _mm512_add_epi32(_mm512_maskz_loadu_epi32(m0, row), lo));
          _mm512_mask_storeu_epi32(
              row + 16, m1,
              _mm512_add_epi32(_mm512_maskz_loadu_epi32(m1, row + 16), hi));
          continue;
        }
        _mm512_storeu_si512(tile[r], lo);
        _mm512_storeu_si512(tile[r] + 16, hi);
        for (int64_t j = 0; j < cols; ++j)
          at(c, i0 + r, j0 + j) += tile[r][j];
      }
    }
  }
}
#endif

} // namespace

extern "C" void _mlir_ciface_rlx_cpu_gemm_s8(MemRef2D<int8_t> *a,
                                             MemRef2D<int8_t> *b,
                                             MemRef2D<int32_t> *c) {
  int64_t m = c->sizes[0], n = c->sizes[1], k = a->sizes[1];
  if (m == 0 || n == 0 || k == 0)
    return;
#if defined(__x86_64__)
  // The u8 shift's correction, 128 * (sum of k values of B), and the
  // products' sums stay within i32 below k = 2^16.
  if (k < (int64_t(1) << 16) && __builtin_cpu_supports("avx512vnni")) {
    vnniGemm(*a, *b, *c);
    return;
  }
#endif
  plainGemm(*a, *b, *c);
}
