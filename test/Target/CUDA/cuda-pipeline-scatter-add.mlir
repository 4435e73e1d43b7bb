// REQUIRES: cuda-toolkit
// RUN: rlx-opt %s --split-input-file --rlx-cuda-pipeline="chip=sm_90 format=isa" | FileCheck %s

// An embedding's gradient: the base copied into the result (the
// out-parameter, no temporary), then one thread per update element adding
// it with a global atomic.
// CHECK-LABEL: llvm.func @embedding_grad(
// CHECK-NOT:     mgpuMemAlloc
// CHECK-COUNT-2: gpu.launch_func
// CHECK-NOT:     gpu.launch_func
// CHECK:         gpu.binary @embedding_grad_kernel {{.*}}ld.global.v4.b32
// CHECK:         gpu.binary @embedding_grad_kernel_0 {{.*}}atom.global.add.f32
func.func @embedding_grad(%zeros: tensor<1000x64xf32>, %ids: tensor<512xi64>, %dy: tensor<512x64xf32>) -> tensor<1000x64xf32> {
  %g = rlx.scatter_add %zeros, %ids, %dy axis = 0 : tensor<1000x64xf32>, tensor<512xi64>, tensor<512x64xf32>
  return %g : tensor<1000x64xf32>
}

// -----

// bf16 adds with sm_90's bf16 atomic.
// CHECK-LABEL: llvm.func @bf16_rows(
// CHECK:         gpu.binary @bf16_rows_kernel_0 {{.*}}atom.global.add.noftz.bf16
func.func @bf16_rows(%b: tensor<4x50x8xbf16>, %i: tensor<30xi64>, %u: tensor<4x30x8xbf16>) -> tensor<4x50x8xbf16> {
  %r = rlx.scatter_add %b, %i, %u axis = 1 : tensor<4x50x8xbf16>, tensor<30xi64>, tensor<4x30x8xbf16>
  return %r : tensor<4x50x8xbf16>
}
