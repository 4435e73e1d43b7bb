// rlx-run-params.mlir: w [2, 4] read as [4, 2].
func.func @main() -> tensor<4x2xf32> {
  %w = rlx.param "w" : tensor<4x2xf32>
  return %w : tensor<4x2xf32>
}
