// REQUIRES: cuda-toolkit
// RUN: rlx-opt %s --rlx-to-gpu | FileCheck %s --check-prefix=FRONT
// RUN: rlx-opt %s --rlx-cuda-pipeline="chip=sm_90 format=isa" | FileCheck %s
// RUN: rlx-opt %S/Inputs/decode-old-chip.mlir --rlx-cuda-pipeline="chip=sm_75 format=isa" --verify-diagnostics -o /dev/null
// RUN: rlx-opt %S/Inputs/decode-arena.mlir --rlx-cuda-pipeline="chip=sm_90 format=isa arena=1" --verify-diagnostics -o /dev/null

// A decode step of one layer with its caches held in place: the caches stay
// arguments and leave the results (only the attention's output is an
// out-parameter); each cache write is one copy kernel of the new rows (one
// kernel module for both) into the argument's own buffer, reading the
// position in device memory; the attention is one call of the runtime's
// kernel on the written caches and the length computed on the device.
// FRONT-LABEL: func.func @decode_step(
// FRONT-SAME:    %[[KC:[^:]*]]: memref<1x256x2x64xbf16>, %[[VC:[^:]*]]: memref<1x256x2x64xbf16>,
// FRONT-SAME:    %[[POS:[^:]*]]: memref<i64>, %{{[^:]*}}: memref<1x1x512xbf16>) {
// FRONT-NOT:     memref.copy
// FRONT:         gpu.launch_func @[[WRITE:.*]]::@decode_step_kernel {{.*}} args(%[[POS]] : memref<i64>, %{{.*}} : memref<1x1x2x64xbf16>, %[[KC]] : memref<1x256x2x64xbf16>)
// FRONT:         gpu.launch_func @[[WRITE]]::@decode_step_kernel {{.*}} args(%[[POS]] : memref<i64>, %{{.*}} : memref<1x1x2x64xbf16>, %[[VC]] : memref<1x256x2x64xbf16>)
// FRONT:         call @rlxDecodeAttention(
// FRONT-NOT:     memref.copy
// FRONT:         return
// FRONT-NOT:     func.func private @kv_cache_write
// FRONT-NOT:     func.func private @rlx_decode_attention

// CHECK-LABEL: llvm.func @decode_step(
// CHECK-NOT:     mgpuMemcpy
// CHECK:         llvm.call @rlxDecodeAttention(
// CHECK-NOT:     mgpuMemcpy
// CHECK:         llvm.return
// CHECK:         gpu.binary @decode_step_kernel_0
func.func @decode_step(%kc: tensor<1x256x2x64xbf16> {rlx.in_place_result = 1 : i64},
                       %vc: tensor<1x256x2x64xbf16> {rlx.in_place_result = 2 : i64},
                       %x: tensor<1x1x512xbf16>, %wq: tensor<512x512xbf16>,
                       %wk: tensor<128x512xbf16>, %wv: tensor<128x512xbf16>,
                       %pos: tensor<i64>)
    -> (tensor<1x1x512xbf16>, tensor<1x256x2x64xbf16>, tensor<1x256x2x64xbf16>) {
  %q = rlx.matmul %x, %wq transpose_b true : tensor<1x1x512xbf16>, tensor<512x512xbf16>
  %k = rlx.matmul %x, %wk transpose_b true : tensor<1x1x512xbf16>, tensor<128x512xbf16>
  %v = rlx.matmul %x, %wv transpose_b true : tensor<1x1x512xbf16>, tensor<128x512xbf16>
  %q4 = rlx.reshape %q : tensor<1x1x512xbf16> -> tensor<1x1x8x64xbf16>
  %qt = rlx.transpose %q4 [0, 2, 1, 3] : tensor<1x1x8x64xbf16>
  %k4 = rlx.reshape %k : tensor<1x1x128xbf16> -> tensor<1x1x2x64xbf16>
  %v4 = rlx.reshape %v : tensor<1x1x128xbf16> -> tensor<1x1x2x64xbf16>
  %kc2 = rlx.kv_cache_write %kc, %k4, %pos : tensor<1x256x2x64xbf16>, tensor<1x1x2x64xbf16>, tensor<i64>
  %vc2 = rlx.kv_cache_write %vc, %v4, %pos : tensor<1x256x2x64xbf16>, tensor<1x1x2x64xbf16>, tensor<i64>
  %one = rlx.constant dense<1> : tensor<i64>
  %len = rlx.add %pos, %one : tensor<i64>, tensor<i64>
  %o = rlx.decode_attention %qt, %kc2, %vc2, %len {num_kv_heads = 2 : i64} : tensor<1x8x1x64xbf16>, tensor<1x256x2x64xbf16>, tensor<1x256x2x64xbf16>, tensor<i64>
  %ot = rlx.transpose %o [0, 2, 1, 3] : tensor<1x8x1x64xbf16>
  %r = rlx.reshape %ot : tensor<1x1x8x64xbf16> -> tensor<1x1x512xbf16>
  return %r, %kc2, %vc2 : tensor<1x1x512xbf16>, tensor<1x256x2x64xbf16>, tensor<1x256x2x64xbf16>
}

