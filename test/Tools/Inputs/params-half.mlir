// rlx-run-params.mlir: w bound to the f16 tensor h through --param-map.
func.func @main() -> tensor<2x4xf16> {
  %w = rlx.param "w" : tensor<2x4xf16>
  return %w : tensor<2x4xf16>
}
