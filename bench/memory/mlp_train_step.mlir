// One training step of a 3-layer MLP classifier (784 -> 512 -> 512 -> 10,
// relu, batch 128): forward, mean cross-entropy loss, and a backward written
// by hand, the comparison point for the one rlx.grad generates
// (mlp_train_step_grad.mlir) and a backward for test/Integration/arena.py to
// run from the arena. The backward reads the forward's activations, so they
// live across the whole step, as in a framework. Returns the loss and the
// six gradients; the parameters are rlx.params (the weight region).

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
  %zero = rlx.constant dense<0.0> : tensor<f32>
  %one = rlx.constant dense<1.0> : tensor<f32>

  // Forward.
  %a1 = rlx.matmul %x, %w1 : tensor<128x784xf32>, tensor<784x512xf32>
  %z1 = rlx.add %a1, %b1 : tensor<128x512xf32>, tensor<512xf32>
  %h1 = rlx.relu %z1 : tensor<128x512xf32>
  %a2 = rlx.matmul %h1, %w2 : tensor<128x512xf32>, tensor<512x512xf32>
  %z2 = rlx.add %a2, %b2 : tensor<128x512xf32>, tensor<512xf32>
  %h2 = rlx.relu %z2 : tensor<128x512xf32>
  %a3 = rlx.matmul %h2, %w3 : tensor<128x512xf32>, tensor<512x10xf32>
  %y = rlx.add %a3, %b3 : tensor<128x10xf32>, tensor<10xf32>
  %loss = rlx.softmax_cross_entropy %y, %labels : tensor<128x10xf32>, tensor<128xi64>

  // Backward: d loss / d logits, then each layer from the top; relu's
  // derivative is the mask h > 0.
  %dy = rlx.softmax_cross_entropy_backward %y, %labels, %one
      : tensor<128x10xf32>, tensor<128xi64>, tensor<f32>
  %dw3 = rlx.matmul %h2, %dy transpose_a true : tensor<128x512xf32>, tensor<128x10xf32>
  %db3 = rlx.reduce sum %dy axes = [0] : tensor<128x10xf32>
  %dh2 = rlx.matmul %dy, %w3 transpose_b true : tensor<128x10xf32>, tensor<512x10xf32>
  %m2 = rlx.cmp gt, %h2, %zero : tensor<128x512xf32>, tensor<f32>
  %dz2 = rlx.where %m2, %dh2, %zero : tensor<128x512xi1>, tensor<128x512xf32>, tensor<f32>
  %dw2 = rlx.matmul %h1, %dz2 transpose_a true : tensor<128x512xf32>, tensor<128x512xf32>
  %db2 = rlx.reduce sum %dz2 axes = [0] : tensor<128x512xf32>
  %dh1 = rlx.matmul %dz2, %w2 transpose_b true : tensor<128x512xf32>, tensor<512x512xf32>
  %m1 = rlx.cmp gt, %h1, %zero : tensor<128x512xf32>, tensor<f32>
  %dz1 = rlx.where %m1, %dh1, %zero : tensor<128x512xi1>, tensor<128x512xf32>, tensor<f32>
  %dw1 = rlx.matmul %x, %dz1 transpose_a true : tensor<128x784xf32>, tensor<128x512xf32>
  %db1 = rlx.reduce sum %dz1 axes = [0] : tensor<128x512xf32>
  return %loss, %dw1, %db1, %dw2, %db2, %dw3, %db3
      : tensor<f32>, tensor<784x512xf32>, tensor<512xf32>,
        tensor<512x512xf32>, tensor<512xf32>, tensor<512x10xf32>,
        tensor<10xf32>
}
