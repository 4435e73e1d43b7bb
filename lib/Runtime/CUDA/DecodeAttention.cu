//===- DecodeAttention.cu - attention over a KV cache, split over it ------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx.decode_attention on CUDA ("flash decoding"): a decode step has one
// query row per head, too few to fill the GPU by rows, so the cache's
// positions are split over thread blocks instead, each keeping a running
// softmax (maximum, sum, unnormalised output) per query row; a second
// kernel merges the splits. The query heads of one key/value head share a
// block (grouped-query attention reads each cached row once for the whole
// group, without repeating k/v). Within a block the four warps take 32
// positions at a time each and merge through shared memory at the end. Scores and the softmax are f32 (exp2
// of log2-scaled scores); `length` is read from device memory, so one
// launch serves every step of a replayed graph. Layouts and the launch
// shape: DecodeAttentionKernel.h.
//
//===----------------------------------------------------------------------===//

#include "DecodeAttentionKernel.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

using rlx::cuda::DecodeAttentionParams;
using rlx::cuda::kDecodeRows;
using rlx::cuda::kDecodeThreads;

namespace {

constexpr int kWarps = kDecodeThreads / 32;

__device__ inline float toFloat(float x) { return x; }
__device__ inline float toFloat(__half x) { return __half2float(x); }
__device__ inline float toFloat(__nv_bfloat16 x) { return __bfloat162float(x); }

template <typename T> __device__ inline T fromFloat(float x);
template <> __device__ inline float fromFloat<float>(float x) { return x; }
template <> __device__ inline __half fromFloat<__half>(float x) {
  return __float2half_rn(x);
}
template <> __device__ inline __nv_bfloat16 fromFloat<__nv_bfloat16>(float x) {
  return __float2bfloat16_rn(x);
}

/// The sum of `x` over the warp, in every lane.
__device__ inline float warpSum(float x) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2)
    x += __shfl_xor_sync(0xffffffffu, x, offset);
  return x;
}

/// The positions [begin, end) of the cache that `length` makes valid.
__device__ inline int validEnd(const DecodeAttentionParams &p) {
  int64_t length = *p.length;
  return int(length < 0 ? 0 : length > p.maxSeq ? p.maxSeq : length);
}

/// Row i of the block's tile: its key/value head group's query row
/// (head within the group, new token) as a row of q and o.
__device__ inline int64_t globalRow(const DecodeAttentionParams &p, int b,
                                    int kvHead, int groupRow) {
  int group = p.heads / p.kvHeads;
  int head = kvHead * group + groupRow / p.seqQ;
  return (int64_t(b) * p.heads + head) * p.seqQ + groupRow % p.seqQ;
}

/// The largest of `x` over the warp, in every lane.
__device__ inline float warpMax(float x) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2)
    x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, offset));
  return x;
}

/// Elements of T in 16 bytes, and 16 bytes of them widened to f32.
template <typename T> constexpr int kVector = 16 / sizeof(T);
template <typename T>
__device__ inline void widen(uint4 raw, float (&out)[kVector<T>]);
template <> __device__ inline void widen<float>(uint4 raw, float (&out)[4]) {
  out[0] = __uint_as_float(raw.x);
  out[1] = __uint_as_float(raw.y);
  out[2] = __uint_as_float(raw.z);
  out[3] = __uint_as_float(raw.w);
}
template <> __device__ inline void widen<__half>(uint4 raw, float (&out)[8]) {
  const __half2 *h = reinterpret_cast<const __half2 *>(&raw);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    float2 f = __half22float2(h[i]);
    out[2 * i] = f.x;
    out[2 * i + 1] = f.y;
  }
}
template <>
__device__ inline void widen<__nv_bfloat16>(uint4 raw, float (&out)[8]) {
  const __nv_bfloat162 *h = reinterpret_cast<const __nv_bfloat162 *>(&raw);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    float2 f = __bfloat1622float2(h[i]);
    out[2 * i] = f.x;
    out[2 * i + 1] = f.y;
  }
}

