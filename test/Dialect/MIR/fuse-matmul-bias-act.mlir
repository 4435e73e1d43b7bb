// RUN: rlx-opt %s -split-input-file --rlx-fuse-matmul-bias-act | FileCheck %s
// RUN: rlx-opt %s -split-input-file --rlx-fuse --rlx-unfuse | FileCheck %s --check-prefix=ROUND

// matmul → add(bias) → gelu fuses; unfusing gives the chain back.

// CHECK-LABEL: func.func @gelu(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x4x8xf32>, %[[W:[^:]*]]: tensor<8x16xf32>, %[[B:[^:]*]]: tensor<16xf32>)
// CHECK-NEXT: %[[Y:.+]] = rlx.fused_matmul_bias_act %[[X]], %[[W]], %[[B]] activation = gelu : tensor<2x4x8xf32>, tensor<8x16xf32>, tensor<16xf32>
// CHECK-NEXT: return %[[Y]]
// ROUND-LABEL: func.func @gelu(
// ROUND-SAME: %[[X:[^:]*]]: tensor<2x4x8xf32>, %[[W:[^:]*]]: tensor<8x16xf32>, %[[B:[^:]*]]: tensor<16xf32>)
// ROUND-NEXT: %[[M:.+]] = rlx.matmul %[[X]], %[[W]] : tensor<2x4x8xf32>, tensor<8x16xf32>
// ROUND-NEXT: %[[A:.+]] = rlx.add %[[M]], %[[B]] : tensor<2x4x16xf32>, tensor<16xf32>
// ROUND-NEXT: %[[Y:.+]] = rlx.gelu %[[A]] : tensor<2x4x16xf32>
// ROUND-NEXT: return %[[Y]]
func.func @gelu(%x: tensor<2x4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<2x4x16xf32> {
  %m = rlx.matmul %x, %w : tensor<2x4x8xf32>, tensor<8x16xf32>
  %a = rlx.add %m, %b : tensor<2x4x16xf32>, tensor<16xf32>
  %y = rlx.gelu %a : tensor<2x4x16xf32>
  return %y : tensor<2x4x16xf32>
}

// -----

// Every other activation of the fused op, in f16 and f64 too.

// CHECK-LABEL: func.func @activations(
// CHECK: rlx.fused_matmul_bias_act %{{.*}} activation = relu : tensor<4x8xf32>
// CHECK: rlx.fused_matmul_bias_act %{{.*}} activation = gelu_tanh : tensor<4x8xf32>
// CHECK: rlx.fused_matmul_bias_act %{{.*}} activation = silu : tensor<4x8xf16>
// CHECK: rlx.fused_matmul_bias_act %{{.*}} activation = sigmoid : tensor<4x8xf64>
// CHECK: rlx.fused_matmul_bias_act %{{.*}} activation = tanh : tensor<4x8xf32>
// CHECK-NOT: rlx.matmul
// ROUND-LABEL: func.func @activations(
// ROUND: rlx.matmul
// ROUND-NEXT: rlx.add
// ROUND-NEXT: rlx.relu
// ROUND: rlx.matmul
// ROUND-NEXT: rlx.add
// ROUND-NEXT: rlx.gelu %{{.*}} {approximate = "tanh"}
// ROUND: rlx.matmul
// ROUND-NEXT: rlx.add
// ROUND-NEXT: rlx.silu %{{.*}} : tensor<4x16xf16>
// ROUND: rlx.matmul
// ROUND-NEXT: rlx.add
// ROUND-NEXT: rlx.sigmoid %{{.*}} : tensor<4x16xf64>
// ROUND: rlx.matmul
// ROUND-NEXT: rlx.add
// ROUND-NEXT: rlx.tanh
func.func @activations(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>,
                       %xh: tensor<4x8xf16>, %wh: tensor<8x16xf16>, %bh: tensor<16xf16>,
                       %xd: tensor<4x8xf64>, %wd: tensor<8x16xf64>, %bd: tensor<16xf64>)
    -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf16>, tensor<4x16xf64>, tensor<4x16xf32>) {
  %m0 = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x16xf32>
  %a0 = rlx.add %m0, %b : tensor<4x16xf32>, tensor<16xf32>
  %y0 = rlx.relu %a0 : tensor<4x16xf32>
  %m1 = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x16xf32>
  %a1 = rlx.add %m1, %b : tensor<4x16xf32>, tensor<16xf32>
  %y1 = rlx.gelu %a1 {approximate = "tanh"} : tensor<4x16xf32>
  %m2 = rlx.matmul %xh, %wh : tensor<4x8xf16>, tensor<8x16xf16>
  %a2 = rlx.add %m2, %bh : tensor<4x16xf16>, tensor<16xf16>
  %y2 = rlx.silu %a2 : tensor<4x16xf16>
  %m3 = rlx.matmul %xd, %wd : tensor<4x8xf64>, tensor<8x16xf64>
  %a3 = rlx.add %m3, %bd : tensor<4x16xf64>, tensor<16xf64>
  %y3 = rlx.sigmoid %a3 : tensor<4x16xf64>
  %m4 = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x16xf32>
  %a4 = rlx.add %m4, %b : tensor<4x16xf32>, tensor<16xf32>
  %y4 = rlx.tanh %a4 : tensor<4x16xf32>
  return %y0, %y1, %y2, %y3, %y4 : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf16>, tensor<4x16xf64>, tensor<4x16xf32>
}

