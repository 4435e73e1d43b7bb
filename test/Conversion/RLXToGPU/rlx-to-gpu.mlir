// REQUIRES: target-cuda
// RUN: rlx-opt %s --split-input-file --rlx-to-gpu | FileCheck %s
// RUN: rlx-opt %s --split-input-file --rlx-to-gpu="matmul=generated attention=decomposed" | FileCheck %s --check-prefix=GEN
// RUN: rlx-opt %s --split-input-file --rlx-to-gpu="fast-math=false" | FileCheck %s --check-prefix=EXACT

// --rlx-to-gpu stops at the GPU dialect (no NVVM, no binary, no toolkit
// needed): host functions that launch gpu.func kernels of a gpu.module.

// Residual + layer norm is one row group: one kernel, one launch, the
// result written into the out-parameter. fast-math turns its divisions by
// the row length and the one by the deviation into multiplications by a
// reciprocal computed once.
// CHECK-LABEL: func.func @residual_layer_norm(
// CHECK-SAME:      memref<256xf32>, %[[OUT:[a-z0-9]+]]: memref<64x256xf32>)
// CHECK-NOT:     memref.alloc
// CHECK:         gpu.launch_func @residual_layer_norm_kernel::@residual_layer_norm_kernel
// CHECK-SAME:      %[[OUT]]
// CHECK-NOT:     gpu.launch_func
// CHECK:         return
// CHECK:       gpu.module @residual_layer_norm_kernel
// CHECK:         gpu.func @residual_layer_norm_kernel(
// CHECK-SAME:      kernel
// CHECK:           %[[INV:.*]] = arith.divf
// CHECK-NOT:       arith.divf
// CHECK:           gpu.shuffle xor
// CHECK-NOT:       arith.divf
// CHECK:           arith.mulf %{{.*}}, %[[INV]] : f32
// CHECK-NOT:       arith.divf
// CHECK:           math.rsqrt
// CHECK-NOT:       arith.divf
// CHECK:           gpu.return
// CHECK-NOT:     gpu.func
// CHECK-NOT:   nvvm.
// CHECK-NOT:   gpu.binary
// EXACT-LABEL: gpu.func @residual_layer_norm_kernel(
// EXACT:         gpu.shuffle xor
// EXACT:         arith.divf %{{.*}}, %[[N:.*]] : f32
// EXACT:         arith.divf %{{.*}}, %[[N]] : f32
// EXACT:         math.rsqrt
func.func @residual_layer_norm(%x: tensor<64x256xf32>, %r: tensor<64x256xf32>,
                               %w: tensor<256xf32>, %b: tensor<256xf32>) -> tensor<64x256xf32> {
  %s = rlx.add %x, %r : tensor<64x256xf32>, tensor<64x256xf32>
  %y = rlx.layer_norm %s, %w, %b {epsilon = 1.0e-5 : f32} : tensor<64x256xf32>, tensor<256xf32>
  return %y : tensor<64x256xf32>
}

// -----

// matmul -> bias -> tanh GELU in bf16 is one library matmul call with its
// epilogue, writing the out-parameter: no kernel of ours. With
// matmul=generated it is generated kernels, launched from the host.
// CHECK-LABEL: func.func @matmul_bias_gelu(
// CHECK-NOT:     gpu.launch_func
// CHECK:         call @rlxGpuMatmul(
// CHECK-NOT:     gpu.launch_func
// CHECK:         return
// CHECK-NOT:   gpu.module
// GEN-LABEL:   func.func @matmul_bias_gelu(
// GEN-NOT:       rlxGpuMatmul
// GEN:           gpu.launch_func
// GEN:         gpu.module
func.func @matmul_bias_gelu(%x: tensor<256x64xbf16>, %w: tensor<64x128xbf16>,
                            %b: tensor<128xbf16>) -> tensor<256x128xbf16> {
  %m = rlx.matmul %x, %w : tensor<256x64xbf16>, tensor<64x128xbf16>
  %a = rlx.add %m, %b : tensor<256x128xbf16>, tensor<128xbf16>
  %y = rlx.gelu %a {approximate = "tanh"} : tensor<256x128xbf16>
  return %y : tensor<256x128xbf16>
}

// -----

// Causal bf16 attention is one call of the runtime's flash-attention
// kernel (mask kind 1: causal). attention=decomposed with generated
// matmuls leaves it to generated kernels.
// CHECK-LABEL: func.func @causal_attention(
// CHECK-NOT:     gpu.launch_func
// CHECK:         call @rlxFlashAttention(
// CHECK-NOT:     gpu.launch_func
// CHECK:         return
// GEN-LABEL:   func.func @causal_attention(
// GEN-NOT:       rlxFlashAttention
// GEN:           gpu.launch_func
func.func @causal_attention(%q: tensor<2x4x128x64xbf16>, %k: tensor<2x4x128x64xbf16>,
                            %v: tensor<2x4x128x64xbf16>) -> tensor<2x4x128x64xbf16> {
  %o = rlx.attention %q, %k, %v mask = causal : tensor<2x4x128x64xbf16>, tensor<2x4x128x64xbf16>, tensor<2x4x128x64xbf16>
  return %o : tensor<2x4x128x64xbf16>
}

