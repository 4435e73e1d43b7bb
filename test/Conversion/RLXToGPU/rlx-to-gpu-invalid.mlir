// REQUIRES: target-cuda
// RUN: rlx-opt %s --split-input-file --rlx-to-gpu --verify-diagnostics

// Kernels are generated for static shapes only: a dynamic dim is an error
// at the op (the cuda target claims no dynamic shape; the front's own
// check is in gpu-map-linalg.mlir), not a kernel that guesses a size.
func.func @dynamic_rows(%x: tensor<?x256xf32>) -> tensor<?x256xf32> {
  // expected-error @+1 {{'rlx.exp' with a dynamic shape is not supported by target 'cuda' (static shapes only)}}
  %y = rlx.exp %x : tensor<?x256xf32>
  return %y : tensor<?x256xf32>
}

// -----

// Ops the cuda target does not claim are errors at the op (rlx-legalize
// target=cuda at the front of the pipeline), not failures deep in
// bufferization or kernel mapping: a scan carries buffers through a host
// loop, topk too.
func.func @scan(%h0: tensor<4xf32>, %x: tensor<10x4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'rlx.scan' is not supported by target 'cuda'}}
  %h, %ys = rlx.scan init(%h0 : tensor<4xf32>) xs(%x : tensor<10x4xf32>)
      -> (tensor<4xf32>, tensor<10x4xf32>) {
  ^bb0(%c: tensor<4xf32>, %xt: tensor<4xf32>):
    %n = rlx.add %c, %xt : tensor<4xf32>
    rlx.yield %n, %n : tensor<4xf32>, tensor<4xf32>
  }
  return %h : tensor<4xf32>
}

// -----

func.func @topk(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'rlx.topk' is not supported by target 'cuda'}}
  %v, %i = rlx.topk %x k = 2 axis = -1 : tensor<4x8xf32>
  return %v : tensor<4x2xf32>
}
