func.func @double(%x: tensor<8xf64>) -> tensor<8xf64> {
  %y = rlx.exp %x : tensor<8xf64>
  return %y : tensor<8xf64>
}
