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
// - B is packed in panels of kCols = 64 columns, [k/4][64][4] bytes each
//   (zero padded), so that one 64-byte load holds 4 consecutive k of 16
//   columns; a constant B (rlx_cpu_gemm_s8_constant_b) is packed at its
//   first call only;
// - A is packed per block of kBlockK k and kBlockM rows, as u8, in groups
//   of kRows = 6 rows [k/4][6][4], so that a tile's broadcasts read
//   consecutive words;
// - register tiles of 6 rows by 64 columns: 24 accumulators, enough
//   independent vpdpbusd chains to cover its latency at two per cycle,
//   with 4 loads of B and 6 broadcasts of A per 24 vpdpbusd (the 4 x 32
//   tiles before had 8 chains, and GCC kept them in memory). The B panel
//   of one k block (kBlockK x 64 bytes) stays in L1/L2 while every row
//   tile of the A block (kBlockM x kBlockK bytes, in L2) passes over it.
// Without VNNI (checked at run time) a plain loop computes the same sums.
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/CPU/CPUBlas.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

using mlir::rlx::runtime::MemRef1D;
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
/// Whether the VNNI kernel computes this product: the u8 shift's
/// correction, 128 * (sum of k values of B), and the products' sums stay
/// within i32 below k = 2^16.
bool useVnni(int64_t k) {
  return k < (int64_t(1) << 16) && __builtin_cpu_supports("avx512vnni");
}

constexpr int64_t kRows = 6, kCols = 64, kVecs = kCols / 16;
// Timed on the 2-core AMD EPYC (Zen 5) this was written on, from 256 to
// 1024 each: k blocks of 768 (one for BERT's k = 768; fewer passes over C,
// which does not fit in cache at 1024 x 3072) and 384 rows were fastest.
constexpr int64_t kBlockK = 768, kBlockM = 384;

/// B as the kernel reads it, and the view it was packed from.
struct PackedB {
  const int8_t *data;
  int64_t offset, sizes[2], strides[2];
  int64_t k4, nPad;
  /// Panels of kCols columns, each [k4][kCols][4] and contiguous (a stride
  /// of nPad * 4 bytes between steps of k, a multiple of 4 KiB for n =
  /// 3072, would map a panel onto one L1 set).
  std::vector<int8_t> panels;
  /// 128 * (column sum of B), zero in the padding.
  std::vector<int32_t> shift;

  bool packedFrom(const MemRef2D<int8_t> &b) const {
    return data == b.aligned && offset == b.offset &&
           sizes[0] == b.sizes[0] && sizes[1] == b.sizes[1] &&
           strides[0] == b.strides[0] && strides[1] == b.strides[1];
  }
};

/// The packed constant Bs of every program, owned by the process: the
/// programs' slots only point at them.
struct PackedConstants {
  std::mutex mutex;
  std::vector<std::unique_ptr<PackedB>> copies;
};
PackedConstants &packedConstants() {
  static PackedConstants owned;
  return owned;
}

/// Packs `b` into `p`, reusing its buffers' memory.
__attribute__((target("avx512f,avx512bw,avx512vnni"))) void
packB(const MemRef2D<int8_t> &b, PackedB *p) {
  int64_t k = b.sizes[0], n = b.sizes[1];
  p->data = b.aligned;
  p->offset = b.offset;
  std::copy(b.sizes, b.sizes + 2, p->sizes);
  std::copy(b.strides, b.strides + 2, p->strides);
  p->k4 = (k + 3) / 4;
  p->nPad = (n + kCols - 1) / kCols * kCols;
  p->panels.assign(p->k4 * p->nPad * 4, 0);
  p->shift.resize(p->nPad);
  // In the panels' order: sequential writes, reads from 4 rows of B.
  int8_t *out = p->panels.data();
  for (int64_t j0 = 0; j0 < n; j0 += kCols) {
    int64_t cols = std::min(kCols, n - j0);
    for (int64_t q0 = 0; q0 < k; q0 += 4, out += kCols * 4) {
      int64_t j = 0;
      if (b.strides[1] == 1 && q0 + 4 <= k) {
        // Rows contiguous: 16 columns of 4 rows at a time, interleaved
        // bytewise (row pairs), then by pairs, into 4 words per column.
        for (; j + 16 <= cols; j += 16) {
          __m128i r[4];
          for (int64_t t = 0; t < 4; ++t)
            r[t] = _mm_loadu_si128(
                reinterpret_cast<const __m128i *>(&at(b, q0 + t, j0 + j)));
          __m128i lo01 = _mm_unpacklo_epi8(r[0], r[1]);
          __m128i hi01 = _mm_unpackhi_epi8(r[0], r[1]);
          __m128i lo23 = _mm_unpacklo_epi8(r[2], r[3]);
          __m128i hi23 = _mm_unpackhi_epi8(r[2], r[3]);
          auto *dst = reinterpret_cast<__m128i *>(out + j * 4);
          _mm_storeu_si128(dst, _mm_unpacklo_epi16(lo01, lo23));
          _mm_storeu_si128(dst + 1, _mm_unpackhi_epi16(lo01, lo23));
          _mm_storeu_si128(dst + 2, _mm_unpacklo_epi16(hi01, hi23));
          _mm_storeu_si128(dst + 3, _mm_unpackhi_epi16(hi01, hi23));
        }
      }
      for (; j < cols; ++j)
        for (int64_t q = q0; q < std::min(q0 + 4, k); ++q)
          out[j * 4 + q - q0] = at(b, q, j0 + j);
    }
  }
  // 128 * (column sums) from the panels: vpdpbusd of 128 (as u8) with 4 k
  // of 16 columns sums 128 * b over them in each column's lane.
  __m512i u8of128 = _mm512_set1_epi8(char(0x80));
  for (int64_t j0 = 0; j0 < p->nPad; j0 += kCols) {
    const int8_t *panel = p->panels.data() + j0 * p->k4 * 4;
    __m512i acc[kVecs];
    for (int64_t v = 0; v < kVecs; ++v)
      acc[v] = _mm512_setzero_si512();
    for (int64_t q = 0; q < p->k4; ++q)
      for (int64_t v = 0; v < kVecs; ++v)
        acc[v] = _mm512_dpbusd_epi32(
            acc[v], u8of128,
            _mm512_loadu_si512(panel + (q * kCols + v * 16) * 4));
    for (int64_t v = 0; v < kVecs; ++v)
      _mm512_storeu_si512(p->shift.data() + j0 + v * 16, acc[v]);
  }
}

