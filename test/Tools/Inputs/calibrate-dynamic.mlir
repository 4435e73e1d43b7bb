// A batch of rlx-run-calibrate.mlir may be empty where a dim is dynamic.
func.func @dynamic(%x: tensor<?x8xf32>, %y: tensor<8x3xf32>) -> tensor<?x3xf32> {
  %z = rlx.matmul %x, %y : tensor<?x8xf32>, tensor<8x3xf32>
  return %z : tensor<?x3xf32>
}
