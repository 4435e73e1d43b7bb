// RUN: rlx-opt %s | FileCheck %s
// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round trips of the quantization ops and of the #rlx.quant attribute.
// Functions return their results so that the `return` line checks the
// inferred result types.

//===----------------------------------------------------------------------===//
// rlx.quantize / rlx.dequantize
//===----------------------------------------------------------------------===//

// Per tensor (no axis): one scale and one zero point.
// CHECK-LABEL: func.func @quantize_per_tensor
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<4x64xf32>)
func.func @quantize_per_tensor(%x: tensor<4x64xf32>) -> (tensor<4x64xi8>, tensor<4x64xf32>) {
  // CHECK: %[[Q:.+]] = rlx.quantize %[[X]] {scales = array<f32: 1.000000e-01>, zero_points = array<i64: 0>} : tensor<4x64xf32>
  %q = rlx.quantize %x {scales = array<f32: 0.1>, zero_points = array<i64: 0>} : tensor<4x64xf32>
  // CHECK: %[[D:.+]] = rlx.dequantize %[[Q]] {scales = array<f32: 1.000000e-01>, zero_points = array<i64: 0>} : tensor<4x64xi8> -> tensor<4x64xf32>
  %d = rlx.dequantize %q {scales = array<f32: 0.1>, zero_points = array<i64: 0>} : tensor<4x64xi8> -> tensor<4x64xf32>
  // CHECK: return %[[Q]], %[[D]] : tensor<4x64xi8>, tensor<4x64xf32>
  return %q, %d : tensor<4x64xi8>, tensor<4x64xf32>
}

// Per channel: one scale and zero point per index of the axis dim; the axis
// may be negative; zero points span [-128, 127].
// CHECK-LABEL: func.func @quantize_per_channel
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<2x3xf32>)
func.func @quantize_per_channel(%x: tensor<2x3xf32>) -> (tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xf32>, tensor<2x3xf32>) {
  // CHECK: %[[A:.+]] = rlx.quantize %[[X]] {axis = 0 : i64, scales = array<f32: 1.000000e-01, 2.000000e-01>, zero_points = array<i64: -128, 127>} : tensor<2x3xf32>
  %a = rlx.quantize %x {scales = array<f32: 0.1, 0.2>, zero_points = array<i64: -128, 127>, axis = 0 : i64} : tensor<2x3xf32>
  // CHECK: %[[B:.+]] = rlx.quantize %[[X]] {axis = -1 : i64, scales = array<f32: 1.000000e+00, 5.000000e-01, 2.500000e-01>, zero_points = array<i64: 0, 1, 2>} : tensor<2x3xf32>
  %b = rlx.quantize %x {scales = array<f32: 1.0, 0.5, 0.25>, zero_points = array<i64: 0, 1, 2>, axis = -1 : i64} : tensor<2x3xf32>
  // CHECK: %[[C:.+]] = rlx.dequantize %[[A]] {axis = 0 : i64, scales = array<f32: 1.000000e-01, 2.000000e-01>, zero_points = array<i64: -128, 127>} : tensor<2x3xi8> -> tensor<2x3xf32>
  %c = rlx.dequantize %a {scales = array<f32: 0.1, 0.2>, zero_points = array<i64: -128, 127>, axis = 0 : i64} : tensor<2x3xi8> -> tensor<2x3xf32>
  // CHECK: %[[D:.+]] = rlx.dequantize %[[B]] {axis = 1 : i64, scales = array<f32: 1.000000e+00, 5.000000e-01, 2.500000e-01>, zero_points = array<i64: 0, 1, 2>} : tensor<2x3xi8> -> tensor<2x3xf32>
  %d = rlx.dequantize %b {scales = array<f32: 1.0, 0.5, 0.25>, zero_points = array<i64: 0, 1, 2>, axis = 1 : i64} : tensor<2x3xi8> -> tensor<2x3xf32>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]] : tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xf32>, tensor<2x3xf32>
  return %a, %b, %c, %d : tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xf32>, tensor<2x3xf32>
}

