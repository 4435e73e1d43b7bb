// REQUIRES: rocm-device-libs
// RUN: rlx-opt %s --rlx-rocm-pipeline="chip=gfx942 format=isa" | FileCheck %s

// rlx.scatter_add on ROCm: the base copied, then a kernel of global atomic
// adds (LLVM lowers the f32 atomicrmw fadd to a compare-and-swap loop on
// memory it cannot prove coarse-grained).
// CHECK-LABEL: llvm.func @embedding_grad(
// CHECK-COUNT-2: gpu.launch_func
// CHECK-NOT:     gpu.launch_func
// CHECK:         gpu.binary @embedding_grad_kernel_0 {{.*}}global_atomic_{{(cmpswap|add_f32)}}
func.func @embedding_grad(%zeros: tensor<1000x64xf32>, %ids: tensor<512xi64>, %dy: tensor<512x64xf32>) -> tensor<1000x64xf32> {
  %g = rlx.scatter_add %zeros, %ids, %dy axis = 0 : tensor<1000x64xf32>, tensor<512xi64>, tensor<512x64xf32>
  return %g : tensor<1000x64xf32>
}
