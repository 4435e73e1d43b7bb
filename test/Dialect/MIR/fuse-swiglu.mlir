// RUN: rlx-opt %s -split-input-file --rlx-fuse-swiglu | FileCheck %s
// RUN: rlx-opt %s -split-input-file --rlx-fuse --rlx-unfuse | FileCheck %s --check-prefix=ROUND

// silu(x Wg) * (x Wu) fuses; unfusing gives the chain back.

// CHECK-LABEL: func.func @swiglu(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x8xf32>, %[[WG:[^:]*]]: tensor<8x16xf32>, %[[WU:[^:]*]]: tensor<8x16xf32>)
// CHECK-NEXT: %[[H:.+]] = rlx.fused_swiglu %[[X]], %[[WG]], %[[WU]] : tensor<4x8xf32>, tensor<8x16xf32>{{$}}
// CHECK-NEXT: return %[[H]]
// ROUND-LABEL: func.func @swiglu(
// ROUND-SAME: %[[X:[^:]*]]: tensor<4x8xf32>, %[[WG:[^:]*]]: tensor<8x16xf32>, %[[WU:[^:]*]]: tensor<8x16xf32>)
// ROUND-NEXT: %[[G:.+]] = rlx.matmul %[[X]], %[[WG]]
// ROUND-NEXT: %[[S:.+]] = rlx.silu %[[G]]
// ROUND-NEXT: %[[U:.+]] = rlx.matmul %[[X]], %[[WU]]
// ROUND-NEXT: %[[H:.+]] = rlx.mul %[[S]], %[[U]]
// ROUND-NEXT: return %[[H]]
func.func @swiglu(%x: tensor<4x8xf32>, %wg: tensor<8x16xf32>, %wu: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %g = rlx.matmul %x, %wg : tensor<4x8xf32>, tensor<8x16xf32>
  %u = rlx.matmul %x, %wu : tensor<4x8xf32>, tensor<8x16xf32>
  %s = rlx.silu %g : tensor<4x16xf32>
  %h = rlx.mul %s, %u : tensor<4x16xf32>
  return %h : tensor<4x16xf32>
}

// -----

// up * silu(gate) (the mul's operands swapped), batched dynamic input, f16.

// CHECK-LABEL: func.func @swapped(
// CHECK-SAME: %[[X:[^:]*]]: tensor<?x3x8xf16>, %[[WG:[^:]*]]: tensor<8x16xf16>, %[[WU:[^:]*]]: tensor<8x16xf16>)
// CHECK-NEXT: %[[H:.+]] = rlx.fused_swiglu %[[X]], %[[WG]], %[[WU]] : tensor<?x3x8xf16>, tensor<8x16xf16>{{$}}
// CHECK-NEXT: return %[[H]]
// ROUND-LABEL: func.func @swapped(
// ROUND: rlx.matmul
// ROUND-NEXT: rlx.silu
// ROUND-NEXT: rlx.matmul
// ROUND-NEXT: rlx.mul
func.func @swapped(%x: tensor<?x3x8xf16>, %wg: tensor<8x16xf16>, %wu: tensor<8x16xf16>) -> tensor<?x3x16xf16> {
  %u = rlx.matmul %x, %wu : tensor<?x3x8xf16>, tensor<8x16xf16>
  %g = rlx.matmul %x, %wg : tensor<?x3x8xf16>, tensor<8x16xf16>
  %s = rlx.silu %g : tensor<?x3x16xf16>
  %h = rlx.mul %u, %s : tensor<?x3x16xf16>
  return %h : tensor<?x3x16xf16>
}

// -----

// An intermediate with another user: the gate matmul, the silu, the up
// matmul.

// CHECK-LABEL: func.func @other_users(
// CHECK-NOT: rlx.fused_swiglu
// CHECK-COUNT-3: rlx.mul
func.func @other_users(%x: tensor<4x8xf32>, %wg: tensor<8x16xf32>, %wu: tensor<8x16xf32>)
    -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
  %g0 = rlx.matmul %x, %wg : tensor<4x8xf32>, tensor<8x16xf32>
  %u0 = rlx.matmul %x, %wu : tensor<4x8xf32>, tensor<8x16xf32>
  %s0 = rlx.silu %g0 : tensor<4x16xf32>
  %h0 = rlx.mul %s0, %u0 : tensor<4x16xf32>
  %g1 = rlx.matmul %x, %wg : tensor<4x8xf32>, tensor<8x16xf32>
  %u1 = rlx.matmul %x, %wu : tensor<4x8xf32>, tensor<8x16xf32>
  %s1 = rlx.silu %g1 : tensor<4x16xf32>
  %h1 = rlx.mul %s1, %u1 : tensor<4x16xf32>
  %g2 = rlx.matmul %x, %wg : tensor<4x8xf32>, tensor<8x16xf32>
  %u2 = rlx.matmul %x, %wu : tensor<4x8xf32>, tensor<8x16xf32>
  %s2 = rlx.silu %g2 : tensor<4x16xf32>
  %h2 = rlx.mul %s2, %u2 : tensor<4x16xf32>
  return %h0, %g0, %h1, %s1, %h2, %u2 : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// The two matmuls read different inputs.

