// RUN: rlx-opt %s -split-input-file -verify-diagnostics

func.func @linear_k_mismatch(%x: tensor<4x8xf32>, %w: tensor<6x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'rlx_hir.linear' op expects dim -1 of 'input' (8) to equal dim 0 of 'weight' (6)}}
  %y = rlx_hir.linear %x, %w : (tensor<4x8xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

func.func @linear_weight_rank(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'rlx_hir.linear' op expects 'weight' of rank 2, got rank 1}}
  %y = rlx_hir.linear %x, %w : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

func.func @linear_bias(%x: tensor<4x8xf32>, %w: tensor<8x3xf32>, %b: tensor<4xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'rlx_hir.linear' op expects dim 0 of 'bias' (4) to equal dim 1 of 'weight' (3)}}
  %y = rlx_hir.linear %x, %w, %b : (tensor<4x8xf32>, tensor<8x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

func.func @linear_result(%x: tensor<4x8xf32>, %w: tensor<8x3xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'rlx_hir.linear' op result type 'tensor<4x5xf32>' does not match the expected 'tensor<4x3xf32>'}}
  %y = rlx_hir.linear %x, %w : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x5xf32>
  return %y : tensor<4x5xf32>
}

// -----

func.func @linear_element(%x: tensor<4x8xf32>, %w: tensor<8x3xf16>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'rlx_hir.linear' op expects every float operand and the result to have element type 'f32', got 'tensor<8x3xf16>'}}
  %y = rlx_hir.linear %x, %w : (tensor<4x8xf32>, tensor<8x3xf16>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

func.func @linear_activation(%x: tensor<4x8xf32>, %w: tensor<8x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{activation}}
  %y = rlx_hir.linear %x, %w {activation = "swish"} : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

func.func @mlp_hidden(%x: tensor<4x8xf32>, %w1: tensor<8x16xf32>, %b1: tensor<16xf32>, %w2: tensor<12x2xf32>, %b2: tensor<2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'rlx_hir.mlp' op expects dim 0 of 'w2' (12) to equal dim 1 of 'w1' (16)}}
  %y = rlx_hir.mlp %x, %w1, %b1, %w2, %b2 : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>, tensor<12x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// -----

func.func @swiglu_up(%x: tensor<4x8xf32>, %wg: tensor<8x16xf32>, %wu: tensor<8x12xf32>, %wd: tensor<16x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'rlx_hir.swiglu' op expects dim 1 of 'w_up' (12) to equal dim 1 of 'w_gate' (16)}}
  %y = rlx_hir.swiglu %x, %wg, %wu, %wd : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<8x12xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

func.func @embedding_result(%t: tensor<10x4xf32>, %i: tensor<3xi64>) -> tensor<3x5xf32> {
  // expected-error @+1 {{'rlx_hir.embedding' op result type 'tensor<3x5xf32>' does not match the expected 'tensor<3x4xf32>'}}
  %y = rlx_hir.embedding %t, %i : (tensor<10x4xf32>, tensor<3xi64>) -> tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}

// -----

