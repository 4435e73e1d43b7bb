//===- RLXHIRDialect.td - the rlx_hir dialect --------------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_HIR_IR_RLXHIRDIALECT_TD
#define RLX_DIALECT_HIR_IR_RLXHIRDIALECT_TD

include "mlir/IR/OpBase.td"

def RLXHIR_Dialect : Dialect {
  let name = "rlx_hir";
  let cppNamespace = "::mlir::rlx::hir";
  let summary = "RLX high-level IR: the blocks a model builder writes";
  let description = [{
    `rlx_hir` holds whole model blocks (a linear layer, an MLP, SwiGLU, an
    embedding, the norms, an attention block, a BERT or Llama transformer
    layer, a conv block) on the same builtin ranked tensors as `rlx`.
    `--rlx-lower-hir` rewrites each block into `rlx` (MIR) primitives, where
    fusion then chooses the kernels a target runs. Enumerated attributes are
    strings, spelled as in the `rlx` dialect (`{activation = "gelu"}`).
  }];
  let dependentDialects = ["::mlir::rlx::RLXDialect"];
}

#endif // RLX_DIALECT_HIR_IR_RLXHIRDIALECT_TD
