// RUN: rlx-opt %s | FileCheck %s
// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round trips of the LLM decoding ops over a KV cache. Functions return
// their results so that the `return` line checks the result types. (Not
// in nn-ops.mlir: the ROCm and Vulkan op sweeps compile that file, and no
// GPU target claims these ops yet.)

//===----------------------------------------------------------------------===//
// rlx.kv_cache_write
//===----------------------------------------------------------------------===//

// One new position of a [B, max_seq, kv_heads, head_dim] cache; the result
// has the cache's type.
// CHECK-LABEL: func.func @kv_cache_write
// CHECK-SAME:    (%[[C:[^:]+]]: tensor<2x64x4x16xf32>, %[[N:[^:]+]]: tensor<2x1x4x16xf32>, %[[P:[^:]+]]: tensor<i64>)
func.func @kv_cache_write(%cache: tensor<2x64x4x16xf32>, %new: tensor<2x1x4x16xf32>, %pos: tensor<i64>)
    -> tensor<2x64x4x16xf32> {
  // CHECK: %[[R:.+]] = rlx.kv_cache_write %[[C]], %[[N]], %[[P]] : tensor<2x64x4x16xf32>, tensor<2x1x4x16xf32>, tensor<i64>
  %r = rlx.kv_cache_write %cache, %new, %pos : tensor<2x64x4x16xf32>, tensor<2x1x4x16xf32>, tensor<i64>
  // CHECK: return %[[R]] : tensor<2x64x4x16xf32>
  return %r : tensor<2x64x4x16xf32>
}

// A prompt of n > 1 positions, rank 3 (no batch) and rank 5 (two leading
// dims), dynamic dims, n = max_seq, and other element types (an i8 cache).
// CHECK-LABEL: func.func @kv_cache_write_shapes_and_types
func.func @kv_cache_write_shapes_and_types(
    %c3: tensor<32x2x8xbf16>, %n3: tensor<5x2x8xbf16>,
    %c5: tensor<2x3x16x2x8xf16>, %n5: tensor<2x3x4x2x8xf16>,
    %cd: tensor<?x?x2x?xf32>, %nd: tensor<?x?x2x8xf32>,
    %cf: tensor<1x8x2x4xf64>, %nf: tensor<1x8x2x4xf64>,
    %ci: tensor<1x16x2x4xi8>, %ni: tensor<1x2x2x4xi8>, %pos: tensor<i64>)
    -> (tensor<32x2x8xbf16>, tensor<2x3x16x2x8xf16>, tensor<?x?x2x?xf32>,
        tensor<1x8x2x4xf64>, tensor<1x16x2x4xi8>) {
  // CHECK: %[[A:.+]] = rlx.kv_cache_write %{{.+}}, %{{.+}}, %{{.+}} : tensor<32x2x8xbf16>, tensor<5x2x8xbf16>, tensor<i64>
  %0 = rlx.kv_cache_write %c3, %n3, %pos : tensor<32x2x8xbf16>, tensor<5x2x8xbf16>, tensor<i64>
  // CHECK: %[[B:.+]] = rlx.kv_cache_write %{{.+}}, %{{.+}}, %{{.+}} : tensor<2x3x16x2x8xf16>, tensor<2x3x4x2x8xf16>, tensor<i64>
  %1 = rlx.kv_cache_write %c5, %n5, %pos : tensor<2x3x16x2x8xf16>, tensor<2x3x4x2x8xf16>, tensor<i64>
  // CHECK: %[[C:.+]] = rlx.kv_cache_write %{{.+}}, %{{.+}}, %{{.+}} : tensor<?x?x2x?xf32>, tensor<?x?x2x8xf32>, tensor<i64>
  %2 = rlx.kv_cache_write %cd, %nd, %pos : tensor<?x?x2x?xf32>, tensor<?x?x2x8xf32>, tensor<i64>
  // CHECK: %[[D:.+]] = rlx.kv_cache_write %{{.+}}, %{{.+}}, %{{.+}} : tensor<1x8x2x4xf64>, tensor<1x8x2x4xf64>, tensor<i64>
  %3 = rlx.kv_cache_write %cf, %nf, %pos : tensor<1x8x2x4xf64>, tensor<1x8x2x4xf64>, tensor<i64>
  // CHECK: %[[E:.+]] = rlx.kv_cache_write %{{.+}}, %{{.+}}, %{{.+}} : tensor<1x16x2x4xi8>, tensor<1x2x2x4xi8>, tensor<i64>
  %4 = rlx.kv_cache_write %ci, %ni, %pos : tensor<1x16x2x4xi8>, tensor<1x2x2x4xi8>, tensor<i64>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]] : tensor<32x2x8xbf16>, tensor<2x3x16x2x8xf16>, tensor<?x?x2x?xf32>, tensor<1x8x2x4xf64>, tensor<1x16x2x4xi8>
  return %0, %1, %2, %3, %4 : tensor<32x2x8xbf16>, tensor<2x3x16x2x8xf16>, tensor<?x?x2x?xf32>,
                              tensor<1x8x2x4xf64>, tensor<1x16x2x4xi8>
}

