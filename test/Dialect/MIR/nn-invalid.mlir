// RUN: rlx-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// rlx.layer_norm
//===----------------------------------------------------------------------===//

// rlx.layer_norm: the input has rank at least 1.
func.func @layer_norm_rank0(%x: tensor<f32>, %g: tensor<1xf32>) {
  // expected-error @+1 {{'rlx.layer_norm' op operand 'input' must have rank at least 1, got 0}}
  %0 = rlx.layer_norm %x, %g, %g : tensor<f32>, tensor<1xf32>
  return
}

// -----

// rlx.layer_norm: epsilon is positive (negative).
func.func @layer_norm_negative_epsilon(%x: tensor<4x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.layer_norm' op 'epsilon' must be positive, got -1.000000e+00}}
  %0 = rlx.layer_norm %x, %g, %g {epsilon = -1.0 : f32} : tensor<4x8xf32>, tensor<8xf32>
  return
}

// -----

// rlx.layer_norm: epsilon is positive (zero).
func.func @layer_norm_zero_epsilon(%x: tensor<4x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.layer_norm' op 'epsilon' must be positive, got 0.000000e+00}}
  %0 = rlx.layer_norm %x, %g, %g {epsilon = 0.0 : f32} : tensor<4x8xf32>, tensor<8xf32>
  return
}

// -----

// rlx.layer_norm: epsilon is positive (NaN).
func.func @layer_norm_nan_epsilon(%x: tensor<4x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.layer_norm' op 'epsilon' must be positive, got nan}}
  %0 = rlx.layer_norm %x, %g, %g {epsilon = 0x7FC00000 : f32} : tensor<4x8xf32>, tensor<8xf32>
  return
}

// -----

// rlx.layer_norm: gamma has the input's element type.
func.func @layer_norm_gamma_element_type(%x: tensor<4x8xf32>, %g: tensor<8xf16>) {
  // expected-error @+1 {{'rlx.layer_norm' op operand 'gamma' has element type 'f16' but 'input' has 'f32'}}
  %0 = rlx.layer_norm %x, %g, %g : tensor<4x8xf32>, tensor<8xf16>
  return
}

// -----

// rlx.layer_norm: gamma is 1-D.
func.func @layer_norm_gamma_rank(%x: tensor<4x8xf32>, %g: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.layer_norm' op operand 'gamma' must have rank 1, got 2}}
  %0 = rlx.layer_norm %x, %g, %g : tensor<4x8xf32>, tensor<4x8xf32>
  return
}

// -----

// rlx.layer_norm: gamma has the size of the last dim.
func.func @layer_norm_gamma_size(%x: tensor<4x8xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.layer_norm' op operand 'gamma' dim 0 (4) must match the last dim of 'input' (8)}}
  %0 = rlx.layer_norm %x, %g, %g : tensor<4x8xf32>, tensor<4xf32>
  return
}

// -----

