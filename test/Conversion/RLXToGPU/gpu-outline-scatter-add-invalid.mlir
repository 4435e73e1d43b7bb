// RUN: rlx-opt %s --rlx-gpu-outline-scatter-add --verify-diagnostics

// GPU atomics add reals and integers, not complex values.
func.func @complex(%b: tensor<10xcomplex<f32>>, %i: tensor<3xi64>, %u: tensor<3xcomplex<f32>>) -> tensor<10xcomplex<f32>> {
  // expected-error @+1 {{'rlx.scatter_add' op adds complex values, which GPU atomics cannot}}
  %r = rlx.scatter_add %b, %i, %u axis = 0 : tensor<10xcomplex<f32>>, tensor<3xi64>, tensor<3xcomplex<f32>>
  return %r : tensor<10xcomplex<f32>>
}
