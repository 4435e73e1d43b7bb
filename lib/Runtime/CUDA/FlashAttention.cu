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
// without writing the scores anywhere (online softmax, FlashAttention's
// schedule). It is written by hand because upstream MLIR has no lowering
// that keeps the score tile in registers between two tensor-core products;
// rlx-gpu-dispatch-attention sends attention here, and what it does not
// take is decomposed or generated.
//
// Schedule (sm_90a): a block of kFlashThreads threads is two warpgroups,
// each owning 64 of the block's kFlashBlockRows query rows. Key and value
// tiles of kFlashBlockKeys rows stream through shared memory with cp.async,
// two stages deep: tile j + 1 loads while tile j is computed. Both products
// are wgmma with f32 accumulators: scores from the shared query and key
// tiles, then the probabilities, packed from the score accumulators
// straight into a register operand, times the shared value tile (read
// MN-major, so the values need no transpose). Tiles are stored with the
// 128-byte swizzle the products read.
//
//===----------------------------------------------------------------------===//

#include "FlashAttentionKernel.h"
#include "WarpgroupMMA.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "FlashAttention.cu needs sm_90a: -gencode arch=compute_90a,code=sm_90a"
#endif

using namespace rlx::cuda;

namespace {

constexpr int kRowsPerWarpgroup = 64;
static_assert(kFlashBlockRows == 2 * kRowsPerWarpgroup &&
                  kFlashThreads == 2 * 128,
              "a block is two warpgroups of 64 rows");

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

__device__ __forceinline__ void waitCopies() {
  asm volatile("cp.async.wait_group 0;\n" ::);
}

__device__ __forceinline__ float fastExp2(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
  return y;
}

/// The element type's products and pair packing.
template <typename T> struct Element;

template <> struct Element<__nv_bfloat16> : wgmma::BF16 {
  __device__ __forceinline__ static uint32_t pack(float lo, float hi) {
    __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<uint32_t *>(&v);
  }
};

template <> struct Element<__half> : wgmma::F16 {
  __device__ __forceinline__ static uint32_t pack(float lo, float hi) {
    __half2 v = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<uint32_t *>(&v);
  }
};

/// A tile of Rows x HeadDim 2-byte elements as the products read it:
/// column blocks of 64 elements, each Rows lines of 128 bytes, with the
/// 128-byte swizzle (tile bases are 1024-byte aligned).
template <int Rows> struct SwizzledTile {
  static constexpr uint32_t kBlockBytes = Rows * 128;
  __device__ __forceinline__ static uint32_t offset(int row, int chunk) {
    return uint32_t((chunk / 8) * kBlockBytes + row * 128 +
                    (((chunk % 8) ^ (row & 7)) * 16));
  }
};

/// Starts copying rows [row0, row0 + Rows) of a [rows, HeadDim] matrix at
/// `src`, rows `rowStride` elements apart, into the tile at shared address
/// `dst`; rows at or past `rowEnd` are zero.
template <int Rows, int HeadDim, typename T>
__device__ __forceinline__ void loadTile(uint32_t dst, const T *src, int row0,
                                         int rowEnd, int64_t rowStride) {
  constexpr int kChunks = HeadDim / 8;
  constexpr int kPerThread = Rows * kChunks / kFlashThreads;
  static_assert(kPerThread * kFlashThreads == Rows * kChunks &&
                    kFlashThreads % kChunks == 0,
                "tile chunks must spread evenly over the threads");
  // A thread copies the same chunk of every kRowStep-th row: one 64-bit
  // multiply per tile, then a step per row.
  constexpr int kRowStep = kFlashThreads / kChunks;
  const int firstRow = threadIdx.x / kChunks, chunk = threadIdx.x % kChunks;
  const T *from = src + (row0 + firstRow) * rowStride + chunk * 8;
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
    int row = firstRow + i * kRowStep;
    bool valid = row0 + row < rowEnd;
    copyAsync16(dst + SwizzledTile<Rows>::offset(row, chunk),
                valid ? from : src, valid);
    from += kRowStep * rowStride;
  }
}

