// RUN: rlx-opt %s -split-input-file --rlx-form-elementwise-regions | FileCheck %s
// RUN: rlx-opt %s -split-input-file --rlx-fuse=patterns=elementwise-regions | FileCheck %s
// RUN: rlx-opt %s -split-input-file --rlx-form-elementwise-regions=max-ops=3 | FileCheck %s --check-prefix=MAX3
// RUN: rlx-opt %s -split-input-file --rlx-form-elementwise-regions --rlx-unfuse-elementwise-regions | FileCheck %s --check-prefix=ROUND
// RUN: rlx-opt %s -split-input-file --rlx-fuse | FileCheck %s --check-prefix=DEFAULT

// A chain of unary, binary (broadcasting a [8] input), cmp, cast and
// where ops: one region with one scalar per op; an input read twice is
// one block argument. Expanding the region gives the chain back.
// rlx-fuse forms regions only when the family is named.

// CHECK-LABEL: func.func @chain(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x8xf32>, %[[B:[^:]*]]: tensor<8xf32>, %[[Z:[^:]*]]: tensor<4x8xf64>)
// CHECK-NEXT: %[[R:.+]] = rlx.elementwise_region ins(%[[X]], %[[B]], %[[Z]] : tensor<4x8xf32>, tensor<8xf32>, tensor<4x8xf64>) -> tensor<4x8xf32> {
// CHECK-NEXT: ^bb0(%[[A:.+]]: f32, %[[C:.+]]: f32, %[[D:.+]]: f64):
// CHECK-NEXT: %[[E:.+]] = math.exp %[[A]] : f32
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[E]], %[[C]] : f32
// CHECK-NEXT: %[[M:.+]] = arith.mulf %[[S]], %[[S]] : f32
// CHECK-NEXT: %[[P:.+]] = arith.cmpf ogt, %[[M]], %[[A]] : f32
// CHECK-NEXT: %[[T:.+]] = arith.truncf %[[D]] : f64 to f32
// CHECK-NEXT: %[[W:.+]] = arith.select %[[P]], %[[M]], %[[T]] : f32
// CHECK-NEXT: %[[N:.+]] = arith.negf %[[W]] : f32
// CHECK-NEXT: rlx.yield %[[N]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]
// MAX3-LABEL: func.func @chain(
// MAX3: rlx.elementwise_region
// MAX3-COUNT-3: {{math|arith}}.
// MAX3-NEXT: rlx.yield
// MAX3: rlx.cast
// MAX3-NEXT: rlx.elementwise_region
// MAX3-COUNT-3: arith.
// MAX3-NEXT: rlx.yield
// ROUND-LABEL: func.func @chain(
// ROUND-NEXT: rlx.exp
// ROUND-NEXT: rlx.add
// ROUND-NEXT: rlx.mul
// ROUND-NEXT: rlx.cmp gt
// ROUND-NEXT: rlx.cast
// ROUND-NEXT: rlx.where
// ROUND-NEXT: rlx.neg
// ROUND-NEXT: return
// DEFAULT-LABEL: func.func @chain(
// DEFAULT-NOT: rlx.elementwise_region
// DEFAULT: return
func.func @chain(%x: tensor<4x8xf32>, %b: tensor<8xf32>, %z: tensor<4x8xf64>) -> tensor<4x8xf32> {
  %e = rlx.exp %x : tensor<4x8xf32>
  %a = rlx.add %e, %b : tensor<4x8xf32>, tensor<8xf32>
  %m = rlx.mul %a, %a : tensor<4x8xf32>
  %c = rlx.cmp gt, %m, %x : tensor<4x8xf32>
  %zc = rlx.cast %z : tensor<4x8xf64> -> tensor<4x8xf32>
  %w = rlx.where %c, %m, %zc : tensor<4x8xi1>, tensor<4x8xf32>
  %n = rlx.neg %w : tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}

// -----

// An intermediate read outside the chain is not grouped: it ends the
// region below it, and a region forms above only where two ops remain.

// CHECK-LABEL: func.func @read_outside(
// CHECK-NEXT: %[[R1:.+]] = rlx.elementwise_region ins(%{{[^ ]*}} : tensor<4xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: math.exp
// CHECK-NEXT: math.sqrt
// CHECK-NEXT: rlx.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[R2:.+]] = rlx.elementwise_region ins(%[[R1]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: math.tanh
// CHECK-NEXT: arith.negf
// CHECK-NEXT: rlx.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R2]], %[[R1]]
func.func @read_outside(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = rlx.exp %x : tensor<4xf32>
  %s = rlx.sqrt %e : tensor<4xf32>
  %t = rlx.tanh %s : tensor<4xf32>
  %n = rlx.neg %t : tensor<4xf32>
  return %n, %s : tensor<4xf32>, tensor<4xf32>
}

// -----

// An op of another shape (here a [8] exp feeding a [4, 8] add) is an
// input of the region, not a member; a lone op forms no region.

// CHECK-LABEL: func.func @other_shape(
// CHECK-NEXT: %[[E:.+]] = rlx.exp %{{[^ ]*}} : tensor<8xf32>
// CHECK-NEXT: rlx.elementwise_region ins(%{{[^,]*}}, %[[E]] : tensor<4x8xf32>, tensor<8xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.addf
// CHECK-NEXT: math.log
// CHECK-NEXT: rlx.yield
func.func @other_shape(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %e = rlx.exp %b : tensor<8xf32>
  %a = rlx.add %x, %e : tensor<4x8xf32>, tensor<8xf32>
  %l = rlx.log %a : tensor<4x8xf32>
  return %l : tensor<4x8xf32>
}

// -----

// Ops without a one-op f32/f64 scalar (gelu, integer ops, f16 math)
// stay out of regions.

// CHECK-LABEL: func.func @not_groupable(
// CHECK-NOT: rlx.elementwise_region
// CHECK: return
func.func @not_groupable(%x: tensor<4xf32>, %i: tensor<4xi32>, %h: tensor<4xf16>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xf16>) {
  %g = rlx.gelu %x : tensor<4xf32>
  %t = rlx.tanh %g : tensor<4xf32>
  %a = rlx.add %i, %i : tensor<4xi32>
  %b = rlx.mul %a, %i : tensor<4xi32>
  %e = rlx.exp %h : tensor<4xf16>
  %f = rlx.neg %e : tensor<4xf16>
  return %t, %b, %f : tensor<4xf32>, tensor<4xi32>, tensor<4xf16>
}

// -----

// Dynamic shapes form no region.

// CHECK-LABEL: func.func @dynamic(
// CHECK-NOT: rlx.elementwise_region
// CHECK: return
func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  %e = rlx.exp %x : tensor<?xf32>
  %n = rlx.neg %e : tensor<?xf32>
  return %n : tensor<?xf32>
}
