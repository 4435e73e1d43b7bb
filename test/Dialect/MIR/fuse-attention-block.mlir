// RUN: rlx-opt %s -split-input-file --rlx-fuse-attention-block | FileCheck %s
// RUN: rlx-opt %s -split-input-file --rlx-fuse --rlx-unfuse | FileCheck %s --check-prefix=ROUND

// Both biases, gptj rope, grouped-query heads (2 vs 1), causal mask and a
// scale fuse; unfusing gives the chain back.

// CHECK-LABEL: func.func @rope_gqa_biases(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x4x8xf32>, %[[WQKV:[^:]*]]: tensor<8x16xf32>, %[[WOUT:[^:]*]]: tensor<8x8xf32>, %[[BQ:[^:]*]]: tensor<16xf32>, %[[BO:[^:]*]]: tensor<8xf32>, %[[COS:[^:]*]]: tensor<4x2xf32>, %[[SIN:[^:]*]]: tensor<4x2xf32>)
// CHECK-NEXT: %[[Y:.+]] = rlx.fused_attention_block %[[X]], %[[WQKV]], %[[WOUT]] qkv_bias %[[BQ]] out_bias %[[BO]] rope(%[[COS]], %[[SIN]]) heads = 2 kv_heads = 1 mask = causal {rope_style = "gptj", scale = 5.000000e-01 : f32}
// CHECK-NEXT: return %[[Y]]
// ROUND-LABEL: func.func @rope_gqa_biases(
// ROUND: rlx.matmul
// ROUND-NEXT: rlx.add
// ROUND-COUNT-3: rlx.transpose
// ROUND-COUNT-2: rlx.rope
// ROUND: rlx.attention %{{.*}} mask = causal {scale = 5.000000e-01 : f32}
// ROUND-NEXT: rlx.transpose
// ROUND-NEXT: rlx.reshape
// ROUND-NEXT: rlx.matmul
// ROUND-NEXT: rlx.add
func.func @rope_gqa_biases(%x: tensor<2x4x8xf32>, %wqkv: tensor<8x16xf32>, %wout: tensor<8x8xf32>, %bq: tensor<16xf32>, %bo: tensor<8xf32>, %cos: tensor<4x2xf32>, %sin: tensor<4x2xf32>)
    -> (tensor<2x4x8xf32>) {
  %qkv0 = rlx.matmul %x, %wqkv : tensor<2x4x8xf32>, tensor<8x16xf32>
  %qkv = rlx.add %qkv0, %bq : tensor<2x4x16xf32>, tensor<16xf32>
  %qn = rlx.narrow %qkv axis = 2 start = 0 length = 8 : tensor<2x4x16xf32>
  %qr = rlx.reshape %qn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %q = rlx.transpose %qr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %kn = rlx.narrow %qkv axis = 2 start = 8 length = 4 : tensor<2x4x16xf32>
  %kr = rlx.reshape %kn : tensor<2x4x4xf32> -> tensor<2x4x1x4xf32>
  %k = rlx.transpose %kr [0, 2, 1, 3] : tensor<2x4x1x4xf32>
  %vn = rlx.narrow %qkv axis = 2 start = 12 length = 4 : tensor<2x4x16xf32>
  %vr = rlx.reshape %vn : tensor<2x4x4xf32> -> tensor<2x4x1x4xf32>
  %v = rlx.transpose %vr [0, 2, 1, 3] : tensor<2x4x1x4xf32>
  %qe = rlx.rope %q, %cos, %sin {style = "gptj"} : tensor<2x2x4x4xf32>, tensor<4x2xf32>
  %ke = rlx.rope %k, %cos, %sin {style = "gptj"} : tensor<2x1x4x4xf32>, tensor<4x2xf32>
  %a = rlx.attention %qe, %ke, %v mask = causal {scale = 5.000000e-01 : f32} : tensor<2x2x4x4xf32>, tensor<2x1x4x4xf32>, tensor<2x1x4x4xf32>
  %at = rlx.transpose %a [0, 2, 1, 3] : tensor<2x2x4x4xf32>
  %merged = rlx.reshape %at : tensor<2x4x2x4xf32> -> tensor<2x4x8xf32>
  %y0 = rlx.matmul %merged, %wout : tensor<2x4x8xf32>, tensor<8x8xf32>
  %y = rlx.add %y0, %bo : tensor<2x4x8xf32>, tensor<8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----

// No bias, no rope, no mask: the root is the output matmul.

// CHECK-LABEL: func.func @plain(
// CHECK-NEXT: %[[Y:.+]] = rlx.fused_attention_block %{{[^ ]*}}, %{{[^ ]*}}, %{{[^ ]*}} heads = 2 mask = none : (tensor<2x4x8xf32>, tensor<8x24xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT: return %[[Y]]
// ROUND-LABEL: func.func @plain(
// ROUND: rlx.matmul
// ROUND-COUNT-3: rlx.transpose
// ROUND: rlx.attention %{{.*}} mask = none :
// ROUND-NEXT: rlx.transpose
// ROUND-NEXT: rlx.reshape
// ROUND-NEXT: rlx.matmul
func.func @plain(%x: tensor<2x4x8xf32>, %wqkv: tensor<8x24xf32>, %wout: tensor<8x8xf32>)
    -> (tensor<2x4x8xf32>) {
  %qkv0 = rlx.matmul %x, %wqkv : tensor<2x4x8xf32>, tensor<8x24xf32>
  %qn = rlx.narrow %qkv0 axis = 2 start = 0 length = 8 : tensor<2x4x24xf32>
  %qr = rlx.reshape %qn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %q = rlx.transpose %qr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %kn = rlx.narrow %qkv0 axis = 2 start = 8 length = 8 : tensor<2x4x24xf32>
  %kr = rlx.reshape %kn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %k = rlx.transpose %kr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %vn = rlx.narrow %qkv0 axis = 2 start = 16 length = 8 : tensor<2x4x24xf32>
  %vr = rlx.reshape %vn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %v = rlx.transpose %vr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %a = rlx.attention %q, %k, %v mask = none : tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>
  %at = rlx.transpose %a [0, 2, 1, 3] : tensor<2x2x4x4xf32>
  %merged = rlx.reshape %at : tensor<2x4x2x4xf32> -> tensor<2x4x8xf32>
  %y0 = rlx.matmul %merged, %wout : tensor<2x4x8xf32>, tensor<8x8xf32>
  return %y0 : tensor<2x4x8xf32>
}

// -----

// Neox rope, one kv head for four query heads, a sliding window.

// CHECK-LABEL: func.func @neox_mqa_window(
// CHECK-NEXT: rlx.fused_attention_block %{{.*}} rope(%{{.*}}) heads = 4 kv_heads = 1 mask = sliding_window window = 2 :
// CHECK-NOT: rope_style
// ROUND-LABEL: func.func @neox_mqa_window(
// ROUND: rlx.matmul
// ROUND-COUNT-3: rlx.transpose
// ROUND-COUNT-2: rlx.rope
// ROUND: rlx.attention %{{.*}} mask = sliding_window window = 2
// ROUND-NEXT: rlx.transpose
// ROUND-NEXT: rlx.reshape
// ROUND-NEXT: rlx.matmul
func.func @neox_mqa_window(%x: tensor<2x4x8xf32>, %wqkv: tensor<8x12xf32>, %wout: tensor<8x8xf32>, %cos: tensor<4x1xf32>, %sin: tensor<4x1xf32>)
    -> (tensor<2x4x8xf32>) {
  %qkv0 = rlx.matmul %x, %wqkv : tensor<2x4x8xf32>, tensor<8x12xf32>
  %qn = rlx.narrow %qkv0 axis = 2 start = 0 length = 8 : tensor<2x4x12xf32>
  %qr = rlx.reshape %qn : tensor<2x4x8xf32> -> tensor<2x4x4x2xf32>
  %q = rlx.transpose %qr [0, 2, 1, 3] : tensor<2x4x4x2xf32>
  %kn = rlx.narrow %qkv0 axis = 2 start = 8 length = 2 : tensor<2x4x12xf32>
  %kr = rlx.reshape %kn : tensor<2x4x2xf32> -> tensor<2x4x1x2xf32>
  %k = rlx.transpose %kr [0, 2, 1, 3] : tensor<2x4x1x2xf32>
  %vn = rlx.narrow %qkv0 axis = 2 start = 10 length = 2 : tensor<2x4x12xf32>
  %vr = rlx.reshape %vn : tensor<2x4x2xf32> -> tensor<2x4x1x2xf32>
  %v = rlx.transpose %vr [0, 2, 1, 3] : tensor<2x4x1x2xf32>
  %qe = rlx.rope %q, %cos, %sin : tensor<2x4x4x2xf32>, tensor<4x1xf32>
  %ke = rlx.rope %k, %cos, %sin : tensor<2x1x4x2xf32>, tensor<4x1xf32>
  %a = rlx.attention %qe, %ke, %v mask = sliding_window window = 2 : tensor<2x4x4x2xf32>, tensor<2x1x4x2xf32>, tensor<2x1x4x2xf32>
  %at = rlx.transpose %a [0, 2, 1, 3] : tensor<2x4x4x2xf32>
  %merged = rlx.reshape %at : tensor<2x4x4x2xf32> -> tensor<2x4x8xf32>
  %y0 = rlx.matmul %merged, %wout : tensor<2x4x8xf32>, tensor<8x8xf32>
  return %y0 : tensor<2x4x8xf32>
}

// -----

// A custom i1 mask operand and an output bias.

// CHECK-LABEL: func.func @custom_mask(
// CHECK-SAME: %[[M:[^:]*]]: tensor<4x4xi1>)
// CHECK-NEXT: rlx.fused_attention_block %{{.*}} out_bias %{{.*}} attn_mask %[[M]] heads = 2 mask = custom :
// ROUND-LABEL: func.func @custom_mask(
// ROUND: rlx.matmul
// ROUND-COUNT-3: rlx.transpose
// ROUND: rlx.attention %{{.*}} mask = custom
// ROUND-NEXT: rlx.transpose
// ROUND-NEXT: rlx.reshape
// ROUND-NEXT: rlx.matmul
// ROUND-NEXT: rlx.add
func.func @custom_mask(%x: tensor<2x4x8xf32>, %wqkv: tensor<8x24xf32>, %wout: tensor<8x8xf32>, %bo: tensor<8xf32>, %m: tensor<4x4xi1>)
    -> (tensor<2x4x8xf32>) {
  %qkv0 = rlx.matmul %x, %wqkv : tensor<2x4x8xf32>, tensor<8x24xf32>
  %qn = rlx.narrow %qkv0 axis = 2 start = 0 length = 8 : tensor<2x4x24xf32>
  %qr = rlx.reshape %qn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %q = rlx.transpose %qr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %kn = rlx.narrow %qkv0 axis = 2 start = 8 length = 8 : tensor<2x4x24xf32>
  %kr = rlx.reshape %kn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %k = rlx.transpose %kr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %vn = rlx.narrow %qkv0 axis = 2 start = 16 length = 8 : tensor<2x4x24xf32>
  %vr = rlx.reshape %vn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %v = rlx.transpose %vr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %a = rlx.attention %q, %k, %v, %m mask = custom : tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>, tensor<4x4xi1>
  %at = rlx.transpose %a [0, 2, 1, 3] : tensor<2x2x4x4xf32>
  %merged = rlx.reshape %at : tensor<2x4x2x4xf32> -> tensor<2x4x8xf32>
  %y0 = rlx.matmul %merged, %wout : tensor<2x4x8xf32>, tensor<8x8xf32>
  %y = rlx.add %y0, %bo : tensor<2x4x8xf32>, tensor<8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----

// An additive float mask and a QKV bias.

// CHECK-LABEL: func.func @bias_mask(
// CHECK-SAME: %[[M:[^:]*]]: tensor<2x1x4x4xf32>)
// CHECK-NEXT: rlx.fused_attention_block %{{.*}} qkv_bias %{{.*}} attn_mask %[[M]] heads = 2 mask = bias :
// ROUND-LABEL: func.func @bias_mask(
// ROUND: rlx.matmul
// ROUND-NEXT: rlx.add
// ROUND-COUNT-3: rlx.transpose
// ROUND: rlx.attention %{{.*}} mask = bias
// ROUND-NEXT: rlx.transpose
// ROUND-NEXT: rlx.reshape
// ROUND-NEXT: rlx.matmul
func.func @bias_mask(%x: tensor<2x4x8xf32>, %wqkv: tensor<8x24xf32>, %wout: tensor<8x8xf32>, %bq: tensor<24xf32>, %m: tensor<2x1x4x4xf32>)
    -> (tensor<2x4x8xf32>) {
  %qkv0 = rlx.matmul %x, %wqkv : tensor<2x4x8xf32>, tensor<8x24xf32>
  %qkv = rlx.add %qkv0, %bq : tensor<2x4x24xf32>, tensor<24xf32>
  %qn = rlx.narrow %qkv axis = 2 start = 0 length = 8 : tensor<2x4x24xf32>
  %qr = rlx.reshape %qn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %q = rlx.transpose %qr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %kn = rlx.narrow %qkv axis = 2 start = 8 length = 8 : tensor<2x4x24xf32>
  %kr = rlx.reshape %kn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %k = rlx.transpose %kr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %vn = rlx.narrow %qkv axis = 2 start = 16 length = 8 : tensor<2x4x24xf32>
  %vr = rlx.reshape %vn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %v = rlx.transpose %vr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %a = rlx.attention %q, %k, %v, %m mask = bias : tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>, tensor<2x1x4x4xf32>
  %at = rlx.transpose %a [0, 2, 1, 3] : tensor<2x2x4x4xf32>
  %merged = rlx.reshape %at : tensor<2x4x2x4xf32> -> tensor<2x4x8xf32>
  %y0 = rlx.matmul %merged, %wout : tensor<2x4x8xf32>, tensor<8x8xf32>
  return %y0 : tensor<2x4x8xf32>
}

// -----

// The attention's result has another user: nothing fuses.

// CHECK-LABEL: func.func @attention_other_user(
// CHECK-NOT: rlx.fused_attention_block
// CHECK: rlx.attention
func.func @attention_other_user(%x: tensor<2x4x8xf32>, %wqkv: tensor<8x24xf32>, %wout: tensor<8x8xf32>)
    -> (tensor<2x4x8xf32>, tensor<2x2x4x4xf32>) {
  %qkv0 = rlx.matmul %x, %wqkv : tensor<2x4x8xf32>, tensor<8x24xf32>
  %qn = rlx.narrow %qkv0 axis = 2 start = 0 length = 8 : tensor<2x4x24xf32>
  %qr = rlx.reshape %qn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %q = rlx.transpose %qr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %kn = rlx.narrow %qkv0 axis = 2 start = 8 length = 8 : tensor<2x4x24xf32>
  %kr = rlx.reshape %kn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %k = rlx.transpose %kr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %vn = rlx.narrow %qkv0 axis = 2 start = 16 length = 8 : tensor<2x4x24xf32>
  %vr = rlx.reshape %vn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %v = rlx.transpose %vr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %a = rlx.attention %q, %k, %v mask = none : tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>
  %at = rlx.transpose %a [0, 2, 1, 3] : tensor<2x2x4x4xf32>
  %merged = rlx.reshape %at : tensor<2x4x2x4xf32> -> tensor<2x4x8xf32>
  %y0 = rlx.matmul %merged, %wout : tensor<2x4x8xf32>, tensor<8x8xf32>
  return %y0, %a : tensor<2x4x8xf32>, tensor<2x2x4x4xf32>
}

// -----

// The QKV projection has a fourth reader: nothing fuses.

// CHECK-LABEL: func.func @qkv_other_user(
// CHECK-NOT: rlx.fused_attention_block
// CHECK: rlx.attention
func.func @qkv_other_user(%x: tensor<2x4x8xf32>, %wqkv: tensor<8x24xf32>, %wout: tensor<8x8xf32>, %bq: tensor<24xf32>)
    -> (tensor<2x4x8xf32>, tensor<2x4x24xf32>) {
  %qkv0 = rlx.matmul %x, %wqkv : tensor<2x4x8xf32>, tensor<8x24xf32>
  %qkv = rlx.add %qkv0, %bq : tensor<2x4x24xf32>, tensor<24xf32>
  %qn = rlx.narrow %qkv axis = 2 start = 0 length = 8 : tensor<2x4x24xf32>
  %qr = rlx.reshape %qn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %q = rlx.transpose %qr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %kn = rlx.narrow %qkv axis = 2 start = 8 length = 8 : tensor<2x4x24xf32>
  %kr = rlx.reshape %kn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %k = rlx.transpose %kr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %vn = rlx.narrow %qkv axis = 2 start = 16 length = 8 : tensor<2x4x24xf32>
  %vr = rlx.reshape %vn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %v = rlx.transpose %vr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %a = rlx.attention %q, %k, %v mask = none : tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>
  %at = rlx.transpose %a [0, 2, 1, 3] : tensor<2x2x4x4xf32>
  %merged = rlx.reshape %at : tensor<2x4x2x4xf32> -> tensor<2x4x8xf32>
  %y0 = rlx.matmul %merged, %wout : tensor<2x4x8xf32>, tensor<8x8xf32>
  return %y0, %qkv : tensor<2x4x8xf32>, tensor<2x4x24xf32>
}

// -----

// Rope on q only has no fused form.

// CHECK-LABEL: func.func @rope_q_only(
// CHECK-NOT: rlx.fused_attention_block
// CHECK: rlx.attention
func.func @rope_q_only(%x: tensor<2x4x8xf32>, %wqkv: tensor<8x24xf32>, %wout: tensor<8x8xf32>, %cos: tensor<4x2xf32>, %sin: tensor<4x2xf32>)
    -> (tensor<2x4x8xf32>) {
  %qkv0 = rlx.matmul %x, %wqkv : tensor<2x4x8xf32>, tensor<8x24xf32>
  %qn = rlx.narrow %qkv0 axis = 2 start = 0 length = 8 : tensor<2x4x24xf32>
  %qr = rlx.reshape %qn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %q = rlx.transpose %qr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %kn = rlx.narrow %qkv0 axis = 2 start = 8 length = 8 : tensor<2x4x24xf32>
  %kr = rlx.reshape %kn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %k = rlx.transpose %kr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %vn = rlx.narrow %qkv0 axis = 2 start = 16 length = 8 : tensor<2x4x24xf32>
  %vr = rlx.reshape %vn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %v = rlx.transpose %vr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %qe = rlx.rope %q, %cos, %sin : tensor<2x2x4x4xf32>, tensor<4x2xf32>
  %a = rlx.attention %qe, %k, %v mask = none : tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>
  %at = rlx.transpose %a [0, 2, 1, 3] : tensor<2x2x4x4xf32>
  %merged = rlx.reshape %at : tensor<2x4x2x4xf32> -> tensor<2x4x8xf32>
  %y0 = rlx.matmul %merged, %wout : tensor<2x4x8xf32>, tensor<8x8xf32>
  return %y0 : tensor<2x4x8xf32>
}

// -----

// k and v taken from each other's columns are not the fused op's split.

// CHECK-LABEL: func.func @swapped_kv(
// CHECK-NOT: rlx.fused_attention_block
// CHECK: rlx.attention
func.func @swapped_kv(%x: tensor<2x4x8xf32>, %wqkv: tensor<8x24xf32>, %wout: tensor<8x8xf32>)
    -> (tensor<2x4x8xf32>) {
  %qkv0 = rlx.matmul %x, %wqkv : tensor<2x4x8xf32>, tensor<8x24xf32>
  %qn = rlx.narrow %qkv0 axis = 2 start = 0 length = 8 : tensor<2x4x24xf32>
  %qr = rlx.reshape %qn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %q = rlx.transpose %qr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %kn = rlx.narrow %qkv0 axis = 2 start = 16 length = 8 : tensor<2x4x24xf32>
  %kr = rlx.reshape %kn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %k = rlx.transpose %kr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %vn = rlx.narrow %qkv0 axis = 2 start = 8 length = 8 : tensor<2x4x24xf32>
  %vr = rlx.reshape %vn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %v = rlx.transpose %vr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %a = rlx.attention %q, %k, %v mask = none : tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>
  %at = rlx.transpose %a [0, 2, 1, 3] : tensor<2x2x4x4xf32>
  %merged = rlx.reshape %at : tensor<2x4x2x4xf32> -> tensor<2x4x8xf32>
  %y0 = rlx.matmul %merged, %wout : tensor<2x4x8xf32>, tensor<8x8xf32>
  return %y0 : tensor<2x4x8xf32>
}

// -----

// An output projection to 6 features (the fused op keeps the input's 8).

// CHECK-LABEL: func.func @out_features(
// CHECK-NOT: rlx.fused_attention_block
// CHECK: rlx.attention
func.func @out_features(%x: tensor<2x4x8xf32>, %wqkv: tensor<8x24xf32>, %wout: tensor<8x6xf32>)
    -> (tensor<2x4x6xf32>) {
  %qkv0 = rlx.matmul %x, %wqkv : tensor<2x4x8xf32>, tensor<8x24xf32>
  %qn = rlx.narrow %qkv0 axis = 2 start = 0 length = 8 : tensor<2x4x24xf32>
  %qr = rlx.reshape %qn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %q = rlx.transpose %qr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %kn = rlx.narrow %qkv0 axis = 2 start = 8 length = 8 : tensor<2x4x24xf32>
  %kr = rlx.reshape %kn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %k = rlx.transpose %kr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %vn = rlx.narrow %qkv0 axis = 2 start = 16 length = 8 : tensor<2x4x24xf32>
  %vr = rlx.reshape %vn : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
  %v = rlx.transpose %vr [0, 2, 1, 3] : tensor<2x4x2x4xf32>
  %a = rlx.attention %q, %k, %v mask = none : tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>
  %at = rlx.transpose %a [0, 2, 1, 3] : tensor<2x2x4x4xf32>
  %merged = rlx.reshape %at : tensor<2x4x2x4xf32> -> tensor<2x4x8xf32>
  %y0 = rlx.matmul %merged, %wout : tensor<2x4x8xf32>, tensor<8x6xf32>
  return %y0 : tensor<2x4x6xf32>
}
