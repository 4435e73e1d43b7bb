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
// is already loaded), so programs link no cuBLAS; the calls are the
// runtimes' shared BLAS-Lt binding (Common/BlasLt.h), column-major
// (ColumnMajorMatmul.h). Descriptors are made once per problem and kept,
// with the fastest of the heuristic's first candidates on the first call's
// operands.
//
//===----------------------------------------------------------------------===//

#include "BlasLt.h"
#include "CUBLASLtABI.h"
#include "CUBLASLtMatmul.h"
#include "CUDADriver.h"
#include "ColumnMajorMatmul.h"
#include "Gemv.h"
#include "RLX/Runtime/CUDA/CUDARuntime.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <vector>

using namespace rlx::cublaslt;
using rlx::cuda::check;
using rlx::cuda::recordError;

namespace {

using rlx::runtime::blaslt::Descriptors;

/// cuBLASLt's names and enum values (CUBLASLtABI.h).
constexpr rlx::runtime::blaslt::Dialect kDialect = {"cuBLASLt",
                                                    "cublasLt",
                                                    /*namesStatus=*/true,
                                                    kOpN,
                                                    kOpT,
                                                    kDescTransA,
                                                    kDescTransB,
                                                    kDescEpilogue,
                                                    kLayoutBatchCount,
                                                    kLayoutStridedBatchOffset,
                                                    kPrefMaxWorkspaceBytes};

using Lt = rlx::runtime::blaslt::Library;

/// Workspace cuBLASLt may use per call (its recommendation for Hopper).
constexpr uint64_t kMaxWorkspace = 32ull << 20;

/// cuBLASLt with a handle, or null (with the reason recorded).
const Lt *lt() {
  static Lt lib(kDialect, rlx::cuda::errors());
  // $RLX_CUBLASLT, if set, is the only one tried (the unit test's fake).
  static bool loaded =
      lib.open("RLX_CUBLASLT", {"libcublasLt.so.13", "libcublasLt.so.12"});
  return loaded ? &lib : nullptr;
}

/// One problem's descriptors, the heuristic's candidate algorithms (best
/// guess first) and the one in use.
struct Plan : Descriptors {
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

/// Descriptors of the column-major problem C^T = op(B^T) op(A^T) and the
/// heuristic's candidate algorithms for it; `scaleA` and `scaleB` as for
/// rlx::cublaslt::matmul (the heuristic rejects outer-vector scaling
/// without them).
bool makePlan(const Lt &lib, const Problem &p, Plan &plan, const void *scaleA,
              const void *scaleB) {
  rlx::runtime::ColumnMajorMatmul problem =
      rlx::runtime::columnMajorMatmul(p.transA, p.transB, p.m, p.n, p.k);
  auto setDesc = [&](int attribute, const void *value, size_t size) {
    return lib.setDescAttribute(plan.desc, attribute, value, size);
  };
  if (!lib.createDesc(plan, problem, p.compute, p.scaleType, p.epilogue))
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
  if (!lib.createLayouts(plan, problem, p.bType, p.aType, p.cType, p.batch))
    return false;

  plan.candidates.resize(tuning() ? kCandidates : 1);
  int found = 0;
  bool ok = lib.heuristic(plan, kMaxWorkspace, plan.candidates.size(),
                          plan.candidates.data(), found);
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
  return lib.matmul(plan, one, zero, a, b, c, &algo.algo,
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
    return lib->setDescAttribute(plan.desc, attribute, &pointer,
                                 sizeof(pointer));
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
  lib->check(
      runPlan(*lib, problem, plan, plan.chosen, a, b, c, workspace, stream),
      "Matmul");
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
  // A few rows times a weight: the runtime's own kernel (Gemv.cpp says why).
  if (rlx::cuda::gemv(type, epilogue, transA, transB, batch, m, n, k, a, b,
                      bias, c))
    return;
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
