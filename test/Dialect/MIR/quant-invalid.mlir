// RUN: rlx-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// rlx.quantize / rlx.dequantize
//===----------------------------------------------------------------------===//

// rlx.quantize: per tensor (no axis) takes one scale.
func.func @quantize_per_tensor_scales(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{'rlx.quantize' op 'scales' has 2 entries but needs 1 (per-tensor: no 'axis')}}
  %0 = rlx.quantize %x {scales = array<f32: 0.1, 0.2>, zero_points = array<i64: 0>} : tensor<2x8xf32>
  return
}

// -----

// rlx.quantize: per channel takes one zero point per index of the axis dim.
func.func @quantize_per_channel_zero_points(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{'rlx.quantize' op 'zero_points' has 1 entries but needs 2 (the size of the 'axis' dim)}}
  %0 = rlx.quantize %x {scales = array<f32: 0.1, 0.2>, zero_points = array<i64: 0>, axis = 0 : i64} : tensor<2x8xf32>
  return
}

// -----

// rlx.quantize: per channel takes one scale per index of the axis dim.
func.func @quantize_per_channel_scales(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{'rlx.quantize' op 'scales' has 2 entries but needs 8 (the size of the 'axis' dim)}}
  %0 = rlx.quantize %x {scales = array<f32: 0.1, 0.2>, zero_points = array<i64: 0, 0>, axis = -1 : i64} : tensor<2x8xf32>
  return
}

// -----

// rlx.quantize: the axis is in range.
func.func @quantize_axis(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{'rlx.quantize' op 'axis' 2 is out of range for rank 2 (expected in [-2, 2))}}
  %0 = rlx.quantize %x {scales = array<f32: 0.1, 0.2>, zero_points = array<i64: 0, 0>, axis = 2 : i64} : tensor<2x8xf32>
  return
}

// -----

// rlx.quantize: scales are positive (zero).
func.func @quantize_zero_scale(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{'rlx.quantize' op 'scales' must be positive, got 0.000000e+00}}
  %0 = rlx.quantize %x {scales = array<f32: 0.0>, zero_points = array<i64: 0>} : tensor<2x8xf32>
  return
}

// -----

// rlx.quantize: scales are positive (negative).
func.func @quantize_negative_scale(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{'rlx.quantize' op 'scales' must be positive, got -5.000000e-01}}
  %0 = rlx.quantize %x {scales = array<f32: 0.1, -0.5>, zero_points = array<i64: 0, 0>, axis = 0 : i64} : tensor<2x8xf32>
  return
}

// -----

// rlx.quantize: scales are positive (NaN).
func.func @quantize_nan_scale(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{'rlx.quantize' op 'scales' must be positive, got nan}}
  %0 = rlx.quantize %x {scales = array<f32: 0x7FC00000>, zero_points = array<i64: 0>} : tensor<2x8xf32>
  return
}

// -----

// rlx.quantize: zero points lie in the int8 range (above).
func.func @quantize_zero_point_high(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{'rlx.quantize' op 'zero_points' must lie in [-128, 127], got 128}}
  %0 = rlx.quantize %x {scales = array<f32: 0.1>, zero_points = array<i64: 128>} : tensor<2x8xf32>
  return
}

// -----

// rlx.quantize: zero points lie in the int8 range (below).
func.func @quantize_zero_point_low(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{'rlx.quantize' op 'zero_points' must lie in [-128, 127], got -129}}
  %0 = rlx.quantize %x {scales = array<f32: 0.1, 0.1>, zero_points = array<i64: 0, -129>, axis = 0 : i64} : tensor<2x8xf32>
  return
}

// -----

// rlx.quantize: scales are required.
func.func @quantize_missing_scales(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{'rlx.quantize' op requires attribute 'scales'}}
  %0 = rlx.quantize %x {zero_points = array<i64: 0>} : tensor<2x8xf32>
  return
}

// -----

// rlx.quantize: floats in.
func.func @quantize_int_input(%x: tensor<2x8xi32>) {
  // expected-error @+1 {{'rlx.quantize' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<2x8xi32>'}}
  %0 = rlx.quantize %x {scales = array<f32: 0.1>, zero_points = array<i64: 0>} : tensor<2x8xi32>
  return
}

// -----

