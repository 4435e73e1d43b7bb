// RUN: rlx-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// rlx.matmul
//===----------------------------------------------------------------------===//

// rlx.matmul: the operands share an element type.
func.func @matmul_element_types(%a: tensor<4x8xf32>, %b: tensor<8x5xf16>) {
  // expected-error @+1 {{'rlx.matmul' op operand 'rhs' has element type 'f16' but 'lhs' has 'f32'}}
  %0 = rlx.matmul %a, %b : tensor<4x8xf32>, tensor<8x5xf16>
  return
}

// -----

// rlx.matmul: lhs has rank at least 2.
func.func @matmul_lhs_rank(%a: tensor<8xf32>, %b: tensor<8x5xf32>) {
  // expected-error @+1 {{'rlx.matmul' op operand 'lhs' must have rank at least 2, got 1}}
  %0 = rlx.matmul %a, %b : tensor<8xf32>, tensor<8x5xf32>
  return
}

// -----

// rlx.matmul: rhs has rank at least 2.
func.func @matmul_rhs_rank(%a: tensor<4x8xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.matmul' op operand 'rhs' must have rank at least 2, got 1}}
  %0 = rlx.matmul %a, %b : tensor<4x8xf32>, tensor<8xf32>
  return
}

// -----

// rlx.matmul: the contracting dims agree.
func.func @matmul_contracting(%a: tensor<4x8xf32>, %b: tensor<7x5xf32>) {
  // expected-error @+1 {{'rlx.matmul' op contracting dims differ: 'lhs' has 8, 'rhs' has 7}}
  %0 = rlx.matmul %a, %b : tensor<4x8xf32>, tensor<7x5xf32>
  return
}

// -----

// rlx.matmul: transpose_a makes dim 0 of lhs the contracting one.
func.func @matmul_contracting_transpose_a(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>) {
  // expected-error @+1 {{'rlx.matmul' op contracting dims differ: 'lhs' has 4, 'rhs' has 8}}
  %0 = rlx.matmul %a, %b transpose_a true : tensor<4x8xf32>, tensor<8x5xf32>
  return
}

// -----

// rlx.matmul: transpose_b makes the last dim of rhs the contracting one.
func.func @matmul_contracting_transpose_b(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>) {
  // expected-error @+1 {{'rlx.matmul' op contracting dims differ: 'lhs' has 8, 'rhs' has 5}}
  %0 = rlx.matmul %a, %b transpose_b true : tensor<4x8xf32>, tensor<8x5xf32>
  return
}

// -----

// rlx.matmul: the batch dims broadcast.
func.func @matmul_batch_broadcast(%a: tensor<2x4x8xf32>, %b: tensor<3x8x5xf32>) {
  // expected-error @+1 {{'rlx.matmul' op operands 'lhs' and 'rhs' are not broadcast-compatible: dim 2 vs 3 at result dim 0}}
  %0 = rlx.matmul %a, %b : tensor<2x4x8xf32>, tensor<3x8x5xf32>
  return
}

// -----

// rlx.matmul: batch dims align at the end (the 5 of lhs meets the 6 of rhs).
func.func @matmul_batch_broadcast_ranks(%a: tensor<5x4x8xf32>, %b: tensor<2x6x8x5xf32>) {
  // expected-error @+1 {{'rlx.matmul' op operands 'lhs' and 'rhs' are not broadcast-compatible: dim 5 vs 6 at result dim 1}}
  %0 = rlx.matmul %a, %b : tensor<5x4x8xf32>, tensor<2x6x8x5xf32>
  return
}

// -----

