// One BERT-base encoder layer (hidden 768, 12 heads of 64, FFN 3072,
// post-LN, gelu, epsilon 1e-12) on a batch of 1 sequence of 128 tokens,
// written as a single rlx_hir block: the same layer as
// examples/bert_encoder_layer.mlir, which spells it out in MIR primitives.
// The weights are, in order, w_qkv, qkv_bias, w_out, out_bias, ln1_gamma,
// ln1_beta, w_ffn1, b_ffn1, w_ffn2, b_ffn2, ln2_gamma, ln2_beta.
// --rlx-lower-hir lowers it to that chain of rlx ops.
//
//   rlx-opt examples/bert_layer_hir.mlir --rlx-lower-hir
//   rlx-run examples/bert_layer_hir.mlir

func.func @bert_layer_hir(%x: tensor<1x128x768xf32>,
                          %w_qkv: tensor<768x2304xf32>, %b_qkv: tensor<2304xf32>,
                          %w_o: tensor<768x768xf32>, %b_o: tensor<768xf32>,
                          %ln1_g: tensor<768xf32>, %ln1_b: tensor<768xf32>,
                          %w_1: tensor<768x3072xf32>, %b_1: tensor<3072xf32>,
                          %w_2: tensor<3072x768xf32>, %b_2: tensor<768xf32>,
                          %ln2_g: tensor<768xf32>, %ln2_b: tensor<768xf32>)
    -> tensor<1x128x768xf32> {
  %y = rlx_hir.transformer_layer %x, %w_qkv, %b_qkv, %w_o, %b_o, %ln1_g,
      %ln1_b, %w_1, %b_1, %w_2, %b_2, %ln2_g, %ln2_b
      {style = "bert", num_heads = 12 : i64, epsilon = 1.0e-12 : f32}
      : (tensor<1x128x768xf32>, tensor<768x2304xf32>, tensor<2304xf32>,
         tensor<768x768xf32>, tensor<768xf32>, tensor<768xf32>,
         tensor<768xf32>, tensor<768x3072xf32>, tensor<3072xf32>,
         tensor<3072x768xf32>, tensor<768xf32>, tensor<768xf32>,
         tensor<768xf32>) -> tensor<1x128x768xf32>
  return %y : tensor<1x128x768xf32>
}
