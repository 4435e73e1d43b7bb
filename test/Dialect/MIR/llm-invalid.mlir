// RUN: rlx-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// rlx.lora_matmul
//===----------------------------------------------------------------------===//

// rlx.lora_matmul: the four operands share an element type.
func.func @lora_matmul_element_type(%x: tensor<5x37xf32>, %w: tensor<37x12xf32>, %a: tensor<37x4xf16>, %b: tensor<4x12xf32>) {
  // expected-error @+1 {{'rlx.lora_matmul' op operand 'lora_a' has element type 'f16' but 'input' has 'f32'}}
  %0 = rlx.lora_matmul %x, %w, %a, %b {scale = 1.0 : f32} : tensor<5x37xf32>, tensor<37x12xf32>, tensor<37x4xf16>, tensor<4x12xf32>
  return
}

// -----

// rlx.lora_matmul: the operands are floats.
func.func @lora_matmul_int(%x: tensor<5x37xi32>, %w: tensor<37x12xi32>, %a: tensor<37x4xi32>, %b: tensor<4x12xi32>) {
  // expected-error @+1 {{'rlx.lora_matmul' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<5x37xi32>'}}
  %0 = rlx.lora_matmul %x, %w, %a, %b {scale = 1.0 : f32} : tensor<5x37xi32>, tensor<37x12xi32>, tensor<37x4xi32>, tensor<4x12xi32>
  return
}

// -----

// rlx.lora_matmul: the input has rank at least 1.
func.func @lora_matmul_input_rank(%x: tensor<f32>, %w: tensor<37x12xf32>, %a: tensor<37x4xf32>, %b: tensor<4x12xf32>) {
  // expected-error @+1 {{'rlx.lora_matmul' op operand 'input' must have rank at least 1, got 0}}
  %0 = rlx.lora_matmul %x, %w, %a, %b {scale = 1.0 : f32} : tensor<f32>, tensor<37x12xf32>, tensor<37x4xf32>, tensor<4x12xf32>
  return
}

// -----

// rlx.lora_matmul: the weight is [K, N].
func.func @lora_matmul_weight_rank(%x: tensor<5x37xf32>, %w: tensor<1x37x12xf32>, %a: tensor<37x4xf32>, %b: tensor<4x12xf32>) {
  // expected-error @+1 {{'rlx.lora_matmul' op operand 'weight' must have rank 2, got 3}}
  %0 = rlx.lora_matmul %x, %w, %a, %b {scale = 1.0 : f32} : tensor<5x37xf32>, tensor<1x37x12xf32>, tensor<37x4xf32>, tensor<4x12xf32>
  return
}

// -----

// rlx.lora_matmul: lora_a is [K, r].
func.func @lora_matmul_a_rank(%x: tensor<5x37xf32>, %w: tensor<37x12xf32>, %a: tensor<37xf32>, %b: tensor<4x12xf32>) {
  // expected-error @+1 {{'rlx.lora_matmul' op operand 'lora_a' must have rank 2, got 1}}
  %0 = rlx.lora_matmul %x, %w, %a, %b {scale = 1.0 : f32} : tensor<5x37xf32>, tensor<37x12xf32>, tensor<37xf32>, tensor<4x12xf32>
  return
}

// -----

// rlx.lora_matmul: lora_b is [r, N].
func.func @lora_matmul_b_rank(%x: tensor<5x37xf32>, %w: tensor<37x12xf32>, %a: tensor<37x4xf32>, %b: tensor<1x4x12xf32>) {
  // expected-error @+1 {{'rlx.lora_matmul' op operand 'lora_b' must have rank 2, got 3}}
  %0 = rlx.lora_matmul %x, %w, %a, %b {scale = 1.0 : f32} : tensor<5x37xf32>, tensor<37x12xf32>, tensor<37x4xf32>, tensor<1x4x12xf32>
  return
}

// -----

// rlx.lora_matmul: the weight's rows are the input's last dim K.
func.func @lora_matmul_weight_k(%x: tensor<5x37xf32>, %w: tensor<36x12xf32>, %a: tensor<37x4xf32>, %b: tensor<4x12xf32>) {
  // expected-error @+1 {{'rlx.lora_matmul' op operand 'weight' dim 0 (36) must match the last dim of 'input' (37)}}
  %0 = rlx.lora_matmul %x, %w, %a, %b {scale = 1.0 : f32} : tensor<5x37xf32>, tensor<36x12xf32>, tensor<37x4xf32>, tensor<4x12xf32>
  return
}

