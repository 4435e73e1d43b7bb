// A two-layer MLP classifier in RLX MIR: 784 -> 256 (gelu) -> 10, with the
// mean cross-entropy loss of a batch of 32.
//
//   rlx-opt examples/mlp.mlir

func.func @mlp(%x: tensor<32x784xf32>, %w1: tensor<784x256xf32>,
               %b1: tensor<256xf32>, %w2: tensor<256x10xf32>,
               %b2: tensor<10xf32>) -> tensor<32x10xf32> {
  %h0 = rlx.matmul %x, %w1 : tensor<32x784xf32>, tensor<784x256xf32>
  %h1 = rlx.add %h0, %b1 : tensor<32x256xf32>, tensor<256xf32>
  %h = rlx.gelu %h1 : tensor<32x256xf32>
  %y0 = rlx.matmul %h, %w2 : tensor<32x256xf32>, tensor<256x10xf32>
  %y = rlx.add %y0, %b2 : tensor<32x10xf32>, tensor<10xf32>
  return %y : tensor<32x10xf32>
}

func.func @mlp_loss(%x: tensor<32x784xf32>, %w1: tensor<784x256xf32>,
                    %b1: tensor<256xf32>, %w2: tensor<256x10xf32>,
                    %b2: tensor<10xf32>, %labels: tensor<32xi64>)
    -> tensor<f32> {
  %logits = call @mlp(%x, %w1, %b1, %w2, %b2)
      : (tensor<32x784xf32>, tensor<784x256xf32>, tensor<256xf32>,
         tensor<256x10xf32>, tensor<10xf32>) -> tensor<32x10xf32>
  %loss = rlx.softmax_cross_entropy %logits, %labels
      : tensor<32x10xf32>, tensor<32xi64>
  return %loss : tensor<f32>
}
