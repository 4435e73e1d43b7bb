// RUN: rlx-opt %s --rlx-metal-pipeline | rlx-translate --rlx-to-msl | FileCheck %s
// RUN: rlx-opt %s --rlx-metal-pipeline | rlx-translate --rlx-to-msl -o %t.metal
// RUN: %clangxx -std=c++20 -fsyntax-only -Wall -Wextra -Werror -I %metal_stdlib_dir -x c++ %t.metal

// Attention on Metal has no flash kernel: the scores' kernel (a SIMD
// group's simd_sum per score), the causal softmax over each row (simd_max,
// metal::exp, simd_sum) and the weighted sum of the values, in order.

// CHECK-LABEL: kernel void attention_kernel_attention_kernel(
// CHECK: simd_sum(
// CHECK-LABEL: kernel void attention_kernel_0_attention_kernel(
// CHECK: simd_max(
// CHECK: metal::exp(
// CHECK: simd_sum(
// CHECK-LABEL: kernel void attention_kernel_1_attention_kernel(
// CHECK: for (int [[J:v[0-9]+]] = 0; [[J]] < 16; [[J]] += 1) {
// CHECK: float [[P:v[0-9]+]] = arg1[
// CHECK: float [[V:v[0-9]+]] = arg2[
// CHECK: [[P]] * [[V]];
func.func @attention(%q: tensor<1x2x16x32xf32>, %k: tensor<1x2x16x32xf32>, %v: tensor<1x2x16x32xf32>) -> tensor<1x2x16x32xf32> {
  %y = rlx.attention %q, %k, %v mask = causal : tensor<1x2x16x32xf32>, tensor<1x2x16x32xf32>, tensor<1x2x16x32xf32>
  return %y : tensor<1x2x16x32xf32>
}
