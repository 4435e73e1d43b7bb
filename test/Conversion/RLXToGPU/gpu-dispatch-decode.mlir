// RUN: rlx-opt %s --split-input-file --rlx-gpu-dispatch-decode | FileCheck %s

// A decode step: the cache write goes into a function that may write its
// cache argument (no bufferization.writable = false), the attention into
// one tagged with the kernel's problem; the default scale is 1/sqrt(64).
// CHECK-LABEL: func.func private @kv_cache_write(
// CHECK-SAME:    %{{.*}}: tensor<1x512x2x64xbf16>, %{{.*}}: tensor<1x1x2x64xbf16>, %{{.*}}: tensor<i64>)
// CHECK-NOT:     bufferization.writable
// CHECK-SAME:    rlx.gpu_kv_cache_write = {axis = 1 : i64}
// CHECK:         rlx.kv_cache_write
// CHECK-LABEL: func.func private @rlx_decode_attention(
// CHECK-SAME:    rlx.decode_attention = {batch = 1 : i64, head_dim = 64 : i64, heads = 8 : i64, kv_heads = 2 : i64, max_seq = 512 : i64, scale = 1.250000e-01 : f32, seq_q = 1 : i64, value_dim = 64 : i64, window = 0 : i64}
// CHECK:         rlx.decode_attention
// CHECK-LABEL: func.func @step(
// CHECK:         %[[K:.*]] = call @kv_cache_write(%arg0, %arg2, %arg4)
// CHECK:         %[[V:.*]] = call @kv_cache_write_0(%arg1, %arg3, %arg4)
// CHECK:         %[[O:.*]] = call @rlx_decode_attention(%arg5, %[[K]], %[[V]], %arg6)
// CHECK:         return %[[O]], %[[K]], %[[V]]
func.func @step(%kc: tensor<1x512x2x64xbf16>, %vc: tensor<1x512x2x64xbf16>,
                %k: tensor<1x1x2x64xbf16>, %v: tensor<1x1x2x64xbf16>,
                %pos: tensor<i64>, %q: tensor<1x8x1x64xbf16>, %len: tensor<i64>)
    -> (tensor<1x8x1x64xbf16>, tensor<1x512x2x64xbf16>, tensor<1x512x2x64xbf16>) {
  %k2 = rlx.kv_cache_write %kc, %k, %pos : tensor<1x512x2x64xbf16>, tensor<1x1x2x64xbf16>, tensor<i64>
  %v2 = rlx.kv_cache_write %vc, %v, %pos : tensor<1x512x2x64xbf16>, tensor<1x1x2x64xbf16>, tensor<i64>
  %o = rlx.decode_attention %q, %k2, %v2, %len {num_kv_heads = 2 : i64} : tensor<1x8x1x64xbf16>, tensor<1x512x2x64xbf16>, tensor<1x512x2x64xbf16>, tensor<i64>
  return %o, %k2, %v2 : tensor<1x8x1x64xbf16>, tensor<1x512x2x64xbf16>, tensor<1x512x2x64xbf16>
}

// -----

// A cache with a layer dim in front: the sequence axis is 2. The scale and
// window given, f32 and a value dim other than the key's.
// CHECK-LABEL: func.func private @kv_cache_write(
// CHECK-SAME:    rlx.gpu_kv_cache_write = {axis = 2 : i64}
// CHECK-LABEL: func.func private @rlx_decode_attention(
// CHECK-SAME:    rlx.decode_attention = {batch = 2 : i64, head_dim = 16 : i64, heads = 4 : i64, kv_heads = 4 : i64, max_seq = 32 : i64, scale = 5.000000e-01 : f32, seq_q = 3 : i64, value_dim = 8 : i64, window = 4 : i64}
func.func @layers(%c: tensor<2x2x32x4x16xf32>, %u: tensor<2x2x3x4x16xf32>, %p: tensor<i64>,
                  %q: tensor<2x4x3x16xf32>, %kc: tensor<2x32x4x16xf32>, %vc: tensor<2x32x4x8xf32>)
    -> (tensor<2x2x32x4x16xf32>, tensor<2x4x3x8xf32>) {
  %c2 = rlx.kv_cache_write %c, %u, %p : tensor<2x2x32x4x16xf32>, tensor<2x2x3x4x16xf32>, tensor<i64>
  %o = rlx.decode_attention %q, %kc, %vc, %p {num_kv_heads = 4 : i64, window = 4 : i64, scale = 0.5 : f32} : tensor<2x4x3x16xf32>, tensor<2x32x4x16xf32>, tensor<2x32x4x8xf32>, tensor<i64>
  return %c2, %o : tensor<2x2x32x4x16xf32>, tensor<2x4x3x8xf32>
}
