// RUN: rlx-opt %s --rlx-metal-pipeline | rlx-translate --rlx-to-msl | FileCheck %s
// RUN: rlx-opt %s --rlx-metal-pipeline | rlx-translate --rlx-to-msl -o %t.metal
// RUN: %clangxx -std=c++20 -fsyntax-only -Wall -Wextra -Werror -I %metal_stdlib_dir -x c++ %t.metal

// Elementwise kernels in MSL: one thread per 8 bytes (a float2 or a half4
// access), metal:: math, half math in float, bfloat arithmetic (MSL 3.1).

// CHECK: #include <metal_stdlib>
// CHECK: using namespace metal;

// CHECK-LABEL: kernel void gelu_kernel_gelu_kernel(
// CHECK-SAME: const device float* arg0 {{\[\[}}buffer(0){{\]\]}},
// CHECK-NEXT: device float* arg1 {{\[\[}}buffer(1){{\]\]}},
// One threadgroup: the kernel reads its thread's position alone.
// CHECK-NEXT: uint3 rlx_thread {{\[\[}}thread_position_in_threadgroup{{\]\]}}) {
// CHECK: if (
// CHECK: float2 [[X:v[0-9]+]] = *(const device float2*)&arg0[
// CHECK: float [[X0:v[0-9]+]] = [[X]][0];
// MSL has no erf: rlx-gpu-expand-math wrote a rational polynomial.
// CHECK: metal::fma(
// CHECK: float2 [[Y:v[0-9]+]] = float2{
// CHECK: *(device float2*)&arg1[{{.*}}] = [[Y]];
func.func @gelu(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %y = rlx.gelu %x : tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// CHECK-LABEL: kernel void exp_half_kernel_exp_half_kernel(
// CHECK-SAME: const device half* arg0 {{\[\[}}buffer(0){{\]\]}},
// CHECK-NEXT: device half* arg1 {{\[\[}}buffer(1){{\]\]}},
// CHECK: half4 [[H:v[0-9]+]] = *(const device half4*)&arg0[
// CHECK: half [[H0:v[0-9]+]] = [[H]][0];
// CHECK: float [[F:v[0-9]+]] = float([[H0]]);
// CHECK: float [[E:v[0-9]+]] = metal::exp([[F]]);
// CHECK: half {{v[0-9]+}} = half([[E]]);
// CHECK: *(device half4*)&arg1[
func.func @exp_half(%x: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %y = rlx.exp %x : tensor<4x64xf16>
  return %y : tensor<4x64xf16>
}

// CHECK-LABEL: kernel void add_bf16_kernel_add_bf16_kernel(
// CHECK-SAME: const device bfloat* arg0 {{\[\[}}buffer(0){{\]\]}},
// CHECK-NEXT: const device bfloat* arg1 {{\[\[}}buffer(1){{\]\]}},
// CHECK-NEXT: device bfloat* arg2 {{\[\[}}buffer(2){{\]\]}},
// CHECK: bfloat4 {{v[0-9]+}} = *(const device bfloat4*)&arg0[
// CHECK: bfloat {{v[0-9]+}} = {{v[0-9]+}} + {{v[0-9]+}};
// CHECK: *(device bfloat4*)&arg2[
func.func @add_bf16(%a: tensor<4x64xbf16>, %b: tensor<64xbf16>) -> tensor<4x64xbf16> {
  %y = rlx.add %a, %b : tensor<4x64xbf16>, tensor<64xbf16>
  return %y : tensor<4x64xbf16>
}

// Comparisons are NaN-exact C comparisons; where is a conditional.
// CHECK-LABEL: kernel void where_kernel_where_kernel(
// CHECK: bool [[C:v[0-9]+]] = ({{v[0-9]+}} > {{v[0-9]+}});
// CHECK: float {{v[0-9]+}} = [[C]] ? {{v[0-9]+}} : {{v[0-9]+}};
func.func @where(%a: tensor<4x64xf32>, %b: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %c = rlx.cmp gt, %a, %b : tensor<4x64xf32>, tensor<4x64xf32>
  %y = rlx.where %c, %a, %b : tensor<4x64xi1>, tensor<4x64xf32>, tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// Integer kernels: int arithmetic; unsigned division of the indices.
// CHECK-LABEL: kernel void int_mul_kernel_int_mul_kernel(
// CHECK-SAME: const device int* arg0 {{\[\[}}buffer(0){{\]\]}},
// CHECK: device int* arg2 {{\[\[}}buffer(2){{\]\]}},
// CHECK: int {{v[0-9]+}} = {{v[0-9]+}} * {{v[0-9]+}};
func.func @int_mul(%a: tensor<4x64xi32>, %b: tensor<4x64xi32>) -> tensor<4x64xi32> {
  %y = rlx.mul %a, %b : tensor<4x64xi32>, tensor<4x64xi32>
  return %y : tensor<4x64xi32>
}
