// rlx-run-params.mlir: Q4_0 and Q4_K rows of 256 weights are both 144
// bytes; the scheme check keeps a Q4_0 tensor from decoding as q4_K.
func.func @main(%x: tensor<1x256xf32>) -> tensor<1x2xf32> {
  %q = rlx.param "q" : tensor<2x144xui8>
  %y = rlx.dequant_matmul #rlx.quant<gguf_q4_k> %x, %q : tensor<1x256xf32>, tensor<2x144xui8>
  return %y : tensor<1x2xf32>
}
