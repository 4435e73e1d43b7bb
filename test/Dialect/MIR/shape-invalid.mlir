// RUN: rlx-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// rlx.reshape
//===----------------------------------------------------------------------===//

// rlx.reshape: the element type is kept.
func.func @reshape_element_type(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'rlx.reshape' op result element type 'f16' differs from the input's 'f32'}}
  %0 = rlx.reshape %x : tensor<2x3x4xf32> -> tensor<24xf16>
  return
}

// -----

// rlx.reshape: static shapes keep the element count.
func.func @reshape_element_count(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'rlx.reshape' op cannot reshape 24 elements ('tensor<2x3x4xf32>') into 20 ('tensor<4x5xf32>')}}
  %0 = rlx.reshape %x : tensor<2x3x4xf32> -> tensor<4x5xf32>
  return
}

// -----

// rlx.reshape: a scalar holds one element.
func.func @reshape_scalar_count(%x: tensor<2xf32>) {
  // expected-error @+1 {{'rlx.reshape' op cannot reshape 2 elements ('tensor<2xf32>') into 1 ('tensor<f32>')}}
  %0 = rlx.reshape %x : tensor<2xf32> -> tensor<f32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.transpose
//===----------------------------------------------------------------------===//

// rlx.transpose: one permutation entry per dim.
func.func @transpose_length(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'rlx.transpose' op 'permutation' has 2 entries but the input has rank 3}}
  %0 = rlx.transpose %x [1, 0] : tensor<2x3x4xf32>
  return
}

// -----

// rlx.transpose: each dim named once.
func.func @transpose_duplicate(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'rlx.transpose' op 'permutation' [0, 0, 1] is not a permutation of [0, 3)}}
  %0 = rlx.transpose %x [0, 0, 1] : tensor<2x3x4xf32>
  return
}

// -----

// rlx.transpose: entries in range.
func.func @transpose_out_of_range(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'rlx.transpose' op 'permutation' [0, 1, 3] is not a permutation of [0, 3)}}
  %0 = rlx.transpose %x [0, 1, 3] : tensor<2x3x4xf32>
  return
}

// -----

// rlx.transpose: entries are not negative.
func.func @transpose_negative(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'rlx.transpose' op 'permutation' [-1, 0, 1] is not a permutation of [0, 3)}}
  %0 = rlx.transpose %x [-1, 0, 1] : tensor<2x3x4xf32>
  return
}

// -----

