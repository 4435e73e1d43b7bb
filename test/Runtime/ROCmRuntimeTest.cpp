//===- ROCmRuntimeTest.cpp - host-side logic of librlx_rocm_runtime -------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx-rocm-runtime-test SCENARIO: drives the mgpu* functions as compiled
// host code does and prints the HIP calls they made (from the fake HIP
// runtime, $RLX_HIP_RUNTIME) and the runtime's recorded error; the lit test
// checks both with FileCheck.
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/ROCm/ROCmRuntime.h"
#include "RuntimeTestSupport.h"

#include <cstring>

namespace {

/// A matmul as dispatched code calls it; the fakes print the pointers,
/// which here name the operands (a "fail" a makes the fake matmul fail).
void gemm(int32_t type, int32_t epilogue, int32_t transA, int32_t transB,
          int64_t batch, const char *a = "a") {
  static char b[] = "b", bias[] = "bias", c[] = "c";
  printf("gemm a %p b %p bias %p c %p\n", static_cast<const void *>(a),
         static_cast<void *>(b), static_cast<void *>(bias),
         static_cast<void *>(c));
  rlxGpuMatmul(type, epilogue, transA, transB, batch, 64, 32, 16, a, b, bias,
               c);
}

/// What an entry point of one kernel does: stream, temporary, launch,
/// free, wait, destroy.
void entryPoint(intptr_t gridX) {
  static const unsigned char image[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0x40};
  void *module =
      mgpuModuleLoad(const_cast<unsigned char *>(image), sizeof(image));
  void *function = mgpuModuleGetFunction(module, "softmax_kernel");
  void *stream = mgpuStreamCreate();
  void *tmp = mgpuMemAlloc(4096, stream, false);
  int64_t rows = 64, cols = 256;
  void *params[] = {&rows, &cols};
  mgpuLaunchKernel(function, gridX, 1, 1, 64, 1, 1, 0, stream, params, nullptr,
                   2);
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
    rlxRocmSetStream(reinterpret_cast<void *>(0xabc000));
    entryPoint(64);
  } else if (!strcmp(scenario, "launch-error")) {
    entryPoint(0);
  } else if (!strcmp(scenario, "gemm")) {
    rlxRocmSetStream(reinterpret_cast<void *>(0xabc000));
    gemm(RLX_GPU_MATMUL_F32, RLX_GPU_MATMUL_GELU_BIAS, 0, 0, 1);
    gemm(RLX_GPU_MATMUL_F32, RLX_GPU_MATMUL_GELU_BIAS, 0, 0, 1);
    gemm(RLX_GPU_MATMUL_BF16, RLX_GPU_MATMUL_RELU_BIAS, 1, 1, 4);
  } else if (!strcmp(scenario, "gemm-own-stream")) {
    gemm(RLX_GPU_MATMUL_F16, RLX_GPU_MATMUL_NONE, 0, 0, 1);
  } else if (!strcmp(scenario, "gemm-error")) {
    gemm(RLX_GPU_MATMUL_F32, RLX_GPU_MATMUL_BIAS, 0, 0, 1, "fail");
  } else if (!strcmp(scenario, "gemm-bad-type")) {
    gemm(7, RLX_GPU_MATMUL_BIAS, 0, 0, 1);
  } else if (!strcmp(scenario, "host-shared")) {
    void *ptr = mgpuMemAlloc(64, nullptr, true);
    printf("host-shared %p\n", ptr);
  } else if (!strcmp(scenario, "flash")) {
    rlxFlashAttention(RLX_FLASH_ATTENTION_BF16, RLX_FLASH_ATTENTION_CAUSAL, 1,
                      8, 2, 128, 128, 64, 0, 0.125f, nullptr, 0, 0, 0, nullptr,
                      0, 0, 0, nullptr, 0, 0, 0, nullptr, 0, 0, 0);
  } else if (!strcmp(scenario, "constants")) {
    // A constant asked for twice, then a null one.
    static const float table[40] = {1.0f, 2.0f, 3.0f, 4.0f};
    void *first = rlxGpuConstant(table, sizeof(table));
    void *again = rlxGpuConstant(table, sizeof(table));
    printf("table %p again %p\n", first, again);
    void *none = rlxGpuConstant(nullptr, 16);
    const char *error = rlxRocmGetLastError();
    printf("null %p: %s\n", none, error ? error : "none");
    rlxRocmClearError();
  } else if (!strcmp(scenario, "no-hip")) {
    void *stream = mgpuStreamCreate();
    void *module = mgpuModuleLoad(nullptr, 0);
    printf("stream %p module %p\n", stream, module);
  } else {
    return 2;
  }
  return finish(fakeLog("RLX_HIP_RUNTIME", "fakeHipLog", "(no HIP log)\n"),
                fakeLog("RLX_HIPBLASLT", "fakeHipBLASLtLog", ""),
                rlxRocmGetLastError, rlxRocmClearError);
}
