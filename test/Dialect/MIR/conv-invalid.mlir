// RUN: rlx-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// rlx.conv
//===----------------------------------------------------------------------===//

// rlx.conv: the weight has the input's element type.
func.func @conv_weight_element_type(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf16>) {
  // expected-error @+1 {{'rlx.conv' op operand 'weight' has element type 'f16' but 'input' has 'f32'}}
  %0 = rlx.conv %x, %w : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf16>
  return
}

// -----

// rlx.conv: the bias has the input's element type.
func.func @conv_bias_element_type(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xbf16>) {
  // expected-error @+1 {{'rlx.conv' op operand 'bias' has element type 'bf16' but 'input' has 'f32'}}
  %0 = rlx.conv %x, %w, %b : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xbf16>
  return
}

// -----

// rlx.conv: the input is NCL or NCHW.
func.func @conv_input_rank(%x: tensor<1x3x8x8x8xf32>, %w: tensor<16x3x3x3x3xf32>) {
  // expected-error @+1 {{'rlx.conv' op operand 'input' must have rank 3 (NCL) or 4 (NCHW), got 5}}
  %0 = rlx.conv %x, %w : tensor<1x3x8x8x8xf32>, tensor<16x3x3x3x3xf32>
  return
}

// -----

// rlx.conv: a rank-2 input has no spatial dim.
func.func @conv_input_rank2(%x: tensor<1x3xf32>, %w: tensor<16x3xf32>) {
  // expected-error @+1 {{'rlx.conv' op operand 'input' must have rank 3 (NCL) or 4 (NCHW), got 2}}
  %0 = rlx.conv %x, %w : tensor<1x3xf32>, tensor<16x3xf32>
  return
}

// -----

// rlx.conv: the weight has the input's rank.
func.func @conv_weight_rank(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3xf32>) {
  // expected-error @+1 {{'rlx.conv' op operand 'weight' must have rank 4, got 3}}
  %0 = rlx.conv %x, %w : tensor<1x3x32x32xf32>, tensor<16x3x3xf32>
  return
}

// -----

// rlx.conv: one stride per spatial dim.
func.func @conv_strides_count(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error @+1 {{'rlx.conv' op 'strides' has 1 entries but needs 2}}
  %0 = rlx.conv %x, %w strides = [2] : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>
  return
}

// -----

// rlx.conv: a 1-D convolution takes one stride.
func.func @conv1d_strides_count(%x: tensor<1x3x32xf32>, %w: tensor<16x3x3xf32>) {
  // expected-error @+1 {{'rlx.conv' op 'strides' has 2 entries but needs 1}}
  %0 = rlx.conv %x, %w strides = [1, 1] : tensor<1x3x32xf32>, tensor<16x3x3xf32>
  return
}

// -----

// rlx.conv: two paddings (low, high) per spatial dim.
func.func @conv_padding_count(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error @+1 {{'rlx.conv' op 'padding' has 2 entries but needs 4}}
  %0 = rlx.conv %x, %w padding = [1, 1] : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>
  return
}

// -----

// rlx.conv: one dilation per spatial dim.
func.func @conv_dilations_count(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error @+1 {{'rlx.conv' op 'dilations' has 3 entries but needs 2}}
  %0 = rlx.conv %x, %w dilations = [1, 1, 1] : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>
  return
}

// -----

// rlx.conv: strides are positive.
func.func @conv_zero_stride(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error @+1 {{'rlx.conv' op 'strides' entries must be at least 1, got 0}}
  %0 = rlx.conv %x, %w strides = [1, 0] : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>
  return
}

// -----

// rlx.conv: padding is not negative.
func.func @conv_negative_padding(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error @+1 {{'rlx.conv' op 'padding' entries must be at least 0, got -1}}
  %0 = rlx.conv %x, %w padding = [0, 0, -1, 0] : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>
  return
}

// -----

