// A row kernel: its reductions shuffle across a subgroup.
func.func @rows(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %y = rlx.softmax %x axis = -1 : tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}