// rlx.quantize: the result is i8 of the input's shape.
func.func @quantize_result_type(%x: tensor<2x8xf32>) {
  // expected-error @+2 {{'rlx.quantize' op inferred type(s) 'tensor<2x8xi8>' are incompatible with return type(s) of operation 'tensor<8x2xi8>'}}
  // expected-error @+1 {{'rlx.quantize' op failed to infer returned types}}
  %0 = "rlx.quantize"(%x) {scales = array<f32: 0.1>, zero_points = array<i64: 0>} : (tensor<2x8xf32>) -> tensor<8x2xi8>
  return
}

// -----

// rlx.dequantize: per tensor (no axis) takes one zero point.
func.func @dequantize_per_tensor_zero_points(%q: tensor<2x8xi8>) {
  // expected-error @+1 {{'rlx.dequantize' op 'zero_points' has 2 entries but needs 1 (per-tensor: no 'axis')}}
  %0 = rlx.dequantize %q {scales = array<f32: 0.1>, zero_points = array<i64: 0, 0>} : tensor<2x8xi8> -> tensor<2x8xf32>
  return
}

// -----

// rlx.dequantize: per channel takes one scale per index of the axis dim.
func.func @dequantize_per_channel_scales(%q: tensor<2x8xi8>) {
  // expected-error @+1 {{'rlx.dequantize' op 'scales' has 1 entries but needs 2 (the size of the 'axis' dim)}}
  %0 = rlx.dequantize %q {scales = array<f32: 0.1>, zero_points = array<i64: 0, 0>, axis = 0 : i64} : tensor<2x8xi8> -> tensor<2x8xf32>
  return
}

// -----

// rlx.dequantize: the axis is in range.
func.func @dequantize_axis(%q: tensor<2x8xi8>) {
  // expected-error @+1 {{'rlx.dequantize' op 'axis' -3 is out of range for rank 2 (expected in [-2, 2))}}
  %0 = rlx.dequantize %q {scales = array<f32: 0.1>, zero_points = array<i64: 0>, axis = -3 : i64} : tensor<2x8xi8> -> tensor<2x8xf32>
  return
}

// -----

// rlx.dequantize: scales are positive.
func.func @dequantize_negative_scale(%q: tensor<2x8xi8>) {
  // expected-error @+1 {{'rlx.dequantize' op 'scales' must be positive, got -1.000000e+00}}
  %0 = rlx.dequantize %q {scales = array<f32: -1.0>, zero_points = array<i64: 0>} : tensor<2x8xi8> -> tensor<2x8xf32>
  return
}

// -----

// rlx.dequantize: zero points lie in the int8 range.
func.func @dequantize_zero_point(%q: tensor<2x8xi8>) {
  // expected-error @+1 {{'rlx.dequantize' op 'zero_points' must lie in [-128, 127], got 255}}
  %0 = rlx.dequantize %q {scales = array<f32: 1.0>, zero_points = array<i64: 255>} : tensor<2x8xi8> -> tensor<2x8xf32>
  return
}

// -----

// rlx.dequantize: the input is i8.
func.func @dequantize_ui8_input(%q: tensor<2x8xui8>) {
  // expected-error @+1 {{'rlx.dequantize' op operand #0 must be ranked tensor of 8-bit signless integer values, but got 'tensor<2x8xui8>'}}
  %0 = rlx.dequantize %q {scales = array<f32: 1.0>, zero_points = array<i64: 0>} : tensor<2x8xui8> -> tensor<2x8xf32>
  return
}

// -----

// rlx.dequantize: the result is float.
func.func @dequantize_int_result(%q: tensor<2x8xi8>) {
  // expected-error @+1 {{'rlx.dequantize' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<2x8xi32>'}}
  %0 = rlx.dequantize %q {scales = array<f32: 1.0>, zero_points = array<i64: 0>} : tensor<2x8xi8> -> tensor<2x8xi32>
  return
}

// -----

