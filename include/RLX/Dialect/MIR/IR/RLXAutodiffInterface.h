//===- RLXAutodiffInterface.h - differentiation rules -----------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_IR_RLXAUTODIFFINTERFACE_H
#define RLX_DIALECT_MIR_IR_RLXAUTODIFFINTERFACE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

#include "RLX/Dialect/MIR/IR/RLXAutodiffInterface.h.inc"

#endif // RLX_DIALECT_MIR_IR_RLXAUTODIFFINTERFACE_H
