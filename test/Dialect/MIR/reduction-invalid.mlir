// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// rlx.reduce: axes must name at least one dim.
func.func @reduce_empty_axes(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.reduce' op 'axes' must name at least one dim}}
  %0 = rlx.reduce sum %x axes = [] : tensor<4x8xf32>
  return
}

// -----

// rlx.reduce: an axis at or past the rank.
func.func @reduce_axis_too_large(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.reduce' op 'axes' 2 is out of range for rank 2 (expected in [-2, 2))}}
  %0 = rlx.reduce sum %x axes = [2] : tensor<4x8xf32>
  return
}

// -----

// rlx.reduce: a negative axis below -rank.
func.func @reduce_axis_too_small(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.reduce' op 'axes' -3 is out of range for rank 2 (expected in [-2, 2))}}
  %0 = rlx.reduce max %x axes = [0, -3] : tensor<4x8xf32>
  return
}

// -----

// rlx.reduce: the same dim twice.
func.func @reduce_duplicate_axes(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.reduce' op 'axes' names dim 1 twice}}
  %0 = rlx.reduce sum %x axes = [1, 1] : tensor<4x8xf32>
  return
}

// -----

// rlx.reduce: the same dim twice, once negative.
func.func @reduce_duplicate_negative_axes(%x: tensor<2x4x8xf32>) {
  // expected-error @+1 {{'rlx.reduce' op 'axes' names dim 2 twice}}
  %0 = rlx.reduce min %x axes = [-1, 0, 2] : tensor<2x4x8xf32>
  return
}

// -----

// rlx.reduce: mean needs a float operand.
func.func @reduce_mean_int(%x: tensor<4x8xi32>) {
  // expected-error @+1 {{'rlx.reduce' op kind 'mean' needs a float operand, got 'tensor<4x8xi32>'}}
  %0 = rlx.reduce mean %x axes = [1] : tensor<4x8xi32>
  return
}

// -----

// rlx.reduce: an unknown kind in the custom form.
func.func @reduce_bad_kind(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.reduce' op attribute 'kind' failed to satisfy constraint: reduction kind: one of 'sum', 'mean', 'max', 'min', 'prod'}}
  %0 = rlx.reduce avg %x axes = [1] : tensor<4x8xf32>
  return
}

// -----

