// RUN: not rlx-opt %s --rlx-insert-fake-quant="bits=1" 2>&1 | FileCheck %s --check-prefix=BITS
// RUN: not rlx-opt %s --rlx-insert-fake-quant="ste=straight" 2>&1 | FileCheck %s --check-prefix=STE

// BITS: error: rlx-insert-fake-quant: bits must be in [2, 16], got 1
// STE: error: rlx-insert-fake-quant: ste must be identity, clipped_identity, tanh or hard_tanh, got 'straight'
func.func @f(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %y = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x2xf32>
  return %y : tensor<4x2xf32>
}