/// Attention for query rows [mBlock * kFlashBlockRows, +kFlashBlockRows)
/// of the block's head, under mask kind Mask.
template <typename T, int HeadDim, FlashAttentionMask Mask>
__device__ void flashAttentionRows(const FlashAttentionParams &p, int mBlock,
                                   unsigned char *shared) {
  using E = Element<T>;
  using QueryTile = SwizzledTile<kFlashBlockRows>;
  using KeyTile = SwizzledTile<kFlashBlockKeys>;
  constexpr int kKeyTiles = kFlashBlockKeys / 8; // 8-column score tiles
  constexpr int kDimTiles = HeadDim / 8;         // 8-column output tiles
  constexpr uint32_t kStageBytes = kFlashBlockKeys * HeadDim * 2;

  const uint32_t sQ = sharedAddress(shared);
  const uint32_t sK = sQ + kFlashBlockRows * HeadDim * 2;
  const uint32_t sV = sK + 2 * kStageBytes;

  const int warpgroup = threadIdx.x / 128;
  const int warp = threadIdx.x / 32 % 4, lane = threadIdx.x % 32;
  const int head = blockIdx.y, batch = blockIdx.z;
  const int kvHead = head / (p.heads / p.kvHeads);
  const int row0 = mBlock * kFlashBlockRows;
  const T *q = static_cast<const T *>(p.q) + batch * p.qStrides.batch +
               head * p.qStrides.head;
  const T *k = static_cast<const T *>(p.k) + batch * p.kStrides.batch +
               kvHead * p.kStrides.head;
  const T *v = static_cast<const T *>(p.v) + batch * p.vStrides.batch +
               kvHead * p.vStrides.head;
  T *o = static_cast<T *>(p.o) + batch * p.oStrides.batch +
         head * p.oStrides.head;

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

  // The warpgroup's rows, and this thread's: h = 0 is accumulator elements
  // 4j and 4j+1, h = 1 elements 4j+2 and 4j+3, eight rows further.
  const int groupFirstRow = row0 + warpgroup * kRowsPerWarpgroup;
  const int groupLastRow = groupFirstRow + kRowsPerWarpgroup - 1;
  const int threadRow = groupFirstRow + warp * 16 + lane / 4;

  float out[HeadDim / 2];
#pragma unroll
  for (int i = 0; i < HeadDim / 2; ++i)
    out[i] = 0.f;
  float rowMax[2] = {-INFINITY, -INFINITY}, rowSum[2] = {0.f, 0.f};

  // The previous row block's threads are done with every tile.
  __syncthreads();
  if (tileBegin < tileEnd) {
    loadTile<kFlashBlockRows, HeadDim>(sQ, q, row0, p.seqQ, p.qStrides.row);
    loadTile<kFlashBlockKeys, HeadDim>(sK, k, tileBegin * kFlashBlockKeys,
                                       p.seqK, p.kStrides.row);
    loadTile<kFlashBlockKeys, HeadDim>(sV, v, tileBegin * kFlashBlockKeys,
                                       p.seqK, p.vStrides.row);
    commitCopies();
  }

  for (int tile = tileBegin; tile < tileEnd; ++tile) {
    const int key0 = tile * kFlashBlockKeys;
    const uint32_t stage = ((tile - tileBegin) & 1) * kStageBytes;
    // This tile is in; every thread is done with the other stage.
    waitCopies();
    wgmma::fenceSharedWrites();
    __syncthreads();
    if (tile + 1 < tileEnd) {
      loadTile<kFlashBlockKeys, HeadDim>(sK + (kStageBytes - stage), k,
                                         key0 + kFlashBlockKeys, p.seqK,
                                         p.kStrides.row);
      loadTile<kFlashBlockKeys, HeadDim>(sV + (kStageBytes - stage), v,
                                         key0 + kFlashBlockKeys, p.seqK,
                                         p.vStrides.row);
      commitCopies();
    }
    // A warpgroup none of whose rows sees a key of the tile only loads.
    if ((Mask != kFlashMaskNone && key0 > groupLastRow + offset) ||
        (Mask == kFlashMaskSlidingWindow &&
         key0 + kFlashBlockKeys - 1 <= groupFirstRow + offset - p.window))
      continue;

    // Scores: the warpgroup's 64 query rows times the key tile, 16 columns
    // of the head dim per product (32 bytes along a 128-byte line).
    float s[kFlashBlockKeys / 2];
#pragma unroll
    for (int i = 0; i < kFlashBlockKeys / 2; ++i)
      s[i] = 0.f;
    wgmma::fence();
#pragma unroll
    for (int step = 0; step < HeadDim / 16; ++step) {
      const uint32_t byte = (step % 4) * 32;
      E::mma(s,
             wgmma::descriptor(sQ + (step / 4) * QueryTile::kBlockBytes +
                                   warpgroup * kRowsPerWarpgroup * 128 + byte,
                               16, 1024),
             wgmma::descriptor(sK + stage +
                                   (step / 4) * KeyTile::kBlockBytes + byte,
                               16, 1024));
    }
    wgmma::commit();
    wgmma::wait<0>();

    // Mask what a row must not see: keys past the end, after the
    // diagonal, or before the window. Only tiles that cross one of these
    // edges look at single elements.
    if (key0 + kFlashBlockKeys > p.seqK ||
        (Mask != kFlashMaskNone &&
         key0 + kFlashBlockKeys - 1 > groupFirstRow + offset) ||
        (Mask == kFlashMaskSlidingWindow &&
         key0 <= groupLastRow + offset - p.window)) {
#pragma unroll
      for (int t = 0; t < kKeyTiles; ++t)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          int key = key0 + t * 8 + (lane % 4) * 2 + (e & 1);
          int row = threadRow + (e / 2) * 8;
          bool visible = key < p.seqK;
          if (Mask != kFlashMaskNone)
            visible = visible && key <= row + offset;
          if (Mask == kFlashMaskSlidingWindow)
            visible = visible && key > row + offset - p.window;
          if (!visible)
            s[t * 4 + e] = -INFINITY;
        }
    }

    // Online softmax: the running row maximum (of the unscaled scores;
    // scale > 0), the correction of what was accumulated, and this tile's
    // probabilities, packed as the register operand of the next product
    // (score tiles 2i and 2i+1 are keys [16i, 16i+16)). Each thread keeps
    // partial row sums; the four threads of a row add theirs at the end.
    uint32_t probs[kFlashBlockKeys / 16][4];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      float tileMax = rowMax[h];
#pragma unroll
      for (int t = 0; t < kKeyTiles; ++t)
        tileMax = fmaxf(tileMax, fmaxf(s[t * 4 + 2 * h], s[t * 4 + 2 * h + 1]));
      tileMax = fmaxf(tileMax, __shfl_xor_sync(0xffffffff, tileMax, 1));
      tileMax = fmaxf(tileMax, __shfl_xor_sync(0xffffffff, tileMax, 2));
      // A row that has seen no key yet subtracts 0 (its scores are -inf).
      const float base = tileMax == -INFINITY ? 0.f : tileMax * p.scaleLog2;
      const float alpha = fastExp2(rowMax[h] * p.scaleLog2 - base);
      rowMax[h] = tileMax;
      float sum = rowSum[h] * alpha;
#pragma unroll
      for (int t = 0; t < kDimTiles; ++t) {
        out[t * 4 + 2 * h] *= alpha;
        out[t * 4 + 2 * h + 1] *= alpha;
      }
#pragma unroll
      for (int t = 0; t < kKeyTiles; ++t) {
        float p0 = fastExp2(s[t * 4 + 2 * h] * p.scaleLog2 - base);
        float p1 = fastExp2(s[t * 4 + 2 * h + 1] * p.scaleLog2 - base);
        sum += p0 + p1;
        probs[t / 2][(t % 2) * 2 + h] = E::pack(p0, p1);
      }
      rowSum[h] = sum;
    }

    // Output += probabilities times the value tile, 16 keys per product;
    // the values are read MN-major: 64-element column blocks kBlockBytes
    // apart, 8-key groups 1024 bytes apart.
    wgmma::fence();