// Each warp takes 32 positions at a time, a position per lane: the lane
// reads its cached key row whole (16-byte loads where rows allow) and
// takes its scores with every query row of the tile (q in shared memory),
// the warp updates each row's running softmax, then reads the 32 value
// rows one at a time, lanes over the value dim, each weighted by its
// lane's probability (a shuffle).
template <typename T, int Lanes>
__device__ void decodeSplit(const DecodeAttentionParams &p) {
  constexpr int Width = 32 * Lanes;
  constexpr int V = kVector<T>;
  __shared__ float query[kDecodeRows][Width];
  __shared__ float merge[kWarps][kDecodeRows][2 + Width];
  const int split = blockIdx.x;
  const int b = blockIdx.y / p.kvHeads, kvHead = blockIdx.y % p.kvHeads;
  const int groupRows = (p.heads / p.kvHeads) * p.seqQ;
  const int row0 = blockIdx.z * kDecodeRows;
  const int rows = min(kDecodeRows, groupRows - row0);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int64_t length = *p.length;
  const int end = validEnd(p);
  const int chunk = (end + p.splits - 1) / p.splits;
  const int lo = split * chunk, hi = min(end, lo + chunk);

  const T *q = static_cast<const T *>(p.q);
  for (int e = threadIdx.x; e < kDecodeRows * Width; e += kDecodeThreads) {
    int i = e / Width, d = e % Width;
    query[i][d] = i < rows && d < p.headDim
                      ? toFloat(q[globalRow(p, b, kvHead, row0 + i) *
                                      p.headDim +
                                  d]) *
                            p.scaleLog2
                      : 0.0f;
  }
  __syncthreads();

  float acc[kDecodeRows][Lanes], maxScore[kDecodeRows], sum[kDecodeRows];
  int64_t position[kDecodeRows];
#pragma unroll
  for (int i = 0; i < kDecodeRows; ++i) {
    maxScore[i] = -INFINITY;
    sum[i] = 0.0f;
    position[i] = length - p.seqQ + (row0 + (i < rows ? i : 0)) % p.seqQ;
#pragma unroll
    for (int t = 0; t < Lanes; ++t)
      acc[i][t] = 0.0f;
  }

  const T *kCache = static_cast<const T *>(p.k);
  const T *vCache = static_cast<const T *>(p.v);
  const bool vectorK = p.vectorK;
  for (int base = lo + 32 * warp; base < hi; base += 32 * kWarps) {
    const int j = base + lane;
    float score[kDecodeRows];
#pragma unroll
    for (int i = 0; i < kDecodeRows; ++i)
      score[i] = 0.0f;
    if (j < hi) {
      const T *kRow =
          kCache + ((int64_t(b) * p.maxSeq + j) * p.kvHeads + kvHead) *
                       p.headDim;
      for (int d0 = 0; d0 < p.headDim; d0 += V) {
        float kv[V];
        if (vectorK) {
          widen<T>(*reinterpret_cast<const uint4 *>(kRow + d0), kv);
        } else {
#pragma unroll
          for (int e = 0; e < V; ++e)
            kv[e] = d0 + e < p.headDim ? toFloat(kRow[d0 + e]) : 0.0f;
        }
#pragma unroll
        for (int i = 0; i < kDecodeRows; ++i) {
          if (i >= rows)
            break;
#pragma unroll
          for (int e = 0; e < V; ++e)
            score[i] += query[i][d0 + e] * kv[e];
        }
      }
    }
    // Each row's running softmax over the warp's 32 positions.
    float weight[kDecodeRows];
#pragma unroll
    for (int i = 0; i < kDecodeRows; ++i) {
      weight[i] = 0.0f;
      if (i >= rows)
        break;
      bool visible = j < hi && j <= position[i] &&
                     (p.window <= 0 || j > position[i] - p.window);
      float s = visible ? score[i] : -INFINITY;
      float next = fmaxf(maxScore[i], warpMax(s));
      if (next == -INFINITY)
        continue;
      float rescale = exp2f(maxScore[i] - next);
      weight[i] = exp2f(s - next);
      sum[i] = sum[i] * rescale + warpSum(weight[i]);
#pragma unroll
      for (int t = 0; t < Lanes; ++t)
        acc[i][t] *= rescale;
      maxScore[i] = next;
    }
    const int count = min(32, hi - base);
#pragma unroll 4
    for (int jj = 0; jj < count; ++jj) {
      const T *vRow =
          vCache + ((int64_t(b) * p.maxSeq + base + jj) * p.kvHeads + kvHead) *
                       p.valueDim;
      float vv[Lanes];
#pragma unroll
      for (int t = 0; t < Lanes; ++t) {
        int d = lane + 32 * t;
        vv[t] = d < p.valueDim ? toFloat(vRow[d]) : 0.0f;
      }
#pragma unroll
      for (int i = 0; i < kDecodeRows; ++i) {
        if (i >= rows)
          break;
        float w = __shfl_sync(0xffffffffu, weight[i], jj);
#pragma unroll
        for (int t = 0; t < Lanes; ++t)
          acc[i][t] += w * vv[t];
      }
    }
  }

  // The warps' running softmaxes, merged per row and output element.
#pragma unroll
  for (int i = 0; i < kDecodeRows; ++i) {
    if (lane == 0) {
      merge[warp][i][0] = maxScore[i];
      merge[warp][i][1] = sum[i];
    }
#pragma unroll
    for (int t = 0; t < Lanes; ++t)
      merge[warp][i][2 + lane + 32 * t] = acc[i][t];
  }
  __syncthreads();
  const int64_t totalRows = int64_t(p.batch) * p.heads * p.seqQ;
  for (int e = threadIdx.x; e < rows * p.valueDim; e += kDecodeThreads) {
    int i = e / p.valueDim, d = e % p.valueDim;
    float top = -INFINITY;
    for (int w = 0; w < kWarps; ++w)
      top = fmaxf(top, merge[w][i][0]);
    float total = 0.0f, out = 0.0f;
    if (top != -INFINITY)
      for (int w = 0; w < kWarps; ++w) {
        float f = exp2f(merge[w][i][0] - top);
        total += merge[w][i][1] * f;
        out += merge[w][i][2 + d] * f;
      }
    int64_t row = globalRow(p, b, kvHead, row0 + i);
    if (p.splits == 1) {
      static_cast<T *>(p.o)[row * p.valueDim + d] =
          fromFloat<T>(total > 0.0f ? out / total : 0.0f);
      continue;
    }
    float *slot = p.partial + (int64_t(split) * totalRows + row) *
                                  (p.valueDim + 2);
    if (d == 0) {
      slot[0] = top;
      slot[1] = total;
    }
    slot[2 + d] = out;
  }
}