// rlx.dequantize: the result has the input's shape.
func.func @dequantize_result_shape(%q: tensor<2x8xi8>) {
  // expected-error @+1 {{'rlx.dequantize' op requires the same shape for all operands and results}}
  %0 = rlx.dequantize %q {scales = array<f32: 1.0>, zero_points = array<i64: 0>} : tensor<2x8xi8> -> tensor<16xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.fake_quantize
//===----------------------------------------------------------------------===//

// rlx.fake_quantize: bits is at least 2.
func.func @fake_quantize_bits_low(%x: tensor<4x8xf32>, %s: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+1 {{'rlx.fake_quantize' op 'bits' must be in [2, 16], got 1}}
  %0 = rlx.fake_quantize %x, %s, %z {bits = 1 : i64} : tensor<4x8xf32>, tensor<f32>, tensor<i32>
  return
}

// -----

// rlx.fake_quantize: bits is at most 16.
func.func @fake_quantize_bits_high(%x: tensor<4x8xf32>, %s: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+1 {{'rlx.fake_quantize' op 'bits' must be in [2, 16], got 17}}
  %0 = rlx.fake_quantize %x, %s, %z {bits = 17 : i64} : tensor<4x8xf32>, tensor<f32>, tensor<i32>
  return
}

// -----

// rlx.fake_quantize: the axis is in range.
func.func @fake_quantize_axis(%x: tensor<4x8xf32>, %s: tensor<4xf32>, %z: tensor<4xi32>) {
  // expected-error @+1 {{'rlx.fake_quantize' op 'axis' 2 is out of range for rank 2 (expected in [-2, 2))}}
  %0 = rlx.fake_quantize %x, %s, %z {axis = 2 : i64} : tensor<4x8xf32>, tensor<4xf32>, tensor<4xi32>
  return
}

// -----

// rlx.fake_quantize: the scale has the input's element type.
func.func @fake_quantize_scale_element_type(%x: tensor<4x8xf32>, %s: tensor<f16>, %z: tensor<i32>) {
  // expected-error @+1 {{'rlx.fake_quantize' op 'scale' has element type 'f16' but 'input' has 'f32'}}
  %0 = rlx.fake_quantize %x, %s, %z : tensor<4x8xf32>, tensor<f16>, tensor<i32>
  return
}

// -----

// rlx.fake_quantize: per tensor the scale is rank 0.
func.func @fake_quantize_scale_rank(%x: tensor<4x8xf32>, %s: tensor<1xf32>, %z: tensor<i32>) {
  // expected-error @+1 {{'rlx.fake_quantize' op operand 'scale' must have rank 0, got 1}}
  %0 = rlx.fake_quantize %x, %s, %z : tensor<4x8xf32>, tensor<1xf32>, tensor<i32>
  return
}

// -----

// rlx.fake_quantize: per tensor the zero point is rank 0.
func.func @fake_quantize_zero_point_rank(%x: tensor<4x8xf32>, %s: tensor<f32>, %z: tensor<1xi32>) {
  // expected-error @+1 {{'rlx.fake_quantize' op operand 'zero_point' must have rank 0, got 1}}
  %0 = rlx.fake_quantize %x, %s, %z : tensor<4x8xf32>, tensor<f32>, tensor<1xi32>
  return
}

// -----

// rlx.fake_quantize: per channel the scale is 1-D.
func.func @fake_quantize_per_channel_scale_rank(%x: tensor<4x8xf32>, %s: tensor<f32>, %z: tensor<4xi32>) {
  // expected-error @+1 {{'rlx.fake_quantize' op operand 'scale' must have rank 1, got 0}}
  %0 = rlx.fake_quantize %x, %s, %z {axis = 0 : i64} : tensor<4x8xf32>, tensor<f32>, tensor<4xi32>
  return
}

// -----

// rlx.fake_quantize: per channel the scale has the axis dim's size.
func.func @fake_quantize_per_channel_scale_size(%x: tensor<4x8xf32>, %s: tensor<8xf32>, %z: tensor<4xi32>) {
  // expected-error @+1 {{'rlx.fake_quantize' op operand 'scale' dim 0 (8) must match the size of the 'axis' dim (4)}}
  %0 = rlx.fake_quantize %x, %s, %z {axis = 0 : i64} : tensor<4x8xf32>, tensor<8xf32>, tensor<4xi32>
  return
}

// -----

// rlx.fake_quantize: per channel the zero point has the axis dim's size.
func.func @fake_quantize_per_channel_zero_point_size(%x: tensor<4x8xf32>, %s: tensor<8xf32>, %z: tensor<4xi32>) {
  // expected-error @+1 {{'rlx.fake_quantize' op operand 'zero_point' dim 0 (4) must match the size of the 'axis' dim (8)}}
  %0 = rlx.fake_quantize %x, %s, %z {axis = -1 : i64} : tensor<4x8xf32>, tensor<8xf32>, tensor<4xi32>
  return
}

// -----

// rlx.fake_quantize: the zero point is i32.
func.func @fake_quantize_zero_point_type(%x: tensor<4x8xf32>, %s: tensor<f32>, %z: tensor<i64>) {
  // expected-error @+1 {{'rlx.fake_quantize' op operand #2 must be ranked tensor of 32-bit signless integer values, but got 'tensor<i64>'}}
  %0 = rlx.fake_quantize %x, %s, %z : tensor<4x8xf32>, tensor<f32>, tensor<i64>
  return
}

// -----

// rlx.fake_quantize: ste is one of the four estimators.
func.func @fake_quantize_ste(%x: tensor<4x8xf32>, %s: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+1 {{'rlx.fake_quantize' op attribute 'ste' failed to satisfy constraint: straight-through estimator: one of 'identity', 'clipped_identity', 'tanh', 'hard_tanh'}}
  %0 = rlx.fake_quantize %x, %s, %z {ste = "sigmoid"} : tensor<4x8xf32>, tensor<f32>, tensor<i32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.dequant_matmul
//===----------------------------------------------------------------------===//

// rlx.dequant_matmul: int8_block takes a scale.
func.func @dequant_matmul_int8_no_scale(%x: tensor<4x64xf32>, %w: tensor<16x64xi8>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op scheme 'int8_block' takes 1 scale/zero-point operands, got 0}}
  %0 = rlx.dequant_matmul #rlx.quant<int8_block, 32> %x, %w : tensor<4x64xf32>, tensor<16x64xi8>
  return
}

