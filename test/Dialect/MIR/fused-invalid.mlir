// RUN: rlx-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// rlx.fused_matmul_bias_act
//===----------------------------------------------------------------------===//

// rlx.fused_matmul_bias_act: lhs and rhs share an element type.
func.func @fused_matmul_bias_act_element_type(%lhs: tensor<4x8xf32>, %rhs: tensor<8x16xf16>) {
  // expected-error @+1 {{'rlx.fused_matmul_bias_act' op operand 'rhs' has element type 'f16' but 'lhs' has 'f32'}}
  %0 = rlx.fused_matmul_bias_act %lhs, %rhs activation = gelu : tensor<4x8xf32>, tensor<8x16xf16>
  return
}

// -----

// rlx.fused_matmul_bias_act: the bias has the lhs's element type.
func.func @fused_matmul_bias_act_bias_element_type(%lhs: tensor<4x8xf32>, %rhs: tensor<8x16xf32>, %bias: tensor<16xbf16>) {
  // expected-error @+1 {{'rlx.fused_matmul_bias_act' op operand 'bias' has element type 'bf16' but 'lhs' has 'f32'}}
  %0 = rlx.fused_matmul_bias_act %lhs, %rhs, %bias activation = gelu : tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xbf16>
  return
}

// -----

// rlx.fused_matmul_bias_act: lhs has rank at least 2.
func.func @fused_matmul_bias_act_lhs_rank(%lhs: tensor<8xf32>, %rhs: tensor<8x16xf32>) {
  // expected-error @+1 {{'rlx.fused_matmul_bias_act' op operand 'lhs' must have rank at least 2, got 1}}
  %0 = rlx.fused_matmul_bias_act %lhs, %rhs activation = gelu : tensor<8xf32>, tensor<8x16xf32>
  return
}

// -----

// rlx.fused_matmul_bias_act: the contracting dims agree.
func.func @fused_matmul_bias_act_contracting(%lhs: tensor<4x8xf32>, %rhs: tensor<4x16xf32>) {
  // expected-error @+1 {{'rlx.fused_matmul_bias_act' op contracting dims differ: 'lhs' has 8, 'rhs' has 4}}
  %0 = rlx.fused_matmul_bias_act %lhs, %rhs activation = gelu : tensor<4x8xf32>, tensor<4x16xf32>
  return
}

// -----

// rlx.fused_matmul_bias_act: with transpose_b the rhs is [N, K].
func.func @fused_matmul_bias_act_transpose_b(%lhs: tensor<4x8xf32>, %rhs: tensor<8x16xf32>) {
  // expected-error @+1 {{'rlx.fused_matmul_bias_act' op contracting dims differ: 'lhs' has 8, 'rhs' has 16}}
  %0 = rlx.fused_matmul_bias_act %lhs, %rhs transpose_b true activation = relu : tensor<4x8xf32>, tensor<8x16xf32>
  return
}

// -----

// rlx.fused_matmul_bias_act: the batch dims broadcast.
func.func @fused_matmul_bias_act_batch(%lhs: tensor<2x4x8xf32>, %rhs: tensor<3x8x16xf32>) {
  // expected-error @+1 {{'rlx.fused_matmul_bias_act' op operands 'lhs' and 'rhs' are not broadcast-compatible: dim 2 vs 3 at result dim 0}}
  %0 = rlx.fused_matmul_bias_act %lhs, %rhs activation = gelu : tensor<2x4x8xf32>, tensor<3x8x16xf32>
  return
}

// -----

// rlx.fused_matmul_bias_act: the bias is 1-D.
func.func @fused_matmul_bias_act_bias_rank(%lhs: tensor<4x8xf32>, %rhs: tensor<8x16xf32>, %bias: tensor<4x16xf32>) {
  // expected-error @+1 {{'rlx.fused_matmul_bias_act' op operand 'bias' must have rank 1, got 2}}
  %0 = rlx.fused_matmul_bias_act %lhs, %rhs, %bias activation = gelu : tensor<4x8xf32>, tensor<8x16xf32>, tensor<4x16xf32>
  return
}

// -----

// rlx.fused_matmul_bias_act: the bias has one entry per output feature.
func.func @fused_matmul_bias_act_bias_size(%lhs: tensor<4x8xf32>, %rhs: tensor<8x16xf32>, %bias: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.fused_matmul_bias_act' op operand 'bias' dim 0 (8) must match the output features (16)}}
  %0 = rlx.fused_matmul_bias_act %lhs, %rhs, %bias activation = gelu : tensor<4x8xf32>, tensor<8x16xf32>, tensor<8xf32>
  return
}

// -----

