//===- RLXHIROps.td - rlx_hir block ops --------------------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each op's description gives the MIR it lowers to; `--rlx-lower-hir`
// (lib/Dialect/HIR/Transforms/LowerHIR.cpp) is the implementation.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_HIR_IR_RLXHIROPS_TD
#define RLX_DIALECT_HIR_IR_RLXHIROPS_TD

include "RLX/Dialect/HIR/IR/RLXHIRDialect.td"
include "RLX/Dialect/MIR/IR/RLXBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class RLXHIR_Op<string mnemonic, list<Trait> traits = []>
    : Op<RLXHIR_Dialect, mnemonic, traits # [Pure]> {
  let hasVerifier = 1;
}

def RLXHIR_LinearOp : RLXHIR_Op<"linear"> {
  let summary = "x @ w (+ bias), then an activation";
  let description = [{
    `input` [..., K] (rank >= 2, as `rlx.matmul`), `weight` [K, N],
    optional `bias` [N]; result [..., N].
    `activation` is one of none (default), relu, gelu, gelu_tanh, silu,
    sigmoid, tanh. Lowers to `rlx.matmul` → `rlx.add` → the activation op.

    ```mlir
    %y = rlx_hir.linear %x, %w, %b {activation = "gelu"}
        : (tensor<8x768xf32>, tensor<768x3072xf32>, tensor<3072xf32>)
        -> tensor<8x3072xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$input, RLX_FloatTensor:$weight,
                   Optional<RLX_FloatTensor>:$bias,
                   DefaultValuedAttr<RLX_ActivationAttr,
                                     "::mlir::rlx::Activation::None">:$activation);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? attr-dict `:` functional-type(operands,
    results)
  }];
}

def RLXHIR_MlpOp : RLXHIR_Op<"mlp"> {
  let summary = "Two linear layers with an activation between them";
  let description = [{
    `activation(input @ w1 + b1) @ w2 + b2` with `input` [..., K] (rank
    >= 2), `w1`
    [K, H], `b1` [H], `w2` [H, N], `b2` [N]; `activation` defaults to gelu.

    ```mlir
    %y = rlx_hir.mlp %x, %w1, %b1, %w2, %b2 {activation = "relu"}
        : (tensor<32x784xf32>, tensor<784x256xf32>, tensor<256xf32>,
           tensor<256x10xf32>, tensor<10xf32>) -> tensor<32x10xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$input, RLX_FloatTensor:$w1,
                   RLX_FloatTensor:$b1, RLX_FloatTensor:$w2,
                   RLX_FloatTensor:$b2,
                   DefaultValuedAttr<RLX_ActivationAttr,
                                     "::mlir::rlx::Activation::Gelu">:$activation);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $w1 `,` $b1 `,` $w2 `,` $b2 attr-dict `:`
    functional-type(operands, results)
  }];
}

def RLXHIR_SwigluOp : RLXHIR_Op<"swiglu"> {
  let summary = "The SwiGLU feed-forward: (silu(x Wg) * (x Wu)) Wd";
  let description = [{
    `input` [..., E] (rank >= 2), `w_gate` and `w_up` [E, F], `w_down`
    [F, E'];
    result [..., E']. Lowers to two `rlx.matmul`, `rlx.silu`, `rlx.mul` and
    the down projection.

    ```mlir
    %y = rlx_hir.swiglu %x, %wg, %wu, %wd
        : (tensor<1x16x512xf32>, tensor<512x1376xf32>, tensor<512x1376xf32>,
           tensor<1376x512xf32>) -> tensor<1x16x512xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$input, RLX_FloatTensor:$w_gate,
                   RLX_FloatTensor:$w_up, RLX_FloatTensor:$w_down);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $w_gate `,` $w_up `,` $w_down attr-dict `:`
    functional-type(operands, results)
  }];
}

def RLXHIR_EmbeddingOp : RLXHIR_Op<"embedding"> {
  let summary = "Rows of a table picked by integer ids";
  let description = [{
    `table` [V, E] and i64 `ids` [...]; result [..., E] with
    `result[i..., :] = table[ids[i...], :]`. Lowers to `rlx.gather` on axis
    0.

    ```mlir
    %e = rlx_hir.embedding %table, %ids
        : (tensor<30522x768xf32>, tensor<1x128xi64>) -> tensor<1x128x768xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$table, RLX_IndexTensor:$ids);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $table `,` $ids attr-dict `:` functional-type(operands, results)
  }];
}

def RLXHIR_LayerNormOp : RLXHIR_Op<"layer_norm"> {
  let summary = "Layer normalization over the last axis";
  let description = [{
    As `rlx.layer_norm`: `gamma` and `beta` [D] for `input` [..., D].

    ```mlir
    %y = rlx_hir.layer_norm %x, %g, %b {epsilon = 1.0e-12 : f32}
        : (tensor<1x128x768xf32>, tensor<768xf32>, tensor<768xf32>)
        -> tensor<1x128x768xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$input, RLX_FloatTensor:$gamma,
                   RLX_FloatTensor:$beta,
                   DefaultValuedAttr<F32Attr, "1.0e-5">:$epsilon);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $gamma `,` $beta attr-dict `:` functional-type(operands,
    results)
  }];
}

def RLXHIR_RmsNormOp : RLXHIR_Op<"rms_norm"> {
  let summary = "RMS normalization over the last axis";
  let description = [{
    As `rlx.rms_norm`: `gamma` [D] for `input` [..., D].

    ```mlir
    %y = rlx_hir.rms_norm %x, %g {epsilon = 1.0e-6 : f32}
        : (tensor<1x16x512xf32>, tensor<512xf32>) -> tensor<1x16x512xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$input, RLX_FloatTensor:$gamma,
                   DefaultValuedAttr<F32Attr, "1.0e-6">:$epsilon);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $gamma attr-dict `:` functional-type(operands, results)
  }];
}

