// RUN: rlx-opt %s --rlx-expand-autodiff --split-input-file -verify-diagnostics

// An op on the path from the argument to the loss without a rule (the
// fft family has none yet; complex values do not cut the derivative).
func.func @loss(%x: tensor<3x8xf32>) -> tensor<f32> {
  %c = rlx.rfft %x : tensor<3x8xf32>
  // expected-error @+1 {{'rlx.irfft' op has no differentiation rule}}
  %y = rlx.irfft %c n = 8 : tensor<3x5xcomplex<f32>>
  %s = rlx.reduce sum %y axes = [0, 1] : tensor<3x8xf32>
  return %s : tensor<f32>
}

func.func @main(%x: tensor<3x8xf32>) -> tensor<3x8xf32> {
  // expected-note @+1 {{needed to differentiate 'loss' here}}
  %l, %dx = rlx.grad @loss(%x) wrt [0]
      : (tensor<3x8xf32>) -> (tensor<f32>, tensor<3x8xf32>)
  return %dx : tensor<3x8xf32>
}

// -----

// A callee without a body.
func.func private @external(%x: tensor<4xf32>) -> tensor<f32>

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{cannot differentiate 'external': it has no single-block body}}
  %l, %dx = rlx.grad @external(%x) wrt [0]
      : (tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
  return %dx : tensor<4xf32>
}

// -----

// A function that differentiates itself.
func.func @self(%x: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+1 {{differentiates a function that reaches itself through transforms or calls}}
  %l, %dx = rlx.grad @self(%x) wrt [0]
      : (tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
  return %l : tensor<f32>
}
