//===- RLXControlFlowOps.td - RLX sequence and control ops -*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_IR_RLXCONTROLFLOWOPS_TD
#define RLX_DIALECT_MIR_IR_RLXCONTROLFLOWOPS_TD

include "RLX/Dialect/MIR/IR/RLXBase.td"

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

def RLX_YieldOp : RLX_Op<"yield", [
    Pure, Terminator, ReturnLike,
    ParentOneOf<["ElementwiseRegionOp", "ScanOp", "IfOp", "WhileOp",
                 "CustomFnOp"]>]> {
  let summary = "Returns values from an RLX region";
  let description = [{
    Ends every region of the RLX region ops. What it must yield is set by
    its parent: one scalar per result in `rlx.elementwise_region`, the new
    carry and the per-step outputs in `rlx.scan`, the results in `rlx.if`,
    a `tensor<i1>` in the `cond` region and the next carried values in the
    `body` region of `rlx.while`, and per region of `rlx.custom_fn` what its
    description lists.

    ```mlir
    rlx.yield %a, %b : tensor<4xf32>, tensor<f32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$operands);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
}

//===----------------------------------------------------------------------===//
// ScanOp
//===----------------------------------------------------------------------===//

def RLX_ScanOp : RLX_Op<"scan", [
    AttrSizedOperandSegments, RecursiveMemoryEffects]> {
  let summary = "A loop over the leading axis of xs with carried state";
  let description = [{
    Runs `body` once per index `t` of the leading axis (length L) of every
    tensor in `xs` (`t` descending when `reverse` is set), as
    `jax.lax.scan`. The body's arguments are the current carry (one per
    `init`, of its type) followed by the slices `xs[i][t]` (the xs types
    without their leading dim). It yields the next carry followed by one
    per-step output each. The op's results are the final carry followed by
    the per-step outputs stacked along a new leading axis of length L.
    With no `xs`, `length` gives L.

    ```mlir
    %h, %ys = rlx.scan init(%h0 : tensor<4xf32>) xs(%x : tensor<10x4xf32>)
        -> (tensor<4xf32>, tensor<10x4xf32>) {
    ^bb0(%c: tensor<4xf32>, %xt: tensor<4xf32>):
      %n = rlx.add %c, %xt : tensor<4xf32>
      rlx.yield %n, %n : tensor<4xf32>, tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<RLX_Tensor>:$inits, Variadic<RLX_Tensor>:$xs,
                   OptionalAttr<I64Attr>:$length,
                   DefaultValuedAttr<BoolAttr, "false">:$reverse);
  let results = (outs Variadic<RLX_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`init` `(` $inits^ `:` type($inits) `)`)? (`xs` `(` $xs^ `:` type($xs) `)`)?
    attr-dict `->` `(` type($results) `)` $body
  }];
  let hasRegionVerifier = 1;
}

//===----------------------------------------------------------------------===//
// SelectiveScanOp
//===----------------------------------------------------------------------===//

