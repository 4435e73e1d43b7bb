// REQUIRES: cuda-toolkit
// RUN: rlx-opt %s --rlx-cuda-pipeline="chip=sm_90 format=isa arena=1" | FileCheck %s

// With arena=1 every intermediate of the function lives in one planned
// device allocation: the products (cuBLASLt calls) and the kernels write
// into views of it. The attention's scale, a splat constant that no longer
// fuses into a neighbour here, is inlined into its kernel instead of being
// read from host memory (rlx-gpu-inline-splat-constants).
// CHECK-LABEL: llvm.func @attention_ffn(
// CHECK:         llvm.call @mgpuMemAlloc
// CHECK-NOT:     llvm.call @mgpuMemAlloc
// CHECK:         llvm.call @rlxGpuMatmul
// CHECK:         llvm.call @mgpuMemFree
// CHECK-NOT:     llvm.call @mgpuMemAlloc
// CHECK:         llvm.return
func.func @attention_ffn(%q: tensor<1x2x64x32xf32>, %k: tensor<1x2x64x32xf32>,
                         %v: tensor<1x2x64x32xf32>, %w: tensor<32x32xf32>,
                         %b: tensor<32xf32>) -> tensor<1x2x64x32xf32> {
  %a = rlx.attention %q, %k, %v mask = none
      : tensor<1x2x64x32xf32>, tensor<1x2x64x32xf32>, tensor<1x2x64x32xf32>
  %h = rlx.matmul %a, %w : tensor<1x2x64x32xf32>, tensor<32x32xf32>
  %y = rlx.add %h, %b : tensor<1x2x64x32xf32>, tensor<32xf32>
  %g = rlx.gelu %y : tensor<1x2x64x32xf32>
  return %g : tensor<1x2x64x32xf32>
}