// -----

// rlx.lora_matmul: lora_a's rows are the input's last dim K.
func.func @lora_matmul_a_k(%x: tensor<5x37xf32>, %w: tensor<37x12xf32>, %a: tensor<12x4xf32>, %b: tensor<4x12xf32>) {
  // expected-error @+1 {{'rlx.lora_matmul' op operand 'lora_a' dim 0 (12) must match the last dim of 'input' (37)}}
  %0 = rlx.lora_matmul %x, %w, %a, %b {scale = 1.0 : f32} : tensor<5x37xf32>, tensor<37x12xf32>, tensor<12x4xf32>, tensor<4x12xf32>
  return
}

// -----

// rlx.lora_matmul: lora_b's rows are the adapter rank r of lora_a.
func.func @lora_matmul_rank_r(%x: tensor<5x37xf32>, %w: tensor<37x12xf32>, %a: tensor<37x4xf32>, %b: tensor<8x12xf32>) {
  // expected-error @+1 {{'rlx.lora_matmul' op operand 'lora_b' dim 0 (8) must match the rank (dim 1) of 'lora_a' (4)}}
  %0 = rlx.lora_matmul %x, %w, %a, %b {scale = 1.0 : f32} : tensor<5x37xf32>, tensor<37x12xf32>, tensor<37x4xf32>, tensor<8x12xf32>
  return
}

// -----

// rlx.lora_matmul: lora_b's columns are the weight's N.
func.func @lora_matmul_n(%x: tensor<5x37xf32>, %w: tensor<37x12xf32>, %a: tensor<37x4xf32>, %b: tensor<4x10xf32>) {
  // expected-error @+1 {{'rlx.lora_matmul' op operand 'lora_b' dim 1 (10) must match the output dim (dim 1) of 'weight' (12)}}
  %0 = rlx.lora_matmul %x, %w, %a, %b {scale = 1.0 : f32} : tensor<5x37xf32>, tensor<37x12xf32>, tensor<37x4xf32>, tensor<4x10xf32>
  return
}

// -----

// rlx.lora_matmul: the scale is finite.
func.func @lora_matmul_scale(%x: tensor<5x37xf32>, %w: tensor<37x12xf32>, %a: tensor<37x4xf32>, %b: tensor<4x12xf32>) {
  // expected-error @+1 {{'rlx.lora_matmul' op 'scale' must be finite, got INF}}
  %0 = rlx.lora_matmul %x, %w, %a, %b {scale = 0x7F800000 : f32} : tensor<5x37xf32>, tensor<37x12xf32>, tensor<37x4xf32>, tensor<4x12xf32>
  return
}

// -----

