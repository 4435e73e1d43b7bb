//===- Gemv.h - rlxGpuMatmul's own kernel for a few rows ------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_LIB_RUNTIME_CUDA_GEMV_H
#define RLX_LIB_RUNTIME_CUDA_GEMV_H

#include <cstdint>

namespace rlx::cuda {

/// Runs rlxGpuMatmul's problem on the runtime's skinny kernel (Gemv.cu)
/// where it takes it: one to four rows of a float type times a weight read
/// as [n, k] (transB), no epilogue or a bias, 16-byte aligned operands, k
/// a multiple of 16 bytes' elements; not when $RLX_GPU_GEMV is 0. Returns
/// false, having done nothing, where it does not (the library's turn).
bool gemv(int32_t type, int32_t epilogue, int32_t transA, int32_t transB,
          int64_t batch, int64_t m, int64_t n, int64_t k, const void *a,
          const void *b, const void *bias, void *c);

} // namespace rlx::cuda

#endif // RLX_LIB_RUNTIME_CUDA_GEMV_H