def RLX_SelectiveScanOp : RLX_InferredOp<"selective_scan"> {
  let summary = "Mamba's selective state-space scan (S6)";
  let description = [{
    The Mamba reference recurrence. With `u`, `delta` [B, D, L], `A` [D, N],
    `B`, `C` [B, N, L] and `D` [D] (all one float type), and
    `dt = softplus(delta)` when `delta_softplus` is set (else `delta`):

        h[t] = exp(dt[t] * A) * h[t-1] + dt[t] * B[t] * u[t]   (h[-1] = 0)
        y[t] = C[t] . h[t] + D * u[t]

    per batch and channel, with the state h of size N. The result `y` has
    `u`'s type.

    ```mlir
    %y = rlx.selective_scan %u, %dt, %a, %b, %c, %d
        : tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8x4xf32>,
          tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<8xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$u, RLX_FloatTensor:$delta,
                   RLX_FloatTensor:$A, RLX_FloatTensor:$B, RLX_FloatTensor:$C,
                   RLX_FloatTensor:$D,
                   DefaultValuedAttr<BoolAttr, "false">:$delta_softplus);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $u `,` $delta `,` $A `,` $B `,` $C `,` $D attr-dict `:` type($u) `,`
    type($delta) `,` type($A) `,` type($B) `,` type($C) `,` type($D)
  }];
}

//===----------------------------------------------------------------------===//
// IfOp
//===----------------------------------------------------------------------===//

def RLX_IfOp : RLX_Op<"if", [RecursiveMemoryEffects, NoRegionArguments]> {
  let summary = "Runs one of two regions on a scalar predicate";
  let description = [{
    Runs `then` when the rank-0 `condition` holds and `else` otherwise, as
    `jax.lax.cond`. Both regions take no arguments (values from above are
    visible) and yield values of the result types.

    ```mlir
    %r = rlx.if %p : tensor<i1> -> tensor<4xf32> {
      rlx.yield %x : tensor<4xf32>
    } else {
      %n = rlx.neg %x : tensor<4xf32>
      rlx.yield %n : tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins RLX_BoolTensor:$condition);
  let results = (outs Variadic<RLX_Tensor>:$results);
  let regions = (region SizedRegion<1>:$thenRegion, SizedRegion<1>:$elseRegion);
  let assemblyFormat = [{
    $condition `:` type($condition) (`->` type($results)^)? $thenRegion
    `else` $elseRegion attr-dict
  }];
  let hasRegionVerifier = 1;
}

//===----------------------------------------------------------------------===//
// WhileOp
//===----------------------------------------------------------------------===//

def RLX_WhileOp : RLX_InferredOp<"while", [RecursiveMemoryEffects]> {
  let summary = "A loop over carried values while a condition holds";
  let description = [{
    As `jax.lax.while_loop`: starting from `inits`, runs `cond` on the
    carried values (it yields a rank-0 `tensor<i1>`) and, while it holds,
    `body` (it yields the next carried values). Both regions take the
    carried values as arguments. The results are the final carried values.
    `max_iterations`, when given, bounds the trip count; legalization for
    targets without loops unrolls to that bound.

    ```mlir
    %r = rlx.while (%x) : (tensor<f32>) {max_iterations = 100} cond {
    ^bb0(%a: tensor<f32>):
      %p = rlx.cmp lt, %a, %limit : tensor<f32>
      rlx.yield %p : tensor<i1>
    } do {
    ^bb0(%a: tensor<f32>):
      %n = rlx.add %a, %a : tensor<f32>
      rlx.yield %n : tensor<f32>
    }
    ```
  }];
  let arguments = (ins Variadic<RLX_Tensor>:$inits,
                   OptionalAttr<I64Attr>:$max_iterations);
  let results = (outs Variadic<RLX_Tensor>:$results);
  let regions = (region SizedRegion<1>:$cond, SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inits `)` `:` `(` type($inits) `)` attr-dict `cond` $cond `do` $body
  }];
  let hasRegionVerifier = 1;
}

//===----------------------------------------------------------------------===//
// CustomFnOp
//===----------------------------------------------------------------------===//

def RLX_CustomFnOp : RLX_Op<"custom_fn", [RecursiveMemoryEffects,
                                            IsolatedFromAbove]> {
  let summary = "A function body with hand-written derivative rules";
  let description = [{
    Computes `fwd` on `inputs`, as `jax.custom_vjp`/`custom_jvp`. With
    inputs `x_i : X_i` and results `y_j : Y_j`:

    - `fwd` takes `(x...)` and yields `(y...)`;
    - `vjp` (optional) takes `(x..., y..., dy...)` with `dy_j : Y_j` and
      yields the input cotangents `(dx...)`, `dx_i : X_i`;
    - `jvp` (optional) takes `(x..., dx...)` and yields `(y..., dy...)`.

    Autodiff uses `vjp` / `jvp` when present instead of differentiating
    `fwd`. All regions are isolated: they see only their arguments.

    ```mlir
    %y = rlx.custom_fn (%x) : (tensor<4xf32>) -> tensor<4xf32> fwd {
    ^bb0(%a: tensor<4xf32>):
      %e = rlx.exp %a : tensor<4xf32>
      rlx.yield %e : tensor<4xf32>
    } vjp {
    ^bb0(%a: tensor<4xf32>, %e: tensor<4xf32>, %g: tensor<4xf32>):
      %d = rlx.mul %e, %g : tensor<4xf32>
      rlx.yield %d : tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<RLX_Tensor>:$inputs);
  let results = (outs Variadic<RLX_Tensor>:$results);
  let regions = (region SizedRegion<1>:$fwd, AnyRegion:$vjp, AnyRegion:$jvp);
  let assemblyFormat = [{
    `(` $inputs `)` `:` functional-type($inputs, $results) attr-dict
    `fwd` $fwd (`vjp` $vjp^)? (`jvp` $jvp^)?
  }];
  let hasRegionVerifier = 1;
}

#endif // RLX_DIALECT_MIR_IR_RLXCONTROLFLOWOPS_TD
