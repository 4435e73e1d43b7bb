// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// rlx.gelu takes floats only.
func.func @gelu_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'rlx.gelu' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %0 = rlx.gelu %x : tensor<4xi32>
  return
}

// -----

// rlx.silu takes floats only.
func.func @silu_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'rlx.silu' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %0 = rlx.silu %x : tensor<4xi32>
  return
}

// -----

// rlx.sigmoid takes floats only.
func.func @sigmoid_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'rlx.sigmoid' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %0 = rlx.sigmoid %x : tensor<4xi32>
  return
}

// -----

// rlx.tanh takes floats only.
func.func @tanh_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'rlx.tanh' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %0 = rlx.tanh %x : tensor<4xi32>
  return
}

// -----

// rlx.sqrt takes floats only.
func.func @sqrt_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'rlx.sqrt' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %0 = rlx.sqrt %x : tensor<4xi32>
  return
}

// -----

// rlx.rsqrt takes floats only.
func.func @rsqrt_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'rlx.rsqrt' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %0 = rlx.rsqrt %x : tensor<4xi32>
  return
}

// -----

// rlx.sin takes floats only.
func.func @sin_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'rlx.sin' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %0 = rlx.sin %x : tensor<4xi32>
  return
}

// -----

// rlx.cos takes floats only.
func.func @cos_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'rlx.cos' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %0 = rlx.cos %x : tensor<4xi32>
  return
}

// -----

// rlx.tan takes floats only.
func.func @tan_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'rlx.tan' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %0 = rlx.tan %x : tensor<4xi32>
  return
}

// -----

// rlx.atan takes floats only.
func.func @atan_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'rlx.atan' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %0 = rlx.atan %x : tensor<4xi32>
  return
}

// -----

// rlx.round takes floats only.
func.func @round_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'rlx.round' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %0 = rlx.round %x : tensor<4xi32>
  return
}

// -----

// rlx.exp takes floats and complex numbers only.
func.func @exp_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'rlx.exp' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<4xi32>'}}
  %0 = rlx.exp %x : tensor<4xi32>
  return
}

// -----

// rlx.log takes floats and complex numbers only.
func.func @log_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'rlx.log' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<4xi32>'}}
  %0 = rlx.log %x : tensor<4xi32>
  return
}

// -----

// rlx.relu rejects unsigned integers.
func.func @relu_unsigned(%x: tensor<4xui8>) {
  // expected-error @+1 {{'rlx.relu' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xui8>'}}
  %0 = rlx.relu %x : tensor<4xui8>
  return
}

// -----