template <typename T>
__device__ void decodeCombine(const DecodeAttentionParams &p) {
  const int64_t row = blockIdx.x;
  const int64_t totalRows = int64_t(p.batch) * p.heads * p.seqQ;
  const int64_t slotSize = p.valueDim + 2;
  const float *partial = p.partial + row * slotSize;
  float top = -INFINITY;
  for (int s = 0; s < p.splits; ++s)
    top = fmaxf(top, partial[s * totalRows * slotSize]);
  for (int d = threadIdx.x; d < p.valueDim; d += kDecodeThreads) {
    float total = 0.0f, out = 0.0f;
    if (top != -INFINITY)
      for (int s = 0; s < p.splits; ++s) {
        const float *slot = partial + s * totalRows * slotSize;
        float f = exp2f(slot[0] - top);
        total += slot[1] * f;
        out += slot[2 + d] * f;
      }
    static_cast<T *>(p.o)[row * p.valueDim + d] =
        fromFloat<T>(total > 0.0f ? out / total : 0.0f);
  }
}

} // namespace

#define RLX_DECODE_SPLIT(NAME, T, LANES)                                       \
  extern "C" __global__ void __launch_bounds__(kDecodeThreads)                 \
      rlx_decode_attention_split_##NAME##_l##LANES(DecodeAttentionParams p) {  \
    decodeSplit<T, LANES>(p);                                                  \
  }
#define RLX_DECODE_TYPE(NAME, T)                                               \
  RLX_DECODE_SPLIT(NAME, T, 1)                                                 \
  RLX_DECODE_SPLIT(NAME, T, 2)                                                 \
  RLX_DECODE_SPLIT(NAME, T, 4)                                                 \
  RLX_DECODE_SPLIT(NAME, T, 8)                                                 \
  extern "C" __global__ void __launch_bounds__(kDecodeThreads)                 \
      rlx_decode_attention_combine_##NAME(DecodeAttentionParams p) {           \
    decodeCombine<T>(p);                                                       \
  }

RLX_DECODE_TYPE(f32, float)
RLX_DECODE_TYPE(f16, __half)
RLX_DECODE_TYPE(bf16, __nv_bfloat16)
