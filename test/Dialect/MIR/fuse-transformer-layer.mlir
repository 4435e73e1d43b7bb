// RUN: rlx-opt %s -split-input-file --rlx-fuse-transformer-layer | FileCheck %s
// RUN: rlx-opt %s -split-input-file --rlx-fuse=patterns=transformer-layer | FileCheck %s
// RUN: rlx-opt %s -split-input-file --rlx-fuse --rlx-unfuse | FileCheck %s --check-prefix=ROUND

// The chain that --rlx-unfuse makes of rlx.fused_transformer_layer (gelu,
// no mask) fuses back; unfusing the result gives the chain again.

// CHECK-LABEL: func.func @primitive(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x4x8xf32>, %[[WQKV:[^:]*]]: tensor<8x24xf32>, %[[BQKV:[^:]*]]: tensor<24xf32>, %[[WO:[^:]*]]: tensor<8x8xf32>, %[[BO:[^:]*]]: tensor<8xf32>, %[[G1:[^:]*]]: tensor<8xf32>, %[[B1:[^:]*]]: tensor<8xf32>, %[[W1:[^:]*]]: tensor<8x16xf32>, %[[C1:[^:]*]]: tensor<16xf32>, %[[W2:[^:]*]]: tensor<16x8xf32>, %[[C2:[^:]*]]: tensor<8xf32>, %[[G2:[^:]*]]: tensor<8xf32>, %[[B2:[^:]*]]: tensor<8xf32>)
// CHECK-NEXT: %[[Y:.+]] = rlx.fused_transformer_layer %[[X]], %[[WQKV]], %[[BQKV]], %[[WO]], %[[BO]], %[[G1]], %[[B1]], %[[W1]], %[[C1]], %[[W2]], %[[C2]], %[[G2]], %[[B2]] heads = 2 mask = none :
// CHECK-NEXT: return %[[Y]]
// ROUND-LABEL: func.func @primitive(
// ROUND-NEXT: rlx.matmul
// ROUND-NEXT: rlx.add
// ROUND-COUNT-3: rlx.transpose
// ROUND-NEXT: rlx.attention %{{.*}} mask = none
// ROUND-NEXT: rlx.transpose
// ROUND-NEXT: rlx.reshape
// ROUND-NEXT: rlx.matmul
// ROUND-NEXT: rlx.add
// ROUND-NEXT: rlx.add
// ROUND-NEXT: rlx.layer_norm
// ROUND-NEXT: rlx.matmul
// ROUND-NEXT: rlx.add
// ROUND-NEXT: rlx.gelu
// ROUND-NEXT: rlx.matmul
// ROUND-NEXT: rlx.add
// ROUND-NEXT: rlx.add
// ROUND-NEXT: rlx.layer_norm
// ROUND-NEXT: return
func.func @primitive(%x: tensor<2x4x8xf32>, %wqkv: tensor<8x24xf32>, %bqkv: tensor<24xf32>, %wo: tensor<8x8xf32>, %bo: tensor<8xf32>, %g1: tensor<8xf32>, %b1: tensor<8xf32>, %w1: tensor<8x16xf32>, %c1: tensor<16xf32>, %w2: tensor<16x8xf32>, %c2: tensor<8xf32>, %g2: tensor<8xf32>, %b2: tensor<8xf32>)
    -> tensor<2x4x8xf32> {
  %0 = rlx.matmul %x, %wqkv : tensor<2x4x8xf32>, tensor<8x24xf32>
  %1 = rlx.add %0, %bqkv : tensor<2x4x24xf32>, tensor<24xf32>
  %2 = rlx.narrow %1 axis = 2 start = 0 length = 8 : tensor<2x4x24xf32>
  %3 = rlx.reshape %2 : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %4 = rlx.transpose %3 [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %5 = rlx.narrow %1 axis = 2 start = 8 length = 8 : tensor<2x4x24xf32>
  %6 = rlx.reshape %5 : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %7 = rlx.transpose %6 [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %8 = rlx.narrow %1 axis = 2 start = 16 length = 8 : tensor<2x4x24xf32>
  %9 = rlx.reshape %8 : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %10 = rlx.transpose %9 [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %11 = rlx.attention %4, %7, %10 mask = none : tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>
  %12 = rlx.transpose %11 [0, 2, 1, 3] : tensor<2x2x4x4xf32>
  %13 = rlx.reshape %12 : tensor<2x4x2x4xf32> -> tensor<2x4x8xf32>
  %14 = rlx.matmul %13, %wo : tensor<2x4x8xf32>, tensor<8x8xf32>
  %15 = rlx.add %14, %bo : tensor<2x4x8xf32>, tensor<8xf32>
  %16 = rlx.add %x, %15 : tensor<2x4x8xf32>
  %17 = rlx.layer_norm %16, %g1, %b1 {epsilon = 9.99999996E-13 : f32} : tensor<2x4x8xf32>, tensor<8xf32>
  %18 = rlx.matmul %17, %w1 : tensor<2x4x8xf32>, tensor<8x16xf32>
  %19 = rlx.add %18, %c1 : tensor<2x4x16xf32>, tensor<16xf32>
  %20 = rlx.gelu %19 : tensor<2x4x16xf32>
  %21 = rlx.matmul %20, %w2 : tensor<2x4x16xf32>, tensor<16x8xf32>
  %22 = rlx.add %21, %c2 : tensor<2x4x8xf32>, tensor<8xf32>
  %23 = rlx.add %17, %22 : tensor<2x4x8xf32>
  %24 = rlx.layer_norm %23, %g2, %b2 {epsilon = 9.99999996E-13 : f32} : tensor<2x4x8xf32>, tensor<8xf32>
  return %24 : tensor<2x4x8xf32>
}
// -----

// The partly fused layer (attention block, residual norms, matmul-bias-act)
// with a relu feed-forward fuses; the activation is kept.

// CHECK-LABEL: func.func @p_relu(
// CHECK-NEXT: %[[Y:.+]] = rlx.fused_transformer_layer {{.*}} heads = 2 mask = none {activation = "relu"}
// CHECK-NEXT: return %[[Y]]
// ROUND-LABEL: func.func @p_relu(
// ROUND: rlx.attention
// ROUND: rlx.layer_norm
// ROUND: rlx.relu
// ROUND: rlx.layer_norm
func.func @p_relu(%x: tensor<2x4x8xf32>, %wqkv: tensor<8x24xf32>, %bqkv: tensor<24xf32>, %wo: tensor<8x8xf32>, %bo: tensor<8xf32>, %g1: tensor<8xf32>, %b1: tensor<8xf32>, %w1: tensor<8x16xf32>, %c1: tensor<16xf32>, %w2: tensor<16x8xf32>, %c2: tensor<8xf32>, %g2: tensor<8xf32>, %b2: tensor<8xf32>)
    -> (tensor<2x4x8xf32>) {
  %a = rlx.fused_attention_block %x, %wqkv, %wo qkv_bias %bqkv out_bias %bo heads = 2 mask = none : (tensor<2x4x8xf32>, tensor<8x24xf32>, tensor<8x8xf32>, tensor<24xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  %h, %s1 = rlx.fused_residual_layer_norm %x, %a, %g1, %b1 {epsilon = 9.99999996E-13 : f32} : tensor<2x4x8xf32>, tensor<8xf32>
  %f1 = rlx.fused_matmul_bias_act %h, %w1, %c1 activation = relu : tensor<2x4x8xf32>, tensor<8x16xf32>, tensor<16xf32>
  %f2 = rlx.fused_matmul_bias_act %f1, %w2, %c2 activation = none : tensor<2x4x16xf32>, tensor<16x8xf32>, tensor<8xf32>
  %y, %s2 = rlx.fused_residual_layer_norm %h, %f2, %g2, %b2 {epsilon = 9.99999996E-13 : f32} : tensor<2x4x8xf32>, tensor<8xf32>
  return %y : tensor<2x4x8xf32>
}
// -----

// The first norm's output is also returned: no fusion.

// CHECK-LABEL: func.func @n_h_read(
// CHECK-NOT: rlx.fused_transformer_layer
// CHECK: rlx.fused_residual_layer_norm
// CHECK: return
func.func @n_h_read(%x: tensor<2x4x8xf32>, %wqkv: tensor<8x24xf32>, %bqkv: tensor<24xf32>, %wo: tensor<8x8xf32>, %bo: tensor<8xf32>, %g1: tensor<8xf32>, %b1: tensor<8xf32>, %w1: tensor<8x16xf32>, %c1: tensor<16xf32>, %w2: tensor<16x8xf32>, %c2: tensor<8xf32>, %g2: tensor<8xf32>, %b2: tensor<8xf32>)
    -> (tensor<2x4x8xf32>, tensor<2x4x8xf32>) {
  %a = rlx.fused_attention_block %x, %wqkv, %wo qkv_bias %bqkv out_bias %bo heads = 2 mask = none : (tensor<2x4x8xf32>, tensor<8x24xf32>, tensor<8x8xf32>, tensor<24xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  %h, %s1 = rlx.fused_residual_layer_norm %x, %a, %g1, %b1 {epsilon = 9.99999996E-13 : f32} : tensor<2x4x8xf32>, tensor<8xf32>
  %f1 = rlx.fused_matmul_bias_act %h, %w1, %c1 activation = gelu : tensor<2x4x8xf32>, tensor<8x16xf32>, tensor<16xf32>
  %f2 = rlx.fused_matmul_bias_act %f1, %w2, %c2 activation = none : tensor<2x4x16xf32>, tensor<16x8xf32>, tensor<8xf32>
  %y, %s2 = rlx.fused_residual_layer_norm %h, %f2, %g2, %b2 {epsilon = 9.99999996E-13 : f32} : tensor<2x4x8xf32>, tensor<8xf32>
  return %y, %h : tensor<2x4x8xf32>, tensor<2x4x8xf32>
}
// -----

// The second residual sum is read on: no fusion (the layer hides it).

// CHECK-LABEL: func.func @n_sum_read(
// CHECK-NOT: rlx.fused_transformer_layer
// CHECK: rlx.fused_residual_layer_norm
// CHECK: return
func.func @n_sum_read(%x: tensor<2x4x8xf32>, %wqkv: tensor<8x24xf32>, %bqkv: tensor<24xf32>, %wo: tensor<8x8xf32>, %bo: tensor<8xf32>, %g1: tensor<8xf32>, %b1: tensor<8xf32>, %w1: tensor<8x16xf32>, %c1: tensor<16xf32>, %w2: tensor<16x8xf32>, %c2: tensor<8xf32>, %g2: tensor<8xf32>, %b2: tensor<8xf32>)
    -> (tensor<2x4x8xf32>, tensor<2x4x8xf32>) {
  %a = rlx.fused_attention_block %x, %wqkv, %wo qkv_bias %bqkv out_bias %bo heads = 2 mask = none : (tensor<2x4x8xf32>, tensor<8x24xf32>, tensor<8x8xf32>, tensor<24xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  %h, %s1 = rlx.fused_residual_layer_norm %x, %a, %g1, %b1 {epsilon = 9.99999996E-13 : f32} : tensor<2x4x8xf32>, tensor<8xf32>
  %f1 = rlx.fused_matmul_bias_act %h, %w1, %c1 activation = gelu : tensor<2x4x8xf32>, tensor<8x16xf32>, tensor<16xf32>
  %f2 = rlx.fused_matmul_bias_act %f1, %w2, %c2 activation = none : tensor<2x4x16xf32>, tensor<16x8xf32>, tensor<8xf32>
  %y, %s2 = rlx.fused_residual_layer_norm %h, %f2, %g2, %b2 {epsilon = 9.99999996E-13 : f32} : tensor<2x4x8xf32>, tensor<8xf32>
  return %y, %s2 : tensor<2x4x8xf32>, tensor<2x4x8xf32>
}
// -----

// The norms' epsilons differ (the fused op has one): no fusion.

// CHECK-LABEL: func.func @n_eps(
// CHECK-NOT: rlx.fused_transformer_layer
// CHECK: rlx.fused_residual_layer_norm
// CHECK: return
func.func @n_eps(%x: tensor<2x4x8xf32>, %wqkv: tensor<8x24xf32>, %bqkv: tensor<24xf32>, %wo: tensor<8x8xf32>, %bo: tensor<8xf32>, %g1: tensor<8xf32>, %b1: tensor<8xf32>, %w1: tensor<8x16xf32>, %c1: tensor<16xf32>, %w2: tensor<16x8xf32>, %c2: tensor<8xf32>, %g2: tensor<8xf32>, %b2: tensor<8xf32>)
    -> (tensor<2x4x8xf32>) {
  %a = rlx.fused_attention_block %x, %wqkv, %wo qkv_bias %bqkv out_bias %bo heads = 2 mask = none : (tensor<2x4x8xf32>, tensor<8x24xf32>, tensor<8x8xf32>, tensor<24xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  %h, %s1 = rlx.fused_residual_layer_norm %x, %a, %g1, %b1 {epsilon = 9.99999996E-13 : f32} : tensor<2x4x8xf32>, tensor<8xf32>
  %f1 = rlx.fused_matmul_bias_act %h, %w1, %c1 activation = gelu : tensor<2x4x8xf32>, tensor<8x16xf32>, tensor<16xf32>
  %f2 = rlx.fused_matmul_bias_act %f1, %w2, %c2 activation = none : tensor<2x4x16xf32>, tensor<16x8xf32>, tensor<8xf32>
  %y, %s2 = rlx.fused_residual_layer_norm %h, %f2, %g2, %b2 {epsilon = 1.000000e-05 : f32} : tensor<2x4x8xf32>, tensor<8xf32>
  return %y : tensor<2x4x8xf32>
}
// -----

// The FFN output projection has an activation: no fusion.

// CHECK-LABEL: func.func @n_ffn2_act(
// CHECK-NOT: rlx.fused_transformer_layer
// CHECK: rlx.fused_residual_layer_norm
// CHECK: return
func.func @n_ffn2_act(%x: tensor<2x4x8xf32>, %wqkv: tensor<8x24xf32>, %bqkv: tensor<24xf32>, %wo: tensor<8x8xf32>, %bo: tensor<8xf32>, %g1: tensor<8xf32>, %b1: tensor<8xf32>, %w1: tensor<8x16xf32>, %c1: tensor<16xf32>, %w2: tensor<16x8xf32>, %c2: tensor<8xf32>, %g2: tensor<8xf32>, %b2: tensor<8xf32>)
    -> (tensor<2x4x8xf32>) {
  %a = rlx.fused_attention_block %x, %wqkv, %wo qkv_bias %bqkv out_bias %bo heads = 2 mask = none : (tensor<2x4x8xf32>, tensor<8x24xf32>, tensor<8x8xf32>, tensor<24xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  %h, %s1 = rlx.fused_residual_layer_norm %x, %a, %g1, %b1 {epsilon = 9.99999996E-13 : f32} : tensor<2x4x8xf32>, tensor<8xf32>
  %f1 = rlx.fused_matmul_bias_act %h, %w1, %c1 activation = gelu : tensor<2x4x8xf32>, tensor<8x16xf32>, tensor<16xf32>
  %f2 = rlx.fused_matmul_bias_act %f1, %w2, %c2 activation = relu : tensor<2x4x16xf32>, tensor<16x8xf32>, tensor<8xf32>
  %y, %s2 = rlx.fused_residual_layer_norm %h, %f2, %g2, %b2 {epsilon = 9.99999996E-13 : f32} : tensor<2x4x8xf32>, tensor<8xf32>
  return %y : tensor<2x4x8xf32>
}
// -----

// An attention block without biases: no fusion (the layer needs them).

// CHECK-LABEL: func.func @n_no_bias(
// CHECK-NOT: rlx.fused_transformer_layer
// CHECK: rlx.fused_residual_layer_norm
// CHECK: return
func.func @n_no_bias(%x: tensor<2x4x8xf32>, %wqkv: tensor<8x24xf32>, %bqkv: tensor<24xf32>, %wo: tensor<8x8xf32>, %bo: tensor<8xf32>, %g1: tensor<8xf32>, %b1: tensor<8xf32>, %w1: tensor<8x16xf32>, %c1: tensor<16xf32>, %w2: tensor<16x8xf32>, %c2: tensor<8xf32>, %g2: tensor<8xf32>, %b2: tensor<8xf32>)
    -> (tensor<2x4x8xf32>) {
  %a = rlx.fused_attention_block %x, %wqkv, %wo heads = 2 mask = none : (tensor<2x4x8xf32>, tensor<8x24xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
  %h, %s1 = rlx.fused_residual_layer_norm %x, %a, %g1, %b1 {epsilon = 9.99999996E-13 : f32} : tensor<2x4x8xf32>, tensor<8xf32>
  %f1 = rlx.fused_matmul_bias_act %h, %w1, %c1 activation = gelu : tensor<2x4x8xf32>, tensor<8x16xf32>, tensor<16xf32>
  %f2 = rlx.fused_matmul_bias_act %f1, %w2, %c2 activation = none : tensor<2x4x16xf32>, tensor<16x8xf32>, tensor<8xf32>
  %y, %s2 = rlx.fused_residual_layer_norm %h, %f2, %g2, %b2 {epsilon = 9.99999996E-13 : f32} : tensor<2x4x8xf32>, tensor<8xf32>
  return %y : tensor<2x4x8xf32>
}
// -----

// An attention block with rope: no fusion (the layer has none).

// CHECK-LABEL: func.func @n_rope(
// CHECK-NOT: rlx.fused_transformer_layer
// CHECK: rlx.fused_residual_layer_norm
// CHECK: return
func.func @n_rope(%x: tensor<2x4x8xf32>, %wqkv: tensor<8x24xf32>, %bqkv: tensor<24xf32>, %wo: tensor<8x8xf32>, %bo: tensor<8xf32>, %g1: tensor<8xf32>, %b1: tensor<8xf32>, %w1: tensor<8x16xf32>, %c1: tensor<16xf32>, %w2: tensor<16x8xf32>, %c2: tensor<8xf32>, %g2: tensor<8xf32>, %b2: tensor<8xf32>, %cos: tensor<4x2xf32>, %sin: tensor<4x2xf32>)
    -> (tensor<2x4x8xf32>) {
  %a = rlx.fused_attention_block %x, %wqkv, %wo qkv_bias %bqkv out_bias %bo rope(%cos, %sin) heads = 2 mask = none : (tensor<2x4x8xf32>, tensor<8x24xf32>, tensor<8x8xf32>, tensor<24xf32>, tensor<8xf32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<2x4x8xf32>
  %h, %s1 = rlx.fused_residual_layer_norm %x, %a, %g1, %b1 {epsilon = 9.99999996E-13 : f32} : tensor<2x4x8xf32>, tensor<8xf32>
  %f1 = rlx.fused_matmul_bias_act %h, %w1, %c1 activation = gelu : tensor<2x4x8xf32>, tensor<8x16xf32>, tensor<16xf32>
  %f2 = rlx.fused_matmul_bias_act %f1, %w2, %c2 activation = none : tensor<2x4x16xf32>, tensor<16x8xf32>, tensor<8xf32>
  %y, %s2 = rlx.fused_residual_layer_norm %h, %f2, %g2, %b2 {epsilon = 9.99999996E-13 : f32} : tensor<2x4x8xf32>, tensor<8xf32>
  return %y : tensor<2x4x8xf32>
}
// -----

// Grouped-query heads: no fusion (the layer has as many kv heads as heads).

// CHECK-LABEL: func.func @n_gqa(
// CHECK-NOT: rlx.fused_transformer_layer
// CHECK: rlx.fused_residual_layer_norm
// CHECK: return
func.func @n_gqa(%x: tensor<2x4x8xf32>, %wqkv: tensor<8x16xf32>, %bqkv: tensor<16xf32>, %wo: tensor<8x8xf32>, %bo: tensor<8xf32>, %g1: tensor<8xf32>, %b1: tensor<8xf32>, %w1: tensor<8x16xf32>, %c1: tensor<16xf32>, %w2: tensor<16x8xf32>, %c2: tensor<8xf32>, %g2: tensor<8xf32>, %b2: tensor<8xf32>)
    -> (tensor<2x4x8xf32>) {
  %a = rlx.fused_attention_block %x, %wqkv, %wo qkv_bias %bqkv out_bias %bo heads = 4 kv_heads = 2 mask = none : (tensor<2x4x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<16xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  %h, %s1 = rlx.fused_residual_layer_norm %x, %a, %g1, %b1 {epsilon = 9.99999996E-13 : f32} : tensor<2x4x8xf32>, tensor<8xf32>
  %f1 = rlx.fused_matmul_bias_act %h, %w1, %c1 activation = gelu : tensor<2x4x8xf32>, tensor<8x16xf32>, tensor<16xf32>
  %f2 = rlx.fused_matmul_bias_act %f1, %w2, %c2 activation = none : tensor<2x4x16xf32>, tensor<16x8xf32>, tensor<8xf32>
  %y, %s2 = rlx.fused_residual_layer_norm %h, %f2, %g2, %b2 {epsilon = 9.99999996E-13 : f32} : tensor<2x4x8xf32>, tensor<8xf32>
  return %y : tensor<2x4x8xf32>
}
// -----

// An explicit attention scale: no fusion (the layer uses 1/sqrt(D)).

// CHECK-LABEL: func.func @n_scale(
// CHECK-NOT: rlx.fused_transformer_layer
// CHECK: rlx.fused_residual_layer_norm
// CHECK: return
func.func @n_scale(%x: tensor<2x4x8xf32>, %wqkv: tensor<8x24xf32>, %bqkv: tensor<24xf32>, %wo: tensor<8x8xf32>, %bo: tensor<8xf32>, %g1: tensor<8xf32>, %b1: tensor<8xf32>, %w1: tensor<8x16xf32>, %c1: tensor<16xf32>, %w2: tensor<16x8xf32>, %c2: tensor<8xf32>, %g2: tensor<8xf32>, %b2: tensor<8xf32>)
    -> (tensor<2x4x8xf32>) {
  %a = rlx.fused_attention_block %x, %wqkv, %wo qkv_bias %bqkv out_bias %bo heads = 2 mask = none {scale = 5.000000e-01 : f32} : (tensor<2x4x8xf32>, tensor<8x24xf32>, tensor<8x8xf32>, tensor<24xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  %h, %s1 = rlx.fused_residual_layer_norm %x, %a, %g1, %b1 {epsilon = 9.99999996E-13 : f32} : tensor<2x4x8xf32>, tensor<8xf32>
  %f1 = rlx.fused_matmul_bias_act %h, %w1, %c1 activation = gelu : tensor<2x4x8xf32>, tensor<8x16xf32>, tensor<16xf32>
  %f2 = rlx.fused_matmul_bias_act %f1, %w2, %c2 activation = none : tensor<2x4x16xf32>, tensor<16x8xf32>, tensor<8xf32>
  %y, %s2 = rlx.fused_residual_layer_norm %h, %f2, %g2, %b2 {epsilon = 9.99999996E-13 : f32} : tensor<2x4x8xf32>, tensor<8xf32>
  return %y : tensor<2x4x8xf32>
}