// rlx.matmul: the result type is inferred; a different one is rejected.
func.func @matmul_result_type(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>) {
  // expected-error @+2 {{'rlx.matmul' op failed to infer returned types}}
  // expected-error @+1 {{'rlx.matmul' op inferred type(s) 'tensor<4x5xf32>' are incompatible with return type(s) of operation 'tensor<4x6xf32>'}}
  %0 = "rlx.matmul"(%a, %b) : (tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x6xf32>
  return
}

// -----

// rlx.matmul: booleans are not numeric.
func.func @matmul_bool(%a: tensor<4x4xi1>) {
  // expected-error @+1 {{'rlx.matmul' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 32-bit unsigned integer or complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<4x4xi1>'}}
  %0 = rlx.matmul %a, %a : tensor<4x4xi1>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.dot_general
//===----------------------------------------------------------------------===//

// rlx.dot_general: the operands share an element type.
func.func @dot_general_element_types(%a: tensor<3x5xf32>, %b: tensor<5x7xbf16>) {
  // expected-error @+1 {{'rlx.dot_general' op operand 'rhs' has element type 'bf16' but 'lhs' has 'f32'}}
  %0 = rlx.dot_general %a, %b batch [] x [] contracting [1] x [0] : tensor<3x5xf32>, tensor<5x7xbf16>
  return
}

// -----

// rlx.dot_general: as many lhs batch dims as rhs batch dims.
func.func @dot_general_batch_count(%a: tensor<4x8x16xf32>, %b: tensor<4x16x32xf32>) {
  // expected-error @+1 {{'rlx.dot_general' op 'lhs_batch_dims' has 1 dims but 'rhs_batch_dims' has 0}}
  %0 = rlx.dot_general %a, %b batch [0] x [] contracting [2] x [1] : tensor<4x8x16xf32>, tensor<4x16x32xf32>
  return
}

// -----

// rlx.dot_general: as many lhs contracting dims as rhs contracting dims.
func.func @dot_general_contracting_count(%a: tensor<4x8x16xf32>, %b: tensor<4x16x32xf32>) {
  // expected-error @+1 {{'rlx.dot_general' op 'lhs_contracting_dims' has 1 dims but 'rhs_contracting_dims' has 2}}
  %0 = rlx.dot_general %a, %b batch [] x [] contracting [2] x [1, 2] : tensor<4x8x16xf32>, tensor<4x16x32xf32>
  return
}

// -----

// rlx.dot_general: a lhs dim is out of range.
func.func @dot_general_lhs_range(%a: tensor<4x8x16xf32>, %b: tensor<4x16x32xf32>) {
  // expected-error @+1 {{'rlx.dot_general' op 'lhs_batch_dims/lhs_contracting_dims' 3 is out of range for rank 3 (expected in [-3, 3))}}
  %0 = rlx.dot_general %a, %b batch [0] x [0] contracting [3] x [1] : tensor<4x8x16xf32>, tensor<4x16x32xf32>
  return
}

// -----

// rlx.dot_general: a negative rhs dim is out of range.
func.func @dot_general_rhs_range(%a: tensor<4x8x16xf32>, %b: tensor<4x16x32xf32>) {
  // expected-error @+1 {{'rlx.dot_general' op 'rhs_batch_dims/rhs_contracting_dims' -4 is out of range for rank 3 (expected in [-3, 3))}}
  %0 = rlx.dot_general %a, %b batch [0] x [-4] contracting [2] x [1] : tensor<4x8x16xf32>, tensor<4x16x32xf32>
  return
}

// -----

// rlx.dot_general: a lhs dim is both a batch and a contracting dim.
func.func @dot_general_lhs_duplicate(%a: tensor<4x8x4xf32>, %b: tensor<4x4x32xf32>) {
  // expected-error @+1 {{'rlx.dot_general' op 'lhs_batch_dims/lhs_contracting_dims' names dim 0 twice}}
  %0 = rlx.dot_general %a, %b batch [0] x [0] contracting [0] x [1] : tensor<4x8x4xf32>, tensor<4x4x32xf32>
  return
}

// -----

// rlx.dot_general: a rhs dim named twice, once negatively.
func.func @dot_general_rhs_duplicate(%a: tensor<4x8x4xf32>, %b: tensor<4x4x32xf32>) {
  // expected-error @+1 {{'rlx.dot_general' op 'rhs_batch_dims/rhs_contracting_dims' names dim 1 twice}}
  %0 = rlx.dot_general %a, %b batch [] x [] contracting [0, 2] x [1, -2] : tensor<4x8x4xf32>, tensor<4x4x32xf32>
  return
}

// -----

// rlx.dot_general: paired contracting dims have equal sizes.
func.func @dot_general_contracting_size(%a: tensor<4x8x16xf32>, %b: tensor<4x8x32xf32>) {
  // expected-error @+1 {{'rlx.dot_general' op lhs dim 2 (16) and rhs dim 1 (8) are paired but differ}}
  %0 = rlx.dot_general %a, %b batch [0] x [0] contracting [2] x [1] : tensor<4x8x16xf32>, tensor<4x8x32xf32>
  return
}

// -----

// rlx.dot_general: paired batch dims have equal sizes.
func.func @dot_general_batch_size(%a: tensor<4x8x16xf32>, %b: tensor<2x16x32xf32>) {
  // expected-error @+1 {{'rlx.dot_general' op lhs dim 0 (4) and rhs dim 0 (2) are paired but differ}}
  %0 = rlx.dot_general %a, %b batch [0] x [0] contracting [2] x [1] : tensor<4x8x16xf32>, tensor<2x16x32xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.dense_solve
//===----------------------------------------------------------------------===//

// rlx.dense_solve: a and b share an element type.
func.func @dense_solve_element_types(%a: tensor<3x3xf64>, %b: tensor<3x2xf32>) {
  // expected-error @+1 {{'rlx.dense_solve' op operand 'b' has element type 'f32' but 'a' has 'f64'}}
  %0 = rlx.dense_solve %a, %b : tensor<3x3xf64>, tensor<3x2xf32>
  return
}

// -----

// rlx.dense_solve: a has rank at least 2.
func.func @dense_solve_rank(%a: tensor<3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'rlx.dense_solve' op operand 'a' must have rank at least 2, got 1}}
  %0 = rlx.dense_solve %a, %b : tensor<3xf32>, tensor<3xf32>
  return
}

// -----

// rlx.dense_solve: b has a's rank.
func.func @dense_solve_b_rank(%a: tensor<3x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'rlx.dense_solve' op operand 'b' must have rank 2, got 1}}
  %0 = rlx.dense_solve %a, %b : tensor<3x3xf32>, tensor<3xf32>
  return
}

