//===- RLXDialect.h - RLX MIR dialect ---------------------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_IR_RLXDIALECT_H
#define RLX_DIALECT_MIR_IR_RLXDIALECT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"

#include "RLX/Dialect/MIR/IR/RLXDialect.h.inc"
#include "RLX/Dialect/MIR/IR/RLXEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "RLX/Dialect/MIR/IR/RLXAttrs.h.inc"

#endif // RLX_DIALECT_MIR_IR_RLXDIALECT_H
