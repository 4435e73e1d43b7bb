//===- CUBLASLt.cpp - matmuls with epilogues through cuBLASLt -------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlxGpuMatmul (CUDARuntime.h), and the cuBLASLt call of rlxGpuMatmulFp8
// (CUBLASLtMatmul.h). cuBLASLt is opened at the first call
// ($RLX_CUBLASLT, else libcublasLt.so.13 or .12; in a PyTorch process its copy
// is already loaded), so programs link no cuBLAS. cuBLASLt is column-major: a
// row-major C = A B is computed as the column-major C^T = B^T A^T, whose
// operands are the row-major buffers read as they are, and whose per-row
// bias is the per-column bias of C. Descriptors are made once per
// problem and kept, with the fastest of the heuristic's first candidates
// on the first call's operands.
//
//===----------------------------------------------------------------------===//

#include "CUBLASLtABI.h"
#include "CUBLASLtMatmul.h"
#include "CUDADriver.h"
#include "ColumnMajorMatmul.h"
#include "RLX/Runtime/CUDA/CUDARuntime.h"

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>
#include <map>
#include <mutex>
#include <string>
#include <vector>

using namespace rlx::cublaslt;
using rlx::cuda::check;
using rlx::cuda::recordError;

namespace {

/// The cuBLASLt entry points, looked up once.
struct Lt {
  Status (*create)(Handle *);
  Status (*descCreate)(Handle *, int, int);
  Status (*descSetAttribute)(Handle, int, const void *, size_t);
  Status (*layoutCreate)(Handle *, int, uint64_t, uint64_t, int64_t);
  Status (*layoutSetAttribute)(Handle, int, const void *, size_t);
  Status (*preferenceCreate)(Handle *);
  Status (*preferenceSetAttribute)(Handle, int, const void *, size_t);
  Status (*preferenceDestroy)(Handle);
  Status (*algoGetHeuristic)(Handle, Handle, Handle, Handle, Handle, Handle,
                             Handle, int, HeuristicResult *, int *);
  Status (*matmul)(Handle, Handle, const void *, const void *, Handle,
                   const void *, Handle, const void *, const void *, Handle,
                   void *, Handle, const Algo *, void *, size_t, Handle);
  const char *(*statusName)(Status);
  Handle handle;
};

/// Workspace cuBLASLt may use per call (its recommendation for Hopper).
constexpr uint64_t kMaxWorkspace = 32ull << 20;

bool checkLt(const Lt &lt, Status status, const char *call) {
  if (status == 0)
    return true;
  recordError(std::string("cuBLASLt: ") + call +
              " failed: " + lt.statusName(status) + " (" +
              std::to_string(status) + ")");
  return false;
}

/// cuBLASLt with a handle, or null (with the reason recorded).
const Lt *lt() {
  static Lt lib;
  static bool loaded = [] {
    // $RLX_CUBLASLT, if set, is the only one tried (the unit test's fake).
    std::vector<const char *> paths = {"libcublasLt.so.13",
                                       "libcublasLt.so.12"};
    const char *env = std::getenv("RLX_CUBLASLT");
    if (env && *env)
      paths = {env};
    std::string tried;
    void *so = nullptr;
    for (const char *path : paths) {
      if (so)
        break;
      so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
      tried += tried.empty() ? path : std::string(", ") + path;
    }
    if (!so) {
      recordError("cannot load cuBLASLt (tried " + tried + ")");
      return false;
    }
    bool ok = true;
    auto bind = [&](auto &fn, const char *name) {
      rlx::runtime::bindSymbol(so, fn, name, "cuBLASLt", ok,
                              rlx::cuda::errors());
    };
    bind(lib.create, "cublasLtCreate");
    bind(lib.descCreate, "cublasLtMatmulDescCreate");
    bind(lib.descSetAttribute, "cublasLtMatmulDescSetAttribute");
    bind(lib.layoutCreate, "cublasLtMatrixLayoutCreate");
    bind(lib.layoutSetAttribute, "cublasLtMatrixLayoutSetAttribute");
    bind(lib.preferenceCreate, "cublasLtMatmulPreferenceCreate");
    bind(lib.preferenceSetAttribute, "cublasLtMatmulPreferenceSetAttribute");
    bind(lib.preferenceDestroy, "cublasLtMatmulPreferenceDestroy");
    bind(lib.algoGetHeuristic, "cublasLtMatmulAlgoGetHeuristic");
    bind(lib.matmul, "cublasLtMatmul");
    bind(lib.statusName, "cublasLtGetStatusName");
    return ok && checkLt(lib, lib.create(&lib.handle), "cublasLtCreate");
  }();
  return loaded ? &lib : nullptr;
}

/// One problem's descriptors, the heuristic's candidate algorithms (best
/// guess first) and the one in use.
struct Plan {
  Handle desc, a, b, c;
  std::vector<HeuristicResult> candidates;
  HeuristicResult chosen;
};

/// Candidates timed at a problem's first call, and calls timed for each.
/// $RLX_CUBLASLT_TUNE=0 takes the heuristic's first guess untimed.
constexpr int kCandidates = 8, kTimedCalls = 3;

bool tuning() {
  static const bool on = [] {
    const char *env = std::getenv("RLX_CUBLASLT_TUNE");
    return !env || std::string(env) != "0";
  }();
  return on;
}

/// A column-major layout of `rows` x `cols` (leading dim `rows`), `batch`
/// of them `stride` elements apart.
Handle layout(const Lt &lib, int type, uint64_t rows, uint64_t cols,
              int64_t batch, int64_t stride) {
  Handle h = nullptr;
  if (!checkLt(lib, lib.layoutCreate(&h, type, rows, cols, rows),
               "cublasLtMatrixLayoutCreate"))
    return nullptr;
  if (batch == 1)
    return h;
  int32_t count = static_cast<int32_t>(batch);
  if (!checkLt(lib,
               lib.layoutSetAttribute(h, kLayoutBatchCount, &count,
                                      sizeof(count)),
               "cublasLtMatrixLayoutSetAttribute") ||
      !checkLt(lib,
               lib.layoutSetAttribute(h, kLayoutStridedBatchOffset, &stride,
                                      sizeof(stride)),
               "cublasLtMatrixLayoutSetAttribute"))
    return nullptr;
  return h;
}

/// Descriptors of the column-major problem C^T = op(B^T) op(A^T) and the
/// heuristic's candidate algorithms for it; `scaleA` and `scaleB` as for
/// rlx::cublaslt::matmul (the heuristic rejects outer-vector scaling
/// without them).
bool makePlan(const Lt &lib, const Problem &p, Plan &plan, const void *scaleA,
              const void *scaleB) {
  rlx::runtime::ColumnMajorMatmul problem =
      rlx::runtime::columnMajorMatmul(p.transA, p.transB, p.m, p.n, p.k);
  int32_t opA = problem.a.transposed ? kOpT : kOpN,
          opB = problem.b.transposed ? kOpT : kOpN;
  auto setDesc = [&](int attribute, const void *value, size_t size) {
    return checkLt(lib,
                   lib.descSetAttribute(plan.desc, attribute, value, size),
                   "cublasLtMatmulDescSetAttribute");
  };
  if (!checkLt(lib, lib.descCreate(&plan.desc, p.compute, p.scaleType),
               "cublasLtMatmulDescCreate") ||
      !setDesc(kDescTransA, &opA, sizeof(opA)) ||
      !setDesc(kDescTransB, &opB, sizeof(opB)) ||
      !setDesc(kDescEpilogue, &p.epilogue, sizeof(p.epilogue)))
    return false;
  // Only float products take a bias (of their own type).
  if (p.scaleType == kR32F && p.aType == p.cType &&
      !setDesc(kDescBiasDataType, &p.cType, sizeof(p.cType)))
    return false;
  // cuBLASLt's A is our b and its B our a.
  if (p.scaleMode >= 0 &&
      (!setDesc(kDescAScaleMode, &p.scaleMode, sizeof(p.scaleMode)) ||
       !setDesc(kDescBScaleMode, &p.scaleMode, sizeof(p.scaleMode)) ||
       !setDesc(kDescAScalePointer, &scaleB, sizeof(scaleB)) ||
       !setDesc(kDescBScalePointer, &scaleA, sizeof(scaleA))))
    return false;
  plan.a = layout(lib, p.bType, problem.a.rows, problem.a.cols, p.batch,
                  problem.a.stride);
  plan.b = layout(lib, p.aType, problem.b.rows, problem.b.cols, p.batch,
                  problem.b.stride);
  plan.c = layout(lib, p.cType, problem.c.rows, problem.c.cols, p.batch,
                  problem.c.stride);
  if (!plan.a || !plan.b || !plan.c)
    return false;

  Handle pref = nullptr;
  if (!checkLt(lib, lib.preferenceCreate(&pref),
               "cublasLtMatmulPreferenceCreate"))
    return false;
  plan.candidates.resize(tuning() ? kCandidates : 1);
  int found = 0;
  bool ok = checkLt(lib,
                    lib.preferenceSetAttribute(pref, kPrefMaxWorkspaceBytes,
                                               &kMaxWorkspace,
                                               sizeof(kMaxWorkspace)),
                    "cublasLtMatmulPreferenceSetAttribute") &&
            checkLt(lib,
                    lib.algoGetHeuristic(lib.handle, plan.desc, plan.a, plan.b,
                                         plan.c, plan.c, pref,
                                         plan.candidates.size(),
                                         plan.candidates.data(), &found),
                    "cublasLtMatmulAlgoGetHeuristic");
  lib.preferenceDestroy(pref);
  if (ok && found == 0) {
    recordError("cuBLASLt: no algorithm for a " + p.name + " matmul of " +
                std::to_string(p.batch) + " x " + std::to_string(p.m) + "x" +
                std::to_string(p.n) + "x" + std::to_string(p.k) +
                " (batch x m x n x k), epilogue " +
                std::to_string(p.rlxEpilogue));
    return false;
  }
  plan.candidates.resize(found);
  plan.chosen = plan.candidates.front();
  return ok;
}

/// cuBLASLt's C^T = B^T A^T for the problem's a, b, c with `algo`; alpha
/// and beta are of the problem's scale type.
Status runPlan(const Lt &lib, const Problem &p, const Plan &plan,
               const HeuristicResult &algo, const void *a, const void *b,
               void *c, rlx::cuda::CUdeviceptr workspace, Handle stream) {
  float onef = 1.0f, zerof = 0.0f;
  int32_t onei = 1, zeroi = 0;
  bool integer = p.scaleType == kR32I;
  const void *one = integer ? static_cast<const void *>(&onei) : &onef;
  const void *zero = integer ? static_cast<const void *>(&zeroi) : &zerof;
  return lib.matmul(lib.handle, plan.desc, one, b, plan.a, a, plan.b, zero, c,
                    plan.c, c, plan.c, &algo.algo,
                    reinterpret_cast<void *>(workspace), algo.workspaceSize,
                    stream);
}

/// Chooses the fastest candidate on the call's own operands: each runs
/// once, then kTimedCalls times between two events. This waits for the
/// stream once, at the problem's first call.
void choose(const rlx::cuda::Driver &d, const Lt &lib, const Problem &p,
            Plan &plan, const void *a, const void *b, void *c,
            rlx::cuda::CUdeviceptr workspace, Handle stream) {
  Handle start = nullptr, stop = nullptr;
  if (!check(d.cuEventCreate(&start, 0), "cuEventCreate") ||
      !check(d.cuEventCreate(&stop, 0), "cuEventCreate"))
    return;
  float best = 0;
  for (const HeuristicResult &candidate : plan.candidates) {
    // A candidate that fails is skipped, not an error.
    if (runPlan(lib, p, plan, candidate, a, b, c, workspace, stream) != 0)
      continue;
    float ms = 0;
    check(d.cuEventRecord(start, stream), "cuEventRecord");
    for (int i = 0; i < kTimedCalls; ++i)
      runPlan(lib, p, plan, candidate, a, b, c, workspace, stream);
    check(d.cuEventRecord(stop, stream), "cuEventRecord");
    if (check(d.cuEventSynchronize(stop), "cuEventSynchronize") &&
        check(d.cuEventElapsedTime(&ms, start, stop), "cuEventElapsedTime") &&
        (best == 0 || ms < best)) {
      best = ms;
      plan.chosen = candidate;
    }
  }
  d.cuEventDestroy(start);
  d.cuEventDestroy(stop);
}

std::mutex planMutex;
std::map<Problem, Plan> plans;

const char *typeName(int32_t type) {
  switch (type) {
  case RLX_GPU_MATMUL_F32:
    return "f32";
  case RLX_GPU_MATMUL_BF16:
    return "bf16";
  case RLX_GPU_MATMUL_F16:
    return "f16";
  case RLX_GPU_MATMUL_S8:
    return "s8";
  }
  return nullptr;
}

/// cudaDataType_t of a float RlxGpuMatmulType's operands, or -1.
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

/// cublasLtEpilogue_t of an RlxGpuMatmulEpilogue, or 0.
uint32_t epilogueValue(int32_t epilogue) {
  static const uint32_t values[] = {kEpilogueDefault, kEpilogueBias,
                                    kEpilogueRelu,    kEpilogueReluBias,
                                    kEpilogueGelu,    kEpilogueGeluBias};
  return epilogue >= 0 && epilogue < 6 ? values[epilogue] : 0;
}

} // namespace