// -----

// rlx.dense_solve: a is square.
func.func @dense_solve_square(%a: tensor<3x4xf32>, %b: tensor<3x2xf32>) {
  // expected-error @+1 {{'rlx.dense_solve' op operand 'a' must be square, got 3x4}}
  %0 = rlx.dense_solve %a, %b : tensor<3x4xf32>, tensor<3x2xf32>
  return
}

// -----

// rlx.dense_solve: b has as many rows as a.
func.func @dense_solve_rows(%a: tensor<3x3xf32>, %b: tensor<4x2xf32>) {
  // expected-error @+1 {{'rlx.dense_solve' op operand 'b' dim 0 (4) must match the rows of 'a' (3)}}
  %0 = rlx.dense_solve %a, %b : tensor<3x3xf32>, tensor<4x2xf32>
  return
}

// -----

// rlx.dense_solve: a and b have the same batch dims.
func.func @dense_solve_batch(%a: tensor<5x3x3xf32>, %b: tensor<2x3x2xf32>) {
  // expected-error @+1 {{'rlx.dense_solve' op operand 'b' dim 0 (2) must match the batch dim of 'a' (5)}}
  %0 = rlx.dense_solve %a, %b : tensor<5x3x3xf32>, tensor<2x3x2xf32>
  return
}

// -----

// rlx.dense_solve: floats only.
func.func @dense_solve_int(%a: tensor<3x3xi32>, %b: tensor<3x2xi32>) {
  // expected-error @+1 {{'rlx.dense_solve' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<3x3xi32>'}}
  %0 = rlx.dense_solve %a, %b : tensor<3x3xi32>, tensor<3x2xi32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.fft / rlx.rfft / rlx.irfft
//===----------------------------------------------------------------------===//

// rlx.fft: complex<f32> or complex<f64> only.
func.func @fft_real(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.fft' op operand #0 must be ranked tensor of complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<4x8xf32>'}}
  %0 = rlx.fft %x : tensor<4x8xf32>
  return
}

// -----

// rlx.fft: rank 0 has no axis to transform.
func.func @fft_rank0(%x: tensor<complex<f32>>) {
  // expected-error @+1 {{'rlx.fft' op operand 'input' must have rank at least 1}}
  %0 = rlx.fft %x : tensor<complex<f32>>
  return
}

// -----

// rlx.fft: norm is one of backward, ortho, forward.
func.func @fft_norm(%x: tensor<8xcomplex<f32>>) {
  // expected-error @+1 {{'rlx.fft' op attribute 'norm' failed to satisfy constraint: fft normalization: one of 'backward', 'ortho', 'forward'}}
  %0 = rlx.fft %x {norm = "none"} : tensor<8xcomplex<f32>>
  return
}

