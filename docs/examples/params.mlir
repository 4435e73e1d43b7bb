// A dense layer whose weights are named parameters, not arguments.
func.func @dense(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %w = rlx.param "w" : tensor<16x16xf32>
  %b = rlx.param "b" : tensor<16xf32>
  %h = rlx.matmul %x, %w : tensor<4x16xf32>, tensor<16x16xf32>
  %y = rlx.add %h, %b : tensor<4x16xf32>, tensor<16xf32>
  return %y : tensor<4x16xf32>
}
