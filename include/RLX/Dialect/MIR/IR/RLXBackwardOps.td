//===- RLXBackwardOps.td - RLX dedicated backward ops ------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Backward ops that autodiff emits where one fused kernel beats the
// composition of primitives (attention, norms, convolution, cross-entropy).
// Each takes the forward's operands and the result's cotangent and returns
// the cotangents of the forward's operands.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_IR_RLXBACKWARDOPS_TD
#define RLX_DIALECT_MIR_IR_RLXBACKWARDOPS_TD

include "RLX/Dialect/MIR/IR/RLXBase.td"

//===----------------------------------------------------------------------===//
// AttentionBackwardOp
//===----------------------------------------------------------------------===//

def RLX_AttentionBackwardOp : RLX_InferredOp<"attention_backward", [
    AllTypesMatch<["output", "d_output"]>]> {
  let summary = "Gradients of rlx.attention w.r.t. query, key and value";
  let description = [{
    Given the operands of an `rlx.attention` (same attributes and mask), its
    result `output` and the cotangent `d_output` (both [B, H, S, Dv]),
    returns `d_query`, `d_key`, `d_value` of the query's, key's and
    value's types (summed over the query heads that share a kv head).

    ```mlir
    %dq, %dk, %dv = rlx.attention_backward %q, %k, %v, %o, %do mask = causal
        : tensor<2x8x128x64xf32>, tensor<2x2x128x64xf32>,
          tensor<2x2x128x64xf32>, tensor<2x8x128x64xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$query, RLX_FloatTensor:$key,
                   RLX_FloatTensor:$value, RLX_FloatTensor:$output,
                   RLX_FloatTensor:$d_output,
                   Optional<RankedTensorOf<[RLX_Float, I1]>>:$attn_mask,
                   DefaultValuedAttr<RLX_MaskKindAttr,
                                     "::mlir::rlx::MaskKind::None">:$mask,
                   OptionalAttr<I64Attr>:$window,
                   OptionalAttr<F32Attr>:$scale);
  let results = (outs RLX_FloatTensor:$d_query, RLX_FloatTensor:$d_key,
                      RLX_FloatTensor:$d_value);
  let assemblyFormat = [{
    $query `,` $key `,` $value `,` $output `,` $d_output (`,` $attn_mask^)?
    `mask` `=` custom<EnumKeyword>($mask) (`window` `=` $window^)? attr-dict
    `:` type($query) `,` type($key) `,` type($value) `,` type($output)
    (`,` type($attn_mask)^)?
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// LayerNormBackwardOp / RmsNormBackwardOp
//===----------------------------------------------------------------------===//

def RLX_LayerNormBackwardOp : RLX_Op<"layer_norm_backward", [
    Pure, AllTypesMatch<["d_result", "input", "d_input"]>,
    AllTypesMatch<["gamma", "d_gamma", "d_beta"]>]> {
  let summary = "Gradients of rlx.layer_norm";
  let description = [{
    Given `rlx.layer_norm`'s `input`, `gamma` and `epsilon` and the
    cotangent `d_result`, returns the cotangents of `input`, `gamma` and
    `beta` (the latter two summed over all leading dims).

    ```mlir
    %dx, %dg, %db = rlx.layer_norm_backward %dy, %x, %g
        : tensor<8x128x768xf32>, tensor<768xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$d_result, RLX_FloatTensor:$input,
                   RLX_FloatTensor:$gamma,
                   DefaultValuedAttr<F32Attr, "1.0e-5">:$epsilon);
  let results = (outs RLX_FloatTensor:$d_input, RLX_FloatTensor:$d_gamma,
                      RLX_FloatTensor:$d_beta);
  let assemblyFormat = [{
    $d_result `,` $input `,` $gamma attr-dict `:` type($input) `,` type($gamma)
  }];
  let hasVerifier = 1;
}

def RLX_RmsNormBackwardOp : RLX_Op<"rms_norm_backward", [
    Pure, AllTypesMatch<["d_result", "input", "d_input"]>,
    AllTypesMatch<["gamma", "d_gamma"]>]> {
  let summary = "Gradients of rlx.rms_norm";
  let description = [{
    Given `rlx.rms_norm`'s `input`, `gamma` and `epsilon` and the cotangent
    `d_result`, returns the cotangents of `input` and `gamma`.

    ```mlir
    %dx, %dg = rlx.rms_norm_backward %dy, %x, %g
        : tensor<1x16x4096xf32>, tensor<4096xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$d_result, RLX_FloatTensor:$input,
                   RLX_FloatTensor:$gamma,
                   DefaultValuedAttr<F32Attr, "1.0e-6">:$epsilon);
  let results = (outs RLX_FloatTensor:$d_input, RLX_FloatTensor:$d_gamma);
  let assemblyFormat = [{
    $d_result `,` $input `,` $gamma attr-dict `:` type($input) `,` type($gamma)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Conv2DBackwardInputOp / Conv2DBackwardWeightOp
//===----------------------------------------------------------------------===//

class RLX_ConvBackwardOp<string mnemonic>
    : RLX_Op<mnemonic, [Pure]> {
  let arguments = (ins RLX_FloatTensor:$d_result, RLX_FloatTensor:$other,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$strides,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$padding,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$dilations,
                   DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $d_result `,` $other (`strides` `=` $strides^)? (`padding` `=` $padding^)?
    (`dilations` `=` $dilations^)? (`groups` `=` $groups^)? attr-dict `:`
    type($d_result) `,` type($other) `->` type($result)
  }];
  let hasVerifier = 1;
}

def RLX_Conv2DBackwardInputOp : RLX_ConvBackwardOp<"conv2d_backward_input"> {
  let summary = "Gradient of a 2-D rlx.conv w.r.t. its input";
  let description = [{
    Given the cotangent `d_result` of an NCHW `rlx.conv` and its weight
    (passed as `other`), with the same window attributes, returns the
    input's cotangent. The result type names the input's shape (several
    input sizes give the same output size); the verifier checks that the
    forward convolution of that shape gives `d_result`'s shape.

    ```mlir
    %dx = rlx.conv2d_backward_input %dy, %w strides = [2, 2]
        : tensor<1x16x16x16xf32>, tensor<16x3x3x3xf32> -> tensor<1x3x32x32xf32>
    ```
  }];
}

def RLX_Conv2DBackwardWeightOp : RLX_ConvBackwardOp<"conv2d_backward_weight"> {
  let summary = "Gradient of a 2-D rlx.conv w.r.t. its weight";
  let description = [{
    Given the cotangent `d_result` of an NCHW `rlx.conv` and its input
    (passed as `other`), with the same window attributes, returns the
    weight's cotangent (the result type names the weight's shape; the
    verifier checks the forward shapes agree).

    ```mlir
    %dw = rlx.conv2d_backward_weight %dy, %x strides = [2, 2]
        : tensor<1x16x16x16xf32>, tensor<1x3x32x32xf32> -> tensor<16x3x3x3xf32>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// SoftmaxCrossEntropyBackwardOp
//===----------------------------------------------------------------------===//

def RLX_SoftmaxCrossEntropyBackwardOp : RLX_InferredOp<
    "softmax_cross_entropy_backward"> {
  let summary = "Gradient of rlx.softmax_cross_entropy w.r.t. the logits";
  let description = [{
    `(softmax(logits) - onehot(labels)) * d_loss / N` for logits [N, C],
    labels [N] and the rank-0 cotangent `d_loss` of the mean loss.

    ```mlir
    %dl = rlx.softmax_cross_entropy_backward %logits, %labels, %g
        : tensor<8x10xf32>, tensor<8xi64>, tensor<f32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$logits, RLX_IndexTensor:$labels,
                   RLX_FloatTensor:$d_loss);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $logits `,` $labels `,` $d_loss attr-dict `:` type($logits) `,`
    type($labels) `,` type($d_loss)
  }];
}

#endif // RLX_DIALECT_MIR_IR_RLXBACKWARDOPS_TD
