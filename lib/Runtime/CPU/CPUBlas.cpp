//===- CPUBlas.cpp - gemm through the CBLAS found at run time -------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The library is opened with dlopen rather than linked: RLX builds and runs
// without a BLAS, and a user picks one by installing it (Debian's
// libopenblas0-pthread, or any libcblas.so.3).
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/CPU/CPUBlas.h"
#include "RLX/Runtime/CPU/CPUThreads.h"

#include <algorithm>
#include <dlfcn.h>

using namespace mlir::rlx::runtime;

namespace {

// CBLAS's enum values (cblas.h), fixed by the reference interface.
constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;

using SgemmFn = void (*)(int, int, int, int, int, int, float, const float *,
                         int, const float *, int, float, float *, int);
using DgemmFn = void (*)(int, int, int, int, int, int, double, const double *,
                         int, const double *, int, double, double *, int);

struct Blas {
  const char *name = nullptr;
  SgemmFn sgemm = nullptr;
  DgemmFn dgemm = nullptr;
};

const Blas &blas() {
  static const Blas loaded = [] {
    Blas result;
    for (const char *name : {"libopenblas.so.0", "libopenblas.so",
                             "libcblas.so.3", "libblas.so.3"}) {
      void *handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (!handle)
        continue;
      auto s = reinterpret_cast<SgemmFn>(dlsym(handle, "cblas_sgemm"));
      auto d = reinterpret_cast<DgemmFn>(dlsym(handle, "cblas_dgemm"));
      if (s && d) {
        result = {name, s, d};
        // The library's own threads, as many as the generated code's
        // (OpenBLAS; other libraries read their own variables).
        using SetThreadsFn = void (*)(int);
        if (auto setThreads = reinterpret_cast<SetThreadsFn>(
                dlsym(handle, "openblas_set_num_threads")))
          setThreads(static_cast<int>(rlx_cpu_num_threads()));
        break;
      }
      dlclose(handle);
    }
    return result;
  }();
  return loaded;
}

/// How BLAS reads a view: row-major with leading dim `ld`, or transposed
/// (column-major). False when neither dim is contiguous.
template <typename T>
bool blasLayout(const MemRef2D<T> &v, bool &transposed, int64_t &ld) {
  int64_t rows = v.sizes[0], cols = v.sizes[1];
  if (v.strides[1] == 1 || cols == 1) {
    transposed = false;
    ld = rows == 1 ? std::max<int64_t>(cols, 1) : v.strides[0];
    return ld >= std::max<int64_t>(cols, 1);
  }
  if (v.strides[0] == 1 || rows == 1) {
    transposed = true;
    ld = cols == 1 ? std::max<int64_t>(rows, 1) : v.strides[1];
    return ld >= std::max<int64_t>(rows, 1);
  }
  return false;
}

template <typename T> T &at(const MemRef2D<T> &v, int64_t i, int64_t j) {
  return v.aligned[v.offset + i * v.strides[0] + j * v.strides[1]];
}

template <typename T, typename Fn>
void gemm(MemRef2D<T> &a, MemRef2D<T> &b, MemRef2D<T> &c, Fn fn) {
  int64_t m = c.sizes[0], n = c.sizes[1], k = a.sizes[1];
  if (m == 0 || n == 0 || k == 0)
    return;
  bool ta, tb, tc;
  int64_t lda, ldb, ldc;
  if (fn && blasLayout(a, ta, lda) && blasLayout(b, tb, ldb) &&
      blasLayout(c, tc, ldc) && !tc) {
    fn(kRowMajor, ta ? kTrans : kNoTrans, tb ? kTrans : kNoTrans, int(m),
       int(n), int(k), T(1), a.aligned + a.offset, int(lda),
       b.aligned + b.offset, int(ldb), T(1), c.aligned + c.offset, int(ldc));
    return;
  }
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p)
      for (int64_t j = 0; j < n; ++j)
        at(c, i, j) += at(a, i, p) * at(b, p, j);
}

} // namespace

const char *mlir::rlx::runtime::loadBlas() { return blas().name; }

extern "C" void _mlir_ciface_rlx_cpu_sgemm(MemRef2D<float> *a,
                                           MemRef2D<float> *b,
                                           MemRef2D<float> *c) {
  gemm(*a, *b, *c, blas().sgemm);
}

extern "C" void _mlir_ciface_rlx_cpu_dgemm(MemRef2D<double> *a,
                                           MemRef2D<double> *b,
                                           MemRef2D<double> *c) {
  gemm(*a, *b, *c, blas().dgemm);
}
