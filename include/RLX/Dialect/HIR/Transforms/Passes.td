//===- Passes.td - rlx_hir passes --------------------------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_HIR_TRANSFORMS_PASSES_TD
#define RLX_DIALECT_HIR_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerHIRPass : Pass<"rlx-lower-hir"> {
  let summary = "Lower rlx_hir blocks to rlx (MIR) primitives";
  let description = [{
    Rewrites every `rlx_hir` op into the chain of `rlx` primitive ops its
    description defines. Blocks with an `rlx` fused counterpart (attention
    block, BERT layer, linear) are built as that fused op and unfused with
    `--rlx-unfuse`'s patterns, so a block means exactly what the fused op
    means; fusion (`--rlx-fuse`) then picks the kernels per target. A block
    whose operands do not fit (shapes, head counts) fails with the fused
    op's diagnostic at the block's location.

    ```mlir
    // %y = rlx_hir.linear %x, %w, %b {activation = "gelu"} : ...
    // becomes
    %0 = rlx.matmul %x, %w : tensor<8x768xf32>, tensor<768x3072xf32>
    %1 = rlx.add %0, %b : tensor<8x3072xf32>, tensor<3072xf32>
    %y = rlx.gelu %1 : tensor<8x3072xf32>
    ```
  }];
  let dependentDialects = ["::mlir::rlx::RLXDialect"];
}

#endif // RLX_DIALECT_HIR_TRANSFORMS_PASSES_TD
