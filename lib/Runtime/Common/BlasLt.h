//===- BlasLt.h - cuBLASLt and hipBLASLt for the runtimes -------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to the GPU runtime libraries whose rlxGpuMatmul runs on a
// BLAS-Lt library (CUDA's cuBLASLt, ROCm's hipBLASLt, a port of it). The
// two have the same entry points under another prefix, with the same C
// types, and are called in the same sequence: a matmul descriptor, one
// layout per matrix, a heuristic's algorithms, the matmul. Only the enum
// values differ (Dialect). What each runtime keeps to itself is how it
// chooses among the algorithms and plans its calls (CUBLASLt.cpp,
// HipBLASLt.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef RLX_LIB_RUNTIME_COMMON_BLASLT_H
#define RLX_LIB_RUNTIME_COMMON_BLASLT_H

#include "ColumnMajorMatmul.h"
#include "ErrorRecord.h"

#include <cstddef>
#include <cstdint>
#include <initializer_list>

namespace rlx::runtime::blaslt {

using Status = int;    // cublasStatus_t, hipblasStatus_t
using Handle = void *; // the library handle, descriptors, layouts, streams

/// Where one BLAS-Lt library differs from the other: its names and the
/// values of the enums the runtimes use.
struct Dialect {
  /// The library in errors ("cuBLASLt"), and its functions' prefix
  /// ("cublasLt").
  const char *name, *prefix;
  /// Whether it names its status codes (<prefix>GetStatusName).
  bool namesStatus;
  /// The operation enum: not transposed, transposed.
  int32_t opN, opT;
  /// Matmul descriptor attributes.
  int descTransA, descTransB, descEpilogue;
  /// Matrix layout attributes.
  int layoutBatchCount, layoutStridedBatchOffset;
  /// Matmul preference attribute.
  int prefMaxWorkspaceBytes;
};

/// One problem's matmul descriptor and the layouts of the library's A, B
/// and C (also D).
struct Descriptors {
  Handle desc = nullptr, a = nullptr, b = nullptr, c = nullptr;
};

/// A BLAS-Lt library, opened with a handle. The heuristic's results and
/// the algorithm are untyped: their layout is the library's (and
/// hipBLASLt's changes between releases).
class Library {
public:
  explicit Library(const Dialect &dialect, ErrorRecord &errors)
      : dialect(dialect), errors(errors) {}

  /// Opens $`overrideVariable` or the first of `defaults` that loads
  /// (DynamicLibrary.h), looks up the entry points and creates the handle.
  /// False, with the reason recorded, if any of it fails.
  bool open(const char *overrideVariable,
            std::initializer_list<const char *> defaults);

  /// Whether `status` is success; if not, records "<name>: <prefix><call>
  /// failed: <status>" (`call` without the prefix: "MatmulDescCreate").
  bool check(Status status, const char *call) const;

  /// Sets a matmul descriptor attribute, checked.
  bool setDescAttribute(Handle desc, int attribute, const void *value,
                        size_t size) const;

  /// Creates the matmul descriptor of `problem` (compute and scale types
  /// as the library numbers them) with its operations and `epilogue` set.
  bool createDesc(Descriptors &d, const ColumnMajorMatmul &problem, int compute,
                  int scaleType, uint32_t epilogue) const;

  /// Creates the layouts of `problem`'s A, B and C, `batch` of each, of the
  /// given data types (A's is RLX's b's, B's RLX's a's).
  bool createLayouts(Descriptors &d, const ColumnMajorMatmul &problem,
                     int aType, int bType, int cType, int64_t batch) const;

  /// Asks the heuristic for up to `requested` algorithms that take at most
  /// `maxWorkspace` bytes of workspace, into `results`; `found` says how
  /// many it returned.
  bool heuristic(const Descriptors &d, uint64_t maxWorkspace, int requested,
                 void *results, int &found) const;

  /// RLX's row-major c = a b as the library's column-major C^T = B^T A^T
  /// with `algo`: its A is RLX's b, its B RLX's a. `alpha` and `beta` are
  /// of the descriptor's scale type.
  Status matmul(const Descriptors &d, const void *alpha, const void *beta,
                const void *a, const void *b, void *c, const void *algo,
                void *workspace, size_t workspaceSize, Handle stream) const;

private:
  /// A column-major layout of `rows` x `cols` (leading dimension `rows`),
  /// `batch` of them `stride` elements apart; null on failure.
  Handle layout(int type, const ColumnMajorOperand &operand,
                int64_t batch) const;

  const Dialect &dialect;
  ErrorRecord &errors;
  Handle handle = nullptr;

  Status (*create)(Handle *) = nullptr;
  Status (*descCreate)(Handle *, int, int) = nullptr;
  Status (*descSetAttribute)(Handle, int, const void *, size_t) = nullptr;
  Status (*layoutCreate)(Handle *, int, uint64_t, uint64_t, int64_t) = nullptr;
  Status (*layoutSetAttribute)(Handle, int, const void *, size_t) = nullptr;
  Status (*preferenceCreate)(Handle *) = nullptr;
  Status (*preferenceSetAttribute)(Handle, int, const void *, size_t) = nullptr;
  Status (*preferenceDestroy)(Handle) = nullptr;
  Status (*algoGetHeuristic)(Handle, Handle, Handle, Handle, Handle, Handle,
                             Handle, int, void *, int *) = nullptr;
  Status (*matmulFn)(Handle, Handle, const void *, const void *, Handle,
                     const void *, Handle, const void *, const void *, Handle,
                     void *, Handle, const void *, void *, size_t,
                     Handle) = nullptr;
  const char *(*statusName)(Status) = nullptr;
};

} // namespace rlx::runtime::blaslt

#endif // RLX_LIB_RUNTIME_COMMON_BLASLT_H