#pragma unroll
    for (int kk = 0; kk < kFlashBlockKeys / 16; ++kk)
      E::mma(out, probs[kk],
             wgmma::descriptor(sV + stage + kk * 16 * 128,
                               KeyTile::kBlockBytes, 1024));
    wgmma::commit();
    wgmma::wait<0>();
  }

  // Through the query tile (every warpgroup is done reading it) to
  // 16-byte coalesced stores.
  __syncthreads();
  unsigned char *sO = shared;
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    float sum = rowSum[h];
    sum += __shfl_xor_sync(0xffffffff, sum, 1);
    sum += __shfl_xor_sync(0xffffffff, sum, 2);
    const float inv = sum > 0.f ? 1.f / sum : 0.f;
    const int local = threadRow - row0 + h * 8;
#pragma unroll
    for (int t = 0; t < kDimTiles; ++t)
      *reinterpret_cast<uint32_t *>(sO + QueryTile::offset(local, t) +
                                    (lane % 4) * 4) =
          E::pack(out[t * 4 + 2 * h] * inv, out[t * 4 + 2 * h + 1] * inv);
  }
  __syncthreads();
  constexpr int kChunks = HeadDim / 8;
#pragma unroll
  for (int i = 0; i < kFlashBlockRows * kChunks / kFlashThreads; ++i) {
    int c = threadIdx.x + i * kFlashThreads;
    int local = c / kChunks, chunk = c % kChunks;
    if (row0 + local < p.seqQ)
      *reinterpret_cast<uint4 *>(o + (row0 + local) * p.oStrides.row +
                                 chunk * 8) =
          *reinterpret_cast<const uint4 *>(sO +
                                           QueryTile::offset(local, chunk));
  }
}