//===----------------------------------------------------------------------===//
// rlx.decode_attention
//===----------------------------------------------------------------------===//

// One query token, 8 query heads over 2 kv heads; the result is [B, H, S,
// Dv] with the value cache's head dim. The default window (0) and the
// absent scale are not printed.
// CHECK-LABEL: func.func @decode_attention
// CHECK-SAME:    (%[[Q:[^:]+]]: tensor<2x8x1x16xf32>, %[[K:[^:]+]]: tensor<2x64x2x16xf32>, %[[V:[^:]+]]: tensor<2x64x2x32xf32>, %[[L:[^:]+]]: tensor<i64>)
func.func @decode_attention(%q: tensor<2x8x1x16xf32>, %k: tensor<2x64x2x16xf32>,
                            %v: tensor<2x64x2x32xf32>, %len: tensor<i64>)
    -> (tensor<2x8x1x32xf32>, tensor<2x8x1x32xf32>) {
  // CHECK: %[[O:.+]] = rlx.decode_attention %[[Q]], %[[K]], %[[V]], %[[L]] {num_kv_heads = 2 : i64} : tensor<2x8x1x16xf32>, tensor<2x64x2x16xf32>, tensor<2x64x2x32xf32>, tensor<i64>
  %o = rlx.decode_attention %q, %k, %v, %len {num_kv_heads = 2 : i64}
      : tensor<2x8x1x16xf32>, tensor<2x64x2x16xf32>, tensor<2x64x2x32xf32>, tensor<i64>
  // CHECK: %[[W:.+]] = rlx.decode_attention %[[Q]], %[[K]], %[[V]], %[[L]] {num_kv_heads = 2 : i64, scale = 5.000000e-01 : f32, window = 16 : i64} : tensor<2x8x1x16xf32>, tensor<2x64x2x16xf32>, tensor<2x64x2x32xf32>, tensor<i64>
  %w = rlx.decode_attention %q, %k, %v, %len {num_kv_heads = 2 : i64, window = 16 : i64, scale = 0.5 : f32}
      : tensor<2x8x1x16xf32>, tensor<2x64x2x16xf32>, tensor<2x64x2x32xf32>, tensor<i64>
  // CHECK: return %[[O]], %[[W]] : tensor<2x8x1x32xf32>, tensor<2x8x1x32xf32>
  return %o, %w : tensor<2x8x1x32xf32>, tensor<2x8x1x32xf32>
}

