//===- FlashAttention.cu - fused attention forward for bf16 / f16 ---------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The native attention kernel of the seeds' kernel-dispatch policy: one
// kernel computes softmax(q k^T * scale + mask) v for a tile of query rows
// without writing the scores anywhere (online softmax, FlashAttention-2's
// schedule). It is written by hand because upstream MLIR has no lowering
// that keeps the score tile in registers across two tensor-core products;
// rlx-gpu-dispatch-attention sends attention here, and what it does not
// take is decomposed or generated.
//
// Schedule: a block of kFlashThreads threads owns kFlashBlockRows query
// rows, kFlashWarpRows per warp (two mma row tiles, which halves the shared
// memory each warp reads per product). Key and value tiles of kFlashBlockKeys rows stream through shared memory
// with cp.async, the value tile loading while q k^T runs and the next key
// tile while p v runs. Products are mma.sync m16n8k16 with f32
// accumulation; the score accumulators are reused as the A operand of p v
// (their layouts agree), so probabilities never leave registers. Shared
// tiles are swizzled (16-byte chunk index xor row % 8) so that ldmatrix
// reads are free of bank conflicts.
//
//===----------------------------------------------------------------------===//

#include "FlashAttentionKernel.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

using namespace rlx::cuda;

namespace {

__device__ __forceinline__ uint32_t sharedAddress(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

/// Copies 16 bytes to shared memory, or writes 16 zero bytes if !valid.
__device__ __forceinline__ void copyAsync16(uint32_t dst, const void *src,
                                            bool valid) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst),
               "l"(src), "r"(valid ? 16 : 0));
}

__device__ __forceinline__ void commitCopies() {
  asm volatile("cp.async.commit_group;\n" ::);
}

template <int N> __device__ __forceinline__ void waitCopies() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

__device__ __forceinline__ void loadMatrixX4(uint32_t (&r)[4], uint32_t addr) {
  asm volatile(
      "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
      : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
      : "r"(addr));
}

__device__ __forceinline__ void loadMatrixX4Trans(uint32_t (&r)[4],
                                                  uint32_t addr) {
  asm volatile(
      "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
      : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
      : "r"(addr));
}

/// The element type's tensor-core product and pair packing.
template <typename T> struct Element;

template <> struct Element<__nv_bfloat16> {
  __device__ __forceinline__ static void mma(float (&d)[4],
                                             const uint32_t (&a)[4],
                                             uint32_t b0, uint32_t b1) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0),
                   "r"(b1));
  }
  __device__ __forceinline__ static uint32_t pack(float lo, float hi) {
    __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<uint32_t *>(&v);
  }
};

template <> struct Element<__half> {
  __device__ __forceinline__ static void mma(float (&d)[4],
                                             const uint32_t (&a)[4],
                                             uint32_t b0, uint32_t b1) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0),
                   "r"(b1));
  }
  __device__ __forceinline__ static uint32_t pack(float lo, float hi) {
    __half2 v = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<uint32_t *>(&v);
  }
};

__device__ __forceinline__ float fastExp2(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
  return y;
}

/// A tile of `Rows` rows of HeadDim 2-byte elements in shared memory; the
/// 16-byte chunk c of row r is stored at chunk c ^ (r % 8).
template <int HeadDim> struct SwizzledTile {
  static constexpr int kChunks = HeadDim / 8;
  __device__ __forceinline__ static uint32_t offset(int row, int chunk) {
    return uint32_t(row * HeadDim * 2 + ((chunk ^ (row & 7)) * 16));
  }
};

/// Starts copying rows [row0, row0 + Rows) of a [rows, HeadDim] matrix at
/// `src` into the tile at shared address `dst`; rows at or past `rowEnd`
/// are zero.
template <int Rows, int HeadDim, typename T>
__device__ __forceinline__ void loadTile(uint32_t dst, const T *src, int row0,
                                         int rowEnd) {
  using Tile = SwizzledTile<HeadDim>;
  constexpr int kPerThread = Rows * Tile::kChunks / kFlashThreads;
  static_assert(kPerThread * kFlashThreads == Rows * Tile::kChunks,
                "tile chunks must spread evenly over the threads");
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
    int c = threadIdx.x + i * kFlashThreads;
    int row = c / Tile::kChunks, chunk = c % Tile::kChunks;
    bool valid = row0 + row < rowEnd;
    const T *from = src + (valid ? (size_t(row0 + row) * HeadDim + chunk * 8)
                                 : 0);
    copyAsync16(dst + Tile::offset(row, chunk), from, valid);
  }
}

