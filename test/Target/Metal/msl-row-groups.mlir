// RUN: rlx-opt %s --rlx-metal-pipeline | rlx-translate --rlx-to-msl | FileCheck %s
// RUN: rlx-opt %s --rlx-metal-pipeline | rlx-translate --rlx-to-msl -o %t.metal
// RUN: %clangxx -std=c++20 -fsyntax-only -Wall -Wextra -Werror -I %metal_stdlib_dir -x c++ %t.metal

// Row groups in MSL: the front's butterfly shuffles over the 32 lanes of
// a SIMD group become simd_sum / simd_max; rows wider than a SIMD group's
// registers reduce across the threadgroup through threadgroup arrays
// between barriers.

// A short row: one SIMD group per row, no threadgroup memory.
// CHECK-LABEL: kernel void softmax_short_kernel_softmax_short_kernel(
// CHECK-NOT: threadgroup float
// CHECK: float [[M:v[0-9]+]] = simd_max(
// CHECK: metal::exp(
// CHECK: float [[S:v[0-9]+]] = simd_sum(
// CHECK-NOT: simd_shuffle
// CHECK: }
func.func @softmax_short(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %y = rlx.softmax %x axis = 1 : tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// A long row: one threadgroup per row; each SIMD group's partial result
// goes through threadgroup memory.
// CHECK-LABEL: kernel void rms_norm_long_kernel_rms_norm_long_kernel(const device float* arg0 {{\[\[}}buffer(0){{\]\]}},
// CHECK-NEXT: const device float* arg1 {{\[\[}}buffer(1){{\]\]}},
// CHECK-NEXT: device float* arg2 {{\[\[}}buffer(2){{\]\]}},
// CHECK-NEXT: uint3 rlx_group {{\[\[}}threadgroup_position_in_grid{{\]\]}},
// CHECK-NEXT: uint3 rlx_thread {{\[\[}}thread_position_in_threadgroup{{\]\]}}) {
// CHECK-NEXT: threadgroup float tg0[8];
// CHECK: float [[P:v[0-9]+]] = simd_sum(
// CHECK: tg0[{{v[0-9]+}}] = [[P]];
// CHECK: threadgroup_barrier(mem_flags::mem_device | mem_flags::mem_threadgroup);
// CHECK: = tg0[
// CHECK: float {{v[0-9]+}} = simd_sum(
// CHECK: metal::rsqrt(
func.func @rms_norm_long(%x: tensor<4x4096xf32>, %g: tensor<4096xf32>) -> tensor<4x4096xf32> {
  %y = rlx.rms_norm %x, %g : tensor<4x4096xf32>, tensor<4096xf32>
  return %y : tensor<4x4096xf32>
}

// CHECK-LABEL: kernel void layer_norm_kernel_layer_norm_kernel(
// CHECK: simd_sum(
// CHECK: simd_sum(
// CHECK: metal::rsqrt(
func.func @layer_norm(%x: tensor<8x128xf32>, %g: tensor<128xf32>, %b: tensor<128xf32>) -> tensor<8x128xf32> {
  %y = rlx.layer_norm %x, %g, %b : tensor<8x128xf32>, tensor<128xf32>
  return %y : tensor<8x128xf32>
}