/// Scratch memory of the calling thread, kept between calls: fresh
/// buffers of this size come from mmap, and faulting their pages in cost
/// as much as packing B into them.
struct Scratch {
  PackedB b;
  std::vector<uint8_t> a;
};
Scratch &scratch() {
  thread_local Scratch s;
  return s;
}

/// Rows [i0, i0 + rows) and k [q0, q0 + kc) of A + 128 as u8, in groups of
/// kRows rows, each [kc4][kRows][4] (zero padded: B's padding is 0, and
/// padded rows are never stored).
void packA(const MemRef2D<int8_t> &a, int64_t i0, int64_t rows, int64_t q0,
           int64_t kc, uint8_t *out) {
  int64_t kc4 = (kc + 3) / 4;
  int64_t groups = (rows + kRows - 1) / kRows;
  std::memset(out, 0, groups * kc4 * kRows * 4);
  for (int64_t r = 0; r < rows; ++r) {
    uint8_t *group = out + (r / kRows) * kc4 * kRows * 4 + (r % kRows) * 4;
    int64_t q = 0;
    if (a.strides[1] == 1) {
      // Rows contiguous: a word (4 k) at a time, all 4 bytes shifted.
      const int8_t *row = &at(a, i0 + r, q0);
      for (; q + 4 <= kc; q += 4) {
        uint32_t word;
        std::memcpy(&word, row + q, 4);
        word ^= 0x80808080u;
        std::memcpy(group + q * kRows, &word, 4);
      }
    }
    for (; q < kc; ++q)
      group[(q / 4) * kRows * 4 + q % 4] = uint8_t(at(a, i0 + r, q0 + q)) ^ 0x80;
  }
}

/// C[i0 .. i0 + rows, j0 .. j0 + cols] += (the tile of A's group `a` times
/// the panel `b` over kc4 steps of 4 k) - shift (when not null).
__attribute__((target("avx512f,avx512bw,avx512vnni"))) void
tile(const uint8_t *a, const int8_t *b, int64_t kc4, const int32_t *shift,
     const MemRef2D<int32_t> &c, int64_t i0, int64_t rows, int64_t j0,
     int64_t cols) {
  __m512i acc[kRows][kVecs];
#pragma GCC unroll 6
  for (int64_t r = 0; r < kRows; ++r)
#pragma GCC unroll 4
    for (int64_t v = 0; v < kVecs; ++v)
      acc[r][v] = _mm512_setzero_si512();
  for (int64_t q = 0; q < kc4; ++q) {
    __m512i bv[kVecs];
#pragma GCC unroll 4
    for (int64_t v = 0; v < kVecs; ++v)
      bv[v] = _mm512_loadu_si512(b + (q * kCols + v * 16) * 4);
#pragma GCC unroll 6
    for (int64_t r = 0; r < kRows; ++r) {
      int32_t word;
      std::memcpy(&word, a + (q * kRows + r) * 4, 4);
      __m512i av = _mm512_set1_epi32(word);
#pragma GCC unroll 4
      for (int64_t v = 0; v < kVecs; ++v)
        acc[r][v] = _mm512_dpbusd_epi32(acc[r][v], av, bv[v]);
    }
  }
  // Through memory: indexing the accumulators by the run-time row count
  // below would make GCC keep them in memory inside the k loop too.
  alignas(64) int32_t out[kRows][kCols];
#pragma GCC unroll 6
  for (int64_t r = 0; r < kRows; ++r)
#pragma GCC unroll 4
    for (int64_t v = 0; v < kVecs; ++v) {
      __m512i x = acc[r][v];
      if (shift)
        x = _mm512_sub_epi32(x, _mm512_loadu_si512(shift + v * 16));
      _mm512_store_si512(out[r] + v * 16, x);
    }
  if (c.strides[1] != 1) {
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0; j < cols; ++j)
        at(c, i0 + r, j0 + j) += out[r][j];
    return;
  }
  // Rows of C contiguous: add in place, masked at the last panel.
  for (int64_t r = 0; r < rows; ++r) {
    int32_t *row = &at(c, i0 + r, j0);
    for (int64_t v = 0; v < kVecs; ++v) {
      __mmask16 mask =
          __mmask16((1u << std::clamp<int64_t>(cols - v * 16, 0, 16)) - 1);
      _mm512_mask_storeu_epi32(
          row + v * 16, mask,
          _mm512_add_epi32(_mm512_maskz_loadu_epi32(mask, row + v * 16),
                           _mm512_load_si512(out[r] + v * 16)));
    }
  }
}

