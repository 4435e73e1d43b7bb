// REQUIRES: cuda-toolkit
// RUN: rlx-opt %s --split-input-file --rlx-cuda-pipeline -verify-diagnostics
// RUN: not rlx-compile --target=cuda %S/../../../docs/examples/dynamic.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=COMPILE

// The GPU front's kernels have static sizes: the cuda target claims no
// dynamic shape, so rlx-legalize ends one at its op (before, the front
// refused it inside rlx-gpu-map-linalg, with the linalg op as its note).
// COMPILE: dynamic.mlir:3:8: error: 'rlx.softmax' with a dynamic shape is not supported by target 'cuda' (static shapes only)
func.func @dynamic(%x: tensor<?x16xf32>, %y: tensor<?x16xf32>) -> tensor<?x16xf32> {
  // expected-error @+1 {{'rlx.add' with a dynamic shape is not supported by target 'cuda' (static shapes only)}}
  %z = rlx.add %x, %y : tensor<?x16xf32>, tensor<?x16xf32>
  return %z : tensor<?x16xf32>
}

// -----

// A parameter has no value on the device.
func.func @param() -> tensor<4xf32> {
  // expected-error @+1 {{'rlx.param' is not supported by target 'cuda'}}
  %p = rlx.param "w" : tensor<4xf32>
  return %p : tensor<4xf32>
}
