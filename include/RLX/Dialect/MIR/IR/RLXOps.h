//===- RLXOps.h - RLX MIR operations ----------------------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_IR_RLXOPS_H
#define RLX_DIALECT_MIR_IR_RLXOPS_H

#include "RLX/Dialect/MIR/IR/RLXDialect.h"
#include "RLX/Dialect/MIR/IR/TypeInference.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

// Forward declarations of every op first: ops of one group name ops of
// another in their traits (e.g. rlx.yield's parents).
#include "RLX/Dialect/MIR/IR/RLXControlFlowOps.h.inc"
#include "RLX/Dialect/MIR/IR/RLXLeafOps.h.inc"
#include "RLX/Dialect/MIR/IR/RLXElementwiseOps.h.inc"
#include "RLX/Dialect/MIR/IR/RLXReductionOps.h.inc"
#include "RLX/Dialect/MIR/IR/RLXLinalgOps.h.inc"
#include "RLX/Dialect/MIR/IR/RLXNNOps.h.inc"
#include "RLX/Dialect/MIR/IR/RLXShapeOps.h.inc"
#include "RLX/Dialect/MIR/IR/RLXConvOps.h.inc"
#include "RLX/Dialect/MIR/IR/RLXQuantOps.h.inc"
#include "RLX/Dialect/MIR/IR/RLXFusedOps.h.inc"
#include "RLX/Dialect/MIR/IR/RLXAutodiffOps.h.inc"
#include "RLX/Dialect/MIR/IR/RLXBackwardOps.h.inc"

#define GET_OP_CLASSES
#include "RLX/Dialect/MIR/IR/RLXControlFlowOps.h.inc"
#define GET_OP_CLASSES
#include "RLX/Dialect/MIR/IR/RLXLeafOps.h.inc"
#define GET_OP_CLASSES
#include "RLX/Dialect/MIR/IR/RLXElementwiseOps.h.inc"
#define GET_OP_CLASSES
#include "RLX/Dialect/MIR/IR/RLXReductionOps.h.inc"
#define GET_OP_CLASSES
#include "RLX/Dialect/MIR/IR/RLXLinalgOps.h.inc"
#define GET_OP_CLASSES
#include "RLX/Dialect/MIR/IR/RLXNNOps.h.inc"
#define GET_OP_CLASSES
#include "RLX/Dialect/MIR/IR/RLXShapeOps.h.inc"
#define GET_OP_CLASSES
#include "RLX/Dialect/MIR/IR/RLXConvOps.h.inc"
#define GET_OP_CLASSES
#include "RLX/Dialect/MIR/IR/RLXQuantOps.h.inc"
#define GET_OP_CLASSES
#include "RLX/Dialect/MIR/IR/RLXFusedOps.h.inc"
#define GET_OP_CLASSES
#include "RLX/Dialect/MIR/IR/RLXAutodiffOps.h.inc"
#define GET_OP_CLASSES
#include "RLX/Dialect/MIR/IR/RLXBackwardOps.h.inc"

namespace mlir {
namespace rlx {

/// Whether `op` is one of the elementwise ops that broadcast their operands
/// (add ... pow, cmp, where, fma). They do not carry upstream's Elementwise
/// trait, which requires operands of one shape; the unary ops do.
bool isBroadcastingElementwise(Operation *op);

} // namespace rlx
} // namespace mlir

#endif // RLX_DIALECT_MIR_IR_RLXOPS_H
