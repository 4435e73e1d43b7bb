//===- Passes.td - rlx (MIR) transformation passes ---------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_TRANSFORMS_PASSES_TD
#define RLX_DIALECT_MIR_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def UnfusePass : Pass<"rlx-unfuse"> {
  let summary = "Rewrite every fused rlx op back into its primitive chain";
  let description = [{
    Replaces `rlx.fused_matmul_bias_act`, `rlx.fused_residual_layer_norm`,
    `rlx.fused_residual_rms_norm`, `rlx.fused_swiglu`,
    `rlx.fused_attention_block` and `rlx.fused_transformer_layer` by the
    chains of primitive rlx ops that their descriptions define. Autodiff
    runs on the primitives, and targets without a fused kernel lower them.
  }];
  let dependentDialects = ["::mlir::rlx::RLXDialect"];
}

#endif // RLX_DIALECT_MIR_TRANSFORMS_PASSES_TD