// Several query tokens (a prompt chunk), multi-head (H = Hkv) and
// multi-query (Hkv = 1), dynamic batch, query length and cache length,
// and the other float types.
// CHECK-LABEL: func.func @decode_attention_shapes_and_types
func.func @decode_attention_shapes_and_types(
    %q: tensor<1x4x5x8xf32>, %k: tensor<1x16x4x8xf32>,
    %qd: tensor<?x4x?x8xf32>, %kd: tensor<?x?x1x8xf32>,
    %qh: tensor<1x4x1x8xf16>, %kh: tensor<1x16x2x8xf16>,
    %qb: tensor<1x4x1x8xbf16>, %kb: tensor<1x16x2x8xbf16>,
    %qf: tensor<1x2x3x8xf64>, %kf: tensor<1x16x2x8xf64>, %len: tensor<i64>)
    -> (tensor<1x4x5x8xf32>, tensor<?x4x?x8xf32>, tensor<1x4x1x8xf16>,
        tensor<1x4x1x8xbf16>, tensor<1x2x3x8xf64>) {
  // CHECK: %[[A:.+]] = rlx.decode_attention {{.+}} : tensor<1x4x5x8xf32>, tensor<1x16x4x8xf32>, tensor<1x16x4x8xf32>, tensor<i64>
  %0 = rlx.decode_attention %q, %k, %k, %len {num_kv_heads = 4 : i64}
      : tensor<1x4x5x8xf32>, tensor<1x16x4x8xf32>, tensor<1x16x4x8xf32>, tensor<i64>
  // CHECK: %[[B:.+]] = rlx.decode_attention {{.+}} : tensor<?x4x?x8xf32>, tensor<?x?x1x8xf32>, tensor<?x?x1x8xf32>, tensor<i64>
  %1 = rlx.decode_attention %qd, %kd, %kd, %len {num_kv_heads = 1 : i64, window = 4 : i64}
      : tensor<?x4x?x8xf32>, tensor<?x?x1x8xf32>, tensor<?x?x1x8xf32>, tensor<i64>
  // CHECK: %[[C:.+]] = rlx.decode_attention {{.+}} : tensor<1x4x1x8xf16>, tensor<1x16x2x8xf16>, tensor<1x16x2x8xf16>, tensor<i64>
  %2 = rlx.decode_attention %qh, %kh, %kh, %len {num_kv_heads = 2 : i64}
      : tensor<1x4x1x8xf16>, tensor<1x16x2x8xf16>, tensor<1x16x2x8xf16>, tensor<i64>
  // CHECK: %[[D:.+]] = rlx.decode_attention {{.+}} : tensor<1x4x1x8xbf16>, tensor<1x16x2x8xbf16>, tensor<1x16x2x8xbf16>, tensor<i64>
  %3 = rlx.decode_attention %qb, %kb, %kb, %len {num_kv_heads = 2 : i64}
      : tensor<1x4x1x8xbf16>, tensor<1x16x2x8xbf16>, tensor<1x16x2x8xbf16>, tensor<i64>
  // CHECK: %[[E:.+]] = rlx.decode_attention {{.+}} : tensor<1x2x3x8xf64>, tensor<1x16x2x8xf64>, tensor<1x16x2x8xf64>, tensor<i64>
  %4 = rlx.decode_attention %qf, %kf, %kf, %len {num_kv_heads = 2 : i64}
      : tensor<1x2x3x8xf64>, tensor<1x16x2x8xf64>, tensor<1x16x2x8xf64>, tensor<i64>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]] : tensor<1x4x5x8xf32>, tensor<?x4x?x8xf32>, tensor<1x4x1x8xf16>, tensor<1x4x1x8xbf16>, tensor<1x2x3x8xf64>
  return %0, %1, %2, %3, %4 : tensor<1x4x5x8xf32>, tensor<?x4x?x8xf32>, tensor<1x4x1x8xf16>,
                              tensor<1x4x1x8xbf16>, tensor<1x2x3x8xf64>
}

// A decode step: both caches written at the position, then attention over
// the written caches up to position + 1.
// CHECK-LABEL: func.func @decode_step
// CHECK:         %[[K2:.+]] = rlx.kv_cache_write
// CHECK:         %[[V2:.+]] = rlx.kv_cache_write
// CHECK:         %[[O:.+]] = rlx.decode_attention %{{.+}}, %[[K2]], %[[V2]], %{{.+}} {num_kv_heads = 2 : i64}
// CHECK:         return %[[O]], %[[K2]], %[[V2]]
func.func @decode_step(%q: tensor<1x4x1x8xf32>, %kc: tensor<1x32x2x8xf32>,
                       %vc: tensor<1x32x2x8xf32>, %kn: tensor<1x1x2x8xf32>,
                       %vn: tensor<1x1x2x8xf32>, %pos: tensor<i64>,
                       %len: tensor<i64>)
    -> (tensor<1x4x1x8xf32>, tensor<1x32x2x8xf32>, tensor<1x32x2x8xf32>) {
  %k2 = rlx.kv_cache_write %kc, %kn, %pos : tensor<1x32x2x8xf32>, tensor<1x1x2x8xf32>, tensor<i64>
  %v2 = rlx.kv_cache_write %vc, %vn, %pos : tensor<1x32x2x8xf32>, tensor<1x1x2x8xf32>, tensor<i64>
  %o = rlx.decode_attention %q, %k2, %v2, %len {num_kv_heads = 2 : i64}
      : tensor<1x4x1x8xf32>, tensor<1x32x2x8xf32>, tensor<1x32x2x8xf32>, tensor<i64>
  return %o, %k2, %v2 : tensor<1x4x1x8xf32>, tensor<1x32x2x8xf32>, tensor<1x32x2x8xf32>
}

