// A force/energy training loss, as RLX trains interatomic potentials:
//   loss = w_f * MSE(-dE/dpos, F_ref) + w_e * MSE(E, E_ref)
// where E(pos) is an MLP potential (per-atom energies, summed). The forces
// are an rlx.grad inside the loss, so the gradient of the loss with respect
// to the weights (@main) is a second-order derivative through the MLP.
//
//   rlx-opt --rlx-expand-autodiff examples/force_energy.mlir
//
// test/Integration/force_energy.py checks @main against PyTorch
// (torch.autograd.grad with create_graph=True) in float64.

// E = sum_atoms tanh(pos W1 + b1) W2
func.func @energy(%pos: tensor<8x3xf64>, %w1: tensor<3x16xf64>,
                  %b1: tensor<16xf64>, %w2: tensor<16x1xf64>) -> tensor<f64> {
  %h0 = rlx.matmul %pos, %w1 : tensor<8x3xf64>, tensor<3x16xf64>
  %h1 = rlx.add %h0, %b1 : tensor<8x16xf64>, tensor<16xf64>
  %h = rlx.tanh %h1 : tensor<8x16xf64>
  %e = rlx.matmul %h, %w2 : tensor<8x16xf64>, tensor<16x1xf64>
  %E = rlx.reduce sum %e axes = [0, 1] : tensor<8x1xf64>
  return %E : tensor<f64>
}

func.func @loss(%w1: tensor<3x16xf64>, %b1: tensor<16xf64>,
                %w2: tensor<16x1xf64>, %pos: tensor<8x3xf64>,
                %f_ref: tensor<8x3xf64>, %e_ref: tensor<f64>) -> tensor<f64> {
  %E, %dE = rlx.grad @energy(%pos, %w1, %b1, %w2) wrt [0]
      : (tensor<8x3xf64>, tensor<3x16xf64>, tensor<16xf64>, tensor<16x1xf64>)
      -> (tensor<f64>, tensor<8x3xf64>)
  %F = rlx.neg %dE : tensor<8x3xf64>
  %df = rlx.sub %F, %f_ref : tensor<8x3xf64>
  %df2 = rlx.mul %df, %df : tensor<8x3xf64>
  %mse_f = rlx.reduce mean %df2 axes = [0, 1] : tensor<8x3xf64>
  %de = rlx.sub %E, %e_ref : tensor<f64>
  %mse_e = rlx.mul %de, %de : tensor<f64>
  %w_f = rlx.constant dense<0.9> : tensor<f64>
  %w_e = rlx.constant dense<0.1> : tensor<f64>
  %lf = rlx.mul %w_f, %mse_f : tensor<f64>
  %le = rlx.mul %w_e, %mse_e : tensor<f64>
  %l = rlx.add %lf, %le : tensor<f64>
  return %l : tensor<f64>
}

func.func @main(%w1: tensor<3x16xf64>, %b1: tensor<16xf64>,
                %w2: tensor<16x1xf64>, %pos: tensor<8x3xf64>,
                %f_ref: tensor<8x3xf64>, %e_ref: tensor<f64>)
    -> (tensor<f64>, tensor<3x16xf64>, tensor<16xf64>, tensor<16x1xf64>) {
  %l, %g1, %gb, %g2 = rlx.grad @loss(%w1, %b1, %w2, %pos, %f_ref, %e_ref)
      wrt [0, 1, 2]
      : (tensor<3x16xf64>, tensor<16xf64>, tensor<16x1xf64>, tensor<8x3xf64>,
         tensor<8x3xf64>, tensor<f64>)
      -> (tensor<f64>, tensor<3x16xf64>, tensor<16xf64>, tensor<16x1xf64>)
  return %l, %g1, %gb, %g2
      : tensor<f64>, tensor<3x16xf64>, tensor<16xf64>, tensor<16x1xf64>
}
