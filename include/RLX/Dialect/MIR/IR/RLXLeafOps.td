//===- RLXLeafOps.td - RLX graph leaves and casts ----------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_IR_RLXLEAFOPS_TD
#define RLX_DIALECT_MIR_IR_RLXLEAFOPS_TD

include "RLX/Dialect/MIR/IR/RLXBase.td"

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

def RLX_ConstantOp : RLX_InferredOp<"constant", [ConstantLike]> {
  let summary = "A tensor of known elements";
  let description = [{
    Produces the tensor held by `value`. The result type is the type of
    `value`; splat and dense forms are both accepted.

    ```mlir
    %c = rlx.constant dense<[1.0, 2.0]> : tensor<2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs RLX_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// ParamOp
//===----------------------------------------------------------------------===//

def RLX_ParamOp : RLX_Op<"param", [Pure]> {
  let summary = "A named weight bound by the runtime";
  let description = [{
    Reads the model weight called `name`. The runtime (or
    `--rlx-specialize-params` / `--rlx-promote-params`) binds the name to
    data of the result type. Two `rlx.param` ops of one function with the
    same name denote the same weight, so they must agree on the type.

    ```mlir
    %w = rlx.param "encoder.layer0.wq" : tensor<768x768xf32>
    ```
  }];
  let arguments = (ins StrAttr:$name);
  let results = (outs RLX_Tensor:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// CastOp
//===----------------------------------------------------------------------===//

def RLX_CastOp : RLX_Op<"cast", [Pure, SameOperandsAndResultShape,
                                 Elementwise]> {
  let summary = "Element type conversion";
  let description = [{
    Converts every element to the result's element type, as PyTorch's
    `x.to(dtype)`: float to float rounds to nearest even, float to integer
    truncates toward zero, integer to integer wraps, anything to `i1` tests
    for non-zero, and real to complex sets the imaginary part to zero. The
    shape is unchanged. A cast to the operand's own type folds away.

    ```mlir
    %h = rlx.cast %x : tensor<4x8xf32> -> tensor<4x8xbf16>
    ```
  }];
  let arguments = (ins RLX_Tensor:$input);
  let results = (outs RLX_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// StopGradientOp
//===----------------------------------------------------------------------===//

def RLX_StopGradientOp : RLX_UnaryOp<"stop_gradient", RLX_Tensor> {
  let summary = "Identity whose derivative is zero";
  let description = [{
    Returns its operand unchanged; autodiff treats the result as a constant
    (PyTorch's `x.detach()`). It is kept until autodiff has run.

    ```mlir
    %y = rlx.stop_gradient %x : tensor<4xf32>
    ```
  }];
}

#endif // RLX_DIALECT_MIR_IR_RLXLEAFOPS_TD
