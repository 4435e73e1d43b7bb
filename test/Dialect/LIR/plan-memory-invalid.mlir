// RUN: rlx-opt %s -split-input-file --rlx-plan-memory -verify-diagnostics

// Planning needs static shapes.
func.func @dynamic(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  // expected-error @+1 {{'rlx.neg' op has result type 'tensor<?x8xf32>'; memory planning needs statically shaped tensors}}
  %0 = rlx.neg %x : tensor<?x8xf32>
  %1 = rlx.neg %0 : tensor<?x8xf32>
  return %1 : tensor<?x8xf32>
}

// -----

// One parameter name, one size.
func.func @a() -> tensor<4xf32> {
  %w = "rlx.param"() {name = "w"} : () -> tensor<8xf32>
  %y = rlx.narrow %w axis = 0 start = 0 length = 4 : tensor<8xf32>
  %z = rlx.neg %y : tensor<4xf32>
  return %z : tensor<4xf32>
}
func.func @b() -> tensor<4xf32> {
  // expected-error @+1 {{'rlx.param' op names weight 'w' of 16 bytes, which is 32 bytes elsewhere in the module}}
  %w = "rlx.param"() {name = "w"} : () -> tensor<4xf32>
  %z = rlx.neg %w : tensor<4xf32>
  return %z : tensor<4xf32>
}

// -----

// A parameter stays in the weight region.
func.func @returns_param() -> tensor<4xf32> {
  // expected-error @+1 {{'rlx.param' op is returned as is; a parameter stays in the weight region (return a copy)}}
  %w = "rlx.param"() {name = "w"} : () -> tensor<4xf32>
  return %w : tensor<4xf32>
}
