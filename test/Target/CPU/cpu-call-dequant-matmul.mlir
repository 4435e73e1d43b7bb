// RUN: rlx-opt %s --rlx-cpu-call-dequant-matmul --split-input-file -verify-diagnostics | FileCheck %s

// The body goes; a fresh buffer and the runtime call on the addresses and
// extents take its place. The tag goes too.
// CHECK-LABEL: func.func private @rlx_cpu_dequant_matmul(!llvm.ptr, i64, i64, !llvm.ptr, i64, !llvm.ptr, i32)
// CHECK-LABEL: func.func private @rlx_dequant_matmul_gguf_q8_0(
// CHECK-SAME:    %[[X:.+]]: memref<?x64xf32>, %[[W:.+]]: memref<16x68xui8>) -> memref<?x16xf32> {
// CHECK:         %[[M:.+]] = memref.dim %[[X]], %c0
// CHECK:         %[[OUT:.+]] = memref.alloc(%[[M]]) {alignment = 64 : i64} : memref<?x16xf32>
// CHECK:         memref.extract_aligned_pointer_as_index %[[X]]
// CHECK:         memref.extract_aligned_pointer_as_index %[[W]]
// CHECK:         memref.extract_aligned_pointer_as_index %[[OUT]]
// CHECK:         %[[CODE:.+]] = arith.constant 1 : i32
// CHECK:         call @rlx_cpu_dequant_matmul(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[CODE]])
// CHECK-NOT:     memref.copy
// CHECK:         return %[[OUT]] : memref<?x16xf32>
// CHECK-LABEL: func.func @caller(
// CHECK:         call @rlx_dequant_matmul_gguf_q8_0
// CHECK-NOT:     rlx.cpu_dequant_matmul
func.func private @rlx_dequant_matmul_gguf_q8_0(%x: memref<?x64xf32>, %w: memref<16x68xui8>)
    -> memref<?x16xf32> attributes {rlx.cpu_dequant_matmul = 1 : i32} {
  %c0 = arith.constant 0 : index
  %m = memref.dim %x, %c0 : memref<?x64xf32>
  %y = memref.alloc(%m) : memref<?x16xf32>
  %d = memref.alloc() : memref<16x64xf32>
  memref.copy %d, %d : memref<16x64xf32> to memref<16x64xf32>
  memref.dealloc %d : memref<16x64xf32>
  return %y : memref<?x16xf32>
}
func.func @caller(%x: memref<3x64xf32>, %w: memref<16x68xui8>) -> memref<?x16xf32> {
  %c = memref.cast %x : memref<3x64xf32> to memref<?x64xf32>
  %y = call @rlx_dequant_matmul_gguf_q8_0(%c, %w)
      : (memref<?x64xf32>, memref<16x68xui8>) -> memref<?x16xf32>
  return %y : memref<?x16xf32>
}

// -----

// Still on tensors: the pass runs after bufferization.
// expected-error @below {{'func.func' op tagged rlx.cpu_dequant_matmul must take two row-major 2-D buffers and return one (run after bufferization)}}
func.func private @early(%x: tensor<2x32xf32>, %w: tensor<4x34xui8>)
    -> tensor<2x4xf32> attributes {rlx.cpu_dequant_matmul = 1 : i32} {
  %y = rlx.dequant_matmul #rlx.quant<gguf_q8_0> %x, %w
      : tensor<2x32xf32>, tensor<4x34xui8>
  return %y : tensor<2x4xf32>
}

// -----

// A strided buffer is no row-major one.
// expected-error @below {{must take two row-major 2-D buffers}}
func.func private @strided(%x: memref<2x32xf32, strided<[64, 1]>>, %w: memref<4x34xui8>)
    -> memref<2x4xf32> attributes {rlx.cpu_dequant_matmul = 1 : i32} {
  %y = memref.alloc() : memref<2x4xf32>
  return %y : memref<2x4xf32>
}