// Every float type in and out; a dynamic axis dim takes any number of
// scales; rank 0 is per tensor.
// CHECK-LABEL: func.func @quantize_types_and_shapes
func.func @quantize_types_and_shapes(%h: tensor<8xf16>, %bf: tensor<8xbf16>, %f64: tensor<8xf64>,
                                     %d: tensor<?x4xf32>, %s: tensor<f32>, %qd: tensor<?x4xi8>)
    -> (tensor<8xi8>, tensor<8xi8>, tensor<8xi8>, tensor<?x4xi8>, tensor<i8>, tensor<?x4xf16>, tensor<?x4xbf16>, tensor<?x4xf64>) {
  // CHECK: %[[A:.+]] = rlx.quantize %{{.+}} {scales = array<f32: 5.000000e-01>, zero_points = array<i64: 0>} : tensor<8xf16>
  %0 = rlx.quantize %h {scales = array<f32: 0.5>, zero_points = array<i64: 0>} : tensor<8xf16>
  // CHECK: %[[B:.+]] = rlx.quantize %{{.+}} {scales = array<f32: 5.000000e-01>, zero_points = array<i64: 0>} : tensor<8xbf16>
  %1 = rlx.quantize %bf {scales = array<f32: 0.5>, zero_points = array<i64: 0>} : tensor<8xbf16>
  // CHECK: %[[C:.+]] = rlx.quantize %{{.+}} {scales = array<f32: 5.000000e-01>, zero_points = array<i64: 0>} : tensor<8xf64>
  %2 = rlx.quantize %f64 {scales = array<f32: 0.5>, zero_points = array<i64: 0>} : tensor<8xf64>
  // CHECK: %[[D:.+]] = rlx.quantize %{{.+}} {axis = 0 : i64, scales = array<f32: 1.000000e+00, 2.000000e+00, 3.000000e+00>, zero_points = array<i64: 0, 0, 0>} : tensor<?x4xf32>
  %3 = rlx.quantize %d {scales = array<f32: 1.0, 2.0, 3.0>, zero_points = array<i64: 0, 0, 0>, axis = 0 : i64} : tensor<?x4xf32>
  // CHECK: %[[E:.+]] = rlx.quantize %{{.+}} {scales = array<f32: 1.000000e+00>, zero_points = array<i64: 5>} : tensor<f32>
  %4 = rlx.quantize %s {scales = array<f32: 1.0>, zero_points = array<i64: 5>} : tensor<f32>
  // CHECK: %[[F:.+]] = rlx.dequantize %{{.+}} {scales = array<f32: 1.000000e+00>, zero_points = array<i64: 0>} : tensor<?x4xi8> -> tensor<?x4xf16>
  %5 = rlx.dequantize %qd {scales = array<f32: 1.0>, zero_points = array<i64: 0>} : tensor<?x4xi8> -> tensor<?x4xf16>
  // CHECK: %[[G:.+]] = rlx.dequantize %{{.+}} {axis = 1 : i64, scales = array<f32: 1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00>, zero_points = array<i64: 0, 0, 0, 0>} : tensor<?x4xi8> -> tensor<?x4xbf16>
  %6 = rlx.dequantize %qd {scales = array<f32: 1.0, 1.0, 1.0, 1.0>, zero_points = array<i64: 0, 0, 0, 0>, axis = 1 : i64} : tensor<?x4xi8> -> tensor<?x4xbf16>
  // CHECK: %[[H:.+]] = rlx.dequantize %{{.+}} {scales = array<f32: 2.500000e-01>, zero_points = array<i64: -3>} : tensor<?x4xi8> -> tensor<?x4xf64>
  %7 = rlx.dequantize %qd {scales = array<f32: 0.25>, zero_points = array<i64: -3>} : tensor<?x4xi8> -> tensor<?x4xf64>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]], %[[F]], %[[G]], %[[H]] : tensor<8xi8>, tensor<8xi8>, tensor<8xi8>, tensor<?x4xi8>, tensor<i8>, tensor<?x4xf16>, tensor<?x4xbf16>, tensor<?x4xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7
      : tensor<8xi8>, tensor<8xi8>, tensor<8xi8>, tensor<?x4xi8>, tensor<i8>, tensor<?x4xf16>, tensor<?x4xbf16>, tensor<?x4xf64>
}

//===----------------------------------------------------------------------===//
// rlx.fake_quantize
//===----------------------------------------------------------------------===//

