// One training step of the MLP of mlp_train_step.mlir (784 -> 512 -> 512
// -> 10, relu, batch 128, mean cross-entropy) with its backward generated
// by rlx.grad. bench.py plans @mlp_train_step after --rlx-expand-autodiff
// and --inline: the forward and the reverse sweep in the step itself, its
// parameters rlx.params of the step (the weight region).

func.func private @loss(%w1: tensor<784x512xf32>, %b1: tensor<512xf32>,
                %w2: tensor<512x512xf32>, %b2: tensor<512xf32>,
                %w3: tensor<512x10xf32>, %b3: tensor<10xf32>,
                %x: tensor<128x784xf32>, %labels: tensor<128xi64>) -> tensor<f32> {
  %a1 = rlx.matmul %x, %w1 : tensor<128x784xf32>, tensor<784x512xf32>
  %z1 = rlx.add %a1, %b1 : tensor<128x512xf32>, tensor<512xf32>
  %h1 = rlx.relu %z1 : tensor<128x512xf32>
  %a2 = rlx.matmul %h1, %w2 : tensor<128x512xf32>, tensor<512x512xf32>
  %z2 = rlx.add %a2, %b2 : tensor<128x512xf32>, tensor<512xf32>
  %h2 = rlx.relu %z2 : tensor<128x512xf32>
  %a3 = rlx.matmul %h2, %w3 : tensor<128x512xf32>, tensor<512x10xf32>
  %y = rlx.add %a3, %b3 : tensor<128x10xf32>, tensor<10xf32>
  %l = rlx.softmax_cross_entropy %y, %labels : tensor<128x10xf32>, tensor<128xi64>
  return %l : tensor<f32>
}

func.func @mlp_train_step(%x: tensor<128x784xf32>, %labels: tensor<128xi64>)
    -> (tensor<f32>, tensor<784x512xf32>, tensor<512xf32>,
        tensor<512x512xf32>, tensor<512xf32>, tensor<512x10xf32>,
        tensor<10xf32>) {
  %w1 = "rlx.param"() {name = "w1"} : () -> tensor<784x512xf32>
  %b1 = "rlx.param"() {name = "b1"} : () -> tensor<512xf32>
  %w2 = "rlx.param"() {name = "w2"} : () -> tensor<512x512xf32>
  %b2 = "rlx.param"() {name = "b2"} : () -> tensor<512xf32>
  %w3 = "rlx.param"() {name = "w3"} : () -> tensor<512x10xf32>
  %b3 = "rlx.param"() {name = "b3"} : () -> tensor<10xf32>
  %l, %g1, %gb1, %g2, %gb2, %g3, %gb3 = rlx.grad @loss(%w1, %b1, %w2, %b2, %w3, %b3, %x, %labels) wrt [0, 1, 2, 3, 4, 5]
      : (tensor<784x512xf32>, tensor<512xf32>, tensor<512x512xf32>, tensor<512xf32>, tensor<512x10xf32>, tensor<10xf32>, tensor<128x784xf32>, tensor<128xi64>)
      -> (tensor<f32>, tensor<784x512xf32>, tensor<512xf32>, tensor<512x512xf32>, tensor<512xf32>, tensor<512x10xf32>, tensor<10xf32>)
  return %l, %g1, %gb1, %g2, %gb2, %g3, %gb3
      : tensor<f32>, tensor<784x512xf32>, tensor<512xf32>,
        tensor<512x512xf32>, tensor<512xf32>, tensor<512x10xf32>,
        tensor<10xf32>
}
