// RUN: rlx-opt %s -canonicalize -split-input-file | FileCheck %s

// Identity casts fold away; real casts stay.
// CHECK-LABEL: func.func @cast_identity
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>)
// CHECK-NOT: rlx.cast
// CHECK: return %[[X]]
func.func @cast_identity(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = rlx.cast %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @cast_kept
// CHECK: rlx.cast %{{.+}} : tensor<4xf32> -> tensor<4xbf16>
func.func @cast_kept(%x: tensor<4xf32>) -> tensor<4xbf16> {
  %0 = rlx.cast %x : tensor<4xf32> -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// reshape(reshape(x)) -> reshape(x)
// CHECK-LABEL: func.func @reshape_reshape
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4xf32>)
// CHECK: %[[R:.+]] = rlx.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<4x6xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_reshape(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %0 = rlx.reshape %x : tensor<2x3x4xf32> -> tensor<24xf32>
  %1 = rlx.reshape %0 : tensor<24xf32> -> tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// reshape(reshape(x)) back to x's type -> x
// CHECK-LABEL: func.func @reshape_roundtrip
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>)
// CHECK-NOT: rlx.reshape
// CHECK: return %[[X]]
func.func @reshape_roundtrip(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = rlx.reshape %x : tensor<2x3xf32> -> tensor<6xf32>
  %1 = rlx.reshape %0 : tensor<6xf32> -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// reshape(constant) -> constant
// CHECK-LABEL: func.func @reshape_constant
// CHECK: %[[C:.+]] = rlx.constant dense<{{\[}}[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK-NOT: rlx.reshape
// CHECK: return %[[C]]
func.func @reshape_constant() -> tensor<2x2xf32> {
  %c = rlx.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = rlx.reshape %c : tensor<4xf32> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// A reshape to a dynamic shape is not a constant fold.
// CHECK-LABEL: func.func @reshape_constant_dynamic
// CHECK: rlx.reshape
func.func @reshape_constant_dynamic() -> tensor<?xf32> {
  %c = rlx.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %0 = rlx.reshape %c : tensor<2x2xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// transpose(x, identity) -> x
// CHECK-LABEL: func.func @transpose_identity
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>)
// CHECK-NOT: rlx.transpose
// CHECK: return %[[X]]
func.func @transpose_identity(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = rlx.transpose %x [0, 1] : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// transpose(transpose(x, p), p^-1) -> x
// CHECK-LABEL: func.func @transpose_inverse
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4xf32>)
// CHECK-NOT: rlx.transpose
// CHECK: return %[[X]]
func.func @transpose_inverse(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = rlx.transpose %x [1, 2, 0] : tensor<2x3x4xf32>
  %1 = rlx.transpose %0 [2, 0, 1] : tensor<3x4x2xf32>
  return %1 : tensor<2x3x4xf32>
}

// transpose(transpose(x, p), q) -> transpose(x, p∘q): p = [1, 2, 0] gives
// 3x4x2, q = [1, 0, 2] gives 4x3x2, which is x's dims [2, 1, 0].
// CHECK-LABEL: func.func @transpose_compose
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4xf32>)
// CHECK: %[[T:.+]] = rlx.transpose %[[X]] [2, 1, 0] : tensor<2x3x4xf32>
// CHECK-NEXT: return %[[T]]
func.func @transpose_compose(%x: tensor<2x3x4xf32>) -> tensor<4x3x2xf32> {
  %0 = rlx.transpose %x [1, 2, 0] : tensor<2x3x4xf32>
  %1 = rlx.transpose %0 [1, 0, 2] : tensor<3x4x2xf32>
  return %1 : tensor<4x3x2xf32>
}

// A transpose that moves only dims of size 1 is a reshape (a decode step's
// [B, 1, H, D] -> [B, H, 1, D]; 1x1 among others); one that moves a dim of
// size > 1, or has a dynamic shape, stays.
// CHECK-LABEL: func.func @transpose_unit_dims
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x1x8x16xbf16>, %[[Y:[^:]+]]: tensor<1x5x1x3xf32>, %[[Z:[^:]+]]: tensor<2x1x8x16xbf16>, %[[D:[^:]+]]: tensor<?x1x8xf32>)
// CHECK-DAG: %[[A:.+]] = rlx.reshape %[[X]] : tensor<2x1x8x16xbf16> -> tensor<2x8x1x16xbf16>
// CHECK-DAG: %[[B:.+]] = rlx.reshape %[[Y]] : tensor<1x5x1x3xf32> -> tensor<5x1x3x1xf32>
// CHECK-DAG: %[[C:.+]] = rlx.transpose %[[Z]] [0, 3, 2, 1] : tensor<2x1x8x16xbf16>
// CHECK-DAG: %[[E:.+]] = rlx.transpose %[[D]] [1, 0, 2] : tensor<?x1x8xf32>
// CHECK: return %[[A]], %[[B]], %[[C]], %[[E]]
func.func @transpose_unit_dims(%x: tensor<2x1x8x16xbf16>, %y: tensor<1x5x1x3xf32>, %z: tensor<2x1x8x16xbf16>, %d: tensor<?x1x8xf32>)
    -> (tensor<2x8x1x16xbf16>, tensor<5x1x3x1xf32>, tensor<2x16x8x1xbf16>, tensor<1x?x8xf32>) {
  %0 = rlx.transpose %x [0, 2, 1, 3] : tensor<2x1x8x16xbf16>
  %1 = rlx.transpose %y [1, 2, 3, 0] : tensor<1x5x1x3xf32>
  %2 = rlx.transpose %z [0, 3, 2, 1] : tensor<2x1x8x16xbf16>
  %3 = rlx.transpose %d [1, 0, 2] : tensor<?x1x8xf32>
  return %0, %1, %2, %3 : tensor<2x8x1x16xbf16>, tensor<5x1x3x1xf32>, tensor<2x16x8x1xbf16>, tensor<1x?x8xf32>
}

