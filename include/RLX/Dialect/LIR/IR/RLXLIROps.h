//===- RLXLIROps.h - rlx_lir ops --------------------------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_LIR_IR_RLXLIROPS_H
#define RLX_DIALECT_LIR_IR_RLXLIROPS_H

#include "RLX/Dialect/LIR/IR/RLXLIRDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "RLX/Dialect/LIR/IR/RLXLIROps.h.inc"

namespace mlir {
namespace rlx {
namespace lir {

/// Bytes of a statically shaped tensor or memref (sub-byte element types
/// round up to whole bytes per element; i1 takes one byte, as when
/// bufferized).
int64_t getByteSize(ShapedType type);

} // namespace lir
} // namespace rlx
} // namespace mlir

#endif // RLX_DIALECT_LIR_IR_RLXLIROPS_H
