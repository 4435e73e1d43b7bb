// REQUIRES: cuda-toolkit
// RUN: rlx-opt %s --split-input-file --rlx-cuda-pipeline="chip=sm_90 format=isa" | FileCheck %s

// An elementwise op is one kernel with 16-byte loads and stores; the
// result is an out-parameter written in place (no allocation, no copy).
// CHECK-LABEL: llvm.func @add(
// CHECK-SAME:      %arg14: !llvm.ptr, %arg15: !llvm.ptr, {{.*}}, %arg20: i64) {
// CHECK-NOT:     mgpuMemAlloc
// CHECK-COUNT-1: gpu.launch_func
// CHECK-NOT:     gpu.launch_func
// CHECK:         gpu.binary @add_kernel
// CHECK-SAME:      .target sm_90
// CHECK-SAME:      ld.global.v4.b32
// CHECK-SAME:      ld.global.v4.b32
// CHECK-SAME:      st.global.v4.b32
// CHECK-NOT:     gpu.binary
func.func @add(%x: tensor<64x256xf32>, %y: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %z = rlx.add %x, %y : tensor<64x256xf32>, tensor<64x256xf32>
  return %z : tensor<64x256xf32>
}

// -----

// RMS norm: one kernel of one block per row: the initial value of the
// row sum, the sum (warp shuffles, one word per warp through shared
// memory), the normalization, with barriers between them. The row stays
// in registers: x is loaded once (16 bytes a thread), the weight once.
// CHECK-LABEL: llvm.func @rms_norm(
// CHECK-COUNT-1: gpu.launch_func
// CHECK-NOT:     gpu.launch_func
// CHECK:         gpu.binary @rms_norm_kernel
// CHECK-SAME:      ld.global.v4.b32
// CHECK-NOT:       ld.global.v4
// CHECK-SAME:      shfl.sync.bfly.b32
// CHECK-SAME:      bar.sync
// CHECK-SAME:      shfl.sync.bfly.b32
// CHECK-SAME:      ld.global.v4.b32
// CHECK-NOT:       global.v4
// CHECK-SAME:      rsqrt
// CHECK-NOT:       global.v4
// CHECK-SAME:      st.global.v4.b32
// CHECK-NOT:       global.v4
// CHECK-NOT:     gpu.binary
func.func @rms_norm(%x: tensor<64x256xf32>, %w: tensor<256xf32>) -> tensor<64x256xf32> {
  %y = rlx.rms_norm %x, %w : tensor<64x256xf32>, tensor<256xf32>
  return %y : tensor<64x256xf32>
}

// -----

// Softmax: one kernel: row max, then row sum of exp, both shuffle
// reductions, then the normalization. The row stays in registers: x is
// loaded once, exp(x - max) is not stored before the scaling overwrites
// it, the output is stored once.
// CHECK-LABEL: llvm.func @softmax(
// CHECK-COUNT-1: gpu.launch_func
// CHECK-NOT:     gpu.launch_func
// CHECK:         gpu.binary @softmax_kernel
// CHECK-SAME:      ld.global.v4.b32
// CHECK-NOT:       global.v4
// CHECK-SAME:      shfl.sync.bfly.b32 {{[^"]*}}max.NaN.f32
// CHECK-NOT:       global.v4
// CHECK-SAME:      ex2.approx
// CHECK-NOT:       global.v4
// CHECK-SAME:      shfl.sync.bfly.b32 {{[^"]*}}add.rn.f32
// CHECK-NOT:       global.v4
// CHECK-SAME:      st.global.v4.b32
// CHECK-NOT:       global.v4
// CHECK-NOT:     gpu.binary
func.func @softmax(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %y = rlx.softmax %x axis = -1 : tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}

// -----

// Residual + layer norm: the sum, mean, variance and output in one kernel.
// x and r are loaded once each; x + r is held in registers, not written
// to the output before the normalization writes it: four 16-byte loads
// (x, r, then weight and bias) and one 16-byte store per thread.
// CHECK-LABEL: llvm.func @residual_layer_norm(
// CHECK-COUNT-1: gpu.launch_func
// CHECK-NOT:     gpu.launch_func
// CHECK:         gpu.binary @residual_layer_norm_kernel
// CHECK-SAME:      ld.global.v4.b32
// CHECK-SAME:      ld.global.v4.b32
// CHECK-NOT:       global.v4
// CHECK-SAME:      shfl.sync.bfly.b32
// CHECK-NOT:       global.v4
// CHECK-SAME:      ld.global.v4.b32
// CHECK-SAME:      ld.global.v4.b32
// CHECK-NOT:       global.v4
// CHECK-SAME:      rsqrt
// CHECK-NOT:       global.v4
// CHECK-SAME:      st.global.v4.b32
// CHECK-NOT:       global.v4
// CHECK-NOT:     gpu.binary
func.func @residual_layer_norm(%x: tensor<64x256xf32>, %r: tensor<64x256xf32>, %w: tensor<256xf32>, %b: tensor<256xf32>) -> tensor<64x256xf32> {
  %s = rlx.add %x, %r : tensor<64x256xf32>, tensor<64x256xf32>
  %y = rlx.layer_norm %s, %w, %b : tensor<64x256xf32>, tensor<256xf32>
  return %y : tensor<64x256xf32>
}
