//===- RLXLIROps.td - rlx_lir ops --------------------------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_LIR_IR_RLXLIROPS_TD
#define RLX_DIALECT_LIR_IR_RLXLIROPS_TD

include "RLX/Dialect/LIR/IR/RLXLIRAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class RLXLIR_Op<string mnemonic, list<Trait> traits = []>
    : Op<RLXLIR_Dialect, mnemonic, traits>;

// A planned buffer: a statically shaped memref with the identity layout (a
// contiguous view of the arena).
def RLXLIR_BufferType : StaticShapeMemRefOf<[AnyType]>;

//===----------------------------------------------------------------------===//
// ArenaOp
//===----------------------------------------------------------------------===//

def RLXLIR_ArenaOp : RLXLIR_Op<"arena"> {
  let summary = "The one allocation that holds a function's intermediates";
  let description = [{
    The arena of the enclosing function: `plan.arena_size` bytes, aligned to
    `plan.alignment`, allocated once per call. The plan lists every buffer
    carved out of it. Besides the plan's own rules (see
    `#rlx_lir.plan`), the verifier checks the plan against the IR: every
    `rlx_lir.buffer` and `rlx_lir.alias` of this arena matches its plan entry
    in offset and size, and every kernel that writes or reads one of them
    runs within the planned lifetime, so that a plan cannot claim a buffer
    dead while a kernel still uses it.

    ```mlir
    %arena = rlx_lir.arena {plan = #rlx_lir.plan<arena_size = 512,
        alignment = 64, buffers = [
          #rlx_lir.buffer<id = 0, offset = 0, size = 512, start = 0, end = 1>]>}
        : memref<512xi8>
    ```
  }];
  let arguments = (ins RLXLIR_PlanAttr:$plan);
  let results = (outs MemRefRankOf<[I8], [1]>:$result);
  // In the attribute dictionary the plan prints in full
  // (`#rlx_lir.plan<...>`), as tests read it.
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// BufferOp
//===----------------------------------------------------------------------===//

def RLXLIR_BufferOp : RLXLIR_Op<"buffer", [Pure]> {
  let summary = "A planned buffer: a typed view of the arena at an offset";
  let description = [{
    Buffer `id` of the arena's plan, `offset` bytes into the arena, typed as
    the tensor it holds (a contiguous memref). Its offset and byte size are
    those of the plan entry (checked by `rlx_lir.arena`).

    ```mlir
    %b = rlx_lir.buffer %arena[512] id 1 : memref<1024xi8> -> memref<4x32xf32>
    ```
  }];
  let arguments = (ins MemRefRankOf<[I8], [1]>:$arena,
                   I64Attr:$offset, I64Attr:$id);
  let results = (outs RLXLIR_BufferType:$result);
  let assemblyFormat = [{
    $arena `[` $offset `]` `id` $id attr-dict `:` type($arena) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// AliasOp
//===----------------------------------------------------------------------===//

def RLXLIR_AliasOp : RLXLIR_Op<"alias", [Pure]> {
  let summary = "A view of a buffer at an offset, which costs no bytes";
  let description = [{
    Plan entry `id`: the bytes `[offset, offset + size)` of `source` (a
    buffer or another alias), typed as the tensor they hold. It stands for a
    view op of MIR (reshape, same-width cast, axis-0 narrow, an expand that
    only adds size-1 dims) or for the result of an elementwise kernel that
    overwrote its dying input in place. The bytes must lie within `source`.

    ```mlir
    %v = rlx_lir.alias %b[64] id 2 : memref<4x32xf32> -> memref<3x32xf32>
    ```
  }];
  let arguments = (ins RLXLIR_BufferType:$source, I64Attr:$offset,
                   I64Attr:$id);
  let results = (outs RLXLIR_BufferType:$result);
  let assemblyFormat = [{
    $source `[` $offset `]` `id` $id attr-dict `:` type($source) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// WeightOp
//===----------------------------------------------------------------------===//

def RLXLIR_WeightOp : RLXLIR_Op<"weight", [Pure]> {
  let summary = "A named parameter's slot in the module's weight region";
  let description = [{
    The parameter `name` (an `rlx.param` of MIR), read from its slot of the
    module's `rlx_lir.weights` layout. Every function that names the same
    parameter reads the same slot. The slot's size must be the memref's.

    ```mlir
    %w = rlx_lir.weight "w1" : memref<784x256xf32>
    ```
  }];
  let arguments = (ins StrAttr:$name);
  let results = (outs RLXLIR_BufferType:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

def RLXLIR_KernelOp : RLXLIR_Op<"kernel", [
    AttrSizedOperandSegments, IsolatedFromAbove, SingleBlock,
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "One kernel launch over planned buffers";
  let description = [{
    Runs the MIR op(s) of its body, named `name` (the op, or the fused op,
    it launches). The body's arguments are the `inputs` as tensors: planned
    buffers, weights and aliases (memrefs, read) and values that live
    outside the arena (tensors: function arguments, results of earlier
    kernels that the function returns). `rlx_lir.yield` gives one value per
    `outputs` buffer, which the kernel writes, followed by one value per
    result: a tensor that does not live in the arena (the function's own
    results). Constants and views of values outside the arena are cloned
    into the body. Kernels run in program order; the plan numbers them from
    0.

    ```mlir
    rlx_lir.kernel "rlx.gelu" ins(%a : memref<4x32xf32>)
        outs(%b : memref<4x32xf32>) {
    ^bb0(%x: tensor<4x32xf32>):
      %y = rlx.gelu %x : tensor<4x32xf32>
      rlx_lir.yield %y : tensor<4x32xf32>
    }
    ```
  }];
  let arguments = (ins StrAttr:$name, Variadic<AnyType>:$inputs,
                   Variadic<RLXLIR_BufferType>:$outputs);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $name (`ins` `(` $inputs^ `:` type($inputs) `)`)?
    (`outs` `(` $outputs^ `:` type($outputs) `)`)? $body attr-dict
    (`->` type($results)^)?
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

def RLXLIR_YieldOp : RLXLIR_Op<"yield", [
    Pure, Terminator, HasParent<"KernelOp">]> {
  let summary = "The values a kernel writes and returns";
  let description = [{
    Ends a kernel's body: one tensor per output buffer, then one per kernel
    result.

    ```mlir
    rlx_lir.yield %y : tensor<4x32xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

#endif // RLX_DIALECT_LIR_IR_RLXLIROPS_TD
