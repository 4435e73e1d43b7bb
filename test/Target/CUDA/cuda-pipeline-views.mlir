// REQUIRES: cuda-toolkit
// RUN: rlx-opt %s --rlx-cuda-pipeline="chip=sm_90 format=isa" | FileCheck %s

// A static reshape is a view: the add after it is the only kernel, and no
// shape buffer is made (a constant buffer lives in host memory, where a
// kernel cannot read it; rlx-gpu-map-linalg rejects one).
// CHECK-LABEL: llvm.func @reshape_add(
// CHECK-COUNT-1: gpu.launch_func
// CHECK-NOT:     gpu.launch_func
// CHECK:         gpu.binary @reshape_add_kernel
// CHECK-NOT:     gpu.binary
func.func @reshape_add(%x: tensor<2x64x256xf32>, %b: tensor<256xf32>) -> tensor<128x256xf32> {
  %r = rlx.reshape %x : tensor<2x64x256xf32> -> tensor<128x256xf32>
  %z = rlx.add %r, %b : tensor<128x256xf32>, tensor<256xf32>
  return %z : tensor<128x256xf32>
}