// rlx.layer_norm: gamma and beta have the same type.
func.func @layer_norm_beta_type(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.layer_norm' op failed to verify that all of {gamma, beta} have same type}}
  %0 = "rlx.layer_norm"(%x, %g, %b) : (tensor<4x8xf32>, tensor<8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  return
}

// -----

// rlx.layer_norm: the result has the input's type.
func.func @layer_norm_result_type(%x: tensor<4x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.layer_norm' op failed to verify that all of {input, result} have same type}}
  %0 = "rlx.layer_norm"(%x, %g, %g) : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf16>
  return
}

// -----

// rlx.layer_norm: floats only.
func.func @layer_norm_int(%x: tensor<4x8xi32>, %g: tensor<8xi32>) {
  // expected-error @+1 {{'rlx.layer_norm' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4x8xi32>'}}
  %0 = rlx.layer_norm %x, %g, %g : tensor<4x8xi32>, tensor<8xi32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.rms_norm
//===----------------------------------------------------------------------===//

// rlx.rms_norm: the input has rank at least 1.
func.func @rms_norm_rank0(%x: tensor<f32>, %g: tensor<1xf32>) {
  // expected-error @+1 {{'rlx.rms_norm' op operand 'input' must have rank at least 1, got 0}}
  %0 = rlx.rms_norm %x, %g : tensor<f32>, tensor<1xf32>
  return
}

// -----

// rlx.rms_norm: epsilon is positive.
func.func @rms_norm_negative_epsilon(%x: tensor<4x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.rms_norm' op 'epsilon' must be positive, got -1.000000e-06}}
  %0 = rlx.rms_norm %x, %g {epsilon = -1.0e-6 : f32} : tensor<4x8xf32>, tensor<8xf32>
  return
}

// -----

// rlx.rms_norm: gamma has the input's element type.
func.func @rms_norm_gamma_element_type(%x: tensor<4x8xbf16>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.rms_norm' op operand 'gamma' has element type 'f32' but 'input' has 'bf16'}}
  %0 = rlx.rms_norm %x, %g : tensor<4x8xbf16>, tensor<8xf32>
  return
}

// -----

// rlx.rms_norm: gamma is 1-D.
func.func @rms_norm_gamma_rank(%x: tensor<4x8xf32>, %g: tensor<f32>) {
  // expected-error @+1 {{'rlx.rms_norm' op operand 'gamma' must have rank 1, got 0}}
  %0 = rlx.rms_norm %x, %g : tensor<4x8xf32>, tensor<f32>
  return
}

// -----

// rlx.rms_norm: gamma has the size of the last dim.
func.func @rms_norm_gamma_size(%x: tensor<4x8xf32>, %g: tensor<16xf32>) {
  // expected-error @+1 {{'rlx.rms_norm' op operand 'gamma' dim 0 (16) must match the last dim of 'input' (8)}}
  %0 = rlx.rms_norm %x, %g : tensor<4x8xf32>, tensor<16xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.group_norm
//===----------------------------------------------------------------------===//

// rlx.group_norm: the input has rank at least 2 ([N, C, ...]).
func.func @group_norm_rank(%x: tensor<8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.group_norm' op operand 'input' must have rank at least 2, got 1}}
  %0 = rlx.group_norm %x, %g, %g {num_groups = 2 : i64} : tensor<8xf32>, tensor<8xf32>
  return
}

// -----

// rlx.group_norm: epsilon is positive.
func.func @group_norm_negative_epsilon(%x: tensor<2x8x4xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.group_norm' op 'epsilon' must be positive, got -1.000000e+00}}
  %0 = rlx.group_norm %x, %g, %g {num_groups = 2 : i64, epsilon = -1.0 : f32} : tensor<2x8x4xf32>, tensor<8xf32>
  return
}

// -----

// rlx.group_norm: gamma has the size of the channel dim (dim 1), not the last.
func.func @group_norm_gamma_size(%x: tensor<2x8x4xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.group_norm' op operand 'gamma' dim 0 (4) must match the channels of 'input' (8)}}
  %0 = rlx.group_norm %x, %g, %g {num_groups = 2 : i64} : tensor<2x8x4xf32>, tensor<4xf32>
  return
}

// -----

// rlx.group_norm: gamma has the input's element type.
func.func @group_norm_gamma_element_type(%x: tensor<2x8x4xf32>, %g: tensor<8xf64>) {
  // expected-error @+1 {{'rlx.group_norm' op operand 'gamma' has element type 'f64' but 'input' has 'f32'}}
  %0 = rlx.group_norm %x, %g, %g {num_groups = 2 : i64} : tensor<2x8x4xf32>, tensor<8xf64>
  return
}

// -----

// rlx.group_norm: num_groups is positive.
func.func @group_norm_zero_groups(%x: tensor<2x8x4xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.group_norm' op 'num_groups' must be positive, got 0}}
  %0 = rlx.group_norm %x, %g, %g {num_groups = 0 : i64} : tensor<2x8x4xf32>, tensor<8xf32>
  return
}

// -----

// rlx.group_norm: num_groups is positive.
func.func @group_norm_negative_groups(%x: tensor<2x8x4xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.group_norm' op 'num_groups' must be positive, got -2}}
  %0 = rlx.group_norm %x, %g, %g {num_groups = -2 : i64} : tensor<2x8x4xf32>, tensor<8xf32>
  return
}

// -----

// rlx.group_norm: num_groups divides the channels.
func.func @group_norm_groups_divide(%x: tensor<2x32x4x4xf32>, %g: tensor<32xf32>) {
  // expected-error @+1 {{'rlx.group_norm' op 'num_groups' (5) must divide the channels of 'input' (32)}}
  %0 = rlx.group_norm %x, %g, %g {num_groups = 5 : i64} : tensor<2x32x4x4xf32>, tensor<32xf32>
  return
}

// -----

// rlx.group_norm: num_groups is required.
func.func @group_norm_missing_groups(%x: tensor<2x8x4xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.group_norm' op requires attribute 'num_groups'}}
  %0 = rlx.group_norm %x, %g, %g : tensor<2x8x4xf32>, tensor<8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.batch_norm_inference
//===----------------------------------------------------------------------===//

// rlx.batch_norm_inference: the input has rank at least 2 ([N, C, ...]).
func.func @batch_norm_rank(%x: tensor<8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.batch_norm_inference' op operand 'input' must have rank at least 2, got 1}}
  %0 = rlx.batch_norm_inference %x, %g, %g, %g, %g : tensor<8xf32>, tensor<8xf32>
  return
}

// -----

// rlx.batch_norm_inference: epsilon is positive.
func.func @batch_norm_zero_epsilon(%x: tensor<2x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.batch_norm_inference' op 'epsilon' must be positive, got 0.000000e+00}}
  %0 = rlx.batch_norm_inference %x, %g, %g, %g, %g {epsilon = 0.0 : f32} : tensor<2x8xf32>, tensor<8xf32>
  return
}

// -----

// rlx.batch_norm_inference: the statistics have the size of the channel dim.
func.func @batch_norm_channels(%x: tensor<2x8x4x4xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.batch_norm_inference' op operand 'gamma' dim 0 (4) must match the channels of 'input' (8)}}
  %0 = rlx.batch_norm_inference %x, %g, %g, %g, %g : tensor<2x8x4x4xf32>, tensor<4xf32>
  return
}

// -----

// rlx.batch_norm_inference: the statistics have the input's element type.
func.func @batch_norm_element_type(%x: tensor<2x8xf16>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.batch_norm_inference' op operand 'gamma' has element type 'f32' but 'input' has 'f16'}}
  %0 = rlx.batch_norm_inference %x, %g, %g, %g, %g : tensor<2x8xf16>, tensor<8xf32>
  return
}

// -----

// rlx.batch_norm_inference: the statistics are 1-D.
func.func @batch_norm_gamma_rank(%x: tensor<2x8xf32>, %g: tensor<1x8xf32>) {
  // expected-error @+1 {{'rlx.batch_norm_inference' op operand 'gamma' must have rank 1, got 2}}
  %0 = rlx.batch_norm_inference %x, %g, %g, %g, %g : tensor<2x8xf32>, tensor<1x8xf32>
  return
}

// -----

// rlx.batch_norm_inference: the four statistics have one type.
func.func @batch_norm_variance_type(%x: tensor<2x8xf32>, %g: tensor<8xf32>, %v: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.batch_norm_inference' op failed to verify that all of {gamma, beta, mean, variance} have same type}}
  %0 = "rlx.batch_norm_inference"(%x, %g, %g, %g, %v) : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<4xf32>) -> tensor<2x8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.attention
//===----------------------------------------------------------------------===//

// rlx.attention: query, key and value share an element type.
func.func @attention_element_types(%q: tensor<2x8x16x64xf32>, %k: tensor<2x8x16x64xf16>) {
  // expected-error @+1 {{'rlx.attention' op operand 'key' has element type 'f16' but 'query' has 'f32'}}
  %0 = rlx.attention %q, %k, %k mask = none : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf16>, tensor<2x8x16x64xf16>
  return
}

// -----

// rlx.attention: the value has the query's element type.
func.func @attention_value_element_type(%q: tensor<2x8x16x64xf32>, %v: tensor<2x8x16x64xbf16>) {
  // expected-error @+1 {{'rlx.attention' op operand 'value' has element type 'bf16' but 'query' has 'f32'}}
  %0 = rlx.attention %q, %q, %v mask = none : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xbf16>
  return
}

// -----

// rlx.attention: the query is [B, H, S, D].
func.func @attention_query_rank(%q: tensor<8x16x64xf32>, %k: tensor<2x8x16x64xf32>) {
  // expected-error @+1 {{'rlx.attention' op operand 'query' must have rank 4, got 3}}
  %0 = rlx.attention %q, %k, %k mask = none : tensor<8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>
  return
}

// -----

// rlx.attention: the key is [B, Hkv, Skv, D].
func.func @attention_key_rank(%q: tensor<2x8x16x64xf32>, %k: tensor<2x8x16x64x1xf32>) {
  // expected-error @+1 {{'rlx.attention' op operand 'key' must have rank 4, got 5}}
  %0 = rlx.attention %q, %k, %q mask = none : tensor<2x8x16x64xf32>, tensor<2x8x16x64x1xf32>, tensor<2x8x16x64xf32>
  return
}

// -----

// rlx.attention: the value is [B, Hkv, Skv, Dv].
func.func @attention_value_rank(%q: tensor<2x8x16x64xf32>, %v: tensor<16x64xf32>) {
  // expected-error @+1 {{'rlx.attention' op operand 'value' must have rank 4, got 2}}
  %0 = rlx.attention %q, %q, %v mask = none : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<16x64xf32>
  return
}

// -----

// rlx.attention: the key has the query's batch.
func.func @attention_key_batch(%q: tensor<2x8x16x64xf32>, %k: tensor<3x8x16x64xf32>) {
  // expected-error @+1 {{'rlx.attention' op operand 'key' dim 0 (3) must match the batch of 'query' (2)}}
  %0 = rlx.attention %q, %k, %k mask = none : tensor<2x8x16x64xf32>, tensor<3x8x16x64xf32>, tensor<3x8x16x64xf32>
  return
}

// -----

// rlx.attention: the value has the query's batch.
func.func @attention_value_batch(%q: tensor<2x8x16x64xf32>, %v: tensor<1x8x16x64xf32>) {
  // expected-error @+1 {{'rlx.attention' op operand 'value' dim 0 (1) must match the batch of 'query' (2)}}
  %0 = rlx.attention %q, %q, %v mask = none : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<1x8x16x64xf32>
  return
}

// -----

// rlx.attention: the key has the query's head dim.
func.func @attention_head_dim(%q: tensor<2x8x16x64xf32>, %k: tensor<2x8x16x32xf32>) {
  // expected-error @+1 {{'rlx.attention' op operand 'key' dim 3 (32) must match the head dim of 'query' (64)}}
  %0 = rlx.attention %q, %k, %k mask = none : tensor<2x8x16x64xf32>, tensor<2x8x16x32xf32>, tensor<2x8x16x32xf32>
  return
}

// -----

// rlx.attention: the value has the key's heads.
func.func @attention_value_heads(%q: tensor<2x8x16x64xf32>, %k: tensor<2x2x16x64xf32>, %v: tensor<2x4x16x64xf32>) {
  // expected-error @+1 {{'rlx.attention' op operand 'value' dim 1 (4) must match the heads of 'key' (2)}}
  %0 = rlx.attention %q, %k, %v mask = none : tensor<2x8x16x64xf32>, tensor<2x2x16x64xf32>, tensor<2x4x16x64xf32>
  return
}

// -----

// rlx.attention: the value has the key's length.
func.func @attention_value_length(%q: tensor<2x8x16x64xf32>, %k: tensor<2x8x32x64xf32>, %v: tensor<2x8x16x64xf32>) {
  // expected-error @+1 {{'rlx.attention' op operand 'value' dim 2 (16) must match the length of 'key' (32)}}
  %0 = rlx.attention %q, %k, %v mask = none : tensor<2x8x16x64xf32>, tensor<2x8x32x64xf32>, tensor<2x8x16x64xf32>
  return
}

// -----

// rlx.attention: the query heads are a multiple of the key/value heads.
func.func @attention_grouped_heads(%q: tensor<2x8x16x64xf32>, %k: tensor<2x3x16x64xf32>) {
  // expected-error @+1 {{'rlx.attention' op query heads (8) must be a multiple of key/value heads (3)}}
  %0 = rlx.attention %q, %k, %k mask = none : tensor<2x8x16x64xf32>, tensor<2x3x16x64xf32>, tensor<2x3x16x64xf32>
  return
}

// -----

// rlx.attention: zero key/value heads.
func.func @attention_zero_kv_heads(%q: tensor<2x8x16x64xf32>, %k: tensor<2x0x16x64xf32>) {
  // expected-error @+1 {{'rlx.attention' op query heads (8) must be a multiple of key/value heads (0)}}
  %0 = rlx.attention %q, %k, %k mask = none : tensor<2x8x16x64xf32>, tensor<2x0x16x64xf32>, tensor<2x0x16x64xf32>
  return
}

// -----

// rlx.attention: window without sliding_window.
func.func @attention_window_causal(%q: tensor<2x8x16x64xf32>) {
  // expected-error @+1 {{'rlx.attention' op 'window' is only allowed with mask kind 'sliding_window', not 'causal'}}
  %0 = rlx.attention %q, %q, %q mask = causal window = 4 : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>
  return
}

// -----

// rlx.attention: window with mask kind none.
func.func @attention_window_none(%q: tensor<2x8x16x64xf32>) {
  // expected-error @+1 {{'rlx.attention' op 'window' is only allowed with mask kind 'sliding_window', not 'none'}}
  %0 = rlx.attention %q, %q, %q mask = none window = 4 : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>
  return
}

// -----

// rlx.attention: sliding_window without window.
func.func @attention_sliding_window_no_window(%q: tensor<2x8x16x64xf32>) {
  // expected-error @+1 {{'rlx.attention' op mask kind 'sliding_window' needs 'window'}}
  %0 = rlx.attention %q, %q, %q mask = sliding_window : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>
  return
}

// -----

// rlx.attention: the window is positive.
func.func @attention_window_zero(%q: tensor<2x8x16x64xf32>) {
  // expected-error @+1 {{'rlx.attention' op 'window' must be positive, got 0}}
  %0 = rlx.attention %q, %q, %q mask = sliding_window window = 0 : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>
  return
}

// -----

// rlx.attention: the window is positive.
func.func @attention_window_negative(%q: tensor<2x8x16x64xf32>) {
  // expected-error @+1 {{'rlx.attention' op 'window' must be positive, got -3}}
  %0 = rlx.attention %q, %q, %q mask = sliding_window window = -3 : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>
  return
}

// -----

// rlx.attention: custom needs the attn_mask operand.
func.func @attention_custom_no_mask(%q: tensor<2x8x16x64xf32>) {
  // expected-error @+1 {{'rlx.attention' op mask kind 'custom' needs the 'attn_mask' operand}}
  %0 = rlx.attention %q, %q, %q mask = custom : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>
  return
}

// -----

// rlx.attention: bias needs the attn_mask operand.
func.func @attention_bias_no_mask(%q: tensor<2x8x16x64xf32>) {
  // expected-error @+1 {{'rlx.attention' op mask kind 'bias' needs the 'attn_mask' operand}}
  %0 = rlx.attention %q, %q, %q mask = bias : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>
  return
}

// -----

// rlx.attention: an attn_mask with mask kind none.
func.func @attention_none_with_mask(%q: tensor<2x8x16x64xf32>, %m: tensor<16x16xi1>) {
  // expected-error @+1 {{'rlx.attention' op mask kind 'none' takes no 'attn_mask' operand (use 'custom' or 'bias')}}
  %0 = rlx.attention %q, %q, %q, %m mask = none : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<16x16xi1>
  return
}

// -----

// rlx.attention: an attn_mask with mask kind causal.
func.func @attention_causal_with_mask(%q: tensor<2x8x16x64xf32>, %m: tensor<16x16xf32>) {
  // expected-error @+1 {{'rlx.attention' op mask kind 'causal' takes no 'attn_mask' operand (use 'custom' or 'bias')}}
  %0 = rlx.attention %q, %q, %q, %m mask = causal : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<16x16xf32>
  return
}

// -----

// rlx.attention: an attn_mask with mask kind sliding_window.
func.func @attention_sliding_window_with_mask(%q: tensor<2x8x16x64xf32>, %m: tensor<16x16xi1>) {
  // expected-error @+1 {{'rlx.attention' op mask kind 'sliding_window' takes no 'attn_mask' operand (use 'custom' or 'bias')}}
  %0 = rlx.attention %q, %q, %q, %m mask = sliding_window window = 2 : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<16x16xi1>
  return
}

// -----

// rlx.attention: a custom mask is i1.
func.func @attention_custom_float_mask(%q: tensor<2x8x16x64xf32>, %m: tensor<16x16xf32>) {
  // expected-error @+1 {{'rlx.attention' op 'attn_mask' of mask kind 'custom' must have element type 'i1', got 'f32'}}
  %0 = rlx.attention %q, %q, %q, %m mask = custom : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<16x16xf32>
  return
}

// -----

// rlx.attention: a bias mask is of the query's float type, not i1.
func.func @attention_bias_bool_mask(%q: tensor<2x8x16x64xf32>, %m: tensor<16x16xi1>) {
  // expected-error @+1 {{'rlx.attention' op 'attn_mask' of mask kind 'bias' must have element type 'f32', got 'i1'}}
  %0 = rlx.attention %q, %q, %q, %m mask = bias : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<16x16xi1>
  return
}

// -----

// rlx.attention: a bias mask is of the query's float type, not another float.
func.func @attention_bias_other_float(%q: tensor<2x8x16x64xf32>, %m: tensor<16x16xf16>) {
  // expected-error @+1 {{'rlx.attention' op 'attn_mask' of mask kind 'bias' must have element type 'f32', got 'f16'}}
  %0 = rlx.attention %q, %q, %q, %m mask = bias : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<16x16xf16>
  return
}

// -----

// rlx.attention: the attn_mask has rank at most 4.
func.func @attention_mask_rank(%q: tensor<2x8x16x64xf32>, %m: tensor<1x2x8x16x16xi1>) {
  // expected-error @+1 {{'rlx.attention' op 'attn_mask' must have rank at most 4, got 5}}
  %0 = rlx.attention %q, %q, %q, %m mask = custom : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<1x2x8x16x16xi1>
  return
}

// -----

// rlx.attention: the attn_mask broadcasts to the scores [2, 8, 16, 32].
func.func @attention_mask_not_broadcastable(%q: tensor<2x8x16x64xf32>, %k: tensor<2x8x32x64xf32>, %m: tensor<16x16xi1>) {
  // expected-error @+1 {{'rlx.attention' op operands 'scores' and 'attn_mask' are not broadcast-compatible: dim 32 vs 16 at result dim 3}}
  %0 = rlx.attention %q, %k, %k, %m mask = custom : tensor<2x8x16x64xf32>, tensor<2x8x32x64xf32>, tensor<2x8x32x64xf32>, tensor<16x16xi1>
  return
}

// -----

// rlx.attention: the attn_mask may not widen the scores (batch 2 over batch 1).
func.func @attention_mask_widens_scores(%q: tensor<1x8x16x64xf32>, %m: tensor<2x1x16x16xf32>) {
  // expected-error @+1 {{'rlx.attention' op 'attn_mask' 'tensor<2x1x16x16xf32>' must broadcast to the scores [B, H, S, Skv]}}
  %0 = rlx.attention %q, %q, %q, %m mask = bias : tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32>, tensor<1x8x16x64xf32>, tensor<2x1x16x16xf32>
  return
}

// -----

// rlx.attention: the attn_mask is float or i1.
func.func @attention_mask_int(%q: tensor<2x8x16x64xf32>, %m: tensor<16x16xi32>) {
  // expected-error @+1 {{'rlx.attention' op operand #3 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 1-bit signless integer values, but got 'tensor<16x16xi32>'}}
  %0 = rlx.attention %q, %q, %q, %m mask = custom : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<16x16xi32>
  return
}

// -----

// rlx.attention: the mask kind is one of the five.
func.func @attention_mask_kind(%q: tensor<2x8x16x64xf32>) {
  // expected-error @+1 {{'rlx.attention' op attribute 'mask' failed to satisfy constraint: attention mask kind: one of 'none', 'causal', 'sliding_window', 'custom', 'bias'}}
  %0 = rlx.attention %q, %q, %q mask = padding : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>
  return
}

// -----

// rlx.attention: the scale is non-zero.
func.func @attention_scale_zero(%q: tensor<2x8x16x64xf32>) {
  // expected-error @+1 {{'rlx.attention' op 'scale' must be non-zero}}
  %0 = rlx.attention %q, %q, %q mask = none {scale = 0.0 : f32} : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>
  return
}

// -----

// rlx.attention: the result is [B, H, S, Dv].
func.func @attention_result_type(%q: tensor<2x8x16x64xf32>, %v: tensor<2x8x16x32xf32>) {
  // expected-error @+2 {{'rlx.attention' op inferred type(s) 'tensor<2x8x16x32xf32>' are incompatible with return type(s) of operation 'tensor<2x8x16x64xf32>'}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = "rlx.attention"(%q, %q, %v) : (tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x32xf32>) -> tensor<2x8x16x64xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.rope
//===----------------------------------------------------------------------===//

// rlx.rope: the input is [B, H, S, D].
func.func @rope_input_rank(%x: tensor<8x16x64xf32>, %c: tensor<16x32xf32>) {
  // expected-error @+1 {{'rlx.rope' op operand 'input' must have rank 4, got 3}}
  %0 = rlx.rope %x, %c, %c : tensor<8x16x64xf32>, tensor<16x32xf32>
  return
}

// -----

// rlx.rope: cos and sin are [S, D/2].
func.func @rope_cos_rank(%x: tensor<1x8x16x64xf32>, %c: tensor<32xf32>) {
  // expected-error @+1 {{'rlx.rope' op operand 'cos' must have rank 2, got 1}}
  %0 = rlx.rope %x, %c, %c : tensor<1x8x16x64xf32>, tensor<32xf32>
  return
}

// -----

// rlx.rope: cos has the input's element type.
func.func @rope_element_type(%x: tensor<1x8x16x64xf16>, %c: tensor<16x32xf32>) {
  // expected-error @+1 {{'rlx.rope' op operand 'cos' has element type 'f32' but 'input' has 'f16'}}
  %0 = rlx.rope %x, %c, %c : tensor<1x8x16x64xf16>, tensor<16x32xf32>
  return
}

// -----

// rlx.rope: the head dim is even.
func.func @rope_odd_head_dim(%x: tensor<1x8x16x63xf32>, %c: tensor<16x31xf32>) {
  // expected-error @+1 {{'rlx.rope' op the head dim of 'input' (63) must be even}}
  %0 = rlx.rope %x, %c, %c : tensor<1x8x16x63xf32>, tensor<16x31xf32>
  return
}

// -----

// rlx.rope: cos has a row per position.
func.func @rope_cos_length(%x: tensor<1x8x16x64xf32>, %c: tensor<8x32xf32>) {
  // expected-error @+1 {{'rlx.rope' op operand 'cos' dim 0 (8) must match the sequence length of 'input' (16)}}
  %0 = rlx.rope %x, %c, %c : tensor<1x8x16x64xf32>, tensor<8x32xf32>
  return
}

// -----

// rlx.rope: cos has a column per pair (D/2), not per feature.
func.func @rope_cos_width(%x: tensor<1x8x16x64xf32>, %c: tensor<16x64xf32>) {
  // expected-error @+1 {{'rlx.rope' op operand 'cos' dim 1 (64) must match half the head dim of 'input' (32)}}
  %0 = rlx.rope %x, %c, %c : tensor<1x8x16x64xf32>, tensor<16x64xf32>
  return
}

// -----

// rlx.rope: cos and sin have the same type.
func.func @rope_sin_type(%x: tensor<1x8x16x64xf32>, %c: tensor<16x32xf32>, %s: tensor<16x64xf32>) {
  // expected-error @+1 {{'rlx.rope' op failed to verify that all of {cos, sin} have same type}}
  %0 = "rlx.rope"(%x, %c, %s) : (tensor<1x8x16x64xf32>, tensor<16x32xf32>, tensor<16x64xf32>) -> tensor<1x8x16x64xf32>
  return
}

// -----

// rlx.rope: the style is neox or gptj.
func.func @rope_style(%x: tensor<1x8x16x64xf32>, %c: tensor<16x32xf32>) {
  // expected-error @+1 {{'rlx.rope' op attribute 'style' failed to satisfy constraint: rotary embedding layout: one of 'neox', 'gptj'}}
  %0 = rlx.rope %x, %c, %c {style = "llama"} : tensor<1x8x16x64xf32>, tensor<16x32xf32>
  return
}
