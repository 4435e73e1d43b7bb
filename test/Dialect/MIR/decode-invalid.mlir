// RUN: rlx-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// rlx.kv_cache_write
//===----------------------------------------------------------------------===//

// rlx.kv_cache_write: the cache has rank at least 3 ([..., max_seq, kv_heads, head_dim]).
func.func @kv_cache_write_cache_rank(%c: tensor<16x8xf32>, %n: tensor<1x8xf32>, %p: tensor<i64>) {
  // expected-error @+1 {{'rlx.kv_cache_write' op operand 'cache' must have rank at least 3, got 2}}
  %0 = rlx.kv_cache_write %c, %n, %p : tensor<16x8xf32>, tensor<1x8xf32>, tensor<i64>
  return
}

// -----

// rlx.kv_cache_write: the update has the cache's rank.
func.func @kv_cache_write_update_rank(%c: tensor<1x16x2x8xf32>, %n: tensor<1x2x8xf32>, %p: tensor<i64>) {
  // expected-error @+1 {{'rlx.kv_cache_write' op operand 'update' must have rank 4, got 3}}
  %0 = rlx.kv_cache_write %c, %n, %p : tensor<1x16x2x8xf32>, tensor<1x2x8xf32>, tensor<i64>
  return
}

// -----

// rlx.kv_cache_write: the position is a rank-0 tensor.
func.func @kv_cache_write_position_rank(%c: tensor<1x16x2x8xf32>, %n: tensor<1x1x2x8xf32>, %p: tensor<1xi64>) {
  // expected-error @+1 {{'rlx.kv_cache_write' op operand 'position' must have rank 0, got 1}}
  %0 = rlx.kv_cache_write %c, %n, %p : tensor<1x16x2x8xf32>, tensor<1x1x2x8xf32>, tensor<1xi64>
  return
}

// -----

// rlx.kv_cache_write: the position is i64.
func.func @kv_cache_write_position_type(%c: tensor<1x16x2x8xf32>, %n: tensor<1x1x2x8xf32>, %p: tensor<i32>) {
  // expected-error @+1 {{'rlx.kv_cache_write' op operand #2 must be ranked tensor of 64-bit signless integer values, but got 'tensor<i32>'}}
  %0 = rlx.kv_cache_write %c, %n, %p : tensor<1x16x2x8xf32>, tensor<1x1x2x8xf32>, tensor<i32>
  return
}

// -----

// rlx.kv_cache_write: the update has the cache's element type.
func.func @kv_cache_write_element_type(%c: tensor<1x16x2x8xf32>, %n: tensor<1x1x2x8xf16>, %p: tensor<i64>) {
  // expected-error @+1 {{'rlx.kv_cache_write' op operand 'update' has element type 'f16' but 'cache' has 'f32'}}
  %0 = rlx.kv_cache_write %c, %n, %p : tensor<1x16x2x8xf32>, tensor<1x1x2x8xf16>, tensor<i64>
  return
}

// -----

// rlx.kv_cache_write: the update has the cache's head dim.
func.func @kv_cache_write_head_dim(%c: tensor<1x16x2x8xf32>, %n: tensor<1x1x2x4xf32>, %p: tensor<i64>) {
  // expected-error @+1 {{'rlx.kv_cache_write' op operand 'update' dim 3 (4) must match the head dim of 'cache' (8)}}
  %0 = rlx.kv_cache_write %c, %n, %p : tensor<1x16x2x8xf32>, tensor<1x1x2x4xf32>, tensor<i64>
  return
}

// -----

// rlx.kv_cache_write: the update has the cache's kv heads.
func.func @kv_cache_write_kv_heads(%c: tensor<1x16x2x8xf32>, %n: tensor<1x1x4x8xf32>, %p: tensor<i64>) {
  // expected-error @+1 {{'rlx.kv_cache_write' op operand 'update' dim 2 (4) must match the kv heads of 'cache' (2)}}
  %0 = rlx.kv_cache_write %c, %n, %p : tensor<1x16x2x8xf32>, tensor<1x1x4x8xf32>, tensor<i64>
  return
}

