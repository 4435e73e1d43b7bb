// REQUIRES: target-rocm
// UNSUPPORTED: sanitizers
// rlx-run --target=rocm compiles the program and links it with
// librlx_rocm_runtime, then stops: it has no ROCm runner (and CI no AMD
// GPU), and says what runs the program instead.
// RUN: not rlx-run --target=rocm --entry=add %s --seed=1 2>&1 | FileCheck %s
// CHECK: rlx-run: error: --target=rocm: @add compiled and linked, but rlx-run has no runner for rocm programs: link `rlx-compile --target=rocm`'s object with librlx_rocm_runtime into a program of your own, on a machine with ROCm (docs/ROCm.md)

// A program the target does not claim ends at the op.
// RUN: not rlx-run --target=rocm --entry=unclaimed %s 2>&1 | FileCheck %s --check-prefix=UNCLAIMED
// UNCLAIMED: error: 'rlx.topk' is not supported by target 'rocm'

func.func @add(%x: tensor<64x256xf32>, %y: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %z = rlx.add %x, %y : tensor<64x256xf32>, tensor<64x256xf32>
  return %z : tensor<64x256xf32>
}

func.func @unclaimed(%x: tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xi64>) {
  %v, %i = rlx.topk %x k = 2 axis = -1 : tensor<4x8xf32>
  return %v, %i : tensor<4x2xf32>, tensor<4x2xi64>
}
