//===- FakeHipBLASLt.cpp - a hipBLASLt that records its calls -------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Stands in for libhipblaslt.so in the ROCm runtime's unit test: the entry
// points rlxGpuMatmul looks up, each appending one line to a log. A matmul
// whose B operand (RLX's a) is the string "fail" fails with
// HIPBLAS_STATUS_NOT_SUPPORTED (6); $FAKE_HIPBLASLT_NO_ALGO makes the
// heuristic find nothing.
//
//===----------------------------------------------------------------------===//

#include "FakeLibrary.h"

extern "C" {
const char *fakeHipBLASLtLog() { return callLog.c_str(); }

int hipblasLtCreate(void **handle) {
  log("hipblasLtCreate");
  *handle = newHandle();
  return 0;
}
int hipblasLtMatmulDescCreate(void **desc, int compute, int scale) {
  log("descCreate compute %d scale %d", compute, scale);
  *desc = newHandle();
  return 0;
}
int hipblasLtMatmulDescSetAttribute(void *, int attribute, const void *value,
                                    size_t size) {
  if (size == sizeof(void *) && attribute == 3)
    log("desc %d = %p", attribute, *static_cast<void *const *>(value));
  else
    log("desc %d = %d", attribute, *static_cast<const int32_t *>(value));
  return 0;
}
int hipblasLtMatrixLayoutCreate(void **layout, int type, uint64_t rows,
                                uint64_t cols, int64_t ld) {
  log("layout type %d rows %llu cols %llu ld %lld", type,
      static_cast<unsigned long long>(rows),
      static_cast<unsigned long long>(cols), static_cast<long long>(ld));
  *layout = newHandle();
  return 0;
}
int hipblasLtMatrixLayoutSetAttribute(void *, int attribute, const void *value,
                                      size_t size) {
  long long v = size == 8 ? *static_cast<const int64_t *>(value)
                          : *static_cast<const int32_t *>(value);
  log("  layout %d = %lld", attribute, v);
  return 0;
}
int hipblasLtMatmulPreferenceCreate(void **pref) {
  *pref = newHandle();
  return 0;
}
int hipblasLtMatmulPreferenceSetAttribute(void *, int attribute,
                                          const void *value, size_t) {
  log("preference %d = %#llx", attribute,
      static_cast<unsigned long long>(*static_cast<const uint64_t *>(value)));
  return 0;
}
int hipblasLtMatmulPreferenceDestroy(void *) { return 0; }
// The parameter types are the runtime's (untyped pointers), so that UBSan's
// check of calls through function pointers holds.
int hipblasLtMatmulAlgoGetHeuristic(void *, void *, void *, void *, void *,
                                    void *, void *, int requested,
                                    void *results, int *found) {
  *found = getenv("FAKE_HIPBLASLT_NO_ALGO") ? 0 : 1;
  // The algorithm's first word, which the runtime passes back.
  if (*found)
    memcpy(results, "ALGO", 4);
  log("heuristic requested %d found %d", requested, *found);
  return 0;
}
int hipblasLtMatmul(void *, void *, const void *alpha, const void *a, void *,
                    const void *b, void *, const void *beta, const void *c,
                    void *, void *d, void *, const void *algo, void *workspace,
                    size_t workspaceBytes, void *stream) {
  log("matmul alpha %g A %p B %p beta %g C %p D %p algo %.4s workspace %p "
      "%zu stream %p",
      *static_cast<const float *>(alpha), a, b,
      *static_cast<const float *>(beta), c, d, static_cast<const char *>(algo),
      workspace,
      workspaceBytes, stream);
  return strcmp(static_cast<const char *>(b), "fail") == 0 ? 6 : 0;
}
}
