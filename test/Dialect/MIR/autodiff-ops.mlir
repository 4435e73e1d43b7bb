// RUN: rlx-opt %s | FileCheck %s
// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round trips of the autodiff transform ops against func.func callees in the
// same module.

// A scalar loss of a weight and an input.
// CHECK-LABEL: func.func @loss
func.func @loss(%w: tensor<4x4xf32>, %x: tensor<8x4xf32>) -> tensor<f32> {
  %y = rlx.matmul %x, %w : tensor<8x4xf32>, tensor<4x4xf32>
  %s = rlx.reduce sum %y axes = [0, 1] : tensor<8x4xf32>
  return %s : tensor<f32>
}

// A loss that also takes integer labels (never differentiated).
// CHECK-LABEL: func.func @ce_loss
func.func @ce_loss(%logits: tensor<8x10xf64>, %labels: tensor<8xi64>) -> tensor<f64> {
  %c = rlx.constant dense<0.0> : tensor<f64>
  return %c : tensor<f64>
}

// A function of two arguments with two results.
// CHECK-LABEL: func.func @two_results
func.func @two_results(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> (tensor<4xf32>, tensor<4x4xf32>) {
  return %x, %w : tensor<4xf32>, tensor<4x4xf32>
}

// A per-example function for vmap.
// CHECK-LABEL: func.func @per_example
func.func @per_example(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// A rank-0 function.
// CHECK-LABEL: func.func @scalar_fn
func.func @scalar_fn(%x: tensor<bf16>) -> tensor<bf16> {
  return %x : tensor<bf16>
}

//===----------------------------------------------------------------------===//
// rlx.grad
//===----------------------------------------------------------------------===//

// The loss, then one gradient per `wrt` argument, of that argument's type.
// CHECK-LABEL: func.func @grad
// CHECK-SAME:    (%[[W:[^:]+]]: tensor<4x4xf32>, %[[X:[^:]+]]: tensor<8x4xf32>)
func.func @grad(%w: tensor<4x4xf32>, %x: tensor<8x4xf32>)
    -> (tensor<f32>, tensor<4x4xf32>, tensor<f32>, tensor<4x4xf32>, tensor<8x4xf32>) {
  // CHECK: %[[G:.+]]:2 = rlx.grad @loss(%[[W]], %[[X]]) wrt [0] : (tensor<4x4xf32>, tensor<8x4xf32>) -> (tensor<f32>, tensor<4x4xf32>)
  %g:2 = rlx.grad @loss(%w, %x) wrt [0] : (tensor<4x4xf32>, tensor<8x4xf32>) -> (tensor<f32>, tensor<4x4xf32>)
  // CHECK: %[[H:.+]]:3 = rlx.grad @loss(%[[W]], %[[X]]) wrt [0, 1] : (tensor<4x4xf32>, tensor<8x4xf32>) -> (tensor<f32>, tensor<4x4xf32>, tensor<8x4xf32>)
  %h:3 = rlx.grad @loss(%w, %x) wrt [0, 1] : (tensor<4x4xf32>, tensor<8x4xf32>) -> (tensor<f32>, tensor<4x4xf32>, tensor<8x4xf32>)
  // CHECK: return %[[G]]#0, %[[G]]#1, %[[H]]#0, %[[H]]#1, %[[H]]#2
  return %g#0, %g#1, %h#0, %h#1, %h#2 : tensor<f32>, tensor<4x4xf32>, tensor<f32>, tensor<4x4xf32>, tensor<8x4xf32>
}

// wrt in any order and with negative indices; the gradients follow the
// order of wrt.
// CHECK-LABEL: func.func @grad_wrt_order
// CHECK-SAME:    (%[[W:[^:]+]]: tensor<4x4xf32>, %[[X:[^:]+]]: tensor<8x4xf32>)
func.func @grad_wrt_order(%w: tensor<4x4xf32>, %x: tensor<8x4xf32>) {
  // CHECK: rlx.grad @loss(%[[W]], %[[X]]) wrt [1, 0] : (tensor<4x4xf32>, tensor<8x4xf32>) -> (tensor<f32>, tensor<8x4xf32>, tensor<4x4xf32>)
  %a:3 = rlx.grad @loss(%w, %x) wrt [1, 0] : (tensor<4x4xf32>, tensor<8x4xf32>) -> (tensor<f32>, tensor<8x4xf32>, tensor<4x4xf32>)
  // CHECK: rlx.grad @loss(%[[W]], %[[X]]) wrt [-1] : (tensor<4x4xf32>, tensor<8x4xf32>) -> (tensor<f32>, tensor<8x4xf32>)
  %b:2 = rlx.grad @loss(%w, %x) wrt [-1] : (tensor<4x4xf32>, tensor<8x4xf32>) -> (tensor<f32>, tensor<8x4xf32>)
  return
}

// An f64 loss with an integer argument left out of wrt.
// CHECK-LABEL: func.func @grad_integer_argument
// CHECK-SAME:    (%[[L:[^:]+]]: tensor<8x10xf64>, %[[Y:[^:]+]]: tensor<8xi64>)
func.func @grad_integer_argument(%l: tensor<8x10xf64>, %y: tensor<8xi64>) -> tensor<8x10xf64> {
  // CHECK: %[[G:.+]]:2 = rlx.grad @ce_loss(%[[L]], %[[Y]]) wrt [0] : (tensor<8x10xf64>, tensor<8xi64>) -> (tensor<f64>, tensor<8x10xf64>)
  %g:2 = rlx.grad @ce_loss(%l, %y) wrt [0] : (tensor<8x10xf64>, tensor<8xi64>) -> (tensor<f64>, tensor<8x10xf64>)
  // CHECK: return %[[G]]#1 : tensor<8x10xf64>
  return %g#1 : tensor<8x10xf64>
}

// The loss of a rank-0 function of a rank-0 argument.
// CHECK-LABEL: func.func @grad_scalar
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<bf16>)
func.func @grad_scalar(%x: tensor<bf16>) {
  // CHECK: rlx.grad @scalar_fn(%[[X]]) wrt [0] : (tensor<bf16>) -> (tensor<bf16>, tensor<bf16>)
  %g:2 = rlx.grad @scalar_fn(%x) wrt [0] : (tensor<bf16>) -> (tensor<bf16>, tensor<bf16>)
  return
}

//===----------------------------------------------------------------------===//
// rlx.jvp
//===----------------------------------------------------------------------===//

// The callee's results, then one tangent per result.
// CHECK-LABEL: func.func @jvp
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<4xf32>, %[[W:[^:]+]]: tensor<4x4xf32>, %[[TX:[^:]+]]: tensor<4xf32>, %[[TW:[^:]+]]: tensor<4x4xf32>)
func.func @jvp(%x: tensor<4xf32>, %w: tensor<4x4xf32>, %tx: tensor<4xf32>, %tw: tensor<4x4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK: %[[J:.+]]:2 = rlx.jvp @per_example(%[[X]], %[[W]]) tangents(%[[TX]], %[[TW]]) : (tensor<4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4x4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %j:2 = rlx.jvp @per_example(%x, %w) tangents(%tx, %tw) : (tensor<4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4x4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  // CHECK: return %[[J]]#0, %[[J]]#1 : tensor<4xf32>, tensor<4xf32>
  return %j#0, %j#1 : tensor<4xf32>, tensor<4xf32>
}

// Two results give two outputs and two tangents; a rank-0 bf16 function.
// CHECK-LABEL: func.func @jvp_shapes_and_types
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<4xf32>, %[[W:[^:]+]]: tensor<4x4xf32>, %[[S:[^:]+]]: tensor<bf16>)
func.func @jvp_shapes_and_types(%x: tensor<4xf32>, %w: tensor<4x4xf32>, %s: tensor<bf16>) {
  // CHECK: rlx.jvp @two_results(%[[X]], %[[W]]) tangents(%[[X]], %[[W]]) : (tensor<4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4x4xf32>) -> (tensor<4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4x4xf32>)
  %a:4 = rlx.jvp @two_results(%x, %w) tangents(%x, %w) : (tensor<4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4x4xf32>) -> (tensor<4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4x4xf32>)
  // CHECK: rlx.jvp @scalar_fn(%[[S]]) tangents(%[[S]]) : (tensor<bf16>, tensor<bf16>) -> (tensor<bf16>, tensor<bf16>)
  %b:2 = rlx.jvp @scalar_fn(%s) tangents(%s) : (tensor<bf16>, tensor<bf16>) -> (tensor<bf16>, tensor<bf16>)
  return
}

//===----------------------------------------------------------------------===//
// rlx.vmap
//===----------------------------------------------------------------------===//

// in_axes -1 passes an operand whole; the batch dim is inserted at in_axes
// in the operands and at out_axes in the results.
// CHECK-LABEL: func.func @vmap
// CHECK-SAME:    (%[[XS:[^:]+]]: tensor<16x4xf32>, %[[W:[^:]+]]: tensor<4x4xf32>, %[[XT:[^:]+]]: tensor<4x16xf32>, %[[WS:[^:]+]]: tensor<16x4x4xf32>)
func.func @vmap(%xs: tensor<16x4xf32>, %w: tensor<4x4xf32>, %xt: tensor<4x16xf32>, %ws: tensor<16x4x4xf32>)
    -> (tensor<16x4xf32>, tensor<4x16xf32>, tensor<16x4xf32>) {
  // CHECK: %[[A:.+]] = rlx.vmap @per_example(%[[XS]], %[[W]]) in_axes [0, -1] out_axes [0] : (tensor<16x4xf32>, tensor<4x4xf32>) -> tensor<16x4xf32>
  %a = rlx.vmap @per_example(%xs, %w) in_axes [0, -1] out_axes [0] : (tensor<16x4xf32>, tensor<4x4xf32>) -> tensor<16x4xf32>
  // CHECK: %[[B:.+]] = rlx.vmap @per_example(%[[XT]], %[[W]]) in_axes [1, -1] out_axes [1] : (tensor<4x16xf32>, tensor<4x4xf32>) -> tensor<4x16xf32>
  %b = rlx.vmap @per_example(%xt, %w) in_axes [1, -1] out_axes [1] : (tensor<4x16xf32>, tensor<4x4xf32>) -> tensor<4x16xf32>
  // Both operands mapped, with the same batch size.
  // CHECK: %[[C:.+]] = rlx.vmap @per_example(%[[XS]], %[[WS]]) in_axes [0, 0] out_axes [0] : (tensor<16x4xf32>, tensor<16x4x4xf32>) -> tensor<16x4xf32>
  %c = rlx.vmap @per_example(%xs, %ws) in_axes [0, 0] out_axes [0] : (tensor<16x4xf32>, tensor<16x4x4xf32>) -> tensor<16x4xf32>
  // CHECK: return %[[A]], %[[B]], %[[C]] : tensor<16x4xf32>, tensor<4x16xf32>, tensor<16x4xf32>
  return %a, %b, %c : tensor<16x4xf32>, tensor<4x16xf32>, tensor<16x4xf32>
}

// Two results with their own out_axes; a batch dim at the end of the
// operand (axis = rank); a dynamic batch size; a rank-0 callee.
// CHECK-LABEL: func.func @vmap_shapes_and_types
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<4x8xf32>, %[[W:[^:]+]]: tensor<4x4xf32>, %[[XD:[^:]+]]: tensor<?x4xf32>, %[[S:[^:]+]]: tensor<5xbf16>)
func.func @vmap_shapes_and_types(%x: tensor<4x8xf32>, %w: tensor<4x4xf32>, %xd: tensor<?x4xf32>, %s: tensor<5xbf16>) {
  // CHECK: rlx.vmap @two_results(%[[X]], %[[W]]) in_axes [1, -1] out_axes [0, 2] : (tensor<4x8xf32>, tensor<4x4xf32>) -> (tensor<8x4xf32>, tensor<4x4x8xf32>)
  %a:2 = rlx.vmap @two_results(%x, %w) in_axes [1, -1] out_axes [0, 2] : (tensor<4x8xf32>, tensor<4x4xf32>) -> (tensor<8x4xf32>, tensor<4x4x8xf32>)
  // CHECK: rlx.vmap @per_example(%[[XD]], %[[W]]) in_axes [0, -1] out_axes [1] : (tensor<?x4xf32>, tensor<4x4xf32>) -> tensor<4x?xf32>
  %b = rlx.vmap @per_example(%xd, %w) in_axes [0, -1] out_axes [1] : (tensor<?x4xf32>, tensor<4x4xf32>) -> tensor<4x?xf32>
  // CHECK: rlx.vmap @scalar_fn(%[[S]]) in_axes [0] out_axes [0] : (tensor<5xbf16>) -> tensor<5xbf16>
  %c = rlx.vmap @scalar_fn(%s) in_axes [0] out_axes [0] : (tensor<5xbf16>) -> tensor<5xbf16>
  return
}
