//===- RLXAutodiffOps.td - RLX autodiff transform ops ------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Ops that stand for a transformed function (its gradient, its
// Jacobian-vector product, its batched form). `--rlx-expand-autodiff`
// replaces them with calls to generated functions. Their result types
// follow from the callee's signature, which the verifier checks.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_IR_RLXAUTODIFFOPS_TD
#define RLX_DIALECT_MIR_IR_RLXAUTODIFFOPS_TD

include "RLX/Dialect/MIR/IR/RLXBase.td"
include "mlir/Interfaces/CallInterfaces.td"

class RLX_TransformOp<string mnemonic, list<Trait> traits = []>
    : RLX_Op<mnemonic, traits # [
        DeclareOpInterfaceMethods<SymbolUserOpInterface>]>;

//===----------------------------------------------------------------------===//
// GradOp
//===----------------------------------------------------------------------===//

def RLX_GradOp : RLX_TransformOp<"grad"> {
  let summary = "Value and gradient of a scalar function";
  let description = [{
    Calls `callee` (a `func.func` returning one rank-0 float tensor, the
    loss) on `operands` and returns the loss followed by its gradient with
    respect to each argument listed in `wrt` (distinct indices, each
    naming a float argument; negative ones count from the end), as
    `jax.value_and_grad(f, argnums=wrt)`.
    Each gradient has its argument's type.

    ```mlir
    %loss, %dw = rlx.grad @loss(%w, %x) wrt [0]
        : (tensor<4x4xf32>, tensor<8x4xf32>) -> (tensor<f32>, tensor<4x4xf32>)
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                   Variadic<RLX_Tensor>:$operands, DenseI64ArrayAttr:$wrt);
  let results = (outs Variadic<RLX_Tensor>:$results);
  let assemblyFormat = [{
    $callee `(` $operands `)` `wrt` $wrt attr-dict `:`
    functional-type($operands, $results)
  }];
}

//===----------------------------------------------------------------------===//
// JvpOp
//===----------------------------------------------------------------------===//

def RLX_JvpOp : RLX_TransformOp<"jvp", [AttrSizedOperandSegments]> {
  let summary = "Forward-mode derivative: outputs and their tangents";
  let description = [{
    Calls `callee` on `primals` and returns its results followed by their
    tangents in the direction `tangents` (one per primal, of the primal's
    type), as `jax.jvp(f, primals, tangents)`.

    ```mlir
    %y, %dy = rlx.jvp @f(%x) tangents(%t)
        : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                   Variadic<RLX_Tensor>:$primals,
                   Variadic<RLX_Tensor>:$tangents);
  let results = (outs Variadic<RLX_Tensor>:$results);
  let assemblyFormat = [{
    $callee `(` $primals `)` `tangents` `(` $tangents `)` attr-dict `:`
    functional-type(operands, $results)
  }];
}

//===----------------------------------------------------------------------===//
// VmapOp
//===----------------------------------------------------------------------===//

def RLX_VmapOp : RLX_TransformOp<"vmap"> {
  let summary = "Maps a function over a batch axis";
  let description = [{
    As `jax.vmap(f, in_axes, out_axes)`: `in_axes[i]` is the axis of
    operand i that is mapped over, or -1 for an operand passed whole to
    every call. Operand i has the callee's argument type with the batch
    dim inserted at `in_axes[i]`; all mapped operands share the batch size
    and at least one is mapped. Result j is the callee's result j with the
    batch dim inserted at `out_axes[j]`.

    ```mlir
    %y = rlx.vmap @f(%xs, %w) in_axes [0, -1] out_axes [0]
        : (tensor<16x4xf32>, tensor<4x4xf32>) -> tensor<16x4xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                   Variadic<RLX_Tensor>:$operands,
                   DenseI64ArrayAttr:$in_axes, DenseI64ArrayAttr:$out_axes);
  let results = (outs Variadic<RLX_Tensor>:$results);
  let assemblyFormat = [{
    $callee `(` $operands `)` `in_axes` $in_axes `out_axes` $out_axes
    attr-dict `:` functional-type($operands, $results)
  }];
}

#endif // RLX_DIALECT_MIR_IR_RLXAUTODIFFOPS_TD
