//===- RLXReductionOps.td - RLX reductions and scans -------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_IR_RLXREDUCTIONOPS_TD
#define RLX_DIALECT_MIR_IR_RLXREDUCTIONOPS_TD

include "RLX/Dialect/MIR/IR/RLXBase.td"

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

def RLX_ReduceOp : RLX_InferredOp<"reduce"> {
  let summary = "Sum, mean, max, min or product over axes";
  let description = [{
    Reduces `input` over `axes` (distinct, each in [-rank, rank); at least
    one) with `kind`, as `torch.sum(x, axes, keepdim)`, `torch.mean`,
    `torch.amax`, `torch.amin` and `torch.prod`. With `keepdim` the reduced
    dims stay as size 1; without, they are dropped. `mean` takes a float
    operand. Float sums accumulate in at least f32.

    ```mlir
    %s = rlx.reduce sum %x axes = [1] : tensor<4x8xf32>
    %m = rlx.reduce max %x axes = [-1] keepdim true : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins RLX_ReduceKindAttr:$kind, RLX_RealTensor:$input,
                   DenseI64ArrayAttr:$axes,
                   DefaultValuedAttr<BoolAttr, "false">:$keepdim);
  let results = (outs RLX_RealTensor:$result);
  let assemblyFormat = [{
    custom<EnumKeyword>($kind) $input `axes` `=` $axes (`keepdim` $keepdim^)?
    attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// ArgMaxOp / ArgMinOp
//===----------------------------------------------------------------------===//

class RLX_ArgReduceOp<string mnemonic, string which> : RLX_InferredOp<mnemonic> {
  let summary = "Index of the " # which # " element along an axis";
  let description = "Returns, as i64, the index of the " # which #
      " element along `axis` (the first one on ties), as `torch.arg" # which #
      "`. `keepdim` keeps the axis as size 1.\n\n```mlir\n%i = rlx." #
      mnemonic # " %x axis = 1 : tensor<4x8xf32>\n%j = rlx." # mnemonic #
      " %x axis = -1 keepdim true : tensor<4x8xf32>\n```";
  let arguments = (ins RLX_RealTensor:$input, I64Attr:$axis,
                   DefaultValuedAttr<BoolAttr, "false">:$keepdim);
  let results = (outs RLX_IndexTensor:$result);
  let assemblyFormat = [{
    $input `axis` `=` $axis (`keepdim` $keepdim^)? attr-dict `:` type($input)
  }];
}

def RLX_ArgMaxOp : RLX_ArgReduceOp<"argmax", "max">;
def RLX_ArgMinOp : RLX_ArgReduceOp<"argmin", "min">;

//===----------------------------------------------------------------------===//
// SoftmaxOp / LogSoftmaxOp
//===----------------------------------------------------------------------===//

class RLX_AxisOp<string mnemonic, Type type, list<Trait> traits = []>
    : RLX_Op<mnemonic, traits # [Pure, SameOperandsAndResultType,
                                 InferTypeOpInterface]> {
  let arguments = (ins type:$input, I64Attr:$axis);
  let results = (outs type:$result);
  let assemblyFormat = "$input `axis` `=` $axis attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def RLX_SoftmaxOp : RLX_AxisOp<"softmax", RLX_FloatTensor> {
  let summary = "Numerically stable softmax along an axis";
  let description = [{
    `exp(x - max(x)) / sum(exp(x - max(x)))` along `axis`, as
    `torch.softmax(x, axis)`.

    ```mlir
    %p = rlx.softmax %x axis = -1 : tensor<4x8xf32>
    ```
  }];
}

def RLX_LogSoftmaxOp : RLX_AxisOp<"log_softmax", RLX_FloatTensor> {
  let summary = "Numerically stable log-softmax along an axis";
  let description = [{
    `x - max(x) - log(sum(exp(x - max(x))))` along `axis`, as
    `torch.log_softmax(x, axis)`.

    ```mlir
    %p = rlx.log_softmax %x axis = 1 : tensor<4x8xf32>
    ```
  }];
}

def RLX_CumsumOp : RLX_AxisOp<"cumsum", RLX_RealTensor> {
  let summary = "Inclusive prefix sum along an axis";
  let description = [{
    `y[..., i, ...] = sum(x[..., 0..=i, ...])` along `axis`, as
    `torch.cumsum(x, axis)`; the result keeps the operand's type.

    ```mlir
    %c = rlx.cumsum %x axis = 0 : tensor<16xi64>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// TopKOp
//===----------------------------------------------------------------------===//

def RLX_TopKOp : RLX_InferredOp<"topk"> {
  let summary = "The k largest elements along an axis, sorted";
  let description = [{
    Returns the `k` largest elements along `axis` in descending order and
    their i64 indices, as `torch.topk(x, k, axis, largest=True,
    sorted=True)`. `k` is at least 1 and at most the axis' size when that
    is static.

    ```mlir
    %v, %i = rlx.topk %x k = 2 axis = -1 : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins RLX_RealTensor:$input, I64Attr:$k, I64Attr:$axis);
  let results = (outs RLX_RealTensor:$values, RLX_IndexTensor:$indices);
  let assemblyFormat = [{
    $input `k` `=` $k `axis` `=` $axis attr-dict `:` type($input)
  }];
}

//===----------------------------------------------------------------------===//
// SoftmaxCrossEntropyOp
//===----------------------------------------------------------------------===//

def RLX_SoftmaxCrossEntropyOp : RLX_InferredOp<"softmax_cross_entropy"> {
  let summary = "Mean cross-entropy of logits against class labels";
  let description = [{
    `logits` [N, C] (float) and `labels` [N] (i64, each in [0, C)) give the
    scalar `mean_n(logsumexp(logits[n]) - logits[n, labels[n]])`, as
    `F.cross_entropy(logits, labels)`. The result is a rank-0 tensor of the
    logits' element type.

    ```mlir
    %l = rlx.softmax_cross_entropy %logits, %labels
        : tensor<8x10xf32>, tensor<8xi64>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$logits, RLX_IndexTensor:$labels);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $logits `,` $labels attr-dict `:` type($logits) `,` type($labels)
  }];
}

#endif // RLX_DIALECT_MIR_IR_RLXREDUCTIONOPS_TD
