// RUN: rlx-opt %s --rlx-metal-pipeline | rlx-translate --rlx-to-metal-host | FileCheck %s

// The host description: per function its arguments (results last), its
// temporary buffers, and each launch in order with its grid, threadgroup,
// bindings and the builtins the kernel takes.

// CHECK: "functions": [
// CHECK: "arguments": [
// CHECK-NEXT: {
// CHECK-NEXT: "bytes": 2048,
// CHECK-NEXT: "shape": [
// CHECK-NEXT: 4,
// CHECK-NEXT: 128
// CHECK-NEXT: ],
// CHECK-NEXT: "type": "f32"
// CHECK: "bytes": 512,
// CHECK: "bytes": 2048,
// CHECK: "name": "norm_exp",
// CHECK-NEXT: "steps": [
// CHECK-NEXT: {
// CHECK-NEXT: "buffers": [
// CHECK-NEXT: {
// CHECK-NEXT: "buffer": 0,
// CHECK-NEXT: "index": 0
// CHECK: "buffer": 2,
// CHECK-NEXT: "index": 2
// CHECK: "builtins": [
// CHECK-NEXT: "thread_position_in_threadgroup"
// CHECK-NEXT: ],
// CHECK-NEXT: "grid": [
// CHECK-NEXT: 1,
// CHECK: "kernel": "norm_exp_kernel_norm_exp_kernel",
// CHECK-NEXT: "kind": "launch",
// CHECK-NEXT: "threadgroup": [
// CHECK-NEXT: 128,
// CHECK: "temporaries": []
func.func @norm_exp(%x: tensor<4x128xf32>, %g: tensor<128xf32>) -> tensor<4x128xf32> {
  %n = rlx.rms_norm %x, %g : tensor<4x128xf32>, tensor<128xf32>
  %y = rlx.exp %n : tensor<4x128xf32>
  return %y : tensor<4x128xf32>
}

// Intermediates between kernels are temporaries, numbered after the
// arguments.
// CHECK: "name": "matmul_softmax",
// CHECK: "kernel": "matmul_softmax_kernel_matmul_softmax_kernel",
// CHECK: "temporaries": [
// CHECK-NEXT: {
// CHECK-NEXT: "bytes": 512
func.func @matmul_softmax(%a: tensor<8x32xf32>, %b: tensor<32x16xf32>) -> tensor<16x8xf32> {
  %m = rlx.matmul %a, %b : tensor<8x32xf32>, tensor<32x16xf32>
  %y = rlx.softmax %m axis = 1 : tensor<8x16xf32>
  %z = rlx.transpose %y [1, 0] : tensor<8x16xf32>
  return %z : tensor<16x8xf32>
}
