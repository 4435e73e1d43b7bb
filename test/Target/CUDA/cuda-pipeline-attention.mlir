// REQUIRES: cuda-toolkit
// RUN: rlx-opt %s --split-input-file --rlx-cuda-pipeline="chip=sm_90 format=isa" | FileCheck %s
// RUN: rlx-opt %s --split-input-file --rlx-cuda-pipeline="chip=sm_90 format=isa attention=decomposed" | FileCheck %s --check-prefix=DEC
// RUN: rlx-compile --target=cuda --dispatch-report %s -o %t.o 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: rlx-compile --target=cuda --gpu-attention=decomposed --dispatch-report %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NOFLASH
// RUN: rlx-compile --target=cuda --cuda-options="attention=decomposed dispatch-report=true" %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NOFLASH

// rlx-compile: --dispatch-report says where each attention went;
// --gpu-attention=decomposed, or attention=decomposed in --cuda-options,
// leaves them all to the other lowerings.
// REPORT:      remark: attention: flash kernel 'bf16' causal 2x8x2x256x256x64
// REPORT:      remark: attention: no flash kernel (element type f32; the kernel takes bf16 and f16)
// NOFLASH-NOT: attention:
// NOFLASH:     remark: matmul: library 'f32' 8x128x128x64
// NOFLASH-NOT: attention:

// bf16 causal grouped-query attention: one rlxFlashAttention call (bf16 =
// 0, causal = 1; batch 2, 8 heads over 2 kv heads, 256 rows, head dim 64,
// scale 1/8) writing the out-parameter: no generated kernel, no
// temporary. With attention=decomposed the masked attention stays a
// generated kernel.
// CHECK-LABEL: llvm.func @causal_gqa(
// CHECK-DAG:     %[[SCALE:.*]] = llvm.mlir.constant(1.250000e-01 : f32) : f32
// CHECK-DAG:     %[[BF16:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG:     %[[CAUSAL:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG:     %[[TWO:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-DAG:     %[[EIGHT:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK-DAG:     %[[SEQ:.*]] = llvm.mlir.constant(256 : i64) : i64
// CHECK-DAG:     %[[D:.*]] = llvm.mlir.constant(64 : i64) : i64
// CHECK-DAG:     %[[WINDOW:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NOT:     mgpuMemAlloc
// CHECK-NOT:     gpu.launch_func
// CHECK:         llvm.call @rlxFlashAttention(%[[BF16]], %[[CAUSAL]], %[[TWO]], %[[EIGHT]], %[[TWO]], %[[SEQ]], %[[SEQ]], %[[D]], %[[WINDOW]], %[[SCALE]],
// CHECK-NOT:     gpu.launch_func
// CHECK:         llvm.return
// CHECK-NOT:     gpu.binary
// CHECK-NOT:     mma.sync
// DEC-LABEL:   llvm.func @causal_gqa(
// DEC-NOT:       rlxFlashAttention
// DEC:           gpu.launch_func
// DEC:           gpu.binary
func.func @causal_gqa(%q: tensor<2x8x256x64xbf16>, %k: tensor<2x2x256x64xbf16>, %v: tensor<2x2x256x64xbf16>) -> tensor<2x8x256x64xbf16> {
  %o = rlx.attention %q, %k, %v mask = causal : tensor<2x8x256x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>
  return %o : tensor<2x8x256x64xbf16>
}

// -----

// Unmasked f32 attention is no flash kernel: it is decomposed into two
// cuBLASLt matmuls around a softmax kernel, as with attention=decomposed.
// CHECK-LABEL: llvm.func @unmasked_f32(
// CHECK-NOT:     rlxFlashAttention
// CHECK:         llvm.call @rlxGpuMatmul
// CHECK:         gpu.launch_func
// CHECK:         llvm.call @rlxGpuMatmul
// CHECK:         gpu.binary
func.func @unmasked_f32(%q: tensor<2x4x128x64xf32>, %k: tensor<2x4x128x64xf32>, %v: tensor<2x4x128x64xf32>) -> tensor<2x4x128x64xf32> {
  %o = rlx.attention %q, %k, %v mask = none : tensor<2x4x128x64xf32>, tensor<2x4x128x64xf32>, tensor<2x4x128x64xf32>
  return %o : tensor<2x4x128x64xf32>
}

// -----

// BERT's heads: q, k and v sliced out of one qkv projection and transposed
// to [batch, heads, seq, dim], the result transposed back and its heads
// merged. The kernel reads the slices and writes the result into the
// out-parameter in place: no transpose or copy kernel, no temporary; row
// strides 2304 (q, k, v) and 768 (o).
// CHECK-LABEL: llvm.func @heads_in_place(
// CHECK-DAG:     %[[ROW:.*]] = llvm.mlir.constant(2304 : i64) : i64
// CHECK-DAG:     %[[OROW:.*]] = llvm.mlir.constant(768 : i64) : i64
// CHECK-NOT:     mgpuMemAlloc
// CHECK-NOT:     gpu.launch_func
// CHECK:         llvm.call @rlxFlashAttention({{.*}}, %[[ROW]], {{.*}}, %[[ROW]], {{.*}}, %[[ROW]], {{.*}}, %[[OROW]])
// CHECK-NOT:     gpu.launch_func
// CHECK:         llvm.return
func.func @heads_in_place(%qkv: tensor<2x128x2304xbf16>) -> tensor<2x128x768xbf16> {
  %q0 = rlx.narrow %qkv axis = 2 start = 0 length = 768 : tensor<2x128x2304xbf16>
  %k0 = rlx.narrow %qkv axis = 2 start = 768 length = 768 : tensor<2x128x2304xbf16>
  %v0 = rlx.narrow %qkv axis = 2 start = 1536 length = 768 : tensor<2x128x2304xbf16>
  %q1 = rlx.reshape %q0 : tensor<2x128x768xbf16> -> tensor<2x128x12x64xbf16>
  %k1 = rlx.reshape %k0 : tensor<2x128x768xbf16> -> tensor<2x128x12x64xbf16>
  %v1 = rlx.reshape %v0 : tensor<2x128x768xbf16> -> tensor<2x128x12x64xbf16>
  %q = rlx.transpose %q1 [0, 2, 1, 3] : tensor<2x128x12x64xbf16>
  %k = rlx.transpose %k1 [0, 2, 1, 3] : tensor<2x128x12x64xbf16>
  %v = rlx.transpose %v1 [0, 2, 1, 3] : tensor<2x128x12x64xbf16>
  %a = rlx.attention %q, %k, %v mask = none : tensor<2x12x128x64xbf16>, tensor<2x12x128x64xbf16>, tensor<2x12x128x64xbf16>
  %a1 = rlx.transpose %a [0, 2, 1, 3] : tensor<2x12x128x64xbf16>
  %a2 = rlx.reshape %a1 : tensor<2x128x12x64xbf16> -> tensor<2x128x768xbf16>
  return %a2 : tensor<2x128x768xbf16>
}
