// RUN: not rlx-opt %s --rlx-data-parallel="grid-size=0" 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: rlx-opt %s --rlx-data-parallel="grid-size=2" --verify-diagnostics

// ZERO: error: rlx-data-parallel: grid-size must be at least 1, got 0

// expected-error @+1 {{@rlx_data_parallel is not a grid of 2 devices, which rlx-data-parallel averages over}}
shard.grid @rlx_data_parallel(shape = 4)
func.func @loss(%w: tensor<4xf32>) -> tensor<f32> {
  %s = rlx.reduce sum %w axes = [0] : tensor<4xf32>
  return %s : tensor<f32>
}
func.func @step(%w: tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>) {
  %l, %g = rlx.grad @loss(%w) wrt [0] : (tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
  return %l, %g : tensor<f32>, tensor<4xf32>
}
