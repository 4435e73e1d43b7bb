// RUN: rlx-opt %s -split-input-file --rlx-promote-params -verify-diagnostics

// Two params of one name must agree on the type (the op verifier reports it
// before the pass runs, at the second param, naming both types).
func.func @type_mismatch() -> (tensor<4xf32>, tensor<4xf16>) {
  // expected-note @+1 {{first use of "w"}}
  %a = rlx.param "w" : tensor<4xf32>
  // expected-error @+1 {{'rlx.param' op weight "w" has type 'tensor<4xf16>' here but 'tensor<4xf32>' at an earlier use}}
  %b = rlx.param "w" : tensor<4xf16>
  return %a, %b : tensor<4xf32>, tensor<4xf16>
}

// -----

// A promoted function must have no callers in the module: their calls would
// lack the new arguments.
// expected-error @+1 {{cannot promote the params of @layer: it is referenced in the module, and its callers would lack the new arguments}}
func.func @layer(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = rlx.param "w" : tensor<4xf32>
  %y = rlx.add %x, %w : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @model(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{referenced here}}
  %y = func.call @layer(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// A param inside a region isolated from the function cannot read a
// function argument.
func.func @isolated(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = rlx.custom_fn (%x) : (tensor<4xf32>) -> tensor<4xf32> fwd {
  ^bb0(%a: tensor<4xf32>):
    // expected-error @+1 {{cannot promote param "w": it lies in a region isolated from the function}}
    %w = rlx.param "w" : tensor<4xf32>
    %s = rlx.add %a, %w : tensor<4xf32>
    rlx.yield %s : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}
