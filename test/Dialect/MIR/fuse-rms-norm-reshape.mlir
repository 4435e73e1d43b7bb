// RUN: rlx-opt %s -split-input-file --rlx-fuse-rms-norm-reshape | FileCheck %s
// RUN: rlx-opt %s -split-input-file --rlx-fuse=patterns=rms-norm-reshape | FileCheck %s
// RUN: rlx-opt %s -split-input-file --rlx-fuse | FileCheck %s --check-prefix=ALL

// Flattening the leading dims of a norm's result: the norm runs on the
// reshaped input, with the epsilon kept.

// ALL-LABEL: func.func @flatten(
// ALL-NEXT: rlx.reshape
// ALL-NEXT: rlx.rms_norm
// CHECK-LABEL: func.func @flatten(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x4x8xf32>, %[[G:[^:]*]]: tensor<8xf32>)
// CHECK-NEXT: %[[R:.+]] = rlx.reshape %[[X]] : tensor<2x4x8xf32> -> tensor<8x8xf32>
// CHECK-NEXT: %[[Y:.+]] = rlx.rms_norm %[[R]], %[[G]] {epsilon = 2.500000e-01 : f32} : tensor<8x8xf32>, tensor<8xf32>
// CHECK-NEXT: return %[[Y]]
func.func @flatten(%x: tensor<2x4x8xf32>, %g: tensor<8xf32>) -> tensor<8x8xf32> {
  %n = rlx.rms_norm %x, %g {epsilon = 2.500000e-01 : f32} : tensor<2x4x8xf32>, tensor<8xf32>
  %y = rlx.reshape %n : tensor<2x4x8xf32> -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// -----

// Any reshape that keeps the last dimension (here splitting a leading one).

// CHECK-LABEL: func.func @split(
// CHECK-NEXT: rlx.reshape %{{.*}} : tensor<6x8xf32> -> tensor<2x3x8xf32>
// CHECK-NEXT: rlx.rms_norm
// CHECK-NEXT: return
func.func @split(%x: tensor<6x8xf32>, %g: tensor<8xf32>) -> tensor<2x3x8xf32> {
  %n = rlx.rms_norm %x, %g : tensor<6x8xf32>, tensor<8xf32>
  %y = rlx.reshape %n : tensor<6x8xf32> -> tensor<2x3x8xf32>
  return %y : tensor<2x3x8xf32>
}

// -----

// The reshape changes the last dimension: no rewrite (rows would mix).

// CHECK-LABEL: func.func @last_dim_changes(
// CHECK-NEXT: rlx.rms_norm
// CHECK-NEXT: rlx.reshape
func.func @last_dim_changes(%x: tensor<2x4x8xf32>, %g: tensor<8xf32>) -> tensor<2x32xf32> {
  %n = rlx.rms_norm %x, %g : tensor<2x4x8xf32>, tensor<8xf32>
  %y = rlx.reshape %n : tensor<2x4x8xf32> -> tensor<2x32xf32>
  return %y : tensor<2x32xf32>
}

// -----

// The norm's result is read on: no rewrite (it would be computed twice).

// CHECK-LABEL: func.func @other_user(
// CHECK-NEXT: rlx.rms_norm
// CHECK-NEXT: rlx.reshape
func.func @other_user(%x: tensor<2x4x8xf32>, %g: tensor<8xf32>) -> (tensor<8x8xf32>, tensor<2x4x8xf32>) {
  %n = rlx.rms_norm %x, %g : tensor<2x4x8xf32>, tensor<8xf32>
  %y = rlx.reshape %n : tensor<2x4x8xf32> -> tensor<8x8xf32>
  return %y, %n : tensor<8x8xf32>, tensor<2x4x8xf32>
}

// -----

// Dynamic shapes: no rewrite.

// CHECK-LABEL: func.func @dynamic(
// CHECK-NEXT: rlx.rms_norm
// CHECK-NEXT: rlx.reshape
func.func @dynamic(%x: tensor<?x4x8xf32>, %g: tensor<8xf32>) -> tensor<8x8xf32> {
  %n = rlx.rms_norm %x, %g : tensor<?x4x8xf32>, tensor<8xf32>
  %y = rlx.reshape %n : tensor<?x4x8xf32> -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// -----

// The norm of a residual add is left to residual-norm: with all families
// it becomes rlx.fused_residual_rms_norm, then the reshape.

// CHECK-LABEL: func.func @residual(
// CHECK-NEXT: rlx.add
// CHECK-NEXT: rlx.rms_norm
// CHECK-NEXT: rlx.reshape
// ALL-LABEL: func.func @residual(
// ALL-NEXT: %[[N:.+]], %{{.+}} = rlx.fused_residual_rms_norm
// ALL-NEXT: rlx.reshape %[[N]]
func.func @residual(%x: tensor<2x4x8xf32>, %r: tensor<2x4x8xf32>, %g: tensor<8xf32>) -> tensor<8x8xf32> {
  %s = rlx.add %x, %r : tensor<2x4x8xf32>
  %n = rlx.rms_norm %s, %g : tensor<2x4x8xf32>, tensor<8xf32>
  %y = rlx.reshape %n : tensor<2x4x8xf32> -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}
