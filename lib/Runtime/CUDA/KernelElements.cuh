//===- KernelElements.cuh - element and warp helpers of the kernels -------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the runtime's CUDA kernels of f32, f16 and bf16 tensors share
// (DecodeAttention.cu, Gemv.cu): elements to and from f32, 16 bytes of
// them widened at once, and warp reductions. Device code for nvcc only.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_RUNTIME_CUDA_KERNELELEMENTS_CUH
#define RLX_RUNTIME_CUDA_KERNELELEMENTS_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace rlx::cuda::kernels {

__device__ inline float toFloat(float x) { return x; }
__device__ inline float toFloat(__half x) { return __half2float(x); }
__device__ inline float toFloat(__nv_bfloat16 x) { return __bfloat162float(x); }

/// f32 rounded to nearest even in T.
template <typename T> __device__ inline T fromFloat(float x);
template <> __device__ inline float fromFloat<float>(float x) { return x; }
template <> __device__ inline __half fromFloat<__half>(float x) {
  return __float2half_rn(x);
}
template <> __device__ inline __nv_bfloat16 fromFloat<__nv_bfloat16>(float x) {
  return __float2bfloat16_rn(x);
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
/// 16 bytes of pairs of a 16-bit float type, each pair widened by `widen`.
template <typename Pair, typename Widen>
__device__ inline void widenPairs(uint4 raw, float (&out)[8], Widen widen) {
  const Pair *h = reinterpret_cast<const Pair *>(&raw);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    float2 f = widen(h[i]);
    out[2 * i] = f.x;
    out[2 * i + 1] = f.y;
  }
}
template <> __device__ inline void widen<__half>(uint4 raw, float (&out)[8]) {
  widenPairs<__half2>(raw, out,
                      [](__half2 h) { return __half22float2(h); });
}
template <>
__device__ inline void widen<__nv_bfloat16>(uint4 raw, float (&out)[8]) {
  widenPairs<__nv_bfloat162>(
      raw, out, [](__nv_bfloat162 h) { return __bfloat1622float2(h); });
}

/// The sum of `x` over the warp, in every lane.
__device__ inline float warpSum(float x) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2)
    x += __shfl_xor_sync(0xffffffffu, x, offset);
  return x;
}

/// The largest of `x` over the warp, in every lane.
__device__ inline float warpMax(float x) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2)
    x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, offset));
  return x;
}

} // namespace rlx::cuda::kernels

#endif // RLX_RUNTIME_CUDA_KERNELELEMENTS_CUH