/// Attention for query rows [mBlock * kFlashBlockRows, +kFlashBlockRows)
/// of the block's head, under mask kind Mask.
template <typename T, int HeadDim, FlashAttentionMask Mask>
__device__ void flashAttentionRows(const FlashAttentionParams &p,
                                   int mBlock) {
  using E = Element<T>;
  using Tile = SwizzledTile<HeadDim>;
  constexpr int kSteps = HeadDim / 16;           // k-steps of q k^T
  constexpr int kKeyTiles = kFlashBlockKeys / 8; // n-tiles of the scores
  constexpr int kDimTiles = HeadDim / 8;         // n-tiles of the output
  constexpr int kRowTiles = kFlashWarpRows / 16; // mma row tiles per warp
  // The query fragments stay in registers where they fit beside the
  // accumulators; else they are re-read from shared memory per key tile.
  constexpr bool kQueryInRegisters = kRowTiles * kSteps * 4 <= 32;

  extern __shared__ __align__(128) unsigned char shared[];
  const uint32_t sQ = sharedAddress(shared);
  const uint32_t sK = sQ + kFlashBlockRows * HeadDim * 2;
  const uint32_t sV = sK + kFlashBlockKeys * HeadDim * 2;

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int head = blockIdx.y, batch = blockIdx.z;
  const int kvHead = head / (p.heads / p.kvHeads);
  const int row0 = mBlock * kFlashBlockRows;
  const int warpRow0 = warp * kFlashWarpRows; // in the block
  const T *q = static_cast<const T *>(p.q) +
               (size_t(batch) * p.heads + head) * p.seqQ * HeadDim;
  const T *k = static_cast<const T *>(p.k) +
               (size_t(batch) * p.kvHeads + kvHead) * p.seqK * HeadDim;
  const T *v = static_cast<const T *>(p.v) +
               (size_t(batch) * p.kvHeads + kvHead) * p.seqK * HeadDim;
  T *o = static_cast<T *>(p.o) +
         (size_t(batch) * p.heads + head) * p.seqQ * HeadDim;

  // Keys [keyBegin, keyEnd) are visible to some row of the block.
  const int offset = p.seqK - p.seqQ;
  const int lastRow = min(row0 + kFlashBlockRows, p.seqQ) - 1;
  int keyEnd = p.seqK, keyBegin = 0;
  if (Mask != kFlashMaskNone)
    keyEnd = min(p.seqK, lastRow + offset + 1);
  if (Mask == kFlashMaskSlidingWindow)
    keyBegin = max(0, row0 + offset - p.window + 1);
  const int tileBegin = keyBegin / kFlashBlockKeys;
  const int tileEnd =
      keyEnd > 0 ? (keyEnd + kFlashBlockKeys - 1) / kFlashBlockKeys : 0;

  // This thread's rows: h = 0 is the accumulators' elements 0 and 1 (row
  // lane / 4 of the row tile), h = 1 elements 2 and 3 (8 rows further).
  auto rowOf = [&](int m, int h) {
    return row0 + warpRow0 + m * 16 + lane / 4 + h * 8;
  };
  const int warpFirstRow = row0 + warpRow0;
  const int warpLastRow = warpFirstRow + kFlashWarpRows - 1;

  float out[kRowTiles][kDimTiles][4];
  float rowMax[kRowTiles][2], rowSum[kRowTiles][2];
#pragma unroll
  for (int m = 0; m < kRowTiles; ++m) {
#pragma unroll
    for (int t = 0; t < kDimTiles; ++t)
      out[m][t][0] = out[m][t][1] = out[m][t][2] = out[m][t][3] = 0.f;
    rowMax[m][0] = rowMax[m][1] = -INFINITY;
    rowSum[m][0] = rowSum[m][1] = 0.f;
  }

  // The previous row block's warps are done with every tile.
  __syncthreads();
  if (tileBegin < tileEnd) {
    loadTile<kFlashBlockRows, HeadDim>(sQ, q, row0, p.seqQ);
    loadTile<kFlashBlockKeys, HeadDim>(sK, k, tileBegin * kFlashBlockKeys,
                                       p.seqK);
    commitCopies();
    waitCopies<0>();
    __syncthreads();
  }

  auto loadQuery = [&](uint32_t (&a)[4], int m, int step) {
    loadMatrixX4(a, sQ + Tile::offset(warpRow0 + m * 16 + lane % 16,
                                      step * 2 + lane / 16));
  };
  uint32_t qFrag[kQueryInRegisters ? kRowTiles : 1]
               [kQueryInRegisters ? kSteps : 1][4];
  if (kQueryInRegisters && tileBegin < tileEnd) {
#pragma unroll
    for (int m = 0; m < kRowTiles; ++m)
#pragma unroll
      for (int st = 0; st < kSteps; ++st)
        loadQuery(qFrag[kQueryInRegisters ? m : 0][kQueryInRegisters ? st : 0],
                  m, st);
  }

  for (int tile = tileBegin; tile < tileEnd; ++tile) {
    const int key0 = tile * kFlashBlockKeys;
    if (tile != tileBegin) {
      waitCopies<0>(); // this tile's keys
      __syncthreads();
    }
    // The value tile loads while the scores are computed.
    loadTile<kFlashBlockKeys, HeadDim>(sV, v, key0, p.seqK);
    commitCopies();

    // A warp none of whose rows sees a key of the tile only helps load.
    const bool warpSees =
        !(Mask != kFlashMaskNone && key0 > warpLastRow + offset) &&
        !(Mask == kFlashMaskSlidingWindow &&
          key0 + kFlashBlockKeys - 1 <= warpFirstRow + offset - p.window);
    uint32_t probs[kRowTiles][kKeyTiles / 2][4];
    if (warpSees) {
    float s[kRowTiles][kKeyTiles][4];
#pragma unroll
    for (int m = 0; m < kRowTiles; ++m)
#pragma unroll
      for (int t = 0; t < kKeyTiles; ++t)
        s[m][t][0] = s[m][t][1] = s[m][t][2] = s[m][t][3] = 0.f;
#pragma unroll
    for (int st = 0; st < kSteps; ++st) {
      uint32_t a[kRowTiles][4];
#pragma unroll
      for (int m = 0; m < kRowTiles; ++m) {
        if constexpr (kQueryInRegisters) {
#pragma unroll
          for (int i = 0; i < 4; ++i)
            a[m][i] = qFrag[m][st][i];
        } else {
          loadQuery(a[m], m, st);
        }
      }
#pragma unroll
      for (int pair = 0; pair < kKeyTiles / 2; ++pair) {
        uint32_t b[4];
        loadMatrixX4(b, sK + Tile::offset(pair * 16 + lane % 8 +
                                              (lane / 16) * 8,
                                          st * 2 + (lane / 8) % 2));
#pragma unroll
        for (int m = 0; m < kRowTiles; ++m) {
          E::mma(s[m][2 * pair], a[m], b[0], b[1]);
          E::mma(s[m][2 * pair + 1], a[m], b[2], b[3]);
        }
      }
    }

    // Mask what a row must not see: keys past the end, after the
    // diagonal, or before the window. Only tiles that cross one of these
    // edges look at single elements.
    const bool edge =
        key0 + kFlashBlockKeys > p.seqK ||
        (Mask != kFlashMaskNone &&
         key0 + kFlashBlockKeys - 1 > warpFirstRow + offset) ||
        (Mask == kFlashMaskSlidingWindow &&
         key0 <= warpLastRow + offset - p.window);
    if (edge) {
#pragma unroll
      for (int m = 0; m < kRowTiles; ++m)
#pragma unroll
        for (int t = 0; t < kKeyTiles; ++t)
#pragma unroll
          for (int e = 0; e < 4; ++e) {
            int key = key0 + t * 8 + (lane % 4) * 2 + (e & 1);
            int row = rowOf(m, e / 2);
            bool visible = key < p.seqK;
            if (Mask != kFlashMaskNone)
              visible = visible && key <= row + offset;
            if (Mask == kFlashMaskSlidingWindow)
              visible = visible && key > row + offset - p.window;
            if (!visible)
              s[m][t][e] = -INFINITY;
          }
    }

    // Online softmax: the running row maximum (of the unscaled scores;
    // scale > 0), the correction of what was accumulated, and this tile's
    // probabilities, packed as the A operand of p v (score n-tiles 2i and
    // 2i+1 are keys [16i, 16i+16)). Each thread keeps partial row sums;
    // the four threads of a row add theirs at the end.
#pragma unroll
    for (int m = 0; m < kRowTiles; ++m) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        float tileMax = rowMax[m][h];
#pragma unroll
        for (int t = 0; t < kKeyTiles; ++t)
          tileMax = fmaxf(tileMax, fmaxf(s[m][t][2 * h], s[m][t][2 * h + 1]));
        tileMax = fmaxf(tileMax, __shfl_xor_sync(0xffffffff, tileMax, 1));
        tileMax = fmaxf(tileMax, __shfl_xor_sync(0xffffffff, tileMax, 2));
        // A row that has seen no key yet subtracts 0 (its scores are -inf).
        const float base =
            tileMax == -INFINITY ? 0.f : tileMax * p.scaleLog2;
        const float alpha = fastExp2(rowMax[m][h] * p.scaleLog2 - base);
        rowMax[m][h] = tileMax;
        float sum = rowSum[m][h] * alpha;
#pragma unroll
        for (int t = 0; t < kDimTiles; ++t) {
          out[m][t][2 * h] *= alpha;
          out[m][t][2 * h + 1] *= alpha;
        }
#pragma unroll
        for (int t = 0; t < kKeyTiles; ++t) {
          float p0 = fastExp2(s[m][t][2 * h] * p.scaleLog2 - base);
          float p1 = fastExp2(s[m][t][2 * h + 1] * p.scaleLog2 - base);
          sum += p0 + p1;
          probs[m][t / 2][(t % 2) * 2 + h] = E::pack(p0, p1);
        }
        rowSum[m][h] = sum;
      }
    }
    }

    waitCopies<0>(); // this tile's values
    __syncthreads(); // every warp is done with the key tile
    if (tile + 1 < tileEnd) {
      loadTile<kFlashBlockKeys, HeadDim>(sK, k, key0 + kFlashBlockKeys,
                                         p.seqK);
      commitCopies();
    }

    if (!warpSees)
      continue;
