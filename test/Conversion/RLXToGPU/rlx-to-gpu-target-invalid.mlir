// REQUIRES: target-cuda
// RUN: rlx-opt %s --rlx-to-gpu="shared-memory-bytes=32" -verify-diagnostics

// A row group whose reductions need more workgroup memory than the target
// description allows is an error at the group: softmax over rows of 4096
// f32 in blocks of 256 threads combines its max and its sum through one
// f32 word per 32-lane subgroup each, 2 x 8 x 4 = 64 bytes.
func.func @softmax(%x: tensor<8x4096xf32>) -> tensor<8x4096xf32> {
  // expected-error @below {{rlx-gpu-map-linalg: the row group's reductions need 64 bytes of workgroup memory, more than the target's 32}}
  %y = rlx.softmax %x axis = -1 : tensor<8x4096xf32>
  return %y : tensor<8x4096xf32>
}