void rlx::cublaslt::matmul(const Problem &problem, const void *a, const void *b,
                           const void *bias, void *c, const void *scaleA,
                           const void *scaleB) {
  const rlx::cuda::Driver *d = rlx::cuda::ready();
  const Lt *lib = d ? lt() : nullptr;
  if (!lib)
    return;

  std::lock_guard<std::mutex> lock(planMutex);
  auto [it, inserted] = plans.try_emplace(problem);
  Plan &plan = it->second;
  if (inserted && !makePlan(*lib, problem, plan, scaleA, scaleB)) {
    plans.erase(it);
    return;
  }
  // The bias and scale pointers are the per-call attributes of the
  // descriptor, which the lock keeps to this call until cublasLtMatmul has
  // read them. cuBLASLt's A is our b.
  auto setPointer = [&](int attribute, const void *pointer) {
    return checkLt(
        *lib,
        lib->descSetAttribute(plan.desc, attribute, &pointer, sizeof(pointer)),
        "cublasLtMatmulDescSetAttribute");
  };
  if ((bias && !setPointer(kDescBiasPointer, bias)) ||
      (problem.scaleMode >= 0 && (!setPointer(kDescAScalePointer, scaleB) ||
                                  !setPointer(kDescBScalePointer, scaleA))))
    return;

  Handle stream = rlx::cuda::userStream();
  bool choosing = inserted && plan.candidates.size() > 1;
  size_t workspaceSize = plan.chosen.workspaceSize;
  if (choosing)
    for (const HeuristicResult &candidate : plan.candidates)
      workspaceSize = std::max(workspaceSize, candidate.workspaceSize);
  rlx::cuda::CUdeviceptr workspace = 0;
  if (workspaceSize &&
      !check(d->cuMemAllocAsync(&workspace, workspaceSize, stream),
             "cuMemAllocAsync"))
    return;
  if (choosing)
    choose(*d, *lib, problem, plan, a, b, c, workspace, stream);
  checkLt(*lib,
          runPlan(*lib, problem, plan, plan.chosen, a, b, c, workspace, stream),
          "cublasLtMatmul");
  if (workspace)
    check(d->cuMemFreeAsync(workspace, stream), "cuMemFreeAsync");
  // Without a caller's stream this ran on the legacy default stream, which
  // the entry point's own streams are ordered with; it returns done, as
  // those entry points do.
  if (!stream)
    check(d->cuStreamSynchronize(nullptr), "cuStreamSynchronize");
}

