// RUN: rlx-opt %s --rlx-insert-fake-quant | FileCheck %s
// RUN: rlx-opt %s --rlx-insert-fake-quant="bits=4 ste=clipped_identity" | FileCheck %s --check-prefix=FOUR

// The activation gets one scale, max|x| / 127 behind stop_gradient; the
// weight one per column (axis 1, reduced over axis 0).
// CHECK-LABEL: func.func @mlp
// CHECK: %[[AX:.+]] = rlx.abs %arg0 : tensor<4x8xf32>
// CHECK: %[[MX:.+]] = rlx.reduce max %[[AX]] axes = [0, 1] : tensor<4x8xf32>
// CHECK: %[[RX:.+]] = rlx.max %[[MX]], %{{.+}} : tensor<f32>
// CHECK: %[[Q:.+]] = rlx.constant dense<1.270000e+02> : tensor<f32>
// CHECK: %[[DX:.+]] = rlx.div %[[RX]], %[[Q]] : tensor<f32>
// CHECK: %[[SX:.+]] = rlx.stop_gradient %[[DX]] : tensor<f32>
// CHECK: %[[ZX:.+]] = rlx.constant dense<0> : tensor<i32>
// CHECK: %[[FX:.+]] = rlx.fake_quantize %arg0, %[[SX]], %[[ZX]] : tensor<4x8xf32>, tensor<f32>, tensor<i32>
// CHECK: %[[AW:.+]] = rlx.abs %[[W:.+]] : tensor<8x2xf32>
// CHECK: rlx.reduce max %[[AW]] axes = [0] : tensor<8x2xf32>
// CHECK: %[[FW:.+]] = rlx.fake_quantize %[[W]], %{{.+}}, %{{.+}} {axis = 1 : i64} : tensor<8x2xf32>, tensor<2xf32>, tensor<2xi32>
// CHECK: rlx.matmul %[[FX]], %[[FW]]

// FOUR-LABEL: func.func @mlp
// FOUR: rlx.constant dense<7.000000e+00> : tensor<f32>
// FOUR: rlx.fake_quantize %arg0, %{{.+}}, %{{.+}} {bits = 4 : i64, ste = "clipped_identity"}
func.func @mlp(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
  %w = rlx.param "w" : tensor<8x2xf32>
  %y = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x2xf32>
  return %y : tensor<4x2xf32>
}
