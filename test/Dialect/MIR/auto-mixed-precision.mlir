// RUN: rlx-opt %s -split-input-file --rlx-auto-mixed-precision | FileCheck %s
// RUN: rlx-opt %s -split-input-file --rlx-auto-mixed-precision="policy=matmul=f16,elementwise=f32" | FileCheck %s --check-prefix=F16
// RUN: rlx-opt %s -split-input-file --rlx-auto-mixed-precision="policy-file=%S/Inputs/amp-policy.json" | FileCheck %s --check-prefix=FILE
// RUN: rlx-opt %s -split-input-file --rlx-auto-mixed-precision="policy=matmul=f16 loss-scale=1024" | FileCheck %s --check-prefix=SCALED

// The default policy: the matmul runs in bf16 and so do the bias and the
// GELU that follow it (the bias, a weight, follows the activation); the
// residual add meets an f32 input and runs in f32; the norm stays f32.
// CHECK-LABEL: func.func @layer
// CHECK-SAME: -> tensor<8x4xf32>
// CHECK-DAG: %[[XB:.+]] = rlx.cast %arg0 : tensor<8x16xf32> -> tensor<8x16xbf16>
// CHECK-DAG: %[[W:.+]] = rlx.param "w"
// CHECK-DAG: %[[WB:.+]] = rlx.cast %[[W]] : tensor<16x4xf32> -> tensor<16x4xbf16>
// CHECK-DAG: %[[B:.+]] = rlx.param "b"
// CHECK-DAG: %[[BB:.+]] = rlx.cast %[[B]] : tensor<4xf32> -> tensor<4xbf16>
// CHECK: %[[Y:.+]] = rlx.matmul %[[XB]], %[[WB]] : tensor<8x16xbf16>, tensor<16x4xbf16>
// CHECK: %[[Z:.+]] = rlx.add %[[Y]], %[[BB]] : tensor<8x4xbf16>, tensor<4xbf16>
// CHECK: %[[A:.+]] = rlx.gelu %[[Z]] : tensor<8x4xbf16>
// CHECK: %[[AF:.+]] = rlx.cast %[[A]] : tensor<8x4xbf16> -> tensor<8x4xf32>
// CHECK: %[[R:.+]] = rlx.add %[[AF]], %arg1 : tensor<8x4xf32>
// CHECK: %[[N:.+]] = rlx.layer_norm %[[R]], %{{.+}}, %{{.+}} : tensor<8x4xf32>, tensor<4xf32>
// CHECK: return %[[N]] : tensor<8x4xf32>

// F16-LABEL: func.func @layer
// F16: rlx.matmul %{{.+}}, %{{.+}} : tensor<8x16xf16>, tensor<16x4xf16>
// F16: %[[YF:.+]] = rlx.cast %{{.+}} : tensor<8x4xf16> -> tensor<8x4xf32>
// F16: rlx.add %[[YF]], %{{.+}} : tensor<8x4xf32>, tensor<4xf32>
// F16: rlx.gelu %{{.+}} : tensor<8x4xf32>

// FILE-LABEL: func.func @layer
// FILE: rlx.matmul %{{.+}}, %{{.+}} : tensor<8x16xf16>, tensor<16x4xf16>
// FILE: rlx.layer_norm %{{.+}}, %{{.+}}, %{{.+}} : tensor<8x4xf16>, tensor<4xf16>
func.func @layer(%x: tensor<8x16xf32>, %res: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %w = rlx.param "w" : tensor<16x4xf32>
  %b = rlx.param "b" : tensor<4xf32>
  %g = rlx.param "g" : tensor<4xf32>
  %beta = rlx.param "beta" : tensor<4xf32>
  %y = rlx.matmul %x, %w : tensor<8x16xf32>, tensor<16x4xf32>
  %z = rlx.add %y, %b : tensor<8x4xf32>, tensor<4xf32>
  %a = rlx.gelu %z : tensor<8x4xf32>
  %r = rlx.add %a, %res : tensor<8x4xf32>
  %n = rlx.layer_norm %r, %g, %beta : tensor<8x4xf32>, tensor<4xf32>
  return %n : tensor<8x4xf32>
}

// -----

