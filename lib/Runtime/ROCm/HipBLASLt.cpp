//===- HipBLASLt.cpp - matmuls with epilogues through hipBLASLt -----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlxGpuMatmul (ROCmRuntime.h). hipBLASLt is opened at the first call
// ($RLX_HIPBLASLT, else libhipblaslt.so, .so.1, .so.0), so programs link no
// ROCm library. Like cuBLASLt it is column-major (ColumnMajorMatmul.h).
// Descriptors and the heuristic's first algorithm are made once per
// problem and kept. The values below are those of hipblaslt.h and
// hipblas-common.h (ROCm 6); no ROCm header is needed to build.
//
// Never run against the real hipBLASLt (no AMD GPU here): the unit test
// checks the calls against a stand-in library.
//
//===----------------------------------------------------------------------===//

#include "ColumnMajorMatmul.h"
#include "HIP.h"
#include "RLX/Runtime/ROCm/ROCmRuntime.h"

#include <cstdlib>
#include <dlfcn.h>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

using namespace rlx::rocm;

namespace {
using Status = int;

// hipDataType, hipblasComputeType_t, hipblasOperation_t.
constexpr int kR32F = 0, kR16F = 2, kR16BF = 14;
constexpr int kCompute32F = 2;
constexpr int32_t kOpN = 111, kOpT = 112;
// hipblasLtMatmulDescAttributes_t, hipblasLtMatrixLayoutAttribute_t,
// hipblasLtMatmulPreferenceAttributes_t.
constexpr int kDescTransA = 0, kDescTransB = 1, kDescEpilogue = 2,
              kDescBiasPointer = 3, kDescBiasDataType = 4;
constexpr int kLayoutBatchCount = 0, kLayoutStridedBatchOffset = 1;
constexpr int kPrefMaxWorkspaceBytes = 1;
// hipblasLtEpilogue_t, in the order of RlxGpuMatmulEpilogue.
constexpr uint32_t kEpilogues[] = {1, 4, 2, 6, 32, 36};

/// Workspace hipBLASLt may use per call; every call gets this much
/// (stream-ordered), since the heuristic result's layout differs between
/// ROCm releases and only its leading algorithm is read.
constexpr uint64_t kWorkspace = 32ull << 20;

/// Room for one hipblasLtMatmulHeuristicResult_t of any release (the
/// algorithm, opaque, comes first).
struct alignas(16) HeuristicResult {
  unsigned char bytes[1024];
};

/// The hipBLASLt entry points, looked up once.
struct Lt {
  Status (*create)(Handle *);
  Status (*descCreate)(Handle *, int, int);
  Status (*descSetAttribute)(Handle, int, const void *, size_t);
  Status (*layoutCreate)(Handle *, int, uint64_t, uint64_t, int64_t);
  Status (*layoutSetAttribute)(Handle, int, const void *, size_t);
  Status (*preferenceCreate)(Handle *);
  Status (*preferenceSetAttribute)(Handle, int, const void *, size_t);
  Status (*preferenceDestroy)(Handle);
  // The results as untyped memory: the struct differs between releases
  // (and a stand-in defines the function with its own idea of it).
  Status (*algoGetHeuristic)(Handle, Handle, Handle, Handle, Handle, Handle,
                             Handle, int, void *, int *);
  Status (*matmul)(Handle, Handle, const void *, const void *, Handle,
                   const void *, Handle, const void *, const void *, Handle,
                   void *, Handle, const void *, void *, size_t, Handle);
  Handle handle;
};

bool checkLt(Status status, const char *call) {
  if (status == 0)
    return true;
  errors().record(std::string("hipBLASLt: ") + call + " failed: status " +
                  std::to_string(status));
  return false;
}

/// hipBLASLt with a handle, or null (with the reason recorded).
const Lt *lt() {
  static Lt lib;
  static bool loaded = [] {
    const char *chosen = std::getenv("RLX_HIPBLASLT");
    std::string tried;
    void *so = nullptr;
    for (const char *path : {chosen, "libhipblaslt.so", "libhipblaslt.so.1",
                             "libhipblaslt.so.0"}) {
      if (!path || !*path)
        continue;
      so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
      tried += (tried.empty() ? "" : ", ") + std::string(path);
      // Only the library asked for.
      if (so || path == chosen)
        break;
    }
    if (!so) {
      errors().record("cannot load hipBLASLt (tried " + tried + ")");
      return false;
    }
    bool ok = true;
    auto bind = [&](auto &fn, const char *name) {
      rlx::runtime::bindSymbol(so, fn, name, "hipBLASLt", ok, errors());
    };
    bind(lib.create, "hipblasLtCreate");
    bind(lib.descCreate, "hipblasLtMatmulDescCreate");
    bind(lib.descSetAttribute, "hipblasLtMatmulDescSetAttribute");
    bind(lib.layoutCreate, "hipblasLtMatrixLayoutCreate");
    bind(lib.layoutSetAttribute, "hipblasLtMatrixLayoutSetAttribute");
    bind(lib.preferenceCreate, "hipblasLtMatmulPreferenceCreate");
    bind(lib.preferenceSetAttribute, "hipblasLtMatmulPreferenceSetAttribute");
    bind(lib.preferenceDestroy, "hipblasLtMatmulPreferenceDestroy");
    bind(lib.algoGetHeuristic, "hipblasLtMatmulAlgoGetHeuristic");
    bind(lib.matmul, "hipblasLtMatmul");
    return ok && checkLt(lib.create(&lib.handle), "hipblasLtCreate");
  }();
  return loaded ? &lib : nullptr;
}

/// A problem's descriptors and algorithm.
struct Plan {
  Handle desc, a, b, c;
  HeuristicResult algo;
};

using Key = std::tuple<int32_t, int32_t, int32_t, int32_t, int64_t, int64_t,
                       int64_t, int64_t>;

int dataType(int32_t type) {
  switch (type) {
  case RLX_GPU_MATMUL_F32:
    return kR32F;
  case RLX_GPU_MATMUL_BF16:
    return kR16BF;
  case RLX_GPU_MATMUL_F16:
    return kR16F;
  }
  return -1;
}

/// A column-major rows x cols layout (batch of them `stride` apart).
Handle layout(const Lt &lib, int type, uint64_t rows, uint64_t cols,
              int64_t batch, int64_t stride) {
  Handle h = nullptr;
  if (!checkLt(lib.layoutCreate(&h, type, rows, cols, rows),
               "hipblasLtMatrixLayoutCreate"))
    return nullptr;
  if (batch == 1)
    return h;
  int32_t count = static_cast<int32_t>(batch);
  if (!checkLt(
          lib.layoutSetAttribute(h, kLayoutBatchCount, &count, sizeof(count)),
          "hipblasLtMatrixLayoutSetAttribute") ||
      !checkLt(lib.layoutSetAttribute(h, kLayoutStridedBatchOffset, &stride,
                                      sizeof(stride)),
               "hipblasLtMatrixLayoutSetAttribute"))
    return nullptr;
  return h;
}

bool makePlan(const Lt &lib, const Key &key, Plan &plan) {
  auto [type, epilogue, transA, transB, batch, m, n, k] = key;
  int data = dataType(type);
  rlx::runtime::ColumnMajorMatmul problem =
      rlx::runtime::columnMajorMatmul(transA, transB, m, n, k);
  int32_t opA = problem.a.transposed ? kOpT : kOpN,
          opB = problem.b.transposed ? kOpT : kOpN;
  uint32_t epi = kEpilogues[epilogue];
  auto setDesc = [&](int attribute, const void *value, size_t size) {
    return checkLt(lib.descSetAttribute(plan.desc, attribute, value, size),
                   "hipblasLtMatmulDescSetAttribute");
  };
  if (!checkLt(lib.descCreate(&plan.desc, kCompute32F, kR32F),
               "hipblasLtMatmulDescCreate") ||
      !setDesc(kDescTransA, &opA, sizeof(opA)) ||
      !setDesc(kDescTransB, &opB, sizeof(opB)) ||
      !setDesc(kDescEpilogue, &epi, sizeof(epi)) ||
      !setDesc(kDescBiasDataType, &data, sizeof(data)))
    return false;
  plan.a = layout(lib, data, problem.a.rows, problem.a.cols, batch,
                  problem.a.stride);
  plan.b = layout(lib, data, problem.b.rows, problem.b.cols, batch,
                  problem.b.stride);
  plan.c = layout(lib, data, problem.c.rows, problem.c.cols, batch,
                  problem.c.stride);
  if (!plan.a || !plan.b || !plan.c)
    return false;

  Handle pref = nullptr;
  if (!checkLt(lib.preferenceCreate(&pref), "hipblasLtMatmulPreferenceCreate"))
    return false;
  int found = 0;
  bool ok =
      checkLt(lib.preferenceSetAttribute(pref, kPrefMaxWorkspaceBytes,
                                         &kWorkspace, sizeof(kWorkspace)),
              "hipblasLtMatmulPreferenceSetAttribute") &&
      checkLt(lib.algoGetHeuristic(lib.handle, plan.desc, plan.a, plan.b,
                                   plan.c, plan.c, pref, 1, &plan.algo, &found),
              "hipblasLtMatmulAlgoGetHeuristic");
  lib.preferenceDestroy(pref);
  if (ok && found == 0) {
    errors().record("hipBLASLt: no algorithm for a matmul of type " +
                    std::to_string(type) + ", " + std::to_string(batch) +
                    " x " + std::to_string(m) + "x" + std::to_string(n) + "x" +
                    std::to_string(k) + " (batch x m x n x k), epilogue " +
                    std::to_string(epilogue));
    return false;
  }
  return ok;
}
} // namespace

