//===- CUBLASLtABI.h - the cuBLASLt C interface, spelled out --------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The types and enum values of cublasLt.h, cublas_api.h and
// library_types.h that the runtime uses, so that it builds without the
// CUDA toolkit. CUBLASLtABICheck.cpp compares them with the toolkit's
// headers where those are installed.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_LIB_RUNTIME_CUBLASLTABI_H
#define RLX_LIB_RUNTIME_CUBLASLTABI_H

#include <cstddef>
#include <cstdint>

namespace rlx::cublaslt {

using Status = int;   // cublasStatus_t
using Handle = void *; // cublasLtHandle_t, the descriptors, cudaStream_t

struct Algo {
  uint64_t data[8];
};
struct HeuristicResult {
  Algo algo;
  size_t workspaceSize;
  Status state;
  float wavesCount;
  int reserved[4];
};

// cudaDataType_t
constexpr int kR32F = 0, kR16F = 2, kR8I = 3, kR32I = 10, kR16BF = 14,
              kR8FE4M3 = 28, kR8FE5M2 = 29;
// cublasComputeType_t
constexpr int kCompute32F = 68, kCompute32I = 72;
// cublasOperation_t
constexpr int kOpN = 0, kOpT = 1;
// cublasLtMatmulDescAttributes_t
constexpr int kDescTransA = 3, kDescTransB = 4, kDescEpilogue = 7,
              kDescBiasPointer = 8, kDescAScalePointer = 17,
              kDescBScalePointer = 18, kDescBiasDataType = 26,
              kDescAScaleMode = 31, kDescBScaleMode = 32;
// cublasLtMatmulMatrixScale_t
constexpr int32_t kScaleScalar32F = 0, kScaleOuterVec32F = 3;
// cublasLtMatrixLayoutAttribute_t
constexpr int kLayoutBatchCount = 5, kLayoutStridedBatchOffset = 6;
// cublasLtMatmulPreferenceAttributes_t
constexpr int kPrefMaxWorkspaceBytes = 1;
// cublasLtEpilogue_t
constexpr uint32_t kEpilogueDefault = 1, kEpilogueRelu = 2, kEpilogueBias = 4,
                   kEpilogueReluBias = 6, kEpilogueGelu = 32,
                   kEpilogueGeluBias = 36;

} // namespace rlx::cublaslt

#endif // RLX_LIB_RUNTIME_CUBLASLTABI_H