// -----

// rlx.kv_cache_write: the update has the cache's leading (batch) dims.
func.func @kv_cache_write_batch(%c: tensor<2x3x16x2x8xf32>, %n: tensor<2x1x1x2x8xf32>, %p: tensor<i64>) {
  // expected-error @+1 {{'rlx.kv_cache_write' op operand 'update' dim 1 (1) must match dim 1 of 'cache' (3)}}
  %0 = rlx.kv_cache_write %c, %n, %p : tensor<2x3x16x2x8xf32>, tensor<2x1x1x2x8xf32>, tensor<i64>
  return
}

// -----

// rlx.kv_cache_write: the update's positions fit in max_seq.
func.func @kv_cache_write_too_long(%c: tensor<1x4x2x8xf32>, %n: tensor<1x6x2x8xf32>, %p: tensor<i64>) {
  // expected-error @+1 {{'rlx.kv_cache_write' op the update's 6 positions (dim 1) do not fit in the cache's max_seq (4)}}
  %0 = rlx.kv_cache_write %c, %n, %p : tensor<1x4x2x8xf32>, tensor<1x6x2x8xf32>, tensor<i64>
  return
}

// -----

// rlx.kv_cache_write: the result has the cache's type (generic form).
func.func @kv_cache_write_result_type(%c: tensor<1x16x2x8xf32>, %n: tensor<1x1x2x8xf32>, %p: tensor<i64>) {
  // expected-error @+1 {{'rlx.kv_cache_write' op failed to verify that all of {cache, result} have same type}}
  %0 = "rlx.kv_cache_write"(%c, %n, %p) : (tensor<1x16x2x8xf32>, tensor<1x1x2x8xf32>, tensor<i64>) -> tensor<1x8x2x8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// rlx.decode_attention
//===----------------------------------------------------------------------===//

// rlx.decode_attention: q, k and v share an element type.
func.func @decode_attention_element_type(%q: tensor<1x4x1x8xf32>, %k: tensor<1x16x2x8xf16>, %v: tensor<1x16x2x8xf32>, %l: tensor<i64>) {
  // expected-error @+1 {{'rlx.decode_attention' op operand 'key_cache' has element type 'f16' but 'query' has 'f32'}}
  %0 = rlx.decode_attention %q, %k, %v, %l {num_kv_heads = 2 : i64}
      : tensor<1x4x1x8xf32>, tensor<1x16x2x8xf16>, tensor<1x16x2x8xf32>, tensor<i64>
  return
}

// -----

// rlx.decode_attention: the query is [B, H, S, D].
func.func @decode_attention_query_rank(%q: tensor<4x1x8xf32>, %k: tensor<1x16x2x8xf32>, %v: tensor<1x16x2x8xf32>, %l: tensor<i64>) {
  // expected-error @+1 {{'rlx.decode_attention' op operand 'query' must have rank 4, got 3}}
  %0 = rlx.decode_attention %q, %k, %v, %l {num_kv_heads = 2 : i64}
      : tensor<4x1x8xf32>, tensor<1x16x2x8xf32>, tensor<1x16x2x8xf32>, tensor<i64>
  return
}

// -----

// rlx.decode_attention: the key cache is [B, max_seq, Hkv, D].
func.func @decode_attention_key_rank(%q: tensor<1x4x1x8xf32>, %k: tensor<16x2x8xf32>, %v: tensor<1x16x2x8xf32>, %l: tensor<i64>) {
  // expected-error @+1 {{'rlx.decode_attention' op operand 'key_cache' must have rank 4, got 3}}
  %0 = rlx.decode_attention %q, %k, %v, %l {num_kv_heads = 2 : i64}
      : tensor<1x4x1x8xf32>, tensor<16x2x8xf32>, tensor<1x16x2x8xf32>, tensor<i64>
  return
}

// -----

// rlx.decode_attention: the value cache is [B, max_seq, Hkv, Dv].
func.func @decode_attention_value_rank(%q: tensor<1x4x1x8xf32>, %k: tensor<1x16x2x8xf32>, %v: tensor<1x1x16x2x8xf32>, %l: tensor<i64>) {
  // expected-error @+1 {{'rlx.decode_attention' op operand 'value_cache' must have rank 4, got 5}}
  %0 = rlx.decode_attention %q, %k, %v, %l {num_kv_heads = 2 : i64}
      : tensor<1x4x1x8xf32>, tensor<1x16x2x8xf32>, tensor<1x1x16x2x8xf32>, tensor<i64>
  return
}

// -----

// rlx.decode_attention: the length is a rank-0 tensor.
func.func @decode_attention_length_rank(%q: tensor<1x4x1x8xf32>, %k: tensor<1x16x2x8xf32>, %v: tensor<1x16x2x8xf32>, %l: tensor<1xi64>) {
  // expected-error @+1 {{'rlx.decode_attention' op operand 'length' must have rank 0, got 1}}
  %0 = rlx.decode_attention %q, %k, %v, %l {num_kv_heads = 2 : i64}
      : tensor<1x4x1x8xf32>, tensor<1x16x2x8xf32>, tensor<1x16x2x8xf32>, tensor<1xi64>
  return
}

// -----

// rlx.decode_attention: the length is i64.
func.func @decode_attention_length_type(%q: tensor<1x4x1x8xf32>, %k: tensor<1x16x2x8xf32>, %v: tensor<1x16x2x8xf32>, %l: tensor<index>) {
  // expected-error @+1 {{'rlx.decode_attention' op operand #3 must be ranked tensor of 64-bit signless integer values, but got 'tensor<index>'}}
  %0 = rlx.decode_attention %q, %k, %v, %l {num_kv_heads = 2 : i64}
      : tensor<1x4x1x8xf32>, tensor<1x16x2x8xf32>, tensor<1x16x2x8xf32>, tensor<index>
  return
}

// -----

// rlx.decode_attention: the key cache has the query's batch.
func.func @decode_attention_key_batch(%q: tensor<1x4x1x8xf32>, %k: tensor<2x16x2x8xf32>, %v: tensor<1x16x2x8xf32>, %l: tensor<i64>) {
  // expected-error @+1 {{'rlx.decode_attention' op operand 'key_cache' dim 0 (2) must match the batch of 'query' (1)}}
  %0 = rlx.decode_attention %q, %k, %v, %l {num_kv_heads = 2 : i64}
      : tensor<1x4x1x8xf32>, tensor<2x16x2x8xf32>, tensor<1x16x2x8xf32>, tensor<i64>
  return
}

// -----

// rlx.decode_attention: the value cache has the query's batch.
func.func @decode_attention_value_batch(%q: tensor<1x4x1x8xf32>, %k: tensor<1x16x2x8xf32>, %v: tensor<3x16x2x8xf32>, %l: tensor<i64>) {
  // expected-error @+1 {{'rlx.decode_attention' op operand 'value_cache' dim 0 (3) must match the batch of 'query' (1)}}
  %0 = rlx.decode_attention %q, %k, %v, %l {num_kv_heads = 2 : i64}
      : tensor<1x4x1x8xf32>, tensor<1x16x2x8xf32>, tensor<3x16x2x8xf32>, tensor<i64>
  return
}

// -----

// rlx.decode_attention: the key cache has the query's head dim.
func.func @decode_attention_head_dim(%q: tensor<1x4x1x8xf32>, %k: tensor<1x16x2x4xf32>, %v: tensor<1x16x2x8xf32>, %l: tensor<i64>) {
  // expected-error @+1 {{'rlx.decode_attention' op operand 'key_cache' dim 3 (4) must match the head dim of 'query' (8)}}
  %0 = rlx.decode_attention %q, %k, %v, %l {num_kv_heads = 2 : i64}
      : tensor<1x4x1x8xf32>, tensor<1x16x2x4xf32>, tensor<1x16x2x8xf32>, tensor<i64>
  return
}

// -----

// rlx.decode_attention: the caches have one max_seq.
func.func @decode_attention_max_seq(%q: tensor<1x4x1x8xf32>, %k: tensor<1x16x2x8xf32>, %v: tensor<1x32x2x8xf32>, %l: tensor<i64>) {
  // expected-error @+1 {{'rlx.decode_attention' op operand 'value_cache' dim 1 (32) must match the max_seq of 'key_cache' (16)}}
  %0 = rlx.decode_attention %q, %k, %v, %l {num_kv_heads = 2 : i64}
      : tensor<1x4x1x8xf32>, tensor<1x16x2x8xf32>, tensor<1x32x2x8xf32>, tensor<i64>
  return
}

// -----

// rlx.decode_attention: the caches have one number of kv heads.
func.func @decode_attention_value_heads(%q: tensor<1x4x1x8xf32>, %k: tensor<1x16x2x8xf32>, %v: tensor<1x16x4x8xf32>, %l: tensor<i64>) {
  // expected-error @+1 {{'rlx.decode_attention' op operand 'value_cache' dim 2 (4) must match the kv heads of 'key_cache' (2)}}
  %0 = rlx.decode_attention %q, %k, %v, %l {num_kv_heads = 2 : i64}
      : tensor<1x4x1x8xf32>, tensor<1x16x2x8xf32>, tensor<1x16x4x8xf32>, tensor<i64>
  return
}

// -----

// rlx.decode_attention: num_kv_heads is positive.
func.func @decode_attention_zero_kv_heads(%q: tensor<1x4x1x8xf32>, %k: tensor<1x16x2x8xf32>, %v: tensor<1x16x2x8xf32>, %l: tensor<i64>) {
  // expected-error @+1 {{'rlx.decode_attention' op 'num_kv_heads' must be positive, got 0}}
  %0 = rlx.decode_attention %q, %k, %v, %l {num_kv_heads = 0 : i64}
      : tensor<1x4x1x8xf32>, tensor<1x16x2x8xf32>, tensor<1x16x2x8xf32>, tensor<i64>
  return
}

// -----

// rlx.decode_attention: num_kv_heads is the caches' kv heads.
func.func @decode_attention_num_kv_heads(%q: tensor<1x4x1x8xf32>, %k: tensor<1x16x2x8xf32>, %v: tensor<1x16x2x8xf32>, %l: tensor<i64>) {
  // expected-error @+1 {{'rlx.decode_attention' op operand 'key_cache' dim 2 (2) must match 'num_kv_heads' (4)}}
  %0 = rlx.decode_attention %q, %k, %v, %l {num_kv_heads = 4 : i64}
      : tensor<1x4x1x8xf32>, tensor<1x16x2x8xf32>, tensor<1x16x2x8xf32>, tensor<i64>
  return
}

// -----

// rlx.decode_attention: the query heads are a multiple of num_kv_heads.
func.func @decode_attention_gqa(%q: tensor<1x6x1x8xf32>, %k: tensor<1x16x4x8xf32>, %v: tensor<1x16x4x8xf32>, %l: tensor<i64>) {
  // expected-error @+1 {{'rlx.decode_attention' op query heads (6) must be a multiple of 'num_kv_heads' (4)}}
  %0 = rlx.decode_attention %q, %k, %v, %l {num_kv_heads = 4 : i64}
      : tensor<1x6x1x8xf32>, tensor<1x16x4x8xf32>, tensor<1x16x4x8xf32>, tensor<i64>
  return
}

// -----

// rlx.decode_attention: the window is non-negative.
func.func @decode_attention_negative_window(%q: tensor<1x4x1x8xf32>, %k: tensor<1x16x2x8xf32>, %v: tensor<1x16x2x8xf32>, %l: tensor<i64>) {
  // expected-error @+1 {{'rlx.decode_attention' op 'window' must be non-negative (0: no window), got -1}}
  %0 = rlx.decode_attention %q, %k, %v, %l {num_kv_heads = 2 : i64, window = -1 : i64}
      : tensor<1x4x1x8xf32>, tensor<1x16x2x8xf32>, tensor<1x16x2x8xf32>, tensor<i64>
  return
}

// -----

// rlx.decode_attention: the scale is non-zero (zero).
func.func @decode_attention_zero_scale(%q: tensor<1x4x1x8xf32>, %k: tensor<1x16x2x8xf32>, %v: tensor<1x16x2x8xf32>, %l: tensor<i64>) {
  // expected-error @+1 {{'rlx.decode_attention' op 'scale' must be non-zero}}
  %0 = rlx.decode_attention %q, %k, %v, %l {num_kv_heads = 2 : i64, scale = 0.0 : f32}
      : tensor<1x4x1x8xf32>, tensor<1x16x2x8xf32>, tensor<1x16x2x8xf32>, tensor<i64>
  return
}

// -----

// rlx.decode_attention: the scale is non-zero (NaN).
func.func @decode_attention_nan_scale(%q: tensor<1x4x1x8xf32>, %k: tensor<1x16x2x8xf32>, %v: tensor<1x16x2x8xf32>, %l: tensor<i64>) {
  // expected-error @+1 {{'rlx.decode_attention' op 'scale' must be non-zero}}
  %0 = rlx.decode_attention %q, %k, %v, %l {num_kv_heads = 2 : i64, scale = 0x7FC00000 : f32}
      : tensor<1x4x1x8xf32>, tensor<1x16x2x8xf32>, tensor<1x16x2x8xf32>, tensor<i64>
  return
}

// -----

// rlx.decode_attention: the new queries fit in the cache.
func.func @decode_attention_query_too_long(%q: tensor<1x4x32x8xf32>, %k: tensor<1x16x2x8xf32>, %v: tensor<1x16x2x8xf32>, %l: tensor<i64>) {
  // expected-error @+1 {{'rlx.decode_attention' op the query length (32) must not exceed the cache's max_seq (16)}}
  %0 = rlx.decode_attention %q, %k, %v, %l {num_kv_heads = 2 : i64}
      : tensor<1x4x32x8xf32>, tensor<1x16x2x8xf32>, tensor<1x16x2x8xf32>, tensor<i64>
  return
}

// -----

// rlx.decode_attention: num_kv_heads is required.
func.func @decode_attention_no_kv_heads(%q: tensor<1x4x1x8xf32>, %k: tensor<1x16x2x8xf32>, %v: tensor<1x16x2x8xf32>, %l: tensor<i64>) {
  // expected-error @+1 {{'rlx.decode_attention' op requires attribute 'num_kv_heads'}}
  %0 = rlx.decode_attention %q, %k, %v, %l
      : tensor<1x4x1x8xf32>, tensor<1x16x2x8xf32>, tensor<1x16x2x8xf32>, tensor<i64>
  return
}

// -----

// rlx.decode_attention: the result is [B, H, S, Dv] (generic form).
func.func @decode_attention_result_type(%q: tensor<1x4x1x8xf32>, %k: tensor<1x16x2x8xf32>, %l: tensor<i64>) {
  // expected-error @+2 {{'rlx.decode_attention' op inferred type(s) 'tensor<1x4x1x8xf32>' are incompatible with return type(s) of operation 'tensor<1x4x2x8xf32>'}}
  // expected-error @+1 {{'rlx.decode_attention' op failed to infer returned types}}
  %0 = "rlx.decode_attention"(%q, %k, %k, %l) {num_kv_heads = 2 : i64}
      : (tensor<1x4x1x8xf32>, tensor<1x16x2x8xf32>, tensor<1x16x2x8xf32>, tensor<i64>) -> tensor<1x4x2x8xf32>
  return
}

//===----------------------------------------------------------------------===//
// rlx.sample
//===----------------------------------------------------------------------===//

// -----

// rlx.sample: the temperature is non-negative.
func.func @sample_negative_temperature(%l: tensor<2x8xf32>, %s: tensor<i64>) {
  // expected-error @+1 {{'rlx.sample' op 'temperature' must be non-negative (0: greedy), got -5.000000e-01}}
  %0 = rlx.sample %l, %s {temperature = -0.5 : f32} : tensor<2x8xf32>, tensor<i64>
  return
}

// -----

// rlx.sample: top_k is non-negative.
func.func @sample_negative_top_k(%l: tensor<2x8xf32>, %s: tensor<i64>) {
  // expected-error @+1 {{'rlx.sample' op 'top_k' must be non-negative (0: off), got -1}}
  %0 = rlx.sample %l, %s {top_k = -1 : i64} : tensor<2x8xf32>, tensor<i64>
  return
}

// -----

// rlx.sample: top_p is positive.
func.func @sample_zero_top_p(%l: tensor<2x8xf32>, %s: tensor<i64>) {
  // expected-error @+1 {{'rlx.sample' op 'top_p' must be in (0, 1] (1: off), got 0.000000e+00}}
  %0 = rlx.sample %l, %s {top_p = 0.0 : f32} : tensor<2x8xf32>, tensor<i64>
  return
}

// -----

// rlx.sample: top_p is at most 1.
func.func @sample_top_p_above_one(%l: tensor<2x8xf32>, %s: tensor<i64>) {
  // expected-error @+1 {{'rlx.sample' op 'top_p' must be in (0, 1] (1: off), got 1.500000e+00}}
  %0 = rlx.sample %l, %s {top_p = 1.5 : f32} : tensor<2x8xf32>, tensor<i64>
  return
}

// -----

// rlx.sample: the logits are floats.
func.func @sample_int_logits(%l: tensor<2x8xi32>, %s: tensor<i64>) {
  // expected-error @+1 {{'rlx.sample' op operand 'logits' must have a float element type (f16, bf16, f32 or f64), got 'i32'}}
  %0 = rlx.sample %l, %s : tensor<2x8xi32>, tensor<i64>
  return
}

// -----

// rlx.sample: the logits are [V] or [B, V].
func.func @sample_logits_rank(%l: tensor<2x3x8xf32>, %s: tensor<i64>) {
  // expected-error @+1 {{'rlx.sample' op operand 'logits' must have rank 1 ([V]) or 2 ([B, V]), got 3}}
  %0 = rlx.sample %l, %s : tensor<2x3x8xf32>, tensor<i64>
  return
}

// -----

// rlx.sample: the seed is a rank-0 tensor.
func.func @sample_seed_rank(%l: tensor<2x8xf32>, %s: tensor<1xi64>) {
  // expected-error @+1 {{'rlx.sample' op operand 'seed' must have rank 0, got 1}}
  %0 = rlx.sample %l, %s : tensor<2x8xf32>, tensor<1xi64>
  return
}

// -----

// rlx.sample: the seed is i64.
func.func @sample_seed_type(%l: tensor<2x8xf32>, %s: tensor<i32>) {
  // expected-error @+1 {{'rlx.sample' op operand #1 must be ranked tensor of 64-bit signless integer values, but got 'tensor<i32>'}}
  %0 = rlx.sample %l, %s : tensor<2x8xf32>, tensor<i32>
  return
}

// -----

// rlx.sample: the result is [B] x i64 (generic form).
func.func @sample_result_type(%l: tensor<2x8xf32>, %s: tensor<i64>) {
  // expected-error @+2 {{'rlx.sample' op inferred type(s) 'tensor<2xi64>' are incompatible with return type(s) of operation 'tensor<i64>'}}
  // expected-error @+1 {{'rlx.sample' op failed to infer returned types}}
  %0 = "rlx.sample"(%l, %s) : (tensor<2x8xf32>, tensor<i64>) -> tensor<i64>
  return
}
