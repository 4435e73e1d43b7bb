//===- Dialects.cpp - C API of RLX's dialects -----------------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "rlx-c/Dialects.h"

#include "RLX/InitAllDialects.h"
#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(RLX, rlx, mlir::rlx::RLXDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(RLXHIR, rlx_hir,
                                      mlir::rlx::hir::RLXHIRDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(RLXLIR, rlx_lir,
                                      mlir::rlx::lir::RLXLIRDialect)

void rlxRegisterAllDialects(MlirDialectRegistry registry) {
  mlir::rlx::registerAllDialects(*unwrap(registry));
}
