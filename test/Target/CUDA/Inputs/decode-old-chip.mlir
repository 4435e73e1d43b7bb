// cuda-pipeline-decode.mlir's case for a chip before sm_80: the
// decode-attention kernels are sm_80 and later code.
func.func @old_chip(%q: tensor<1x4x1x16xf32>, %kc: tensor<1x32x2x16xf32>, %len: tensor<i64>) -> tensor<1x4x1x16xf32> {
  // expected-error @+1 {{'rlx.decode_attention' op has no GPU lowering here: the target's runtime has no decode-attention kernel}}
  %o = rlx.decode_attention %q, %kc, %kc, %len {num_kv_heads = 2 : i64} : tensor<1x4x1x16xf32>, tensor<1x32x2x16xf32>, tensor<1x32x2x16xf32>, tensor<i64>
  return %o : tensor<1x4x1x16xf32>
}