// rlx.conv: dilations are positive.
func.func @conv_zero_dilation(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error @+1 {{'rlx.conv' op 'dilations' entries must be at least 1, got 0}}
  %0 = rlx.conv %x, %w dilations = [0, 1] : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>
  return
}

// -----

// rlx.conv: groups is positive.
func.func @conv_zero_groups(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error @+1 {{'rlx.conv' op 'groups' must be positive, got 0}}
  %0 = rlx.conv %x, %w groups = 0 : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>
  return
}

// -----

// rlx.conv: groups divides the input channels.
func.func @conv_groups_input_channels(%x: tensor<1x8x10x10xf32>, %w: tensor<6x2x3x3xf32>) {
  // expected-error @+1 {{'rlx.conv' op 'groups' (3) must divide the input channels (8)}}
  %0 = rlx.conv %x, %w groups = 3 : tensor<1x8x10x10xf32>, tensor<6x2x3x3xf32>
  return
}

// -----

// rlx.conv: groups divides the output channels.
func.func @conv_groups_output_channels(%x: tensor<1x8x10x10xf32>, %w: tensor<5x4x3x3xf32>) {
  // expected-error @+1 {{'rlx.conv' op 'groups' (2) must divide the output channels (5)}}
  %0 = rlx.conv %x, %w groups = 2 : tensor<1x8x10x10xf32>, tensor<5x4x3x3xf32>
  return
}

// -----

// rlx.conv: the weight's dim 1 is input channels / groups.
func.func @conv_weight_channels(%x: tensor<1x8x10x10xf32>, %w: tensor<4x8x3x3xf32>) {
  // expected-error @+1 {{'rlx.conv' op operand 'weight' dim 1 (8) must match input channels / groups (4)}}
  %0 = rlx.conv %x, %w groups = 2 : tensor<1x8x10x10xf32>, tensor<4x8x3x3xf32>
  return
}

// -----

// rlx.conv: the weight's dim 1 is the input channels without groups.
func.func @conv_weight_channels_no_groups(%x: tensor<1x3x32x32xf32>, %w: tensor<16x4x3x3xf32>) {
  // expected-error @+1 {{'rlx.conv' op operand 'weight' dim 1 (4) must match input channels / groups (3)}}
  %0 = rlx.conv %x, %w : tensor<1x3x32x32xf32>, tensor<16x4x3x3xf32>
  return
}

// -----

// rlx.conv: the bias is 1-D.
func.func @conv_bias_rank(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<1x16xf32>) {
  // expected-error @+1 {{'rlx.conv' op operand 'bias' must have rank 1, got 2}}
  %0 = rlx.conv %x, %w, %b : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<1x16xf32>
  return
}

// -----

// rlx.conv: the bias has one entry per output channel.
func.func @conv_bias_size(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.conv' op operand 'bias' dim 0 (8) must match the output channels (16)}}
  %0 = rlx.conv %x, %w, %b : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<8xf32>
  return
}

// -----

// rlx.conv: the window fits in the padded input.
func.func @conv_window_too_large(%x: tensor<1x3x4x4xf32>, %w: tensor<16x3x5x3xf32>) {
  // expected-error @+1 {{'rlx.conv' op spatial dim 2: the window (5) is larger than the padded input (4)}}
  %0 = rlx.conv %x, %w : tensor<1x3x4x4xf32>, tensor<16x3x5x3xf32>
  return
}

// -----

// rlx.conv: the dilated window fits in the padded input.
func.func @conv_dilated_window_too_large(%x: tensor<1x3x8x8xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error @+1 {{'rlx.conv' op spatial dim 3: the window (9) is larger than the padded input (8)}}
  %0 = rlx.conv %x, %w dilations = [1, 4] : tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>
  return
}

// -----

