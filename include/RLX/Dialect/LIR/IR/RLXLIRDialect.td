//===- RLXLIRDialect.td - the rlx_lir dialect --------------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_LIR_IR_RLXLIRDIALECT_TD
#define RLX_DIALECT_LIR_IR_RLXLIRDIALECT_TD

include "mlir/IR/OpBase.td"

def RLXLIR_Dialect : Dialect {
  let name = "rlx_lir";
  let cppNamespace = "::mlir::rlx::lir";
  let summary = "RLX low-level IR: kernels over buffers planned in one arena";
  let description = [{
    `rlx_lir` is MIR plus a buffer plan, the input of the backends. A
    function holds one `rlx_lir.arena` (one allocation of `arena_size`
    bytes) carrying the `#rlx_lir.plan<...>`; every intermediate tensor is an
    `rlx_lir.buffer` at a planned offset of it, views (reshape, same-width
    cast, axis-0 narrow) and in-place elementwise results are
    `rlx_lir.alias`es of a buffer, parameters are `rlx_lir.weight` slots of
    the module's weight region (`#rlx_lir.weights<...>`), and the schedule
    is the list of `rlx_lir.kernel`s in program order, each holding the MIR
    op(s) it runs. `--rlx-plan-memory` builds it from MIR.
  }];
  let dependentDialects = [
    "::mlir::rlx::RLXDialect",
    "::mlir::memref::MemRefDialect"
  ];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Name of the module attribute that holds the weight layout.
    static constexpr ::llvm::StringLiteral getWeightsAttrName() {
      return ::llvm::StringLiteral("rlx_lir.weights");
    }
  }];
}

#endif // RLX_DIALECT_LIR_IR_RLXLIRDIALECT_TD
