//===- RLXShapeOps.td - RLX shape and data-movement ops ----*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_IR_RLXSHAPEOPS_TD
#define RLX_DIALECT_MIR_IR_RLXSHAPEOPS_TD

include "RLX/Dialect/MIR/IR/RLXBase.td"

//===----------------------------------------------------------------------===//
// ReshapeOp
//===----------------------------------------------------------------------===//

def RLX_ReshapeOp : RLX_Op<"reshape", [Pure]> {
  let summary = "Same elements in row-major order, new shape";
  let description = [{
    Reinterprets `input` with the result's shape, as `torch.reshape`: the
    element type is kept and, where both shapes are static, so is the
    element count. A dynamic result dim takes whatever size makes the count
    agree. Several dynamic result dims pair up, in order, with as many
    dynamic input dims, each with the static dims that follow it, and each
    such group keeps its element count (the static dims before the first
    dynamic one keep theirs): `[?, ?, 32] -> [?, ?, 4, 8]` (a
    transformer's head split) keeps both sizes, `[?, ?, 32] -> [?, ?, 8]`
    multiplies the second by 4. Other reshapes to several dynamic dims are
    ambiguous and do not lower.
    reshape(reshape(x)) folds to one reshape, a reshape to the same type
    folds away, and a reshape of a constant folds to a constant.

    ```mlir
    %y = rlx.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
    ```
  }];
  let arguments = (ins RLX_Tensor:$input);
  let results = (outs RLX_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// TransposeOp
//===----------------------------------------------------------------------===//

def RLX_TransposeOp : RLX_InferredOp<"transpose"> {
  let summary = "Permutes the dims";
  let description = [{
    Result dim i is input dim `permutation[i]`, as `torch.permute`. The
    permutation names every dim exactly once. An identity permutation folds
    away and transpose(transpose(x, p), q) folds to transpose(x, p∘q). A
    transpose of a static shape that moves only dims of size 1 (the others
    keep their order) canonicalizes to an `rlx.reshape`: the elements keep
    their order, so it is a view rather than a copy.

    ```mlir
    %y = rlx.transpose %x [0, 2, 1] : tensor<2x3x4xf32>
    ```
  }];
  let arguments = (ins RLX_Tensor:$input, DenseI64ArrayAttr:$permutation);
  let results = (outs RLX_Tensor:$result);
  let assemblyFormat = "$input $permutation attr-dict `:` type($input)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// NarrowOp
//===----------------------------------------------------------------------===//

def RLX_NarrowOp : RLX_InferredOp<"narrow"> {
  let summary = "A contiguous slice along one axis";
  let description = [{
    Keeps indices [`start`, `start + length`) of `axis`, as
    `torch.narrow(x, axis, start, length)`. `start` is non-negative and the
    slice fits in the axis when its size is static. A slice of a whole axis
    folds away.

    ```mlir
    %q = rlx.narrow %qkv axis = 2 start = 0 length = 768 : tensor<8x128x2304xf32>
    ```
  }];
  let arguments = (ins RLX_Tensor:$input, I64Attr:$axis, I64Attr:$start,
                   I64Attr:$length);
  let results = (outs RLX_Tensor:$result);
  let assemblyFormat = [{
    $input `axis` `=` $axis `start` `=` $start `length` `=` $length attr-dict
    `:` type($input)
  }];
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// ConcatOp
//===----------------------------------------------------------------------===//

def RLX_ConcatOp : RLX_InferredOp<"concat"> {
  let summary = "Joins tensors along an axis";
  let description = [{
    Concatenates one or more `inputs` (same rank and element type, equal
    sizes off `axis`) along `axis`, as `torch.cat`. A concat of one input
    folds away.

    ```mlir
    %y = rlx.concat %a, %b axis = 1 : tensor<2x3xf32>, tensor<2x5xf32>
    ```
  }];
  let arguments = (ins Variadic<RLX_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs RLX_Tensor:$result);
  let assemblyFormat = "$inputs `axis` `=` $axis attr-dict `:` type($inputs)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// ExpandOp
//===----------------------------------------------------------------------===//

def RLX_ExpandOp : RLX_Op<"expand", [Pure]> {
  let summary = "Broadcasts to a larger shape";
  let description = [{
    Broadcasts `input` to the result's shape, as `torch.broadcast_to`: dims
    align at the end, each input dim is 1 or equal to the result dim, and
    the result may add leading dims. An expand to the same type folds away.

    A dynamic result dim takes its size from the input dim it aligns with;
    where that dim is 1 or absent (a scalar spread over a dynamic batch, as
    the gradient of a mean does), the optional `like` operand, of the
    result's rank, gives the result's dynamic sizes: each is the size of
    `like`'s dim at the same position (its other dims do not matter, so
    zeros to pad a slice of `like` can take their sizes from it).

    ```mlir
    %y = rlx.expand %b : tensor<768xf32> -> tensor<8x128x768xf32>
    %z = rlx.expand %s like %x : tensor<f32>, tensor<?x768xf16> -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins RLX_Tensor:$input, Optional<RLX_Tensor>:$like);
  let results = (outs RLX_Tensor:$result);
  let builders = [
    OpBuilder<(ins "Type":$result, "Value":$input), [{
      build($_builder, $_state, result, input, Value());
    }]>
  ];
  let assemblyFormat = [{
    $input (`like` $like^)? attr-dict `:` type($input) (`,` type($like)^)?
    `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// GatherOp
//===----------------------------------------------------------------------===//

def RLX_GatherOp : RLX_InferredOp<"gather"> {
  let summary = "Selects slices of a table by index along an axis";
  let description = [{
    `result[p..., i..., s...] = table[p..., indices[i...], s...]` where `p`
    ranges over the dims of `table` before `axis` and `s` over those after:
    `torch.index_select` for 1-D indices, an embedding lookup for
    `axis = 0`. The result's shape is `table.shape[:axis] + indices.shape +
    table.shape[axis+1:]`. Indices out of range give undefined values.

    ```mlir
    %e = rlx.gather %table, %ids axis = 0 : tensor<30522x768xf32>, tensor<8x128xi64>
    ```
  }];
  let arguments = (ins RLX_Tensor:$table, RLX_IndexTensor:$indices,
                   I64Attr:$axis);
  let results = (outs RLX_Tensor:$result);
  let assemblyFormat = [{
    $table `,` $indices `axis` `=` $axis attr-dict `:` type($table) `,`
    type($indices)
  }];
}

//===----------------------------------------------------------------------===//
// ScatterAddOp
//===----------------------------------------------------------------------===//

def RLX_ScatterAddOp : RLX_InferredOp<"scatter_add"> {
  let summary = "Adds slices into a base tensor at indices along an axis";
  let description = [{
    As `torch.index_add(base, axis, indices, updates)`: for each j,
    `result[..., indices[j], ...] += updates[..., j, ...]` along `axis`, with
    `indices` 1-D of length L and `updates` of `base`'s shape except L at
    `axis`. Repeated indices accumulate. The result has `base`'s type.

    ```mlir
    %g = rlx.scatter_add %zeros, %ids, %upd axis = 0
        : tensor<100x16xf32>, tensor<8xi64>, tensor<8x16xf32>
    ```
  }];
  let arguments = (ins RLX_NumericTensor:$base, RLX_IndexTensor:$indices,
                   RLX_NumericTensor:$updates, I64Attr:$axis);
  let results = (outs RLX_NumericTensor:$result);
  let assemblyFormat = [{
    $base `,` $indices `,` $updates `axis` `=` $axis attr-dict `:`
    type($base) `,` type($indices) `,` type($updates)
  }];
}

//===----------------------------------------------------------------------===//
// ReverseOp
//===----------------------------------------------------------------------===//

def RLX_ReverseOp : RLX_Op<"reverse", [Pure, SameOperandsAndResultType,
                                       InferTypeOpInterface]> {
  let summary = "Reverses the order of elements along axes";
  let description = [{
    Flips `input` along each of the distinct `axes`, as `torch.flip`.
    reverse(reverse(x, a), a) folds to x.

    ```mlir
    %y = rlx.reverse %x axes = [1] : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins RLX_Tensor:$input, DenseI64ArrayAttr:$axes);
  let results = (outs RLX_Tensor:$result);
  let assemblyFormat = "$input `axes` `=` $axes attr-dict `:` type($input)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

#endif // RLX_DIALECT_MIR_IR_RLXSHAPEOPS_TD
