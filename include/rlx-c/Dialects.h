//===- Dialects.h - C API of RLX's dialects -----------------------*- C -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_C_DIALECTS_H
#define RLX_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// mlirGetDialectHandle__rlx__(), __rlx_hir__() and __rlx_lir__(): the three
/// dialects one by one.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(RLX, rlx);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(RLXHIR, rlx_hir);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(RLXLIR, rlx_lir);

/// Inserts the three dialects into `registry` with the interfaces they need
/// beyond their own (the differentiation rules that rlx.grad, rlx.jvp and
/// rlx.vmap expand with). Prefer this to the handles above.
MLIR_CAPI_EXPORTED void rlxRegisterAllDialects(MlirDialectRegistry registry);

#ifdef __cplusplus
}
#endif

#endif // RLX_C_DIALECTS_H
