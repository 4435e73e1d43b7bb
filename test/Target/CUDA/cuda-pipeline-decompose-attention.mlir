// REQUIRES: cuda-toolkit
// RUN: rlx-opt %s --rlx-cuda-pipeline="chip=sm_90 format=isa" | FileCheck %s

// An f32 causal attention with grouped-query heads (8 query heads on 2 k/v
// heads) runs as two cuBLASLt products, each over 2 batches of 4 * 16
// query rows, around one row kernel that masks and normalizes the scores;
// the other two kernels scale q and copy the result out. The head grouping
// (1x8x16x32 -> 1x2x64x32, neither a pure merge nor a pure split) is a
// view: no shape buffer in host memory.
// CHECK-LABEL: llvm.func @causal_gqa(
// CHECK:         gpu.launch_func
// CHECK:         llvm.call @rlxGpuMatmul
// CHECK:         gpu.launch_func {{.*}} @causal_gqa_kernel_0::
// CHECK:         llvm.call @rlxGpuMatmul
// CHECK:         gpu.launch_func
// CHECK-NOT:     gpu.launch_func
// CHECK:         llvm.return
// CHECK-NOT:     llvm.mlir.global
func.func @causal_gqa(%q: tensor<1x8x16x32xf32>, %k: tensor<1x2x16x32xf32>,
                      %v: tensor<1x2x16x32xf32>) -> tensor<1x8x16x32xf32> {
  %a = rlx.attention %q, %k, %v mask = causal
      : tensor<1x8x16x32xf32>, tensor<1x2x16x32xf32>, tensor<1x2x16x32xf32>
  return %a : tensor<1x8x16x32xf32>
}