// rlx.fused_matmul_bias_act: the activation is one of the seven.
func.func @fused_matmul_bias_act_activation(%lhs: tensor<4x8xf32>, %rhs: tensor<8x16xf32>) {
  // expected-error @+1 {{'rlx.fused_matmul_bias_act' op attribute 'activation' failed to satisfy constraint: fused activation: one of 'none', 'relu', 'gelu', 'gelu_tanh', 'silu', 'sigmoid', 'tanh'}}
  %0 = rlx.fused_matmul_bias_act %lhs, %rhs activation = swish : tensor<4x8xf32>, tensor<8x16xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.fused_residual_layer_norm / rlx.fused_residual_rms_norm
//===----------------------------------------------------------------------===//

// rlx.fused_residual_layer_norm: the input has rank at least 1.
func.func @fused_residual_layer_norm_rank0(%x: tensor<f32>, %g: tensor<1xf32>) {
  // expected-error @+1 {{'rlx.fused_residual_layer_norm' op operand 'input' must have rank at least 1, got 0}}
  %0:2 = rlx.fused_residual_layer_norm %x, %x, %g, %g : tensor<f32>, tensor<1xf32>
  return
}

// -----

// rlx.fused_residual_layer_norm: gamma has the input's element type.
func.func @fused_residual_layer_norm_gamma_element_type(%x: tensor<4x8xf32>, %g: tensor<8xf16>) {
  // expected-error @+1 {{'rlx.fused_residual_layer_norm' op operand 'gamma' has element type 'f16' but 'input' has 'f32'}}
  %0:2 = rlx.fused_residual_layer_norm %x, %x, %g, %g : tensor<4x8xf32>, tensor<8xf16>
  return
}

// -----

// rlx.fused_residual_layer_norm: gamma is 1-D.
func.func @fused_residual_layer_norm_gamma_rank(%x: tensor<4x8xf32>, %g: tensor<1x8xf32>) {
  // expected-error @+1 {{'rlx.fused_residual_layer_norm' op operand 'gamma' must have rank 1, got 2}}
  %0:2 = rlx.fused_residual_layer_norm %x, %x, %g, %g : tensor<4x8xf32>, tensor<1x8xf32>
  return
}

// -----

// rlx.fused_residual_layer_norm: gamma has the size of the last dim.
func.func @fused_residual_layer_norm_gamma_size(%x: tensor<4x8xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.fused_residual_layer_norm' op operand 'gamma' dim 0 (4) must match the last dim of 'input' (8)}}
  %0:2 = rlx.fused_residual_layer_norm %x, %x, %g, %g : tensor<4x8xf32>, tensor<4xf32>
  return
}

// -----

// rlx.fused_residual_layer_norm: the residual has the input's type.
func.func @fused_residual_layer_norm_residual_type(%x: tensor<4x8xf32>, %r: tensor<1x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.fused_residual_layer_norm' op failed to verify that all of {input, residual, result, sum} have same type}}
  %0:2 = "rlx.fused_residual_layer_norm"(%x, %r, %g, %g) : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return
}

// -----

// rlx.fused_residual_layer_norm: gamma and beta have one type.
func.func @fused_residual_layer_norm_beta_type(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf64>) {
  // expected-error @+1 {{'rlx.fused_residual_layer_norm' op failed to verify that all of {gamma, beta} have same type}}
  %0:2 = "rlx.fused_residual_layer_norm"(%x, %x, %g, %b) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>, tensor<8xf64>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return
}

// -----

// rlx.fused_residual_rms_norm: the input has rank at least 1.
func.func @fused_residual_rms_norm_rank0(%x: tensor<f32>, %g: tensor<1xf32>) {
  // expected-error @+1 {{'rlx.fused_residual_rms_norm' op operand 'input' must have rank at least 1, got 0}}
  %0:2 = rlx.fused_residual_rms_norm %x, %x, %g : tensor<f32>, tensor<1xf32>
  return
}

// -----

// rlx.fused_residual_rms_norm: gamma has the input's element type.
func.func @fused_residual_rms_norm_gamma_element_type(%x: tensor<4x8xbf16>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.fused_residual_rms_norm' op operand 'gamma' has element type 'f32' but 'input' has 'bf16'}}
  %0:2 = rlx.fused_residual_rms_norm %x, %x, %g : tensor<4x8xbf16>, tensor<8xf32>
  return
}

// -----

// rlx.fused_residual_rms_norm: gamma has the size of the last dim.
func.func @fused_residual_rms_norm_gamma_size(%x: tensor<4x8xf32>, %g: tensor<16xf32>) {
  // expected-error @+1 {{'rlx.fused_residual_rms_norm' op operand 'gamma' dim 0 (16) must match the last dim of 'input' (8)}}
  %0:2 = rlx.fused_residual_rms_norm %x, %x, %g : tensor<4x8xf32>, tensor<16xf32>
  return
}

// -----

// rlx.fused_residual_rms_norm: the sum result has the input's type.
func.func @fused_residual_rms_norm_sum_type(%x: tensor<4x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.fused_residual_rms_norm' op failed to verify that all of {input, residual, result, sum} have same type}}
  %0:2 = "rlx.fused_residual_rms_norm"(%x, %x, %g) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf16>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.fused_swiglu
//===----------------------------------------------------------------------===//

// rlx.fused_swiglu: the weights have the input's element type.
func.func @fused_swiglu_element_type(%x: tensor<2x8xf32>, %w: tensor<8x16xf16>) {
  // expected-error @+1 {{'rlx.fused_swiglu' op operand 'w_gate' has element type 'f16' but 'input' has 'f32'}}
  %0 = rlx.fused_swiglu %x, %w, %w : tensor<2x8xf32>, tensor<8x16xf16>
  return
}

// -----

// rlx.fused_swiglu: w_up has the input's element type.
func.func @fused_swiglu_up_element_type(%x: tensor<2x8xf32>, %wg: tensor<8x16xf32>, %wu: tensor<8x16xbf16>) {
  // expected-error @+1 {{'rlx.fused_swiglu' op operand 'w_up' has element type 'bf16' but 'input' has 'f32'}}
  %0 = rlx.fused_swiglu %x, %wg, %wu : tensor<2x8xf32>, tensor<8x16xf32>, tensor<8x16xbf16>
  return
}

// -----

// rlx.fused_swiglu: the input has rank at least 1.
func.func @fused_swiglu_input_rank(%x: tensor<f32>, %w: tensor<8x16xf32>) {
  // expected-error @+1 {{'rlx.fused_swiglu' op operand 'input' must have rank at least 1, got 0}}
  %0 = rlx.fused_swiglu %x, %w, %w : tensor<f32>, tensor<8x16xf32>
  return
}

// -----

// rlx.fused_swiglu: w_gate is 2-D.
func.func @fused_swiglu_gate_rank(%x: tensor<2x8xf32>, %wg: tensor<8xf32>, %wu: tensor<8x16xf32>) {
  // expected-error @+1 {{'rlx.fused_swiglu' op operand 'w_gate' must have rank 2, got 1}}
  %0 = rlx.fused_swiglu %x, %wg, %wu : tensor<2x8xf32>, tensor<8xf32>, tensor<8x16xf32>
  return
}

// -----

// rlx.fused_swiglu: w_up is 2-D.
func.func @fused_swiglu_up_rank(%x: tensor<2x8xf32>, %wg: tensor<8x16xf32>, %wu: tensor<1x8x16xf32>) {
  // expected-error @+1 {{'rlx.fused_swiglu' op operand 'w_up' must have rank 2, got 3}}
  %0 = rlx.fused_swiglu %x, %wg, %wu : tensor<2x8xf32>, tensor<8x16xf32>, tensor<1x8x16xf32>
  return
}

// -----

// rlx.fused_swiglu: w_gate is [E, F].
func.func @fused_swiglu_gate_features(%x: tensor<2x8xf32>, %w: tensor<16x8xf32>) {
  // expected-error @+1 {{'rlx.fused_swiglu' op operand 'w_gate' dim 0 (16) must match the last dim of 'input' (8)}}
  %0 = rlx.fused_swiglu %x, %w, %w : tensor<2x8xf32>, tensor<16x8xf32>
  return
}

// -----

// rlx.fused_swiglu: w_up is [E, F].
func.func @fused_swiglu_up_features(%x: tensor<2x8xf32>, %wg: tensor<8x16xf32>, %wu: tensor<4x16xf32>) {
  // expected-error @+1 {{'rlx.fused_swiglu' op operand 'w_up' dim 0 (4) must match the last dim of 'input' (8)}}
  %0 = rlx.fused_swiglu %x, %wg, %wu : tensor<2x8xf32>, tensor<8x16xf32>, tensor<4x16xf32>
  return
}

// -----

// rlx.fused_swiglu: w_gate and w_up share the hidden size.
func.func @fused_swiglu_hidden(%x: tensor<2x8xf32>, %wg: tensor<8x16xf32>, %wu: tensor<8x32xf32>) {
  // expected-error @+1 {{'rlx.fused_swiglu' op operand 'w_up' dim 1 (32) must match the hidden size of 'w_gate' (16)}}
  %0 = rlx.fused_swiglu %x, %wg, %wu : tensor<2x8xf32>, tensor<8x16xf32>, tensor<8x32xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.fused_attention_block
//===----------------------------------------------------------------------===//

// rlx.fused_attention_block: the input is [B, S, E].
func.func @fused_attention_block_input_rank(%x: tensor<16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>) {
  // expected-error @+2 {{'rlx.fused_attention_block' op operand 'input' must have rank 3, got 2}}
  // expected-error @+1 {{'rlx.fused_attention_block' op failed to infer returned types}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo heads = 4 mask = none : (tensor<16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: w_qkv is 2-D.
func.func @fused_attention_block_w_qkv_rank(%x: tensor<2x16x64xf32>, %wqkv: tensor<192xf32>, %wo: tensor<64x64xf32>) {
  // expected-error @+2 {{'rlx.fused_attention_block' op operand 'w_qkv' must have rank 2, got 1}}
  // expected-error @+1 {{'rlx.fused_attention_block' op failed to infer returned types}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo heads = 4 mask = none : (tensor<2x16x64xf32>, tensor<192xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: w_out is 2-D.
func.func @fused_attention_block_w_out_rank(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<1x64x64xf32>) {
  // expected-error @+2 {{'rlx.fused_attention_block' op operand 'w_out' must have rank 2, got 3}}
  // expected-error @+1 {{'rlx.fused_attention_block' op failed to infer returned types}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo heads = 4 mask = none : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<1x64x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: the query heads are a multiple of the kv heads.
func.func @fused_attention_block_kv_heads(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x160xf32>, %wo: tensor<64x64xf32>) {
  // expected-error @+2 {{'rlx.fused_attention_block' op 'num_heads' (4) must be a positive multiple of 'num_kv_heads' (3)}}
  // expected-error @+1 {{'rlx.fused_attention_block' op failed to infer returned types}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo heads = 4 kv_heads = 3 mask = none : (tensor<2x16x64xf32>, tensor<64x160xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: num_heads is positive.
func.func @fused_attention_block_zero_heads(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>) {
  // expected-error @+2 {{'rlx.fused_attention_block' op 'num_heads' (0) must be a positive multiple of 'num_kv_heads' (0)}}
  // expected-error @+1 {{'rlx.fused_attention_block' op failed to infer returned types}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo heads = 0 mask = none : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: num_kv_heads is positive.
func.func @fused_attention_block_zero_kv_heads(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>) {
  // expected-error @+2 {{'rlx.fused_attention_block' op 'num_heads' (4) must be a positive multiple of 'num_kv_heads' (0)}}
  // expected-error @+1 {{'rlx.fused_attention_block' op failed to infer returned types}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo heads = 4 kv_heads = 0 mask = none : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: w_qkv is [E, (H + 2 Hkv) D].
func.func @fused_attention_block_w_qkv_rows(%x: tensor<2x16x64xf32>, %wqkv: tensor<32x192xf32>, %wo: tensor<64x64xf32>) {
  // expected-error @+2 {{'rlx.fused_attention_block' op operand 'w_qkv' dim 0 (32) must match the features of 'input' (64)}}
  // expected-error @+1 {{'rlx.fused_attention_block' op failed to infer returned types}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo heads = 4 mask = none : (tensor<2x16x64xf32>, tensor<32x192xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: w_out is [H D, E].
func.func @fused_attention_block_w_out_cols(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x32xf32>) {
  // expected-error @+2 {{'rlx.fused_attention_block' op operand 'w_out' dim 1 (32) must match the features of 'input' (64)}}
  // expected-error @+1 {{'rlx.fused_attention_block' op failed to infer returned types}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo heads = 4 mask = none : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x32xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: the head dim needs a static column count.
func.func @fused_attention_block_dynamic_cols(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x?xf32>, %wo: tensor<64x64xf32>) {
  // expected-error @+2 {{'rlx.fused_attention_block' op 'w_qkv' needs a static column count to fix the head dim}}
  // expected-error @+1 {{'rlx.fused_attention_block' op failed to infer returned types}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo heads = 4 mask = none : (tensor<2x16x64xf32>, tensor<64x?xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: the columns split into H + 2 Hkv heads.
func.func @fused_attention_block_cols_multiple(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x100xf32>, %wo: tensor<64x64xf32>) {
  // expected-error @+2 {{'rlx.fused_attention_block' op 'w_qkv' has 100 columns, not a multiple of num_heads + 2 * num_kv_heads (12)}}
  // expected-error @+1 {{'rlx.fused_attention_block' op failed to infer returned types}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo heads = 4 mask = none : (tensor<2x16x64xf32>, tensor<64x100xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: the columns split into H + 2 Hkv heads (grouped-query).
func.func @fused_attention_block_cols_multiple_gqa(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>) {
  // expected-error @+2 {{'rlx.fused_attention_block' op 'w_qkv' has 192 columns, not a multiple of num_heads + 2 * num_kv_heads (20)}}
  // expected-error @+1 {{'rlx.fused_attention_block' op failed to infer returned types}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo heads = 10 kv_heads = 5 mask = none : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: w_out has H D rows (4 * 8 = 32 here).
func.func @fused_attention_block_w_out_rows(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x96xf32>, %wo: tensor<64x64xf32>) {
  // expected-error @+2 {{'rlx.fused_attention_block' op operand 'w_out' dim 0 (64) must match num_heads * head dim (32)}}
  // expected-error @+1 {{'rlx.fused_attention_block' op failed to infer returned types}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo heads = 4 mask = none : (tensor<2x16x64xf32>, tensor<64x96xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: qkv_bias has one entry per column of w_qkv.
func.func @fused_attention_block_qkv_bias_size(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>, %bqkv: tensor<64xf32>) {
  // expected-error @+2 {{'rlx.fused_attention_block' op operand 'qkv_bias' dim 0 (64) must match the columns of 'w_qkv' (192)}}
  // expected-error @+1 {{'rlx.fused_attention_block' op failed to infer returned types}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo qkv_bias %bqkv heads = 4 mask = none : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: qkv_bias is 1-D.
func.func @fused_attention_block_qkv_bias_rank(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>, %bqkv: tensor<1x192xf32>) {
  // expected-error @+2 {{'rlx.fused_attention_block' op operand 'qkv_bias' must have rank 1, got 2}}
  // expected-error @+1 {{'rlx.fused_attention_block' op failed to infer returned types}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo qkv_bias %bqkv heads = 4 mask = none : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>, tensor<1x192xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: out_bias has one entry per feature.
func.func @fused_attention_block_out_bias_size(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>, %bo: tensor<192xf32>) {
  // expected-error @+2 {{'rlx.fused_attention_block' op operand 'out_bias' dim 0 (192) must match the features of 'input' (64)}}
  // expected-error @+1 {{'rlx.fused_attention_block' op failed to infer returned types}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo out_bias %bo heads = 4 mask = none : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>, tensor<192xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: rope needs both cos and sin (generic form: the
// custom form cannot spell one alone).
func.func @fused_attention_block_rope_cos_only(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>, %cos: tensor<16x8xf32>) {
  // expected-error @+2 {{'rlx.fused_attention_block' op rope needs both 'cos' and 'sin'}}
  // expected-error @+1 {{'rlx.fused_attention_block' op failed to infer returned types}}
  %0 = "rlx.fused_attention_block"(%x, %wqkv, %wo, %cos) {num_heads = 4 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 0, 0>} : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>, tensor<16x8xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: rope needs an even head dim (E = 6, H = 1, D = 3).
func.func @fused_attention_block_rope_odd_head_dim(%x: tensor<1x4x6xf32>, %wqkv: tensor<6x9xf32>, %wo: tensor<3x6xf32>, %cs: tensor<4x1xf32>) {
  // expected-error @+2 {{'rlx.fused_attention_block' op rope needs an even head dim, got 3}}
  // expected-error @+1 {{'rlx.fused_attention_block' op failed to infer returned types}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo rope(%cs, %cs) heads = 1 mask = none : (tensor<1x4x6xf32>, tensor<6x9xf32>, tensor<3x6xf32>, tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<1x4x6xf32>
  return
}

// -----

// rlx.fused_attention_block: cos is 2-D.
func.func @fused_attention_block_cos_rank(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>, %cos: tensor<8xf32>, %sin: tensor<16x8xf32>) {
  // expected-error @+2 {{'rlx.fused_attention_block' op operand 'cos' must have rank 2, got 1}}
  // expected-error @+1 {{'rlx.fused_attention_block' op failed to infer returned types}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo rope(%cos, %sin) heads = 4 mask = none : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>, tensor<8xf32>, tensor<16x8xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: cos has a row per position.
func.func @fused_attention_block_cos_length(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>, %cos: tensor<8x8xf32>, %sin: tensor<16x8xf32>) {
  // expected-error @+2 {{'rlx.fused_attention_block' op operand 'cos' dim 0 (8) must match the sequence length of 'input' (16)}}
  // expected-error @+1 {{'rlx.fused_attention_block' op failed to infer returned types}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo rope(%cos, %sin) heads = 4 mask = none : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>, tensor<8x8xf32>, tensor<16x8xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: cos has D / 2 columns.
func.func @fused_attention_block_cos_width(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>, %cos: tensor<16x16xf32>, %sin: tensor<16x16xf32>) {
  // expected-error @+2 {{'rlx.fused_attention_block' op operand 'cos' dim 1 (16) must match half the head dim (8)}}
  // expected-error @+1 {{'rlx.fused_attention_block' op failed to infer returned types}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo rope(%cos, %sin) heads = 4 mask = none : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>, tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: sin is shaped as cos.
func.func @fused_attention_block_sin_width(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>, %cos: tensor<16x8xf32>, %sin: tensor<16x4xf32>) {
  // expected-error @+2 {{'rlx.fused_attention_block' op operand 'sin' dim 1 (4) must match half the head dim (8)}}
  // expected-error @+1 {{'rlx.fused_attention_block' op failed to infer returned types}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo rope(%cos, %sin) heads = 4 mask = none : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>, tensor<16x8xf32>, tensor<16x4xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: custom needs the attn_mask operand.
func.func @fused_attention_block_custom_no_mask(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>) {
  // expected-error @+1 {{'rlx.fused_attention_block' op mask kind 'custom' needs the 'attn_mask' operand}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo heads = 4 mask = custom : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: bias needs the attn_mask operand.
func.func @fused_attention_block_bias_no_mask(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>) {
  // expected-error @+1 {{'rlx.fused_attention_block' op mask kind 'bias' needs the 'attn_mask' operand}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo heads = 4 mask = bias : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: an attn_mask with mask kind none.
func.func @fused_attention_block_none_with_mask(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>, %m: tensor<16x16xi1>) {
  // expected-error @+1 {{'rlx.fused_attention_block' op mask kind 'none' takes no 'attn_mask' operand (use 'custom' or 'bias')}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo attn_mask %m heads = 4 mask = none : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>, tensor<16x16xi1>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: an attn_mask with mask kind causal.
func.func @fused_attention_block_causal_with_mask(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>, %m: tensor<16x16xf32>) {
  // expected-error @+1 {{'rlx.fused_attention_block' op mask kind 'causal' takes no 'attn_mask' operand (use 'custom' or 'bias')}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo attn_mask %m heads = 4 mask = causal : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>, tensor<16x16xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: window without sliding_window.
func.func @fused_attention_block_window_causal(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>) {
  // expected-error @+1 {{'rlx.fused_attention_block' op 'window' is only allowed with mask kind 'sliding_window', not 'causal'}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo heads = 4 mask = causal window = 4 : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: sliding_window without window.
func.func @fused_attention_block_sliding_window_no_window(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>) {
  // expected-error @+1 {{'rlx.fused_attention_block' op mask kind 'sliding_window' needs 'window'}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo heads = 4 mask = sliding_window : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: the window is positive.
func.func @fused_attention_block_window_zero(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>) {
  // expected-error @+1 {{'rlx.fused_attention_block' op 'window' must be positive, got 0}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo heads = 4 mask = sliding_window window = 0 : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: a custom mask is i1.
func.func @fused_attention_block_custom_float_mask(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>, %m: tensor<16x16xf32>) {
  // expected-error @+1 {{'rlx.fused_attention_block' op 'attn_mask' of mask kind 'custom' must have element type 'i1', got 'f32'}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo attn_mask %m heads = 4 mask = custom : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>, tensor<16x16xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: a bias mask has the input's float type.
func.func @fused_attention_block_bias_bool_mask(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>, %m: tensor<16x16xi1>) {
  // expected-error @+1 {{'rlx.fused_attention_block' op 'attn_mask' of mask kind 'bias' must have element type 'f32', got 'i1'}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo attn_mask %m heads = 4 mask = bias : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>, tensor<16x16xi1>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: the attn_mask broadcasts to [B, H, S, S] = [2, 4, 16, 16].
func.func @fused_attention_block_mask_shape(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>, %m: tensor<1x8x16x16xi1>) {
  // expected-error @+1 {{'rlx.fused_attention_block' op operands 'scores' and 'attn_mask' are not broadcast-compatible: dim 4 vs 8 at result dim 1}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo attn_mask %m heads = 4 mask = custom : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>, tensor<1x8x16x16xi1>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: the attn_mask may not widen the scores.
func.func @fused_attention_block_mask_widens(%x: tensor<1x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>, %m: tensor<3x1x16x16xf32>) {
  // expected-error @+1 {{'rlx.fused_attention_block' op 'attn_mask' 'tensor<3x1x16x16xf32>' must broadcast to the scores [B, H, S, Skv]}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo attn_mask %m heads = 4 mask = bias : (tensor<1x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>, tensor<3x1x16x16xf32>) -> tensor<1x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: the mask kind is one of the five.
func.func @fused_attention_block_mask_kind(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>) {
  // expected-error @+1 {{'rlx.fused_attention_block' op attribute 'mask' failed to satisfy constraint: attention mask kind: one of 'none', 'causal', 'sliding_window', 'custom', 'bias'}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo heads = 4 mask = full : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: the rope style is neox or gptj.
func.func @fused_attention_block_rope_style(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>) {
  // expected-error @+1 {{'rlx.fused_attention_block' op attribute 'rope_style' failed to satisfy constraint: rotary embedding layout: one of 'neox', 'gptj'}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo heads = 4 mask = none {rope_style = "half"} : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: num_heads is required.
func.func @fused_attention_block_missing_heads(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>) {
  // expected-error @+1 {{'rlx.fused_attention_block' op requires attribute 'num_heads'}}
  %0 = "rlx.fused_attention_block"(%x, %wqkv, %wo) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0>} : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: the result has the input's type.
func.func @fused_attention_block_result_type(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>) {
  // expected-error @+2 {{'rlx.fused_attention_block' op inferred type(s) 'tensor<2x16x64xf32>' are incompatible with return type(s) of operation 'tensor<2x16x32xf32>'}}
  // expected-error @+1 {{'rlx.fused_attention_block' op failed to infer returned types}}
  %0 = rlx.fused_attention_block %x, %wqkv, %wo heads = 4 mask = none : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>) -> tensor<2x16x32xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.fused_transformer_layer
//===----------------------------------------------------------------------===//

// rlx.fused_transformer_layer: sliding_window is not supported (the layer has no window).
func.func @fused_transformer_layer_sliding_window(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %bqkv: tensor<192xf32>, %wo: tensor<64x64xf32>, %bo: tensor<64xf32>, %g1: tensor<64xf32>, %b1: tensor<64xf32>, %w1: tensor<64x256xf32>, %c1: tensor<256xf32>, %w2: tensor<256x64xf32>, %c2: tensor<64xf32>, %g2: tensor<64xf32>, %b2: tensor<64xf32>) {
  // expected-error @+1 {{'rlx.fused_transformer_layer' op mask kind 'sliding_window' is not supported by the BERT-style layer (it has no 'window')}}
  %0 = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %bo, %g1, %b1, %w1, %c1, %w2, %c2, %g2, %b2 heads = 4 mask = sliding_window
      : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x256xf32>, tensor<256xf32>, tensor<256x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_transformer_layer: custom needs the attn_mask operand.
func.func @fused_transformer_layer_custom_no_mask(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %bqkv: tensor<192xf32>, %wo: tensor<64x64xf32>, %bo: tensor<64xf32>, %g1: tensor<64xf32>, %b1: tensor<64xf32>, %w1: tensor<64x256xf32>, %c1: tensor<256xf32>, %w2: tensor<256x64xf32>, %c2: tensor<64xf32>, %g2: tensor<64xf32>, %b2: tensor<64xf32>) {
  // expected-error @+1 {{'rlx.fused_transformer_layer' op mask kind 'custom' needs the 'attn_mask' operand}}
  %0 = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %bo, %g1, %b1, %w1, %c1, %w2, %c2, %g2, %b2 heads = 4 mask = custom
      : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x256xf32>, tensor<256xf32>, tensor<256x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_transformer_layer: an attn_mask with mask kind causal.
func.func @fused_transformer_layer_causal_with_mask(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %bqkv: tensor<192xf32>, %wo: tensor<64x64xf32>, %bo: tensor<64xf32>, %g1: tensor<64xf32>, %b1: tensor<64xf32>, %w1: tensor<64x256xf32>, %c1: tensor<256xf32>, %w2: tensor<256x64xf32>, %c2: tensor<64xf32>, %g2: tensor<64xf32>, %b2: tensor<64xf32>, %m: tensor<16x16xi1>) {
  // expected-error @+1 {{'rlx.fused_transformer_layer' op mask kind 'causal' takes no 'attn_mask' operand (use 'custom' or 'bias')}}
  %0 = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %bo, %g1, %b1, %w1, %c1, %w2, %c2, %g2, %b2 attn_mask %m heads = 4 mask = causal
      : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x256xf32>, tensor<256xf32>, tensor<256x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<16x16xi1>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_transformer_layer: a bias mask has the input's float type.
func.func @fused_transformer_layer_bias_mask_type(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %bqkv: tensor<192xf32>, %wo: tensor<64x64xf32>, %bo: tensor<64xf32>, %g1: tensor<64xf32>, %b1: tensor<64xf32>, %w1: tensor<64x256xf32>, %c1: tensor<256xf32>, %w2: tensor<256x64xf32>, %c2: tensor<64xf32>, %g2: tensor<64xf32>, %b2: tensor<64xf32>, %m: tensor<16x16xf16>) {
  // expected-error @+1 {{'rlx.fused_transformer_layer' op 'attn_mask' of mask kind 'bias' must have element type 'f32', got 'f16'}}
  %0 = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %bo, %g1, %b1, %w1, %c1, %w2, %c2, %g2, %b2 attn_mask %m heads = 4 mask = bias
      : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x256xf32>, tensor<256xf32>, tensor<256x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<16x16xf16>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_transformer_layer: the attn_mask broadcasts to [B, H, S, S].
func.func @fused_transformer_layer_mask_shape(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %bqkv: tensor<192xf32>, %wo: tensor<64x64xf32>, %bo: tensor<64xf32>, %g1: tensor<64xf32>, %b1: tensor<64xf32>, %w1: tensor<64x256xf32>, %c1: tensor<256xf32>, %w2: tensor<256x64xf32>, %c2: tensor<64xf32>, %g2: tensor<64xf32>, %b2: tensor<64xf32>, %m: tensor<16x8xi1>) {
  // expected-error @+1 {{'rlx.fused_transformer_layer' op operands 'scores' and 'attn_mask' are not broadcast-compatible: dim 16 vs 8 at result dim 3}}
  %0 = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %bo, %g1, %b1, %w1, %c1, %w2, %c2, %g2, %b2 attn_mask %m heads = 4 mask = custom
      : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x256xf32>, tensor<256xf32>, tensor<256x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<16x8xi1>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_transformer_layer: every operand has the input's element type.
func.func @fused_transformer_layer_element_type(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %bqkv: tensor<192xf32>, %wo: tensor<64x64xf32>, %bo: tensor<64xf32>, %g1: tensor<64xf32>, %b1: tensor<64xf32>, %w1: tensor<64x256xf32>, %c1: tensor<256xf16>, %w2: tensor<256x64xf32>, %c2: tensor<64xf32>, %g2: tensor<64xf32>, %b2: tensor<64xf32>) {
  // expected-error @+2 {{'rlx.fused_transformer_layer' op operand 'b_ffn1' has element type 'f16' but 'input' has 'f32'}}
  // expected-error @+1 {{'rlx.fused_transformer_layer' op failed to infer returned types}}
  %0 = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %bo, %g1, %b1, %w1, %c1, %w2, %c2, %g2, %b2 heads = 4 mask = none
      : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x256xf32>, tensor<256xf16>, tensor<256x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_transformer_layer: the columns of w_qkv split into 3 H heads.
func.func @fused_transformer_layer_w_qkv_cols(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x190xf32>, %bqkv: tensor<190xf32>, %wo: tensor<64x64xf32>, %bo: tensor<64xf32>, %g1: tensor<64xf32>, %b1: tensor<64xf32>, %w1: tensor<64x256xf32>, %c1: tensor<256xf32>, %w2: tensor<256x64xf32>, %c2: tensor<64xf32>, %g2: tensor<64xf32>, %b2: tensor<64xf32>) {
  // expected-error @+2 {{'rlx.fused_transformer_layer' op 'w_qkv' has 190 columns, not a multiple of num_heads + 2 * num_kv_heads (12)}}
  // expected-error @+1 {{'rlx.fused_transformer_layer' op failed to infer returned types}}
  %0 = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %bo, %g1, %b1, %w1, %c1, %w2, %c2, %g2, %b2 heads = 4 mask = none
      : (tensor<2x16x64xf32>, tensor<64x190xf32>, tensor<190xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x256xf32>, tensor<256xf32>, tensor<256x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_transformer_layer: qkv_bias has one entry per column of w_qkv.
func.func @fused_transformer_layer_qkv_bias(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %bqkv: tensor<64xf32>, %wo: tensor<64x64xf32>, %bo: tensor<64xf32>, %g1: tensor<64xf32>, %b1: tensor<64xf32>, %w1: tensor<64x256xf32>, %c1: tensor<256xf32>, %w2: tensor<256x64xf32>, %c2: tensor<64xf32>, %g2: tensor<64xf32>, %b2: tensor<64xf32>) {
  // expected-error @+2 {{'rlx.fused_transformer_layer' op operand 'qkv_bias' dim 0 (64) must match the columns of 'w_qkv' (192)}}
  // expected-error @+1 {{'rlx.fused_transformer_layer' op failed to infer returned types}}
  %0 = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %bo, %g1, %b1, %w1, %c1, %w2, %c2, %g2, %b2 heads = 4 mask = none
      : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x256xf32>, tensor<256xf32>, tensor<256x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_transformer_layer: w_ffn1 is 2-D.
func.func @fused_transformer_layer_w_ffn1_rank(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %bqkv: tensor<192xf32>, %wo: tensor<64x64xf32>, %bo: tensor<64xf32>, %g1: tensor<64xf32>, %b1: tensor<64xf32>, %w1: tensor<64xf32>, %c1: tensor<256xf32>, %w2: tensor<256x64xf32>, %c2: tensor<64xf32>, %g2: tensor<64xf32>, %b2: tensor<64xf32>) {
  // expected-error @+2 {{'rlx.fused_transformer_layer' op operand 'w_ffn1' must have rank 2, got 1}}
  // expected-error @+1 {{'rlx.fused_transformer_layer' op failed to infer returned types}}
  %0 = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %bo, %g1, %b1, %w1, %c1, %w2, %c2, %g2, %b2 heads = 4 mask = none
      : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<256xf32>, tensor<256x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_transformer_layer: w_ffn1 is [E, F].
func.func @fused_transformer_layer_w_ffn1_rows(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %bqkv: tensor<192xf32>, %wo: tensor<64x64xf32>, %bo: tensor<64xf32>, %g1: tensor<64xf32>, %b1: tensor<64xf32>, %w1: tensor<32x256xf32>, %c1: tensor<256xf32>, %w2: tensor<256x64xf32>, %c2: tensor<64xf32>, %g2: tensor<64xf32>, %b2: tensor<64xf32>) {
  // expected-error @+2 {{'rlx.fused_transformer_layer' op operand 'w_ffn1' dim 0 (32) must match the features of 'input' (64)}}
  // expected-error @+1 {{'rlx.fused_transformer_layer' op failed to infer returned types}}
  %0 = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %bo, %g1, %b1, %w1, %c1, %w2, %c2, %g2, %b2 heads = 4 mask = none
      : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<32x256xf32>, tensor<256xf32>, tensor<256x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_transformer_layer: w_ffn2 is [F, E].
func.func @fused_transformer_layer_w_ffn2_rows(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %bqkv: tensor<192xf32>, %wo: tensor<64x64xf32>, %bo: tensor<64xf32>, %g1: tensor<64xf32>, %b1: tensor<64xf32>, %w1: tensor<64x256xf32>, %c1: tensor<256xf32>, %w2: tensor<128x64xf32>, %c2: tensor<64xf32>, %g2: tensor<64xf32>, %b2: tensor<64xf32>) {
  // expected-error @+2 {{'rlx.fused_transformer_layer' op operand 'w_ffn2' dim 0 (128) must match the hidden size of 'w_ffn1' (256)}}
  // expected-error @+1 {{'rlx.fused_transformer_layer' op failed to infer returned types}}
  %0 = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %bo, %g1, %b1, %w1, %c1, %w2, %c2, %g2, %b2 heads = 4 mask = none
      : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x256xf32>, tensor<256xf32>, tensor<128x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_transformer_layer: w_ffn2 maps back to E features.
func.func @fused_transformer_layer_w_ffn2_cols(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %bqkv: tensor<192xf32>, %wo: tensor<64x64xf32>, %bo: tensor<64xf32>, %g1: tensor<64xf32>, %b1: tensor<64xf32>, %w1: tensor<64x256xf32>, %c1: tensor<256xf32>, %w2: tensor<256x32xf32>, %c2: tensor<64xf32>, %g2: tensor<64xf32>, %b2: tensor<64xf32>) {
  // expected-error @+2 {{'rlx.fused_transformer_layer' op operand 'w_ffn2' dim 1 (32) must match the features of 'input' (64)}}
  // expected-error @+1 {{'rlx.fused_transformer_layer' op failed to infer returned types}}
  %0 = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %bo, %g1, %b1, %w1, %c1, %w2, %c2, %g2, %b2 heads = 4 mask = none
      : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x256xf32>, tensor<256xf32>, tensor<256x32xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_transformer_layer: b_ffn1 has F entries.
func.func @fused_transformer_layer_b_ffn1(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %bqkv: tensor<192xf32>, %wo: tensor<64x64xf32>, %bo: tensor<64xf32>, %g1: tensor<64xf32>, %b1: tensor<64xf32>, %w1: tensor<64x256xf32>, %c1: tensor<64xf32>, %w2: tensor<256x64xf32>, %c2: tensor<64xf32>, %g2: tensor<64xf32>, %b2: tensor<64xf32>) {
  // expected-error @+2 {{'rlx.fused_transformer_layer' op operand 'b_ffn1' dim 0 (64) must match the hidden size of 'w_ffn1' (256)}}
  // expected-error @+1 {{'rlx.fused_transformer_layer' op failed to infer returned types}}
  %0 = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %bo, %g1, %b1, %w1, %c1, %w2, %c2, %g2, %b2 heads = 4 mask = none
      : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x256xf32>, tensor<64xf32>, tensor<256x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_transformer_layer: b_ffn2 has E entries.
func.func @fused_transformer_layer_b_ffn2(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %bqkv: tensor<192xf32>, %wo: tensor<64x64xf32>, %bo: tensor<64xf32>, %g1: tensor<64xf32>, %b1: tensor<64xf32>, %w1: tensor<64x256xf32>, %c1: tensor<256xf32>, %w2: tensor<256x64xf32>, %c2: tensor<256xf32>, %g2: tensor<64xf32>, %b2: tensor<64xf32>) {
  // expected-error @+2 {{'rlx.fused_transformer_layer' op operand 'b_ffn2' dim 0 (256) must match the features of 'input' (64)}}
  // expected-error @+1 {{'rlx.fused_transformer_layer' op failed to infer returned types}}
  %0 = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %bo, %g1, %b1, %w1, %c1, %w2, %c2, %g2, %b2 heads = 4 mask = none
      : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x256xf32>, tensor<256xf32>, tensor<256x64xf32>, tensor<256xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_transformer_layer: out_bias has E entries.
func.func @fused_transformer_layer_out_bias(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %bqkv: tensor<192xf32>, %wo: tensor<64x64xf32>, %bo: tensor<32xf32>, %g1: tensor<64xf32>, %b1: tensor<64xf32>, %w1: tensor<64x256xf32>, %c1: tensor<256xf32>, %w2: tensor<256x64xf32>, %c2: tensor<64xf32>, %g2: tensor<64xf32>, %b2: tensor<64xf32>) {
  // expected-error @+2 {{'rlx.fused_transformer_layer' op operand 'out_bias' dim 0 (32) must match the features of 'input' (64)}}
  // expected-error @+1 {{'rlx.fused_transformer_layer' op failed to infer returned types}}
  %0 = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %bo, %g1, %b1, %w1, %c1, %w2, %c2, %g2, %b2 heads = 4 mask = none
      : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<64x64xf32>, tensor<32xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x256xf32>, tensor<256xf32>, tensor<256x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_transformer_layer: ln1_beta has E entries.
func.func @fused_transformer_layer_ln1_beta(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %bqkv: tensor<192xf32>, %wo: tensor<64x64xf32>, %bo: tensor<64xf32>, %g1: tensor<64xf32>, %b1: tensor<63xf32>, %w1: tensor<64x256xf32>, %c1: tensor<256xf32>, %w2: tensor<256x64xf32>, %c2: tensor<64xf32>, %g2: tensor<64xf32>, %b2: tensor<64xf32>) {
  // expected-error @+2 {{'rlx.fused_transformer_layer' op operand 'ln1_beta' dim 0 (63) must match the features of 'input' (64)}}
  // expected-error @+1 {{'rlx.fused_transformer_layer' op failed to infer returned types}}
  %0 = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %bo, %g1, %b1, %w1, %c1, %w2, %c2, %g2, %b2 heads = 4 mask = none
      : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<63xf32>, tensor<64x256xf32>, tensor<256xf32>, tensor<256x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_transformer_layer: ln2_gamma is 1-D.
func.func @fused_transformer_layer_ln2_gamma(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %bqkv: tensor<192xf32>, %wo: tensor<64x64xf32>, %bo: tensor<64xf32>, %g1: tensor<64xf32>, %b1: tensor<64xf32>, %w1: tensor<64x256xf32>, %c1: tensor<256xf32>, %w2: tensor<256x64xf32>, %c2: tensor<64xf32>, %g2: tensor<1x64xf32>, %b2: tensor<64xf32>) {
  // expected-error @+2 {{'rlx.fused_transformer_layer' op operand 'ln2_gamma' must have rank 1, got 2}}
  // expected-error @+1 {{'rlx.fused_transformer_layer' op failed to infer returned types}}
  %0 = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %bo, %g1, %b1, %w1, %c1, %w2, %c2, %g2, %b2 heads = 4 mask = none
      : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x256xf32>, tensor<256xf32>, tensor<256x64xf32>, tensor<64xf32>, tensor<1x64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_transformer_layer: the activation is one of the seven.
func.func @fused_transformer_layer_activation(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %bqkv: tensor<192xf32>, %wo: tensor<64x64xf32>, %bo: tensor<64xf32>, %g1: tensor<64xf32>, %b1: tensor<64xf32>, %w1: tensor<64x256xf32>, %c1: tensor<256xf32>, %w2: tensor<256x64xf32>, %c2: tensor<64xf32>, %g2: tensor<64xf32>, %b2: tensor<64xf32>) {
  // expected-error @+1 {{'rlx.fused_transformer_layer' op attribute 'activation' failed to satisfy constraint: fused activation: one of 'none', 'relu', 'gelu', 'gelu_tanh', 'silu', 'sigmoid', 'tanh'}}
  %0 = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %bo, %g1, %b1, %w1, %c1, %w2, %c2, %g2, %b2 heads = 4 mask = none {activation = "swiglu"}
      : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x256xf32>, tensor<256xf32>, tensor<256x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: an element type mismatch names the operand.
func.func @f(%h: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf16>, %wo: tensor<64x64xf32>) {
  // expected-error @+2 {{'rlx.fused_attention_block' op operand 'w_qkv' has element type 'f16' but 'input' has 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.fused_attention_block %h, %wqkv, %wo heads = 4 mask = none : (tensor<2x16x64xf32>, tensor<64x192xf16>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_attention_block: a zero scale is rejected, as for rlx.attention.
func.func @g(%h: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>) {
  // expected-error @+1 {{'rlx.fused_attention_block' op 'scale' must be non-zero}}
  %0 = rlx.fused_attention_block %h, %wqkv, %wo heads = 4 mask = none {scale = 0.0 : f32} : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

// rlx.fused_residual_layer_norm: epsilon must be positive.
func.func @h(%h: tensor<2x16x64xf32>, %g: tensor<64xf32>) {
  // expected-error @+1 {{'rlx.fused_residual_layer_norm' op 'epsilon' must be positive, got -1.000000e+00}}
  %0:2 = rlx.fused_residual_layer_norm %h, %h, %g, %g {epsilon = -1.0 : f32} : tensor<2x16x64xf32>, tensor<64xf32>
  return
}
