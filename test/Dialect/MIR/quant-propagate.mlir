// RUN: rlx-opt %s -split-input-file --rlx-quant-propagate | FileCheck %s

// An affine activation (zero point -3) times a symmetric per-column weight:
// the int8 product, minus -3 times the weight's column sums, scaled by
// 0.5 * [0.25, 0.125] per column.
// CHECK-LABEL: func.func @activation_times_weight
// CHECK-SAME: (%[[QX:.+]]: tensor<4x8xi8>, %[[QW:.+]]: tensor<8x2xi8>)
// CHECK-DAG: %[[S:.+]] = rlx.constant dense<[1.250000e-01, 6.250000e-02]> : tensor<2xf32>
// CHECK-DAG: %[[ZA:.+]] = rlx.constant dense<-3> : tensor<i32>
// CHECK-DAG: %[[ACC:.+]] = rlx.int8_matmul %[[QX]], %[[QW]] : tensor<4x8xi8>, tensor<8x2xi8>
// CHECK-DAG: %[[WW:.+]] = rlx.cast %[[QW]] : tensor<8x2xi8> -> tensor<8x2xi32>
// CHECK: %[[CS:.+]] = rlx.reduce sum %[[WW]] axes = [0] keepdim true : tensor<8x2xi32>
// CHECK: %[[T:.+]] = rlx.mul %[[CS]], %[[ZA]] : tensor<1x2xi32>, tensor<i32>
// CHECK: %[[C:.+]] = rlx.sub %[[ACC]], %[[T]] : tensor<4x2xi32>, tensor<1x2xi32>
// CHECK: %[[F:.+]] = rlx.cast %[[C]] : tensor<4x2xi32> -> tensor<4x2xf32>
// CHECK: %[[Y:.+]] = rlx.mul %[[F]], %[[S]] : tensor<4x2xf32>, tensor<2xf32>
// CHECK: return %[[Y]]
func.func @activation_times_weight(%qx: tensor<4x8xi8>, %qw: tensor<8x2xi8>) -> tensor<4x2xf32> {
  %x = rlx.dequantize %qx {scales = array<f32: 0.5>, zero_points = array<i64: -3>} : tensor<4x8xi8> -> tensor<4x8xf32>
  %w = rlx.dequantize %qw {scales = array<f32: 0.25, 0.125>, zero_points = array<i64: 0, 0>, axis = 1 : i64} : tensor<8x2xi8> -> tensor<8x2xf32>
  %y = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x2xf32>
  return %y : tensor<4x2xf32>
}

// -----

// transpose_b: the weight is [N, K], its per-channel axis is 0 and its
// sums over K (axis 1) are moved to [1, N] by a reshape. Both zero points
// nonzero: the row sums of qa and K * za * zb enter too.
// CHECK-LABEL: func.func @transposed_both_zero_points
// CHECK-DAG: %[[S:.+]] = rlx.constant dense<2.000000e+00> : tensor<f32>
// CHECK-DAG: %[[K:.+]] = rlx.constant dense<48> : tensor<i32>
// CHECK-DAG: %[[ZB:.+]] = rlx.constant dense<3> : tensor<i32>
// CHECK-DAG: %[[ZA:.+]] = rlx.constant dense<2> : tensor<i32>
// CHECK: %[[ACC:.+]] = rlx.int8_matmul %arg0, %arg1 transpose_b true : tensor<2x3x8xi8>, tensor<5x8xi8>
// CHECK: %[[WB:.+]] = rlx.cast %arg1 : tensor<5x8xi8> -> tensor<5x8xi32>
// CHECK: %[[CS:.+]] = rlx.reduce sum %[[WB]] axes = [1] keepdim true : tensor<5x8xi32>
// CHECK: %[[CSR:.+]] = rlx.reshape %[[CS]] : tensor<5x1xi32> -> tensor<1x5xi32>
// CHECK: %[[T1:.+]] = rlx.mul %[[CSR]], %[[ZA]]
// CHECK: %[[A1:.+]] = rlx.sub %[[ACC]], %[[T1]]
// CHECK: %[[AB:.+]] = rlx.cast %arg0 : tensor<2x3x8xi8> -> tensor<2x3x8xi32>
// CHECK: %[[RS:.+]] = rlx.reduce sum %[[AB]] axes = [2] keepdim true : tensor<2x3x8xi32>
// CHECK: %[[T2:.+]] = rlx.mul %[[RS]], %[[ZB]]
// CHECK: %[[A2:.+]] = rlx.sub %[[A1]], %[[T2]]
// CHECK: %[[A3:.+]] = rlx.add %[[A2]], %[[K]]
// CHECK: %[[F:.+]] = rlx.cast %[[A3]] : tensor<2x3x5xi32> -> tensor<2x3x5xf32>
// CHECK: rlx.mul %[[F]], %[[S]] : tensor<2x3x5xf32>, tensor<f32>
func.func @transposed_both_zero_points(%qa: tensor<2x3x8xi8>, %qb: tensor<5x8xi8>) -> tensor<2x3x5xf32> {
  %a = rlx.dequantize %qa {scales = array<f32: 4.0>, zero_points = array<i64: 2>} : tensor<2x3x8xi8> -> tensor<2x3x8xf32>
  %b = rlx.dequantize %qb {scales = array<f32: 0.5>, zero_points = array<i64: 3>} : tensor<5x8xi8> -> tensor<5x8xf32>
  %y = rlx.matmul %a, %b transpose_b true : tensor<2x3x8xf32>, tensor<5x8xf32>
  return %y : tensor<2x3x5xf32>
}

