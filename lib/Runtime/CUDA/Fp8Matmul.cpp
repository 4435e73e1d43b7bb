//===- Fp8Matmul.cpp - fp8 matmuls with activations quantized per call ----===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlxGpuMatmulFp8 (GPURuntime.h): x is quantized to e4m3 by the runtime's
// own kernels (Fp8Quantize.cu: per tensor the amax, then per row the
// quantized values and their scale), then
// cuBLASLt multiplies the fp8 operands with their scales. Hopper's fp8
// kernels take only the "TN" layout, which is x m x k times the weight
// n x k transposed, and either two per-tensor scales or two outer vectors
// (per row of x, per column of c); a per-channel weight scale thus comes
// with a per-row activation scale, a per-tensor one with a per-tensor
// activation scale (the faster kernels on the H100).
//
//===----------------------------------------------------------------------===//

#include "CUBLASLtABI.h"
#include "CUBLASLtMatmul.h"
#include "CUDADriver.h"
#include "KernelModule.h"
#include "RLX/Runtime/CUDA/CUDARuntime.h"

#include <mutex>
#include <string>

using namespace rlx::cuda;

namespace {

/// Fp8Quantize.cu's block size.
constexpr unsigned kThreads = 256;

std::mutex kernelMutex;
KernelModule fp8Module(fp8QuantizeImage, "RLX_FP8_QUANTIZE_MODULE",
                       "rlxGpuMatmulFp8", "the fp8 quantization kernels");
/// Per float RlxGpuMatmulType: the amax and the quantize kernel.
Handle kernels[3][2] = {};

/// The amax (`quantize` false) or quantize kernel for x of `type`, or null.
Handle kernel(const Driver &d, int32_t type, bool quantize) {
  std::lock_guard<std::mutex> lock(kernelMutex);
  Handle &function = kernels[type][quantize];
  if (function)
    return function;
  Handle module = fp8Module.load(d);
  if (!module)
    return nullptr;
  static const char *const types[] = {"f32", "bf16", "f16"};
  std::string name =
      std::string(quantize ? "rlx_fp8_quantize_" : "rlx_fp8_amax_") +
      types[type];
  Handle f = nullptr;
  if (!check(d.cuModuleGetFunction(&f, module, name.c_str()),
             "cuModuleGetFunction"))
    return nullptr;
  function = f;
  return function;
}

/// cudaDataType_t of a float RlxGpuMatmulType.
int floatType(int32_t type) {
  return type == RLX_GPU_MATMUL_F32    ? rlx::cublaslt::kR32F
         : type == RLX_GPU_MATMUL_BF16 ? rlx::cublaslt::kR16BF
                                       : rlx::cublaslt::kR16F;
}

/// The reason the problem is not taken, or empty.
std::string unsupported(int32_t type, int32_t weight, int32_t scaling,
                        int64_t m, int64_t n, int64_t k) {
  if (type != RLX_GPU_MATMUL_F32 && type != RLX_GPU_MATMUL_BF16 &&
      type != RLX_GPU_MATMUL_F16)
    return "unknown type " + std::to_string(type);
  if (weight != RLX_GPU_FP8_E4M3 && weight != RLX_GPU_FP8_E5M2)
    return "unknown weight format " + std::to_string(weight);
  if (scaling != RLX_GPU_FP8_PER_TENSOR && scaling != RLX_GPU_FP8_PER_CHANNEL)
    return "unknown scaling " + std::to_string(scaling);
  if (m < 0 || n < 1 || k < 1 || k % 16 || n % 8)
    return "a " + std::to_string(m) + "x" + std::to_string(n) + "x" +
           std::to_string(k) +
           " (m x n x k) problem (cuBLASLt's fp8 kernels need k a multiple "
           "of 16 and n of 8)";
  if (m > INT32_MAX)
    return "more than 2^31 rows";
  return "";
}

} // namespace

