//===- RLXFusedOps.td - RLX fused ops ----------------------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Ops that fusion forms from chains of primitives (and that a model writer
// may also write by hand). Each description names the chain it replaces;
// unfusing rewrites it back.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_IR_RLXFUSEDOPS_TD
#define RLX_DIALECT_MIR_IR_RLXFUSEDOPS_TD

include "RLX/Dialect/MIR/IR/RLXBase.td"

//===----------------------------------------------------------------------===//
// FusedMatmulBiasActOp
//===----------------------------------------------------------------------===//

def RLX_FusedMatmulBiasActOp : RLX_InferredOp<"fused_matmul_bias_act"> {
  let summary = "matmul, then + bias, then an activation";
  let description = [{
    `activation(matmul(lhs, rhs) + bias)`: `lhs` and `rhs` as `rlx.matmul`
    (with `transpose_b`), `bias` (optional) 1-D of the result's last dim,
    `activation` one of none, relu, gelu, gelu_tanh, silu, sigmoid, tanh.
    Replaces `rlx.matmul` → `rlx.add` → activation op.

    ```mlir
    %y = rlx.fused_matmul_bias_act %x, %w, %b activation = gelu
        : tensor<8x128x768xf32>, tensor<768x3072xf32>, tensor<3072xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$lhs, RLX_FloatTensor:$rhs,
                   Optional<RLX_FloatTensor>:$bias,
                   DefaultValuedAttr<RLX_ActivationAttr,
                                     "::mlir::rlx::Activation::None">:$activation,
                   DefaultValuedAttr<BoolAttr, "false">:$transpose_b);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs (`,` $bias^)? (`transpose_b` $transpose_b^)? `activation`
    `=` custom<EnumKeyword>($activation) attr-dict `:` type($lhs) `,`
    type($rhs) (`,` type($bias)^)?
  }];
}

//===----------------------------------------------------------------------===//
// FusedResidualLayerNormOp / FusedResidualRmsNormOp
//===----------------------------------------------------------------------===//

def RLX_FusedResidualLayerNormOp : RLX_Op<"fused_residual_layer_norm", [
    Pure, AllTypesMatch<["input", "residual", "result", "sum"]>,
    AllTypesMatch<["gamma", "beta"]>]> {
  let summary = "Residual add followed by layer_norm, in one pass";
  let description = [{
    `sum = input + residual` and `result = layer_norm(sum, gamma, beta,
    epsilon)` (see `rlx.layer_norm`). Both are results so that the residual
    stream stays available. Replaces `rlx.add` → `rlx.layer_norm`.

    ```mlir
    %y, %s = rlx.fused_residual_layer_norm %x, %r, %g, %b
        : tensor<8x128x768xf32>, tensor<768xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$input, RLX_FloatTensor:$residual,
                   RLX_FloatTensor:$gamma, RLX_FloatTensor:$beta,
                   DefaultValuedAttr<F32Attr, "1.0e-5">:$epsilon);
  let results = (outs RLX_FloatTensor:$result, RLX_FloatTensor:$sum);
  let assemblyFormat = [{
    $input `,` $residual `,` $gamma `,` $beta attr-dict `:` type($input) `,`
    type($gamma)
  }];
  let hasVerifier = 1;
}

def RLX_FusedResidualRmsNormOp : RLX_Op<"fused_residual_rms_norm", [
    Pure, AllTypesMatch<["input", "residual", "result", "sum"]>]> {
  let summary = "Residual add followed by rms_norm, in one pass";
  let description = [{
    `sum = input + residual` and `result = rms_norm(sum, gamma, epsilon)`
    (see `rlx.rms_norm`). Replaces `rlx.add` → `rlx.rms_norm`.

    ```mlir
    %y, %s = rlx.fused_residual_rms_norm %x, %r, %g
        : tensor<1x16x4096xf32>, tensor<4096xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$input, RLX_FloatTensor:$residual,
                   RLX_FloatTensor:$gamma,
                   DefaultValuedAttr<F32Attr, "1.0e-6">:$epsilon);
  let results = (outs RLX_FloatTensor:$result, RLX_FloatTensor:$sum);
  let assemblyFormat = [{
    $input `,` $residual `,` $gamma attr-dict `:` type($input) `,` type($gamma)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// FusedSwigluOp
//===----------------------------------------------------------------------===//

def RLX_FusedSwigluOp : RLX_InferredOp<"fused_swiglu"> {
  let summary = "SwiGLU gate: silu(x Wg) * (x Wu)";
  let description = [{
    With `input` [..., E] and `w_gate`, `w_up` [E, F]: `silu(input @ w_gate)
    * (input @ w_up)`, of shape [..., F]. Replaces the two `rlx.matmul`,
    `rlx.silu` and `rlx.mul`.

    ```mlir
    %h = rlx.fused_swiglu %x, %wg, %wu : tensor<1x16x4096xf32>, tensor<4096x11008xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$input, RLX_FloatTensor:$w_gate,
                   RLX_FloatTensor:$w_up);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $w_gate `,` $w_up attr-dict `:` type($input) `,`
    custom<OperandTypes>(type($w_gate), type($w_up))
  }];
}

//===----------------------------------------------------------------------===//
// FusedAttentionBlockOp
//===----------------------------------------------------------------------===//

