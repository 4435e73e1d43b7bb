// RUN: rlx-opt %s --rlx-quant-insert="record=%S/Inputs/quant-record.json" | FileCheck %s
// RUN: not rlx-opt %s --rlx-quant-insert="record=%S/Inputs/quant-record.json method=percentile" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PCT

// The activation of matmul0 is affine over [-1, 3]: scale 4/255, zero point
// round(-128 + 255/4) = -64. Its weight is symmetric per column (axis 1):
// 0.5/127 and 2.54/127 = 0.02. matmul1's activation range [0.5, 2.55]
// widens to [0, 2.55] so that 0 is exact: scale 0.01, zero point -128. Its
// weight is not in the record and stays in float.
// CHECK-LABEL: func.func @mlp
// CHECK: %[[QX:.+]] = rlx.quantize %arg0 {scales = array<f32: 0.0156862754>, zero_points = array<i64: -64>} : tensor<4x8xf32>
// CHECK: %[[DX:.+]] = rlx.dequantize %[[QX]] {scales = array<f32: 0.0156862754>, zero_points = array<i64: -64>} : tensor<4x8xi8> -> tensor<4x8xf32>
// CHECK: %[[QW:.+]] = rlx.quantize %[[W:.+]] {axis = 1 : i64, scales = array<f32: 0.00393700786, 2.000000e-02>, zero_points = array<i64: 0, 0>} : tensor<8x2xf32>
// CHECK: %[[DW:.+]] = rlx.dequantize %[[QW]]
// CHECK: %[[H:.+]] = rlx.matmul %[[DX]], %[[DW]]
// CHECK: %[[QH:.+]] = rlx.quantize %[[H]] {scales = array<f32: 0.00999999977>, zero_points = array<i64: -128>}
// CHECK: %[[DH:.+]] = rlx.dequantize %[[QH]]
// CHECK: rlx.matmul %[[DH]], %[[V:[^ ]+]] transpose_b true :
// CHECK-NOT: rlx.quantize
func.func @mlp(%x: tensor<4x8xf32>) -> tensor<4x3xf32> {
  %w = rlx.param "w" : tensor<8x2xf32>
  %v = rlx.param "v" : tensor<3x2xf32>
  %h = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x2xf32>
  %y = rlx.matmul %h, %v transpose_b true : tensor<4x2xf32>, tensor<3x2xf32>
  return %y : tensor<4x3xf32>
}

// With method=percentile, the taps without a percentile range are errors.
// PCT: error: calibration record has no 'percentile' range for tap "mlp/matmul0/rhs"
// PCT: error: calibration record has no 'percentile' range for tap "mlp/matmul1/lhs"