//===----------------------------------------------------------------------===//
// rlx.sample
//===----------------------------------------------------------------------===//

// Greedy and filtered draws from [B, V] logits give [B] token ids; the
// default attributes (temperature 1, top_k 0, top_p 1) are not printed.
// CHECK-LABEL: func.func @sample
// CHECK-SAME:    (%[[L:[^:]+]]: tensor<2x32000xf32>, %[[S:[^:]+]]: tensor<i64>)
func.func @sample(%logits: tensor<2x32000xf32>, %seed: tensor<i64>)
    -> (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) {
  // CHECK: %[[G:.+]] = rlx.sample %[[L]], %[[S]] {temperature = 0.000000e+00 : f32} : tensor<2x32000xf32>, tensor<i64>
  %0 = rlx.sample %logits, %seed {temperature = 0.0 : f32} : tensor<2x32000xf32>, tensor<i64>
  // CHECK: %[[T:.+]] = rlx.sample %[[L]], %[[S]] {temperature = 0.699999988 : f32, top_k = 50 : i64, top_p = 0.899999976 : f32} : tensor<2x32000xf32>, tensor<i64>
  %1 = rlx.sample %logits, %seed {temperature = 0.7 : f32, top_k = 50 : i64, top_p = 0.9 : f32}
      : tensor<2x32000xf32>, tensor<i64>
  // CHECK: %[[D:.+]] = rlx.sample %[[L]], %[[S]] : tensor<2x32000xf32>, tensor<i64>
  %2 = rlx.sample %logits, %seed : tensor<2x32000xf32>, tensor<i64>
  // CHECK: return %[[G]], %[[T]], %[[D]] : tensor<2xi64>, tensor<2xi64>, tensor<2xi64>
  return %0, %1, %2 : tensor<2xi64>, tensor<2xi64>, tensor<2xi64>
}

// Rank-1 logits give a rank-0 token; f16, bf16 and f64 logits and dynamic
// dims.
// CHECK-LABEL: func.func @sample_shapes_and_types
func.func @sample_shapes_and_types(%v: tensor<151936xbf16>, %h: tensor<3x7xf16>,
                                   %f: tensor<1x100xf64>, %d: tensor<?x?xf32>,
                                   %seed: tensor<i64>)
    -> (tensor<i64>, tensor<3xi64>, tensor<1xi64>, tensor<?xi64>) {
  // CHECK: %[[A:.+]] = rlx.sample {{.+}} {top_p = 0.949999988 : f32} : tensor<151936xbf16>, tensor<i64>
  %0 = rlx.sample %v, %seed {top_p = 0.95 : f32} : tensor<151936xbf16>, tensor<i64>
  // CHECK: %[[B:.+]] = rlx.sample {{.+}} {top_k = 3 : i64} : tensor<3x7xf16>, tensor<i64>
  %1 = rlx.sample %h, %seed {top_k = 3 : i64} : tensor<3x7xf16>, tensor<i64>
  // CHECK: %[[C:.+]] = rlx.sample {{.+}} {temperature = 2.000000e+00 : f32} : tensor<1x100xf64>, tensor<i64>
  %2 = rlx.sample %f, %seed {temperature = 2.0 : f32} : tensor<1x100xf64>, tensor<i64>
  // CHECK: %[[D:.+]] = rlx.sample {{.+}} : tensor<?x?xf32>, tensor<i64>
  %3 = rlx.sample %d, %seed : tensor<?x?xf32>, tensor<i64>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]] : tensor<i64>, tensor<3xi64>, tensor<1xi64>, tensor<?xi64>
  return %0, %1, %2, %3 : tensor<i64>, tensor<3xi64>, tensor<1xi64>, tensor<?xi64>
}
