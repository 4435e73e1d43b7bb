//===- Passes.td - RLX conversion passes -------------------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_CONVERSION_PASSES_TD
#define RLX_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// RLXToLinalg
//===----------------------------------------------------------------------===//

def ConvertRLXToLinalgPass : Pass<"convert-rlx-to-linalg", "ModuleOp"> {
  let summary = "Lower rlx ops to linalg, tensor, arith, math and complex";
  let description = [{
    Rewrites every rlx op that has a lowering into upstream tensor-level
    dialects: elementwise ops and broadcasting into `linalg.generic`,
    reductions into reduction `linalg.generic`s with f32 accumulation for
    f16/bf16, matmul into a contraction, shape ops into `tensor` ops, and
    the norms, softmax and attention into numerically stable compositions.
    Unsigned element types become signless (the ops chosen keep the
    unsigned meaning), including in function signatures. An rlx op left
    without a lowering is reported with its location and fails the pass.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::complex::ComplexDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // RLX_CONVERSION_PASSES_TD