// Per tensor: rank-0 scale and zero point. bits = 8 and ste = identity are
// the defaults and are not printed.
// CHECK-LABEL: func.func @fake_quantize_per_tensor
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<4x8xf32>, %[[S:[^:]+]]: tensor<f32>, %[[Z:[^:]+]]: tensor<i32>)
func.func @fake_quantize_per_tensor(%x: tensor<4x8xf32>, %s: tensor<f32>, %z: tensor<i32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  // CHECK: %[[A:.+]] = rlx.fake_quantize %[[X]], %[[S]], %[[Z]] : tensor<4x8xf32>, tensor<f32>, tensor<i32>
  %a = rlx.fake_quantize %x, %s, %z : tensor<4x8xf32>, tensor<f32>, tensor<i32>
  // CHECK: %[[B:.+]] = rlx.fake_quantize %[[X]], %[[S]], %[[Z]] : tensor<4x8xf32>, tensor<f32>, tensor<i32>
  %b = rlx.fake_quantize %x, %s, %z {bits = 8 : i64, ste = "identity"} : tensor<4x8xf32>, tensor<f32>, tensor<i32>
  // CHECK: %[[C:.+]] = rlx.fake_quantize %[[X]], %[[S]], %[[Z]] {bits = 4 : i64, ste = "clipped_identity"} : tensor<4x8xf32>, tensor<f32>, tensor<i32>
  %c = rlx.fake_quantize %x, %s, %z {bits = 4 : i64, ste = "clipped_identity"} : tensor<4x8xf32>, tensor<f32>, tensor<i32>
  // CHECK: return %[[A]], %[[B]], %[[C]]
  return %a, %b, %c : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// Every straight-through estimator and the ends of the bits range.
// CHECK-LABEL: func.func @fake_quantize_ste_and_bits
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<4x8xf32>, %[[S:[^:]+]]: tensor<f32>, %[[Z:[^:]+]]: tensor<i32>)
func.func @fake_quantize_ste_and_bits(%x: tensor<4x8xf32>, %s: tensor<f32>, %z: tensor<i32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  // CHECK: %[[A:.+]] = rlx.fake_quantize %[[X]], %[[S]], %[[Z]] {ste = "tanh"} : tensor<4x8xf32>, tensor<f32>, tensor<i32>
  %a = rlx.fake_quantize %x, %s, %z {ste = "tanh"} : tensor<4x8xf32>, tensor<f32>, tensor<i32>
  // CHECK: %[[B:.+]] = rlx.fake_quantize %[[X]], %[[S]], %[[Z]] {ste = "hard_tanh"} : tensor<4x8xf32>, tensor<f32>, tensor<i32>
  %b = rlx.fake_quantize %x, %s, %z {ste = "hard_tanh"} : tensor<4x8xf32>, tensor<f32>, tensor<i32>
  // CHECK: %[[C:.+]] = rlx.fake_quantize %[[X]], %[[S]], %[[Z]] {bits = 2 : i64} : tensor<4x8xf32>, tensor<f32>, tensor<i32>
  %c = rlx.fake_quantize %x, %s, %z {bits = 2 : i64} : tensor<4x8xf32>, tensor<f32>, tensor<i32>
  // CHECK: %[[D:.+]] = rlx.fake_quantize %[[X]], %[[S]], %[[Z]] {bits = 16 : i64} : tensor<4x8xf32>, tensor<f32>, tensor<i32>
  %d = rlx.fake_quantize %x, %s, %z {bits = 16 : i64} : tensor<4x8xf32>, tensor<f32>, tensor<i32>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]]
  return %a, %b, %c, %d : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// Per channel: 1-D scale and zero point of the axis dim's size; negative
