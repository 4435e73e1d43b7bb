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

