//===- FakeCUBLASLt.cpp - a cuBLASLt that records its calls ---------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Stands in for libcublasLt.so in the runtime's unit test (no GPU in CI):
// the entry points rlxGpuMatmul looks up, each appending one line to
// a log the test reads back. Attribute values are printed as integers
// (4-byte ones) or addresses (8-byte ones). The heuristic finds one
// algorithm, none with $FAKE_CUBLASLT_NO_ALGO set, $FAKE_CUBLASLT_ALGOS
// (numbered from 0, algorithm i taking (i + 1) KiB of workspace) if set.
//
//===----------------------------------------------------------------------===//

#include "CUBLASLtABI.h"
#include "FakeLibrary.h"

namespace {
void logAttribute(const char *what, int attribute, const void *value,
                  size_t size) {
  if (size == 4) {
    int32_t v;
    memcpy(&v, value, 4);
    log("%s %d = %d", what, attribute, v);
  } else {
    uint64_t v;
    memcpy(&v, value, 8);
    log("%s %d = 0x%llx", what, attribute, static_cast<unsigned long long>(v));
  }
}

} // namespace

// The runtime's own declaration of the results; the parameters have
// exactly the types the runtime calls the functions through, untyped as in
// its BLAS-Lt binding (UBSan checks that).
using rlx::cublaslt::HeuristicResult;

extern "C" {
const char *fakeCublasLtLog() { return callLog.c_str(); }

int cublasLtCreate(void **handle) {
  *handle = newHandle(0x10);
  log("cublasLtCreate");
  return 0;
}
int cublasLtMatmulDescCreate(void **desc, int compute, int scale) {
  *desc = newHandle(0x10);
  log("descCreate compute %d scale %d", compute, scale);
  return 0;
}
int cublasLtMatmulDescSetAttribute(void *, int attribute, const void *value,
                                   size_t size) {
  logAttribute("desc", attribute, value, size);
  return 0;
}
int cublasLtMatrixLayoutCreate(void **layout, int type, uint64_t rows,
                               uint64_t cols, int64_t ld) {
  *layout = newHandle(0x10);
  log("layout type %d rows %llu cols %llu ld %lld", type,
      static_cast<unsigned long long>(rows),
      static_cast<unsigned long long>(cols), static_cast<long long>(ld));
  return 0;
}
int cublasLtMatrixLayoutSetAttribute(void *, int attribute, const void *value,
                                     size_t size) {
  logAttribute("  layout", attribute, value, size);
  return 0;
}
int cublasLtMatmulPreferenceCreate(void **pref) {
  *pref = newHandle(0x10);
  return 0;
}
int cublasLtMatmulPreferenceSetAttribute(void *, int attribute,
                                         const void *value, size_t size) {
  logAttribute("preference", attribute, value, size);
  return 0;
}
int cublasLtMatmulPreferenceDestroy(void *) { return 0; }
int cublasLtMatmulAlgoGetHeuristic(void *, void *, void *, void *, void *,
                                   void *, void *, int requested,
                                   void *untypedResults, int *found) {
  auto *results = static_cast<HeuristicResult *>(untypedResults);
  const char *algos = getenv("FAKE_CUBLASLT_ALGOS");
  *found = getenv("FAKE_CUBLASLT_NO_ALGO") ? 0 : 1;
  if (algos && atoi(algos) < requested)
    *found = atoi(algos);
  for (int i = 0; i < *found; ++i) {
    results[i].algo.data[0] = i;
    results[i].workspaceSize = 1024 * (i + 1);
  }
  log("heuristic requested %d found %d", requested, *found);
  return 0;
}
int cublasLtMatmul(void *, void *, const void *alpha, const void *a, void *,
                   const void *b, void *, const void *beta, const void *c,
                   void *, void *d, void *, const void *untypedAlgo,
                   void *workspace, size_t workspaceSize, void *stream) {
  auto *algo = static_cast<const rlx::cublaslt::Algo *>(untypedAlgo);
  log("matmul alpha %g A %p B %p beta %g C %p D %p workspace %p %zu stream %p "
      "algo %llu",
      *static_cast<const float *>(alpha), a, b,
      *static_cast<const float *>(beta), c, d, workspace, workspaceSize,
      stream,
      static_cast<unsigned long long>(algo->data[0]));
  return strcmp(static_cast<const char *>(a), "fail") ? 0 : 15;
}
const char *cublasLtGetStatusName(int status) {
  return status == 15 ? "CUBLAS_STATUS_NOT_SUPPORTED" : "CUBLAS_STATUS_UNKNOWN";
}
}