// rlx.reduce: an unknown kind in the generic form.
func.func @reduce_bad_kind_generic(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.reduce' op attribute 'kind' failed to satisfy constraint: reduction kind: one of 'sum', 'mean', 'max', 'min', 'prod'}}
  %0 = "rlx.reduce"(%x) {kind = "avg", axes = array<i64: 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

// rlx.reduce: kind is required.
func.func @reduce_missing_kind(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.reduce' op requires attribute 'kind'}}
  %0 = "rlx.reduce"(%x) {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

// rlx.reduce: axes is required.
func.func @reduce_missing_axes(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.reduce' op requires attribute 'axes'}}
  %0 = "rlx.reduce"(%x) {kind = "sum"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

// rlx.reduce: axes is an i64 array, not an integer.
func.func @reduce_axes_not_array(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.reduce' op attribute 'axes' failed to satisfy constraint: i64 dense array attribute}}
  %0 = "rlx.reduce"(%x) {kind = "sum", axes = 1 : i64} : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

// rlx.reduce: keepdim is a bool.
func.func @reduce_keepdim_not_bool(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.reduce' op attribute 'keepdim' failed to satisfy constraint: bool attribute}}
  %0 = "rlx.reduce"(%x) {kind = "sum", axes = array<i64: 1>, keepdim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

// rlx.reduce: with keepdim the reduced dim stays as 1.
func.func @reduce_keepdim_result(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{'rlx.reduce' op inferred type(s) 'tensor<4x1xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  // expected-error @+1 {{'rlx.reduce' op failed to infer returned types}}
  %0 = "rlx.reduce"(%x) {kind = "sum", axes = array<i64: 1>, keepdim = true} : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

// rlx.reduce: booleans are not reducible.
func.func @reduce_bool(%x: tensor<4x8xi1>) {
  // expected-error @+1 {{'rlx.reduce' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 32-bit unsigned integer values, but got 'tensor<4x8xi1>'}}
  %0 = rlx.reduce sum %x axes = [1] : tensor<4x8xi1>
  return
}

// -----

// rlx.reduce: complex numbers are not reducible.
func.func @reduce_complex(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{'rlx.reduce' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 32-bit unsigned integer values, but got 'tensor<4xcomplex<f32>>'}}
  %0 = rlx.reduce sum %x axes = [0] : tensor<4xcomplex<f32>>
  return
}

// -----

// rlx.argmax: an axis at or past the rank.
func.func @argmax_axis_too_large(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.argmax' op 'axis' 2 is out of range for rank 2 (expected in [-2, 2))}}
  %0 = rlx.argmax %x axis = 2 : tensor<4x8xf32>
  return
}

// -----

// rlx.argmin: a negative axis below -rank.
func.func @argmin_axis_too_small(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.argmin' op 'axis' -3 is out of range for rank 2 (expected in [-2, 2))}}
  %0 = rlx.argmin %x axis = -3 : tensor<4x8xf32>
  return
}

// -----

// rlx.argmax: axis is required.
func.func @argmax_missing_axis(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.argmax' op requires attribute 'axis'}}
  %0 = "rlx.argmax"(%x) : (tensor<4x8xf32>) -> tensor<4xi64>
  return
}

// -----

// rlx.argmin: axis is an integer.
func.func @argmin_axis_not_int(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.argmin' op attribute 'axis' failed to satisfy constraint: 64-bit signless integer attribute}}
  %0 = "rlx.argmin"(%x) {axis = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xi64>
  return
}

// -----

// rlx.argmax: the result is i64.
func.func @argmax_result_not_i64(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.argmax' op result #0 must be ranked tensor of 64-bit signless integer values, but got 'tensor<4xi32>'}}
  %0 = "rlx.argmax"(%x) {axis = 1 : i64} : (tensor<4x8xf32>) -> tensor<4xi32>
  return
}

// -----

// rlx.argmin: the result drops the axis.
func.func @argmin_result_shape(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{'rlx.argmin' op inferred type(s) 'tensor<8xi64>' are incompatible with return type(s) of operation 'tensor<4xi64>'}}
  // expected-error @+1 {{'rlx.argmin' op failed to infer returned types}}
  %0 = "rlx.argmin"(%x) {axis = 0 : i64} : (tensor<4x8xf32>) -> tensor<4xi64>
  return
}

// -----

// rlx.argmax: complex numbers have no order.
func.func @argmax_complex(%x: tensor<4x8xcomplex<f32>>) {
  // expected-error @+1 {{'rlx.argmax' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 32-bit unsigned integer values, but got 'tensor<4x8xcomplex<f32>>'}}
  %0 = rlx.argmax %x axis = 0 : tensor<4x8xcomplex<f32>>
  return
}

// -----

// rlx.softmax: axis out of range.
func.func @softmax_axis_out_of_range(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.softmax' op 'axis' 2 is out of range for rank 2 (expected in [-2, 2))}}
  %0 = rlx.softmax %x axis = 2 : tensor<4x8xf32>
  return
}

// -----

// rlx.log_softmax: axis out of range.
func.func @log_softmax_axis_out_of_range(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.log_softmax' op 'axis' -3 is out of range for rank 2 (expected in [-2, 2))}}
  %0 = rlx.log_softmax %x axis = -3 : tensor<4x8xf32>
  return
}

// -----

// rlx.cumsum: axis out of range.
func.func @cumsum_axis_out_of_range(%x: tensor<4x8xi32>) {
  // expected-error @+1 {{'rlx.cumsum' op 'axis' 5 is out of range for rank 2 (expected in [-2, 2))}}
  %0 = rlx.cumsum %x axis = 5 : tensor<4x8xi32>
  return
}

// -----

// rlx.softmax: a rank-0 operand has no axis.
func.func @softmax_rank0(%x: tensor<f32>) {
  // expected-error @+1 {{'rlx.softmax' op 'axis' 0 is out of range for rank 0 (expected in [0, 0))}}
  %0 = rlx.softmax %x axis = 0 : tensor<f32>
  return
}

// -----

// rlx.softmax takes floats only.
func.func @softmax_int(%x: tensor<4x8xi32>) {
  // expected-error @+1 {{'rlx.softmax' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4x8xi32>'}}
  %0 = rlx.softmax %x axis = 0 : tensor<4x8xi32>
  return
}

// -----

// rlx.log_softmax takes floats only.
func.func @log_softmax_int(%x: tensor<4x8xi32>) {
  // expected-error @+1 {{'rlx.log_softmax' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4x8xi32>'}}
  %0 = rlx.log_softmax %x axis = 0 : tensor<4x8xi32>
  return
}

// -----

// rlx.cumsum rejects booleans.
func.func @cumsum_bool(%x: tensor<4x8xi1>) {
  // expected-error @+1 {{'rlx.cumsum' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 32-bit unsigned integer values, but got 'tensor<4x8xi1>'}}
  %0 = rlx.cumsum %x axis = 0 : tensor<4x8xi1>
  return
}

// -----

// rlx.softmax: axis is required.
func.func @softmax_missing_axis(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.softmax' op requires attribute 'axis'}}
  %0 = "rlx.softmax"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

// rlx.log_softmax: the result has the operand's type.
func.func @log_softmax_result_type(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.log_softmax' op requires the same type for all operands and results}}
  %0 = "rlx.log_softmax"(%x) {axis = 0 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf16>
  return
}

// -----

// rlx.topk: k must be at least 1.
func.func @topk_k_zero(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.topk' op 'k' must be at least 1, got 0}}
  %0:2 = rlx.topk %x k = 0 axis = 1 : tensor<4x8xf32>
  return
}

// -----

// rlx.topk: k may not exceed the axis' size.
func.func @topk_k_too_large(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.topk' op 'k' (5) must be in [1, 4], the size of dim 0}}
  %0:2 = rlx.topk %x k = 5 axis = -2 : tensor<4x8xf32>
  return
}

// -----

// rlx.topk: axis out of range.
func.func @topk_axis_out_of_range(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.topk' op 'axis' 2 is out of range for rank 2 (expected in [-2, 2))}}
  %0:2 = rlx.topk %x k = 1 axis = 2 : tensor<4x8xf32>
  return
}

// -----

// rlx.topk: k is required.
func.func @topk_missing_k(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.topk' op requires attribute 'k'}}
  %0:2 = "rlx.topk"(%x) {axis = 1 : i64} : (tensor<4x8xf32>) -> (tensor<4x1xf32>, tensor<4x1xi64>)
  return
}

// -----

// rlx.topk: axis is required.
func.func @topk_missing_axis(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.topk' op requires attribute 'axis'}}
  %0:2 = "rlx.topk"(%x) {k = 1 : i64} : (tensor<4x8xf32>) -> (tensor<4x1xf32>, tensor<4x1xi64>)
  return
}

// -----

// rlx.topk: the indices are i64.
func.func @topk_indices_not_i64(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.topk' op result #1 must be ranked tensor of 64-bit signless integer values, but got 'tensor<4x2xi32>'}}
  %0:2 = "rlx.topk"(%x) {k = 2 : i64, axis = 1 : i64} : (tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return
}

// -----

// rlx.topk: the axis has size k in the results.
func.func @topk_result_shape(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{'rlx.topk' op inferred type(s) 'tensor<4x2xf32>', 'tensor<4x2xi64>' are incompatible with return type(s) of operation 'tensor<4x8xf32>', 'tensor<4x8xi64>'}}
  // expected-error @+1 {{'rlx.topk' op failed to infer returned types}}
  %0:2 = "rlx.topk"(%x) {k = 2 : i64, axis = 1 : i64} : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xi64>)
  return
}

// -----

// rlx.topk: complex numbers have no order.
func.func @topk_complex(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{'rlx.topk' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 32-bit unsigned integer values, but got 'tensor<4xcomplex<f32>>'}}
  %0:2 = rlx.topk %x k = 1 axis = 0 : tensor<4xcomplex<f32>>
  return
}

// -----

// rlx.softmax_cross_entropy: logits have rank 2.
func.func @sce_logits_rank(%l: tensor<8x10x2xf32>, %y: tensor<8xi64>) {
  // expected-error @+1 {{'rlx.softmax_cross_entropy' op operand 'logits' must have rank 2, got 3}}
  %0 = rlx.softmax_cross_entropy %l, %y : tensor<8x10x2xf32>, tensor<8xi64>
  return
}

// -----

// rlx.softmax_cross_entropy: labels have rank 1.
func.func @sce_labels_rank(%l: tensor<8x10xf32>, %y: tensor<8x1xi64>) {
  // expected-error @+1 {{'rlx.softmax_cross_entropy' op operand 'labels' must have rank 1, got 2}}
  %0 = rlx.softmax_cross_entropy %l, %y : tensor<8x10xf32>, tensor<8x1xi64>
  return
}

// -----

// rlx.softmax_cross_entropy: one label per batch row.
func.func @sce_batch_mismatch(%l: tensor<8x10xf32>, %y: tensor<4xi64>) {
  // expected-error @+1 {{'rlx.softmax_cross_entropy' op operand 'labels' dim 0 (4) must match the batch dim of 'logits' (8)}}
  %0 = rlx.softmax_cross_entropy %l, %y : tensor<8x10xf32>, tensor<4xi64>
  return
}

// -----

// rlx.softmax_cross_entropy: labels are i64.
func.func @sce_labels_i32(%l: tensor<8x10xf32>, %y: tensor<8xi32>) {
  // expected-error @+1 {{'rlx.softmax_cross_entropy' op operand #1 must be ranked tensor of 64-bit signless integer values, but got 'tensor<8xi32>'}}
  %0 = rlx.softmax_cross_entropy %l, %y : tensor<8x10xf32>, tensor<8xi32>
  return
}

// -----

// rlx.softmax_cross_entropy: logits are floats.
func.func @sce_logits_int(%l: tensor<8x10xi32>, %y: tensor<8xi64>) {
  // expected-error @+1 {{'rlx.softmax_cross_entropy' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<8x10xi32>'}}
  %0 = rlx.softmax_cross_entropy %l, %y : tensor<8x10xi32>, tensor<8xi64>
  return
}

// -----

// rlx.softmax_cross_entropy: the loss is a scalar of the logits' type.
func.func @sce_result_type(%l: tensor<8x10xf32>, %y: tensor<8xi64>) {
  // expected-error @+2 {{'rlx.softmax_cross_entropy' op inferred type(s) 'tensor<f32>' are incompatible with return type(s) of operation 'tensor<8xf32>'}}
  // expected-error @+1 {{'rlx.softmax_cross_entropy' op failed to infer returned types}}
  %0 = "rlx.softmax_cross_entropy"(%l, %y) : (tensor<8x10xf32>, tensor<8xi64>) -> tensor<8xf32>
  return
}
