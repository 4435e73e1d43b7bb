// RUN: rlx-opt %s --rlx-expose-quant-taps | FileCheck %s

// Every tap of the public function becomes a result, in tap order; the
// private helper is left as it is.
// CHECK-LABEL: func.func @main
// CHECK-SAME: -> (tensor<4x2xf32>, tensor<4x8xf32>, tensor<8x2xf32>, tensor<1x3x6x6xf32>, tensor<2x3x3x3xf32>, tensor<2x4x4xf32>, tensor<2x4x4xf32>)
// CHECK-SAME: attributes {rlx.quant_tap_axes = array<i64: -1, 1, -1, 0, -1, -1>, rlx.quant_taps = ["main/matmul0/lhs", "main/matmul0/rhs", "main/conv0/input", "main/conv0/weight", "main/matmul1/lhs", "main/matmul1/rhs"]}
// CHECK: return %{{.+}}, %arg0, %{{.+}}, %arg1, %{{.+}}, %[[CR:.+]], %[[CR]] :
// CHECK-LABEL: func.func private @helper
// CHECK-SAME: -> tensor<4x4xf32> {
func.func @main(%x: tensor<4x8xf32>, %img: tensor<1x3x6x6xf32>) -> tensor<4x2xf32> {
  %w = rlx.param "w" : tensor<8x2xf32>
  %k = rlx.param "k" : tensor<2x3x3x3xf32>
  %y = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x2xf32>
  %c = rlx.conv %img, %k : tensor<1x3x6x6xf32>, tensor<2x3x3x3xf32>
  %cr = rlx.reshape %c : tensor<1x2x4x4xf32> -> tensor<2x4x4xf32>
  %s = rlx.matmul %cr, %cr transpose_b true : tensor<2x4x4xf32>, tensor<2x4x4xf32>
  return %y : tensor<4x2xf32>
}

func.func private @helper(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %y = rlx.matmul %a, %a : tensor<4x4xf32>, tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