// rlx.conv: floats only.
func.func @conv_int(%x: tensor<1x3x8x8xi8>, %w: tensor<16x3x3x3xi8>) {
  // expected-error @+1 {{'rlx.conv' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<1x3x8x8xi8>'}}
  %0 = rlx.conv %x, %w : tensor<1x3x8x8xi8>, tensor<16x3x3x3xi8>
  return
}

// -----

// rlx.conv: the result type is inferred.
func.func @conv_result_type(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error @+2 {{'rlx.conv' op inferred type(s) 'tensor<1x16x30x30xf32>' are incompatible with return type(s) of operation 'tensor<1x16x32x32xf32>'}}
  // expected-error @+1 {{'rlx.conv' op failed to infer returned types}}
  %0 = "rlx.conv"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.conv_transpose2d
//===----------------------------------------------------------------------===//

// rlx.conv_transpose2d: the weight has the input's element type.
func.func @conv_transpose2d_element_type(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x4x4xf64>) {
  // expected-error @+1 {{'rlx.conv_transpose2d' op operand 'weight' has element type 'f64' but 'input' has 'f32'}}
  %0 = rlx.conv_transpose2d %x, %w : tensor<1x16x8x8xf32>, tensor<16x8x4x4xf64>
  return
}

// -----

// rlx.conv_transpose2d: the bias has the input's element type.
func.func @conv_transpose2d_bias_element_type(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x4x4xf32>, %b: tensor<8xf16>) {
  // expected-error @+1 {{'rlx.conv_transpose2d' op operand 'bias' has element type 'f16' but 'input' has 'f32'}}
  %0 = rlx.conv_transpose2d %x, %w, %b : tensor<1x16x8x8xf32>, tensor<16x8x4x4xf32>, tensor<8xf16>
  return
}

// -----

// rlx.conv_transpose2d: the input is NCHW.
func.func @conv_transpose2d_input_rank(%x: tensor<1x16x8xf32>, %w: tensor<16x8x4x4xf32>) {
  // expected-error @+1 {{'rlx.conv_transpose2d' op operand 'input' must have rank 4, got 3}}
  %0 = rlx.conv_transpose2d %x, %w : tensor<1x16x8xf32>, tensor<16x8x4x4xf32>
  return
}

// -----

// rlx.conv_transpose2d: the weight is [Cin, Cout / groups, kh, kw].
func.func @conv_transpose2d_weight_rank(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x4xf32>) {
  // expected-error @+1 {{'rlx.conv_transpose2d' op operand 'weight' must have rank 4, got 3}}
  %0 = rlx.conv_transpose2d %x, %w : tensor<1x16x8x8xf32>, tensor<16x8x4xf32>
  return
}

// -----

// rlx.conv_transpose2d: one stride per spatial dim.
func.func @conv_transpose2d_strides_count(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x4x4xf32>) {
  // expected-error @+1 {{'rlx.conv_transpose2d' op 'strides' has 3 entries but needs 2}}
  %0 = rlx.conv_transpose2d %x, %w strides = [2, 2, 2] : tensor<1x16x8x8xf32>, tensor<16x8x4x4xf32>
  return
}

// -----

// rlx.conv_transpose2d: one output padding per spatial dim.
func.func @conv_transpose2d_output_padding_count(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x4x4xf32>) {
  // expected-error @+1 {{'rlx.conv_transpose2d' op 'output_padding' has 1 entries but needs 2}}
  %0 = rlx.conv_transpose2d %x, %w strides = [2, 2] output_padding = [1] : tensor<1x16x8x8xf32>, tensor<16x8x4x4xf32>
  return
}

// -----

// rlx.conv_transpose2d: output padding is not negative.
func.func @conv_transpose2d_negative_output_padding(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x4x4xf32>) {
  // expected-error @+1 {{'rlx.conv_transpose2d' op 'output_padding' entries must be at least 0, got -1}}
  %0 = rlx.conv_transpose2d %x, %w output_padding = [0, -1] : tensor<1x16x8x8xf32>, tensor<16x8x4x4xf32>
  return
}

// -----

// rlx.conv_transpose2d: output padding is smaller than the stride or the dilation.
func.func @conv_transpose2d_output_padding_too_large(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x4x4xf32>) {
  // expected-error @+1 {{'rlx.conv_transpose2d' op 'output_padding' 2 must be smaller than the stride or the dilation of spatial dim 0}}
  %0 = rlx.conv_transpose2d %x, %w strides = [2, 2] output_padding = [2, 0] : tensor<1x16x8x8xf32>, tensor<16x8x4x4xf32>
  return
}

// -----

// rlx.conv_transpose2d: with stride 1 and dilation 1 there is no output padding.
func.func @conv_transpose2d_output_padding_stride1(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x4x4xf32>) {
  // expected-error @+1 {{'rlx.conv_transpose2d' op 'output_padding' 1 must be smaller than the stride or the dilation of spatial dim 1}}
  %0 = rlx.conv_transpose2d %x, %w output_padding = [0, 1] : tensor<1x16x8x8xf32>, tensor<16x8x4x4xf32>
  return
}

// -----

// rlx.conv_transpose2d: the weight's dim 0 is the input channels.
func.func @conv_transpose2d_weight_channels(%x: tensor<1x16x8x8xf32>, %w: tensor<8x8x4x4xf32>) {
  // expected-error @+1 {{'rlx.conv_transpose2d' op operand 'weight' dim 0 (8) must match the input channels (16)}}
  %0 = rlx.conv_transpose2d %x, %w : tensor<1x16x8x8xf32>, tensor<8x8x4x4xf32>
  return
}

// -----

// rlx.conv_transpose2d: groups is positive.
func.func @conv_transpose2d_zero_groups(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x4x4xf32>) {
  // expected-error @+1 {{'rlx.conv_transpose2d' op 'groups' must be positive, got 0}}
  %0 = rlx.conv_transpose2d %x, %w groups = 0 : tensor<1x16x8x8xf32>, tensor<16x8x4x4xf32>
  return
}

// -----

// rlx.conv_transpose2d: groups divides the input channels.
func.func @conv_transpose2d_groups(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x4x4xf32>) {
  // expected-error @+1 {{'rlx.conv_transpose2d' op 'groups' (3) must divide the input channels (16)}}
  %0 = rlx.conv_transpose2d %x, %w groups = 3 : tensor<1x16x8x8xf32>, tensor<16x8x4x4xf32>
  return
}

// -----

// rlx.conv_transpose2d: the bias has one entry per output channel (Cout = 8).
func.func @conv_transpose2d_bias_size(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x4x4xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'rlx.conv_transpose2d' op operand 'bias' dim 0 (16) must match the output channels (8)}}
  %0 = rlx.conv_transpose2d %x, %w, %b : tensor<1x16x8x8xf32>, tensor<16x8x4x4xf32>, tensor<16xf32>
  return
}

