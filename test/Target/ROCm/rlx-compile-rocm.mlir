// REQUIRES: rocm-device-libs
// rlx-compile --target=rocm: a host object with the code object embedded,
// loaded at start-up and launched through librlx_rocm_runtime's mgpu*
// functions, the matmul a library call; the header's descriptors point to
// device memory, results last.
// RUN: rm -rf %t && mkdir %t
// RUN: rlx-compile --target=rocm --chip=gfx1100 --dispatch-report %s -o %t/layer.o --header=%t/layer.h --gpu-binaries=%t/bin 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: llvm-nm %t/layer.o | FileCheck %s --check-prefix=HOST
// RUN: FileCheck %s --check-prefix=HEADER --input-file=%t/layer.h
// RUN: llvm-readelf --notes %t/bin/layer_kernel.hsaco | FileCheck %s --check-prefix=NOTES
// RUN: rlx-compile --target=rocm --gpu-matmul=generated %s -o %t/generated.o
// RUN: llvm-nm %t/generated.o | FileCheck %s --check-prefix=GENERATED

// HOST-DAG: T _mlir_ciface_layer
// HOST-DAG: r layer_kernel_binary
// HOST-DAG: U mgpuModuleLoad
// HOST-DAG: U mgpuLaunchKernel
// HOST-DAG: U rlxGpuMatmul
// HEADER: Every buffer is device memory
// HEADER: void _mlir_ciface_layer(rlx_memref_f32_2d *arg0, rlx_memref_f32_2d *arg1, rlx_memref_f32_1d *arg2, rlx_memref_f32_1d *arg3, rlx_memref_f32_2d *result0);
// NOTES: .name: layer_kernel
// NOTES: .wavefront_size: 32
// NOTES: amdhsa.target: amdgcn-amd-amdhsa--gfx1100
// With --gpu-matmul=generated the matmul is a kernel of its own: no call of
// the library, two code objects.
// GENERATED-NOT: rlxGpuMatmul
// GENERATED-DAG: r layer_kernel_binary
// GENERATED-DAG: r layer_kernel_0_binary
// GENERATED-NOT: rlxGpuMatmul
func.func @layer(%x: tensor<4x16xf32>, %w: tensor<16x16xf32>,
                %b: tensor<16xf32>, %g: tensor<16xf32>) -> tensor<4x16xf32> {
  %h0 = rlx.matmul %x, %w : tensor<4x16xf32>, tensor<16x16xf32>
  %h1 = rlx.add %h0, %b : tensor<4x16xf32>, tensor<16xf32>
  // The matmul, its bias and the exact GELU are one fused op, reported at
  // the GELU; the library takes the matmul and the bias.
  // REPORT: rlx-compile-rocm.mlir:[[# @LINE + 1]]:8: remark: matmul: library 'f32' 1x4x16x16 (batch x m x n x k), epilogue bias, then gelu as a generated kernel
  %h = rlx.gelu %h1 : tensor<4x16xf32>
  %r = rlx.add %h, %x : tensor<4x16xf32>, tensor<4x16xf32>
  %y = rlx.rms_norm %r, %g : tensor<4x16xf32>, tensor<16xf32>
  return %y : tensor<4x16xf32>
}
