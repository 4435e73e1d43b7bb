//===- RLXLIRDialect.h - the rlx_lir dialect --------------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_LIR_IR_RLXLIRDIALECT_H
#define RLX_DIALECT_LIR_IR_RLXLIRDIALECT_H

#include "RLX/Dialect/MIR/IR/RLXDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"

#include "RLX/Dialect/LIR/IR/RLXLIRDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "RLX/Dialect/LIR/IR/RLXLIRAttrs.h.inc"

#endif // RLX_DIALECT_LIR_IR_RLXLIRDIALECT_H