#pragma unroll
    for (int kk = 0; kk < kKeyTiles / 2; ++kk) {
#pragma unroll
      for (int pair = 0; pair < kDimTiles / 2; ++pair) {
        uint32_t b[4];
        loadMatrixX4Trans(b, sV + Tile::offset(kk * 16 + lane % 16,
                                               pair * 2 + lane / 16));
#pragma unroll
        for (int m = 0; m < kRowTiles; ++m) {
          E::mma(out[m][2 * pair], probs[m][kk], b[0], b[1]);
          E::mma(out[m][2 * pair + 1], probs[m][kk], b[2], b[3]);
        }
      }
    }
  }

  // Through the warp's own rows of the query tile (no other warp reads
  // them) to 16-byte coalesced stores.
  __syncwarp();
  unsigned char *sO = shared;
#pragma unroll
  for (int m = 0; m < kRowTiles; ++m) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      float sum = rowSum[m][h];
      sum += __shfl_xor_sync(0xffffffff, sum, 1);
      sum += __shfl_xor_sync(0xffffffff, sum, 2);
      const float inv = sum > 0.f ? 1.f / sum : 0.f;
      const int local = warpRow0 + m * 16 + lane / 4 + h * 8;
#pragma unroll
      for (int t = 0; t < kDimTiles; ++t)
        *reinterpret_cast<uint32_t *>(sO + Tile::offset(local, t) +
                                      (lane % 4) * 4) =
            E::pack(out[m][t][2 * h] * inv, out[m][t][2 * h + 1] * inv);
    }
  }
  __syncwarp();
