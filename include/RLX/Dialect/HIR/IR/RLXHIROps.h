//===- RLXHIROps.h - rlx_hir block ops --------------------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_HIR_IR_RLXHIROPS_H
#define RLX_DIALECT_HIR_IR_RLXHIROPS_H

#include "RLX/Dialect/HIR/IR/RLXHIRDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "RLX/Dialect/HIR/IR/RLXHIROps.h.inc"

#endif // RLX_DIALECT_HIR_IR_RLXHIROPS_H
