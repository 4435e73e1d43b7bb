//===- CUBLASLtMatmul.h - one matmul through cuBLASLt ---------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to the CUDA runtime: what rlxGpuMatmul (float and int8
// operands) and rlxGpuMatmulFp8 (fp8 operands with scales) share, a
// row-major matmul described by its cuBLASLt types and run with
// descriptors made once per problem (CUBLASLt.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef RLX_LIB_RUNTIME_CUDA_CUBLASLTMATMUL_H
#define RLX_LIB_RUNTIME_CUDA_CUBLASLTMATMUL_H

#include <cstdint>
#include <string>
#include <tuple>

namespace rlx::cublaslt {

/// c[i] = epilogue(a[i] b[i] + bias) for i < batch, as rlxGpuMatmul
/// (GPURuntime.h) describes it, in cuBLASLt's types.
struct Problem {
  /// cudaDataType_t of the row-major a, b and c (and of the bias).
  int32_t aType, bType, cType;
  /// cublasComputeType_t, and the cudaDataType_t of alpha and beta.
  int32_t compute, scaleType;
  /// cublasLtEpilogue_t.
  uint32_t epilogue;
  /// cublasLtMatmulMatrixScale_t of a's and b's scales, or -1 for none.
  int32_t scaleMode;
  bool transA, transB;
  int64_t batch, m, n, k;
  /// What errors call the problem ("f32", "fp8 e4m3 per tensor"), and its
  /// epilogue in RlxGpuMatmulEpilogue's terms.
  std::string name;
  int32_t rlxEpilogue;

  auto key() const {
    return std::make_tuple(aType, bType, cType, compute, epilogue, scaleMode,
                           transA, transB, batch, m, n, k);
  }
  bool operator<(const Problem &other) const { return key() < other.key(); }
};

/// Runs `problem` on the runtime's current stream, recording any error.
/// `scaleA` and `scaleB` are the device scales of a and b where
/// problem.scaleMode is not -1; `bias` is null without a bias epilogue.
void matmul(const Problem &problem, const void *a, const void *b,
            const void *bias, void *c, const void *scaleA, const void *scaleB);

} // namespace rlx::cublaslt

#endif // RLX_LIB_RUNTIME_CUDA_CUBLASLTMATMUL_H