// axes; a dynamic axis dim; the scale has the input's float type.
// CHECK-LABEL: func.func @fake_quantize_per_channel
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<4x8xf32>, %[[S4:[^:]+]]: tensor<4xf32>, %[[Z4:[^:]+]]: tensor<4xi32>, %[[S8:[^:]+]]: tensor<8xf32>, %[[Z8:[^:]+]]: tensor<8xi32>, %[[D:[^:]+]]: tensor<?x8xbf16>, %[[SD:[^:]+]]: tensor<3xbf16>, %[[ZD:[^:]+]]: tensor<3xi32>, %[[H:[^:]+]]: tensor<2x8xf16>, %[[SH:[^:]+]]: tensor<2xf16>, %[[ZH:[^:]+]]: tensor<2xi32>)
func.func @fake_quantize_per_channel(%x: tensor<4x8xf32>, %s4: tensor<4xf32>, %z4: tensor<4xi32>,
                                     %s8: tensor<8xf32>, %z8: tensor<8xi32>,
                                     %d: tensor<?x8xbf16>, %sd: tensor<3xbf16>, %zd: tensor<3xi32>,
                                     %h: tensor<2x8xf16>, %sh: tensor<2xf16>, %zh: tensor<2xi32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<?x8xbf16>, tensor<2x8xf16>) {
  // CHECK: %[[A:.+]] = rlx.fake_quantize %[[X]], %[[S4]], %[[Z4]] {axis = 0 : i64} : tensor<4x8xf32>, tensor<4xf32>, tensor<4xi32>
  %a = rlx.fake_quantize %x, %s4, %z4 {axis = 0 : i64} : tensor<4x8xf32>, tensor<4xf32>, tensor<4xi32>
  // CHECK: %[[B:.+]] = rlx.fake_quantize %[[X]], %[[S8]], %[[Z8]] {axis = -1 : i64, bits = 6 : i64, ste = "clipped_identity"} : tensor<4x8xf32>, tensor<8xf32>, tensor<8xi32>
  %b = rlx.fake_quantize %x, %s8, %z8 {axis = -1 : i64, bits = 6 : i64, ste = "clipped_identity"} : tensor<4x8xf32>, tensor<8xf32>, tensor<8xi32>
  // CHECK: %[[C:.+]] = rlx.fake_quantize %[[D]], %[[SD]], %[[ZD]] {axis = 0 : i64} : tensor<?x8xbf16>, tensor<3xbf16>, tensor<3xi32>
  %c = rlx.fake_quantize %d, %sd, %zd {axis = 0 : i64} : tensor<?x8xbf16>, tensor<3xbf16>, tensor<3xi32>
  // CHECK: %[[E:.+]] = rlx.fake_quantize %[[H]], %[[SH]], %[[ZH]] {axis = -2 : i64} : tensor<2x8xf16>, tensor<2xf16>, tensor<2xi32>
  %e = rlx.fake_quantize %h, %sh, %zh {axis = -2 : i64} : tensor<2x8xf16>, tensor<2xf16>, tensor<2xi32>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[E]] : tensor<4x8xf32>, tensor<4x8xf32>, tensor<?x8xbf16>, tensor<2x8xf16>
  return %a, %b, %c, %e : tensor<4x8xf32>, tensor<4x8xf32>, tensor<?x8xbf16>, tensor<2x8xf16>
}

//===----------------------------------------------------------------------===//
// rlx.dequant_matmul and #rlx.quant
//===----------------------------------------------------------------------===//

// The int8 block schemes: i8 weight [N, K], scale (and zero point for the
// asymmetric scheme) f32 [N, K / block]. y is [..., N].
// CHECK-LABEL: func.func @dequant_matmul_int8
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<4x64xf32>, %[[W:[^:]+]]: tensor<16x64xi8>, %[[S:[^:]+]]: tensor<16x2xf32>, %[[Z:[^:]+]]: tensor<16x2xf32>, %[[S64:[^:]+]]: tensor<16x1xf32>)
func.func @dequant_matmul_int8(%x: tensor<4x64xf32>, %w: tensor<16x64xi8>, %s: tensor<16x2xf32>, %z: tensor<16x2xf32>,
                               %s64: tensor<16x1xf32>)
    -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
  // CHECK: %[[A:.+]] = rlx.dequant_matmul #rlx.quant<int8_block, 32> %[[X]], %[[W]], %[[S]] : tensor<4x64xf32>, tensor<16x64xi8>, tensor<16x2xf32>
  %a = rlx.dequant_matmul #rlx.quant<int8_block, 32> %x, %w, %s : tensor<4x64xf32>, tensor<16x64xi8>, tensor<16x2xf32>
  // CHECK: %[[B:.+]] = rlx.dequant_matmul #rlx.quant<int8_block_asym, 32> %[[X]], %[[W]], %[[S]], %[[Z]] : tensor<4x64xf32>, tensor<16x64xi8>, tensor<16x2xf32>, tensor<16x2xf32>
  %b = rlx.dequant_matmul #rlx.quant<int8_block_asym, 32> %x, %w, %s, %z : tensor<4x64xf32>, tensor<16x64xi8>, tensor<16x2xf32>, tensor<16x2xf32>
  // One block spanning the whole row.
  // CHECK: %[[C:.+]] = rlx.dequant_matmul #rlx.quant<int8_block, 64> %[[X]], %[[W]], %[[S64]] : tensor<4x64xf32>, tensor<16x64xi8>, tensor<16x1xf32>
  %c = rlx.dequant_matmul #rlx.quant<int8_block, 64> %x, %w, %s64 : tensor<4x64xf32>, tensor<16x64xi8>, tensor<16x1xf32>
  // CHECK: return %[[A]], %[[B]], %[[C]] : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
  return %a, %b, %c : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
}

