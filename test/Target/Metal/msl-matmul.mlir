// RUN: rlx-opt %s --rlx-metal-pipeline | rlx-translate --rlx-to-msl | FileCheck %s
// RUN: rlx-opt %s --rlx-metal-pipeline | rlx-translate --rlx-to-msl -o %t.metal
// RUN: %clangxx -std=c++20 -fsyntax-only -Wall -Wextra -Werror -I %metal_stdlib_dir -x c++ %t.metal

// Metal has no library matmul here: each result element is a SIMD group's
// simd_sum over the reduced dim, lane 0 storing it.

// CHECK-LABEL: kernel void matmul_kernel_matmul_kernel(const device float* arg0 {{\[\[}}buffer(0){{\]\]}},
// CHECK-NEXT: const device float* arg1 {{\[\[}}buffer(1){{\]\]}},
// CHECK-NEXT: device float* arg2 {{\[\[}}buffer(2){{\]\]}},
// CHECK: int [[LANE:v[0-9]+]] = int(uint(int(rlx_thread.x)) % uint(32));
// CHECK: float [[A:v[0-9]+]] = arg0[{{v[0-9]+}} * 32 + [[LANE]]];
// CHECK: float [[B:v[0-9]+]] = arg1[[[LANE]] * 48 + {{v[0-9]+}}];
// CHECK: float [[P:v[0-9]+]] = [[A]] * [[B]];
// CHECK: simd_sum(
// CHECK: if (
// CHECK-NEXT: arg2[{{v[0-9]+}} * 48 + {{v[0-9]+}}] =
func.func @matmul(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>) -> tensor<64x48xf32> {
  %y = rlx.matmul %a, %b : tensor<64x32xf32>, tensor<32x48xf32>
  return %y : tensor<64x48xf32>
}

// A matmul with its bias and activation fused: the epilogue in the same
// kernel, after the f32 reduction; relu is a NaN-propagating maximum.
// CHECK-LABEL: kernel void matmul_bias_relu_kernel_matmul_bias_relu_kernel(
// CHECK: float [[S:v[0-9]+]] = simd_sum(
// CHECK: half [[H:v[0-9]+]] = half(
// CHECK: half [[B:v[0-9]+]] = [[H]] + {{v[0-9]+}};
// CHECK: (isnan([[B]]) || isnan(half(0.000000000e+00f))) ? half(NAN) : fmax([[B]], half(0.000000000e+00f));
func.func @matmul_bias_relu(%a: tensor<16x64xf16>, %b: tensor<64x32xf16>, %c: tensor<32xf16>) -> tensor<16x32xf16> {
  %m = rlx.matmul %a, %b : tensor<16x64xf16>, tensor<64x32xf16>
  %s = rlx.add %m, %c : tensor<16x32xf16>, tensor<32xf16>
  %y = rlx.relu %s : tensor<16x32xf16>
  return %y : tensor<16x32xf16>
}
