// RUN: rlx-opt %s --rlx-expand-autodiff="unused-wrt=error" -verify-diagnostics

// With unused-wrt=error, a 'wrt' argument that does not reach the loss is
// an error instead of a zero gradient.
func.func @loss(%x: tensor<4xf32>, %unused: tensor<4xf32>) -> tensor<f32> {
  %s = rlx.reduce sum %x axes = [0] : tensor<4xf32>
  return %s : tensor<f32>
}

func.func @main(%x: tensor<4xf32>, %u: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{argument #1 named in 'wrt' does not affect the loss of 'loss' (unused-wrt=error)}}
  %l, %dx, %du = rlx.grad @loss(%x, %u) wrt [0, 1]
      : (tensor<4xf32>, tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>, tensor<4xf32>)
  return %du : tensor<4xf32>
}