// -----

// The bias on the left of the add, transpose_b and batched weights (the
// fused op's matmul broadcasts batch dims as rlx.matmul does).

// CHECK-LABEL: func.func @bias_first_transpose_b(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x4x8xf32>, %[[W:[^:]*]]: tensor<16x8xf32>, %[[B:[^:]*]]: tensor<16xf32>, %[[WB:[^:]*]]: tensor<3x1x8x16xf32>)
// CHECK: rlx.fused_matmul_bias_act %[[X]], %[[W]], %[[B]] transpose_b true activation = silu : tensor<2x4x8xf32>, tensor<16x8xf32>, tensor<16xf32>
// CHECK: rlx.fused_matmul_bias_act %[[X]], %[[WB]], %[[B]] activation = relu : tensor<2x4x8xf32>, tensor<3x1x8x16xf32>, tensor<16xf32>
// ROUND-LABEL: func.func @bias_first_transpose_b(
// ROUND: %[[M:.+]] = rlx.matmul %{{.*}}, %{{.*}} transpose_b true
// ROUND-NEXT: %[[A:.+]] = rlx.add %[[M]], %{{.*}} : tensor<2x4x16xf32>, tensor<16xf32>
// ROUND-NEXT: rlx.silu %[[A]]
// ROUND: %[[M2:.+]] = rlx.matmul %{{.*}} : tensor<2x4x8xf32>, tensor<3x1x8x16xf32>
// ROUND-NEXT: %[[A2:.+]] = rlx.add %[[M2]], %{{.*}} : tensor<3x2x4x16xf32>, tensor<16xf32>
// ROUND-NEXT: rlx.relu %[[A2]]
func.func @bias_first_transpose_b(%x: tensor<2x4x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf32>, %wb: tensor<3x1x8x16xf32>)
    -> (tensor<2x4x16xf32>, tensor<3x2x4x16xf32>) {
  %m = rlx.matmul %x, %w transpose_b true : tensor<2x4x8xf32>, tensor<16x8xf32>
  %a = rlx.add %b, %m : tensor<16xf32>, tensor<2x4x16xf32>
  %y = rlx.silu %a : tensor<2x4x16xf32>
  %m2 = rlx.matmul %x, %wb : tensor<2x4x8xf32>, tensor<3x1x8x16xf32>
  %a2 = rlx.add %m2, %b : tensor<3x2x4x16xf32>, tensor<16xf32>
  %y2 = rlx.relu %a2 : tensor<3x2x4x16xf32>
  return %y, %y2 : tensor<2x4x16xf32>, tensor<3x2x4x16xf32>
}

// -----

// matmul → add without an activation fuses with activation = none.

// CHECK-LABEL: func.func @no_activation(
// CHECK-NEXT: %[[Y:.+]] = rlx.fused_matmul_bias_act %{{.*}} activation = none : tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>
// CHECK-NEXT: return %[[Y]]
// ROUND-LABEL: func.func @no_activation(
// ROUND-NEXT: %[[M:.+]] = rlx.matmul
// ROUND-NEXT: %[[A:.+]] = rlx.add %[[M]]
// ROUND-NEXT: return %[[A]]
func.func @no_activation(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %m = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x16xf32>
  %a = rlx.add %m, %b : tensor<4x16xf32>, tensor<16xf32>
  return %a : tensor<4x16xf32>
}

// -----

// An activation the fused op lacks stays outside: only matmul + bias fuse.

