//===- CPUDequantMatmul.h - GGUF-block matmuls on the CPU -------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The contract between rlx-cpu-call-dequant-matmul and the CPU runtime:
// y [m, n] = x [m, k] W^T, W [n, k] decoded row by row from GGUF blocks
// (llama.cpp's layouts) inside the kernel, so that no decoded copy of the
// weight is ever stored. The scheme codes are part of the ABI.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_RUNTIME_CPU_CPUDEQUANTMATMUL_H
#define RLX_RUNTIME_CPU_CPUDEQUANTMATMUL_H

#include <cstdint>

/// The GGUF block formats the runtime decodes (rlx.quant kinds).
enum RlxCpuDequantScheme : int32_t {
  RLX_CPU_DEQUANT_Q4_0 = 0,
  RLX_CPU_DEQUANT_Q8_0 = 1,
  RLX_CPU_DEQUANT_Q4_K = 2,
  RLX_CPU_DEQUANT_Q5_K = 3,
  RLX_CPU_DEQUANT_Q6_K = 4,
  RLX_CPU_DEQUANT_Q8_K = 5,
};

/// Weights and bytes of one block of a scheme ({0, 0} for an unknown
/// one).
struct RlxCpuDequantFormat {
  int64_t weights, bytes;
};

inline constexpr RlxCpuDequantFormat rlxCpuDequantFormat(int32_t scheme) {
  switch (scheme) {
  case RLX_CPU_DEQUANT_Q4_0:
    return {32, 18};
  case RLX_CPU_DEQUANT_Q8_0:
    return {32, 34};
  case RLX_CPU_DEQUANT_Q4_K:
    return {256, 144};
  case RLX_CPU_DEQUANT_Q5_K:
    return {256, 176};
  case RLX_CPU_DEQUANT_Q6_K:
    return {256, 210};
  case RLX_CPU_DEQUANT_Q8_K:
    return {256, 292};
  default:
    return {0, 0};
  }
}

extern "C" {
/// out = x W^T for row-major f32 `x` [m, k] and `packed` [n, k / block size
/// * block bytes] holding the blocks of `scheme` of each weight row; `out`
/// is row-major [m, n]. Tiles of weight rows are split over the thread
/// pool.
void rlx_cpu_dequant_matmul(const float *x, int64_t m, int64_t k,
                            const uint8_t *packed, int64_t n, float *out,
                            int32_t scheme);
}

#endif // RLX_RUNTIME_CPU_CPUDEQUANTMATMUL_H