// -----

// A per-channel weight along K (not an output dim) cannot be factored out,
// and a float operand has no int8 form: both stay float matmuls.
// CHECK-LABEL: func.func @not_rewritten
// CHECK-NOT: rlx.int8_matmul
// CHECK: rlx.matmul
// CHECK: rlx.matmul
func.func @not_rewritten(%qx: tensor<4x8xi8>, %qw: tensor<8x2xi8>, %f: tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>) {
  %x = rlx.dequantize %qx {scales = array<f32: 0.5>, zero_points = array<i64: 0>} : tensor<4x8xi8> -> tensor<4x8xf32>
  %w = rlx.dequantize %qw {scales = array<f32: 0.25, 0.125, 0.25, 0.125, 0.25, 0.125, 0.25, 0.125>, zero_points = array<i64: 0, 0, 0, 0, 0, 0, 0, 0>, axis = 0 : i64} : tensor<8x2xi8> -> tensor<8x2xf32>
  %y = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x2xf32>
  %z = rlx.matmul %f, %w : tensor<4x8xf32>, tensor<8x2xf32>
  return %y, %z : tensor<4x2xf32>, tensor<4x2xf32>
}

// -----

// quantize(dequantize(q)) with the same parameters is q; a reshape of a
// per-tensor dequantize moves the int8 values.
// CHECK-LABEL: func.func @fold_and_move
// CHECK: %[[R:.+]] = rlx.reshape %arg0 : tensor<4x8xi8> -> tensor<32xi8>
// CHECK: %[[D:.+]] = rlx.dequantize %[[R]] {scales = array<f32: 5.000000e-01>, zero_points = array<i64: 1>} : tensor<32xi8> -> tensor<32xf32>
// CHECK: return %arg0, %[[D]]
func.func @fold_and_move(%q: tensor<4x8xi8>) -> (tensor<4x8xi8>, tensor<32xf32>) {
  %d = rlx.dequantize %q {scales = array<f32: 0.5>, zero_points = array<i64: 1>} : tensor<4x8xi8> -> tensor<4x8xf32>
  %q2 = rlx.quantize %d {scales = array<f32: 0.5>, zero_points = array<i64: 1>} : tensor<4x8xf32>
  %r = rlx.reshape %d : tensor<4x8xf32> -> tensor<32xf32>
  return %q2, %r : tensor<4x8xi8>, tensor<32xf32>
}

// -----

// A dynamic batch: the int8 product takes it; the per-column scales need
// only N.
// CHECK-LABEL: func.func @dynamic_rows
// CHECK: rlx.int8_matmul %arg0, %arg1 : tensor<?x8xi8>, tensor<8x2xi8>
// CHECK-NOT: rlx.matmul
func.func @dynamic_rows(%qx: tensor<?x8xi8>, %qw: tensor<8x2xi8>) -> tensor<?x2xf32> {
  %x = rlx.dequantize %qx {scales = array<f32: 0.5>, zero_points = array<i64: -3>} : tensor<?x8xi8> -> tensor<?x8xf32>
  %w = rlx.dequantize %qw {scales = array<f32: 0.25, 0.125>, zero_points = array<i64: 0, 0>, axis = 1 : i64} : tensor<8x2xi8> -> tensor<8x2xf32>
  %y = rlx.matmul %x, %w : tensor<?x8xf32>, tensor<8x2xf32>
  return %y : tensor<?x2xf32>
}