// CHECK-LABEL: func.func @different_inputs(
// CHECK-NOT: rlx.fused_swiglu
// CHECK: rlx.mul
func.func @different_inputs(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %wg: tensor<8x16xf32>, %wu: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %g = rlx.matmul %x, %wg : tensor<4x8xf32>, tensor<8x16xf32>
  %u = rlx.matmul %y, %wu : tensor<4x8xf32>, tensor<8x16xf32>
  %s = rlx.silu %g : tensor<4x16xf32>
  %h = rlx.mul %s, %u : tensor<4x16xf32>
  return %h : tensor<4x16xf32>
}

// -----

// A transposed weight has no fused form.

// CHECK-LABEL: func.func @transpose_b(
// CHECK-NOT: rlx.fused_swiglu
// CHECK: rlx.mul
func.func @transpose_b(%x: tensor<4x8xf32>, %wg: tensor<16x8xf32>, %wu: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %g = rlx.matmul %x, %wg transpose_b true : tensor<4x8xf32>, tensor<16x8xf32>
  %u = rlx.matmul %x, %wu : tensor<4x8xf32>, tensor<8x16xf32>
  %s = rlx.silu %g : tensor<4x16xf32>
  %h = rlx.mul %s, %u : tensor<4x16xf32>
  return %h : tensor<4x16xf32>
}

// -----

// Weights the fused op cannot take: batched (3-D), broadcasting against
// each other in the mul (16 vs 1 columns) and of dynamic width. (The mul
// and silu admit one float element type only, so there is no dtype
// mismatch to miss on.)

// CHECK-LABEL: func.func @weight_shapes(
// CHECK-NOT: rlx.fused_swiglu
// CHECK-COUNT-3: rlx.mul
func.func @weight_shapes(%x: tensor<2x4x8xf32>, %wg3: tensor<2x8x16xf32>, %wu: tensor<8x16xf32>,
                         %wu1: tensor<8x1xf32>, %wgd: tensor<8x?xf32>, %wud: tensor<8x?xf32>)
    -> (tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<2x4x?xf32>) {
  %g0 = rlx.matmul %x, %wg3 : tensor<2x4x8xf32>, tensor<2x8x16xf32>
  %u0 = rlx.matmul %x, %wu : tensor<2x4x8xf32>, tensor<8x16xf32>
  %s0 = rlx.silu %g0 : tensor<2x4x16xf32>
  %h0 = rlx.mul %s0, %u0 : tensor<2x4x16xf32>
  %g1 = rlx.matmul %x, %wu : tensor<2x4x8xf32>, tensor<8x16xf32>
  %u1 = rlx.matmul %x, %wu1 : tensor<2x4x8xf32>, tensor<8x1xf32>
  %s1 = rlx.silu %g1 : tensor<2x4x16xf32>
  %h1 = rlx.mul %s1, %u1 : tensor<2x4x16xf32>, tensor<2x4x1xf32>
  %g2 = rlx.matmul %x, %wgd : tensor<2x4x8xf32>, tensor<8x?xf32>
  %u2 = rlx.matmul %x, %wud : tensor<2x4x8xf32>, tensor<8x?xf32>
  %s2 = rlx.silu %g2 : tensor<2x4x?xf32>
  %h2 = rlx.mul %s2, %u2 : tensor<2x4x?xf32>
  return %h0, %h1, %h2 : tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<2x4x?xf32>
}

// -----

// Gate and up as the two halves of one matmul of concatenated weights (as
// rlx-fuse-shared-input-matmul writes it): the concat's operands become
// the fused op's weights.

