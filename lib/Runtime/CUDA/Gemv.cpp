//===- Gemv.cpp - launches of the skinny matmul kernels -------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Why rlxGpuMatmul has a kernel of its own beside cuBLASLt: at one to four
// rows (a decode step) a matmul reads its weight once and does little else,
// and cuBLASLt's kernels for that shape reach about 80% of the H200's
// copy rate (measured by bench/gpu/decode.py's profile: 3.46 TB/s over
// Llama-3.1-8B's matmuls). Gemv.cu streams the weight at the memory's rate.
//
//===----------------------------------------------------------------------===//

#include "Gemv.h"

#include "CUDADriver.h"
#include "GemvKernel.h"
#include "KernelModule.h"
#include "RLX/Runtime/CUDA/CUDARuntime.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

using namespace rlx::cuda;

namespace {

std::mutex kernelMutex;
KernelModule gemvModule(gemvImage, "RLX_GEMV_MODULE", "rlxGpuMatmul",
                        "the skinny matmul kernels");
/// Per type (RlxGpuMatmulType f32, bf16, f16) and row count.
Handle kernels[3][kGemvMaxRows] = {};

bool enabled() {
  static const bool on = [] {
    const char *v = std::getenv("RLX_GPU_GEMV");
    return !v || std::strcmp(v, "0") != 0;
  }();
  return on;
}

const char *typeName(int32_t type) {
  return type == RLX_GPU_MATMUL_F32    ? "f32"
         : type == RLX_GPU_MATMUL_BF16 ? "bf16"
                                       : "f16";
}

int typeSlot(int32_t type) {
  return type == RLX_GPU_MATMUL_F32 ? 0 : type == RLX_GPU_MATMUL_BF16 ? 1 : 2;
}

Handle kernel(const Driver &d, int32_t type, int64_t m) {
  std::lock_guard<std::mutex> lock(kernelMutex);
  Handle &f = kernels[typeSlot(type)][m - 1];
  if (f)
    return f;
  Handle mod = gemvModule.load(d);
  if (!mod)
    return nullptr;
  std::string name = std::string("rlx_gemv_") + typeName(type) + "_m" +
                     std::to_string(m);
  if (!check(d.cuModuleGetFunction(&f, mod, name.c_str()),
             "cuModuleGetFunction"))
    return nullptr;
  return f;
}

bool aligned(const void *p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; }

} // namespace

bool rlx::cuda::gemv(int32_t type, int32_t epilogue, int32_t transA,
                     int32_t transB, int64_t batch, int64_t m, int64_t n,
                     int64_t k, const void *a, const void *b,
                     const void *bias, void *c) {
  int64_t elementBytes = type == RLX_GPU_MATMUL_F32 ? 4 : 2;
  bool floatType = type == RLX_GPU_MATMUL_F32 || type == RLX_GPU_MATMUL_BF16 ||
                   type == RLX_GPU_MATMUL_F16;
  if (!floatType || transA || !transB || batch != 1 || m < 1 ||
      m > kGemvMaxRows || n < 1 || k < 1 || (k * elementBytes) % 16 ||
      (epilogue != RLX_GPU_MATMUL_NONE && epilogue != RLX_GPU_MATMUL_BIAS) ||
      !aligned(a) || !aligned(b) || !enabled() || !gemvImage().data)
    return false;
  const Driver *d = ready();
  Handle function = d ? kernel(*d, type, m) : nullptr;
  if (!function)
    return true; // the reason is recorded
  GemvParams params{};
  params.x = a;
  params.w = b;
  params.bias = epilogue == RLX_GPU_MATMUL_BIAS ? bias : nullptr;
  params.c = c;
  params.n = n;
  params.k = k;
  void *args[] = {&params};
  int64_t perBlock = (kGemvThreads / 32) * kGemvColumns;
  if (launchOnCallerStream(*d, function,
                           unsigned((n + perBlock - 1) / perBlock), 1, 1,
                           kGemvThreads, 0, args))
    finishWithoutCallerStream(*d);
  return true;
}
