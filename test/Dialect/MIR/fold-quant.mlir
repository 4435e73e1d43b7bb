// RUN: rlx-opt %s -canonicalize -split-input-file | FileCheck %s

// quantize of a constant folds as the lowering computes it: x / scale in
// f32, rounded half to even (0.5 -> 0, 1.5 -> 2, 2.5 -> 2, -2.5 -> -2),
// plus the zero point, clamped to [-128, 127].
// CHECK-LABEL: func.func @quantize_per_tensor
// CHECK:         %[[Q:.+]] = rlx.constant dense<[3, 5, 5, 1, 127, -128, 3]> : tensor<7xi8>
// CHECK-NOT:     rlx.quantize
// CHECK:         return %[[Q]]
func.func @quantize_per_tensor() -> tensor<7xi8> {
  %x = rlx.constant dense<[0.25, 0.75, 1.25, -1.25, 1000.0, -1000.0, 0.0]> : tensor<7xf32>
  %q = rlx.quantize %x {scales = array<f32: 0.5>, zero_points = array<i64: 3>} : tensor<7xf32>
  return %q : tensor<7xi8>
}

// -----

// Per channel (axis 1 of [2, 3], so the channel is the column) and f64.
// CHECK-LABEL: func.func @quantize_per_channel_f64
// CHECK:         %[[Q:.+]] = rlx.constant dense<{{\[}}[1, 4, -2], [-1, 127, 0]]> : tensor<2x3xi8>
// CHECK-NOT:     rlx.quantize
// CHECK:         return %[[Q]]
func.func @quantize_per_channel_f64() -> tensor<2x3xi8> {
  %x = rlx.constant dense<[[1.0, 1.0, -1.0], [-1.0, 100.0, 0.0]]> : tensor<2x3xf64>
  %q = rlx.quantize %x {scales = array<f32: 1.0, 0.25, 0.5>, zero_points = array<i64: 0, 0, 0>, axis = 1 : i64} : tensor<2x3xf64>
  return %q : tensor<2x3xi8>
}

// -----

// A NaN has no defined i8 (fptosi of NaN): the quantize stays; so does the
// quantize of a value that is not a constant.
// CHECK-LABEL: func.func @quantize_kept
// CHECK:         rlx.quantize
// CHECK:         rlx.quantize
func.func @quantize_kept(%x: tensor<2xf32>) -> (tensor<2xi8>, tensor<2xi8>) {
  %c = rlx.constant dense<[1.0, 0x7FC00000]> : tensor<2xf32>
  %q = rlx.quantize %c {scales = array<f32: 1.0>, zero_points = array<i64: 0>} : tensor<2xf32>
  %r = rlx.quantize %x {scales = array<f32: 1.0>, zero_points = array<i64: 0>} : tensor<2xf32>
  return %q, %r : tensor<2xi8>, tensor<2xi8>
}

// -----

// Integer sums of constants fold, with and without keepdim, over several
// axes, and wrap at the element width (i8: 100 + 100 = -56).
// CHECK-LABEL: func.func @reduce_sum_constants
// CHECK-DAG:     %[[C:.+]] = rlx.constant dense<{{\[}}[5, 7, 9]]> : tensor<1x3xi32>
// CHECK-DAG:     %[[R:.+]] = rlx.constant dense<[6, 15]> : tensor<2xi32>
// CHECK-DAG:     %[[A:.+]] = rlx.constant dense<21> : tensor<i32>
// CHECK-DAG:     %[[W:.+]] = rlx.constant dense<-56> : tensor<1xi8>
// CHECK-NOT:     rlx.reduce
// CHECK:         return %[[C]], %[[R]], %[[A]], %[[W]]
func.func @reduce_sum_constants() -> (tensor<1x3xi32>, tensor<2xi32>, tensor<i32>, tensor<1xi8>) {
  %x = rlx.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %c = rlx.reduce sum %x axes = [0] keepdim true : tensor<2x3xi32>
  %r = rlx.reduce sum %x axes = [-1] : tensor<2x3xi32>
  %a = rlx.reduce sum %x axes = [0, 1] : tensor<2x3xi32>
  %y = rlx.constant dense<100> : tensor<2xi8>
  %w = rlx.reduce sum %y axes = [0] keepdim true : tensor<2xi8>
  return %c, %r, %a, %w : tensor<1x3xi32>, tensor<2xi32>, tensor<i32>, tensor<1xi8>
}

// -----

// Float sums (whose rounding depends on the lowering's order) and other
// kinds stay.
// CHECK-LABEL: func.func @reduce_kept
// CHECK:         rlx.reduce sum
// CHECK:         rlx.reduce max
func.func @reduce_kept() -> (tensor<f32>, tensor<i32>) {
  %x = rlx.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %s = rlx.reduce sum %x axes = [0] : tensor<2xf32>
  %y = rlx.constant dense<[1, 2]> : tensor<2xi32>
  %m = rlx.reduce max %y axes = [0] : tensor<2xi32>
  return %s, %m : tensor<f32>, tensor<i32>
}

// -----

// rlx-quant-propagate's zero-point term of a constant weight, za *
// colsum(qw) (cast to i32, sum over K, times the scalar za), and the
// weight's quantization fold to one constant: nothing is left to compute
// per call but the int8 product and the subtraction.
// CHECK-LABEL: func.func @weight_terms
// CHECK-SAME:    (%[[QX:.+]]: tensor<4x3xi8>)
// CHECK-DAG:     %[[QW:.+]] = rlx.constant dense<{{\[}}[2, -1], [4, 127], [-6, 0]]> : tensor<3x2xi8>
// CHECK-DAG:     %[[T:.+]] = rlx.constant dense<{{\[}}[0, -378]]> : tensor<1x2xi32>
// CHECK:         %[[ACC:.+]] = rlx.int8_matmul %[[QX]], %[[QW]]
// CHECK:         %[[Y:.+]] = rlx.sub %[[ACC]], %[[T]]
// CHECK-NOT:     rlx.quantize
// CHECK-NOT:     rlx.reduce
// CHECK:         return %[[Y]]
func.func @weight_terms(%qx: tensor<4x3xi8>) -> tensor<4x2xi32> {
  %w = rlx.constant dense<[[0.5, -0.125], [1.0, 100.0], [-1.5, 0.0]]> : tensor<3x2xf32>
  %qw = rlx.quantize %w {scales = array<f32: 0.25, 0.125>, zero_points = array<i64: 0, 0>, axis = 1 : i64} : tensor<3x2xf32>
  %acc = rlx.int8_matmul %qx, %qw : tensor<4x3xi8>, tensor<3x2xi8>
  %ww = rlx.cast %qw : tensor<3x2xi8> -> tensor<3x2xi32>
  %cs = rlx.reduce sum %ww axes = [0] keepdim true : tensor<3x2xi32>
  %za = rlx.constant dense<-3> : tensor<i32>
  %t = rlx.mul %cs, %za : tensor<1x2xi32>, tensor<i32>
  %y = rlx.sub %acc, %t : tensor<4x2xi32>, tensor<1x2xi32>
  return %y : tensor<4x2xi32>
}