// -----

// rlx.dequant_matmul: int8_block_asym takes a scale and a zero point.
func.func @dequant_matmul_int8_asym_one_param(%x: tensor<4x64xf32>, %w: tensor<16x64xi8>, %p0: tensor<16x2xf32>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op scheme 'int8_block_asym' takes 2 scale/zero-point operands, got 1}}
  %0 = rlx.dequant_matmul #rlx.quant<int8_block_asym, 32> %x, %w, %p0 : tensor<4x64xf32>, tensor<16x64xi8>, tensor<16x2xf32>
  return
}

// -----

// rlx.dequant_matmul: int4_block takes only a scale.
func.func @dequant_matmul_int4_two_params(%x: tensor<4x64xf32>, %w: tensor<16x32xui8>, %p0: tensor<16x2xf32>, %p1: tensor<16x2xf32>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op scheme 'int4_block' takes 1 scale/zero-point operands, got 2}}
  %0 = rlx.dequant_matmul #rlx.quant<int4_block, 32> %x, %w, %p0, %p1 : tensor<4x64xf32>, tensor<16x32xui8>, tensor<16x2xf32>, tensor<16x2xf32>
  return
}

// -----

// rlx.dequant_matmul: fp8 takes one scale per row.
func.func @dequant_matmul_fp8_no_scale(%x: tensor<4x64xf32>, %w: tensor<16x64xui8>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op scheme 'fp8_e5m2' takes 1 scale/zero-point operands, got 0}}
  %0 = rlx.dequant_matmul #rlx.quant<fp8_e5m2> %x, %w : tensor<4x64xf32>, tensor<16x64xui8>
  return
}

// -----

// rlx.dequant_matmul: GGUF schemes keep their scales in the blocks.
func.func @dequant_matmul_gguf_with_scale(%x: tensor<4x256xf32>, %w: tensor<16x144xui8>, %p0: tensor<16xf32>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op scheme 'gguf_q4_k' takes 0 scale/zero-point operands, got 1}}
  %0 = rlx.dequant_matmul #rlx.quant<gguf_q4_k> %x, %w, %p0 : tensor<4x256xf32>, tensor<16x144xui8>, tensor<16xf32>
  return
}

// -----

// rlx.dequant_matmul: int8_block packs signed bytes.
func.func @dequant_matmul_int8_ui8(%x: tensor<4x64xf32>, %w: tensor<16x64xui8>, %p0: tensor<16x2xf32>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op scheme 'int8_block' packs its weight as i8, got 'ui8'}}
  %0 = rlx.dequant_matmul #rlx.quant<int8_block, 32> %x, %w, %p0 : tensor<4x64xf32>, tensor<16x64xui8>, tensor<16x2xf32>
  return
}

// -----

// rlx.dequant_matmul: int8_block_asym packs signed bytes.
func.func @dequant_matmul_int8_asym_ui8(%x: tensor<4x64xf32>, %w: tensor<16x64xui8>, %p0: tensor<16x2xf32>, %p1: tensor<16x2xf32>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op scheme 'int8_block_asym' packs its weight as i8, got 'ui8'}}
  %0 = rlx.dequant_matmul #rlx.quant<int8_block_asym, 32> %x, %w, %p0, %p1 : tensor<4x64xf32>, tensor<16x64xui8>, tensor<16x2xf32>, tensor<16x2xf32>
  return
}

