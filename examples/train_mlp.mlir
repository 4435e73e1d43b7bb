// Training a small MLP classifier with rlx.grad: 50 steps of plain SGD
// (learning rate 0.5) on one batch, written as an rlx.scan whose body takes
// the gradient of the loss with respect to the four parameters and updates
// them. The scan stacks the loss of every step (before its update).
//
//   rlx-opt --rlx-expand-autodiff examples/train_mlp.mlir
//   rlx-run examples/train_mlp.mlir --input=x.npy --input=labels.npy \
//       --input=w1.npy --input=b1.npy --input=w2.npy --input=b2.npy \
//       --output=losses.npy --output=w1.npy ...
//
// test/Integration/train_mlp.py checks the loss trajectory against the
// same SGD loop in PyTorch.

// 8 features -> 32 (tanh) -> 4 classes, mean cross-entropy of a batch of 64.
func.func @loss(%w1: tensor<8x32xf32>, %b1: tensor<32xf32>,
                %w2: tensor<32x4xf32>, %b2: tensor<4xf32>,
                %x: tensor<64x8xf32>, %labels: tensor<64xi64>) -> tensor<f32> {
  %h0 = rlx.matmul %x, %w1 : tensor<64x8xf32>, tensor<8x32xf32>
  %h1 = rlx.add %h0, %b1 : tensor<64x32xf32>, tensor<32xf32>
  %h = rlx.tanh %h1 : tensor<64x32xf32>
  %o0 = rlx.matmul %h, %w2 : tensor<64x32xf32>, tensor<32x4xf32>
  %o = rlx.add %o0, %b2 : tensor<64x4xf32>, tensor<4xf32>
  %l = rlx.softmax_cross_entropy %o, %labels : tensor<64x4xf32>, tensor<64xi64>
  return %l : tensor<f32>
}

func.func @main(%x: tensor<64x8xf32>, %labels: tensor<64xi64>,
                %w1: tensor<8x32xf32>, %b1: tensor<32xf32>,
                %w2: tensor<32x4xf32>, %b2: tensor<4xf32>)
    -> (tensor<50xf32>, tensor<8x32xf32>, tensor<32xf32>, tensor<32x4xf32>,
        tensor<4xf32>) {
  %lr = rlx.constant dense<0.5> : tensor<f32>
  %r:5 = rlx.scan init(%w1, %b1, %w2, %b2 : tensor<8x32xf32>, tensor<32xf32>,
                       tensor<32x4xf32>, tensor<4xf32>) {length = 50}
      -> (tensor<8x32xf32>, tensor<32xf32>, tensor<32x4xf32>, tensor<4xf32>,
          tensor<50xf32>) {
  ^bb0(%a: tensor<8x32xf32>, %b: tensor<32xf32>, %c: tensor<32x4xf32>,
       %d: tensor<4xf32>):
    %l, %ga, %gb, %gc, %gd = rlx.grad @loss(%a, %b, %c, %d, %x, %labels)
        wrt [0, 1, 2, 3]
        : (tensor<8x32xf32>, tensor<32xf32>, tensor<32x4xf32>, tensor<4xf32>,
           tensor<64x8xf32>, tensor<64xi64>)
        -> (tensor<f32>, tensor<8x32xf32>, tensor<32xf32>, tensor<32x4xf32>,
            tensor<4xf32>)
    %sa = rlx.mul %ga, %lr : tensor<8x32xf32>, tensor<f32>
    %na = rlx.sub %a, %sa : tensor<8x32xf32>
    %sb = rlx.mul %gb, %lr : tensor<32xf32>, tensor<f32>
    %nb = rlx.sub %b, %sb : tensor<32xf32>
    %sc = rlx.mul %gc, %lr : tensor<32x4xf32>, tensor<f32>
    %nc = rlx.sub %c, %sc : tensor<32x4xf32>
    %sd = rlx.mul %gd, %lr : tensor<4xf32>, tensor<f32>
    %nd = rlx.sub %d, %sd : tensor<4xf32>
    rlx.yield %na, %nb, %nc, %nd, %l
        : tensor<8x32xf32>, tensor<32xf32>, tensor<32x4xf32>, tensor<4xf32>,
          tensor<f32>
  }
  return %r#4, %r#0, %r#1, %r#2, %r#3
      : tensor<50xf32>, tensor<8x32xf32>, tensor<32xf32>, tensor<32x4xf32>,
        tensor<4xf32>
}