/// Block x takes row blocks nM - 1 - x and x: under a causal mask their
/// key counts add up to the same for every block, so no block is left
/// running alone at the end; the heavier one goes first.
template <typename T, int HeadDim, FlashAttentionMask Mask>
__device__ void flashAttention(const FlashAttentionParams &p) {
  extern __shared__ __align__(1024) unsigned char shared[];
  const int rowBlocks = (p.seqQ + kFlashBlockRows - 1) / kFlashBlockRows;
  const int heavy = rowBlocks - 1 - blockIdx.x, light = blockIdx.x;
  for (int mBlock = heavy; mBlock >= light; mBlock -= heavy - light) {
    flashAttentionRows<T, HeadDim, Mask>(p, mBlock, shared);
    if (heavy == light)
      break;
  }
}

} // namespace

/// Blocks per SM the kernels are built for. At head dim 64 two fit (128
/// registers a thread, a few bytes spilled; 2 x 80 KiB of shared memory),
/// so one block's loads overlap the other's products: BERT's attention
/// (b32 h12 s128) 13.1 -> 12.1 us, causal b8 h16 s2048 260 -> 195 us on an
/// H100. At 128 the accumulators alone take 128 registers: no minimum (0).
constexpr int flashMinBlocksPerSM(int headDim) {
  return headDim == 64 ? 2 : 0;
}

// One kernel per mask kind, so that each kind's loop tests only its own
// edges (one kernel holding all three needed more registers).
#define RLX_FLASH_KERNEL(NAME, T, D, MASK)                                    \
  extern "C" __global__ void                                                  \
  __launch_bounds__(kFlashThreads, flashMinBlocksPerSM(D))                    \
      NAME(const FlashAttentionParams p) {                                    \
    flashAttention<T, D, MASK>(p);                                            \
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