// -----

// rlx.conv_transpose2d: the bias is 1-D.
func.func @conv_transpose2d_bias_rank(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x4x4xf32>, %b: tensor<f32>) {
  // expected-error @+1 {{'rlx.conv_transpose2d' op operand 'bias' must have rank 1, got 0}}
  %0 = rlx.conv_transpose2d %x, %w, %b : tensor<1x16x8x8xf32>, tensor<16x8x4x4xf32>, tensor<f32>
  return
}

// -----

// rlx.conv_transpose2d: the output has at least one element per spatial dim
// ((1 - 1) * 1 - 1 - 0 + 0 + 0 + 1 = 0).
func.func @conv_transpose2d_empty_output(%x: tensor<1x2x1x1xf32>, %w: tensor<2x2x1x1xf32>) {
  // expected-error @+1 {{'rlx.conv_transpose2d' op spatial dim 2: the output size would be 0}}
  %0 = rlx.conv_transpose2d %x, %w padding = [1, 0, 0, 0] : tensor<1x2x1x1xf32>, tensor<2x2x1x1xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.pool
//===----------------------------------------------------------------------===//

// rlx.pool: the kind is max or avg.
func.func @pool_kind(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'rlx.pool' op attribute 'kind' failed to satisfy constraint: pooling kind: one of 'max', 'avg'}}
  %0 = rlx.pool min %x kernel = [2, 2] : tensor<1x3x8x8xf32>
  return
}

