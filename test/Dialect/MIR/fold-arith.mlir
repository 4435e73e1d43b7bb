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

// -----

// max and min follow arith.maximumf/minimumf (NaN wins, -0 < +0) and
// compare integers signed; neg folds and cancels.
// CHECK-LABEL: func.func @max_min_neg
// CHECK-DAG:     %[[MX:.+]] = rlx.constant dense<[2.000000e+00, 0x7FC00000, 0.000000e+00]> : tensor<3xf32>
// CHECK-DAG:     %[[MN:.+]] = rlx.constant dense<[-3, -1]> : tensor<2xi32>
// CHECK-DAG:     %[[NG:.+]] = rlx.constant dense<[-1.500000e+00, 0.000000e+00]> : tensor<2xf64>
// CHECK-DAG:     %[[NI:.+]] = rlx.constant dense<[-5, -128]> : tensor<2xi8>
// CHECK-NOT:     rlx.max
// CHECK-NOT:     rlx.min
// CHECK-NOT:     rlx.neg
// CHECK:         return %[[MX]], %[[MN]], %[[NG]], %[[NI]], %arg0
func.func @max_min_neg(%x: tensor<4xf32>) -> (tensor<3xf32>, tensor<2xi32>, tensor<2xf64>, tensor<2xi8>, tensor<4xf32>) {
  %a = rlx.constant dense<[1.0, 0x7FC00000, -0.0]> : tensor<3xf32>
  %b = rlx.constant dense<[2.0, 5.0, 0.0]> : tensor<3xf32>
  %mx = rlx.max %a, %b : tensor<3xf32>
  %i = rlx.constant dense<[-3, 4]> : tensor<2xi32>
  %j = rlx.constant dense<[7, -1]> : tensor<2xi32>
  %mn = rlx.min %i, %j : tensor<2xi32>
  %c = rlx.constant dense<[1.5, -0.0]> : tensor<2xf64>
  %ng = rlx.neg %c : tensor<2xf64>
  %k = rlx.constant dense<[5, -128]> : tensor<2xi8>
  %ni = rlx.neg %k : tensor<2xi8>
  %n1 = rlx.neg %x : tensor<4xf32>
  %n2 = rlx.neg %n1 : tensor<4xf32>
  return %mx, %mn, %ng, %ni, %n2 : tensor<3xf32>, tensor<2xi32>, tensor<2xf64>, tensor<2xi8>, tensor<4xf32>
}

// -----

// Casts of constants fold as the lowering computes them (round to nearest
// even, sitofp, sign-extend or truncate).
// CHECK-LABEL: func.func @cast_constants
// CHECK-DAG:     %[[F:.+]] = rlx.constant dense<[1.000000e-01, 0x4B800000]> : tensor<2xf32>
// CHECK-DAG:     %[[I:.+]] = rlx.constant dense<[-7.000000e+00, 1.000000e+00]> : tensor<2xf64>
// CHECK-DAG:     %[[T:.+]] = rlx.constant dense<[-1, 44]> : tensor<2xi8>
// CHECK-DAG:     %[[S:.+]] = rlx.constant dense<3.000000e+00> : tensor<2x3xf64>
// CHECK-NOT:     rlx.cast
// CHECK:         return %[[F]], %[[I]], %[[T]], %[[S]]
func.func @cast_constants() -> (tensor<2xf32>, tensor<2xf64>, tensor<2xi8>, tensor<2x3xf64>) {
  %a = rlx.constant dense<[0.1, 16777217.0]> : tensor<2xf64>
  %f = rlx.cast %a : tensor<2xf64> -> tensor<2xf32>
  %b = rlx.constant dense<[-7, 1]> : tensor<2xi32>
  %i = rlx.cast %b : tensor<2xi32> -> tensor<2xf64>
  %c = rlx.constant dense<[255, 300]> : tensor<2xi32>
  %t = rlx.cast %c : tensor<2xi32> -> tensor<2xi8>
  %d = rlx.constant dense<3.0> : tensor<2x3xf32>
  %s = rlx.cast %d : tensor<2x3xf32> -> tensor<2x3xf64>
  return %f, %i, %t, %s : tensor<2xf32>, tensor<2xf64>, tensor<2xi8>, tensor<2x3xf64>
}

// -----

// A cast there and back cancels only when the middle type holds every
// value; float to integer constants and bf16 constants stay.
// CHECK-LABEL: func.func @cast_round_trips
// CHECK:         %[[N:.+]] = rlx.cast %arg0 : tensor<4xf32> -> tensor<4xf16>
// CHECK:         %[[B:.+]] = rlx.cast %[[N]] : tensor<4xf16> -> tensor<4xf32>
// CHECK:         rlx.cast {{.*}} : tensor<2xf32> -> tensor<2xi32>
// CHECK:         rlx.cast {{.*}} : tensor<2xbf16> -> tensor<2xf32>
// CHECK:         return %arg0, %[[B]], %arg1
func.func @cast_round_trips(%x: tensor<4xf32>, %y: tensor<4xi16>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi16>, tensor<2xi32>, tensor<2xf32>) {
  %w = rlx.cast %x : tensor<4xf32> -> tensor<4xf64>
  %x2 = rlx.cast %w : tensor<4xf64> -> tensor<4xf32>
  %n = rlx.cast %x : tensor<4xf32> -> tensor<4xf16>
  %x3 = rlx.cast %n : tensor<4xf16> -> tensor<4xf32>
  %yw = rlx.cast %y : tensor<4xi16> -> tensor<4xi64>
  %y2 = rlx.cast %yw : tensor<4xi64> -> tensor<4xi16>
  %c = rlx.constant dense<[1.5, -2.5]> : tensor<2xf32>
  %ci = rlx.cast %c : tensor<2xf32> -> tensor<2xi32>
  %h = rlx.constant dense<[1.5, -2.5]> : tensor<2xbf16>
  %hf = rlx.cast %h : tensor<2xbf16> -> tensor<2xf32>
  return %x2, %x3, %y2, %ci, %hf : tensor<4xf32>, tensor<4xf32>, tensor<4xi16>, tensor<2xi32>, tensor<2xf32>
}

// -----

// A transpose of a dense constant permutes its elements.
// CHECK-LABEL: func.func @transpose_constant
// CHECK-DAG:     %[[T:.+]] = rlx.constant dense<{{\[}}[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>
// CHECK-DAG:     %[[U:.+]] = rlx.constant dense<{{\[}}{{\[}}[1.000000e+00], [4.000000e+00]], {{\[}}[2.000000e+00], [5.000000e+00]], {{\[}}[3.000000e+00], [6.000000e+00]]]> : tensor<3x2x1xf32>
// CHECK-NOT:     rlx.transpose
// CHECK:         return %[[T]], %[[U]]
func.func @transpose_constant() -> (tensor<3x2xi32>, tensor<3x2x1xf32>) {
  %c = rlx.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %t = rlx.transpose %c [1, 0] : tensor<2x3xi32>
  %d = rlx.constant dense<[[[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]]]> : tensor<2x1x3xf32>
  %u = rlx.transpose %d [2, 0, 1] : tensor<2x1x3xf32>
  return %t, %u : tensor<3x2xi32>, tensor<3x2x1xf32>
}
