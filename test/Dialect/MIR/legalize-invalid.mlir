// RUN: %if target-metal %{ rlx-opt %s -split-input-file -verify-diagnostics --rlx-legalize="target=metal" %}
// RUN: not rlx-opt %s --rlx-legalize="target=tpu" 2>&1 | FileCheck %s -DTARGETS="%rlx_targets" --check-prefix=ERR
// ERR: error: unknown target 'tpu' (registered: [[TARGETS]])

// Ops metal lacks and no rewrite removes: one error each.
func.func @spectral(%x: tensor<4x12xcomplex<f32>>, %a: tensor<3x3xf32>, %b: tensor<3x2xf32>) -> (tensor<4x12xcomplex<f32>>, tensor<3x2xf32>) {
  // expected-error @below {{'rlx.fft' is not supported by target 'metal'}}
  %f = rlx.fft %x : tensor<4x12xcomplex<f32>>
  // expected-error @below {{'rlx.dense_solve' is not supported by target 'metal'}}
  %s = rlx.dense_solve %a, %b : tensor<3x3xf32>, tensor<3x2xf32>
  return %f, %s : tensor<4x12xcomplex<f32>>, tensor<3x2xf32>
}

// -----

// A while without max_iterations cannot be unrolled.
func.func @unbounded_while(%x: tensor<f32>, %limit: tensor<f32>) -> tensor<f32> {
  // expected-error @below {{'rlx.while' is not supported by target 'metal'}}
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

// -----

// A dot_general of dynamic shape cannot be reshaped to a matmul.
func.func @dynamic_dot_general(%a: tensor<?x16xf32>, %b: tensor<16x8xf32>) -> tensor<?x8xf32> {
  // expected-error @below {{'rlx.dot_general' is not supported by target 'metal'}}
  %y = rlx.dot_general %a, %b batch [] x [] contracting [1] x [0] : tensor<?x16xf32>, tensor<16x8xf32>
  return %y : tensor<?x8xf32>
}

// -----

// Params are bound (specialized or promoted) before any target lowers.
func.func @param() -> tensor<4xf32> {
  // expected-error @below {{'rlx.param' is not supported by target 'metal'}}
  %w = rlx.param "w" : tensor<4xf32>
  return %w : tensor<4xf32>
}

// -----

// A non-trailing broadcast to a dynamic shape cannot be expanded.
func.func @dynamic_broadcast(%x: tensor<?x16xf32>, %c: tensor<?x1xf32>) -> tensor<?x16xf32> {
  // expected-error @below {{target 'metal' takes only trailing broadcasts, and this one has a dynamic result shape to expand to}}
  %s = rlx.sub %x, %c : tensor<?x16xf32>, tensor<?x1xf32>
  return %s : tensor<?x16xf32>
}

// -----

// A dynamic leading dim is fine for a trailing bias.
func.func @dynamic_bias(%x: tensor<?x16xf32>, %b: tensor<16xf32>) -> tensor<?x16xf32> {
  %s = rlx.add %x, %b : tensor<?x16xf32>, tensor<16xf32>
  return %s : tensor<?x16xf32>
}