// -----

// Group norm views x as [N, groups, K] and a reshape between shapes with
// no common refinement goes through one dim: views with their shapes in
// their types, which a kernel reads directly (a shape operand would be a
// buffer in host memory, which kernels cannot read).
// CHECK-LABEL: func.func @group_norm(
// CHECK:         %[[G:.*]] = memref.expand_shape %{{.*}} {{\[}}[0], [1, 2], [3], [4]] output_shape [2, 4, 2, 4, 4] : memref<2x8x4x4xf32> into memref<2x4x2x4x4xf32>
// CHECK:         %[[V:.*]] = memref.collapse_shape %[[G]] {{\[}}[0], [1], [2, 3, 4]] : memref<2x4x2x4x4xf32> into memref<2x4x32xf32>
// CHECK:         gpu.launch_func {{.*}} args(%[[V]] : memref<2x4x32xf32>
// CHECK-NOT:     memref.global
// CHECK:         return
func.func @group_norm(%x: tensor<2x8x4x4xf32>, %g: tensor<8xf32>) -> tensor<2x8x4x4xf32> {
  %y = rlx.group_norm %x, %g, %g {num_groups = 4 : i64} : tensor<2x8x4x4xf32>, tensor<8xf32>
  return %y : tensor<2x8x4x4xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_through_one_dim(
// CHECK:         %[[F:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0, 1]] : memref<3x4xf32> into memref<12xf32>
// CHECK:         %[[V:.*]] = memref.expand_shape %[[F]] {{\[}}[0, 1]] output_shape [2, 6] : memref<12xf32> into memref<2x6xf32>
// CHECK:         gpu.launch_func {{.*}} args(%[[V]] : memref<2x6xf32>
// CHECK-NOT:     memref.global
// CHECK:         return
func.func @reshape_through_one_dim(%x: tensor<3x4xf32>) -> tensor<2x6xf32> {
  %y = rlx.reshape %x : tensor<3x4xf32> -> tensor<2x6xf32>
  %z = rlx.exp %y : tensor<2x6xf32>
  return %z : tensor<2x6xf32>
}

// -----

// Identical results, merged by CSE, are still two out-parameters: the
// kernel writes the first, a copy kernel the second from it
// (rlx-copy-repeated-results; buffer-results-to-out-params crashed on the
// repeated buffer).
// CHECK-LABEL: func.func @same_result_twice(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: memref<4x8xf32>, %[[A:[a-z0-9]+]]: memref<4x8xf32>, %[[B:[a-z0-9]+]]: memref<4x8xf32>)
// CHECK:         gpu.launch_func {{.*}} args(%[[X]] : memref<4x8xf32>, %[[A]] : memref<4x8xf32>)
// CHECK:         gpu.launch_func {{.*}} args(%[[A]] : memref<4x8xf32>, %[[B]] : memref<4x8xf32>)
// CHECK:         return
func.func @same_result_twice(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %a = rlx.add %x, %x : tensor<4x8xf32>
  %b = rlx.add %x, %x : tensor<4x8xf32>
  return %a, %b : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Padding a convolution's input yields a value from outside the generic's
// body (the zero of the padding), and concatenating complex values leaves
// outputs the body does not read: both are kernels (both crashed
// rlx-gpu-map-linalg).
// Kernels: the padded input filled with that zero, x copied into it, the
// output's zero, the convolution, and the two halves of the concat.
// CHECK-LABEL: func.func @conv_and_complex_concat(
// CHECK:         gpu.launch_func {{.*}} args(%{{.*}} : memref<1x3x10x10xf32>)
// CHECK-COUNT-5: gpu.launch_func
// CHECK-NOT:     gpu.launch_func
// CHECK:         return
func.func @conv_and_complex_concat(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>,
                                   %c: tensor<2xcomplex<f32>>) -> (tensor<1x4x8x8xf32>, tensor<4xcomplex<f32>>) {
  %y = rlx.conv %x, %w padding = [1, 1, 1, 1] : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>
  %z = rlx.concat %c, %c axis = 0 : tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>
  return %y, %z : tensor<1x4x8x8xf32>, tensor<4xcomplex<f32>>
}

// -----

// rlx.if, which the cuda target does not claim, is rewritten by
// rlx-legalize into both branches and a select (rlx.where): kernels only,
// no host read of the predicate.
// CHECK-LABEL: func.func @if_as_where(
// CHECK-NOT:     scf.if
// CHECK-NOT:     memref.load
// CHECK:         gpu.launch_func
// CHECK:         return
// CHECK:       gpu.module
// CHECK:         arith.select
func.func @if_as_where(%p: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = rlx.if %p : tensor<i1> -> tensor<4xf32> {
    rlx.yield %x : tensor<4xf32>
  } else {
    %n = rlx.neg %x : tensor<4xf32>
    rlx.yield %n : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
