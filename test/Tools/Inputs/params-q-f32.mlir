// rlx-run-params.mlir: a quantized tensor read as floats.
func.func @main() -> tensor<2x256xf32> {
  %q = rlx.param "q" : tensor<2x256xf32>
  return %q : tensor<2x256xf32>
}
