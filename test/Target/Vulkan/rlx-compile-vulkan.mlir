// rlx-compile --target=vulkan: a host object with the SPIR-V modules
// embedded, loaded at start-up and launched through librlx_vulkan_runtime's
// mgpu* functions; no library call (every matmul a generated kernel); the
// header's descriptors point to device memory, results last.
// RUN: rm -rf %t && mkdir %t
// RUN: rlx-compile --target=vulkan %s -o %t/layer.o --header=%t/layer.h --gpu-binaries=%t/bin
// RUN: llvm-nm %t/layer.o | FileCheck %s --check-prefix=HOST
// RUN: FileCheck %s --check-prefix=HEADER --input-file=%t/layer.h
// RUN: ls %t/bin | FileCheck %s --check-prefix=BINARIES

// HOST-DAG: T _mlir_ciface_layer
// HOST-DAG: r layer_kernel_binary
// HOST-DAG: U mgpuModuleLoad
// HOST-DAG: U mgpuModuleGetFunction
// HOST-DAG: U mgpuLaunchKernel
// HOST-DAG: U mgpuStreamSynchronize
// HOST-NOT: rlxGpuMatmul
// HEADER: Every buffer is device memory
// HEADER: void _mlir_ciface_layer(rlx_memref_f32_2d *arg0, rlx_memref_f32_2d *arg1, rlx_memref_f32_1d *arg2, rlx_memref_f32_1d *arg3, rlx_memref_f32_2d *result0);
// BINARIES: layer_kernel.spv

func.func @layer(%x: tensor<4x16xf32>, %w: tensor<16x16xf32>,
                 %b: tensor<16xf32>, %g: tensor<16xf32>) -> tensor<4x16xf32> {
  %h0 = rlx.matmul %x, %w : tensor<4x16xf32>, tensor<16x16xf32>
  %h1 = rlx.add %h0, %b : tensor<4x16xf32>, tensor<16xf32>
  %h = rlx.gelu %h1 : tensor<4x16xf32>
  %y = rlx.rms_norm %h, %g : tensor<4x16xf32>, tensor<16xf32>
  return %y : tensor<4x16xf32>
}
