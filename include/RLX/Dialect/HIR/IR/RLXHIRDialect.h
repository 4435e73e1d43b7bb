//===- RLXHIRDialect.h - the rlx_hir dialect --------------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_HIR_IR_RLXHIRDIALECT_H
#define RLX_DIALECT_HIR_IR_RLXHIRDIALECT_H

#include "RLX/Dialect/MIR/IR/RLXDialect.h"
#include "mlir/IR/Dialect.h"

#include "RLX/Dialect/HIR/IR/RLXHIRDialect.h.inc"

#endif // RLX_DIALECT_HIR_IR_RLXHIRDIALECT_H
