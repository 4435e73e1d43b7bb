// RUN: not rlx-opt %s -split-input-file 2>&1 | FileCheck %s --implicit-check-not=error:

// Malformed input: each split must give a diagnostic (and the run a non-zero
// exit status), never a crash.

// An unknown op in the custom form.
func.func @unknown_op(%x: tensor<4xf32>) {
  // CHECK: malformed.mlir:[[@LINE+1]]:8: error: custom op 'rlx.frobnicate' is unknown
  %0 = rlx.frobnicate %x : tensor<4xf32>
  return
}

// -----

// An unknown op in the generic form.
func.func @unknown_op_generic(%x: tensor<4xf32>) {
  // CHECK: malformed.mlir:[[@LINE+1]]:8: error: unregistered operation 'rlx.frobnicate' found in dialect ('rlx') that does not allow unknown operations
  %0 = "rlx.frobnicate"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// axes is an array, not an integer (custom form).
func.func @axes_wrong_attribute_type(%x: tensor<4x8xf32>) {
  // CHECK: malformed.mlir:[[@LINE+1]]:32: error: expected '['
  %0 = rlx.reduce sum %x axes = 1 : i64 : tensor<4x8xf32>
  return
}

// -----

// axes is an array, not an integer (generic form).
func.func @axes_wrong_attribute_type_generic(%x: tensor<4x8xf32>) {
  // CHECK: malformed.mlir:[[@LINE+1]]:8: error: 'rlx.reduce' op attribute 'axes' failed to satisfy constraint: i64 dense array attribute
  %0 = "rlx.reduce"(%x) {kind = "sum", axes = 1 : i64} : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

// axis is an integer, not a float.
func.func @axis_float(%x: tensor<4x8xf32>) {
  // CHECK: malformed.mlir:[[@LINE+1]]:34: error: floating point value not valid for specified type
  %0 = rlx.softmax %x axis = 1.5 : tensor<4x8xf32>
  return
}

// -----

// axis does not fit in 64 bits.
func.func @axis_too_wide(%x: tensor<4x8xf32>) {
  // CHECK: malformed.mlir:[[@LINE+1]]:29: error: integer constant out of range for attribute
  %0 = rlx.argmax %x axis = 99999999999999999999 : tensor<4x8xf32>
  return
}

// -----

// The enum of the custom form is a keyword or a string.
func.func @kind_not_keyword(%x: tensor<4x8xf32>) {
  // CHECK: malformed.mlir:[[@LINE+1]]:19: error: custom op 'rlx.reduce' expected valid keyword or string
  %0 = rlx.reduce 5 %x axes = [0] : tensor<4x8xf32>
  return
}

// -----

// The operand types are missing.
func.func @missing_type(%x: tensor<4xf32>) {
  // CHECK: malformed.mlir:[[@LINE+1]]:22: error: expected ':'
  %0 = rlx.add %x, %x
  return
}

// -----

// The type list does not match the operands' types.
func.func @type_mismatch(%x: tensor<4xf32>) {
  // CHECK: malformed.mlir:[[@LINE+1]]:16: error: use of value '%x' expects different type than prior uses: 'tensor<8xf32>' vs 'tensor<4xf32>'
  %0 = rlx.add %x, %x : tensor<8xf32>
  return
}

// -----

// An unranked tensor is not an RLX tensor.
func.func @unranked(%x: tensor<*xf32>) {
  // CHECK: malformed.mlir:[[@LINE+1]]:22: error: custom op 'rlx.sqrt' invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'
  %0 = rlx.sqrt %x : tensor<*xf32>
  return
}

// -----

// An undefined operand.
func.func @undefined_value(%x: tensor<4xf32>) {
  // CHECK: malformed.mlir:[[@LINE+1]]:16: error: use of undeclared SSA value name
  %0 = rlx.exp %y : tensor<4xf32>
  return
}

// -----

// A region that is never closed.
func.func @unterminated_region(%p: tensor<i1>) {
  rlx.if %p : tensor<i1> {
    // CHECK: malformed.mlir:[[@LINE+1]]:14: error: expected operation name in quotes
    rlx.yield

// -----

// An op cut off after an operand.
func.func @truncated_op(%x: tensor<4xf32>) {
  // CHECK: malformed.mlir:[[@LINE+1]]:19: error: expected SSA operand
  %0 = rlx.add %x,

// -----

// An op cut off inside its type.
func.func @truncated_type(%x: tensor<4xf32>) {
  // CHECK: malformed.mlir:[[@LINE+1]]:30: error: expected non-function type
  %0 = rlx.exp %x : tensor<4x
