// cuda-pipeline-decode.mlir's case for arena=1: the arena's program has no
// outlined cache writes or decode attention, and its host code would read
// the position in device memory: an error at the op.
func.func @step(%kc: tensor<1x64x2x16xbf16>, %k: tensor<1x1x2x16xbf16>, %pos: tensor<i64>) -> tensor<1x64x2x16xbf16> {
  // expected-error @+1 {{rlx-gpu-map-linalg: host code reads or writes a device buffer}}
  %c = rlx.kv_cache_write %kc, %k, %pos : tensor<1x64x2x16xbf16>, tensor<1x1x2x16xbf16>, tensor<i64>
  return %c : tensor<1x64x2x16xbf16>
}
