// The loss of a linear model and its gradient with respect to the weights.
func.func @loss(%w: tensor<4x2xf32>, %x: tensor<8x4xf32>,
                %t: tensor<8x2xf32>) -> tensor<f32> {
  %y = rlx.matmul %x, %w : tensor<8x4xf32>, tensor<4x2xf32>
  %d = rlx.sub %y, %t : tensor<8x2xf32>
  %s = rlx.mul %d, %d : tensor<8x2xf32>
  %l = rlx.reduce mean %s axes = [0, 1] : tensor<8x2xf32>
  return %l : tensor<f32>
}

func.func @main(%w: tensor<4x2xf32>, %x: tensor<8x4xf32>,
                %t: tensor<8x2xf32>) -> (tensor<f32>, tensor<4x2xf32>) {
  %l, %dw = rlx.grad @loss(%w, %x, %t) wrt [0]
      : (tensor<4x2xf32>, tensor<8x4xf32>, tensor<8x2xf32>)
      -> (tensor<f32>, tensor<4x2xf32>)
  return %l, %dw : tensor<f32>, tensor<4x2xf32>
}