def RLX_FusedAttentionBlockOp : RLX_InferredOp<"fused_attention_block", [
    AttrSizedOperandSegments]> {
  let summary = "QKV projection, optional rope, attention, output projection";
  let description = [{
    With `input` [B, S, E], H = `num_heads`, Hkv = `num_kv_heads` (default
    H; H a multiple of it) and head dim D:

    1. `qkv = input @ w_qkv (+ qkv_bias)`, `w_qkv` [E, (H + 2 Hkv) D];
    2. q, k, v = the three column blocks (H D, Hkv D, Hkv D) reshaped to
       [B, S, heads, D] and transposed to [B, heads, S, D];
    3. with `rope(cos, sin)`: `rlx.rope` (style `rope_style`) on q and k;
    4. `rlx.attention` with `mask`, `window`, `scale` and the optional
       `attn_mask`;
    5. back to [B, S, H D], then `@ w_out (+ out_bias)`, `w_out` [H D, E].

    Replaces that chain of `rlx.matmul`, `rlx.narrow`, `rlx.reshape`,
    `rlx.transpose`, `rlx.rope`, `rlx.attention` and `rlx.add` ops.

    ```mlir
    %y = rlx.fused_attention_block %x, %wqkv, %wout heads = 12 mask = none
        : (tensor<8x128x768xf32>, tensor<768x2304xf32>, tensor<768x768xf32>)
        -> tensor<8x128x768xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$input, RLX_FloatTensor:$w_qkv,
                   RLX_FloatTensor:$w_out,
                   Optional<RLX_FloatTensor>:$qkv_bias,
                   Optional<RLX_FloatTensor>:$out_bias,
                   Optional<RLX_FloatTensor>:$cos,
                   Optional<RLX_FloatTensor>:$sin,
                   Optional<RankedTensorOf<[RLX_Float, I1]>>:$attn_mask,
                   I64Attr:$num_heads, OptionalAttr<I64Attr>:$num_kv_heads,
                   DefaultValuedAttr<RLX_MaskKindAttr,
                                     "::mlir::rlx::MaskKind::None">:$mask,
                   OptionalAttr<I64Attr>:$window,
                   OptionalAttr<F32Attr>:$scale,
                   DefaultValuedAttr<RLX_RopeStyleAttr,
                                     "::mlir::rlx::RopeStyle::Neox">:$rope_style);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $w_qkv `,` $w_out (`qkv_bias` $qkv_bias^)?
    (`out_bias` $out_bias^)? (`rope` `(` $cos^ `,` $sin `)`)?
    (`attn_mask` $attn_mask^)? `heads` `=` $num_heads
    (`kv_heads` `=` $num_kv_heads^)? `mask` `=` custom<EnumKeyword>($mask)
    (`window` `=` $window^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// FusedTransformerLayerOp
//===----------------------------------------------------------------------===//

def RLX_FusedTransformerLayerOp : RLX_InferredOp<"fused_transformer_layer"> {
  let summary = "A whole post-LN (BERT-style) encoder layer";
  let description = [{
    With `input` x [B, S, E]:

        a = attention_block(x, w_qkv, qkv_bias, w_out, out_bias)
        h = layer_norm(x + a, ln1_gamma, ln1_beta)
        f = activation(h @ w_ffn1 + b_ffn1) @ w_ffn2 + b_ffn2
        y = layer_norm(h + f, ln2_gamma, ln2_beta)

    where attention_block is `rlx.fused_attention_block` with
    `num_heads`, `mask` and the optional `attn_mask`, `w_ffn1` is [E, F]
    and `w_ffn2` [F, E], and both norms use `epsilon`. Replaces the
    attention block, two residual layer norms and the feed-forward chain.

    ```mlir
    %y = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %bo, %g1, %b1,
        %w1, %c1, %w2, %c2, %g2, %b2 heads = 12 mask = none
        : (tensor<8x128x768xf32>, tensor<768x2304xf32>, tensor<2304xf32>,
           tensor<768x768xf32>, tensor<768xf32>, tensor<768xf32>,
           tensor<768xf32>, tensor<768x3072xf32>, tensor<3072xf32>,
           tensor<3072x768xf32>, tensor<768xf32>, tensor<768xf32>,
           tensor<768xf32>) -> tensor<8x128x768xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$input, RLX_FloatTensor:$w_qkv,
                   RLX_FloatTensor:$qkv_bias, RLX_FloatTensor:$w_out,
                   RLX_FloatTensor:$out_bias, RLX_FloatTensor:$ln1_gamma,
                   RLX_FloatTensor:$ln1_beta, RLX_FloatTensor:$w_ffn1,
                   RLX_FloatTensor:$b_ffn1, RLX_FloatTensor:$w_ffn2,
                   RLX_FloatTensor:$b_ffn2, RLX_FloatTensor:$ln2_gamma,
                   RLX_FloatTensor:$ln2_beta,
                   Optional<RankedTensorOf<[RLX_Float, I1]>>:$attn_mask,
                   I64Attr:$num_heads,
                   DefaultValuedAttr<RLX_MaskKindAttr,
                                     "::mlir::rlx::MaskKind::None">:$mask,
                   DefaultValuedAttr<F32Attr, "1.0e-12">:$epsilon,
                   DefaultValuedAttr<RLX_ActivationAttr,
                                     "::mlir::rlx::Activation::Gelu">:$activation);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $w_qkv `,` $qkv_bias `,` $w_out `,` $out_bias `,` $ln1_gamma
    `,` $ln1_beta `,` $w_ffn1 `,` $b_ffn1 `,` $w_ffn2 `,` $b_ffn2 `,`
    $ln2_gamma `,` $ln2_beta (`attn_mask` $attn_mask^)? `heads` `=`
    $num_heads `mask` `=` custom<EnumKeyword>($mask) attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // RLX_DIALECT_MIR_IR_RLXFUSEDOPS_TD
