//===- CUBLASLtABICheck.cpp - CUBLASLtABI.h against the toolkit's headers -===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Built only where cublasLt.h is found (CMakeLists.txt): a value spelled
// wrong in CUBLASLtABI.h fails the build instead of a matmul on the GPU.
//
//===----------------------------------------------------------------------===//

#include "CUBLASLtABI.h"

#include <cublasLt.h>

using namespace rlx::cublaslt;

static_assert(sizeof(Algo) == sizeof(cublasLtMatmulAlgo_t));
static_assert(sizeof(HeuristicResult) ==
              sizeof(cublasLtMatmulHeuristicResult_t));
static_assert(offsetof(HeuristicResult, workspaceSize) ==
              offsetof(cublasLtMatmulHeuristicResult_t, workspaceSize));
static_assert(offsetof(HeuristicResult, state) ==
              offsetof(cublasLtMatmulHeuristicResult_t, state));
static_assert(kR32F == CUDA_R_32F && kR16F == CUDA_R_16F && kR8I == CUDA_R_8I &&
              kR32I == CUDA_R_32I && kR16BF == CUDA_R_16BF &&
              kR8FE4M3 == CUDA_R_8F_E4M3 && kR8FE5M2 == CUDA_R_8F_E5M2);
static_assert(kCompute32F == CUBLAS_COMPUTE_32F &&
              kCompute32I == CUBLAS_COMPUTE_32I);
static_assert(kOpN == CUBLAS_OP_N && kOpT == CUBLAS_OP_T);
static_assert(kDescTransA == CUBLASLT_MATMUL_DESC_TRANSA &&
              kDescTransB == CUBLASLT_MATMUL_DESC_TRANSB &&
              kDescEpilogue == CUBLASLT_MATMUL_DESC_EPILOGUE &&
              kDescBiasPointer == CUBLASLT_MATMUL_DESC_BIAS_POINTER &&
              kDescAScalePointer == CUBLASLT_MATMUL_DESC_A_SCALE_POINTER &&
              kDescBScalePointer == CUBLASLT_MATMUL_DESC_B_SCALE_POINTER &&
              kDescBiasDataType == CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE &&
              kDescAScaleMode == CUBLASLT_MATMUL_DESC_A_SCALE_MODE &&
              kDescBScaleMode == CUBLASLT_MATMUL_DESC_B_SCALE_MODE);
static_assert(kScaleScalar32F == CUBLASLT_MATMUL_MATRIX_SCALE_SCALAR_32F &&
              kScaleOuterVec32F == CUBLASLT_MATMUL_MATRIX_SCALE_OUTER_VEC_32F);
static_assert(kLayoutBatchCount == CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT &&
              kLayoutStridedBatchOffset ==
                  CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET);
static_assert(kPrefMaxWorkspaceBytes ==
              CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES);
static_assert(kEpilogueDefault == CUBLASLT_EPILOGUE_DEFAULT &&
              kEpilogueRelu == CUBLASLT_EPILOGUE_RELU &&
              kEpilogueBias == CUBLASLT_EPILOGUE_BIAS &&
              kEpilogueReluBias == CUBLASLT_EPILOGUE_RELU_BIAS &&
              kEpilogueGelu == CUBLASLT_EPILOGUE_GELU &&
              kEpilogueGeluBias == CUBLASLT_EPILOGUE_GELU_BIAS);
