func.func @mlp(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>, %b: tensor<32xf32>) -> tensor<8x32xf32> {
  %0 = rlx.matmul %x, %w : tensor<8x16xf32>, tensor<16x32xf32>
  %1 = rlx.add %0, %b : tensor<8x32xf32>, tensor<32xf32>
  %2 = rlx.gelu %1 : tensor<8x32xf32>
  return %2 : tensor<8x32xf32>
}
