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

// RMS norm: one kernel. A row of 256 f32 fits in one warp's registers
// (2 steps of 32 threads x 4 lanes): one warp per row, no workgroup memory
// or barrier. x is loaded once (16 bytes a thread and step), the weight
// once; the row sum stays in registers.
// CHECK-LABEL: llvm.func @rms_norm(
// CHECK-NOT:     mgpuMemAlloc
// CHECK-COUNT-1: gpu.launch_func
// CHECK-NOT:     gpu.launch_func
// CHECK:         gpu.binary @rms_norm_kernel
// CHECK-NOT:       bar.sync
// CHECK-SAME:      ld.global.v4.b32
// CHECK-SAME:      ld.global.v4.b32
// CHECK-NOT:       global.v4
// CHECK-SAME:      shfl.sync.bfly.b32
// CHECK-NOT:       ld.global.b32
// CHECK-SAME:      ld.global.v4.b32
// CHECK-NOT:       global.v4
// CHECK-SAME:      rsqrt
// CHECK-NOT:       ld.global.v4
// CHECK-SAME:      st.global.v4.b32
// CHECK-NOT:       bar.sync
// CHECK-NOT:     gpu.binary
func.func @rms_norm(%x: tensor<64x256xf32>, %w: tensor<256xf32>) -> tensor<64x256xf32> {
  %y = rlx.rms_norm %x, %w : tensor<64x256xf32>, tensor<256xf32>
  return %y : tensor<64x256xf32>
}

// -----

// Softmax: one kernel, one warp per row: row max, then row sum of exp
// (the fast exp: ex2.approx), both shuffle reductions, then the scaling by
// one reciprocal. x is loaded once, exp(x - max) is not stored before the
// scaling overwrites it, the output is stored once.
// CHECK-LABEL: llvm.func @softmax(
// CHECK-COUNT-1: gpu.launch_func
// CHECK-NOT:     gpu.launch_func
// CHECK:         gpu.binary @softmax_kernel
// CHECK-SAME:      ld.global.v4.b32
// CHECK-SAME:      ld.global.v4.b32
// CHECK-NOT:       global.v4
// CHECK-SAME:      shfl.sync.bfly.b32 {{[^;]*}};\0A\09max.f32
// CHECK-NOT:       global.v4
// CHECK-SAME:      ex2.approx.f32
// CHECK-NOT:       global.v4
// CHECK-SAME:      shfl.sync.bfly.b32 {{[^;]*}};\0A\09add.rn.f32
// CHECK-NOT:       global.v4
// CHECK-SAME:      rcp.rn.f32
// CHECK-NOT:       div.rn.f32
// CHECK-SAME:      st.global.v4.b32
// CHECK-NOT:       bar.sync
// CHECK-NOT:     gpu.binary
func.func @softmax(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %y = rlx.softmax %x axis = -1 : tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}

// -----

// Residual + layer norm: the sum, mean, variance and output in one kernel,
// one warp per row. x and r are loaded once each; x + r is held in
// registers, not written to the output before the normalization writes
// it: four 16-byte loads (x, r per step), then weight and bias, one
// 16-byte store per step.
// CHECK-LABEL: llvm.func @residual_layer_norm(
// CHECK-COUNT-1: gpu.launch_func
// CHECK-NOT:     gpu.launch_func
// CHECK:         gpu.binary @residual_layer_norm_kernel
// CHECK-COUNT-4:   ld.global.v4.b32
// CHECK-NOT:       global.v4
// CHECK-SAME:      shfl.sync.bfly.b32
// CHECK-NOT:       global.v4
// CHECK-SAME:      ld.global.v4.b32
// CHECK-SAME:      ld.global.v4.b32
// CHECK-NOT:       global.v4
// CHECK-SAME:      rsqrt
// CHECK-NOT:       global.v4
// CHECK-SAME:      st.global.v4.b32
// CHECK-NOT:       bar.sync
// CHECK-NOT:     gpu.binary
func.func @residual_layer_norm(%x: tensor<64x256xf32>, %r: tensor<64x256xf32>, %w: tensor<256xf32>, %b: tensor<256xf32>) -> tensor<64x256xf32> {
  %s = rlx.add %x, %r : tensor<64x256xf32>, tensor<64x256xf32>
  %y = rlx.layer_norm %s, %w, %b : tensor<64x256xf32>, tensor<256xf32>
  return %y : tensor<64x256xf32>
}

// -----

