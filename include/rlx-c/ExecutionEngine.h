//===- ExecutionEngine.h - C API: run RLX functions on the CPU ----*- C -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One function of an RLX module JIT-compiled for the host CPU
// (--rlx-cpu-pipeline, MLIR's ExecutionEngine) and called on tensors in
// the caller's memory, row-major:
//
//   RlxCpuProgram p = rlxCpuProgramCreate(module, name, options);
//   if (rlxCpuProgramIsNull(p)) ... // diagnostics went to the context
//   RlxTensor x = {xData, 2, xShape}, y = {yData, 2, yShape};
//   if (mlirLogicalResultIsFailure(
//           rlxCpuProgramRun(p, &x, 1, &y, 1, printError, NULL))) ...
//   rlxCpuProgramDestroy(p);
//
//===----------------------------------------------------------------------===//

#ifndef RLX_C_EXECUTIONENGINE_H
#define RLX_C_EXECUTIONENGINE_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct RlxCpuProgram {
  void *ptr;
} RlxCpuProgram;

/// A row-major tensor in the caller's memory: `rank` dims in `shape`, the
/// elements at `data` (bf16 as 2 bytes, i1 as 1 byte, complex as pairs).
typedef struct {
  void *data;
  intptr_t rank;
  const int64_t *shape;
} RlxTensor;

/// Compiles function `name` of `module` for the host CPU; the module is
/// lowered to the LLVM dialect in place (clone it first to keep it). The
/// function's `rlx.param` arguments become trailing arguments.
/// `pipelineOptions` are --rlx-cpu-pipeline's ("blas=true arena=true";
/// empty for the defaults). On failure the diagnostics go to the module's
/// context and the result is null.
MLIR_CAPI_EXPORTED RlxCpuProgram rlxCpuProgramCreate(
    MlirModule module, MlirStringRef name, MlirStringRef pipelineOptions);

static inline bool rlxCpuProgramIsNull(RlxCpuProgram program) {
  return !program.ptr;
}

MLIR_CAPI_EXPORTED void rlxCpuProgramDestroy(RlxCpuProgram program);

/// The function's argument and result types (ranked tensor types), params
/// last among the arguments.
MLIR_CAPI_EXPORTED intptr_t rlxCpuProgramGetNumArguments(RlxCpuProgram p);
MLIR_CAPI_EXPORTED MlirType rlxCpuProgramGetArgumentType(RlxCpuProgram p,
                                                         intptr_t pos);
MLIR_CAPI_EXPORTED intptr_t rlxCpuProgramGetNumResults(RlxCpuProgram p);
MLIR_CAPI_EXPORTED MlirType rlxCpuProgramGetResultType(RlxCpuProgram p,
                                                       intptr_t pos);
/// The promoted params: the last rlxCpuProgramGetNumParams() arguments,
/// named as their `rlx.param` attribute named them.
MLIR_CAPI_EXPORTED intptr_t rlxCpuProgramGetNumParams(RlxCpuProgram p);
MLIR_CAPI_EXPORTED MlirStringRef rlxCpuProgramGetParamName(RlxCpuProgram p,
                                                           intptr_t pos);
/// The argument that holds result `pos` in place (marked
/// `rlx.in_place_result`), or -1. A run writes that argument's memory; a
/// destination for the result equal to the argument's data takes no copy.
MLIR_CAPI_EXPORTED intptr_t rlxCpuProgramGetResultArgument(RlxCpuProgram p,
                                                           intptr_t pos);

/// Bytes per element of `elementType` in a program's memory; 0 for a type
/// programs cannot pass.
MLIR_CAPI_EXPORTED int64_t rlxGetElementBytes(MlirType elementType);

/// Calls the program on `args` (one per argument) and copies each result
/// into `results` (one per result, shaped as the result comes out). On
/// failure (a wrong count or shape) `onError`, if given, receives the
/// message, and what `results` hold is unspecified.
MLIR_CAPI_EXPORTED MlirLogicalResult rlxCpuProgramRun(
    RlxCpuProgram program, const RlxTensor *args, intptr_t numArgs,
    const RlxTensor *results, intptr_t numResults,
    MlirStringCallback onError, void *userData);

/// Where result `index` of `rank` dims `shape` goes: row-major memory of
/// that shape, or NULL to drop it.
typedef void *(*RlxResultDestination)(intptr_t index, intptr_t rank,
                                      const int64_t *shape, void *userData);

/// As rlxCpuProgramRun, for results whose shapes are known only once the
/// program ran (dynamic dims): `destination` says where each goes.
MLIR_CAPI_EXPORTED MlirLogicalResult rlxCpuProgramRunWithDestination(
    RlxCpuProgram program, const RlxTensor *args, intptr_t numArgs,
    RlxResultDestination destination, MlirStringCallback onError,
    void *userData);

#ifdef __cplusplus
}
#endif

#endif // RLX_C_EXECUTIONENGINE_H