// -----

// rlx.dequant_matmul: int4_block packs raw bytes.
func.func @dequant_matmul_int4_i8(%x: tensor<4x64xf32>, %w: tensor<16x32xi8>, %p0: tensor<16x2xf32>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op scheme 'int4_block' packs its weight as ui8, got 'i8'}}
  %0 = rlx.dequant_matmul #rlx.quant<int4_block, 32> %x, %w, %p0 : tensor<4x64xf32>, tensor<16x32xi8>, tensor<16x2xf32>
  return
}

// -----

// rlx.dequant_matmul: fp8 packs raw bytes.
func.func @dequant_matmul_fp8_i8(%x: tensor<4x64xf32>, %w: tensor<16x64xi8>, %p0: tensor<16xf32>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op scheme 'fp8_e4m3' packs its weight as ui8, got 'i8'}}
  %0 = rlx.dequant_matmul #rlx.quant<fp8_e4m3> %x, %w, %p0 : tensor<4x64xf32>, tensor<16x64xi8>, tensor<16xf32>
  return
}

// -----

// rlx.dequant_matmul: GGUF packs raw bytes.
func.func @dequant_matmul_gguf_i8(%x: tensor<4x256xf32>, %w: tensor<16x292xi8>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op scheme 'gguf_q8_k' packs its weight as ui8, got 'i8'}}
  %0 = rlx.dequant_matmul #rlx.quant<gguf_q8_k> %x, %w : tensor<4x256xf32>, tensor<16x292xi8>
  return
}

// -----

// rlx.dequant_matmul: K is a multiple of the block size.
func.func @dequant_matmul_int8_block_multiple(%x: tensor<4x48xf32>, %w: tensor<16x48xi8>, %p0: tensor<16x1xf32>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op the reduction dim of 'input' (48) must be a multiple of the block size 32}}
  %0 = rlx.dequant_matmul #rlx.quant<int8_block, 32> %x, %w, %p0 : tensor<4x48xf32>, tensor<16x48xi8>, tensor<16x1xf32>
  return
}

// -----

// rlx.dequant_matmul: K is a multiple of the int4 block size.
func.func @dequant_matmul_int4_block_multiple(%x: tensor<4x40xf32>, %w: tensor<16x20xui8>, %p0: tensor<16x2xf32>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op the reduction dim of 'input' (40) must be a multiple of the block size 16}}
  %0 = rlx.dequant_matmul #rlx.quant<int4_block, 16> %x, %w, %p0 : tensor<4x40xf32>, tensor<16x20xui8>, tensor<16x2xf32>
  return
}

// -----

// rlx.dequant_matmul: GGUF K is a multiple of 256.
func.func @dequant_matmul_gguf_block_multiple(%x: tensor<4x128xf32>, %w: tensor<16x72xui8>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op the reduction dim of 'input' (128) must be a multiple of the block size 256}}
  %0 = rlx.dequant_matmul #rlx.quant<gguf_q4_k> %x, %w : tensor<4x128xf32>, tensor<16x72xui8>
  return
}

// -----

// rlx.dequant_matmul: int8 rows hold K bytes.
func.func @dequant_matmul_int8_row_bytes(%x: tensor<4x64xf32>, %w: tensor<16x32xi8>, %p0: tensor<16x2xf32>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op operand 'weight' dim 1 (32) must match the packed row size for the reduction dim of 'input' (64)}}
  %0 = rlx.dequant_matmul #rlx.quant<int8_block, 32> %x, %w, %p0 : tensor<4x64xf32>, tensor<16x32xi8>, tensor<16x2xf32>
  return
}

// -----

// rlx.dequant_matmul: int4 rows hold K / 2 bytes.
func.func @dequant_matmul_int4_row_bytes(%x: tensor<4x64xf32>, %w: tensor<16x64xui8>, %p0: tensor<16x2xf32>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op operand 'weight' dim 1 (64) must match the packed row size for the reduction dim of 'input' (32)}}
  %0 = rlx.dequant_matmul #rlx.quant<int4_block, 32> %x, %w, %p0 : tensor<4x64xf32>, tensor<16x64xui8>, tensor<16x2xf32>
  return
}

// -----

