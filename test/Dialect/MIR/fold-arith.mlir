// RUN: rlx-opt %s -canonicalize -split-input-file | FileCheck %s

// Constant operands fold for f32, f64 and signless integers: splat with
// splat, and dense with dense of the result's shape.
// CHECK-LABEL: func.func @constants
// CHECK-DAG:     %[[A:.+]] = rlx.constant dense<5.500000e+00> : tensor<4xf32>
// CHECK-DAG:     %[[B:.+]] = rlx.constant dense<[1.000000e+00, -4.000000e+00]> : tensor<2xf64>
// CHECK-DAG:     %[[C:.+]] = rlx.constant dense<[7, -3]> : tensor<2xi32>
// CHECK-DAG:     %[[D:.+]] = rlx.constant dense<[2.500000e-01, 5.000000e-01]> : tensor<2xf32>
// CHECK-NOT:     rlx.add
// CHECK-NOT:     rlx.sub
// CHECK-NOT:     rlx.mul
// CHECK-NOT:     rlx.div
// CHECK:         return %[[A]], %[[B]], %[[C]], %[[D]]
func.func @constants() -> (tensor<4xf32>, tensor<2xf64>, tensor<2xi32>, tensor<2xf32>) {
  %a = rlx.constant dense<2.0> : tensor<4xf32>
  %b = rlx.constant dense<3.5> : tensor<4xf32>
  %s = rlx.add %a, %b : tensor<4xf32>
  %c = rlx.constant dense<[3.0, -1.0]> : tensor<2xf64>
  %d = rlx.constant dense<[2.0, 3.0]> : tensor<2xf64>
  %e = rlx.sub %c, %d : tensor<2xf64>
  %i = rlx.constant dense<[7, 3]> : tensor<2xi32>
  %j = rlx.constant dense<[1, -1]> : tensor<2xi32>
  %m = rlx.mul %i, %j : tensor<2xi32>
  %p = rlx.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %q = rlx.constant dense<4.0> : tensor<2xf32>
  %r = rlx.div %p, %q : tensor<2xf32>
  return %s, %e, %m, %r : tensor<4xf32>, tensor<2xf64>, tensor<2xi32>, tensor<2xf32>
}

// -----

// Not folded: bf16 (the lowering computes in f32 and rounds once), a
// broadcast between different dense shapes, integer division by zero.
// CHECK-LABEL: func.func @kept
// CHECK:         rlx.add
// CHECK:         rlx.add
// CHECK:         rlx.div
func.func @kept() -> (tensor<2xbf16>, tensor<2x2xf32>, tensor<2xi32>) {
  %a = rlx.constant dense<[1.0, 3.0]> : tensor<2xbf16>
  %s = rlx.add %a, %a : tensor<2xbf16>
  %b = rlx.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %c = rlx.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %t = rlx.add %b, %c : tensor<2x2xf32>, tensor<2xf32>
  %i = rlx.constant dense<[1, 2]> : tensor<2xi32>
  %z = rlx.constant dense<0> : tensor<2xi32>
  %q = rlx.div %i, %z : tensor<2xi32>
  return %s, %t, %q : tensor<2xbf16>, tensor<2x2xf32>, tensor<2xi32>
}

// -----

// Exact identities drop the op: x + -0.0, x - 0.0, x * 1, 1 * x, x / 1.
// CHECK-LABEL: func.func @identities
// CHECK-SAME:    (%[[X:.+]]: tensor<4xf32>)
// CHECK-NOT:     rlx.add
// CHECK-NOT:     rlx.sub
// CHECK-NOT:     rlx.mul
// CHECK-NOT:     rlx.div
// CHECK:         return %[[X]], %[[X]], %[[X]], %[[X]], %[[X]]
func.func @identities(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %nz = rlx.constant dense<-0.0> : tensor<4xf32>
  %z = rlx.constant dense<0.0> : tensor<4xf32>
  %one = rlx.constant dense<1.0> : tensor<4xf32>
  %a = rlx.add %x, %nz : tensor<4xf32>
  %b = rlx.sub %x, %z : tensor<4xf32>
  %c = rlx.mul %x, %one : tensor<4xf32>
  %d = rlx.mul %one, %x : tensor<4xf32>
  %e = rlx.div %x, %one : tensor<4xf32>
  return %a, %b, %c, %d, %e : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Not identities: x + +0.0 (is +0.0 when x is -0.0), and x * 1 where the
// constant broadcasts x to a larger shape.
// CHECK-LABEL: func.func @not_identities
// CHECK:         rlx.add
// CHECK:         rlx.mul
func.func @not_identities(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<2x4xf32>) {
  %z = rlx.constant dense<0.0> : tensor<4xf32>
  %one = rlx.constant dense<1.0> : tensor<2x4xf32>
  %a = rlx.add %x, %z : tensor<4xf32>
  %b = rlx.mul %x, %one : tensor<4xf32>, tensor<2x4xf32>
  return %a, %b : tensor<4xf32>, tensor<2x4xf32>
}

// -----

// Broadcasting or transposing a splat constant gives a splat constant, and
// the identity it then is drops the mul.
// CHECK-LABEL: func.func @splat_shapes
// CHECK-SAME:    (%[[X:.+]]: tensor<2x3xf32>)
// CHECK-DAG:     %[[E:.+]] = rlx.constant dense<2.000000e+00> : tensor<4x3xf32>
// CHECK-DAG:     %[[T:.+]] = rlx.constant dense<2.000000e+00> : tensor<3x4xf32>
// CHECK-NOT:     rlx.expand
// CHECK-NOT:     rlx.transpose
// CHECK-NOT:     rlx.mul
// CHECK:         return %[[E]], %[[T]], %[[X]]
func.func @splat_shapes(%x: tensor<2x3xf32>) -> (tensor<4x3xf32>, tensor<3x4xf32>, tensor<2x3xf32>) {
  %c = rlx.constant dense<2.0> : tensor<1x3xf32>
  %e = rlx.expand %c : tensor<1x3xf32> -> tensor<4x3xf32>
  %t = rlx.transpose %e [1, 0] : tensor<4x3xf32>
  %one = rlx.constant dense<1.0> : tensor<1x3xf32>
  %o = rlx.expand %one : tensor<1x3xf32> -> tensor<2x3xf32>
  %m = rlx.mul %x, %o : tensor<2x3xf32>
  return %e, %t, %m : tensor<4x3xf32>, tensor<3x4xf32>, tensor<2x3xf32>
}
