//===- GemvKernel.h - the skinny matmul kernels' interface ----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What Gemv.cu (compiled by nvcc into the runtime) and rlxGpuMatmul's
// launch of it (Gemv.cpp) agree on. Plain C++ for both compilers.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_RUNTIME_GEMVKERNEL_H
#define RLX_RUNTIME_GEMVKERNEL_H

#include <stdint.h>

namespace rlx::cuda {

/// Threads of a block: four warps, each taking kGemvColumns outputs.
constexpr int kGemvThreads = 128;
constexpr int kGemvColumns = 2;
/// The most rows of x (m) the kernels take: rlx_gemv_<T>_m<1..kGemvMaxRows>.
constexpr int kGemvMaxRows = 4;

/// c [m, n] = x [m, k] w^T (+ bias [n]) with w [n, k], all row-major and
/// contiguous, 16-byte aligned, k a multiple of 16 bytes' elements; f32
/// sums. Grid: ceil(n / (4 * kGemvColumns)) blocks.
struct GemvParams {
  const void *x;
  const void *w;
  const void *bias;
  void *c;
  int64_t n;
  int64_t k;
};

} // namespace rlx::cuda

#endif // RLX_RUNTIME_GEMVKERNEL_H
