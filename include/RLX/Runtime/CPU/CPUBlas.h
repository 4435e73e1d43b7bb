//===- CPUBlas.h - the gemm entry points compiled code calls ----*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `rlx-cpu-dispatch-blas` turns float contractions into calls of
// rlx_cpu_sgemm / rlx_cpu_dgemm (C = C + A B on 2-D strided views); these
// are their C-interface implementations. They call the CBLAS gemm of the
// BLAS library found at run time (OpenBLAS first), and a plain loop for
// views no BLAS can take (neither dim contiguous). rlx_cpu_gemm_s8 is RLX's
// own int8 kernel.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_RUNTIME_CPUBLAS_H
#define RLX_RUNTIME_CPUBLAS_H

#include <cstdint>

namespace mlir {
namespace rlx {
namespace runtime {

/// A 2-D memref descriptor as MLIR's C interface passes it.
template <typename T>
struct MemRef2D {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[2];
  int64_t strides[2];
};

/// A 1-D memref descriptor as MLIR's C interface passes it.
template <typename T>
struct MemRef1D {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
};

/// Loads the CBLAS library; returns its name, or nullptr if none is found.
const char *loadBlas();

} // namespace runtime
} // namespace rlx
} // namespace mlir

extern "C" {
void _mlir_ciface_rlx_cpu_sgemm(mlir::rlx::runtime::MemRef2D<float> *a,
                                mlir::rlx::runtime::MemRef2D<float> *b,
                                mlir::rlx::runtime::MemRef2D<float> *c);
void _mlir_ciface_rlx_cpu_dgemm(mlir::rlx::runtime::MemRef2D<double> *a,
                                mlir::rlx::runtime::MemRef2D<double> *b,
                                mlir::rlx::runtime::MemRef2D<double> *c);
/// C (i32) += A (i8) B (i8): rlx.int8_matmul's kernel (CPUGemmS8.cpp).
void _mlir_ciface_rlx_cpu_gemm_s8(mlir::rlx::runtime::MemRef2D<int8_t> *a,
                                  mlir::rlx::runtime::MemRef2D<int8_t> *b,
                                  mlir::rlx::runtime::MemRef2D<int32_t> *c);
/// The same for a B that is a constant of the program: `slot` (one i64 of
/// the program's globals per call site, zero at first) keeps B packed after
/// the first call.
void _mlir_ciface_rlx_cpu_gemm_s8_constant_b(
    mlir::rlx::runtime::MemRef2D<int8_t> *a,
    mlir::rlx::runtime::MemRef2D<int8_t> *b,
    mlir::rlx::runtime::MemRef2D<int32_t> *c,
    mlir::rlx::runtime::MemRef1D<int64_t> *slot);
}

#endif // RLX_RUNTIME_CPUBLAS_H
