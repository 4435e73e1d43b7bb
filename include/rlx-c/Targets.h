//===- Targets.h - C API of RLX's target registry -----------------*- C -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The compilation targets this build registered (RLX/Target/
// TargetRegistry.h): their names, what each compiles for, and the rlx ops
// each claims. Each function registers the build's targets first.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_C_TARGETS_H
#define RLX_C_TARGETS_H

#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The number of registered targets.
MLIR_CAPI_EXPORTED intptr_t rlxGetNumTargets(void);

/// The name of the registered target at `pos` (in registration order),
/// e.g. "cpu"; valid for the life of the process.
MLIR_CAPI_EXPORTED MlirStringRef rlxGetTargetName(intptr_t pos);

/// What the target `name` compiles for, one line; empty if it is not
/// registered.
MLIR_CAPI_EXPORTED MlirStringRef rlxGetTargetSummary(MlirStringRef name);

/// Whether the target `name` claims the op `opName` ("rlx.fft"); false if
/// the target is not registered.
MLIR_CAPI_EXPORTED bool rlxTargetClaimsOp(MlirStringRef name,
                                          MlirStringRef opName);

#ifdef __cplusplus
}
#endif

#endif // RLX_C_TARGETS_H
