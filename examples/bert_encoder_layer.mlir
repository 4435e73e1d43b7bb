// One BERT-base encoder layer (hidden 768, 12 heads of 64, FFN 3072,
// post-LN) on a batch of 1 sequence of 128 tokens, written with RLX MIR
// primitives. Fusion (the optimizer issue) turns this chain into
// rlx.fused_attention_block / rlx.fused_residual_layer_norm /
// rlx.fused_matmul_bias_act, or one rlx.fused_transformer_layer.
//
//   rlx-opt examples/bert_encoder_layer.mlir

func.func @bert_layer(%x: tensor<1x128x768xf32>,
                      %w_qkv: tensor<768x2304xf32>, %b_qkv: tensor<2304xf32>,
                      %w_o: tensor<768x768xf32>, %b_o: tensor<768xf32>,
                      %ln1_g: tensor<768xf32>, %ln1_b: tensor<768xf32>,
                      %w_1: tensor<768x3072xf32>, %b_1: tensor<3072xf32>,
                      %w_2: tensor<3072x768xf32>, %b_2: tensor<768xf32>,
                      %ln2_g: tensor<768xf32>, %ln2_b: tensor<768xf32>)
    -> tensor<1x128x768xf32> {
  // Self-attention: one QKV projection, split into heads.
  %qkv0 = rlx.matmul %x, %w_qkv : tensor<1x128x768xf32>, tensor<768x2304xf32>
  %qkv = rlx.add %qkv0, %b_qkv : tensor<1x128x2304xf32>, tensor<2304xf32>
  %q0 = rlx.narrow %qkv axis = 2 start = 0 length = 768 : tensor<1x128x2304xf32>
  %k0 = rlx.narrow %qkv axis = 2 start = 768 length = 768 : tensor<1x128x2304xf32>
  %v0 = rlx.narrow %qkv axis = 2 start = 1536 length = 768 : tensor<1x128x2304xf32>
  %q1 = rlx.reshape %q0 : tensor<1x128x768xf32> -> tensor<1x128x12x64xf32>
  %k1 = rlx.reshape %k0 : tensor<1x128x768xf32> -> tensor<1x128x12x64xf32>
  %v1 = rlx.reshape %v0 : tensor<1x128x768xf32> -> tensor<1x128x12x64xf32>
  %q = rlx.transpose %q1 [0, 2, 1, 3] : tensor<1x128x12x64xf32>
  %k = rlx.transpose %k1 [0, 2, 1, 3] : tensor<1x128x12x64xf32>
  %v = rlx.transpose %v1 [0, 2, 1, 3] : tensor<1x128x12x64xf32>
  %a = rlx.attention %q, %k, %v mask = none
      : tensor<1x12x128x64xf32>, tensor<1x12x128x64xf32>, tensor<1x12x128x64xf32>
  %a1 = rlx.transpose %a [0, 2, 1, 3] : tensor<1x12x128x64xf32>
  %a2 = rlx.reshape %a1 : tensor<1x128x12x64xf32> -> tensor<1x128x768xf32>
  %o0 = rlx.matmul %a2, %w_o : tensor<1x128x768xf32>, tensor<768x768xf32>
  %o = rlx.add %o0, %b_o : tensor<1x128x768xf32>, tensor<768xf32>
  // Residual + LayerNorm.
  %r1 = rlx.add %x, %o : tensor<1x128x768xf32>
  %h = rlx.layer_norm %r1, %ln1_g, %ln1_b {epsilon = 1.0e-12 : f32}
      : tensor<1x128x768xf32>, tensor<768xf32>
  // Feed-forward.
  %f0 = rlx.matmul %h, %w_1 : tensor<1x128x768xf32>, tensor<768x3072xf32>
  %f1 = rlx.add %f0, %b_1 : tensor<1x128x3072xf32>, tensor<3072xf32>
  %f2 = rlx.gelu %f1 : tensor<1x128x3072xf32>
  %f3 = rlx.matmul %f2, %w_2 : tensor<1x128x3072xf32>, tensor<3072x768xf32>
  %f = rlx.add %f3, %b_2 : tensor<1x128x768xf32>, tensor<768xf32>
  // Residual + LayerNorm.
  %r2 = rlx.add %h, %f : tensor<1x128x768xf32>
  %y = rlx.layer_norm %r2, %ln2_g, %ln2_b {epsilon = 1.0e-12 : f32}
      : tensor<1x128x768xf32>, tensor<768xf32>
  return %y : tensor<1x128x768xf32>
}
