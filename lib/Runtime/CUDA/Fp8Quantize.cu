//===- Fp8Quantize.cu - activations quantized to e4m3 for fp8 matmuls -----===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The kernels rlxGpuMatmulFp8 (Fp8Matmul.cpp) launches before cuBLASLt's
// fp8 matmul, one block per row of x (m x k, row-major, k a multiple of
// 16): rlx_fp8_quantize_<T> writes q = e4m3(x / s) (round to nearest even,
// saturating) with s = amax / 448 (e4m3's largest finite value) and the
// scales s that cuBLASLt multiplies back in. Per channel, amax is the row's
// own largest magnitude, taken by the same block; per tensor it is the
// largest of x, which rlx_fp8_amax_<T> takes first (atomically into
// amax[0], which the caller zeroed). A NaN or infinity among the
// magnitudes makes s NaN, so that the rows it scales come out NaN rather
// than finite and wrong. Rows are read 16 bytes at a time where x is
// 16-byte aligned (k being a multiple of 16, every row then is).
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

namespace {

constexpr int kThreads = 256;
constexpr float kE4M3Max = 448.0f;

/// The larger of two magnitudes, NaN winning (fmaxf would drop it).
__device__ float maxMagnitude(float a, float b) {
  return (b != b || b > a) ? b : a;
}

/// A row's elements in 16-byte groups of kLanes<T>.
template <typename T> constexpr int kLanes = 16 / sizeof(T);

/// Group `g` of `row` as floats: one 16-byte load where `vector`, else
/// element by element.
template <typename T>
__device__ void loadGroup(const T *row, int64_t g, bool vector,
                          float (&out)[kLanes<T>]) {
  const T *p = row + g * kLanes<T>;
  T v[kLanes<T>];
  if (vector) {
    *reinterpret_cast<uint4 *>(v) = *reinterpret_cast<const uint4 *>(p);
  } else {
    for (int i = 0; i < kLanes<T>; ++i)
      v[i] = p[i];
  }
  for (int i = 0; i < kLanes<T>; ++i)
    out[i] = float(v[i]);
}

/// The largest magnitude of `row` over the block, in every thread.
template <typename T>
__device__ float rowAmax(const T *row, int64_t k, bool vector) {
  float m = 0.0f;
  for (int64_t g = threadIdx.x; g < k / kLanes<T>; g += kThreads) {
    float v[kLanes<T>];
    loadGroup(row, g, vector, v);
    for (float f : v)
      m = maxMagnitude(m, fabsf(f));
  }
  for (int offset = 16; offset > 0; offset /= 2)
    m = maxMagnitude(m, __shfl_xor_sync(0xffffffffu, m, offset));
  __shared__ float warps[kThreads / 32];
  if (threadIdx.x % 32 == 0)
    warps[threadIdx.x / 32] = m;
  __syncthreads();
  m = warps[0];
  for (int w = 1; w < kThreads / 32; ++w)
    m = maxMagnitude(m, warps[w]);
  return m;
}

template <typename T> __device__ bool aligned16(const T *x) {
  return reinterpret_cast<uintptr_t>(x) % 16 == 0;
}

template <typename T> __device__ void amax(const T *x, int64_t k, float *out) {
  float m = rowAmax(x + int64_t(blockIdx.x) * k, k, aligned16(x));
  // Magnitudes (NaN's sign cleared by fabsf) order as their bits do.
  if (threadIdx.x == 0)
    atomicMax(reinterpret_cast<int *>(out), __float_as_int(m));
}

template <typename T>
__device__ void quantize(const T *x, int64_t k, int perRow, const float *amax,
                         uint8_t *q, float *scale) {
  bool vector = aligned16(x);
  const T *row = x + int64_t(blockIdx.x) * k;
  float a = perRow ? rowAmax(row, k, vector) : amax[0];
  float s = !isfinite(a) ? __int_as_float(0x7fc00000)
            : a > 0.0f   ? a / kE4M3Max
                         : 1.0f;
  uint8_t *out = q + int64_t(blockIdx.x) * k;
  for (int64_t g = threadIdx.x; g < k / kLanes<T>; g += kThreads) {
    float v[kLanes<T>];
    loadGroup(row, g, vector, v);
    uint8_t bytes[kLanes<T>];
    for (int i = 0; i < kLanes<T>; ++i)
      bytes[i] = __nv_cvt_float_to_fp8(v[i] / s, __NV_SATFINITE, __NV_E4M3);
    // q's rows are k bytes, a multiple of 16: each group's bytes are
    // aligned to their size.
    if constexpr (kLanes<T> == 8)
      *reinterpret_cast<uint2 *>(out + g * 8) =
          *reinterpret_cast<const uint2 *>(bytes);
    else
      *reinterpret_cast<uint32_t *>(out + g * 4) =
          *reinterpret_cast<const uint32_t *>(bytes);
  }
  if (threadIdx.x == 0 && (perRow || blockIdx.x == 0))
    scale[perRow ? blockIdx.x : 0] = s;
}

} // namespace

#define RLX_FP8_KERNELS(NAME, T)                                               \
  extern "C" __global__ void __launch_bounds__(kThreads)                       \
      rlx_fp8_amax_##NAME(const T *x, int64_t k, float *out) {                 \
    amax(x, k, out);                                                           \
  }                                                                            \
  extern "C" __global__ void __launch_bounds__(kThreads)                       \
      rlx_fp8_quantize_##NAME(const T *x, int64_t k, int perRow,               \
                              const float *amax, uint8_t *q, float *scale) {   \
    quantize(x, k, perRow, amax, q, scale);                                    \
  }

RLX_FP8_KERNELS(f32, float)
RLX_FP8_KERNELS(bf16, __nv_bfloat16)
RLX_FP8_KERNELS(f16, __half)
