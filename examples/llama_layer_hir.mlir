// One Llama decoder layer (hidden 512, 8 query heads of 64 sharing 2
// key/value heads, SwiGLU FFN 1376, pre-RMSNorm with epsilon 1e-6, rope,
// causal mask) on a batch of 1 sequence of 16 tokens, written in rlx_hir
// two ways: @llama_layer_hir as one rlx_hir.transformer_layer block, and
// @llama_layer_blocks as the smaller blocks it stands for
// (rlx_hir.rms_norm, rlx_hir.attention_block, rlx_hir.swiglu) joined by
// the residual rlx.adds. Both compute
//
//   h = x + attention_block(rms_norm(x, attn_norm), rope(cos, sin))
//   y = h + swiglu(rms_norm(h, ffn_norm), w_gate, w_up, w_down)
//
// w_qkv [512, (8 + 2 + 2) * 64] holds the q, k and v columns in that order;
// cos and sin [16, 32] are the rotation of each position and feature pair
// (neox style: pair i is (x[i], x[i + 32]) of a 64-wide head), as rlx.rope.
// --rlx-lower-hir lowers both to the same chain of rlx ops.
//
//   rlx-opt examples/llama_layer_hir.mlir --rlx-lower-hir
//   rlx-run examples/llama_layer_hir.mlir --entry=llama_layer_hir

func.func @llama_layer_hir(%x: tensor<1x16x512xf32>,
                           %attn_norm: tensor<512xf32>,
                           %w_qkv: tensor<512x768xf32>,
                           %w_o: tensor<512x512xf32>,
                           %cos: tensor<16x32xf32>, %sin: tensor<16x32xf32>,
                           %ffn_norm: tensor<512xf32>,
                           %w_gate: tensor<512x1376xf32>,
                           %w_up: tensor<512x1376xf32>,
                           %w_down: tensor<1376x512xf32>)
    -> tensor<1x16x512xf32> {
  %y = rlx_hir.transformer_layer %x, %attn_norm, %w_qkv, %w_o, %cos, %sin,
      %ffn_norm, %w_gate, %w_up, %w_down
      {style = "llama", num_heads = 8 : i64, num_kv_heads = 2 : i64,
       mask = "causal", epsilon = 1.0e-6 : f32}
      : (tensor<1x16x512xf32>, tensor<512xf32>, tensor<512x768xf32>,
         tensor<512x512xf32>, tensor<16x32xf32>, tensor<16x32xf32>,
         tensor<512xf32>, tensor<512x1376xf32>, tensor<512x1376xf32>,
         tensor<1376x512xf32>) -> tensor<1x16x512xf32>
  return %y : tensor<1x16x512xf32>
}

func.func @llama_layer_blocks(%x: tensor<1x16x512xf32>,
                              %attn_norm: tensor<512xf32>,
                              %w_qkv: tensor<512x768xf32>,
                              %w_o: tensor<512x512xf32>,
                              %cos: tensor<16x32xf32>, %sin: tensor<16x32xf32>,
                              %ffn_norm: tensor<512xf32>,
                              %w_gate: tensor<512x1376xf32>,
                              %w_up: tensor<512x1376xf32>,
                              %w_down: tensor<1376x512xf32>)
    -> tensor<1x16x512xf32> {
  // Attention: pre-norm, grouped-query attention with rope, residual.
  %n1 = rlx_hir.rms_norm %x, %attn_norm {epsilon = 1.0e-6 : f32}
      : (tensor<1x16x512xf32>, tensor<512xf32>) -> tensor<1x16x512xf32>
  %a = rlx_hir.attention_block %n1, %w_qkv, %w_o rope(%cos, %sin)
      {num_heads = 8 : i64, num_kv_heads = 2 : i64, mask = "causal"}
      : (tensor<1x16x512xf32>, tensor<512x768xf32>, tensor<512x512xf32>,
         tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<1x16x512xf32>
  %h = rlx.add %x, %a : tensor<1x16x512xf32>
  // Feed-forward: pre-norm, SwiGLU, residual.
  %n2 = rlx_hir.rms_norm %h, %ffn_norm {epsilon = 1.0e-6 : f32}
      : (tensor<1x16x512xf32>, tensor<512xf32>) -> tensor<1x16x512xf32>
  %f = rlx_hir.swiglu %n2, %w_gate, %w_up, %w_down
      : (tensor<1x16x512xf32>, tensor<512x1376xf32>, tensor<512x1376xf32>,
         tensor<1376x512xf32>) -> tensor<1x16x512xf32>
  %y = rlx.add %h, %f : tensor<1x16x512xf32>
  return %y : tensor<1x16x512xf32>
}
