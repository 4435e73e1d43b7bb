// A layer whose weight is GGUF Q4_0 packed rows: 8 outputs of 64 inputs,
// two 18-byte blocks per row.
func.func @up(%x: tensor<4x64xf32>) -> tensor<4x8xf32> {
  %w = rlx.param "w" : tensor<8x36xui8>
  %y = rlx.dequant_matmul #rlx.quant<gguf_q4_0> %x, %w : tensor<4x64xf32>, tensor<8x36xui8>
  return %y : tensor<4x8xf32>
}
