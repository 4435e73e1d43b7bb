//===- ColumnMajorMatmul.h - rlxGpuMatmul for column-major BLAS -*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to the GPU runtime libraries whose matmul library is
// column-major (cuBLASLt, hipBLASLt): rlxGpuMatmul's row-major C = A B is
// the column-major C^T = B^T A^T, whose operands are the row-major buffers
// read as they are (the library's A is RLX's b, its B RLX's a), and whose
// per-row bias is the per-column bias of C.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_LIB_RUNTIME_COMMON_COLUMNMAJORMATMUL_H
#define RLX_LIB_RUNTIME_COMMON_COLUMNMAJORMATMUL_H

#include <cstdint>

namespace rlx::runtime {

/// One operand of the column-major problem: a rows x cols matrix (leading
/// dimension rows), the next of a batch `stride` elements on, used
/// transposed or not.
struct ColumnMajorOperand {
  uint64_t rows, cols;
  int64_t stride;
  bool transposed;
};

/// The library's A, B and C (also D) for rlxGpuMatmul's m x n x k problem
/// with RLX's a transposed if `transA`, b if `transB`.
struct ColumnMajorMatmul {
  ColumnMajorOperand a, b, c;
};

inline ColumnMajorMatmul columnMajorMatmul(bool transA, bool transB, int64_t m,
                                           int64_t n, int64_t k) {
  // RLX's b (k x n, or n x k stored) is the library's A: n x k.
  ColumnMajorOperand a =
      transB ? ColumnMajorOperand{uint64_t(k), uint64_t(n), n * k, true}
             : ColumnMajorOperand{uint64_t(n), uint64_t(k), n * k, false};
  // RLX's a (m x k, or k x m stored) is the library's B: k x m.
  ColumnMajorOperand b =
      transA ? ColumnMajorOperand{uint64_t(m), uint64_t(k), m * k, true}
             : ColumnMajorOperand{uint64_t(k), uint64_t(m), m * k, false};
  return {a, b, {uint64_t(n), uint64_t(m), m * n, false}};
}

} // namespace rlx::runtime

#endif // RLX_LIB_RUNTIME_COMMON_COLUMNMAJORMATMUL_H
