//===- Gemv.cu - matmuls of a few rows, at the memory's rate --------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A decode step multiplies one token's row (or a few) by every weight: the
// time is reading the weights once. Each warp takes kGemvColumns rows of w
// and streams them in 16-byte loads (several in flight per lane, marked not
// to stay in L1), the rows of x coming from the read-only cache; the lanes'
// f32 sums meet in a shuffle reduction. GemvKernel.h has the layout.
//
//===----------------------------------------------------------------------===//

#include "GemvKernel.h"
#include "KernelElements.cuh"

using rlx::cuda::GemvParams;
using rlx::cuda::kGemvColumns;
using rlx::cuda::kGemvThreads;
using namespace rlx::cuda::kernels;

namespace {

/// A weight's 16 bytes, read once: streamed past L1.
__device__ inline uint4 loadStreaming(const uint4 *p) {
  uint4 v;
  asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p));
  return v;
}

template <typename T, int M> __device__ void gemv(const GemvParams &p) {
  constexpr int V = kVector<T>;
  const int lane = threadIdx.x % 32;
  const int64_t n0 =
      (int64_t(blockIdx.x) * (kGemvThreads / 32) + threadIdx.x / 32) *
      kGemvColumns;
  if (n0 >= p.n)
    return;
  const int64_t vectors = p.k / V;
  const uint4 *w[kGemvColumns];
#pragma unroll
  for (int c = 0; c < kGemvColumns; ++c)
    w[c] = static_cast<const uint4 *>(p.w) +
           (n0 + c < p.n ? n0 + c : n0) * vectors;
  const uint4 *x = static_cast<const uint4 *>(p.x);
  float acc[M][kGemvColumns] = {};
  // Four iterations' loads in flight (eight 16-byte loads per lane):
  // measured on the H200's Llama-3.1-8B decode step, 1 and 2 leave the
  // memory idle, 8 and 16 cost occupancy (bench/RESULTS.md).
#pragma unroll 4
  for (int64_t v = lane; v < vectors; v += 32) {
    float wf[kGemvColumns][V];
#pragma unroll
    for (int c = 0; c < kGemvColumns; ++c)
      widen<T>(loadStreaming(w[c] + v), wf[c]);
#pragma unroll
    for (int m = 0; m < M; ++m) {
      float xf[V];
      widen<T>(__ldg(x + m * vectors + v), xf);
#pragma unroll
      for (int c = 0; c < kGemvColumns; ++c)
#pragma unroll
        for (int e = 0; e < V; ++e)
          acc[m][c] += xf[e] * wf[c][e];
    }
  }
  const T *bias = static_cast<const T *>(p.bias);
  T *out = static_cast<T *>(p.c);
#pragma unroll
  for (int m = 0; m < M; ++m)
#pragma unroll
    for (int c = 0; c < kGemvColumns; ++c) {
      float s = warpSum(acc[m][c]);
      if (lane == 0 && n0 + c < p.n)
        out[m * p.n + n0 + c] =
            fromFloat<T>(bias ? s + toFloat(bias[n0 + c]) : s);
    }
}

} // namespace

#define RLX_GEMV(NAME, T, M)                                                   \
  extern "C" __global__ void __launch_bounds__(kGemvThreads)                   \
      rlx_gemv_##NAME##_m##M(GemvParams p) {                                   \
    gemv<T, M>(p);                                                             \
  }
#define RLX_GEMV_TYPE(NAME, T)                                                 \
  RLX_GEMV(NAME, T, 1)                                                         \
  RLX_GEMV(NAME, T, 2)                                                         \
  RLX_GEMV(NAME, T, 3)                                                         \
  RLX_GEMV(NAME, T, 4)

RLX_GEMV_TYPE(f32, float)
RLX_GEMV_TYPE(f16, __half)
RLX_GEMV_TYPE(bf16, __nv_bfloat16)
