//===- Passes.td - RLX code generation passes --------------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TRANSFORMS_PASSES_TD
#define RLX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def CPUOrderLoopsPass : Pass<"rlx-cpu-order-loops", "::mlir::func::FuncOp"> {
  let summary = "Make the innermost loop of each linalg.generic contiguous";
  let description = [{
    Interchanges the loops of every `linalg.generic` (upstream
    `linalg::interchangeGenericOp`) so that its innermost loop is one along
    which every operand that reads it is contiguous (it is that operand's
    last dim), preferring parallel loops. For a matmul `(m, n, k)` this is
    `(m, k, n)`: the inner loop streams a row of the right-hand side and of
    the result, which LLVM's loop vectorizer turns into vector FMAs, where
    the original order would walk the right-hand side by columns. The order
    of the other loops is kept, and so is the order in which each result
    element accumulates, so results are bit-identical.
  }];
}

def CPUFuseElementwisePass
    : Pass<"rlx-cpu-fuse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Fuse elementwise linalg.generic chains, never into "
                "reductions";
  let description = [{
    Upstream elementwise fusion (`linalg::populateElementwiseOpsFusionPatterns`)
    with one restriction: a producer is fused only into a consumer whose
    loops are all parallel. Fusing, say, a GELU into the matmul that reads
    it would recompute the GELU once per step of the matmul's reduction;
    kept apart, each element is computed once.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def CPUApproximateMathPass
    : Pass<"rlx-cpu-approximate-math", "::mlir::func::FuncOp"> {
  let summary = "Replace f32 exp, log, tanh and erf by polynomial "
                "approximations";
  let description = [{
    Applies upstream `math::populateMathPolynomialApproximationPatterns` to
    `math.exp`, `math.log`, `math.tanh` and `math.erf` on f32 scalars and
    vectors: branch-free polynomials (accurate to a few ulp) that LLVM can
    vectorize, where a libm call would keep softmax, GELU and the norms
    scalar. f64 keeps libm's functions.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif // RLX_TRANSFORMS_PASSES_TD