// rlx.dequant_matmul: fp8 rows hold K bytes.
func.func @dequant_matmul_fp8_row_bytes(%x: tensor<4x64xf32>, %w: tensor<16x32xui8>, %p0: tensor<16xf32>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op operand 'weight' dim 1 (32) must match the packed row size for the reduction dim of 'input' (64)}}
  %0 = rlx.dequant_matmul #rlx.quant<fp8_e4m3> %x, %w, %p0 : tensor<4x64xf32>, tensor<16x32xui8>, tensor<16xf32>
  return
}

// -----

// rlx.dequant_matmul: gguf_q4_k rows hold 144 bytes per 256 weights.
func.func @dequant_matmul_q4_k_row_bytes(%x: tensor<4x512xf32>, %w: tensor<16x144xui8>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op operand 'weight' dim 1 (144) must match the packed row size for the reduction dim of 'input' (288)}}
  %0 = rlx.dequant_matmul #rlx.quant<gguf_q4_k> %x, %w : tensor<4x512xf32>, tensor<16x144xui8>
  return
}

// -----

// rlx.dequant_matmul: gguf_q5_k rows hold 176 bytes per 256 weights.
func.func @dequant_matmul_q5_k_row_bytes(%x: tensor<4x256xf32>, %w: tensor<16x144xui8>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op operand 'weight' dim 1 (144) must match the packed row size for the reduction dim of 'input' (176)}}
  %0 = rlx.dequant_matmul #rlx.quant<gguf_q5_k> %x, %w : tensor<4x256xf32>, tensor<16x144xui8>
  return
}

// -----

// rlx.dequant_matmul: gguf_q6_k rows hold 210 bytes per 256 weights.
func.func @dequant_matmul_q6_k_row_bytes(%x: tensor<4x256xf32>, %w: tensor<16x208xui8>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op operand 'weight' dim 1 (208) must match the packed row size for the reduction dim of 'input' (210)}}
  %0 = rlx.dequant_matmul #rlx.quant<gguf_q6_k> %x, %w : tensor<4x256xf32>, tensor<16x208xui8>
  return
}

// -----

// rlx.dequant_matmul: gguf_q8_k rows hold 292 bytes per 256 weights.
func.func @dequant_matmul_q8_k_row_bytes(%x: tensor<4x256xf32>, %w: tensor<16x256xui8>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op operand 'weight' dim 1 (256) must match the packed row size for the reduction dim of 'input' (292)}}
  %0 = rlx.dequant_matmul #rlx.quant<gguf_q8_k> %x, %w : tensor<4x256xf32>, tensor<16x256xui8>
  return
}

// -----

// rlx.dequant_matmul: a block scale is [N, K / block].
func.func @dequant_matmul_scale_rank(%x: tensor<4x64xf32>, %w: tensor<16x64xi8>, %p0: tensor<16xf32>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op operand 'scale' must have rank 2, got 1}}
  %0 = rlx.dequant_matmul #rlx.quant<int8_block, 32> %x, %w, %p0 : tensor<4x64xf32>, tensor<16x64xi8>, tensor<16xf32>
  return
}

// -----

// rlx.dequant_matmul: the scale has one row per output row.
func.func @dequant_matmul_scale_rows(%x: tensor<4x64xf32>, %w: tensor<16x64xi8>, %p0: tensor<8x2xf32>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op operand 'scale' dim 0 (8) must match the output rows of 'weight' (16)}}
  %0 = rlx.dequant_matmul #rlx.quant<int8_block, 32> %x, %w, %p0 : tensor<4x64xf32>, tensor<16x64xi8>, tensor<8x2xf32>
  return
}

// -----

// rlx.dequant_matmul: the scale has one column per block.
func.func @dequant_matmul_scale_blocks(%x: tensor<4x64xf32>, %w: tensor<16x32xui8>, %p0: tensor<16x2xf32>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op operand 'scale' dim 1 (2) must match the blocks per row (4)}}
  %0 = rlx.dequant_matmul #rlx.quant<int4_block, 16> %x, %w, %p0 : tensor<4x64xf32>, tensor<16x32xui8>, tensor<16x2xf32>
  return
}

// -----

// rlx.dequant_matmul: the zero point is shaped as the scale.
func.func @dequant_matmul_zero_point_blocks(%x: tensor<4x64xf32>, %w: tensor<16x64xi8>, %p0: tensor<16x2xf32>, %p1: tensor<16x4xf32>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op operand 'zero_point' dim 1 (4) must match the blocks per row (2)}}
  %0 = rlx.dequant_matmul #rlx.quant<int8_block_asym, 32> %x, %w, %p0, %p1 : tensor<4x64xf32>, tensor<16x64xi8>, tensor<16x2xf32>, tensor<16x4xf32>
  return
}