func.func @embedding_ids(%t: tensor<10x4xf32>, %i: tensor<3xi32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{operand #1 must be ranked tensor of 64-bit signless integer values}}
  %y = rlx_hir.embedding %t, %i : (tensor<10x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// -----

func.func @layer_norm_gamma(%x: tensor<4x8xf32>, %g: tensor<6xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'rlx_hir.layer_norm' op expects dim 0 of 'gamma' (6) to equal dim -1 of 'input' (8)}}
  %y = rlx_hir.layer_norm %x, %g, %g : (tensor<4x8xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

func.func @rms_norm_gamma_rank(%x: tensor<4x8xf32>, %g: tensor<1x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'rlx_hir.rms_norm' op expects 'gamma' of rank 1, got rank 2}}
  %y = rlx_hir.rms_norm %x, %g : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

func.func @attention_rank(%x: tensor<8x64xf32>, %w: tensor<64x192xf32>, %o: tensor<64x64xf32>) -> tensor<8x64xf32> {
  // expected-error @+1 {{'rlx_hir.attention_block' op expects 'input' of rank 3, got rank 2}}
  %y = rlx_hir.attention_block %x, %w, %o {num_heads = 4 : i64} : (tensor<8x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

func.func @attention_heads(%x: tensor<1x8x64xf32>, %w: tensor<64x192xf32>, %o: tensor<64x64xf32>) -> tensor<1x8x64xf32> {
  // expected-error @+1 {{'rlx_hir.attention_block' op expects num_heads >= 1}}
  %y = rlx_hir.attention_block %x, %w, %o {num_heads = 0 : i64} : (tensor<1x8x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>) -> tensor<1x8x64xf32>
  return %y : tensor<1x8x64xf32>
}

// -----

func.func @layer_style(%x: tensor<1x8x64xf32>) -> tensor<1x8x64xf32> {
  // expected-error @+1 {{'rlx_hir.transformer_layer' op expects style "bert" or "llama", got "gpt"}}
  %y = rlx_hir.transformer_layer %x, %x {style = "gpt", num_heads = 4 : i64} : (tensor<1x8x64xf32>, tensor<1x8x64xf32>) -> tensor<1x8x64xf32>
  return %y : tensor<1x8x64xf32>
}

// -----

func.func @layer_weights(%x: tensor<1x8x64xf32>, %g: tensor<64xf32>) -> tensor<1x8x64xf32> {
  // expected-error @+1 {{'rlx_hir.transformer_layer' op with style "llama" expects 9 weights, got 2}}
  %y = rlx_hir.transformer_layer %x, %g, %g {style = "llama", num_heads = 4 : i64} : (tensor<1x8x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x8x64xf32>
  return %y : tensor<1x8x64xf32>
}

// -----

func.func @conv_groups(%x: tensor<1x3x8x8xf32>, %w: tensor<6x3x3x3xf32>, %b: tensor<6xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error @+1 {{'rlx_hir.conv_block' op expects num_groups (4) to be positive and divide the 6 output channels}}
  %y = rlx_hir.conv_block %x, %w, %b, %b, %b {num_groups = 4 : i64} : (tensor<1x3x8x8xf32>, tensor<6x3x3x3xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<1x6x6x6xf32>
  return %y : tensor<1x6x6x6xf32>
}

// -----

func.func @conv_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<6x3x3x3xf32>, %b: tensor<6xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error @+1 {{'rlx_hir.conv_block' op operand 'weight' dim 1 (3) must match input channels / groups (4)}}
  %y = rlx_hir.conv_block %x, %w, %b, %b, %b {num_groups = 3 : i64} : (tensor<1x4x8x8xf32>, tensor<6x3x3x3xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<1x6x6x6xf32>
  return %y : tensor<1x6x6x6xf32>
}

// -----

func.func @conv_result(%x: tensor<1x3x8x8xf32>, %w: tensor<6x3x3x3xf32>, %b: tensor<6xf32>) -> tensor<1x6x8x8xf32> {
  // expected-error @+1 {{'rlx_hir.conv_block' op result type 'tensor<1x6x8x8xf32>' does not match the expected 'tensor<1x6x6x6xf32>'}}
  %y = rlx_hir.conv_block %x, %w, %b, %b, %b {num_groups = 3 : i64} : (tensor<1x3x8x8xf32>, tensor<6x3x3x3xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<1x6x8x8xf32>
  return %y : tensor<1x6x8x8xf32>
}

// -----

func.func @linear_rank1(%x: tensor<8xf32>, %w: tensor<8x3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'rlx_hir.linear' op expects 'input' of rank >= 2, got 'tensor<8xf32>'}}
  %y = rlx_hir.linear %x, %w : (tensor<8xf32>, tensor<8x3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// -----

func.func @layer_window(%x: tensor<1x8x64xf32>, %g: tensor<64xf32>) -> tensor<1x8x64xf32> {
  // expected-error @+1 {{'rlx_hir.transformer_layer' op supports mask "none" or "causal", got "sliding_window"}}
  %y = rlx_hir.transformer_layer %x, %g, %g, %g, %g, %g, %g, %g, %g, %g {style = "llama", num_heads = 4 : i64, mask = "sliding_window"} : (tensor<1x8x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x8x64xf32>
  return %y : tensor<1x8x64xf32>
}

// -----

func.func @bert_kv_heads(%x: tensor<1x8x64xf32>, %g: tensor<64xf32>) -> tensor<1x8x64xf32> {
  // expected-error @+1 {{'rlx_hir.transformer_layer' op with style "bert" has one key/value head per query head; 'num_kv_heads' is for "llama"}}
  %y = rlx_hir.transformer_layer %x, %g, %g, %g, %g, %g, %g, %g, %g, %g, %g, %g, %g {style = "bert", num_heads = 4 : i64, num_kv_heads = 2 : i64} : (tensor<1x8x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x8x64xf32>
  return %y : tensor<1x8x64xf32>
}

// -----

// The verifier names gamma and beta from arrays that live through its loop
// (a braced ArrayRef there was a stack-use-after-scope under ASan).
func.func @conv_gamma_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<6x3x3x3xf32>, %b: tensor<6xf32>, %g: tensor<1x6xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error @+1 {{'rlx_hir.conv_block' op expects 'gamma' of rank 1, got rank 2}}
  %y = rlx_hir.conv_block %x, %w, %b, %g, %b {num_groups = 3 : i64} : (tensor<1x3x8x8xf32>, tensor<6x3x3x3xf32>, tensor<6xf32>, tensor<1x6xf32>, tensor<6xf32>) -> tensor<1x6x6x6xf32>
  return %y : tensor<1x6x6x6xf32>
}

// -----

// The second of the pair, beta, with the wrong length.
func.func @conv_beta_dim(%x: tensor<1x3x8x8xf32>, %w: tensor<6x3x3x3xf32>, %b: tensor<6xf32>, %be: tensor<5xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error @+1 {{'rlx_hir.conv_block' op expects dim 0 of 'beta' (5) to equal dim 0 of 'weight' (6)}}
  %y = rlx_hir.conv_block %x, %w, %b, %b, %be {num_groups = 3 : i64} : (tensor<1x3x8x8xf32>, tensor<6x3x3x3xf32>, tensor<6xf32>, tensor<6xf32>, tensor<5xf32>) -> tensor<1x6x6x6xf32>
  return %y : tensor<1x6x6x6xf32>
}
