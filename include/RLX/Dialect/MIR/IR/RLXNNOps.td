//===- RLXNNOps.td - RLX normalization, attention, position -*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_MIR_IR_RLXNNOPS_TD
#define RLX_DIALECT_MIR_IR_RLXNNOPS_TD

include "RLX/Dialect/MIR/IR/RLXBase.td"

//===----------------------------------------------------------------------===//
// LayerNormOp
//===----------------------------------------------------------------------===//

def RLX_LayerNormOp : RLX_Op<"layer_norm", [
    Pure, AllTypesMatch<["input", "result"]>,
    AllTypesMatch<["gamma", "beta"]>]> {
  let summary = "Layer normalization over the last axis";
  let description = [{
    `(x - mean) / sqrt(var + epsilon) * gamma + beta` with the (biased)
    mean and variance over the last axis, as
    `F.layer_norm(x, [D], gamma, beta, epsilon)`. `gamma` and `beta` are
    1-D of the last dim's size and of `input`'s element type. Statistics of
    f16/bf16 inputs are accumulated in f32.

    ```mlir
    %y = rlx.layer_norm %x, %g, %b {epsilon = 1.0e-12 : f32}
        : tensor<8x128x768xf32>, tensor<768xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$input, RLX_FloatTensor:$gamma,
                   RLX_FloatTensor:$beta,
                   DefaultValuedAttr<F32Attr, "1.0e-5">:$epsilon);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $gamma `,` $beta attr-dict `:` type($input) `,` type($gamma)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// RmsNormOp
//===----------------------------------------------------------------------===//

def RLX_RmsNormOp : RLX_Op<"rms_norm", [
    Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "Root-mean-square normalization over the last axis";
  let description = [{
    `x * rsqrt(mean(x^2) + epsilon) * gamma` over the last axis, with
    `gamma` 1-D of the last dim's size and of `input`'s element type. The
    mean of f16/bf16 inputs is accumulated in f32.

    ```mlir
    %y = rlx.rms_norm %x, %g {epsilon = 1.0e-6 : f32}
        : tensor<1x16x4096xbf16>, tensor<4096xbf16>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$input, RLX_FloatTensor:$gamma,
                   DefaultValuedAttr<F32Attr, "1.0e-6">:$epsilon);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $gamma attr-dict `:` type($input) `,` type($gamma)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// GroupNormOp
//===----------------------------------------------------------------------===//

def RLX_GroupNormOp : RLX_Op<"group_norm", [
    Pure, AllTypesMatch<["input", "result"]>,
    AllTypesMatch<["gamma", "beta"]>]> {
  let summary = "Group normalization over channel groups";
  let description = [{
    Splits the C channels of `input` [N, C, ...] into `num_groups` groups
    (C divisible by it), normalizes each group of each sample over its
    channels and spatial positions, then applies the per-channel `gamma`
    and `beta` [C], as `F.group_norm`.

    ```mlir
    %y = rlx.group_norm %x, %g, %b {num_groups = 8 : i64}
        : tensor<2x32x16x16xf32>, tensor<32xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$input, RLX_FloatTensor:$gamma,
                   RLX_FloatTensor:$beta, I64Attr:$num_groups,
                   DefaultValuedAttr<F32Attr, "1.0e-5">:$epsilon);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $gamma `,` $beta attr-dict `:` type($input) `,` type($gamma)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// BatchNormInferenceOp
//===----------------------------------------------------------------------===//

def RLX_BatchNormInferenceOp : RLX_Op<"batch_norm_inference", [
    Pure, AllTypesMatch<["input", "result"]>,
    AllTypesMatch<["gamma", "beta", "mean", "variance"]>]> {
  let summary = "Batch normalization with running statistics";
  let description = [{
    `(x - mean) / sqrt(variance + epsilon) * gamma + beta` per channel of
    `input` [N, C, ...], with the four statistics 1-D of size C, as
    `F.batch_norm(x, mean, variance, gamma, beta, training=False)`.

    ```mlir
    %y = rlx.batch_norm_inference %x, %g, %b, %m, %v
        : tensor<2x16x8x8xf32>, tensor<16xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$input, RLX_FloatTensor:$gamma,
                   RLX_FloatTensor:$beta, RLX_FloatTensor:$mean,
                   RLX_FloatTensor:$variance,
                   DefaultValuedAttr<F32Attr, "1.0e-5">:$epsilon);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $gamma `,` $beta `,` $mean `,` $variance attr-dict `:`
    type($input) `,` type($gamma)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// AttentionOp
//===----------------------------------------------------------------------===//

def RLX_AttentionOp : RLX_InferredOp<"attention"> {
  let summary = "Scaled dot-product attention with a mask kind";
  let description = [{
    `softmax(scale * q k^T + mask) v` per batch and head, as
    `F.scaled_dot_product_attention`. `query` is [B, H, S, D], `key`
    [B, Hkv, Skv, D] and `value` [B, Hkv, Skv, Dv] with H a multiple of Hkv
    (grouped-query attention: query head h reads kv head h / (H / Hkv)).
    The result is [B, H, S, Dv]. `scale` defaults to 1/sqrt(D).

    `mask` selects what is added to the scores before the softmax:
    - `none`: nothing;
    - `causal`: query i sees keys j <= i + (Skv - S) (aligned at the end);
    - `sliding_window`: causal and also j > i + (Skv - S) - `window`;
    - `custom`: the `attn_mask` operand (i1, broadcastable to
      [B, H, S, Skv]), true meaning "may attend";
    - `bias`: the `attn_mask` operand (of the query's float type,
      broadcastable to [B, H, S, Skv]), added to the scores.
    `window` (positive) is required for, and only allowed with,
    `sliding_window`; the `attn_mask` operand is required for, and only
    allowed with, `custom` and `bias`. Rows with no visible key give zeros.

    ```mlir
    %o = rlx.attention %q, %k, %v mask = causal
        : tensor<2x8x128x64xf32>, tensor<2x2x128x64xf32>, tensor<2x2x128x64xf32>
    %p = rlx.attention %q, %k, %v, %bias mask = bias
        : tensor<2x8x128x64xf32>, tensor<2x8x128x64xf32>,
          tensor<2x8x128x64xf32>, tensor<2x1x128x128xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$query, RLX_FloatTensor:$key,
                   RLX_FloatTensor:$value,
                   Optional<RankedTensorOf<[RLX_Float, I1]>>:$attn_mask,
                   DefaultValuedAttr<RLX_MaskKindAttr,
                                     "::mlir::rlx::MaskKind::None">:$mask,
                   OptionalAttr<I64Attr>:$window,
                   OptionalAttr<F32Attr>:$scale);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $query `,` $key `,` $value (`,` $attn_mask^)? `mask` `=`
    custom<EnumKeyword>($mask) (`window` `=` $window^)? attr-dict `:`
    type($query) `,` type($key) `,` type($value) (`,` type($attn_mask)^)?
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// RopeOp
//===----------------------------------------------------------------------===//

def RLX_RopeOp : RLX_Op<"rope", [
    Pure, AllTypesMatch<["input", "result"]>, AllTypesMatch<["cos", "sin"]>]> {
  let summary = "Rotary position embedding";
  let description = [{
    Rotates pairs of features of `input` [B, H, S, D] (D even) by angles
    whose cosines and sines are given per position and pair: `cos`, `sin`
    [S, D/2]. With `style = "neox"` (HF rotate-half) pair i is (x[i],
    x[i + D/2]); with `gptj` it is (x[2i], x[2i+1]). Each pair (a, b)
    becomes (a cos - b sin, a sin + b cos).

    ```mlir
    %y = rlx.rope %x, %cos, %sin : tensor<1x32x16x128xf32>, tensor<16x64xf32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$input, RLX_FloatTensor:$cos,
                   RLX_FloatTensor:$sin,
                   DefaultValuedAttr<RLX_RopeStyleAttr,
                                     "::mlir::rlx::RopeStyle::Neox">:$style);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $cos `,` $sin attr-dict `:` type($input) `,` type($cos)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// KVCacheWriteOp
//===----------------------------------------------------------------------===//

def RLX_KVCacheWriteOp : RLX_Op<"kv_cache_write", [
    Pure, AllTypesMatch<["cache", "result"]>]> {
  let summary = "Writes new keys or values into a KV cache at a run-time "
                "position";
  let description = [{
    `cache[..., position:position + n, :, :] = update`: the result is
    `cache` with the n rows of `update` written at the sequence positions
    [position, position + n). `cache` is [..., max_seq, kv_heads,
    head_dim] (rank at least 3), `update` is [..., n, kv_heads, head_dim]
    with the same leading dims, kv_heads, head_dim and element type, and n
    is at most max_seq. `position` is a rank-0 `tensor<i64>` read at run
    time; a position outside [0, max_seq - n] is undefined behaviour
    (`rlx-run --check-bounds` reports the write out of bounds).

    The op lowers to a `tensor.insert_slice` into `cache`: when `cache`
    has no use after the op (the result replaces the cache, as in a decode
    loop), one-shot bufferization writes the n rows into the cache's
    buffer in place and copies nothing else; a cache that is still read
    afterwards is copied first.

    ```mlir
    %k2 = rlx.kv_cache_write %kcache, %knew, %pos
        : tensor<1x4096x8x128xbf16>, tensor<1x1x8x128xbf16>, tensor<i64>
    ```
  }];
  let arguments = (ins RLX_Tensor:$cache, RLX_Tensor:$update,
                   RLX_IndexTensor:$position);
  let results = (outs RLX_Tensor:$result);
  let assemblyFormat = [{
    $cache `,` $update `,` $position attr-dict `:` type($cache) `,`
    type($update) `,` type($position)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// DecodeAttentionOp
//===----------------------------------------------------------------------===//

def RLX_DecodeAttentionOp : RLX_InferredOp<"decode_attention"> {
  let summary = "Attention of new queries over the first positions of a KV "
                "cache";
  let description = [{
    Scaled dot-product attention of `query` [B, H, S, D] (S new tokens,
    usually 1; the layout of `rlx.attention`) over the first `length`
    positions of `key_cache` [B, max_seq, Hkv, D] and `value_cache`
    [B, max_seq, Hkv, Dv] (the layout `rlx.kv_cache_write` writes), as
    `F.scaled_dot_product_attention` over `cache[:, :length]`. The result
    is [B, H, S, Dv].

    `length` is a rank-0 `tensor<i64>` read at run time: the number of
    valid cache positions, the new tokens' included. Query i sits at
    position p = length - S + i and sees the keys j with j <= p (causal;
    so no position >= length) and, when `window` is positive, j > p -
    `window` (the last `window` positions); `window = 0` (the default)
    means no window. A query row that sees no key gives zeros. A `length`
    outside [0, max_seq] is undefined behaviour (the CPU lowering reads no
    position outside the cache).

    Grouped-query attention without repeating k/v: `num_kv_heads` is Hkv,
    H is a multiple of it, and query head h reads kv head h / (H / Hkv).
    `scale` defaults to 1/sqrt(D). Scores of f16/bf16 inputs are
    accumulated in f32.

    ```mlir
    %o = rlx.decode_attention %q, %kc, %vc, %len {num_kv_heads = 8 : i64}
        : tensor<1x32x1x128xbf16>, tensor<1x4096x8x128xbf16>,
          tensor<1x4096x8x128xbf16>, tensor<i64>
    %w = rlx.decode_attention %q, %kc, %vc, %len
        {num_kv_heads = 8 : i64, window = 1024 : i64, scale = 0.125 : f32}
        : tensor<1x32x1x128xbf16>, tensor<1x4096x8x128xbf16>,
          tensor<1x4096x8x128xbf16>, tensor<i64>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$query, RLX_FloatTensor:$key_cache,
                   RLX_FloatTensor:$value_cache, RLX_IndexTensor:$length,
                   I64Attr:$num_kv_heads,
                   DefaultValuedAttr<I64Attr, "0">:$window,
                   OptionalAttr<F32Attr>:$scale);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $query `,` $key_cache `,` $value_cache `,` $length attr-dict `:`
    type($query) `,` type($key_cache) `,` type($value_cache) `,`
    type($length)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// SampleOp
//===----------------------------------------------------------------------===//

def RLX_SampleOp : RLX_InferredOp<"sample"> {
  let summary = "Draws a token id per row of logits (greedy, temperature, "
                "top-k, top-p)";
  let description = [{
    Draws one token id from each row of `logits` [B, V] (or [V]: the result
    is then rank 0) as `torch.multinomial` of the filtered softmax, with a
    counter-based random number so that the draw is a function of the
    operands alone. The result is `tensor<Bxi64>` (`tensor<i64>` for rank-1
    logits). `seed` is a rank-0 `tensor<i64>` read at run time.

    - `temperature = 0`: greedy, the first index of the row's maximum
      (`rlx.argmax`); `top_k`, `top_p` and `seed` are then unused.
    - Otherwise p = softmax(logits / `temperature`) over the row, computed
      in f32 (f64 for f64 logits). The tokens are ranked by (logit
      descending, index ascending), a strict order (ties go to the lower
      index; -0 and +0 are equal). Token i is kept when it is among the
      first `top_k` of that order (`top_k = 0`: all; `top_k >= V`: all) and,
      when `top_p < 1`, among the smallest prefix of that order whose mass
      reaches `top_p` times the mass kept by `top_k` (always at least one
      token).
    - The draw: x = splitmix64(seed + 0x9E3779B97F4A7C15 * (row + 1)) in
      wrapping 64-bit arithmetic, where splitmix64(z) is z ^= z >> 30;
      z *= 0xBF58476D1CE4E5B9; z ^= z >> 27; z *= 0x94D049BB133111EB;
      z ^= z >> 31 (logical shifts), and u = (x >> 40) * 2^-24 in [0, 1).
      The token is the first index i (in index order) at which the running
      sum of the kept probabilities exceeds u times their total.

    The masses are summed in f64. NaN logits are undefined behaviour. The
    op is not differentiable and, like `rlx.argmax`, needs no rule: the
    autodiff transforms pass no tangent or cotangent through an integer
    result.

    Cost: the CPU lowering sorts nothing. It searches the thresholds bit
    by bit, one masked reduction over the row per bit: top_k is a search
    for the top_k-th key of the order (32 passes over the row for f32, 64
    for f64, then ceil(log2(V + 1)) to place it among ties), top_p is the
    same search weighted by the probabilities, and the draw is a search
    over the index (ceil(log2(V + 1)) passes). So about 120 passes over
    [B, V] at V = 150k with both filters on, whatever top_k; greedy is
    two.

    ```mlir
    %greedy = rlx.sample %logits, %seed {temperature = 0.0 : f32}
        : tensor<2x32000xf32>, tensor<i64>
    %tok = rlx.sample %logits, %seed
        {temperature = 0.7 : f32, top_k = 50 : i64, top_p = 0.9 : f32}
        : tensor<2x32000xf32>, tensor<i64>
    %one = rlx.sample %row, %seed {top_p = 0.95 : f32}
        : tensor<151936xbf16>, tensor<i64>
    ```
  }];
  let arguments = (ins RLX_Tensor:$logits, RLX_IndexTensor:$seed,
                   DefaultValuedAttr<F32Attr, "1.0f">:$temperature,
                   DefaultValuedAttr<I64Attr, "0">:$top_k,
                   DefaultValuedAttr<F32Attr, "1.0f">:$top_p);
  let results = (outs RLX_IndexTensor:$result);
  let assemblyFormat = [{
    $logits `,` $seed attr-dict `:` type($logits) `,` type($seed)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// LoraMatmulOp
//===----------------------------------------------------------------------===//

def RLX_LoraMatmulOp : RLX_InferredOp<"lora_matmul"> {
  let summary = "Matrix product with a low-rank (LoRA) update";
  let description = [{
    `input @ weight + scale * (input @ lora_a) @ lora_b`, the forward of a
    linear layer with a LoRA adapter (PEFT's `scale` is lora_alpha / r).
    `input` is [..., K] (rank at least 1), `weight` [K, N], `lora_a` [K, r]
    and `lora_b` [r, N], all of one float element type; the result is
    [..., N]. The weight is not merged: the low-rank path costs r (K + N)
    multiply-adds per row instead of K N.

    The op has no lowering or differentiation rule of its own: every target
    and the autodiff transforms rewrite it (`rlx-unfuse`'s pattern, which
    `rlx-legalize` and `convert-rlx-to-linalg` apply) into
    `rlx.add(rlx.matmul(input, weight), rlx.matmul(rlx.mul(rlx.matmul(input,
    lora_a), scale), lora_b))`, so it runs wherever `rlx.matmul` does and
    its gradients are those of the matmuls. Each product accumulates as
    `rlx.matmul` does (f16/bf16 in f32, then rounded to the element type,
    the [..., r] intermediate included).

    ```mlir
    %y = rlx.lora_matmul %x, %w, %a, %b {scale = 2.0 : f32}
        : tensor<1x16x4096xbf16>, tensor<4096x4096xbf16>,
          tensor<4096x16xbf16>, tensor<16x4096xbf16>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$input, RLX_FloatTensor:$weight,
                   RLX_FloatTensor:$lora_a, RLX_FloatTensor:$lora_b,
                   F32Attr:$scale);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight `,` $lora_a `,` $lora_b attr-dict `:` type($input) `,`
    type($weight) `,` type($lora_a) `,` type($lora_b)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// GroupedMatmulOp
//===----------------------------------------------------------------------===//

def RLX_GroupedMatmulOp : RLX_InferredOp<"grouped_matmul"> {
  let summary = "Per-row matrix product with one of several expert weights "
                "(MoE)";
  let description = [{
    `result[r] = input[r] @ weights[expert[r]]`: each row of `input` [R, K]
    is multiplied by the weight [K, N] of its expert, chosen per row by
    `expert` [R] (i32 or i64, read at run time) among the E experts of
    `weights` [E, K, N]; the result is [R, N]. This is the expert product of
    a mixture-of-experts layer whose rows (tokens, or token-expert pairs of
    a top-k router) carry their expert's index; the rows need not be
    sorted by expert. `input` and `weights` share a float element type;
    f16/bf16 products accumulate in f32.

    An index outside [0, E) is clamped to it (below 0 reads expert 0, E or
    more reads expert E - 1), so no index reads outside `weights`. E must
    be at least 1 (a static E = 0 is rejected; a dynamic one is undefined
    behaviour).

    The op has no differentiation rule: the autodiff transforms report an
    error when a derivative must flow through it.

    ```mlir
    %y = rlx.grouped_matmul %x, %w, %idx
        : tensor<16x2048xbf16>, tensor<8x2048x1024xbf16>, tensor<16xi32>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$input, RLX_FloatTensor:$weights,
                   RankedTensorOf<[I32, I64]>:$expert);
  let results = (outs RLX_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weights `,` $expert attr-dict `:` type($input) `,`
    type($weights) `,` type($expert)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// GatedDeltaNetOp
//===----------------------------------------------------------------------===//

def RLX_GatedDeltaNetOp : RLX_InferredOp<"gated_delta_net"> {
  let summary = "Gated delta rule linear attention, recurrent form "
                "(Qwen3-Next / Qwen3.5)";
  let description = [{
    The gated delta rule of Qwen3-Next's linear attention layers, in the
    recurrent form of Hugging Face's `torch_recurrent_gated_delta_rule`
    (without its l2norm of q and k, which a model applies before the op).
    `query` and `key` are [B, T, H, Dk], `value` [B, T, H, Dv], `gate`
    (the log decay g) and `beta` [B, T, H], and `state` [B, H, Dk, Dv] the
    recurrent state before the first step. With S = `state` and
    scale = 1/sqrt(Dk), for t = 0 .. T-1 and each (b, h):

        S = S * exp(g[b, t, h])
        kv_mem[j] = sum_i S[i, j] * k[b, t, h, i]
        delta[j] = (v[b, t, h, j] - kv_mem[j]) * beta[b, t, h]
        S[i, j] = S[i, j] + k[b, t, h, i] * delta[j]
        result[b, t, h, j] = sum_i S[i, j] * (q[b, t, h, i] * scale)

    The results are `result` [B, T, H, Dv] and `final_state`, S after the
    last step ([B, H, Dk, Dv], `state` itself when T = 0), which a decode
    step passes as the next step's `state`. All operands share a float
    element type; f16/bf16 are computed in f32 (state included) and
    rounded at the end.

    The op has no differentiation rule: the autodiff transforms report an
    error when a derivative must flow through it.

    ```mlir
    %o, %s = rlx.gated_delta_net %q, %k, %v, %g, %beta, %state
        : tensor<1x1x16x128xbf16>, tensor<1x1x16x128xbf16>,
          tensor<1x1x16x128xbf16>, tensor<1x1x16xbf16>, tensor<1x1x16xbf16>,
          tensor<1x16x128x128xbf16>
    ```
  }];
  let arguments = (ins RLX_FloatTensor:$query, RLX_FloatTensor:$key,
                   RLX_FloatTensor:$value, RLX_FloatTensor:$gate,
                   RLX_FloatTensor:$beta, RLX_FloatTensor:$state);
  let results = (outs RLX_FloatTensor:$result, RLX_FloatTensor:$final_state);
  let assemblyFormat = [{
    $query `,` $key `,` $value `,` $gate `,` $beta `,` $state attr-dict `:`
    type($query) `,` type($key) `,` type($value) `,` type($gate) `,`
    type($beta) `,` type($state)
  }];
}

#endif // RLX_DIALECT_MIR_IR_RLXNNOPS_TD
