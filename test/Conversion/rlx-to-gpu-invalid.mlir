// RUN: rlx-opt %s --split-input-file --rlx-to-gpu --verify-diagnostics

// Kernels are generated for static shapes only: a dynamic dim is an error
// at the op, not a kernel that guesses a size.
func.func @dynamic_rows(%x: tensor<?x256xf32>) -> tensor<?x256xf32> {
  // expected-error @+1 {{rlx-gpu-map-linalg: dynamic shapes are not supported yet}}
  %y = rlx.exp %x : tensor<?x256xf32>
  return %y : tensor<?x256xf32>
}
