// A first model: a dense layer with a GELU, a residual add and an RMS norm.
func.func @layer(%x: tensor<4x16xf32>, %w: tensor<16x16xf32>,
                %b: tensor<16xf32>, %g: tensor<16xf32>) -> tensor<4x16xf32> {
  %h0 = rlx.matmul %x, %w : tensor<4x16xf32>, tensor<16x16xf32>
  %h1 = rlx.add %h0, %b : tensor<4x16xf32>, tensor<16xf32>
  %h = rlx.gelu %h1 : tensor<4x16xf32>
  %r = rlx.add %h, %x : tensor<4x16xf32>, tensor<4x16xf32>
  %y = rlx.rms_norm %r, %g : tensor<4x16xf32>, tensor<16xf32>
  return %y : tensor<4x16xf32>
}
