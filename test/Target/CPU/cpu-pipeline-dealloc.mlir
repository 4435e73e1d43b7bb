// RUN: rlx-opt %s --rlx-cpu-pipeline="threads=1" | FileCheck %s

// Each intermediate is freed after the last kernel that reads it, not when
// the function returns (upstream's deallocation frees at the end of the
// block): the first tanh's buffer goes before the second product runs, the
// second's before the third.
// CHECK-LABEL: llvm.func @chain(
// CHECK:         llvm.call @chain_kernel1(
// CHECK:         llvm.call @chain_kernel2(
// CHECK:         llvm.call @_mlir_memref_to_llvm_free(
// CHECK:         llvm.call @chain_kernel1(
// CHECK:         llvm.call @chain_kernel2(
// CHECK:         llvm.call @_mlir_memref_to_llvm_free(
// CHECK:         llvm.call @chain_kernel1(
// CHECK:         llvm.call @_mlir_memref_to_llvm_free(
// CHECK-NEXT:    llvm.return
func.func @chain(%x: tensor<64x256xf32>, %w: tensor<256x256xf32>) -> tensor<64x256xf32> {
  %a = rlx.matmul %x, %w : tensor<64x256xf32>, tensor<256x256xf32>
  %b = rlx.tanh %a : tensor<64x256xf32>
  %c = rlx.matmul %b, %w : tensor<64x256xf32>, tensor<256x256xf32>
  %d = rlx.tanh %c : tensor<64x256xf32>
  %e = rlx.matmul %d, %w : tensor<64x256xf32>, tensor<256x256xf32>
  return %e : tensor<64x256xf32>
}
