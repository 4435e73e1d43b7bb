//===- CUDARuntimeTest.cpp - host-side logic of librlx_cuda_runtime -------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx-cuda-runtime-test SCENARIO: drives the mgpu* functions as compiled
// host code does and prints the driver calls they made (from the fake
// driver, $RLX_CUDA_DRIVER) and the runtime's recorded error; the lit test
// checks both with FileCheck.
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/CUDA/CUDARuntime.h"
#include "RuntimeTestSupport.h"

#include <array>
#include <cstring>

namespace {

/// A matmul as dispatched code calls it; the fakes print the pointers,
/// which here name the operands (a "fail" b makes the fake matmul fail).
void gemm(int32_t type, int32_t epilogue, int32_t transA, int32_t transB,
          int64_t batch, const char *b = "b") {
  static char a[] = "a", bias[] = "bias", c[] = "c";
  printf("gemm a %p b %p bias %p c %p\n", a, b, bias, c);
  rlxGpuMatmul(type, epilogue, transA, transB, batch, 64, 32, 16, a, b,
                    bias, c);
}

/// An fp8 matmul as dispatched code calls it, 64 x 32 x k, on pointers
/// that name the operands; prints the recorded error.
void fp8(int32_t type, int32_t weight, int32_t scaling, int64_t k = 16) {
  static char x[] = "x", w[] = "w", c[] = "c";
  static float scale[32];
  printf("fp8 x %p w %p scale %p c %p\n", x, w, scale, c);
  rlxGpuMatmulFp8(type, weight, scaling, 64, 32, k, x, w, scale, c);
  const char *error = rlxCudaGetLastError();
  printf("fp8 error: %s\n", error ? error : "none");
  rlxCudaClearError();
}

/// An attention as dispatched code calls it, on pointers that name the
/// operands (`misalign` bytes past 16-byte boundaries), contiguous
/// [batch, heads, seq, headDim] or, `seqMajor`, [batch, seq, heads,
/// headDim] read in place; `rowStride` overrides q's row stride.
void attention(int32_t type, int32_t mask, int64_t batch, int64_t heads,
               int64_t kvHeads, int64_t seq, int64_t headDim, int64_t window,
               float scale, bool seqMajor = false, int misalign = 0,
               int64_t rowStride = 0) {
  // Batch, head and row strides of a tensor with `h` heads.
  auto strides = [&](int64_t h) {
    return seqMajor ? std::array<int64_t, 3>{seq * h * headDim, headDim,
                                             h * headDim}
                    : std::array<int64_t, 3>{h * seq * headDim, seq * headDim,
                                             headDim};
  };
  std::array<int64_t, 3> qs = strides(heads), kv = strides(kvHeads);
  if (rowStride)
    qs[2] = rowStride;
  auto at = [&](uintptr_t address) {
    return reinterpret_cast<void *>(address + misalign);
  };
  rlxFlashAttention(type, mask, batch, heads, kvHeads, seq, seq, headDim,
                    window, scale, at(0x7100), qs[0], qs[1], qs[2], at(0x7200),
                    kv[0], kv[1], kv[2], at(0x7300), kv[0], kv[1], kv[2],
                    at(0x7400), qs[0], qs[1], rowStride ? headDim : qs[2]);
  const char *error = rlxCudaGetLastError();
  printf("attention error: %s\n", error ? error : "none");
  rlxCudaClearError();
}

/// A decode attention as dispatched code calls it, on pointers that name
/// the operands; prints the recorded error.
void decode(int32_t type, int64_t batch, int64_t heads, int64_t kvHeads,
            int64_t seqQ, int64_t maxSeq, int64_t headDim, int64_t window) {
  auto at = [](uintptr_t address) { return reinterpret_cast<void *>(address); };
  rlxDecodeAttention(type, batch, heads, kvHeads, seqQ, maxSeq, headDim,
                     headDim, window, 0.125f, at(0x7100), at(0x7200),
                     at(0x7300), static_cast<const int64_t *>(at(0x7400)),
                     at(0x7500));
  const char *error = rlxCudaGetLastError();
  printf("decode error: %s\n", error ? error : "none");
  rlxCudaClearError();
}

/// A matmul of m rows as dispatched code calls it (x [m, k] times w [n, k]
/// transposed), on 16-byte aligned buffers whose text names the operands
/// (the fake cuBLASLt reads them).
void skinny(int32_t type, int32_t epilogue, int64_t m, int64_t n, int64_t k) {
  alignas(16) static char x[16] = "x", w[16] = "w", bias[16] = "bias",
                          c[16] = "c";
  printf("skinny x %p w %p bias %p c %p\n", x, w, bias, c);
  rlxGpuMatmul(type, epilogue, 0, 1, 1, m, n, k, x, w, bias, c);
  const char *error = rlxCudaGetLastError();
  printf("skinny error: %s\n", error ? error : "none");
  rlxCudaClearError();
}

/// What an entry point of one kernel does: stream, temporary, launch,
/// free, wait, destroy.
void entryPoint(intptr_t gridX) {
  static char image[] = "cubin-bytes";
  void *module = mgpuModuleLoad(image, sizeof(image));
  void *function = mgpuModuleGetFunction(module, "softmax_kernel");
  void *stream = mgpuStreamCreate();
  void *tmp = mgpuMemAlloc(4096, stream, false);
  int rows = 64;
  void *params[] = {&rows};
  mgpuLaunchKernel(function, gridX, 1, 1, 256, 1, 1, 0, stream, params, nullptr,
                   1);
  mgpuMemFree(tmp, stream);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
}
} // namespace

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  const char *scenario = argv[1];
  if (!strcmp(scenario, "own-stream")) {
    entryPoint(64);
  } else if (!strcmp(scenario, "user-stream")) {
    rlxCudaSetStream(reinterpret_cast<void *>(0xabc000));
    entryPoint(64);
  } else if (!strcmp(scenario, "launch-error")) {
    entryPoint(0);
  } else if (!strcmp(scenario, "gemm")) {
    rlxCudaSetStream(reinterpret_cast<void *>(0xabc000));
    gemm(RLX_GPU_MATMUL_F32, RLX_GPU_MATMUL_GELU_BIAS, 0, 0, 1);
    gemm(RLX_GPU_MATMUL_F32, RLX_GPU_MATMUL_GELU_BIAS, 0, 0, 1);
    gemm(RLX_GPU_MATMUL_BF16, RLX_GPU_MATMUL_RELU_BIAS, 1, 1, 4);
  } else if (!strcmp(scenario, "gemm-own-stream")) {
    gemm(RLX_GPU_MATMUL_F16, RLX_GPU_MATMUL_NONE, 0, 0, 1);
  } else if (!strcmp(scenario, "gemm-error")) {
    gemm(RLX_GPU_MATMUL_F32, RLX_GPU_MATMUL_BIAS, 0, 0, 1, "fail");
  } else if (!strcmp(scenario, "gemm-bad-type")) {
    gemm(7, RLX_GPU_MATMUL_BIAS, 0, 0, 1);
  } else if (!strcmp(scenario, "gemm-s8")) {
    rlxCudaSetStream(reinterpret_cast<void *>(0xabc000));
    gemm(RLX_GPU_MATMUL_S8, RLX_GPU_MATMUL_NONE, 0, 1, 1);
  } else if (!strcmp(scenario, "gemm-s8-bias")) {
    gemm(RLX_GPU_MATMUL_S8, RLX_GPU_MATMUL_BIAS, 0, 1, 1);
  } else if (!strcmp(scenario, "fp8")) {
    rlxCudaSetStream(reinterpret_cast<void *>(0xabc000));
    fp8(RLX_GPU_MATMUL_BF16, RLX_GPU_FP8_E4M3, RLX_GPU_FP8_PER_CHANNEL);
    fp8(RLX_GPU_MATMUL_F32, RLX_GPU_FP8_E5M2, RLX_GPU_FP8_PER_TENSOR);
  } else if (!strcmp(scenario, "fp8-errors")) {
    fp8(RLX_GPU_MATMUL_S8, RLX_GPU_FP8_E4M3, RLX_GPU_FP8_PER_TENSOR);
    fp8(RLX_GPU_MATMUL_F16, 2, RLX_GPU_FP8_PER_TENSOR);
    fp8(RLX_GPU_MATMUL_F16, RLX_GPU_FP8_E4M3, 2);
    fp8(RLX_GPU_MATMUL_F16, RLX_GPU_FP8_E4M3, RLX_GPU_FP8_PER_TENSOR, 24);
  } else if (!strcmp(scenario, "flash")) {
    rlxCudaSetStream(reinterpret_cast<void *>(0xabc000));
    attention(RLX_FLASH_ATTENTION_BF16, RLX_FLASH_ATTENTION_CAUSAL, 2, 8, 2,
              300, 128, 0, 0.125f);
    attention(RLX_FLASH_ATTENTION_BF16, RLX_FLASH_ATTENTION_CAUSAL, 2, 8, 2,
              300, 128, 0, 0.125f);
    attention(RLX_FLASH_ATTENTION_F16, RLX_FLASH_ATTENTION_SLIDING_WINDOW, 3,
              4, 4, 128, 64, 32, 0.1f, /*seqMajor=*/true);
  } else if (!strcmp(scenario, "flash-own-stream")) {
    attention(RLX_FLASH_ATTENTION_F16, RLX_FLASH_ATTENTION_NONE, 1, 2, 1, 64,
              64, 0, 0.125f);
  } else if (!strcmp(scenario, "flash-errors")) {
    attention(2, RLX_FLASH_ATTENTION_NONE, 1, 2, 1, 64, 64, 0, 1.0f);
    attention(RLX_FLASH_ATTENTION_BF16, 3, 1, 2, 1, 64, 64, 0, 1.0f);
    attention(RLX_FLASH_ATTENTION_BF16, RLX_FLASH_ATTENTION_NONE, 1, 2, 1, 64,
              96, 0, 1.0f);
    attention(RLX_FLASH_ATTENTION_BF16, RLX_FLASH_ATTENTION_NONE, 1, 6, 4, 64,
              64, 0, 1.0f);
    attention(RLX_FLASH_ATTENTION_BF16, RLX_FLASH_ATTENTION_NONE, 70000, 2, 1,
              64, 64, 0, 1.0f);
    attention(RLX_FLASH_ATTENTION_BF16, RLX_FLASH_ATTENTION_NONE, 1, 2, 1,
              int64_t(1) << 31, 64, 0, 1.0f);
    attention(RLX_FLASH_ATTENTION_BF16, RLX_FLASH_ATTENTION_SLIDING_WINDOW, 1,
              2, 1, 64, 64, 0, 1.0f);
    attention(RLX_FLASH_ATTENTION_BF16, RLX_FLASH_ATTENTION_CAUSAL, 1, 2, 1, 64,
              64, 0, 0.0f);
    attention(RLX_FLASH_ATTENTION_BF16, RLX_FLASH_ATTENTION_NONE, 1, 2, 1, 64,
              64, 0, 1.0f, false, /*misalign=*/8);
    attention(RLX_FLASH_ATTENTION_BF16, RLX_FLASH_ATTENTION_NONE, 1, 2, 1, 64,
              64, 0, 1.0f, true, 0, /*rowStride=*/132);
  } else if (!strcmp(scenario, "decode")) {
    rlxCudaSetStream(reinterpret_cast<void *>(0xabc000));
    decode(RLX_DECODE_ATTENTION_BF16, 1, 32, 8, 1, 1024, 128, 0);
    decode(RLX_DECODE_ATTENTION_BF16, 1, 32, 8, 1, 1024, 128, 0);
    decode(RLX_DECODE_ATTENTION_F32, 1, 4, 4, 1, 32, 16, 5);
  } else if (!strcmp(scenario, "decode-errors")) {
    decode(3, 1, 4, 4, 1, 32, 16, 0);
    decode(RLX_DECODE_ATTENTION_F16, 1, 6, 4, 1, 32, 16, 0);
    decode(RLX_DECODE_ATTENTION_F16, 1, 4, 4, 1, 32, 320, 0);
    decode(RLX_DECODE_ATTENTION_F16, 70000, 4, 4, 1, 32, 16, 0);
  } else if (!strcmp(scenario, "skinny")) {
    rlxCudaSetStream(reinterpret_cast<void *>(0xabc000));
    skinny(RLX_GPU_MATMUL_BF16, RLX_GPU_MATMUL_NONE, 1, 4096, 4096);
    skinny(RLX_GPU_MATMUL_F32, RLX_GPU_MATMUL_BIAS, 4, 515, 36);
    // Five rows, a k of 100 bf16s (not whole 16-byte pieces), a GELU
    // epilogue: cuBLASLt's.
    skinny(RLX_GPU_MATMUL_BF16, RLX_GPU_MATMUL_NONE, 5, 64, 128);
    skinny(RLX_GPU_MATMUL_BF16, RLX_GPU_MATMUL_NONE, 1, 64, 100);
    skinny(RLX_GPU_MATMUL_BF16, RLX_GPU_MATMUL_GELU, 1, 64, 128);
  } else if (!strcmp(scenario, "constants")) {
    // Two constants, the first asked for again; then other bytes at the
    // first one's address (as if its code were unloaded and other code
    // loaded there), then a null one.
    static float table[40] = {1.0f, 2.0f, 3.0f, 4.0f};
    static const float weight[2] = {-2.0f, 0.5f};
    void *first = rlxGpuConstant(table, sizeof(table));
    void *again = rlxGpuConstant(table, sizeof(table));
    void *other = rlxGpuConstant(weight, sizeof(weight));
    printf("table %p again %p weight %p\n", first, again, other);
    table[39] = 5.0f;
    void *changed = rlxGpuConstant(table, sizeof(table));
    void *shorter = rlxGpuConstant(table, 16);
    printf("changed %p shorter %p\n", changed, shorter);
    void *none = rlxGpuConstant(nullptr, 16);
    const char *error = rlxCudaGetLastError();
    printf("null %p: %s\n", none, error ? error : "none");
    rlxCudaClearError();
  } else if (!strcmp(scenario, "no-driver")) {
    void *stream = mgpuStreamCreate();
    printf("stream %p\n", stream);
  } else {
    return 2;
  }
  return finish(fakeLog("RLX_CUDA_DRIVER", "fakeCudaLog", "(no driver log)\n"),
                fakeLog("RLX_CUBLASLT", "fakeCublasLtLog", ""),
                rlxCudaGetLastError, rlxCudaClearError);
}