// -----

// rlx.pool: one kernel entry per spatial dim.
func.func @pool_kernel_count(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'rlx.pool' op 'kernel' has 1 entries but the input has 2 spatial dims}}
  %0 = rlx.pool max %x kernel = [2] : tensor<1x3x8x8xf32>
  return
}

// -----

// rlx.pool: kernel entries are positive.
func.func @pool_kernel_zero(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'rlx.pool' op 'kernel' entries must be positive}}
  %0 = rlx.pool max %x kernel = [2, 0] : tensor<1x3x8x8xf32>
  return
}

// -----

// rlx.pool: the input is NCL or NCHW.
func.func @pool_input_rank(%x: tensor<3x8xf32>) {
  // expected-error @+1 {{'rlx.pool' op operand 'input' must have rank 3 (NCL) or 4 (NCHW), got 2}}
  %0 = rlx.pool max %x kernel = [2] : tensor<3x8xf32>
  return
}

// -----

// rlx.pool: one stride per spatial dim.
func.func @pool_strides_count(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'rlx.pool' op 'strides' has 1 entries but needs 2}}
  %0 = rlx.pool max %x kernel = [2, 2] strides = [1] : tensor<1x3x8x8xf32>
  return
}

// -----

// rlx.pool: strides are positive.
func.func @pool_zero_stride(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'rlx.pool' op 'strides' entries must be at least 1, got 0}}
  %0 = rlx.pool max %x kernel = [2, 2] strides = [0, 1] : tensor<1x3x8x8xf32>
  return
}

// -----

// rlx.pool: two paddings per spatial dim.
func.func @pool_padding_count(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'rlx.pool' op 'padding' has 2 entries but needs 4}}
  %0 = rlx.pool max %x kernel = [2, 2] padding = [1, 1] : tensor<1x3x8x8xf32>
  return
}

// -----

// rlx.pool: padding is not negative.
func.func @pool_negative_padding(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'rlx.pool' op 'padding' entries must be at least 0, got -1}}
  %0 = rlx.pool max %x kernel = [2, 2] padding = [-1, 0, 0, 0] : tensor<1x3x8x8xf32>
  return
}

// -----

// rlx.pool: padding is at most half the kernel (2 > 3 / 2).
func.func @pool_padding_too_large(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'rlx.pool' op 'padding' of spatial dim 1 must be at most half the kernel (3)}}
  %0 = rlx.pool avg %x kernel = [3, 3] padding = [1, 1, 0, 2] : tensor<1x3x8x8xf32>
  return
}

// -----

// rlx.pool: the window fits in the padded input.
func.func @pool_window_too_large(%x: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{'rlx.pool' op spatial dim 2: the window (5) is larger than the padded input (4)}}
  %0 = rlx.pool max %x kernel = [5, 2] : tensor<1x3x4x4xf32>
  return
}

// -----

// rlx.pool: the kernel is required.
func.func @pool_missing_kernel(%x: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{'rlx.pool' op requires attribute 'kernel'}}
  %0 = "rlx.pool"(%x) {kind = "max"} : (tensor<1x3x4x4xf32>) -> tensor<1x3x2x2xf32>
  return
}

// -----

// rlx.pool: floats only.
func.func @pool_int(%x: tensor<1x3x4x4xi32>) {
  // expected-error @+1 {{'rlx.pool' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<1x3x4x4xi32>'}}
  %0 = rlx.pool max %x kernel = [2, 2] : tensor<1x3x4x4xi32>
  return
}
