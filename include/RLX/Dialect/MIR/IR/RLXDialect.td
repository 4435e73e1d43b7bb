//===- RLXDialect.td - RLX MIR dialect definition ----------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_IR_RLXDIALECT_TD
#define RLX_DIALECT_MIR_IR_RLXDIALECT_TD

include "mlir/IR/OpBase.td"

def RLX_Dialect : Dialect {
  let name = "rlx";
  let cppNamespace = "::mlir::rlx";
  let summary = "RLX mid-level IR: the tensor op vocabulary of RLX";
  let description = [{
    The `rlx` dialect is RLX's MIR: value-semantics ops on builtin ranked
    tensors (`tensor<...xT>`, T in f16, bf16, f32, f64, i8, i16, i32, i64,
    ui8, ui32, i1, complex<f32> and complex<f64>; static or dynamic dims). It holds the
    primitive ops a model is made of, the fused ops that fusion forms, and
    the autodiff transform ops (`rlx.grad`, `rlx.jvp`, `rlx.vmap`) that the
    autodiff expansion replaces. Binary elementwise ops broadcast as NumPy
    does. Axes may be negative and count from the last dim.

    Enumerated attributes (`kind`, `mask`, `predicate`, ...) are stored as
    string attributes so that the generic form reads as the op catalogue
    writes them (`{kind = "sum"}`); the verifier checks the spelling.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::func::FuncDialect"];
  let extraClassDeclaration = [{
    void registerAttributes();
    void registerOps();
  }];
}

#endif // RLX_DIALECT_MIR_IR_RLXDIALECT_TD