extern "C" void rlxGpuMatmul(int32_t type, int32_t epilogue, int32_t transA,
                             int32_t transB, int64_t batch, int64_t m,
                             int64_t n, int64_t k, const void *a, const void *b,
                             const void *bias, void *c) {
  if (dataType(type) < 0 || epilogue < RLX_GPU_MATMUL_NONE ||
      epilogue > RLX_GPU_MATMUL_GELU_BIAS) {
    errors().record("rlxGpuMatmul: unknown type " + std::to_string(type) +
                    " or epilogue " + std::to_string(epilogue));
    return;
  }
  const HIP *h = hip();
  const Lt *lib = h ? lt() : nullptr;
  if (!lib)
    return;

  static std::mutex plansMutex;
  static std::map<Key, Plan> plans;
  Key key{type, epilogue, transA, transB, batch, m, n, k};
  Plan plan;
  {
    std::lock_guard<std::mutex> lock(plansMutex);
    auto it = plans.find(key);
    if (it == plans.end()) {
      if (!makePlan(*lib, key, plan))
        return;
      it = plans.emplace(key, plan).first;
    }
    plan = it->second;
  }
  // The bias pointer is per call: the plan's descriptor takes it now.
  if (!checkLt(lib->descSetAttribute(plan.desc, kDescBiasPointer, &bias,
                                     sizeof(bias)),
               "hipblasLtMatmulDescSetAttribute"))
    return;

  Handle stream = userStream();
  void *workspace = nullptr;
  if (!check(h->hipMallocAsync(&workspace, kWorkspace, stream),
             "hipMallocAsync"))
    return;
  float one = 1.0f, zero = 0.0f;
  checkLt(lib->matmul(lib->handle, plan.desc, &one, b, plan.a, a, plan.b, &zero,
                      c, plan.c, c, plan.c, plan.algo.bytes, workspace,
                      kWorkspace, stream),
          "hipblasLtMatmul");
  check(h->hipFreeAsync(workspace, stream), "hipFreeAsync");
  // Without a caller's stream the call is synchronous, as every entry
  // point of compiled code is.
  if (!stream)
    check(h->hipStreamSynchronize(nullptr), "hipStreamSynchronize");
}
