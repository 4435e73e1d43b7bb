// RUN: rlx-opt %s --split-input-file --rlx-rocm-pipeline="chip=gfx942" -verify-diagnostics
// RUN: rlx-opt %s --split-input-file --rlx-rocm-pipeline="chip=gfx1100" -verify-diagnostics
// RUN: not rlx-opt %s --rlx-rocm-pipeline="chip=gfx9001" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not rlx-opt %s --rlx-rocm-pipeline="chip=sm_90" 2>&1 | FileCheck %s --check-prefix=CUDA-CHIP
// RUN: not rlx-compile --target=rocm --chip=gfx9001 %s -o %t.o 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not rlx-compile --target=rocm --rocm-options='chip=gfx942 unknown-option=1' %s -o %t.o 2>&1 | FileCheck %s --check-prefix=OPTIONS

// CHIP: error: unknown ROCm chip 'gfx9001' (expected gfx90a, gfx942, gfx1100)
// CUDA-CHIP: error: unknown ROCm chip 'sm_90'
// OPTIONS: rlx-compile: error: bad --rocm-options

// A parameter has no value on the device: the rocm target does not claim
// rlx.param, which ends at the op.
func.func @param() -> tensor<4xf32> {
  // expected-error @+1 {{'rlx.param' is not supported by target 'rocm'}}
  %p = rlx.param "w" : tensor<4xf32>
  return %p : tensor<4xf32>
}


// -----

// The kernels have static sizes: a dynamic shape ends at its op.
func.func @dynamic(%x: tensor<?x16xf32>, %y: tensor<?x16xf32>) -> tensor<?x16xf32> {
  // expected-error @+1 {{'rlx.add' with a dynamic shape is not supported by target 'rocm' (static shapes only)}}
  %z = rlx.add %x, %y : tensor<?x16xf32>, tensor<?x16xf32>
  return %z : tensor<?x16xf32>
}

// -----

// A loop whose trip count depends on the values, with no bound to unroll
// to, would carry buffers through a host loop: rocm does not claim it.
func.func @while_unbounded(%x: tensor<f32>, %limit: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'rlx.while' is not supported by target 'rocm'}}
  %r = rlx.while (%x) : (tensor<f32>) cond {
  ^bb0(%a: tensor<f32>):
    %p = rlx.cmp lt, %a, %limit : tensor<f32>
    rlx.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<f32>):
    %n = rlx.add %a, %a : tensor<f32>
    rlx.yield %n : tensor<f32>
  }
  return %r : tensor<f32>
}