#pragma unroll
  for (int i = 0; i < kFlashWarpRows * Tile::kChunks / 32; ++i) {
    int c = lane + i * 32;
    int local = warpRow0 + c / Tile::kChunks, chunk = c % Tile::kChunks;
    if (row0 + local < p.seqQ)
      *reinterpret_cast<uint4 *>(o + size_t(row0 + local) * HeadDim +
                                 chunk * 8) =
          *reinterpret_cast<const uint4 *>(sO + Tile::offset(local, chunk));
  }
}

/// Block x takes row blocks nM - 1 - x and x: under a causal mask their
/// key counts add up to the same for every block, so no block is left
/// running alone at the end; the heavier one goes first.
template <typename T, int HeadDim, FlashAttentionMask Mask>
__device__ void flashAttentionMasked(const FlashAttentionParams &p) {
  const int rowBlocks = (p.seqQ + kFlashBlockRows - 1) / kFlashBlockRows;
  const int heavy = rowBlocks - 1 - blockIdx.x, light = blockIdx.x;
  for (int mBlock = heavy; mBlock >= light; mBlock -= heavy - light) {
    flashAttentionRows<T, HeadDim, Mask>(p, mBlock);
    if (heavy == light)
      break;
  }
}

} // namespace

// One kernel per mask kind, so that each kind's loop tests only its own
// edges (one kernel holding all three spilled registers).
#define RLX_FLASH_KERNEL(NAME, T, D, MASK)                                    \
  extern "C" __global__ void __launch_bounds__(kFlashThreads)                 \
      NAME(const FlashAttentionParams p) {                                    \
    flashAttentionMasked<T, D, MASK>(p);                                      \
  }
#define RLX_FLASH_KERNELS(TYPE, T, D)                                         \
  RLX_FLASH_KERNEL(rlx_flash_attention_##TYPE##_d##D##_none, T, D,            \
                   kFlashMaskNone)                                            \
  RLX_FLASH_KERNEL(rlx_flash_attention_##TYPE##_d##D##_causal, T, D,          \
                   kFlashMaskCausal)                                          \
  RLX_FLASH_KERNEL(rlx_flash_attention_##TYPE##_d##D##_window, T, D,          \
                   kFlashMaskSlidingWindow)

RLX_FLASH_KERNELS(bf16, __nv_bfloat16, 64)
RLX_FLASH_KERNELS(bf16, __nv_bfloat16, 128)
RLX_FLASH_KERNELS(f16, __half, 64)
RLX_FLASH_KERNELS(f16, __half, 128)