// int4_block: two weights per byte, ui8 [N, K / 2], an even block.
// CHECK-LABEL: func.func @dequant_matmul_int4
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<4x64xf32>, %[[W:[^:]+]]: tensor<16x32xui8>, %[[S:[^:]+]]: tensor<16x2xf32>, %[[S2:[^:]+]]: tensor<16x32xf32>)
func.func @dequant_matmul_int4(%x: tensor<4x64xf32>, %w: tensor<16x32xui8>, %s: tensor<16x2xf32>, %s2: tensor<16x32xf32>)
    -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  // CHECK: %[[A:.+]] = rlx.dequant_matmul #rlx.quant<int4_block, 32> %[[X]], %[[W]], %[[S]] : tensor<4x64xf32>, tensor<16x32xui8>, tensor<16x2xf32>
  %a = rlx.dequant_matmul #rlx.quant<int4_block, 32> %x, %w, %s : tensor<4x64xf32>, tensor<16x32xui8>, tensor<16x2xf32>
  // CHECK: %[[B:.+]] = rlx.dequant_matmul #rlx.quant<int4_block, 2> %[[X]], %[[W]], %[[S2]] : tensor<4x64xf32>, tensor<16x32xui8>, tensor<16x32xf32>
  %b = rlx.dequant_matmul #rlx.quant<int4_block, 2> %x, %w, %s2 : tensor<4x64xf32>, tensor<16x32xui8>, tensor<16x32xf32>
  // CHECK: return %[[A]], %[[B]] : tensor<4x16xf32>, tensor<4x16xf32>
  return %a, %b : tensor<4x16xf32>, tensor<4x16xf32>
}

// fp8: raw bytes ui8 [N, K], no block, one scale per row [N].
// CHECK-LABEL: func.func @dequant_matmul_fp8
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<4x48xf32>, %[[W:[^:]+]]: tensor<16x48xui8>, %[[S:[^:]+]]: tensor<16xf32>)
func.func @dequant_matmul_fp8(%x: tensor<4x48xf32>, %w: tensor<16x48xui8>, %s: tensor<16xf32>)
    -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  // CHECK: %[[A:.+]] = rlx.dequant_matmul #rlx.quant<fp8_e4m3> %[[X]], %[[W]], %[[S]] : tensor<4x48xf32>, tensor<16x48xui8>, tensor<16xf32>
  %a = rlx.dequant_matmul #rlx.quant<fp8_e4m3> %x, %w, %s : tensor<4x48xf32>, tensor<16x48xui8>, tensor<16xf32>
  // CHECK: %[[B:.+]] = rlx.dequant_matmul #rlx.quant<fp8_e5m2> %[[X]], %[[W]], %[[S]] : tensor<4x48xf32>, tensor<16x48xui8>, tensor<16xf32>
  %b = rlx.dequant_matmul #rlx.quant<fp8_e5m2> %x, %w, %s : tensor<4x48xf32>, tensor<16x48xui8>, tensor<16xf32>
  // CHECK: return %[[A]], %[[B]] : tensor<4x16xf32>, tensor<4x16xf32>
  return %a, %b : tensor<4x16xf32>, tensor<4x16xf32>
}