// rlx.transpose: the permutation is required.
func.func @transpose_missing_permutation(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.transpose' op requires attribute 'permutation'}}
  %0 = "rlx.transpose"(%x) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

// rlx.transpose: the result type is the permuted input type.
func.func @transpose_result_type(%x: tensor<2x3x4xf32>) {
  // expected-error @+2 {{'rlx.transpose' op inferred type(s) 'tensor<2x4x3xf32>' are incompatible with return type(s) of operation 'tensor<2x3x4xf32>'}}
  // expected-error @+1 {{'rlx.transpose' op failed to infer returned types}}
  %0 = "rlx.transpose"(%x) {permutation = array<i64: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.narrow
//===----------------------------------------------------------------------===//

// rlx.narrow: the axis is in range.
func.func @narrow_axis(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.narrow' op 'axis' 2 is out of range for rank 2 (expected in [-2, 2))}}
  %0 = rlx.narrow %x axis = 2 start = 0 length = 1 : tensor<4x8xf32>
  return
}

// -----

// rlx.narrow: a negative axis is in range.
func.func @narrow_negative_axis(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.narrow' op 'axis' -3 is out of range for rank 2 (expected in [-2, 2))}}
  %0 = rlx.narrow %x axis = -3 start = 0 length = 1 : tensor<4x8xf32>
  return
}

// -----

// rlx.narrow: the slice ends inside the axis.
func.func @narrow_past_end(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.narrow' op slice of length 4 at start 6 does not fit in dim 1 of size 8}}
  %0 = rlx.narrow %x axis = 1 start = 6 length = 4 : tensor<4x8xf32>
  return
}

// -----

// rlx.narrow: start is not negative.
func.func @narrow_negative_start(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.narrow' op slice of length 2 at start -1 does not fit in dim 0 of size 4}}
  %0 = rlx.narrow %x axis = 0 start = -1 length = 2 : tensor<4x8xf32>
  return
}

// -----

// rlx.narrow: length is not negative, even on a dynamic axis.
func.func @narrow_negative_length(%x: tensor<?x8xf32>) {
  // expected-error @+1 {{'rlx.narrow' op slice of length -1 at start 2 does not fit in dim 0 of size ?}}
  %0 = rlx.narrow %x axis = 0 start = 2 length = -1 : tensor<?x8xf32>
  return
}

// -----

// rlx.narrow: axis, start and length are required.
func.func @narrow_missing_start(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.narrow' op requires attribute 'start'}}
  %0 = "rlx.narrow"(%x) {axis = 0 : i64, length = 1 : i64} : (tensor<4x8xf32>) -> tensor<1x8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.concat
//===----------------------------------------------------------------------===//

// rlx.concat: at least one input.
func.func @concat_no_inputs() {
  // expected-error @+2 {{'rlx.concat' op needs at least one input}}
  // expected-error @+1 {{'rlx.concat' op failed to infer returned types}}
  %0 = "rlx.concat"() {axis = 0 : i64} : () -> tensor<2xf32>
  return
}

// -----

// rlx.concat: the inputs share an element type.
func.func @concat_element_type(%a: tensor<2x3xf32>, %b: tensor<2x3xf16>) {
  // expected-error @+1 {{'rlx.concat' op input #1 has element type 'f16' but input #0 has 'f32'}}
  %0 = rlx.concat %a, %b axis = 0 : tensor<2x3xf32>, tensor<2x3xf16>
  return
}

// -----

// rlx.concat: the inputs share a rank.
func.func @concat_rank(%a: tensor<2x3xf32>, %b: tensor<2x3x1xf32>) {
  // expected-error @+1 {{'rlx.concat' op input #1 has rank 3 but input #0 has rank 2}}
  %0 = rlx.concat %a, %b axis = 0 : tensor<2x3xf32>, tensor<2x3x1xf32>
  return
}

// -----

// rlx.concat: the dims off the axis agree (input #2 is the odd one).
func.func @concat_dims(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'rlx.concat' op input #2 dim 0 (4) differs from the other inputs (2)}}
  %0 = rlx.concat %a, %a, %b axis = 1 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x5xf32>
  return
}

// -----

// rlx.concat: the axis is in range.
func.func @concat_axis(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.concat' op 'axis' 2 is out of range for rank 2 (expected in [-2, 2))}}
  %0 = rlx.concat %a, %a axis = 2 : tensor<2x3xf32>, tensor<2x3xf32>
  return
}

// -----

// rlx.concat: the result adds up the axis.
func.func @concat_result_type(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{'rlx.concat' op inferred type(s) 'tensor<4x3xf32>' are incompatible with return type(s) of operation 'tensor<2x6xf32>'}}
  // expected-error @+1 {{'rlx.concat' op failed to infer returned types}}
  %0 = "rlx.concat"(%a, %a) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.expand
//===----------------------------------------------------------------------===//

// rlx.expand: the element type is kept.
func.func @expand_element_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.expand' op result element type 'i32' differs from the input's 'f32'}}
  %0 = rlx.expand %x : tensor<4xf32> -> tensor<2x4xi32>
  return
}

// -----

// rlx.expand: the rank does not shrink.
func.func @expand_smaller_rank(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'rlx.expand' op cannot expand rank 3 to the smaller rank 2}}
  %0 = rlx.expand %x : tensor<2x3x4xf32> -> tensor<3x4xf32>
  return
}

// -----

// rlx.expand: only a dim of size 1 expands.
func.func @expand_non_one_dim(%x: tensor<4x1xf32>) {
  // expected-error @+1 {{'rlx.expand' op input dim 0 (4) can only expand if it is 1 or equal to result dim 1 (5)}}
  %0 = rlx.expand %x : tensor<4x1xf32> -> tensor<3x5x6xf32>
  return
}

// -----

