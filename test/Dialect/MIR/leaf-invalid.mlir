// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// rlx.constant: the value must have a ranked tensor type.
func.func @constant_value_not_tensor() {
  // expected-error @+1 {{'rlx.constant' op 'value' must have a ranked tensor type, got 'vector<2xf32>'}}
  %0 = rlx.constant dense<1.0> : vector<2xf32>
  return
}

// -----

// rlx.constant: the result type must be the value's type.
func.func @constant_result_type_mismatch() {
  // expected-error @+2 {{'rlx.constant' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @+1 {{'rlx.constant' op failed to infer returned types}}
  %0 = "rlx.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<3xf32>
  return
}

// -----

// rlx.constant: an element type outside the dialect's set (i4).
func.func @constant_bad_element_type() {
  // expected-error @+1 {{'rlx.constant' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 32-bit unsigned integer or 1-bit signless integer or complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<2xi4>'}}
  %0 = rlx.constant dense<1> : tensor<2xi4>
  return
}

// -----

// rlx.constant: complex<f16> is not a dialect element type.
func.func @constant_complex_f16() {
  // expected-error @+1 {{'rlx.constant' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 32-bit unsigned integer or 1-bit signless integer or complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<2xcomplex<f16>>'}}
  %0 = rlx.constant dense<(1.0, 2.0)> : tensor<2xcomplex<f16>>
  return
}

// -----

// rlx.constant: `value` must be an elements attribute.
func.func @constant_value_not_elements() {
  // expected-error @+1 {{'rlx.constant' op attribute 'value' failed to satisfy constraint: constant vector/tensor attribute}}
  %0 = "rlx.constant"() {value = 1.0 : f32} : () -> tensor<f32>
  return
}

// -----

// rlx.constant: `value` is required.
func.func @constant_missing_value() {
  // expected-error @+1 {{'rlx.constant' op requires attribute 'value'}}
  %0 = "rlx.constant"() : () -> tensor<1xf32>
  return
}

// -----

// rlx.param: the name must not be empty.
func.func @param_empty_name() {
  // expected-error @+1 {{'rlx.param' op 'name' must not be empty}}
  %0 = rlx.param "" : tensor<4xf32>
  return
}

// -----

// rlx.param: `name` is required.
func.func @param_missing_name() {
  // expected-error @+1 {{'rlx.param' op requires attribute 'name'}}
  %0 = "rlx.param"() : () -> tensor<1xf32>
  return
}

// -----

// rlx.param: `name` must be a string.
func.func @param_name_not_string() {
  // expected-error @+1 {{'rlx.param' op attribute 'name' failed to satisfy constraint: string attribute}}
  %0 = "rlx.param"() {name = 1 : i64} : () -> tensor<4xf32>
  return
}

// -----

// rlx.param: the result must be a ranked tensor of a dialect element type.
func.func @param_memref() {
  // expected-error @+1 {{'rlx.param' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 32-bit unsigned integer or 1-bit signless integer or complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'memref<4xf32>'}}
  %0 = "rlx.param"() {name = "w"} : () -> memref<4xf32>
  return
}

// -----

// rlx.param: an element type outside the dialect's set (index).
func.func @param_bad_element_type() {
  // expected-error @+1 {{'rlx.param' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 32-bit unsigned integer or 1-bit signless integer or complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<4xindex>'}}
  %0 = rlx.param "w" : tensor<4xindex>
  return
}

// -----

// rlx.cast: the shape may not change.
func.func @cast_shape_mismatch(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.cast' op requires the same shape for all operands and results}}
  %0 = rlx.cast %x : tensor<4xf32> -> tensor<8xf16>
  return
}

// -----

// rlx.cast: the rank may not change.
func.func @cast_rank_mismatch(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.cast' op requires the same shape for all operands and results}}
  %0 = rlx.cast %x : tensor<4xf32> -> tensor<4x1xf32>
  return
}

// -----

// rlx.cast: the target element type must be a dialect element type.
func.func @cast_bad_result_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.cast' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 32-bit unsigned integer or 1-bit signless integer or complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<4xi4>'}}
  %0 = rlx.cast %x : tensor<4xf32> -> tensor<4xi4>
  return
}

// -----

// rlx.cast: the source element type must be a dialect element type.
func.func @cast_bad_operand_type(%x: tensor<4xf8E4M3FN>) {
  // expected-error @+1 {{'rlx.cast' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 32-bit unsigned integer or 1-bit signless integer or complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<4xf8E4M3FN>'}}
  %0 = rlx.cast %x : tensor<4xf8E4M3FN> -> tensor<4xf32>
  return
}

// -----

// rlx.stop_gradient: the result has the operand's type.
func.func @stop_gradient_type_mismatch(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.stop_gradient' op requires the same type for all operands and results}}
  %0 = "rlx.stop_gradient"(%x) : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

// rlx.stop_gradient: an element type outside the dialect's set.
func.func @stop_gradient_bad_element_type(%x: tensor<4xf8E4M3FN>) {
  // expected-error @+1 {{'rlx.stop_gradient' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer or 8-bit unsigned integer or 32-bit unsigned integer or 1-bit signless integer or complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<4xf8E4M3FN>'}}
  %0 = rlx.stop_gradient %x : tensor<4xf8E4M3FN>
  return
}

// -----

// rlx.param: two uses of one weight name must agree on the type.
func.func @param_type_disagrees() {
  // expected-note @+1 {{first use of "w"}}
  %a = rlx.param "w" : tensor<4xf32>
  // expected-error @+1 {{'rlx.param' op weight "w" has type 'tensor<8xf16>' here but 'tensor<4xf32>' at an earlier use}}
  %b = rlx.param "w" : tensor<8xf16>
  return
}
