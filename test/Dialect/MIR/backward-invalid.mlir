// RUN: rlx-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// rlx.attention_backward
//===----------------------------------------------------------------------===//

// rlx.attention_backward: output has the type of the attention result.
func.func @attention_backward_output_type(%q: tensor<1x4x8x16xf32>, %o: tensor<1x4x8x8xf32>) {
  // expected-error @+1 {{'rlx.attention_backward' op 'output' has type 'tensor<1x4x8x8xf32>' but the attention result is 'tensor<1x4x8x16xf32>'}}
  %0:3 = rlx.attention_backward %q, %q, %q, %o, %o mask = none : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x8xf32>
  return
}

// -----

// rlx.attention_backward: d_output has the type of output.
func.func @attention_backward_d_output_type(%q: tensor<1x4x8x16xf32>, %do: tensor<1x4x8x8xf32>) {
  // expected-error @+1 {{'rlx.attention_backward' op failed to verify that all of {output, d_output} have same type}}
  %0:3 = "rlx.attention_backward"(%q, %q, %q, %q, %do) : (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x8xf32>) -> (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>)
  return
}

// -----

// rlx.attention_backward: the cotangents have the types of query, key and value.
func.func @attention_backward_result_types(%q: tensor<1x4x8x16xf32>) {
  // expected-error @+2 {{'rlx.attention_backward' op inferred type(s) 'tensor<1x4x8x16xf32>', 'tensor<1x4x8x16xf32>', 'tensor<1x4x8x16xf32>' are incompatible with return type(s) of operation 'tensor<1x4x8x16xf32>', 'tensor<1x4x8x16xf32>', 'tensor<1x4x8x8xf32>'}}
  // expected-error @+1 {{'rlx.attention_backward' op failed to infer returned types}}
  %0:3 = "rlx.attention_backward"(%q, %q, %q, %q, %q) : (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>) -> (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x8xf32>)
  return
}

// -----

// rlx.attention_backward: custom needs the attn_mask operand.
func.func @attention_backward_custom_no_mask(%q: tensor<1x4x8x16xf32>, %o: tensor<1x4x8x16xf32>) {
  // expected-error @+1 {{'rlx.attention_backward' op mask kind 'custom' needs the 'attn_mask' operand}}
  %0:3 = rlx.attention_backward %q, %q, %q, %o, %o mask = custom : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>
  return
}

// -----

// rlx.attention_backward: an attn_mask with mask kind causal.
func.func @attention_backward_causal_with_mask(%q: tensor<1x4x8x16xf32>, %o: tensor<1x4x8x16xf32>, %m: tensor<8x8xi1>) {
  // expected-error @+1 {{'rlx.attention_backward' op mask kind 'causal' takes no 'attn_mask' operand (use 'custom' or 'bias')}}
  %0:3 = rlx.attention_backward %q, %q, %q, %o, %o, %m mask = causal : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<8x8xi1>
  return
}

// -----

// rlx.attention_backward: window without sliding_window.
func.func @attention_backward_window_none(%q: tensor<1x4x8x16xf32>, %o: tensor<1x4x8x16xf32>) {
  // expected-error @+1 {{'rlx.attention_backward' op 'window' is only allowed with mask kind 'sliding_window', not 'none'}}
  %0:3 = rlx.attention_backward %q, %q, %q, %o, %o mask = none window = 2 : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>
  return
}

// -----

// rlx.attention_backward: sliding_window without window.
func.func @attention_backward_sliding_window_no_window(%q: tensor<1x4x8x16xf32>, %o: tensor<1x4x8x16xf32>) {
  // expected-error @+1 {{'rlx.attention_backward' op mask kind 'sliding_window' needs 'window'}}
  %0:3 = rlx.attention_backward %q, %q, %q, %o, %o mask = sliding_window : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>
  return
}

// -----

// rlx.attention_backward: a custom mask is i1.
func.func @attention_backward_custom_float_mask(%q: tensor<1x4x8x16xf32>, %o: tensor<1x4x8x16xf32>, %m: tensor<8x8xf32>) {
  // expected-error @+1 {{'rlx.attention_backward' op 'attn_mask' of mask kind 'custom' must have element type 'i1', got 'f32'}}
  %0:3 = rlx.attention_backward %q, %q, %q, %o, %o, %m mask = custom : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<8x8xf32>
  return
}

// -----

