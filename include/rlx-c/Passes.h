//===- Passes.h - C API of RLX's passes and pipelines -------------*- C -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_C_PASSES_H
#define RLX_C_PASSES_H

#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Registers every RLX pass and pipeline (rlx-optimize, rlx-expand-autodiff,
/// rlx-plan-memory, convert-rlx-to-linalg, rlx-cpu-pipeline,
/// rlx-cuda-pipeline, ...) so that mlirParsePassPipeline and
/// mlirOpPassManagerAddPipeline find them by name. Idempotent.
MLIR_CAPI_EXPORTED void rlxRegisterAllPasses(void);

#ifdef __cplusplus
}
#endif

#endif // RLX_C_PASSES_H
