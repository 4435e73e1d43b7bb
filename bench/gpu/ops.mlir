// Programs that once failed to compile for CUDA, run by ops_check.py on
// the GPU machine against PyTorch in float64: a convolution and pools
// (padding: the generic yields a value from outside its body), group norm
// and a reshape with no common refinement (views instead of a host shape
// buffer), a result returned twice (one out-parameter each), a concat of
// complex values (outputs the body does not read) and an rlx.if.

func.func @conv_bias(%x: tensor<4x16x34x34xf32>, %w: tensor<32x16x3x3xf32>,
                     %b: tensor<32xf32>) -> tensor<4x32x17x17xf32> {
  %y = rlx.conv %x, %w, %b strides = [2, 2] padding = [1, 1, 1, 1] : tensor<4x16x34x34xf32>, tensor<32x16x3x3xf32>, tensor<32xf32>
  return %y : tensor<4x32x17x17xf32>
}

func.func @max_pool_padded(%x: tensor<4x16x34x34xf32>) -> tensor<4x16x17x17xf32> {
  %y = rlx.pool max %x kernel = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] : tensor<4x16x34x34xf32>
  return %y : tensor<4x16x17x17xf32>
}

func.func @avg_pool(%x: tensor<4x16x34x34xf32>) -> tensor<4x16x17x17xf32> {
  %y = rlx.pool avg %x kernel = [2, 2] : tensor<4x16x34x34xf32>
  return %y : tensor<4x16x17x17xf32>
}

func.func @group_norm(%x: tensor<8x64x16x16xf32>, %g: tensor<64xf32>,
                      %b: tensor<64xf32>) -> tensor<8x64x16x16xf32> {
  %y = rlx.group_norm %x, %g, %b {num_groups = 8 : i64} : tensor<8x64x16x16xf32>, tensor<64xf32>
  return %y : tensor<8x64x16x16xf32>
}

func.func @reshape_exp(%x: tensor<96x160xf32>) -> tensor<160x96xf32> {
  %r = rlx.reshape %x : tensor<96x160xf32> -> tensor<160x96xf32>
  %y = rlx.exp %r : tensor<160x96xf32>
  return %y : tensor<160x96xf32>
}

func.func @twice(%x: tensor<256x512xf32>) -> (tensor<256x512xf32>, tensor<256x512xf32>) {
  %a = rlx.tanh %x : tensor<256x512xf32>
  %b = rlx.tanh %x : tensor<256x512xf32>
  return %a, %b : tensor<256x512xf32>, tensor<256x512xf32>
}

func.func @concat_complex(%a: tensor<64x32xcomplex<f32>>, %b: tensor<64x48xcomplex<f32>>)
    -> tensor<64x80xcomplex<f32>> {
  %y = rlx.concat %a, %b axis = 1 : tensor<64x32xcomplex<f32>>, tensor<64x48xcomplex<f32>>
  return %y : tensor<64x80xcomplex<f32>>
}

// rlx.if, which the cuda target does not claim: rlx-legalize computes both
// branches and selects (rlx.where), no host read of the predicate.
func.func @if_where(%p: tensor<i1>, %x: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %r = rlx.if %p : tensor<i1> -> tensor<256x512xf32> {
    %e = rlx.exp %x : tensor<256x512xf32>
    rlx.yield %e : tensor<256x512xf32>
  } else {
    %n = rlx.neg %x : tensor<256x512xf32>
    rlx.yield %n : tensor<256x512xf32>
  }
  return %r : tensor<256x512xf32>
}