// -----

// rlx.rfft: n is positive.
func.func @rfft_n_zero(%x: tensor<4x16xf32>) {
  // expected-error @+1 {{'rlx.rfft' op 'n' must be positive, got 0}}
  %0 = rlx.rfft %x n = 0 : tensor<4x16xf32>
  return
}

// -----

// rlx.rfft: n is positive.
func.func @rfft_n_negative(%x: tensor<4x16xf32>) {
  // expected-error @+1 {{'rlx.rfft' op 'n' must be positive, got -4}}
  %0 = rlx.rfft %x n = -4 : tensor<4x16xf32>
  return
}

// -----

// rlx.rfft: rank 0 has no axis to transform.
func.func @rfft_rank0(%x: tensor<f32>) {
  // expected-error @+1 {{'rlx.rfft' op operand 'input' must have rank at least 1, got 0}}
  %0 = rlx.rfft %x : tensor<f32>
  return
}

// -----

// rlx.rfft: the signal is f32 or f64.
func.func @rfft_f16(%x: tensor<16xf16>) {
  // expected-error @+1 {{'rlx.rfft' op operand #0 must be ranked tensor of 32-bit float or 64-bit float values, but got 'tensor<16xf16>'}}
  %0 = rlx.rfft %x : tensor<16xf16>
  return
}

// -----

// rlx.rfft: the result is complex<f32> with n/2 + 1 frequencies.
func.func @rfft_result_type(%x: tensor<16xf32>) {
  // expected-error @+2 {{'rlx.rfft' op failed to infer returned types}}
  // expected-error @+1 {{'rlx.rfft' op inferred type(s) 'tensor<9xcomplex<f32>>' are incompatible with return type(s) of operation 'tensor<8xcomplex<f32>>'}}
  %0 = "rlx.rfft"(%x) : (tensor<16xf32>) -> tensor<8xcomplex<f32>>
  return
}

// -----

// rlx.irfft: n is positive.
func.func @irfft_n_zero(%x: tensor<4x9xcomplex<f32>>) {
  // expected-error @+1 {{'rlx.irfft' op 'n' must be positive, got 0}}
  %0 = rlx.irfft %x n = 0 : tensor<4x9xcomplex<f32>>
  return
}

// -----

// rlx.irfft: n is positive.
func.func @irfft_n_negative(%x: tensor<4x9xcomplex<f32>>) {
  // expected-error @+1 {{'rlx.irfft' op 'n' must be positive, got -16}}
  %0 = rlx.irfft %x n = -16 : tensor<4x9xcomplex<f32>>
  return
}

// -----

// rlx.irfft: with one frequency the default length 2 (m - 1) is 0.
func.func @irfft_one_frequency(%x: tensor<4x1xcomplex<f32>>) {
  // expected-error @+1 {{'rlx.irfft' op needs 'n' when the input has one frequency}}
  %0 = rlx.irfft %x : tensor<4x1xcomplex<f32>>
  return
}

// -----

// rlx.irfft: rank 0 has no axis to transform.
func.func @irfft_rank0(%x: tensor<complex<f32>>) {
  // expected-error @+1 {{'rlx.irfft' op operand 'input' must have rank at least 1, got 0}}
  %0 = rlx.irfft %x : tensor<complex<f32>>
  return
}

// -----

// rlx.irfft: the spectrum is complex<f32>.
func.func @irfft_real(%x: tensor<9xf32>) {
  // expected-error @+1 {{'rlx.irfft' op operand #0 must be ranked tensor of complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<9xf32>'}}
  %0 = rlx.irfft %x : tensor<9xf32>
  return
}

// -----

// rlx.dot_general: unranked operand types are rejected by the parser (they used to crash type inference).
func.func @a(%a: tensor<*xf32>) {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
  %0 = rlx.dot_general %a, %a batch [] x [] contracting [] x [] : tensor<*xf32>
  return
}

// -----

// rlx.irfft: an input without frequencies is named as such.
func.func @d(%c: tensor<4x0xcomplex<f32>>) {
  // expected-error @+1 {{'rlx.irfft' op 'input' has no frequencies on its last dim}}
  %0 = rlx.irfft %c : tensor<4x0xcomplex<f32>>
  return
}
