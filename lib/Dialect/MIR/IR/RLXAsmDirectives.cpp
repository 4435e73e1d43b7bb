//===- RLXAsmDirectives.cpp - custom<...> directives of RLX ops -----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLXAsmDirectives.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

ParseResult rlx::parseEnumKeyword(OpAsmParser &parser, StringAttr &attr) {
  std::string keyword;
  if (parser.parseKeywordOrString(&keyword))
    return failure();
  attr = parser.getBuilder().getStringAttr(keyword);
  return success();
}

void rlx::printEnumKeyword(OpAsmPrinter &printer, Operation *,
                           StringAttr attr) {
  printer.printKeywordOrString(attr.getValue());
}

/// Parses one ranked tensor type: the result types are inferred from these
/// before the operand constraints are verified, so anything else is
/// rejected here.
static ParseResult parseRankedTensorType(OpAsmParser &parser, Type &type) {
  RankedTensorType tensor;
  if (parser.parseType(tensor))
    return failure();
  type = tensor;
  return success();
}

/// Parses `T` or `T0, T1, ...`; a single type stands for all of `types`.
static ParseResult parseTypeList(OpAsmParser &parser,
                                 MutableArrayRef<Type *> types) {
  if (parseRankedTensorType(parser, *types[0]))
    return failure();
  if (failed(parser.parseOptionalComma())) {
    for (Type *t : types.drop_front())
      *t = *types[0];
    return success();
  }
  for (auto [i, t] : llvm::enumerate(types.drop_front())) {
    if (i > 0 && parser.parseComma())
      return failure();
    if (parseRankedTensorType(parser, *t))
      return failure();
  }
  return success();
}

static void printTypeList(OpAsmPrinter &printer, ArrayRef<Type> types) {
  if (llvm::all_equal(types)) {
    printer << types.front();
    return;
  }
  llvm::interleaveComma(types, printer);
}

ParseResult rlx::parseOperandTypes(OpAsmParser &parser, Type &a, Type &b) {
  Type *types[] = {&a, &b};
  return parseTypeList(parser, types);
}

void rlx::printOperandTypes(OpAsmPrinter &printer, Operation *, Type a,
                            Type b) {
  printTypeList(printer, {a, b});
}

ParseResult rlx::parseOperandTypes(OpAsmParser &parser, Type &a, Type &b,
                                   Type &c) {
  Type *types[] = {&a, &b, &c};
  return parseTypeList(parser, types);
}

void rlx::printOperandTypes(OpAsmPrinter &printer, Operation *, Type a, Type b,
                            Type c) {
  printTypeList(printer, {a, b, c});
}