// -----

// rlx.dequant_matmul: an fp8 scale is [N].
func.func @dequant_matmul_fp8_scale_rank(%x: tensor<4x64xf32>, %w: tensor<16x64xui8>, %p0: tensor<16x1xf32>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op operand 'scale' must have rank 1, got 2}}
  %0 = rlx.dequant_matmul #rlx.quant<fp8_e4m3> %x, %w, %p0 : tensor<4x64xf32>, tensor<16x64xui8>, tensor<16x1xf32>
  return
}

// -----

// rlx.dequant_matmul: an fp8 scale has one entry per output row.
func.func @dequant_matmul_fp8_scale_rows(%x: tensor<4x64xf32>, %w: tensor<16x64xui8>, %p0: tensor<32xf32>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op operand 'scale' dim 0 (32) must match the output rows of 'weight' (16)}}
  %0 = rlx.dequant_matmul #rlx.quant<fp8_e5m2> %x, %w, %p0 : tensor<4x64xf32>, tensor<16x64xui8>, tensor<32xf32>
  return
}

// -----

// rlx.dequant_matmul: the input has rank at least 1.
func.func @dequant_matmul_input_rank(%x: tensor<f32>, %w: tensor<16x144xui8>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op operand 'input' must have rank at least 1, got 0}}
  %0 = rlx.dequant_matmul #rlx.quant<gguf_q4_k> %x, %w : tensor<f32>, tensor<16x144xui8>
  return
}

// -----

// rlx.dequant_matmul: the packed weight is 2-D.
func.func @dequant_matmul_weight_rank(%x: tensor<4x256xf32>, %w: tensor<2x16x144xui8>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op operand 'weight' must have rank 2, got 3}}
  %0 = rlx.dequant_matmul #rlx.quant<gguf_q4_k> %x, %w : tensor<4x256xf32>, tensor<2x16x144xui8>
  return
}

// -----