// rlx.attention_backward: the attn_mask broadcasts to the scores.
func.func @attention_backward_mask_shape(%q: tensor<1x4x8x16xf32>, %o: tensor<1x4x8x16xf32>, %m: tensor<8x4xf32>) {
  // expected-error @+1 {{'rlx.attention_backward' op operands 'scores' and 'attn_mask' are not broadcast-compatible: dim 8 vs 4 at result dim 3}}
  %0:3 = rlx.attention_backward %q, %q, %q, %o, %o, %m mask = bias : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<8x4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.layer_norm_backward / rlx.rms_norm_backward
//===----------------------------------------------------------------------===//

// rlx.layer_norm_backward: the input has rank at least 1.
func.func @layer_norm_backward_rank0(%x: tensor<f32>, %g: tensor<1xf32>) {
  // expected-error @+1 {{'rlx.layer_norm_backward' op operand 'input' must have rank at least 1, got 0}}
  %0:3 = rlx.layer_norm_backward %x, %x, %g : tensor<f32>, tensor<1xf32>
  return
}

// -----

// rlx.layer_norm_backward: gamma has the input's element type.
func.func @layer_norm_backward_gamma_element_type(%x: tensor<4x8xf32>, %g: tensor<8xf16>) {
  // expected-error @+1 {{'rlx.layer_norm_backward' op operand 'gamma' has element type 'f16' but 'input' has 'f32'}}
  %0:3 = rlx.layer_norm_backward %x, %x, %g : tensor<4x8xf32>, tensor<8xf16>
  return
}

// -----

// rlx.layer_norm_backward: gamma is 1-D.
func.func @layer_norm_backward_gamma_rank(%x: tensor<4x8xf32>, %g: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.layer_norm_backward' op operand 'gamma' must have rank 1, got 2}}
  %0:3 = rlx.layer_norm_backward %x, %x, %g : tensor<4x8xf32>, tensor<4x8xf32>
  return
}

// -----

// rlx.layer_norm_backward: gamma has the size of the last dim.
func.func @layer_norm_backward_gamma_size(%x: tensor<4x8xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.layer_norm_backward' op operand 'gamma' dim 0 (4) must match the last dim of 'input' (8)}}
  %0:3 = rlx.layer_norm_backward %x, %x, %g : tensor<4x8xf32>, tensor<4xf32>
  return
}

// -----

// rlx.layer_norm_backward: d_result has the input's type.
func.func @layer_norm_backward_d_result_type(%dy: tensor<4x4xf32>, %x: tensor<4x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.layer_norm_backward' op failed to verify that all of {d_result, input, d_input} have same type}}
  %0:3 = "rlx.layer_norm_backward"(%dy, %x, %g) : (tensor<4x4xf32>, tensor<4x8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

// rlx.layer_norm_backward: d_beta has gamma's type.
func.func @layer_norm_backward_d_beta_type(%x: tensor<4x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.layer_norm_backward' op failed to verify that all of {gamma, d_gamma, d_beta} have same type}}
  %0:3 = "rlx.layer_norm_backward"(%x, %x, %g) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<4x8xf32>)
  return
}

// -----

// rlx.rms_norm_backward: gamma has the size of the last dim.
func.func @rms_norm_backward_gamma_size(%x: tensor<4x8xbf16>, %g: tensor<16xbf16>) {
  // expected-error @+1 {{'rlx.rms_norm_backward' op operand 'gamma' dim 0 (16) must match the last dim of 'input' (8)}}
  %0:2 = rlx.rms_norm_backward %x, %x, %g : tensor<4x8xbf16>, tensor<16xbf16>
  return
}

// -----

// rlx.rms_norm_backward: gamma has the input's element type.
func.func @rms_norm_backward_gamma_element_type(%x: tensor<4x8xbf16>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.rms_norm_backward' op operand 'gamma' has element type 'f32' but 'input' has 'bf16'}}
  %0:2 = rlx.rms_norm_backward %x, %x, %g : tensor<4x8xbf16>, tensor<8xf32>
  return
}

// -----

// rlx.rms_norm_backward: gamma is 1-D.
func.func @rms_norm_backward_gamma_rank(%x: tensor<4x8xf32>, %g: tensor<f32>) {
  // expected-error @+1 {{'rlx.rms_norm_backward' op operand 'gamma' must have rank 1, got 0}}
  %0:2 = rlx.rms_norm_backward %x, %x, %g : tensor<4x8xf32>, tensor<f32>
  return
}

// -----

// rlx.rms_norm_backward: d_gamma has gamma's type.
func.func @rms_norm_backward_d_gamma_type(%x: tensor<4x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.rms_norm_backward' op failed to verify that all of {gamma, d_gamma} have same type}}
  %0:2 = "rlx.rms_norm_backward"(%x, %x, %g) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf16>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.conv2d_backward_input / rlx.conv2d_backward_weight
//===----------------------------------------------------------------------===//

// rlx.conv2d_backward_input: d_result has the shape the forward conv gives
// (32x32 by 3x3 with stride 2 and padding 1 gives 16x16, not 15x15).
func.func @conv2d_backward_input_shape_mismatch(%dy: tensor<1x16x15x15xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error @+1 {{'rlx.conv2d_backward_input' op 'd_result' has type 'tensor<1x16x15x15xf32>' but the forward convolution of 'tensor<1x3x32x32xf32>' by 'tensor<16x3x3x3xf32>' gives 'tensor<1x16x16x16xf32>'}}
  %0 = rlx.conv2d_backward_input %dy, %w strides = [2, 2] padding = [1, 1, 1, 1] : tensor<1x16x15x15xf32>, tensor<16x3x3x3xf32> -> tensor<1x3x32x32xf32>
  return
}

// -----

// rlx.conv2d_backward_input: d_result has the forward's output channels.
func.func @conv2d_backward_input_channels(%dy: tensor<1x8x30x30xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error @+1 {{'rlx.conv2d_backward_input' op 'd_result' has type 'tensor<1x8x30x30xf32>' but the forward convolution of 'tensor<1x3x32x32xf32>' by 'tensor<16x3x3x3xf32>' gives 'tensor<1x16x30x30xf32>'}}
  %0 = rlx.conv2d_backward_input %dy, %w : tensor<1x8x30x30xf32>, tensor<16x3x3x3xf32> -> tensor<1x3x32x32xf32>
  return
}

// -----

// rlx.conv2d_backward_input: d_result has the forward's element type.
func.func @conv2d_backward_input_element_type(%dy: tensor<1x16x30x30xf16>, %w: tensor<16x3x3x3xf32>) {
  // expected-error @+1 {{'rlx.conv2d_backward_input' op 'd_result' has type 'tensor<1x16x30x30xf16>' but the forward convolution of 'tensor<1x3x32x32xf32>' by 'tensor<16x3x3x3xf32>' gives 'tensor<1x16x30x30xf32>'}}
  %0 = rlx.conv2d_backward_input %dy, %w : tensor<1x16x30x30xf16>, tensor<16x3x3x3xf32> -> tensor<1x3x32x32xf32>
  return
}

// -----

// rlx.conv2d_backward_input: the window attributes follow rlx.conv (one stride per
// spatial dim).
func.func @conv2d_backward_input_strides_count(%dy: tensor<1x16x16x16xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error @+1 {{'rlx.conv2d_backward_input' op 'strides' has 1 entries but needs 2}}
  %0 = rlx.conv2d_backward_input %dy, %w strides = [2] : tensor<1x16x16x16xf32>, tensor<16x3x3x3xf32> -> tensor<1x3x32x32xf32>
  return
}

// -----

// rlx.conv2d_backward_input: groups divides the channels.
func.func @conv2d_backward_input_groups(%dy: tensor<1x16x30x30xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error @+1 {{'rlx.conv2d_backward_input' op 'groups' (2) must divide the input channels (3)}}
  %0 = rlx.conv2d_backward_input %dy, %w groups = 2 : tensor<1x16x30x30xf32>, tensor<16x3x3x3xf32> -> tensor<1x3x32x32xf32>
  return
}

// -----

// rlx.conv2d_backward_weight: d_result has the shape the forward conv gives.
func.func @conv2d_backward_weight_shape_mismatch(%dy: tensor<1x16x16x16xf32>, %x: tensor<1x3x32x32xf32>) {
  // expected-error @+1 {{'rlx.conv2d_backward_weight' op 'd_result' has type 'tensor<1x16x16x16xf32>' but the forward convolution of 'tensor<1x3x32x32xf32>' by 'tensor<16x3x3x3xf32>' gives 'tensor<1x16x30x30xf32>'}}
  %0 = rlx.conv2d_backward_weight %dy, %x : tensor<1x16x16x16xf32>, tensor<1x3x32x32xf32> -> tensor<16x3x3x3xf32>
  return
}

// -----

// rlx.conv2d_backward_weight: the window fits in the padded input.
func.func @conv2d_backward_weight_window(%dy: tensor<1x16x1x1xf32>, %x: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{'rlx.conv2d_backward_weight' op spatial dim 2: the window (5) is larger than the padded input (4)}}
  %0 = rlx.conv2d_backward_weight %dy, %x : tensor<1x16x1x1xf32>, tensor<1x3x4x4xf32> -> tensor<16x3x5x5xf32>
  return
}

// -----

// rlx.conv2d_backward_weight: padding is not negative.
func.func @conv2d_backward_weight_negative_padding(%dy: tensor<1x16x30x30xf32>, %x: tensor<1x3x32x32xf32>) {
  // expected-error @+1 {{'rlx.conv2d_backward_weight' op 'padding' entries must be at least 0, got -1}}
  %0 = rlx.conv2d_backward_weight %dy, %x padding = [0, -1, 0, 0] : tensor<1x16x30x30xf32>, tensor<1x3x32x32xf32> -> tensor<16x3x3x3xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.softmax_cross_entropy_backward
//===----------------------------------------------------------------------===//

// rlx.softmax_cross_entropy_backward: d_loss has the loss's type (rank 0).
func.func @softmax_cross_entropy_backward_d_loss_rank(%l: tensor<8x10xf32>, %y: tensor<8xi64>, %g: tensor<1xf32>) {
  // expected-error @+1 {{'rlx.softmax_cross_entropy_backward' op 'd_loss' has type 'tensor<1xf32>' but the loss is 'tensor<f32>'}}
  %0 = rlx.softmax_cross_entropy_backward %l, %y, %g : tensor<8x10xf32>, tensor<8xi64>, tensor<1xf32>
  return
}

// -----

// rlx.softmax_cross_entropy_backward: d_loss has the logits' element type.
func.func @softmax_cross_entropy_backward_d_loss_element_type(%l: tensor<8x10xf32>, %y: tensor<8xi64>, %g: tensor<f16>) {
  // expected-error @+1 {{'rlx.softmax_cross_entropy_backward' op 'd_loss' has type 'tensor<f16>' but the loss is 'tensor<f32>'}}
  %0 = rlx.softmax_cross_entropy_backward %l, %y, %g : tensor<8x10xf32>, tensor<8xi64>, tensor<f16>
  return
}

// -----

// rlx.softmax_cross_entropy_backward: the labels are i64.
func.func @softmax_cross_entropy_backward_labels_type(%l: tensor<8x10xf32>, %y: tensor<8xi32>, %g: tensor<f32>) {
  // expected-error @+1 {{'rlx.softmax_cross_entropy_backward' op operand #1 must be ranked tensor of 64-bit signless integer values, but got 'tensor<8xi32>'}}
  %0 = rlx.softmax_cross_entropy_backward %l, %y, %g : tensor<8x10xf32>, tensor<8xi32>, tensor<f32>
  return
}

// -----

// rlx.softmax_cross_entropy_backward: the result has the logits' type.
func.func @softmax_cross_entropy_backward_result_type(%l: tensor<8x10xf32>, %y: tensor<8xi64>, %g: tensor<f32>) {
  // expected-error @+2 {{'rlx.softmax_cross_entropy_backward' op inferred type(s) 'tensor<8x10xf32>' are incompatible with return type(s) of operation 'tensor<8xf32>'}}
  // expected-error @+1 {{'rlx.softmax_cross_entropy_backward' op failed to infer returned types}}
  %0 = "rlx.softmax_cross_entropy_backward"(%l, %y, %g) : (tensor<8x10xf32>, tensor<8xi64>, tensor<f32>) -> tensor<8xf32>
  return
}

// -----

// rlx.rms_norm_backward: epsilon must be positive.
func.func @i(%h: tensor<2x16x64xf32>, %g: tensor<64xf32>) {
  // expected-error @+1 {{'rlx.rms_norm_backward' op 'epsilon' must be positive, got 0.000000e+00}}
  %0:2 = rlx.rms_norm_backward %h, %h, %g {epsilon = 0.0 : f32} : tensor<2x16x64xf32>, tensor<64xf32>
  return
}

// -----

// rlx.attention_backward: shape errors carry the backward op's own name.
func.func @j(%q: tensor<1x4x8x16xf32>, %k: tensor<1x4x8x8xf32>) {
  // expected-error @+1 {{'rlx.attention_backward' op operand 'key' dim 3 (8) must match the head dim of 'query' (16)}}
  %0:3 = rlx.attention_backward %q, %k, %q, %q, %q mask = none : tensor<1x4x8x16xf32>, tensor<1x4x8x8xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>
  return
}

// -----

// rlx.softmax_cross_entropy_backward: shape errors carry the backward op's own name.
func.func @k(%q: tensor<1x4x8x16xf32>, %l: tensor<8xi64>, %s: tensor<f32>) {
  // expected-error @+1 {{'rlx.softmax_cross_entropy_backward' op operand 'logits' must have rank 2, got 4}}
  %0 = rlx.softmax_cross_entropy_backward %q, %l, %s : tensor<1x4x8x16xf32>, tensor<8xi64>, tensor<f32>
  return
}

// -----

// rlx.conv2d_backward_input: the result type must be an NCHW input.
func.func @n(%dy: tensor<1x16x16x16xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error @+1 {{'rlx.conv2d_backward_input' op the forward convolution's input and weight must be rank 4 (NCHW), got 'tensor<3x32x32xf32>' and 'tensor<16x3x3x3xf32>'}}
  %0 = rlx.conv2d_backward_input %dy, %w : tensor<1x16x16x16xf32>, tensor<16x3x3x3xf32> -> tensor<3x32x32xf32>
  return
}