// The GGUF K-quants: ui8 [N, K / 256 * bytes per block] with 144, 176,
// 210 and 292 bytes per 256-weight block, and no scale operands.
// CHECK-LABEL: func.func @dequant_matmul_gguf
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<4x256xf32>, %[[Q4:[^:]+]]: tensor<16x144xui8>, %[[Q5:[^:]+]]: tensor<16x176xui8>, %[[Q6:[^:]+]]: tensor<16x210xui8>, %[[Q8:[^:]+]]: tensor<16x292xui8>)
func.func @dequant_matmul_gguf(%x: tensor<4x256xf32>, %q4: tensor<16x144xui8>, %q5: tensor<16x176xui8>,
                               %q6: tensor<16x210xui8>, %q8: tensor<16x292xui8>)
    -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
  // CHECK: %[[A:.+]] = rlx.dequant_matmul #rlx.quant<gguf_q4_k> %[[X]], %[[Q4]] : tensor<4x256xf32>, tensor<16x144xui8>{{$}}
  %a = rlx.dequant_matmul #rlx.quant<gguf_q4_k> %x, %q4 : tensor<4x256xf32>, tensor<16x144xui8>
  // CHECK: %[[B:.+]] = rlx.dequant_matmul #rlx.quant<gguf_q5_k> %[[X]], %[[Q5]] : tensor<4x256xf32>, tensor<16x176xui8>{{$}}
  %b = rlx.dequant_matmul #rlx.quant<gguf_q5_k> %x, %q5 : tensor<4x256xf32>, tensor<16x176xui8>
  // CHECK: %[[C:.+]] = rlx.dequant_matmul #rlx.quant<gguf_q6_k> %[[X]], %[[Q6]] : tensor<4x256xf32>, tensor<16x210xui8>{{$}}
  %c = rlx.dequant_matmul #rlx.quant<gguf_q6_k> %x, %q6 : tensor<4x256xf32>, tensor<16x210xui8>
  // CHECK: %[[D:.+]] = rlx.dequant_matmul #rlx.quant<gguf_q8_k> %[[X]], %[[Q8]] : tensor<4x256xf32>, tensor<16x292xui8>{{$}}
  %d = rlx.dequant_matmul #rlx.quant<gguf_q8_k> %x, %q8 : tensor<4x256xf32>, tensor<16x292xui8>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]] : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
  return %a, %b, %c, %d : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
}

// A GGUF block size may be spelled out as 256 (the only one allowed); two
// super-blocks per row double the packed bytes.
// CHECK-LABEL: func.func @dequant_matmul_gguf_block_size
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<2x512xf32>, %[[W:[^:]+]]: tensor<8x288xui8>, %[[W8:[^:]+]]: tensor<8x584xui8>)
func.func @dequant_matmul_gguf_block_size(%x: tensor<2x512xf32>, %w: tensor<8x288xui8>, %w8: tensor<8x584xui8>)
    -> (tensor<2x8xf32>, tensor<2x8xf32>) {
  // CHECK: %[[A:.+]] = rlx.dequant_matmul #rlx.quant<gguf_q4_k, 256> %[[X]], %[[W]] : tensor<2x512xf32>, tensor<8x288xui8>
  %a = rlx.dequant_matmul #rlx.quant<gguf_q4_k, 256> %x, %w : tensor<2x512xf32>, tensor<8x288xui8>
  // CHECK: %[[B:.+]] = rlx.dequant_matmul #rlx.quant<gguf_q8_k> %[[X]], %[[W8]] : tensor<2x512xf32>, tensor<8x584xui8>
  %b = rlx.dequant_matmul #rlx.quant<gguf_q8_k> %x, %w8 : tensor<2x512xf32>, tensor<8x584xui8>
  // CHECK: return %[[A]], %[[B]] : tensor<2x8xf32>, tensor<2x8xf32>
  return %a, %b : tensor<2x8xf32>, tensor<2x8xf32>
}

