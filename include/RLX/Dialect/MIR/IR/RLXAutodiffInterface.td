//===- RLXAutodiffInterface.td - differentiation rules -----*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The op interface through which `--rlx-expand-autodiff` differentiates a
// function: each differentiable op builds its own reverse (VJP) and forward
// (JVP) rule as IR. The rules are attached as external models
// (lib/Dialect/MIR/Autodiff, one file per op family) so that the op
// definitions stay free of autodiff code and rules can be added per family.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_IR_RLXAUTODIFFINTERFACE_TD
#define RLX_DIALECT_MIR_IR_RLXAUTODIFFINTERFACE_TD

include "mlir/IR/OpBase.td"

def RLX_DifferentiableOpInterface : OpInterface<"DifferentiableOpInterface"> {
  let description = [{
    An op that knows its derivatives. Both methods build IR at the
    builder's insertion point (after the op for JVP, in the reverse sweep
    for VJP) and may read the op's operands and results.

    `buildVJP` gets one cotangent per result (of the result's type; null
    for results that carry no gradient: non-float ones) and appends one
    cotangent per operand, of the operand's type, or a null Value where no
    gradient flows (integer operands, `stop_gradient`, indices).

    `buildJVP` gets one tangent per operand (null stands for a zero
    tangent, e.g. a constant or an integer operand; not all are null) and
    appends one tangent per result, of the result's type, or null for a
    result whose tangent is zero.

    A rule that cannot differentiate a particular instance (e.g. an
    unsupported attribute) emits an error on the op and fails.

    `hasOperandDerivative` says whether the rules give float operand
    `index` its derivative; where they do not (the scales of
    `dequant_matmul`), autodiff reports an error when that operand depends
    on a differentiated argument, instead of treating it as a constant.
  }];
  let cppNamespace = "::mlir::rlx";
  let methods = [
    InterfaceMethod<
      "Appends the operands' cotangents given the results' cotangents.",
      "::llvm::LogicalResult", "buildVJP",
      (ins "::mlir::OpBuilder &":$builder,
           "::mlir::ValueRange":$resultCotangents,
           "::llvm::SmallVectorImpl<::mlir::Value> &":$operandCotangents)>,
    InterfaceMethod<
      "Appends the results' tangents given the operands' tangents.",
      "::llvm::LogicalResult", "buildJVP",
      (ins "::mlir::OpBuilder &":$builder,
           "::mlir::ValueRange":$operandTangents,
           "::llvm::SmallVectorImpl<::mlir::Value> &":$resultTangents)>,
    InterfaceMethod<
      "Whether the rules give operand `index` its derivative.",
      "bool", "hasOperandDerivative", (ins "unsigned":$index), [{}],
      [{ return true; }]>,
  ];
}

#endif // RLX_DIALECT_MIR_IR_RLXAUTODIFFINTERFACE_TD
