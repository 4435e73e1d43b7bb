// REQUIRES: target-cuda, cuda-toolkit
// UNSUPPORTED: sanitizers
// rlx-run --target=cuda compiles the program and links it with
// librlx_cuda_runtime, then stops: it has no CUDA runner (CI has no
// NVIDIA GPU), and says what runs the program instead.
// RUN: not rlx-run --target=cuda %s 2>&1 | FileCheck %s
// CHECK: rlx-run: error: --target=cuda: @add compiled and linked, but rlx-run has no runner for cuda programs: run it from Python with rlx.cuda (docs/CUDA.md), or link `rlx-compile --target=cuda`'s object with librlx_cuda_runtime

func.func @add(%x: tensor<64x256xf32>, %y: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %z = rlx.add %x, %y : tensor<64x256xf32>, tensor<64x256xf32>
  return %z : tensor<64x256xf32>
}
