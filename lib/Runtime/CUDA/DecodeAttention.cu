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
// group, without repeating k/v). Within a block the four warps take 8
// positions at a time each (4 lanes per key row) and merge through shared
// memory at the end. A step's attention is latency-bound (a few hundred
// positions over many blocks), so what counts is the chain of dependent
// instructions per warp: loads are issued in groups before their use. Scores and the softmax are f32 (exp2
// of log2-scaled scores); `length` is read from device memory, so one
// launch serves every step of a replayed graph. Layouts and the launch
// shape: DecodeAttentionKernel.h.
//
//===----------------------------------------------------------------------===//

#include "DecodeAttentionKernel.h"
#include "KernelElements.cuh"

using rlx::cuda::DecodeAttentionParams;
using rlx::cuda::kDecodeRows;
using rlx::cuda::kDecodeThreads;
using namespace rlx::cuda::kernels;

namespace {

constexpr int kWarps = kDecodeThreads / 32;
/// Lanes that share one cached position's key row, and so positions a
/// warp takes at a time.
constexpr int kLanesPerPosition = 4;
constexpr int kPositionsPerWarp = 32 / kLanesPerPosition;
/// The most splits the combine kernel merges (the host's limit).
constexpr int kMaxCombineSplits = rlx::cuda::kDecodeMaxSplits;

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

// One block: a split of the cache for one key/value head's tile of query
// rows. The rows go to shared memory; each warp takes eight positions at a
// time (four lanes per key row), updates each row's running softmax, and
// reads the eight value rows with lanes over the value dim; the warps
// merge through shared memory, and the block writes its partial rows (or
// the output, with one split).
template <typename T, int Lanes>
__device__ void decodeSplit(const DecodeAttentionParams &p) {
  constexpr int Width = 32 * Lanes;
  constexpr int V = kVector<T>;
  __shared__ __align__(16) float query[kDecodeRows][Width];
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

  // The tile's query rows into shared memory, every load issued before
  // the first store (a load-store loop would wait on each load in turn).
  const T *q = static_cast<const T *>(p.q);
  constexpr int PerThread = kDecodeRows * Width / kDecodeThreads;
  float staged[PerThread];
#pragma unroll
  for (int r = 0; r < PerThread; ++r) {
    int e = threadIdx.x + r * kDecodeThreads;
    int i = e / Width, d = e % Width;
    staged[r] = i < rows && d < p.headDim
                    ? toFloat(q[globalRow(p, b, kvHead, row0 + i) * p.headDim +
                                d])
                    : 0.0f;
  }
#pragma unroll
  for (int r = 0; r < PerThread; ++r) {
    int e = threadIdx.x + r * kDecodeThreads;
    query[e / Width][e % Width] = staged[r] * p.scaleLog2;
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
  // Eight positions per warp at a time, four lanes each (`part` takes
  // every fourth 16-byte piece of the key row): a warp's instructions per
  // round stay few, and a short split still keeps several warps busy.
  const int slot = lane / kLanesPerPosition, part = lane % kLanesPerPosition;
  for (int base = lo + kPositionsPerWarp * warp; base < hi;
       base += kPositionsPerWarp * kWarps) {
    const int j = base + slot;
    float score[kDecodeRows];
#pragma unroll
    for (int i = 0; i < kDecodeRows; ++i)
      score[i] = 0.0f;
    if (j < hi) {
      const T *kRow =
          kCache + ((int64_t(b) * p.maxSeq + j) * p.kvHeads + kvHead) *
                       p.headDim;
      if (vectorK) {
        // The lane's pieces, all loads in flight before any is used.
        constexpr int Pieces = Width / V / kLanesPerPosition;
        uint4 raw[Pieces];
#pragma unroll
        for (int c = 0; c < Pieces; ++c) {
          int d0 = (c * kLanesPerPosition + part) * V;
          if (d0 < p.headDim)
            raw[c] = *reinterpret_cast<const uint4 *>(kRow + d0);
        }
#pragma unroll
        for (int c = 0; c < Pieces; ++c) {
          int d0 = (c * kLanesPerPosition + part) * V;
          if (d0 >= p.headDim)
            break;
          float kv[V];
          widen<T>(raw[c], kv);
#pragma unroll
          for (int i = 0; i < kDecodeRows; ++i) {
            if (i >= rows)
              break;
            const float4 *qv = reinterpret_cast<const float4 *>(&query[i][d0]);
#pragma unroll
            for (int e = 0; e < V / 4; ++e) {
              float4 qq = qv[e];
              score[i] += qq.x * kv[4 * e] + qq.y * kv[4 * e + 1] +
                          qq.z * kv[4 * e + 2] + qq.w * kv[4 * e + 3];
            }
          }
        }
      } else {
        for (int d = part; d < p.headDim; d += kLanesPerPosition) {
          float kd = toFloat(kRow[d]);
#pragma unroll
          for (int i = 0; i < kDecodeRows; ++i) {
            if (i >= rows)
              break;
            score[i] += query[i][d] * kd;
          }
        }
      }
    }
    // Each row's running softmax over the warp's positions: a position's
    // score is its four lanes' sum, its weight counted once (by part 0).
    float weight[kDecodeRows];
#pragma unroll
    for (int i = 0; i < kDecodeRows; ++i) {
      weight[i] = 0.0f;
      if (i >= rows)
        break;
      float dot = score[i];
      dot += __shfl_xor_sync(0xffffffffu, dot, 1);
      dot += __shfl_xor_sync(0xffffffffu, dot, 2);
      bool visible = j < hi && j <= position[i] &&
                     (p.window <= 0 || j > position[i] - p.window);
      float s = visible ? dot : -INFINITY;
      float next = fmaxf(maxScore[i], warpMax(s));
      if (next == -INFINITY)
        continue;
      float rescale = exp2f(maxScore[i] - next);
      weight[i] = exp2f(s - next);
      sum[i] = sum[i] * rescale + warpSum(part == 0 ? weight[i] : 0.0f);
#pragma unroll
      for (int t = 0; t < Lanes; ++t)
        acc[i][t] *= rescale;
      maxScore[i] = next;
    }
    // The value rows of the warp's positions, their loads in flight
    // together, lanes over the value dim, each weighted by its position's
    // weight (from its first lane).
    const int count = min(kPositionsPerWarp, hi - base);
    float vv[kPositionsPerWarp][Lanes];
#pragma unroll
    for (int r = 0; r < kPositionsPerWarp; ++r) {
      const T *vRow =
          vCache +
          ((int64_t(b) * p.maxSeq + base + r) * p.kvHeads + kvHead) *
              p.valueDim;
#pragma unroll
      for (int t = 0; t < Lanes; ++t) {
        int d = lane + 32 * t;
        vv[r][t] = r < count && d < p.valueDim ? toFloat(vRow[d]) : 0.0f;
      }
    }
#pragma unroll
    for (int r = 0; r < kPositionsPerWarp; ++r)
#pragma unroll
      for (int i = 0; i < kDecodeRows; ++i) {
        if (i >= rows)
          break;
        float w = __shfl_sync(0xffffffffu, weight[i], r * kLanesPerPosition);
#pragma unroll
        for (int t = 0; t < Lanes; ++t)
          acc[i][t] += w * vv[r][t];
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
  // Each split's maximum and sum once, in shared memory, as the factor
  // its output is scaled by; then every output element is the factors'
  // sum over the splits' (loads of one element's splits all independent).
  __shared__ float factor[kMaxCombineSplits];
  __shared__ float total;
  const int64_t row = blockIdx.x;
  const int64_t totalRows = int64_t(p.batch) * p.heads * p.seqQ;
  const int64_t slotSize = p.valueDim + 2;
  const float *partial = p.partial + row * slotSize;
  const int64_t stride = totalRows * slotSize;
  if (threadIdx.x < 32) {
    const int lane = threadIdx.x;
    float m[kMaxCombineSplits / 32], l[kMaxCombineSplits / 32];
    float top = -INFINITY;
#pragma unroll
    for (int r = 0; r < kMaxCombineSplits / 32; ++r) {
      int s = lane + 32 * r;
      m[r] = s < p.splits ? partial[s * stride] : -INFINITY;
      l[r] = s < p.splits ? partial[s * stride + 1] : 0.0f;
      top = fmaxf(top, m[r]);
    }
    top = warpMax(top);
    float sum = 0.0f;
#pragma unroll
    for (int r = 0; r < kMaxCombineSplits / 32; ++r) {
      float f = top == -INFINITY ? 0.0f : exp2f(m[r] - top);
      factor[lane + 32 * r] = f;
      sum += l[r] * f;
    }
    sum = warpSum(sum);
    if (lane == 0)
      total = sum;
  }
  __syncthreads();
  for (int d = threadIdx.x; d < p.valueDim; d += kDecodeThreads) {
    float out = 0.0f;
#pragma unroll 8
    for (int s = 0; s < p.splits; ++s)
      out += partial[s * stride + 2 + d] * factor[s];
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
