// RUN: %if target-rocm %{ rlx-opt %s -verify-diagnostics --rlx-legalize="target=rocm" %}
// RUN: %if target-vulkan %{ rlx-opt %s -verify-diagnostics --rlx-legalize="target=vulkan" %}
// RUN: %if target-metal %{ rlx-opt %s -verify-diagnostics --rlx-legalize="target=metal" %}
// RUN: %if target-cuda %{ rlx-opt %s --rlx-legalize="target=cuda" | FileCheck %s %}
// RUN: rlx-opt %s --rlx-legalize="target=cpu" | FileCheck %s

// The KV cache's ops (the KVCache op group): the cpu and cuda targets
// claim and keep them (CUDA: a copy kernel and the runtime's
// decode-attention kernel); the other GPU targets reject each with one
// error.

// A decode step: both caches written at the position, attention over them.
// CHECK-LABEL: func.func @decode_step
// CHECK-COUNT-2: rlx.kv_cache_write
// CHECK:       rlx.decode_attention
func.func @decode_step(%q: tensor<1x4x1x8xf32>, %kc: tensor<1x32x2x8xf32>,
                       %vc: tensor<1x32x2x8xf32>, %kn: tensor<1x1x2x8xf32>,
                       %vn: tensor<1x1x2x8xf32>, %pos: tensor<i64>,
                       %len: tensor<i64>)
    -> (tensor<1x4x1x8xf32>, tensor<1x32x2x8xf32>, tensor<1x32x2x8xf32>) {
  // expected-error @below {{'rlx.kv_cache_write' is not supported by target}}
  %k2 = rlx.kv_cache_write %kc, %kn, %pos : tensor<1x32x2x8xf32>, tensor<1x1x2x8xf32>, tensor<i64>
  // expected-error @below {{'rlx.kv_cache_write' is not supported by target}}
  %v2 = rlx.kv_cache_write %vc, %vn, %pos : tensor<1x32x2x8xf32>, tensor<1x1x2x8xf32>, tensor<i64>
  // expected-error @below {{'rlx.decode_attention' is not supported by target}}
  %o = rlx.decode_attention %q, %k2, %v2, %len {num_kv_heads = 2 : i64}
      : tensor<1x4x1x8xf32>, tensor<1x32x2x8xf32>, tensor<1x32x2x8xf32>, tensor<i64>
  return %o, %k2, %v2 : tensor<1x4x1x8xf32>, tensor<1x32x2x8xf32>, tensor<1x32x2x8xf32>
}