def RLXHIR_AttentionBlockOp : RLXHIR_Op<"attention_block",
    [AttrSizedOperandSegments]> {
  let summary = "QKV projection, optional rope, attention, output projection";
  let description = [{
    Self-attention of `input` [B, S, E] with `num_heads` query heads and
    `num_kv_heads` key/value heads (grouped-query attention; default
    `num_heads`): one projection `w_qkv` [E, (H + 2 Hkv) D] (+ `qkv_bias`),
    rope on q and k when `cos`/`sin` are given (`rope_style`), attention
    with the `mask` kind (none, causal, sliding_window with `window`, or an
    `attn_mask` operand), then `w_out` [H D, E] (+ `out_bias`). The
    semantics are those of `rlx.fused_attention_block`, which it lowers
    through.

    ```mlir
    %y = rlx_hir.attention_block %x, %wqkv, %wo rope(%cos, %sin)
        {num_heads = 8 : i64, num_kv_heads = 2 : i64, mask = "causal"}
        : (tensor<1x16x512xf32>, tensor<512x768xf32>, tensor<512x512xf32>,
           tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<1x16x512xf32>
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
    (`attn_mask` $attn_mask^)? attr-dict `:` functional-type(operands,
    results)
  }];
}

def RLXHIR_TransformerLayerOp : RLXHIR_Op<"transformer_layer"> {
  let summary = "A BERT (post-LN) or Llama (pre-RMSNorm) transformer layer";
  let description = [{
    `style = "bert"`: `weights` are, in order, w_qkv, qkv_bias, w_out,
    out_bias, ln1_gamma, ln1_beta, w_ffn1, b_ffn1, w_ffn2, b_ffn2,
    ln2_gamma, ln2_beta, and the layer is

        h = layer_norm(x + attention_block(x), ln1)
        y = layer_norm(h + activation(h @ w_ffn1 + b_ffn1) @ w_ffn2 + b_ffn2, ln2)

    (`activation` default gelu), as `rlx.fused_transformer_layer`.

    `style = "llama"`: `weights` are attn_norm, w_qkv, w_out, cos, sin,
    ffn_norm, w_gate, w_up, w_down, and the layer is

        h = x + attention_block(rms_norm(x, attn_norm), rope(cos, sin))
        y = h + swiglu(rms_norm(h, ffn_norm), w_gate, w_up, w_down)

    with grouped-query heads (`num_kv_heads`, llama only). `mask` is none
    or causal (set `mask = "causal"` for a decoder). `epsilon` is the norms' (default
    1e-12 for bert, 1e-6 for llama).

    ```mlir
    %y = rlx_hir.transformer_layer %x, %an, %wqkv, %wo, %cos, %sin, %fn,
        %wg, %wu, %wd {style = "llama", num_heads = 8 : i64,
        num_kv_heads = 2 : i64, mask = "causal"} : (...) -> tensor<1x16x512xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$input,
                   Variadic<RLX_FloatTensor>:$weights, StrAttr:$style,
                   I64Attr:$num_heads, OptionalAttr<I64Attr>:$num_kv_heads,
                   DefaultValuedAttr<RLX_MaskKindAttr,
                                     "::mlir::rlx::MaskKind::None">:$mask,
                   OptionalAttr<F32Attr>:$epsilon,
                   DefaultValuedAttr<RLX_ActivationAttr,
                                     "::mlir::rlx::Activation::Gelu">:$activation,
                   DefaultValuedAttr<RLX_RopeStyleAttr,
                                     "::mlir::rlx::RopeStyle::Neox">:$rope_style);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weights attr-dict `:` functional-type(operands, results)
  }];
}

def RLXHIR_ConvBlockOp : RLXHIR_Op<"conv_block"> {
  let summary = "Convolution, group normalization and an activation";
  let description = [{
    `activation(group_norm(conv(input, weight, bias), gamma, beta))`:
    `rlx.conv` with `strides`, `padding`, `dilations` (as `rlx.conv`),
    then `rlx.group_norm` with `num_groups` and `epsilon`, then the
    activation (default relu).

    ```mlir
    %y = rlx_hir.conv_block %x, %w, %b, %g, %beta {num_groups = 4 : i64,
        padding = array<i64: 1, 1, 1, 1>}
        : (tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>,
           tensor<8xf32>, tensor<8xf32>) -> tensor<1x8x16x16xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$input, RLX_FloatTensor:$weight,
                   RLX_FloatTensor:$bias, RLX_FloatTensor:$gamma,
                   RLX_FloatTensor:$beta, I64Attr:$num_groups,
                   OptionalAttr<DenseI64ArrayAttr>:$strides,
                   OptionalAttr<DenseI64ArrayAttr>:$padding,
                   OptionalAttr<DenseI64ArrayAttr>:$dilations,
                   DefaultValuedAttr<F32Attr, "1.0e-5">:$epsilon,
                   DefaultValuedAttr<RLX_ActivationAttr,
                                     "::mlir::rlx::Activation::Relu">:$activation);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight `,` $bias `,` $gamma `,` $beta attr-dict `:`
    functional-type(operands, results)
  }];
}

#endif // RLX_DIALECT_HIR_IR_RLXHIROPS_TD
