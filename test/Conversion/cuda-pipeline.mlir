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

// RMS norm: the initial value of the row sums, the sums (one block per
// row, warp shuffles), the normalization.
// CHECK-LABEL: llvm.func @rms_norm(
// CHECK-COUNT-3: gpu.launch_func
// CHECK-NOT:     gpu.launch_func
// CHECK:         gpu.binary @rms_norm_kernel
// CHECK:         gpu.binary @rms_norm_kernel_0
// CHECK-SAME:      ld.global.v4.b32
// CHECK-SAME:      shfl.sync.bfly.b32
// CHECK-SAME:      bar.sync
// CHECK-SAME:      shfl.sync.bfly.b32
// CHECK:         gpu.binary @rms_norm_kernel_1
// CHECK-SAME:      ld.global.v4.b32
// CHECK-SAME:      rsqrt
// CHECK-SAME:      st.global.v4.b32
// CHECK-NOT:     gpu.binary
func.func @rms_norm(%x: tensor<64x256xf32>, %w: tensor<256xf32>) -> tensor<64x256xf32> {
  %y = rlx.rms_norm %x, %w : tensor<64x256xf32>, tensor<256xf32>
  return %y : tensor<64x256xf32>
}

// -----

// Softmax: row max and row sum of exp each one block per row with shuffle
// reductions, then the normalization; two kernels set the initial values.
// CHECK-LABEL: llvm.func @softmax(
// CHECK-COUNT-5: gpu.launch_func
// CHECK-NOT:     gpu.launch_func
// CHECK:         gpu.binary @softmax_kernel_0
// CHECK-SAME:      ld.global.v4.b32
// CHECK-SAME:      shfl.sync.bfly.b32 {{[^"]*}}max.NaN.f32
// CHECK:         gpu.binary @softmax_kernel_2
// CHECK-SAME:      ex2.approx
// CHECK-SAME:      shfl.sync.bfly.b32 {{[^"]*}}add.rn.f32
// CHECK:         gpu.binary @softmax_kernel_3
// CHECK-SAME:      ex2.approx
// CHECK-SAME:      st.global.v4.b32
// CHECK-NOT:     gpu.binary
func.func @softmax(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %y = rlx.softmax %x axis = -1 : tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}