// rlx.expand: `like` has the result's rank.
func.func @expand_like_rank(%s: tensor<f32>, %x: tensor<?x8xf32>) {
  // expected-error @+1 {{'rlx.expand' op 'like' has rank 2 where the result has rank 3}}
  %0 = rlx.expand %s like %x : tensor<f32>, tensor<?x8xf32> -> tensor<2x?x8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.gather
//===----------------------------------------------------------------------===//

// rlx.gather: the axis is in range.
func.func @gather_axis(%t: tensor<100x32xf32>, %i: tensor<4xi64>) {
  // expected-error @+1 {{'rlx.gather' op 'axis' 2 is out of range for rank 2 (expected in [-2, 2))}}
  %0 = rlx.gather %t, %i axis = 2 : tensor<100x32xf32>, tensor<4xi64>
  return
}

// -----

// rlx.gather: a negative axis is in range.
func.func @gather_negative_axis(%t: tensor<100x32xf32>, %i: tensor<4xi64>) {
  // expected-error @+1 {{'rlx.gather' op 'axis' -3 is out of range for rank 2 (expected in [-2, 2))}}
  %0 = rlx.gather %t, %i axis = -3 : tensor<100x32xf32>, tensor<4xi64>
  return
}

// -----

// rlx.gather: the indices are i64.
func.func @gather_index_type(%t: tensor<100x32xf32>, %i: tensor<4xi32>) {
  // expected-error @+1 {{'rlx.gather' op operand #1 must be ranked tensor of 64-bit signless integer values, but got 'tensor<4xi32>'}}
  %0 = rlx.gather %t, %i axis = 0 : tensor<100x32xf32>, tensor<4xi32>
  return
}

// -----

// rlx.gather: the result is table[:axis] + indices + table[axis+1:].
func.func @gather_result_type(%t: tensor<100x32xf32>, %i: tensor<4x5xi64>) {
  // expected-error @+2 {{'rlx.gather' op inferred type(s) 'tensor<4x5x32xf32>' are incompatible with return type(s) of operation 'tensor<20x32xf32>'}}
  // expected-error @+1 {{'rlx.gather' op failed to infer returned types}}
  %0 = "rlx.gather"(%t, %i) {axis = 0 : i64} : (tensor<100x32xf32>, tensor<4x5xi64>) -> tensor<20x32xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.scatter_add
//===----------------------------------------------------------------------===//

// rlx.scatter_add: base and updates share an element type.
func.func @scatter_add_element_type(%b: tensor<100x32xf32>, %i: tensor<3xi64>, %u: tensor<3x32xf16>) {
  // expected-error @+1 {{'rlx.scatter_add' op operand 'updates' has element type 'f16' but 'base' has 'f32'}}
  %0 = rlx.scatter_add %b, %i, %u axis = 0 : tensor<100x32xf32>, tensor<3xi64>, tensor<3x32xf16>
  return
}

// -----

// rlx.scatter_add: the indices are 1-D.
func.func @scatter_add_indices_rank(%b: tensor<100x32xf32>, %i: tensor<3x1xi64>, %u: tensor<3x32xf32>) {
  // expected-error @+1 {{'rlx.scatter_add' op operand 'indices' must have rank 1, got 2}}
  %0 = rlx.scatter_add %b, %i, %u axis = 0 : tensor<100x32xf32>, tensor<3x1xi64>, tensor<3x32xf32>
  return
}

// -----

// rlx.scatter_add: updates has base's rank.
func.func @scatter_add_updates_rank(%b: tensor<100x32xf32>, %i: tensor<3xi64>, %u: tensor<3xf32>) {
  // expected-error @+1 {{'rlx.scatter_add' op operand 'updates' must have rank 2, got 1}}
  %0 = rlx.scatter_add %b, %i, %u axis = 0 : tensor<100x32xf32>, tensor<3xi64>, tensor<3xf32>
  return
}

// -----

// rlx.scatter_add: the axis is in range.
func.func @scatter_add_axis(%b: tensor<100x32xf32>, %i: tensor<3xi64>, %u: tensor<3x32xf32>) {
  // expected-error @+1 {{'rlx.scatter_add' op 'axis' -3 is out of range for rank 2 (expected in [-2, 2))}}
  %0 = rlx.scatter_add %b, %i, %u axis = -3 : tensor<100x32xf32>, tensor<3xi64>, tensor<3x32xf32>
  return
}

// -----

// rlx.scatter_add: updates has one slice per index along the axis.
func.func @scatter_add_updates_length(%b: tensor<100x32xf32>, %i: tensor<3xi64>, %u: tensor<4x32xf32>) {
  // expected-error @+1 {{'rlx.scatter_add' op operand 'updates' dim 0 (4) must match the length of 'indices' (3)}}
  %0 = rlx.scatter_add %b, %i, %u axis = 0 : tensor<100x32xf32>, tensor<3xi64>, tensor<4x32xf32>
  return
}

// -----

// rlx.scatter_add: updates has base's dims off the axis.
func.func @scatter_add_updates_dims(%b: tensor<100x32xf32>, %i: tensor<3xi64>, %u: tensor<3x16xf32>) {
  // expected-error @+1 {{'rlx.scatter_add' op operand 'updates' dim 1 (16) must match the same dim of 'base' (32)}}
  %0 = rlx.scatter_add %b, %i, %u axis = 0 : tensor<100x32xf32>, tensor<3xi64>, tensor<3x16xf32>
  return
}

// -----

// rlx.scatter_add: with axis 1 the indices count along dim 1.
func.func @scatter_add_axis1_length(%b: tensor<100x32xf32>, %i: tensor<3xi64>, %u: tensor<3x32xf32>) {
  // expected-error @+1 {{'rlx.scatter_add' op operand 'updates' dim 0 (3) must match the same dim of 'base' (100)}}
  %0 = rlx.scatter_add %b, %i, %u axis = 1 : tensor<100x32xf32>, tensor<3xi64>, tensor<3x32xf32>
  return
}

// -----

// rlx.scatter_add: the indices are i64.
func.func @scatter_add_index_type(%b: tensor<100x32xf32>, %i: tensor<3xi32>, %u: tensor<3x32xf32>) {
  // expected-error @+1 {{'rlx.scatter_add' op operand #1 must be ranked tensor of 64-bit signless integer values, but got 'tensor<3xi32>'}}
  %0 = rlx.scatter_add %b, %i, %u axis = 0 : tensor<100x32xf32>, tensor<3xi32>, tensor<3x32xf32>
  return
}

// -----

// rlx.scatter_add: booleans cannot be added.
func.func @scatter_add_bool(%b: tensor<10xi1>, %i: tensor<3xi64>, %u: tensor<3xi1>) {
  // expected-error @+1 {{'rlx.scatter_add' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 32-bit unsigned integer or complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<10xi1>'}}
  %0 = rlx.scatter_add %b, %i, %u axis = 0 : tensor<10xi1>, tensor<3xi64>, tensor<3xi1>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.reverse
//===----------------------------------------------------------------------===//

// rlx.reverse: the axes are in range.
func.func @reverse_axis(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.reverse' op 'axes' 2 is out of range for rank 2 (expected in [-2, 2))}}
  %0 = rlx.reverse %x axes = [0, 2] : tensor<4x8xf32>
  return
}

// -----

// rlx.reverse: the axes are distinct (-2 is 0).
func.func @reverse_duplicate(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.reverse' op 'axes' names dim 0 twice}}
  %0 = rlx.reverse %x axes = [0, -2] : tensor<4x8xf32>
  return
}

// -----

// rlx.reverse: the result has the input's type.
func.func @reverse_result_type(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.reverse' op requires the same type for all operands and results}}
  %0 = "rlx.reverse"(%x) {axes = array<i64: 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return
}

// -----

// rlx.concat: unranked inputs are rejected before shape inference reads their dims.
func.func @b(%a: tensor<*xf32>) {
  // expected-error @+1 {{'rlx.concat' op operand #0 must be a ranked tensor, got 'tensor<*xf32>'}}
  %0 = rlx.concat %a, %a axis = 0 : tensor<*xf32>, tensor<*xf32>
  return
}

// -----

// rlx.narrow: a start near INT64_MAX does not overflow the bounds check.
func.func @c(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'rlx.narrow' op slice of length 1 at start 9223372036854775807 does not fit in dim 0 of size 2}}
  %0 = rlx.narrow %x axis = 0 start = 9223372036854775807 length = 1 : tensor<2x3x4xf32>
  return
}