extern "C" void rlxGpuMatmulFp8(int32_t type, int32_t weight, int32_t scaling,
                                int64_t m, int64_t n, int64_t k, const void *x,
                                const void *w, const float *scale, void *c) {
  std::string reason = unsupported(type, weight, scaling, m, n, k);
  if (!reason.empty()) {
    recordError("rlxGpuMatmulFp8: " + reason);
    return;
  }
  if (m == 0)
    return;
  const Driver *d = ready();
  Handle amax = d ? kernel(*d, type, /*quantize=*/false) : nullptr;
  Handle quantize = amax ? kernel(*d, type, /*quantize=*/true) : nullptr;
  if (!quantize)
    return;

  // One allocation: q (m x k bytes), then the scales (one per tensor, m
  // per channel) and, per tensor, the amax, each 16-byte aligned as
  // cuBLASLt's operands and scale vectors must be.
  bool perRow = scaling == RLX_GPU_FP8_PER_CHANNEL;
  auto aligned = [](size_t bytes) { return (bytes + 15) / 16 * 16; };
  size_t qBytes = aligned(size_t(m) * size_t(k));
  size_t scaleBytes = aligned(size_t(perRow ? m : 1) * sizeof(float));
  size_t bytes = qBytes + scaleBytes + (perRow ? 0 : 16);
  Handle stream = userStream();
  CUdeviceptr buffer = 0;
  if (!check(d->cuMemAllocAsync(&buffer, bytes, stream), "cuMemAllocAsync"))
    return;
  CUdeviceptr q = buffer, xScales = buffer + qBytes,
              amaxCell = xScales + scaleBytes;
  int32_t perRowFlag = perRow;
  void *amaxArgs[] = {&x, &k, &amaxCell};
  void *quantizeArgs[] = {&x, &k, &perRowFlag, &amaxCell, &q, &xScales};
  // Per tensor, the rows' amaxes meet in one atomic maximum from 0 before
  // any row is quantized; per channel each block takes its row's.
  bool ok =
      (perRow || (check(d->cuMemsetD32Async(amaxCell, 0, 1, stream),
                        "cuMemsetD32Async") &&
                  check(d->cuLaunchKernel(amax, unsigned(m), 1, 1, kThreads, 1,
                                          1, 0, stream, amaxArgs, nullptr),
                        "cuLaunchKernel"))) &&
      check(d->cuLaunchKernel(quantize, unsigned(m), 1, 1, kThreads, 1, 1, 0,
                              stream, quantizeArgs, nullptr),
            "cuLaunchKernel");
  if (ok) {
    rlx::cublaslt::Problem problem;
    problem.aType = rlx::cublaslt::kR8FE4M3;
    problem.bType = weight == RLX_GPU_FP8_E4M3 ? rlx::cublaslt::kR8FE4M3
                                               : rlx::cublaslt::kR8FE5M2;
    problem.cType = floatType(type);
    problem.compute = rlx::cublaslt::kCompute32F;
    problem.scaleType = rlx::cublaslt::kR32F;
    problem.epilogue = rlx::cublaslt::kEpilogueDefault;
    problem.scaleMode = perRow ? rlx::cublaslt::kScaleOuterVec32F
                               : rlx::cublaslt::kScaleScalar32F;
    problem.transA = false;
    problem.transB = true;
    problem.batch = 1;
    problem.m = m;
    problem.n = n;
    problem.k = k;
    problem.name = std::string("fp8 ") +
                   (weight == RLX_GPU_FP8_E4M3 ? "e4m3" : "e5m2") +
                   (perRow ? " per channel" : " per tensor");
    problem.rlxEpilogue = RLX_GPU_MATMUL_NONE;
    rlx::cublaslt::matmul(problem, reinterpret_cast<const void *>(q), w,
                          nullptr, c, reinterpret_cast<const void *>(xScales),
                          scale);
  }
  // Stream-ordered: the free waits for the matmul that reads q.
  check(d->cuMemFreeAsync(buffer, stream), "cuMemFreeAsync");
}
