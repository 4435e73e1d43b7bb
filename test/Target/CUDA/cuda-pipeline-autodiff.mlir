// REQUIRES: cuda-toolkit
// RUN: rlx-opt %s --rlx-cuda-pipeline="chip=sm_90 format=isa" | FileCheck %s

// rlx.grad is expanded first, as in the CPU pipeline: the gradient program
// compiles to kernels (it was an illegal op before).
// CHECK-LABEL: llvm.func @loss_grad(
// CHECK:         gpu.launch_func
// CHECK-NOT:     rlx.grad
// CHECK:         gpu.binary
func.func @loss(%x: tensor<64x128xf32>) -> tensor<f32> {
  %t = rlx.tanh %x : tensor<64x128xf32>
  %s = rlx.reduce sum %t axes = [0, 1] : tensor<64x128xf32>
  return %s : tensor<f32>
}

func.func @loss_grad(%x: tensor<64x128xf32>) -> (tensor<f32>, tensor<64x128xf32>) {
  %l, %g = rlx.grad @loss(%x) wrt [0] : (tensor<64x128xf32>) -> (tensor<f32>, tensor<64x128xf32>)
  return %l, %g : tensor<f32>, tensor<64x128xf32>
}
