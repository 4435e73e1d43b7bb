// An add whose operands do not broadcast: rlx-opt rejects it.
func.func @f(%a: tensor<4xf32>, %b: tensor<3xf32>) -> tensor<4xf32> {
  %c = rlx.add %a, %b : tensor<4xf32>, tensor<3xf32>
  return %c : tensor<4xf32>
}