// rlx.relu rejects complex numbers.
func.func @relu_complex(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{'rlx.relu' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xcomplex<f32>>'}}
  %0 = rlx.relu %x : tensor<4xcomplex<f32>>
  return
}

// -----

// rlx.abs rejects unsigned integers.
func.func @abs_unsigned(%x: tensor<4xui8>) {
  // expected-error @+1 {{'rlx.abs' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xui8>'}}
  %0 = rlx.abs %x : tensor<4xui8>
  return
}

// -----

// rlx.abs rejects complex numbers.
func.func @abs_complex(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{'rlx.abs' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xcomplex<f32>>'}}
  %0 = rlx.abs %x : tensor<4xcomplex<f32>>
  return
}

// -----

// rlx.neg rejects unsigned integers.
func.func @neg_unsigned(%x: tensor<4xui32>) {
  // expected-error @+1 {{'rlx.neg' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<4xui32>'}}
  %0 = rlx.neg %x : tensor<4xui32>
  return
}

// -----

// rlx.neg rejects booleans.
func.func @neg_bool(%x: tensor<4xi1>) {
  // expected-error @+1 {{'rlx.neg' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<4xi1>'}}
  %0 = rlx.neg %x : tensor<4xi1>
  return
}

// -----

// A unary op's result has its operand's type.
func.func @unary_result_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.exp' op requires the same type for all operands and results}}
  %0 = "rlx.exp"(%x) : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

// A unary op's result has its operand's shape.
func.func @unary_result_shape(%x: tensor<4xf32>) {
  // expected-error @+2 {{'rlx.relu' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<?xf32>'}}
  // expected-error @+1 {{'rlx.relu' op failed to infer returned types}}
  %0 = "rlx.relu"(%x) : (tensor<4xf32>) -> tensor<?xf32>
  return
}

// -----

// rlx.gelu: approximate must be "none" or "tanh".
func.func @gelu_bad_approximate(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.gelu' op attribute 'approximate' failed to satisfy constraint: gelu approximation: one of 'none', 'tanh'}}
  %0 = "rlx.gelu"(%x) {approximate = "erf"} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// rlx.gelu: approximate is a string, not a bool.
func.func @gelu_approximate_not_string(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.gelu' op attribute 'approximate' failed to satisfy constraint: gelu approximation: one of 'none', 'tanh'}}
  %0 = "rlx.gelu"(%x) {approximate = true} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// rlx.add rejects booleans.
func.func @add_bool(%x: tensor<4xi1>) {
  // expected-error @+1 {{'rlx.add' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 32-bit unsigned integer or complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<4xi1>'}}
  %0 = rlx.add %x, %x : tensor<4xi1>
  return
}

// -----

// rlx.sub rejects booleans.
func.func @sub_bool(%x: tensor<4xi1>) {
  // expected-error @+1 {{'rlx.sub' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 32-bit unsigned integer or complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<4xi1>'}}
  %0 = rlx.sub %x, %x : tensor<4xi1>
  return
}

// -----

// rlx.mul rejects booleans.
func.func @mul_bool(%x: tensor<4xi1>) {
  // expected-error @+1 {{'rlx.mul' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 32-bit unsigned integer or complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<4xi1>'}}
  %0 = rlx.mul %x, %x : tensor<4xi1>
  return
}

// -----

// rlx.div rejects booleans.
func.func @div_bool(%x: tensor<4xi1>) {
  // expected-error @+1 {{'rlx.div' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 32-bit unsigned integer or complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<4xi1>'}}
  %0 = rlx.div %x, %x : tensor<4xi1>
  return
}

// -----

// rlx.max rejects complex numbers (they have no order).
func.func @max_complex(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{'rlx.max' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 32-bit unsigned integer values, but got 'tensor<4xcomplex<f32>>'}}
  %0 = rlx.max %x, %x : tensor<4xcomplex<f32>>
  return
}

// -----

// rlx.min rejects complex numbers (they have no order).
func.func @min_complex(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{'rlx.min' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 32-bit unsigned integer values, but got 'tensor<4xcomplex<f32>>'}}
  %0 = rlx.min %x, %x : tensor<4xcomplex<f32>>
  return
}

// -----

// rlx.pow takes floats only.
func.func @pow_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'rlx.pow' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %0 = rlx.pow %x, %x : tensor<4xi32>
  return
}

// -----

// The operands of a binary op share an element type.
func.func @binary_element_type_mismatch(%x: tensor<4xf32>, %y: tensor<4xf16>) {
  // expected-error @+1 {{'rlx.sub' op operand 'rhs' has element type 'f16' but 'lhs' has 'f32'}}
  %0 = rlx.sub %x, %y : tensor<4xf32>, tensor<4xf16>
  return
}

// -----

// The shapes of a binary op must broadcast.
func.func @binary_not_broadcastable(%x: tensor<4x8xf32>, %y: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.mul' op operands 'lhs' and 'rhs' are not broadcast-compatible: dim 8 vs 4 at result dim 1}}
  %0 = rlx.mul %x, %y : tensor<4x8xf32>, tensor<4xf32>
  return
}

// -----

// Broadcasting aligns at the last dim: a leading mismatch is caught too.
func.func @binary_not_broadcastable_leading(%x: tensor<2x3x8xi32>, %y: tensor<5x1x8xi32>) {
  // expected-error @+1 {{'rlx.add' op operands 'lhs' and 'rhs' are not broadcast-compatible: dim 2 vs 5 at result dim 0}}
  %0 = rlx.add %x, %y : tensor<2x3x8xi32>, tensor<5x1x8xi32>
  return
}

// -----

// The result of a binary op has the broadcast shape.
func.func @binary_result_type(%x: tensor<4x8xf32>, %y: tensor<8xf32>) {
  // expected-error @+2 {{'rlx.add' op inferred type(s) 'tensor<4x8xf32>' are incompatible with return type(s) of operation 'tensor<8xf32>'}}
  // expected-error @+1 {{'rlx.add' op failed to infer returned types}}
  %0 = "rlx.add"(%x, %y) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

// A binary op needs ranked tensor operands; the parser rejects the type.
func.func @binary_unranked(%x: tensor<*xf32>) {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
  %0 = rlx.div %x, %x : tensor<*xf32>
  return
}

// -----

// rlx.cmp: an unknown predicate.
func.func @cmp_bad_predicate(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.cmp' op attribute 'predicate' failed to satisfy constraint: comparison predicate: one of 'eq', 'ne', 'lt', 'le', 'gt', 'ge'}}
  %0 = rlx.cmp lq, %x, %x : tensor<4xf32>
  return
}

// -----

// rlx.cmp: the predicate is required.
func.func @cmp_missing_predicate(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.cmp' op requires attribute 'predicate'}}
  %0 = "rlx.cmp"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}

// -----

// rlx.cmp: the operands share an element type.
func.func @cmp_element_type_mismatch(%x: tensor<4xf32>, %y: tensor<4xi32>) {
  // expected-error @+1 {{'rlx.cmp' op operand 'rhs' has element type 'i32' but 'lhs' has 'f32'}}
  %0 = rlx.cmp eq, %x, %y : tensor<4xf32>, tensor<4xi32>
  return
}

// -----

// rlx.cmp: the shapes must broadcast.
func.func @cmp_not_broadcastable(%x: tensor<4xf32>, %y: tensor<3xf32>) {
  // expected-error @+1 {{'rlx.cmp' op operands 'lhs' and 'rhs' are not broadcast-compatible: dim 4 vs 3 at result dim 0}}
  %0 = rlx.cmp eq, %x, %y : tensor<4xf32>, tensor<3xf32>
  return
}

// -----

// rlx.cmp: the result is i1.
func.func @cmp_result_not_bool(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.cmp' op result #0 must be ranked tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = "rlx.cmp"(%x, %x) {predicate = "eq"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// rlx.cmp: the result has the broadcast shape.
func.func @cmp_result_shape(%x: tensor<4x8xf32>, %y: tensor<8xf32>) {
  // expected-error @+2 {{'rlx.cmp' op inferred type(s) 'tensor<4x8xi1>' are incompatible with return type(s) of operation 'tensor<8xi1>'}}
  // expected-error @+1 {{'rlx.cmp' op failed to infer returned types}}
  %0 = "rlx.cmp"(%x, %y) {predicate = "gt"} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<8xi1>
  return
}

// -----

// rlx.cmp: an element type outside the dialect's set.
func.func @cmp_bad_element_type(%x: tensor<4xf8E5M2>) {
  // expected-error @+1 {{'rlx.cmp' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 32-bit unsigned integer or 1-bit signless integer or complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<4xf8E5M2>'}}
  %0 = rlx.cmp eq, %x, %x : tensor<4xf8E5M2>
  return
}

// -----

// rlx.where: the condition is i1.
func.func @where_condition_not_bool(%m: tensor<4xf32>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.where' op operand #0 must be ranked tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = rlx.where %m, %x, %x : tensor<4xf32>, tensor<4xf32>
  return
}

// -----

// rlx.where: on_true and on_false share an element type.
func.func @where_element_type_mismatch(%m: tensor<4xi1>, %x: tensor<4xf32>, %y: tensor<4xf16>) {
  // expected-error @+1 {{'rlx.where' op operand 'on_false' has element type 'f16' but 'on_true' has 'f32'}}
  %0 = rlx.where %m, %x, %y : tensor<4xi1>, tensor<4xf32>, tensor<4xf16>
  return
}

// -----

// rlx.where: the condition must broadcast with the values.
func.func @where_condition_not_broadcastable(%m: tensor<3xi1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.where' op operands 'condition' and 'on_true' are not broadcast-compatible: dim 3 vs 4 at result dim 0}}
  %0 = rlx.where %m, %x, %x : tensor<3xi1>, tensor<4xf32>
  return
}

// -----

// rlx.where: on_true and on_false must broadcast.
func.func @where_values_not_broadcastable(%m: tensor<i1>, %x: tensor<4xf32>, %y: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.where' op operands 'on_true' and 'on_false' are not broadcast-compatible: dim 4 vs 3 at result dim 1}}
  %0 = rlx.where %m, %x, %y : tensor<i1>, tensor<4xf32>, tensor<2x3xf32>
  return
}

// -----

// rlx.where: the result takes the values' element type.
func.func @where_result_type(%m: tensor<4xi1>, %x: tensor<4xf32>) {
  // expected-error @+2 {{'rlx.where' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xi1>'}}
  // expected-error @+1 {{'rlx.where' op failed to infer returned types}}
  %0 = "rlx.where"(%m, %x, %x) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}

// -----

// rlx.fma: b has a's element type.
func.func @fma_b_element_type(%x: tensor<4xf32>, %y: tensor<4xf16>) {
  // expected-error @+1 {{'rlx.fma' op operand 'b' has element type 'f16' but 'a' has 'f32'}}
  %0 = rlx.fma %x, %y, %x : tensor<4xf32>, tensor<4xf16>, tensor<4xf32>
  return
}

// -----

// rlx.fma: c has a's element type.
func.func @fma_c_element_type(%x: tensor<4xf32>, %y: tensor<4xbf16>) {
  // expected-error @+1 {{'rlx.fma' op operand 'c' has element type 'bf16' but 'a' has 'f32'}}
  %0 = rlx.fma %x, %x, %y : tensor<4xf32>, tensor<4xf32>, tensor<4xbf16>
  return
}

// -----

// rlx.fma: the three shapes must broadcast.
func.func @fma_not_broadcastable(%x: tensor<4xf32>, %y: tensor<3xf32>) {
  // expected-error @+1 {{'rlx.fma' op operands 'a' and 'c' are not broadcast-compatible: dim 4 vs 3 at result dim 0}}
  %0 = rlx.fma %x, %x, %y : tensor<4xf32>, tensor<4xf32>, tensor<3xf32>
  return
}

// -----

// rlx.fma: b and c are checked against each other too.
func.func @fma_b_c_not_broadcastable(%a: tensor<f32>, %b: tensor<4x1xf32>, %c: tensor<3x1xf32>) {
  // expected-error @+1 {{'rlx.fma' op operands 'b' and 'c' are not broadcast-compatible: dim 4 vs 3 at result dim 0}}
  %0 = rlx.fma %a, %b, %c : tensor<f32>, tensor<4x1xf32>, tensor<3x1xf32>
  return
}

// -----

// rlx.fma rejects booleans.
func.func @fma_bool(%x: tensor<4xi1>) {
  // expected-error @+1 {{'rlx.fma' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 32-bit unsigned integer or complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<4xi1>'}}
  %0 = rlx.fma %x, %x, %x : tensor<4xi1>
  return
}

// -----

// rlx.fma: the result has the broadcast shape.
func.func @fma_result_type(%x: tensor<4x8xf32>, %y: tensor<8xf32>) {
  // expected-error @+2 {{'rlx.fma' op inferred type(s) 'tensor<4x8xf32>' are incompatible with return type(s) of operation 'tensor<8xf32>'}}
  // expected-error @+1 {{'rlx.fma' op failed to infer returned types}}
  %0 = "rlx.fma"(%y, %x, %y) : (tensor<8xf32>, tensor<4x8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

// rlx.elementwise_region: at least one result.
func.func @region_no_results(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.elementwise_region' op must have at least one result}}
  "rlx.elementwise_region"(%x) ({
  ^bb0(%a: f32):
    rlx.yield
  }) : (tensor<4x8xf32>) -> ()
  return
}

// -----

// rlx.elementwise_region: one block argument per input.
func.func @region_argument_count(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.elementwise_region' op body has 2 arguments but the op has 1 inputs}}
  %0 = rlx.elementwise_region ins(%x : tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: f32, %b: f32):
    rlx.yield %a : f32
  }
  return
}

// -----

// rlx.elementwise_region: a block argument has its input's element type.
func.func @region_argument_type(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.elementwise_region' op body argument #0 has type 'f16' but input #0 has element type 'f32'}}
  %0 = rlx.elementwise_region ins(%x : tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: f16):
    %e = arith.extf %a : f16 to f32
    rlx.yield %e : f32
  }
  return
}

// -----

// rlx.elementwise_region: block arguments are scalars, not tensors.
func.func @region_argument_tensor(%x: tensor<4x8xf32>, %y: tensor<4x8xi32>) {
  // expected-error @+1 {{'rlx.elementwise_region' op body argument #1 has type 'tensor<4x8xi32>' but input #1 has element type 'i32'}}
  %0 = rlx.elementwise_region ins(%x, %y : tensor<4x8xf32>, tensor<4x8xi32>) -> tensor<4x8xf32> {
  ^bb0(%a: f32, %b: tensor<4x8xi32>):
    rlx.yield %a : f32
  }
  return
}

// -----

// rlx.elementwise_region: one yielded value per result.
func.func @region_yield_count(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.elementwise_region' op body yields 2 values but the op has 1 results}}
  %0 = rlx.elementwise_region ins(%x : tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: f32):
    rlx.yield %a, %a : f32, f32
  }
  return
}

// -----

// rlx.elementwise_region: a yielded value has its result's element type.
func.func @region_yield_type(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.elementwise_region' op body yields 'f32' for result #0 whose element type is 'f16'}}
  %0 = rlx.elementwise_region ins(%x : tensor<4x8xf32>) -> tensor<4x8xf16> {
  ^bb0(%a: f32):
    rlx.yield %a : f32
  }
  return
}

// -----

// rlx.elementwise_region: every result has the inputs' broadcast shape.
func.func @region_result_shape(%x: tensor<4x8xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.elementwise_region' op result #1 has type 'tensor<8xi1>' but the inputs broadcast to 'tensor<4x8xf32>'}}
  %0:2 = rlx.elementwise_region ins(%x, %b : tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>, tensor<8xi1> {
  ^bb0(%a: f32, %c: f32):
    %p = arith.cmpf olt, %a, %c : f32
    rlx.yield %a, %p : f32, i1
  }
  return
}

// -----

// rlx.elementwise_region: the body ends in rlx.yield.
func.func @region_bad_terminator(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{'rlx.elementwise_region' op expects regions to end with 'rlx.yield', found 'llvm.unreachable'}}
  // expected-note @+1 {{in custom textual format, the absence of terminator implies 'rlx.yield'}}
  %0 = rlx.elementwise_region ins(%x : tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: f32):
    llvm.unreachable
  }
  return
}

// -----

// rlx.elementwise_region: the body has a block.
func.func @region_empty(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.elementwise_region' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
  %0 = "rlx.elementwise_region"(%x) ({}) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

// rlx.elementwise_region: the body has no more than one block.
func.func @region_two_blocks(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'rlx.elementwise_region' op expects region #0 to have 0 or 1 blocks}}
  %0 = "rlx.elementwise_region"(%x) ({
  ^bb0(%a: f32):
    rlx.yield %a : f32
  ^bb1:
    rlx.yield %a : f32
  }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

// rlx.elementwise_region: the body is isolated from above.
func.func @region_isolated(%x: tensor<4x8xf32>) {
  %c = arith.constant 1.0 : f32
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = rlx.elementwise_region ins(%x : tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: f32):
    // expected-error @+1 {{'rlx.yield' op using value defined outside the region}}
    rlx.yield %c : f32
  }
  return
}

// -----

// rlx.elementwise_region: inputs that do not broadcast are named by number.
func.func @region_inputs_not_broadcastable(%x: tensor<4x8xf32>, %z: tensor<5xf32>) {
  // expected-error @+1 {{'rlx.elementwise_region' op operands 'input #0' and 'input #1' are not broadcast-compatible: dim 8 vs 5 at result dim 1}}
  %y = rlx.elementwise_region ins(%x, %z : tensor<4x8xf32>, tensor<5xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    rlx.yield %s : f32
  }
  return
}

// -----

// rlx.elementwise_region: a region without inputs is rejected.
func.func @region_no_inputs() {
  // expected-error @+1 {{'rlx.elementwise_region' op must have at least one input (use rlx.constant for values that depend on none)}}
  %y = "rlx.elementwise_region"() ({
    %c = arith.constant 1.0 : f32
    rlx.yield %c : f32
  }) : () -> tensor<4xf32>
  return
}

// -----

// rlx.cmp: complex numbers have no order.
func.func @cmp_complex_ordered(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{'rlx.cmp' op complex operands only compare with 'eq' and 'ne', not 'lt'}}
  %y = rlx.cmp lt, %x, %x : tensor<4xcomplex<f32>>
  return
}
