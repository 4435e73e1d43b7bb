// REQUIRES: cuda-toolkit
// RUN: rlx-opt %s --split-input-file --rlx-cuda-pipeline="chip=sm_90 format=isa" | FileCheck %s
// RUN: rlx-opt %s --split-input-file --rlx-cuda-pipeline="chip=sm_90 format=isa matmul=generated" | FileCheck %s --check-prefix=GEN

// matmul → add(bias) → tanh GELU in bf16: one cuBLASLt call with the
// GELU_BIAS epilogue (bf16 = 1, GELU_BIAS = 5; m, n, k = 256, 128, 64)
// writing the out-parameter: no kernel, no temporary, no copy. With
// matmul=generated the chain runs as generated kernels, the matmul on
// tensor cores (mma.sync, bf16 in, f32 accumulators).
// CHECK-LABEL: llvm.func @matmul_bias_gelu(
// CHECK-DAG:     %[[BF16:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG:     %[[GELU:.*]] = llvm.mlir.constant(5 : i32) : i32
// CHECK-DAG:     %[[M:.*]] = llvm.mlir.constant(256 : i64) : i64
// CHECK-DAG:     %[[N:.*]] = llvm.mlir.constant(128 : i64) : i64
// CHECK-DAG:     %[[K:.*]] = llvm.mlir.constant(64 : i64) : i64
// CHECK-NOT:     mgpuMemAlloc
// CHECK-NOT:     gpu.launch_func
// CHECK:         llvm.call @rlxGpuMatmul(%[[BF16]], %[[GELU]], %{{.*}}, %{{.*}}, %{{.*}}, %[[M]], %[[N]], %[[K]],
// CHECK-NOT:     gpu.launch_func
// CHECK:         llvm.return
// CHECK-NOT:     gpu.binary
// GEN-LABEL:   llvm.func @matmul_bias_gelu(
// GEN-NOT:       rlxGpuMatmul
// GEN:           gpu.launch_func
// GEN:           gpu.binary
// GEN:           mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
func.func @matmul_bias_gelu(%x: tensor<256x64xbf16>, %w: tensor<64x128xbf16>,
                            %b: tensor<128xbf16>) -> tensor<256x128xbf16> {
  %m = rlx.matmul %x, %w : tensor<256x64xbf16>, tensor<64x128xbf16>
  %a = rlx.add %m, %b : tensor<256x128xbf16>, tensor<128xbf16>
  %y = rlx.gelu %a {approximate = "tanh"} : tensor<256x128xbf16>
  return %y : tensor<256x128xbf16>
}

// -----

// The exact GELU is no epilogue: cuBLASLt adds the bias (BIAS = 1, f32 =
// 0) into a temporary, a kernel applies the GELU.
// CHECK-LABEL: llvm.func @matmul_bias_exact_gelu(
// CHECK:         llvm.call @mgpuMemAlloc
// CHECK:         llvm.call @rlxGpuMatmul
// CHECK:         gpu.launch_func
// CHECK-NOT:     gpu.launch_func
// CHECK:         gpu.binary
func.func @matmul_bias_exact_gelu(%x: tensor<256x64xf32>, %w: tensor<64x128xf32>,
                                  %b: tensor<128xf32>) -> tensor<256x128xf32> {
  %m = rlx.matmul %x, %w : tensor<256x64xf32>, tensor<64x128xf32>
  %a = rlx.add %m, %b : tensor<256x128xf32>, tensor<128xf32>
  %y = rlx.gelu %a : tensor<256x128xf32>
  return %y : tensor<256x128xf32>
}

// -----

// A matmul with a constant weight: cuBLASLt reads the runtime's device copy
// of it (rlxGpuConstant of the host global's address, 8 * 16 * 4 bytes).
// CHECK-LABEL: llvm.func @constant_weight(
// CHECK-DAG:     %[[BYTES:.*]] = llvm.mlir.constant(512 : i64) : i64
// CHECK-DAG:     llvm.mlir.addressof @__constant_8x16xf32
// CHECK:         llvm.call @rlxGpuConstant({{.*}}, %[[BYTES]])
// CHECK:         llvm.call @rlxGpuMatmul
func.func @constant_weight(%x: tensor<64x8xf32>) -> tensor<64x16xf32> {
  %w = rlx.constant dense<"0x000080BF000080BE0000003F000080BF000080BE0000003F000080BF000080BE0000003F000080BF000080BE0000003F000080BF000080BE0000003F000080BF0000803E0000803F000000BF0000803E0000803F000000BF0000803E0000803F000000BF0000803E0000803F000000BF0000803E0000803F000000BF0000803E000040BF000000000000403F000040BF000000000000403F000040BF000000000000403F000040BF000000000000403F000040BF000000000000403F000040BF0000003F000080BF000080BE0000003F000080BF000080BE0000003F000080BF000080BE0000003F000080BF000080BE0000003F000080BF000080BE0000003F000000BF0000803E0000803F000000BF0000803E0000803F000000BF0000803E0000803F000000BF0000803E0000803F000000BF0000803E0000803F000000BF0000403F000040BF000000000000403F000040BF000000000000403F000040BF000000000000403F000040BF000000000000403F000040BF000000000000403F000080BE0000003F000080BF000080BE0000003F000080BF000080BE0000003F000080BF000080BE0000003F000080BF000080BE0000003F000080BF000080BE0000803F000000BF0000803E0000803F000000BF0000803E0000803F000000BF0000803E0000803F000000BF0000803E0000803F000000BF0000803E0000803F"> : tensor<8x16xf32>
  %y = rlx.matmul %x, %w : tensor<64x8xf32>, tensor<8x16xf32>
  return %y : tensor<64x16xf32>
}