// Two matmuls in a row: the value between them stays bf16 (no cast pair),
// the softmax and the reduction compute in f32, one cast of %x serves both
// of its uses.
// CHECK-LABEL: func.func @chain
// CHECK: %[[XB:.+]] = rlx.cast %arg0 : tensor<4x8xf32> -> tensor<4x8xbf16>
// CHECK-NOT: rlx.cast %arg0
// CHECK: %[[H:.+]] = rlx.matmul %[[XB]], %{{.+}} : tensor<4x8xbf16>, tensor<8x8xbf16>
// CHECK-NEXT: %[[T:.+]] = rlx.tanh %[[H]] : tensor<4x8xbf16>
// CHECK-NEXT: %[[O:.+]] = rlx.matmul %[[T]], %[[XB]] transpose_b true : tensor<4x8xbf16>
// CHECK-NEXT: %[[OF:.+]] = rlx.cast %[[O]] : tensor<4x4xbf16> -> tensor<4x4xf32>
// CHECK-NEXT: %[[S:.+]] = rlx.softmax %[[OF]] axis = 1 : tensor<4x4xf32>
// CHECK-NEXT: %[[R:.+]] = rlx.reduce sum %[[S]] axes = [1] : tensor<4x4xf32>
// CHECK: return %[[R]]
func.func @chain(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4xf32> {
  %h = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x8xf32>
  %t = rlx.tanh %h : tensor<4x8xf32>
  %o = rlx.matmul %t, %x transpose_b true : tensor<4x8xf32>, tensor<4x8xf32>
  %s = rlx.softmax %o axis = 1 : tensor<4x4xf32>
  %r = rlx.reduce sum %s axes = [1] : tensor<4x4xf32>
  return %r : tensor<4xf32>
}

// -----

// A cast already in the program that widened exactly folds away; the
// integer operand of the loss is left alone.
// CHECK-LABEL: func.func @loss
// CHECK-NOT: rlx.cast %arg0
// CHECK: %[[L:.+]] = rlx.matmul %arg0, %{{.+}} : tensor<4x8xbf16>, tensor<8x3xbf16>
// CHECK: %[[LF:.+]] = rlx.cast %[[L]] : tensor<4x3xbf16> -> tensor<4x3xf32>
// CHECK: rlx.softmax_cross_entropy %[[LF]], %arg2 : tensor<4x3xf32>, tensor<4xi64>
func.func @loss(%x: tensor<4x8xbf16>, %w: tensor<8x3xf32>, %labels: tensor<4xi64>) -> tensor<f32> {
  %xf = rlx.cast %x : tensor<4x8xbf16> -> tensor<4x8xf32>
  %l = rlx.matmul %xf, %w : tensor<4x8xf32>, tensor<8x3xf32>
  %loss = rlx.softmax_cross_entropy %l, %labels : tensor<4x3xf32>, tensor<4xi64>
  return %loss : tensor<f32>
}

// -----

// The function that rlx.grad differentiates follows the policy too; with
// loss-scale, rlx.grad differentiates a copy returning 1024 times the loss
// and its loss and gradient are multiplied by 1/1024 after.
// SCALED-LABEL: func.func private @loss(
// SCALED: rlx.matmul %{{.+}}, %{{.+}} : tensor<8x4xf16>, tensor<4x4xf16>
// SCALED-LABEL: func.func @step
// SCALED: %[[I:.+]] = rlx.constant dense<9.765625E-4> : tensor<f32>
// SCALED: %[[L:.+]]:2 = rlx.grad @loss_loss_scaled(%arg0, %arg1) wrt [0]
// SCALED: %[[LOSS:.+]] = rlx.mul %[[L]]#0, %[[I]] : tensor<f32>
// SCALED: %[[DW:.+]] = rlx.mul %[[L]]#1, %[[I]] : tensor<4x4xf32>, tensor<f32>
// SCALED: return %[[LOSS]], %[[DW]]
// SCALED-LABEL: func.func private @loss_loss_scaled(
// SCALED: %[[S:.+]] = rlx.constant dense<1.024000e+03> : tensor<f32>
// SCALED: rlx.matmul %{{.+}}, %{{.+}} : tensor<8x4xf16>, tensor<4x4xf16>
// SCALED: %[[M:.+]] = rlx.mul %{{.+}}, %[[S]] : tensor<f32>
// SCALED: return %[[M]]
func.func private @loss(%w: tensor<4x4xf32>, %x: tensor<8x4xf32>) -> tensor<f32> {
  %y = rlx.matmul %x, %w : tensor<8x4xf32>, tensor<4x4xf32>
  %s = rlx.reduce mean %y axes = [0, 1] : tensor<8x4xf32>
  return %s : tensor<f32>
}

func.func @step(%w: tensor<4x4xf32>, %x: tensor<8x4xf32>) -> (tensor<f32>, tensor<4x4xf32>) {
  %l, %dw = rlx.grad @loss(%w, %x) wrt [0]
      : (tensor<4x4xf32>, tensor<8x4xf32>) -> (tensor<f32>, tensor<4x4xf32>)
  return %l, %dw : tensor<f32>, tensor<4x4xf32>
}