// Leading dims of x are kept; x may be rank 1 or f16/bf16/f64; dynamic dims.
// CHECK-LABEL: func.func @dequant_matmul_shapes_and_types
// CHECK-SAME:    (%[[X3:[^:]+]]: tensor<2x3x64xbf16>, %[[X1:[^:]+]]: tensor<64xf16>, %[[XD:[^:]+]]: tensor<?x?xf64>, %[[W:[^:]+]]: tensor<16x64xi8>, %[[WD:[^:]+]]: tensor<?x?xi8>, %[[S:[^:]+]]: tensor<16x2xf32>, %[[SD:[^:]+]]: tensor<?x?xf32>)
func.func @dequant_matmul_shapes_and_types(%x3: tensor<2x3x64xbf16>, %x1: tensor<64xf16>, %xd: tensor<?x?xf64>,
                                           %w: tensor<16x64xi8>, %wd: tensor<?x?xi8>,
                                           %s: tensor<16x2xf32>, %sd: tensor<?x?xf32>)
    -> (tensor<2x3x16xbf16>, tensor<16xf16>, tensor<?x?xf64>, tensor<?x16xf64>) {
  // CHECK: %[[A:.+]] = rlx.dequant_matmul #rlx.quant<int8_block, 32> %[[X3]], %[[W]], %[[S]] : tensor<2x3x64xbf16>, tensor<16x64xi8>, tensor<16x2xf32>
  %a = rlx.dequant_matmul #rlx.quant<int8_block, 32> %x3, %w, %s : tensor<2x3x64xbf16>, tensor<16x64xi8>, tensor<16x2xf32>
  // CHECK: %[[B:.+]] = rlx.dequant_matmul #rlx.quant<int8_block, 32> %[[X1]], %[[W]], %[[S]] : tensor<64xf16>, tensor<16x64xi8>, tensor<16x2xf32>
  %b = rlx.dequant_matmul #rlx.quant<int8_block, 32> %x1, %w, %s : tensor<64xf16>, tensor<16x64xi8>, tensor<16x2xf32>
  // CHECK: %[[C:.+]] = rlx.dequant_matmul #rlx.quant<int8_block, 32> %[[XD]], %[[WD]], %[[SD]] : tensor<?x?xf64>, tensor<?x?xi8>, tensor<?x?xf32>
  %c = rlx.dequant_matmul #rlx.quant<int8_block, 32> %xd, %wd, %sd : tensor<?x?xf64>, tensor<?x?xi8>, tensor<?x?xf32>
  // CHECK: %[[D:.+]] = rlx.dequant_matmul #rlx.quant<int8_block_asym, 16> %[[XD]], %[[W]], %[[SD]], %[[SD]] : tensor<?x?xf64>, tensor<16x64xi8>, tensor<?x?xf32>, tensor<?x?xf32>
  %d = rlx.dequant_matmul #rlx.quant<int8_block_asym, 16> %xd, %w, %sd, %sd : tensor<?x?xf64>, tensor<16x64xi8>, tensor<?x?xf32>, tensor<?x?xf32>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]] : tensor<2x3x16xbf16>, tensor<16xf16>, tensor<?x?xf64>, tensor<?x16xf64>
  return %a, %b, %c, %d : tensor<2x3x16xbf16>, tensor<16xf16>, tensor<?x?xf64>, tensor<?x16xf64>
}

// #rlx.quant as a free-standing attribute, in every scheme.
// CHECK-LABEL: func.func @quant_attribute
// CHECK-SAME:    rlx.schemes = [#rlx.quant<int8_block, 32>, #rlx.quant<int8_block_asym, 64>, #rlx.quant<int4_block, 2>, #rlx.quant<fp8_e4m3>, #rlx.quant<fp8_e5m2>, #rlx.quant<gguf_q4_k>, #rlx.quant<gguf_q5_k>, #rlx.quant<gguf_q6_k>, #rlx.quant<gguf_q8_k>, #rlx.quant<gguf_q6_k, 256>]
func.func @quant_attribute() attributes {rlx.schemes = [
    #rlx.quant<int8_block, 32>, #rlx.quant<int8_block_asym, 64>, #rlx.quant<int4_block, 2>,
    #rlx.quant<fp8_e4m3>, #rlx.quant<fp8_e5m2>, #rlx.quant<gguf_q4_k>, #rlx.quant<gguf_q5_k>,
    #rlx.quant<gguf_q6_k>, #rlx.quant<gguf_q8_k>, #rlx.quant<gguf_q6_k, 256>]} {
  return
}

// CHECK-LABEL: func.func @int8_matmul
// CHECK: rlx.int8_matmul %{{.+}}, %{{.+}} : tensor<4x8xi8>, tensor<8x2xi8>
// CHECK: rlx.int8_matmul %{{.+}}, %{{.+}} transpose_b true : tensor<3x4x8xi8>, tensor<2x8xi8>
func.func @int8_matmul(%a: tensor<4x8xi8>, %b: tensor<8x2xi8>, %c: tensor<3x4x8xi8>, %d: tensor<2x8xi8>) -> (tensor<4x2xi32>, tensor<3x4x2xi32>) {
  %0 = rlx.int8_matmul %a, %b : tensor<4x8xi8>, tensor<8x2xi8>
  %1 = rlx.int8_matmul %c, %d transpose_b true : tensor<3x4x8xi8>, tensor<2x8xi8>
  return %0, %1 : tensor<4x2xi32>, tensor<3x4x2xi32>
}
