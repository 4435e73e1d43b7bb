//===- RLXAsmDirectives.h - custom<...> directives of RLX ops ---*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Parsers and printers for the `custom<...>` directives used in the RLX op
// assembly formats. Each op group's .cpp includes this before its generated
// definitions.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_DIALECT_MIR_IR_RLXASMDIRECTIVES_H
#define LIB_DIALECT_MIR_IR_RLXASMDIRECTIVES_H

#include "mlir/IR/OpImplementation.h"

namespace mlir {
namespace rlx {

/// `custom<EnumKeyword>($attr)`: a string-enum attribute printed as a bare
/// keyword (`sum`, `causal`, ...). Its spelling is checked by the verifier.
ParseResult parseEnumKeyword(OpAsmParser &parser, StringAttr &attr);
void printEnumKeyword(OpAsmPrinter &printer, Operation *op, StringAttr attr);

/// `custom<OperandTypes>(type($a), type($b)[, type($c)])`: one type when all
/// operands agree, otherwise the comma-separated list.
ParseResult parseOperandTypes(OpAsmParser &parser, Type &a, Type &b);
void printOperandTypes(OpAsmPrinter &printer, Operation *op, Type a, Type b);
ParseResult parseOperandTypes(OpAsmParser &parser, Type &a, Type &b, Type &c);
void printOperandTypes(OpAsmPrinter &printer, Operation *op, Type a, Type b,
                       Type c);

} // namespace rlx
} // namespace mlir

#endif // LIB_DIALECT_MIR_IR_RLXASMDIRECTIVES_H
