// RUN: rlx-opt %s --rlx-plan-memory --rlx-lower-lir -verify-diagnostics

// The CPU path binds parameters as arguments; a weight slot is not lowered.
func.func @weights(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'rlx_lir.weight' op cannot run on the CPU path yet: bind parameters as arguments (--rlx-promote-params before --rlx-plan-memory)}}
  %w = "rlx.param"() {name = "w"} : () -> tensor<8x8xf32>
  %0 = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x8xf32>
  %1 = rlx.neg %0 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
