// RUN: rlx-opt %s --rlx-cpu-pipeline=arena=true | FileCheck %s --check-prefix=ARENA
// RUN: rlx-opt %s --rlx-cpu-pipeline | FileCheck %s --check-prefix=MIR

// From the arena, a chain of five ops on 64x64 f32 (16 KiB each, above the
// 4 KiB that go on the stack) makes exactly two heap allocations: the arena
// (two 16 KiB buffers live at once: 32 KiB) and the returned result. As MIR
// (with elementwise fusion), the matmuls' outputs have their own.

// ARENA-LABEL: llvm.func @chain
// ARENA-COUNT-2: llvm.call @_mlir_memref_to_llvm_alloc
// ARENA-NOT: llvm.call @_mlir_memref_to_llvm_alloc
// ARENA: llvm.return

// MIR-LABEL: llvm.func @chain
// MIR-COUNT-3: llvm.call @_mlir_memref_to_llvm_alloc
func.func @chain(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>, %b: tensor<64xf32>) -> tensor<64x64xf32> {
  %0 = rlx.matmul %x, %w : tensor<64x64xf32>, tensor<64x64xf32>
  %1 = rlx.add %0, %b : tensor<64x64xf32>, tensor<64xf32>
  %2 = rlx.gelu %1 : tensor<64x64xf32>
  %3 = rlx.matmul %2, %w : tensor<64x64xf32>, tensor<64x64xf32>
  %4 = rlx.add %3, %x : tensor<64x64xf32>
  return %4 : tensor<64x64xf32>
}