// CHECK-LABEL: func.func @concatenated(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x8xf32>, %[[WG:[^:]*]]: tensor<8x16xf32>, %[[WU:[^:]*]]: tensor<8x16xf32>)
// CHECK-NEXT: %[[H:.+]] = rlx.fused_swiglu %[[X]], %[[WG]], %[[WU]] : tensor<4x8xf32>, tensor<8x16xf32>{{$}}
// CHECK-NEXT: return %[[H]]
func.func @concatenated(%x: tensor<4x8xf32>, %wg: tensor<8x16xf32>, %wu: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %w = rlx.concat %wg, %wu axis = 1 : tensor<8x16xf32>, tensor<8x16xf32>
  %m = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x32xf32>
  %g = rlx.narrow %m axis = 1 start = 0 length = 16 : tensor<4x32xf32>
  %u = rlx.narrow %m axis = 1 start = 16 length = 16 : tensor<4x32xf32>
  %s = rlx.silu %g : tensor<4x16xf32>
  %h = rlx.mul %s, %u : tensor<4x16xf32>
  return %h : tensor<4x16xf32>
}

// -----

// One merged [E, 2F] gate_up weight (up first here, swapped mul, batched
// input): the fused op takes narrows of it.

// CHECK-LABEL: func.func @merged(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x3x8xf32>, %[[W:[^:]*]]: tensor<8x32xf32>)
// CHECK-DAG: %[[WG:.+]] = rlx.narrow %[[W]] axis = 1 start = 16 length = 16 : tensor<8x32xf32>
// CHECK-DAG: %[[WU:.+]] = rlx.narrow %[[W]] axis = 1 start = 0 length = 16 : tensor<8x32xf32>
// CHECK: %[[H:.+]] = rlx.fused_swiglu %[[X]], %[[WG]], %[[WU]] : tensor<2x3x8xf32>, tensor<8x16xf32>{{$}}
// CHECK-NEXT: return %[[H]]
func.func @merged(%x: tensor<2x3x8xf32>, %w: tensor<8x32xf32>) -> tensor<2x3x16xf32> {
  %m = rlx.matmul %x, %w : tensor<2x3x8xf32>, tensor<8x32xf32>
  %u = rlx.narrow %m axis = 2 start = 0 length = 16 : tensor<2x3x32xf32>
  %g = rlx.narrow %m axis = -1 start = 16 length = 16 : tensor<2x3x32xf32>
  %s = rlx.silu %g : tensor<2x3x16xf32>
  %h = rlx.mul %u, %s : tensor<2x3x16xf32>
  return %h : tensor<2x3x16xf32>
}

// -----

// Not fused: a third narrow of the matmul (it would be computed twice), a
// narrow along another axis than the columns, halves of two matmuls.

// CHECK-LABEL: func.func @concatenated_misses(
// CHECK-NOT: rlx.fused_swiglu
// CHECK-COUNT-3: rlx.silu
func.func @concatenated_misses(%x: tensor<4x8xf32>, %w: tensor<8x32xf32>, %v: tensor<8x32xf32>)
    -> (tensor<4x16xf32>, tensor<4x8xf32>, tensor<2x32xf32>, tensor<4x16xf32>) {
  %m = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x32xf32>
  %g = rlx.narrow %m axis = 1 start = 0 length = 16 : tensor<4x32xf32>
  %u = rlx.narrow %m axis = 1 start = 16 length = 16 : tensor<4x32xf32>
  %t = rlx.narrow %m axis = 1 start = 8 length = 8 : tensor<4x32xf32>
  %s = rlx.silu %g : tensor<4x16xf32>
  %h = rlx.mul %s, %u : tensor<4x16xf32>
  %m1 = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x32xf32>
  %r0 = rlx.narrow %m1 axis = 0 start = 0 length = 2 : tensor<4x32xf32>
  %r1 = rlx.narrow %m1 axis = 0 start = 2 length = 2 : tensor<4x32xf32>
  %s1 = rlx.silu %r0 : tensor<2x32xf32>
  %h1 = rlx.mul %s1, %r1 : tensor<2x32xf32>
  %ma = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x32xf32>
  %mb = rlx.matmul %x, %v : tensor<4x8xf32>, tensor<8x32xf32>
  %ga = rlx.narrow %ma axis = 1 start = 0 length = 16 : tensor<4x32xf32>
  %ub = rlx.narrow %mb axis = 1 start = 16 length = 16 : tensor<4x32xf32>
  %s2 = rlx.silu %ga : tensor<4x16xf32>
  %h2 = rlx.mul %s2, %ub : tensor<4x16xf32>
  return %h, %t, %h1, %h2 : tensor<4x16xf32>, tensor<4x8xf32>, tensor<2x32xf32>, tensor<4x16xf32>
}
