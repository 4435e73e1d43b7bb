// Programs of ops_check.py compiled with every intermediate in one planned
// device allocation (rlx-cuda-pipeline arena=1).

// f32 causal attention decomposed into two cuBLASLt products around a
// masked softmax whose mask value (-inf) is a scalar constant: memory
// planning rejected it ("memory planning needs statically shaped
// tensors") before scalar constants were left to the kernels.
func.func @attention_causal_f32_arena(%q: tensor<2x4x64x32xf32>, %k: tensor<2x4x64x32xf32>,
                                      %v: tensor<2x4x64x32xf32>) -> tensor<2x4x64x32xf32> {
  %o = rlx.attention %q, %k, %v mask = causal : tensor<2x4x64x32xf32>, tensor<2x4x64x32xf32>, tensor<2x4x64x32xf32>
  return %o : tensor<2x4x64x32xf32>
}