// bf16 softmax over rows of 4096 (too long for a warp): one block of 256
// threads per row, 2 steps of 8 bf16 (16 bytes) per thread, math in f32.
// x is loaded once, the output stored once; the two barriers are those
// between the warps' words of the max and of the sum; no row statistic
// goes through global memory (no scalar global load or store).
// CHECK-LABEL: llvm.func @softmax_bf16(
// CHECK-NOT:     mgpuMemAlloc
// CHECK-COUNT-1: gpu.launch_func
// CHECK-NOT:     gpu.launch_func
// CHECK:         gpu.binary @softmax_bf16_kernel
// CHECK-NOT:       bar.sync
// CHECK-SAME:      ld.global.v4.b32
// CHECK-SAME:      cvt.f32.bf16
// CHECK-SAME:      ld.global.v4.b32
// CHECK-NOT:       global
// CHECK-SAME:      shfl.sync.bfly.b32 {{[^;]*}};\0A\09max.f32
// CHECK-NOT:       global
// CHECK-SAME:      bar.sync
// CHECK-NOT:       global
// CHECK-SAME:      ex2.approx.f32
// CHECK-NOT:       global
// CHECK-SAME:      shfl.sync.bfly.b32 {{[^;]*}};\0A\09add.rn.f32
// CHECK-NOT:       global
// CHECK-SAME:      bar.sync
// CHECK-NOT:       global
// CHECK-SAME:      rcp.rn.f32
// CHECK-NOT:       global
// CHECK-SAME:      cvt.rn.bf16x2.f32
// CHECK-NOT:       bar.sync
// CHECK-SAME:      st.global.v4.b32
// CHECK-NOT:       ld.global
// CHECK-SAME:      st.global.v4.b32
// CHECK-NOT:       global
// CHECK-NOT:     gpu.binary
func.func @softmax_bf16(%x: tensor<64x4096xbf16>) -> tensor<64x4096xbf16> {
  %y = rlx.softmax %x axis = -1 : tensor<64x4096xbf16>
  return %y : tensor<64x4096xbf16>
}

// -----

// bf16 residual + layer norm over rows of 768: one warp per row, 3 steps of
// 8 bf16 per thread: x and r loaded once (16 bytes each), x + r rounded to
// bf16 as the program says and held, statistics in f32, no barrier.
// CHECK-LABEL: llvm.func @residual_layer_norm_bf16(
// CHECK-COUNT-1: gpu.launch_func
// CHECK:         gpu.binary @residual_layer_norm_bf16_kernel
// CHECK-COUNT-6:   ld.global.v4.b32
// CHECK-NOT:       global
// CHECK-SAME:      shfl.sync.bfly.b32
// CHECK-NOT:       st.global
// CHECK-SAME:      rsqrt
// CHECK-COUNT-3:   st.global.v4.b32
// CHECK-NOT:       global
// CHECK-NOT:       bar.sync
// CHECK-NOT:     gpu.binary
func.func @residual_layer_norm_bf16(%x: tensor<64x768xbf16>, %r: tensor<64x768xbf16>, %w: tensor<768xbf16>, %b: tensor<768xbf16>) -> tensor<64x768xbf16> {
  %s = rlx.add %x, %r : tensor<64x768xbf16>, tensor<64x768xbf16>
  %y = rlx.layer_norm %s, %w, %b : tensor<64x768xbf16>, tensor<768xbf16>
  return %y : tensor<64x768xbf16>
}

// -----

// f16 SwiGLU: 8 halves per thread (16-byte loads of g and u, one 16-byte
// store), silu in f32 with the fast exp.
// CHECK-LABEL: llvm.func @swiglu_f16(
// CHECK-COUNT-1: gpu.launch_func
// CHECK:         gpu.binary @swiglu_f16_kernel
// CHECK-SAME:      ld.global.v4.b32
// CHECK-SAME:      ld.global.v4.b32
// CHECK-SAME:      cvt.f32.f16
// CHECK-SAME:      ex2.approx.f32
// CHECK-SAME:      st.global.v4.b32
// CHECK-NOT:       global
// CHECK-NOT:     gpu.binary
func.func @swiglu_f16(%g: tensor<64x1024xf16>, %u: tensor<64x1024xf16>) -> tensor<64x1024xf16> {
  %s = rlx.silu %g : tensor<64x1024xf16>
  %y = rlx.mul %s, %u : tensor<64x1024xf16>, tensor<64x1024xf16>
  return %y : tensor<64x1024xf16>
}

// -----

// A constant table (not a splat) read by a kernel: the table is a device
// global of the kernel's module, initialized in the binary (1.0 = bytes 0,
// 0, 128, 63), read with 16-byte loads; the host keeps no handle of it.
// CHECK-LABEL: llvm.func @add_table(
// CHECK-NOT:     llvm.mlir.addressof
// CHECK-COUNT-1: gpu.launch_func
// CHECK:         gpu.binary @add_table_kernel
// CHECK-SAME:      .global .align 64 .b8 __constant_8xf32[32] = {0, 0, 128, 63, 0, 0, 0, 64,
// CHECK-SAME:      ld.global.nc.v4.b32
// CHECK-SAME:      st.global.v4.b32
func.func @add_table(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = rlx.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %y = rlx.add %x, %c : tensor<4x8xf32>, tensor<8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// A comparison of complex values: complex-to-standard in the kernels'
// pipeline expands it into two f32 comparisons (real and imaginary parts,
// unordered not-equal for `ne`) before NVVM, which takes no complex.neq.
// CHECK-LABEL: llvm.func @complex_ne(
// CHECK-COUNT-1: gpu.launch_func
// CHECK:         gpu.binary @complex_ne_kernel
// CHECK-SAME:      setp.neu.f32
// CHECK-SAME:      setp.neu.f32
func.func @complex_ne(%a: tensor<64xcomplex<f32>>, %b: tensor<64xcomplex<f32>>) -> tensor<64xi1> {
  %0 = rlx.cmp ne, %a, %b : tensor<64xcomplex<f32>>
  return %0 : tensor<64xi1>
}