// rlx.dequant_matmul: the input is float.
func.func @dequant_matmul_int_input(%x: tensor<4x64xi8>, %w: tensor<16x64xi8>, %p0: tensor<16x2xf32>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4x64xi8>'}}
  %0 = rlx.dequant_matmul #rlx.quant<int8_block, 32> %x, %w, %p0 : tensor<4x64xi8>, tensor<16x64xi8>, tensor<16x2xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// #rlx.quant
//===----------------------------------------------------------------------===//

// #rlx.quant: int8_block needs a block size.
func.func @quant_int8_block_no_block(%x: tensor<4x64xf32>, %w: tensor<16x64xi8>, %s: tensor<16x2xf32>) {
  // expected-error @+1 {{scheme 'int8_block' needs a positive block size, got 0}}
  %0 = rlx.dequant_matmul #rlx.quant<int8_block> %x, %w, %s : tensor<4x64xf32>, tensor<16x64xi8>, tensor<16x2xf32>
  return
}

// -----

// #rlx.quant: int8_block_asym needs a positive block size.
func.func @quant_int8_block_asym_negative_block(%x: tensor<4x64xf32>, %w: tensor<16x64xi8>, %s: tensor<16x2xf32>) {
  // expected-error @+1 {{scheme 'int8_block_asym' needs a positive block size, got -32}}
  %0 = rlx.dequant_matmul #rlx.quant<int8_block_asym, -32> %x, %w, %s, %s : tensor<4x64xf32>, tensor<16x64xi8>, tensor<16x2xf32>, tensor<16x2xf32>
  return
}

// -----

// #rlx.quant: int4_block needs a block size.
func.func @quant_int4_block_no_block(%x: tensor<4x64xf32>, %w: tensor<16x32xui8>, %s: tensor<16x2xf32>) {
  // expected-error @+1 {{scheme 'int4_block' needs a positive block size, got 0}}
  %0 = rlx.dequant_matmul #rlx.quant<int4_block> %x, %w, %s : tensor<4x64xf32>, tensor<16x32xui8>, tensor<16x2xf32>
  return
}

// -----

// #rlx.quant: int4_block needs an even block size.
func.func @quant_int4_block_odd(%x: tensor<4x63xf32>, %w: tensor<16x31xui8>, %s: tensor<16x21xf32>) {
  // expected-error @+1 {{scheme 'int4_block' needs an even block size (two weights per byte), got 3}}
  %0 = rlx.dequant_matmul #rlx.quant<int4_block, 3> %x, %w, %s : tensor<4x63xf32>, tensor<16x31xui8>, tensor<16x21xf32>
  return
}

// -----

// #rlx.quant: fp8_e4m3 takes no block size.
func.func @quant_fp8_e4m3_block(%x: tensor<4x64xf32>, %w: tensor<16x64xui8>, %s: tensor<16xf32>) {
  // expected-error @+1 {{scheme 'fp8_e4m3' takes no block size, got 32}}
  %0 = rlx.dequant_matmul #rlx.quant<fp8_e4m3, 32> %x, %w, %s : tensor<4x64xf32>, tensor<16x64xui8>, tensor<16xf32>
  return
}

// -----

// #rlx.quant: fp8_e5m2 takes no block size.
func.func @quant_fp8_e5m2_block(%x: tensor<4x64xf32>, %w: tensor<16x64xui8>, %s: tensor<16xf32>) {
  // expected-error @+1 {{scheme 'fp8_e5m2' takes no block size, got 1}}
  %0 = rlx.dequant_matmul #rlx.quant<fp8_e5m2, 1> %x, %w, %s : tensor<4x64xf32>, tensor<16x64xui8>, tensor<16xf32>
  return
}

// -----

// #rlx.quant: GGUF block sizes are fixed at 256.
func.func @quant_gguf_block_128(%x: tensor<4x256xf32>, %w: tensor<16x144xui8>) {
  // expected-error @+1 {{scheme 'gguf_q4_k' has a fixed block size of 256, got 128}}
  %0 = rlx.dequant_matmul #rlx.quant<gguf_q4_k, 128> %x, %w : tensor<4x256xf32>, tensor<16x144xui8>
  return
}

// -----

// #rlx.quant: GGUF block sizes are fixed at 256 (q6_k).
func.func @quant_gguf_q6_k_block_512(%x: tensor<4x256xf32>, %w: tensor<16x210xui8>) {
  // expected-error @+1 {{scheme 'gguf_q6_k' has a fixed block size of 256, got 512}}
  %0 = rlx.dequant_matmul #rlx.quant<gguf_q6_k, 512> %x, %w : tensor<4x256xf32>, tensor<16x210xui8>
  return
}

// -----

// #rlx.quant: the scheme is one of the nine.
func.func @quant_unknown_scheme(%x: tensor<4x256xf32>, %w: tensor<16x144xui8>) {
  // expected-error @+2 {{failed to parse RLX_QuantSchemeAttr parameter 'kind' which is to be a `::mlir::rlx::QuantKind`}}
  // expected-error @+1 {{expected ::mlir::rlx::QuantKind to be one of: int8_block, int8_block_asym, int4_block, fp8_e4m3, fp8_e5m2, gguf_q4_k, gguf_q5_k, gguf_q6_k, gguf_q8_k}}
  %0 = rlx.dequant_matmul #rlx.quant<gguf_q3_k> %x, %w : tensor<4x256xf32>, tensor<16x144xui8>
  return
}

// -----

// rlx.dequant_matmul: scales are f32.
func.func @e(%x: tensor<4x64xf32>, %w: tensor<16x64xi8>, %s: tensor<16x2xf16>) {
  // expected-error @+1 {{'rlx.dequant_matmul' op operand 'scale' must have element type f32, got 'f16'}}
  %0 = rlx.dequant_matmul #rlx.quant<int8_block, 32> %x, %w, %s : tensor<4x64xf32>, tensor<16x64xi8>, tensor<16x2xf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.int8_matmul
//===----------------------------------------------------------------------===//

// rlx.int8_matmul takes int8 operands only.
func.func @int8_matmul_float(%a: tensor<4x8xf32>, %b: tensor<8x2xi8>) {
  // expected-error @+1 {{'rlx.int8_matmul' op operand #0 must be ranked tensor of 8-bit signless integer values, but got 'tensor<4x8xf32>'}}
  %0 = rlx.int8_matmul %a, %b : tensor<4x8xf32>, tensor<8x2xi8>
  return
}

// -----

// rlx.int8_matmul: the contracted dims must agree, as for rlx.matmul.
func.func @int8_matmul_k(%a: tensor<4x8xi8>, %b: tensor<7x2xi8>) {
  // expected-error @+1 {{'rlx.int8_matmul' op contracting dims differ: 'lhs' has 8, 'rhs' has 7}}
  %0 = rlx.int8_matmul %a, %b : tensor<4x8xi8>, tensor<7x2xi8>
  return
}