// CHECK-LABEL: func.func @unsupported_activation(
// CHECK-NEXT: %[[F:.+]] = rlx.fused_matmul_bias_act %{{.*}} activation = none
// CHECK-NEXT: %[[Y:.+]] = rlx.exp %[[F]]
// CHECK-NEXT: return %[[Y]]
func.func @unsupported_activation(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %m = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x16xf32>
  %a = rlx.add %m, %b : tensor<4x16xf32>, tensor<16xf32>
  %y = rlx.exp %a : tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// The add's result has another user: the activation may not hide it, so
// matmul + bias fuse alone and the activation reads the fused op.

// CHECK-LABEL: func.func @add_other_user(
// CHECK-NEXT: %[[F:.+]] = rlx.fused_matmul_bias_act %{{.*}} activation = none
// CHECK-NEXT: %[[Y:.+]] = rlx.gelu %[[F]]
// CHECK-NEXT: return %[[Y]], %[[F]]
func.func @add_other_user(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %m = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x16xf32>
  %a = rlx.add %m, %b : tensor<4x16xf32>, tensor<16xf32>
  %y = rlx.gelu %a : tensor<4x16xf32>
  return %y, %a : tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// The matmul's result has another user: nothing fuses.

// CHECK-LABEL: func.func @matmul_other_user(
// CHECK-NOT: rlx.fused_matmul_bias_act
// CHECK: rlx.matmul
// CHECK-NEXT: rlx.add
// CHECK-NEXT: rlx.relu
func.func @matmul_other_user(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %m = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x16xf32>
  %a = rlx.add %m, %b : tensor<4x16xf32>, tensor<16xf32>
  %y = rlx.relu %a : tensor<4x16xf32>
  return %y, %m : tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// Biases the fused op's 1-D bias over the output features cannot express:
// 2-D, broadcast from one element, of dynamic size (1 at run time would
// broadcast) and one that broadcasts the matmul's result to a larger shape.

// CHECK-LABEL: func.func @bias_shapes(
// CHECK-NOT: rlx.fused_matmul_bias_act
// CHECK-COUNT-4: rlx.matmul
func.func @bias_shapes(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b2: tensor<4x16xf32>, %b1: tensor<1xf32>,
                       %bd: tensor<?xf32>, %xs: tensor<1x8xf32>)
    -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
  %m0 = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x16xf32>
  %a0 = rlx.add %m0, %b2 : tensor<4x16xf32>, tensor<4x16xf32>
  %y0 = rlx.relu %a0 : tensor<4x16xf32>
  %m1 = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x16xf32>
  %a1 = rlx.add %m1, %b1 : tensor<4x16xf32>, tensor<1xf32>
  %y1 = rlx.relu %a1 : tensor<4x16xf32>
  %m2 = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x16xf32>
  %a2 = rlx.add %m2, %bd : tensor<4x16xf32>, tensor<?xf32>
  %m3 = rlx.matmul %xs, %w : tensor<1x8xf32>, tensor<8x16xf32>
  %a3 = rlx.add %m3, %b2 : tensor<1x16xf32>, tensor<4x16xf32>
  return %y0, %y1, %a2, %a3 : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// Integer matmuls have no fused form (the fused op is float only).

// CHECK-LABEL: func.func @integer(
// CHECK-NOT: rlx.fused_matmul_bias_act
// CHECK: rlx.matmul
// CHECK-NEXT: rlx.add
// CHECK-NEXT: rlx.relu
func.func @integer(%x: tensor<4x8xi32>, %w: tensor<8x16xi32>, %b: tensor<16xi32>) -> tensor<4x16xi32> {
  %m = rlx.matmul %x, %w : tensor<4x8xi32>, tensor<8x16xi32>
  %a = rlx.add %m, %b : tensor<4x16xi32>, tensor<16xi32>
  %y = rlx.relu %a : tensor<4x16xi32>
  return %y : tensor<4x16xi32>
}

// -----

// transpose_a has no fused form.

// CHECK-LABEL: func.func @transpose_a(
// CHECK-NOT: rlx.fused_matmul_bias_act
// CHECK: rlx.matmul %{{.*}} transpose_a true
// CHECK-NEXT: rlx.add
// CHECK-NEXT: rlx.gelu
func.func @transpose_a(%x: tensor<8x4xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %m = rlx.matmul %x, %w transpose_a true : tensor<8x4xf32>, tensor<8x16xf32>
  %a = rlx.add %m, %b : tensor<4x16xf32>, tensor<16xf32>
  %y = rlx.gelu %a : tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