extern "C" void rlxGpuMatmul(int32_t type, int32_t epilogue, int32_t transA,
                             int32_t transB, int64_t batch, int64_t m,
                             int64_t n, int64_t k, const void *a, const void *b,
                             const void *bias, void *c) {
  bool integer = type == RLX_GPU_MATMUL_S8;
  if (!typeName(type) || !epilogueValue(epilogue) ||
      (integer && epilogue != RLX_GPU_MATMUL_NONE)) {
    recordError("rlxGpuMatmul: unknown type " + std::to_string(type) +
                " or epilogue " + std::to_string(epilogue));
    return;
  }
  Problem problem;
  // int8 products sum in int32 with int32 alpha and beta (cuBLASLt's IMMA
  // path); floats accumulate in f32.
  problem.aType = problem.bType = integer ? kR8I : dataType(type);
  problem.cType = integer ? kR32I : dataType(type);
  problem.compute = integer ? kCompute32I : kCompute32F;
  problem.scaleType = integer ? kR32I : kR32F;
  problem.epilogue = epilogueValue(epilogue);
  problem.scaleMode = -1;
  problem.transA = transA != 0;
  problem.transB = transB != 0;
  problem.batch = batch;
  problem.m = m;
  problem.n = n;
  problem.k = k;
  problem.name = typeName(type);
  problem.rlxEpilogue = epilogue;
  bool withBias = epilogue == RLX_GPU_MATMUL_BIAS ||
                  epilogue == RLX_GPU_MATMUL_RELU_BIAS ||
                  epilogue == RLX_GPU_MATMUL_GELU_BIAS;
  rlx::cublaslt::matmul(problem, a, b, withBias ? bias : nullptr, c, nullptr,
                        nullptr);
}
