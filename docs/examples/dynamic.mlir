// A function of a dynamic batch size: runs on the CPU, not on CUDA yet.
func.func @softmax_rows(%x: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %y = rlx.softmax %x axis = -1 : tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}
