// Three kernels with a 64x48xf32 intermediate between them, which the
// host code allocates and frees at each call.
func.func @mm_softmax(%x: tensor<64x32xf32>, %w: tensor<32x48xf32>) -> tensor<64x48xf32> {
  %m = rlx.matmul %x, %w : tensor<64x32xf32>, tensor<32x48xf32>
  %t = rlx.transpose %m [1, 0] : tensor<64x48xf32>
  %s = rlx.softmax %t axis = -1 : tensor<48x64xf32>
  %u = rlx.transpose %s [1, 0] : tensor<48x64xf32>
  return %u : tensor<64x48xf32>
}
