// RUN: rlx-opt %s -split-input-file --rlx-fuse-residual-norm | FileCheck %s
// RUN: rlx-opt %s -split-input-file --rlx-fuse --rlx-unfuse | FileCheck %s --check-prefix=ROUND

// add → layer_norm fuses, keeping the epsilon; unfusing gives the chain
// back.

// CHECK-LABEL: func.func @layer_norm(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x4x8xf32>, %[[R:[^:]*]]: tensor<2x4x8xf32>, %[[G:[^:]*]]: tensor<8xf32>, %[[B:[^:]*]]: tensor<8xf32>)
// CHECK-NEXT: %[[Y:.+]], %{{.+}} = rlx.fused_residual_layer_norm %[[X]], %[[R]], %[[G]], %[[B]] {epsilon = 9.99999996E-13 : f32} : tensor<2x4x8xf32>, tensor<8xf32>
// CHECK-NEXT: return %[[Y]]
// ROUND-LABEL: func.func @layer_norm(
// ROUND-SAME: %[[X:[^:]*]]: tensor<2x4x8xf32>, %[[R:[^:]*]]: tensor<2x4x8xf32>, %[[G:[^:]*]]: tensor<8xf32>, %[[B:[^:]*]]: tensor<8xf32>)
// ROUND-NEXT: %[[S:.+]] = rlx.add %[[X]], %[[R]] : tensor<2x4x8xf32>
// ROUND-NEXT: %[[Y:.+]] = rlx.layer_norm %[[S]], %[[G]], %[[B]] {epsilon = 9.99999996E-13 : f32} : tensor<2x4x8xf32>, tensor<8xf32>
// ROUND-NEXT: return %[[Y]]
func.func @layer_norm(%x: tensor<2x4x8xf32>, %r: tensor<2x4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x4x8xf32> {
  %s = rlx.add %x, %r : tensor<2x4x8xf32>
  %y = rlx.layer_norm %s, %g, %b {epsilon = 1.0e-12 : f32} : tensor<2x4x8xf32>, tensor<8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----

// add → rms_norm fuses; a later reader of the sum (the residual stream)
// reads the fused op's second result.

// CHECK-LABEL: func.func @rms_norm_stream(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x8xbf16>, %[[R:[^:]*]]: tensor<4x8xbf16>, %[[G:[^:]*]]: tensor<8xbf16>)
// CHECK-NEXT: %[[Y:.+]], %[[S:.+]] = rlx.fused_residual_rms_norm %[[X]], %[[R]], %[[G]] : tensor<4x8xbf16>, tensor<8xbf16>
// CHECK-NEXT: %[[T:.+]] = rlx.mul %[[Y]], %[[S]]
// CHECK-NEXT: return %[[T]], %[[S]]
// ROUND-LABEL: func.func @rms_norm_stream(
// ROUND-SAME: %[[X:[^:]*]]: tensor<4x8xbf16>, %[[R:[^:]*]]: tensor<4x8xbf16>, %[[G:[^:]*]]: tensor<8xbf16>)
// ROUND-NEXT: %[[S:.+]] = rlx.add %[[X]], %[[R]]
// ROUND-NEXT: %[[Y:.+]] = rlx.rms_norm %[[S]], %[[G]] :
// ROUND-NEXT: %[[T:.+]] = rlx.mul %[[Y]], %[[S]]
// ROUND-NEXT: return %[[T]], %[[S]]
func.func @rms_norm_stream(%x: tensor<4x8xbf16>, %r: tensor<4x8xbf16>, %g: tensor<8xbf16>) -> (tensor<4x8xbf16>, tensor<4x8xbf16>) {
  %s = rlx.add %x, %r : tensor<4x8xbf16>
  %y = rlx.rms_norm %s, %g : tensor<4x8xbf16>, tensor<8xbf16>
  %t = rlx.mul %y, %s : tensor<4x8xbf16>
  return %t, %s : tensor<4x8xbf16>, tensor<4x8xbf16>
}

// -----

// A reader of the sum before the norm: the fused op goes where the add was.

// CHECK-LABEL: func.func @read_before(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x8xf32>, %[[R:[^:]*]]: tensor<4x8xf32>, %[[G:[^:]*]]: tensor<8xf32>)
// CHECK-NEXT: %[[Y:.+]], %[[S:.+]] = rlx.fused_residual_rms_norm %[[X]], %[[R]], %[[G]] {epsilon = 9.99999974E-6 : f32}
// CHECK-NEXT: %[[E:.+]] = rlx.exp %[[S]]
// CHECK-NEXT: return %[[Y]], %[[E]]
func.func @read_before(%x: tensor<4x8xf32>, %r: tensor<4x8xf32>, %g: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %s = rlx.add %x, %r : tensor<4x8xf32>
  %e = rlx.exp %s : tensor<4x8xf32>
  %y = rlx.rms_norm %s, %g {epsilon = 1.0e-5 : f32} : tensor<4x8xf32>, tensor<8xf32>
  return %y, %e : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A reader of the sum before the norm, and a gamma computed after the add:
// no position serves both, nothing fuses.

// CHECK-LABEL: func.func @no_position(
// CHECK-NOT: rlx.fused_residual
// CHECK: rlx.add
// CHECK-NEXT: rlx.exp
// CHECK-NEXT: rlx.neg
// CHECK-NEXT: rlx.layer_norm
func.func @no_position(%x: tensor<4x8xf32>, %r: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %s = rlx.add %x, %r : tensor<4x8xf32>
  %e = rlx.exp %s : tensor<4x8xf32>
  %g2 = rlx.neg %g : tensor<8xf32>
  %y = rlx.layer_norm %s, %g2, %b : tensor<4x8xf32>, tensor<8xf32>
  return %y, %e : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Broadcasting adds (the fused op's input, residual and sum share one type):
// a 1-D residual, a residual broadcast along a unit dim, and operands of
// different static / dynamic shapes. (The add and the norms admit one
// element type only, so there is no dtype mismatch to miss on.)

// CHECK-LABEL: func.func @broadcast(
// CHECK-NOT: rlx.fused_residual
// CHECK: rlx.layer_norm
// CHECK: rlx.rms_norm
// CHECK: rlx.rms_norm
func.func @broadcast(%x: tensor<4x8xf32>, %r1: tensor<8xf32>, %r2: tensor<1x8xf32>, %xd: tensor<?x8xf32>,
                     %g: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %s0 = rlx.add %x, %r1 : tensor<4x8xf32>, tensor<8xf32>
  %y0 = rlx.layer_norm %s0, %g, %b : tensor<4x8xf32>, tensor<8xf32>
  %s1 = rlx.add %r2, %x : tensor<1x8xf32>, tensor<4x8xf32>
  %y1 = rlx.rms_norm %s1, %g : tensor<4x8xf32>, tensor<8xf32>
  %s2 = rlx.add %xd, %x : tensor<?x8xf32>, tensor<4x8xf32>
  %y2 = rlx.rms_norm %s2, %g : tensor<4x8xf32>, tensor<8xf32>
  return %y0, %y1, %y2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