// rlx.lora_matmul: the scale is required.
func.func @lora_matmul_no_scale(%x: tensor<5x37xf32>, %w: tensor<37x12xf32>, %a: tensor<37x4xf32>, %b: tensor<4x12xf32>) {
  // expected-error @+1 {{'rlx.lora_matmul' op requires attribute 'scale'}}
  %0 = rlx.lora_matmul %x, %w, %a, %b : tensor<5x37xf32>, tensor<37x12xf32>, tensor<37x4xf32>, tensor<4x12xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.grouped_matmul
//===----------------------------------------------------------------------===//

// rlx.grouped_matmul: input and weights share an element type.
func.func @grouped_matmul_element_type(%x: tensor<5x37xf32>, %w: tensor<3x37x11xf16>, %e: tensor<5xi64>) {
  // expected-error @+1 {{'rlx.grouped_matmul' op operand 'weights' has element type 'f16' but 'input' has 'f32'}}
  %0 = rlx.grouped_matmul %x, %w, %e : tensor<5x37xf32>, tensor<3x37x11xf16>, tensor<5xi64>
  return
}

// -----

// rlx.grouped_matmul: the expert indices are i32 or i64.
func.func @grouped_matmul_index_type(%x: tensor<5x37xf32>, %w: tensor<3x37x11xf32>, %e: tensor<5xi8>) {
  // expected-error @+1 {{'rlx.grouped_matmul' op operand #2 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<5xi8>'}}
  %0 = rlx.grouped_matmul %x, %w, %e : tensor<5x37xf32>, tensor<3x37x11xf32>, tensor<5xi8>
  return
}

// -----

// rlx.grouped_matmul: the input is [R, K].
func.func @grouped_matmul_input_rank(%x: tensor<1x5x37xf32>, %w: tensor<3x37x11xf32>, %e: tensor<5xi64>) {
  // expected-error @+1 {{'rlx.grouped_matmul' op operand 'input' must have rank 2, got 3}}
  %0 = rlx.grouped_matmul %x, %w, %e : tensor<1x5x37xf32>, tensor<3x37x11xf32>, tensor<5xi64>
  return
}

// -----

// rlx.grouped_matmul: the weights are [E, K, N].
func.func @grouped_matmul_weights_rank(%x: tensor<5x37xf32>, %w: tensor<37x11xf32>, %e: tensor<5xi64>) {
  // expected-error @+1 {{'rlx.grouped_matmul' op operand 'weights' must have rank 3, got 2}}
  %0 = rlx.grouped_matmul %x, %w, %e : tensor<5x37xf32>, tensor<37x11xf32>, tensor<5xi64>
  return
}

// -----

// rlx.grouped_matmul: one expert index per row.
func.func @grouped_matmul_expert_rank(%x: tensor<5x37xf32>, %w: tensor<3x37x11xf32>, %e: tensor<5x1xi64>) {
  // expected-error @+1 {{'rlx.grouped_matmul' op operand 'expert' must have rank 1, got 2}}
  %0 = rlx.grouped_matmul %x, %w, %e : tensor<5x37xf32>, tensor<3x37x11xf32>, tensor<5x1xi64>
  return
}

// -----

// rlx.grouped_matmul: the weights' K is the input's.
func.func @grouped_matmul_k(%x: tensor<5x37xf32>, %w: tensor<3x36x11xf32>, %e: tensor<5xi64>) {
  // expected-error @+1 {{'rlx.grouped_matmul' op operand 'weights' dim 1 (36) must match the last dim of 'input' (37)}}
  %0 = rlx.grouped_matmul %x, %w, %e : tensor<5x37xf32>, tensor<3x36x11xf32>, tensor<5xi64>
  return
}

// -----

// rlx.grouped_matmul: as many expert indices as rows.
func.func @grouped_matmul_rows(%x: tensor<5x37xf32>, %w: tensor<3x37x11xf32>, %e: tensor<4xi64>) {
  // expected-error @+1 {{'rlx.grouped_matmul' op operand 'expert' dim 0 (4) must match the rows of 'input' (5)}}
  %0 = rlx.grouped_matmul %x, %w, %e : tensor<5x37xf32>, tensor<3x37x11xf32>, tensor<4xi64>
  return
}

// -----

// rlx.grouped_matmul: at least one expert.
func.func @grouped_matmul_no_expert(%x: tensor<5x37xf32>, %w: tensor<0x37x11xf32>, %e: tensor<5xi64>) {
  // expected-error @+1 {{'rlx.grouped_matmul' op 'weights' must hold at least one expert (dim 0 is 0)}}
  %0 = rlx.grouped_matmul %x, %w, %e : tensor<5x37xf32>, tensor<0x37x11xf32>, tensor<5xi64>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.gated_delta_net
//===----------------------------------------------------------------------===//

// rlx.gated_delta_net: the six operands share an element type.
func.func @gated_delta_net_element_type(%q: tensor<2x7x3x5xf32>, %k: tensor<2x7x3x5xf32>, %v: tensor<2x7x3x4xf32>, %g: tensor<2x7x3xf32>, %b: tensor<2x7x3xf16>, %s: tensor<2x3x5x4xf32>) {
  // expected-error @+1 {{'rlx.gated_delta_net' op operand 'beta' has element type 'f16' but 'query' has 'f32'}}
  %o, %f = rlx.gated_delta_net %q, %k, %v, %g, %b, %s : tensor<2x7x3x5xf32>, tensor<2x7x3x5xf32>, tensor<2x7x3x4xf32>, tensor<2x7x3xf32>, tensor<2x7x3xf16>, tensor<2x3x5x4xf32>
  return
}

// -----

// rlx.gated_delta_net: the operands are floats.
func.func @gated_delta_net_int(%q: tensor<2x7x3x5xi32>, %k: tensor<2x7x3x5xi32>, %v: tensor<2x7x3x4xi32>, %g: tensor<2x7x3xi32>, %b: tensor<2x7x3xi32>, %s: tensor<2x3x5x4xi32>) {
  // expected-error @+1 {{'rlx.gated_delta_net' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<2x7x3x5xi32>'}}
  %o, %f = rlx.gated_delta_net %q, %k, %v, %g, %b, %s : tensor<2x7x3x5xi32>, tensor<2x7x3x5xi32>, tensor<2x7x3x4xi32>, tensor<2x7x3xi32>, tensor<2x7x3xi32>, tensor<2x3x5x4xi32>
  return
}

// -----

// rlx.gated_delta_net: the query is [B, T, H, Dk].
func.func @gated_delta_net_query_rank(%q: tensor<2x7x15xf32>, %k: tensor<2x7x3x5xf32>, %v: tensor<2x7x3x4xf32>, %g: tensor<2x7x3xf32>, %b: tensor<2x7x3xf32>, %s: tensor<2x3x5x4xf32>) {
  // expected-error @+1 {{'rlx.gated_delta_net' op operand 'query' must have rank 4, got 3}}
  %o, %f = rlx.gated_delta_net %q, %k, %v, %g, %b, %s : tensor<2x7x15xf32>, tensor<2x7x3x5xf32>, tensor<2x7x3x4xf32>, tensor<2x7x3xf32>, tensor<2x7x3xf32>, tensor<2x3x5x4xf32>
  return
}

// -----

// rlx.gated_delta_net: the key is [B, T, H, Dk].
func.func @gated_delta_net_key_rank(%q: tensor<2x7x3x5xf32>, %k: tensor<2x7x15xf32>, %v: tensor<2x7x3x4xf32>, %g: tensor<2x7x3xf32>, %b: tensor<2x7x3xf32>, %s: tensor<2x3x5x4xf32>) {
  // expected-error @+1 {{'rlx.gated_delta_net' op operand 'key' must have rank 4, got 3}}
  %o, %f = rlx.gated_delta_net %q, %k, %v, %g, %b, %s : tensor<2x7x3x5xf32>, tensor<2x7x15xf32>, tensor<2x7x3x4xf32>, tensor<2x7x3xf32>, tensor<2x7x3xf32>, tensor<2x3x5x4xf32>
  return
}

// -----

// rlx.gated_delta_net: the value is [B, T, H, Dv].
func.func @gated_delta_net_value_rank(%q: tensor<2x7x3x5xf32>, %k: tensor<2x7x3x5xf32>, %v: tensor<2x7x3x1x4xf32>, %g: tensor<2x7x3xf32>, %b: tensor<2x7x3xf32>, %s: tensor<2x3x5x4xf32>) {
  // expected-error @+1 {{'rlx.gated_delta_net' op operand 'value' must have rank 4, got 5}}
  %o, %f = rlx.gated_delta_net %q, %k, %v, %g, %b, %s : tensor<2x7x3x5xf32>, tensor<2x7x3x5xf32>, tensor<2x7x3x1x4xf32>, tensor<2x7x3xf32>, tensor<2x7x3xf32>, tensor<2x3x5x4xf32>
  return
}

// -----

// rlx.gated_delta_net: the gate is [B, T, H].
func.func @gated_delta_net_gate_rank(%q: tensor<2x7x3x5xf32>, %k: tensor<2x7x3x5xf32>, %v: tensor<2x7x3x4xf32>, %g: tensor<2x7x3x1xf32>, %b: tensor<2x7x3xf32>, %s: tensor<2x3x5x4xf32>) {
  // expected-error @+1 {{'rlx.gated_delta_net' op operand 'gate' must have rank 3, got 4}}
  %o, %f = rlx.gated_delta_net %q, %k, %v, %g, %b, %s : tensor<2x7x3x5xf32>, tensor<2x7x3x5xf32>, tensor<2x7x3x4xf32>, tensor<2x7x3x1xf32>, tensor<2x7x3xf32>, tensor<2x3x5x4xf32>
  return
}

// -----

// rlx.gated_delta_net: beta is [B, T, H].
func.func @gated_delta_net_beta_rank(%q: tensor<2x7x3x5xf32>, %k: tensor<2x7x3x5xf32>, %v: tensor<2x7x3x4xf32>, %g: tensor<2x7x3xf32>, %b: tensor<2x7xf32>, %s: tensor<2x3x5x4xf32>) {
  // expected-error @+1 {{'rlx.gated_delta_net' op operand 'beta' must have rank 3, got 2}}
  %o, %f = rlx.gated_delta_net %q, %k, %v, %g, %b, %s : tensor<2x7x3x5xf32>, tensor<2x7x3x5xf32>, tensor<2x7x3x4xf32>, tensor<2x7x3xf32>, tensor<2x7xf32>, tensor<2x3x5x4xf32>
  return
}

// -----

// rlx.gated_delta_net: the state is [B, H, Dk, Dv].
func.func @gated_delta_net_state_rank(%q: tensor<2x7x3x5xf32>, %k: tensor<2x7x3x5xf32>, %v: tensor<2x7x3x4xf32>, %g: tensor<2x7x3xf32>, %b: tensor<2x7x3xf32>, %s: tensor<6x5x4xf32>) {
  // expected-error @+1 {{'rlx.gated_delta_net' op operand 'state' must have rank 4, got 3}}
  %o, %f = rlx.gated_delta_net %q, %k, %v, %g, %b, %s : tensor<2x7x3x5xf32>, tensor<2x7x3x5xf32>, tensor<2x7x3x4xf32>, tensor<2x7x3xf32>, tensor<2x7x3xf32>, tensor<6x5x4xf32>
  return
}

// -----

// rlx.gated_delta_net: the key's batch is the query's.
func.func @gated_delta_net_key_batch(%q: tensor<2x7x3x5xf32>, %k: tensor<1x7x3x5xf32>, %v: tensor<2x7x3x4xf32>, %g: tensor<2x7x3xf32>, %b: tensor<2x7x3xf32>, %s: tensor<2x3x5x4xf32>) {
  // expected-error @+1 {{'rlx.gated_delta_net' op operand 'key' dim 0 (1) must match the batch of 'query' (2)}}
  %o, %f = rlx.gated_delta_net %q, %k, %v, %g, %b, %s : tensor<2x7x3x5xf32>, tensor<1x7x3x5xf32>, tensor<2x7x3x4xf32>, tensor<2x7x3xf32>, tensor<2x7x3xf32>, tensor<2x3x5x4xf32>
  return
}

// -----

// rlx.gated_delta_net: the value's length is the query's.
func.func @gated_delta_net_value_length(%q: tensor<2x7x3x5xf32>, %k: tensor<2x7x3x5xf32>, %v: tensor<2x6x3x4xf32>, %g: tensor<2x7x3xf32>, %b: tensor<2x7x3xf32>, %s: tensor<2x3x5x4xf32>) {
  // expected-error @+1 {{'rlx.gated_delta_net' op operand 'value' dim 1 (6) must match the length of 'query' (7)}}
  %o, %f = rlx.gated_delta_net %q, %k, %v, %g, %b, %s : tensor<2x7x3x5xf32>, tensor<2x7x3x5xf32>, tensor<2x6x3x4xf32>, tensor<2x7x3xf32>, tensor<2x7x3xf32>, tensor<2x3x5x4xf32>
  return
}

// -----

// rlx.gated_delta_net: the gate's heads are the query's.
func.func @gated_delta_net_gate_heads(%q: tensor<2x7x3x5xf32>, %k: tensor<2x7x3x5xf32>, %v: tensor<2x7x3x4xf32>, %g: tensor<2x7x4xf32>, %b: tensor<2x7x3xf32>, %s: tensor<2x3x5x4xf32>) {
  // expected-error @+1 {{'rlx.gated_delta_net' op operand 'gate' dim 2 (4) must match the heads of 'query' (3)}}
  %o, %f = rlx.gated_delta_net %q, %k, %v, %g, %b, %s : tensor<2x7x3x5xf32>, tensor<2x7x3x5xf32>, tensor<2x7x3x4xf32>, tensor<2x7x4xf32>, tensor<2x7x3xf32>, tensor<2x3x5x4xf32>
  return
}

// -----

// rlx.gated_delta_net: beta's length is the query's.
func.func @gated_delta_net_beta_length(%q: tensor<2x7x3x5xf32>, %k: tensor<2x7x3x5xf32>, %v: tensor<2x7x3x4xf32>, %g: tensor<2x7x3xf32>, %b: tensor<2x8x3xf32>, %s: tensor<2x3x5x4xf32>) {
  // expected-error @+1 {{'rlx.gated_delta_net' op operand 'beta' dim 1 (8) must match the length of 'query' (7)}}
  %o, %f = rlx.gated_delta_net %q, %k, %v, %g, %b, %s : tensor<2x7x3x5xf32>, tensor<2x7x3x5xf32>, tensor<2x7x3x4xf32>, tensor<2x7x3xf32>, tensor<2x8x3xf32>, tensor<2x3x5x4xf32>
  return
}

// -----

// rlx.gated_delta_net: the key's head dim is the query's.
func.func @gated_delta_net_key_head_dim(%q: tensor<2x7x3x5xf32>, %k: tensor<2x7x3x6xf32>, %v: tensor<2x7x3x4xf32>, %g: tensor<2x7x3xf32>, %b: tensor<2x7x3xf32>, %s: tensor<2x3x5x4xf32>) {
  // expected-error @+1 {{'rlx.gated_delta_net' op operand 'key' dim 3 (6) must match the head dim of 'query' (5)}}
  %o, %f = rlx.gated_delta_net %q, %k, %v, %g, %b, %s : tensor<2x7x3x5xf32>, tensor<2x7x3x6xf32>, tensor<2x7x3x4xf32>, tensor<2x7x3xf32>, tensor<2x7x3xf32>, tensor<2x3x5x4xf32>
  return
}

// -----

// rlx.gated_delta_net: the state's batch is the query's.
func.func @gated_delta_net_state_batch(%q: tensor<2x7x3x5xf32>, %k: tensor<2x7x3x5xf32>, %v: tensor<2x7x3x4xf32>, %g: tensor<2x7x3xf32>, %b: tensor<2x7x3xf32>, %s: tensor<3x3x5x4xf32>) {
  // expected-error @+1 {{'rlx.gated_delta_net' op operand 'state' dim 0 (3) must match the batch of 'query' (2)}}
  %o, %f = rlx.gated_delta_net %q, %k, %v, %g, %b, %s : tensor<2x7x3x5xf32>, tensor<2x7x3x5xf32>, tensor<2x7x3x4xf32>, tensor<2x7x3xf32>, tensor<2x7x3xf32>, tensor<3x3x5x4xf32>
  return
}

// -----

// rlx.gated_delta_net: the state's heads are the query's.
func.func @gated_delta_net_state_heads(%q: tensor<2x7x3x5xf32>, %k: tensor<2x7x3x5xf32>, %v: tensor<2x7x3x4xf32>, %g: tensor<2x7x3xf32>, %b: tensor<2x7x3xf32>, %s: tensor<2x2x5x4xf32>) {
  // expected-error @+1 {{'rlx.gated_delta_net' op operand 'state' dim 1 (2) must match the heads of 'query' (3)}}
  %o, %f = rlx.gated_delta_net %q, %k, %v, %g, %b, %s : tensor<2x7x3x5xf32>, tensor<2x7x3x5xf32>, tensor<2x7x3x4xf32>, tensor<2x7x3xf32>, tensor<2x7x3xf32>, tensor<2x2x5x4xf32>
  return
}

// -----

// rlx.gated_delta_net: the state's rows are the query's head dim Dk.
func.func @gated_delta_net_state_dk(%q: tensor<2x7x3x5xf32>, %k: tensor<2x7x3x5xf32>, %v: tensor<2x7x3x4xf32>, %g: tensor<2x7x3xf32>, %b: tensor<2x7x3xf32>, %s: tensor<2x3x4x4xf32>) {
  // expected-error @+1 {{'rlx.gated_delta_net' op operand 'state' dim 2 (4) must match the head dim of 'query' (5)}}
  %o, %f = rlx.gated_delta_net %q, %k, %v, %g, %b, %s : tensor<2x7x3x5xf32>, tensor<2x7x3x5xf32>, tensor<2x7x3x4xf32>, tensor<2x7x3xf32>, tensor<2x7x3xf32>, tensor<2x3x4x4xf32>
  return
}

// -----

// rlx.gated_delta_net: the state's columns are the value's head dim Dv.
func.func @gated_delta_net_state_dv(%q: tensor<2x7x3x5xf32>, %k: tensor<2x7x3x5xf32>, %v: tensor<2x7x3x4xf32>, %g: tensor<2x7x3xf32>, %b: tensor<2x7x3xf32>, %s: tensor<2x3x5x5xf32>) {
  // expected-error @+1 {{'rlx.gated_delta_net' op operand 'state' dim 3 (5) must match the head dim of 'value' (4)}}
  %o, %f = rlx.gated_delta_net %q, %k, %v, %g, %b, %s : tensor<2x7x3x5xf32>, tensor<2x7x3x5xf32>, tensor<2x7x3x4xf32>, tensor<2x7x3xf32>, tensor<2x7x3xf32>, tensor<2x3x5x5xf32>
  return
}