void vnniGemm(const MemRef2D<int8_t> &a, const PackedB &b,
              const MemRef2D<int32_t> &c) {
  int64_t m = c.sizes[0], n = c.sizes[1], k = a.sizes[1];
  std::vector<uint8_t> &packedA = scratch().a;
  packedA.resize((kBlockM + kRows - 1) / kRows * kRows * kBlockK);
  for (int64_t q0 = 0; q0 < k; q0 += kBlockK) {
    int64_t kc = std::min(kBlockK, k - q0), kc4 = (kc + 3) / 4;
    // The shift enters once per element of C, with the first k block.
    bool first = q0 == 0;
    for (int64_t i0 = 0; i0 < m; i0 += kBlockM) {
      int64_t mc = std::min(kBlockM, m - i0);
      packA(a, i0, mc, q0, kc, packedA.data());
      for (int64_t j0 = 0; j0 < n; j0 += kCols) {
        const int8_t *panel =
            b.panels.data() + ((j0 / kCols) * b.k4 + q0 / 4) * kCols * 4;
        const int32_t *shift = first ? b.shift.data() + j0 : nullptr;
        for (int64_t r0 = 0; r0 < mc; r0 += kRows)
          tile(packedA.data() + r0 * kc4 * 4, panel, kc4, shift, c, i0 + r0,
               std::min(kRows, mc - r0), j0, std::min(kCols, n - j0));
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
  if (useVnni(k)) {
    PackedB &packed = scratch().b;
    packB(*b, &packed);
    vnniGemm(*a, packed, *c);
    return;
  }
#endif
  plainGemm(*a, *b, *c);
}

extern "C" void
_mlir_ciface_rlx_cpu_gemm_s8_constant_b(MemRef2D<int8_t> *a,
                                        MemRef2D<int8_t> *b,
                                        MemRef2D<int32_t> *c,
                                        MemRef1D<int64_t> *slot) {
  int64_t m = c->sizes[0], n = c->sizes[1], k = a->sizes[1];
  if (m == 0 || n == 0 || k == 0)
    return;
#if defined(__x86_64__)
  if (useVnni(k)) {
    // B is a constant of the program (a global it never writes), so what
    // was packed from it at the first call holds at every later one. The
    // slot, a global of the same program, keeps the packed B for this call
    // site: it lives as long as the program's globals, and a program
    // loaded later has slots of its own (a cache keyed by B's address
    // could hand it the panels of an unloaded program's constant at the
    // same address). Nothing runs when a program is unloaded, so the
    // packed copies belong to the process (packedConstants) until it
    // exits; two threads at the first call may both pack, and the one
    // whose pointer does not land frees its copy.
    int64_t *word = slot->aligned + slot->offset;
    auto *packed = reinterpret_cast<PackedB *>(
        __atomic_load_n(word, __ATOMIC_ACQUIRE));
    if (!packed) {
      auto fresh = std::make_unique<PackedB>();
      packB(*b, fresh.get());
      int64_t expected = 0;
      if (__atomic_compare_exchange_n(
              word, &expected, reinterpret_cast<int64_t>(fresh.get()),
              /*weak=*/false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        packed = fresh.get();
        PackedConstants &owned = packedConstants();
        std::lock_guard<std::mutex> lock(owned.mutex);
        owned.copies.push_back(std::move(fresh));
      } else {
        packed = reinterpret_cast<PackedB *>(expected);
      }
    }
    // The slot keeps the view of the first call. rlx-cpu-dispatch-blas
    // gives a view that moves with its batch loops no slot, but a view
    // can still move between calls (a constant's subview at the index of
    // a loop of the program): such a view is packed at every call.
    if (!packed->packedFrom(*b)) {
      packed = &scratch().b;
      packB(*b, packed);
    }
    vnniGemm(*a, *packed, *c);
    return;
  }
#endif
  plainGemm(*a, *b, *c);
}