// -----

// Whole-axis narrow, single-input concat and same-type expand fold away.
// CHECK-LABEL: func.func @identities
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>)
// CHECK-NOT: rlx.
// CHECK: return %[[X]], %[[X]], %[[X]]
func.func @identities(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = rlx.narrow %x axis = 1 start = 0 length = 3 : tensor<2x3xf32>
  %1 = rlx.concat %x axis = 0 : tensor<2x3xf32>
  %2 = rlx.expand %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// `like` goes where the result is static; it stays where it gives a size.
// CHECK-LABEL: func.func @expand_like
// CHECK-SAME:    (%[[S:[^:]+]]: tensor<f32>, %[[X:[^:]+]]: tensor<4x6xf32>, %[[D:[^:]+]]: tensor<?x6xf32>)
// CHECK: %[[A:.+]] = rlx.expand %[[S]] : tensor<f32> -> tensor<4x2xf32>
// CHECK: %[[B:.+]] = rlx.expand %[[S]] like %[[D]] : tensor<f32>, tensor<?x6xf32> -> tensor<?x2xf32>
// CHECK: return %[[A]], %[[B]]
func.func @expand_like(%s: tensor<f32>, %x: tensor<4x6xf32>, %d: tensor<?x6xf32>) -> (tensor<4x2xf32>, tensor<?x2xf32>) {
  %0 = rlx.expand %s like %x : tensor<f32>, tensor<4x6xf32> -> tensor<4x2xf32>
  %1 = rlx.expand %s like %d : tensor<f32>, tensor<?x6xf32> -> tensor<?x2xf32>
  return %0, %1 : tensor<4x2xf32>, tensor<?x2xf32>
}

// A partial narrow stays.
// CHECK-LABEL: func.func @narrow_kept
// CHECK: rlx.narrow
func.func @narrow_kept(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %0 = rlx.narrow %x axis = 1 start = 1 length = 2 : tensor<2x3xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// reverse(reverse(x, a), a) -> x, also when one side spells an axis
// negatively.
// CHECK-LABEL: func.func @reverse_reverse
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>)
// CHECK-NOT: rlx.reverse
// CHECK: return %[[X]]
func.func @reverse_reverse(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = rlx.reverse %x axes = [1] : tensor<2x3xf32>
  %1 = rlx.reverse %0 axes = [-1] : tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// Reversing different axes does not cancel.
// CHECK-LABEL: func.func @reverse_kept
// CHECK-COUNT-2: rlx.reverse
func.func @reverse_kept(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = rlx.reverse %x axes = [0] : tensor<2x3xf32>
  %1 = rlx.reverse %0 axes = [1] : tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// Constants are uniqued and dead pure ops are erased.
// CHECK-LABEL: func.func @constants_cse
// CHECK-COUNT-1: rlx.constant
// CHECK-NOT: rlx.constant
// CHECK-NOT: rlx.exp
func.func @constants_cse() -> (tensor<2xf32>, tensor<2xf32>) {
  %a = rlx.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = rlx.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %dead = rlx.exp %a : tensor<2xf32>
  return %a, %b : tensor<2xf32>, tensor<2xf32>
}
