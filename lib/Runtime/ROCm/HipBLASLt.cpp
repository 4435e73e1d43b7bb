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
// ROCm library; the calls are the runtimes' shared BLAS-Lt binding
// (Common/BlasLt.h), column-major (ColumnMajorMatmul.h). Descriptors and
// the heuristic's first algorithm are made once per problem and kept. The
// values below are those of hipblaslt.h and hipblas-common.h (ROCm 6); no
// ROCm header is needed to build.
//
// Never run against the real hipBLASLt (no AMD GPU here): the unit test
// checks the calls against a stand-in library.
//
//===----------------------------------------------------------------------===//

#include "BlasLt.h"
#include "HIP.h"
#include "RLX/Runtime/ROCm/ROCmRuntime.h"

#include <map>
#include <mutex>
#include <string>
#include <tuple>

using namespace rlx::rocm;

namespace {
using rlx::runtime::blaslt::Descriptors;
using Lt = rlx::runtime::blaslt::Library;

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

/// hipBLASLt's names and enum values.
constexpr rlx::runtime::blaslt::Dialect kDialect = {"hipBLASLt",
                                                    "hipblasLt",
                                                    /*namesStatus=*/false,
                                                    kOpN,
                                                    kOpT,
                                                    kDescTransA,
                                                    kDescTransB,
                                                    kDescEpilogue,
                                                    kLayoutBatchCount,
                                                    kLayoutStridedBatchOffset,
                                                    kPrefMaxWorkspaceBytes};

/// hipBLASLt with a handle, or null (with the reason recorded).
const Lt *lt() {
  static Lt lib(kDialect, errors());
  static bool loaded =
      lib.open("RLX_HIPBLASLT",
               {"libhipblaslt.so", "libhipblaslt.so.1", "libhipblaslt.so.0"});
  return loaded ? &lib : nullptr;
}

/// A problem's descriptors and algorithm.
struct Plan : Descriptors {
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

bool makePlan(const Lt &lib, const Key &key, Plan &plan) {
  auto [type, epilogue, transA, transB, batch, m, n, k] = key;
  int data = dataType(type);
  rlx::runtime::ColumnMajorMatmul problem =
      rlx::runtime::columnMajorMatmul(transA, transB, m, n, k);
  if (!lib.createDesc(plan, problem, kCompute32F, kR32F,
                      kEpilogues[epilogue]) ||
      !lib.setDescAttribute(plan.desc, kDescBiasDataType, &data,
                            sizeof(data)) ||
      !lib.createLayouts(plan, problem, data, data, data, batch))
    return false;

  int found = 0;
  bool ok = lib.heuristic(plan, kWorkspace, 1, &plan.algo, found);
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
  if (!lib->setDescAttribute(plan.desc, kDescBiasPointer, &bias, sizeof(bias)))
    return;

  Handle stream = userStream();
  void *workspace = nullptr;
  if (!check(h->hipMallocAsync(&workspace, kWorkspace, stream),
             "hipMallocAsync"))
    return;
  float one = 1.0f, zero = 0.0f;
  lib->check(lib->matmul(plan, &one, &zero, a, b, c, plan.algo.bytes, workspace,
                         kWorkspace, stream),
             "Matmul");
  check(h->hipFreeAsync(workspace, stream), "hipFreeAsync");
  // Without a caller's stream the call is synchronous, as every entry
  // point of compiled code is.
  if (!stream)
    check(h->hipStreamSynchronize(nullptr), "hipStreamSynchronize");
}
