// RUN: rlx-opt %s -split-input-file --rlx-gpu-dispatch-attention="report=true" -verify-diagnostics | FileCheck %s
// RUN: rlx-opt %s -split-input-file --rlx-gpu-dispatch-attention="report=true runtime-kernel=false" 2>&1 | FileCheck %s --check-prefix=NOKERNEL

// A target whose runtime has no flash-attention kernel (the CUDA target on a
// chip other than sm_90): every attention stays.
// NOKERNEL-NOT: remark: attention: flash kernel
// NOKERNEL:     remark: attention: no flash kernel (the target's runtime has no flash-attention kernel)
// NOKERNEL-NOT: remark: attention: flash kernel

// bf16 causal grouped-query attention (8 heads over 2 kv heads, head dim
// 64): one call of an outlined function tagged with the problem, the
// scale 1/sqrt(64); the function keeps the op (it bufferizes as any
// function).
// CHECK-LABEL: func.func private @rlx_flash_attention(
// CHECK-SAME:      %[[Q:.*]]: tensor<2x8x256x64xbf16>, %[[K:.*]]: tensor<2x2x256x64xbf16>, %[[V:.*]]: tensor<2x2x256x64xbf16>) -> tensor<2x8x256x64xbf16>
// CHECK-SAME:      attributes {rlx.flash_attention = {batch = 2 : i64, head_dim = 64 : i64, heads = 8 : i64, kv_heads = 2 : i64, mask = "causal", scale = 1.250000e-01 : f32, seq_k = 256 : i64, seq_major = array<i1: false, false, false, false>, seq_q = 256 : i64, window = 0 : i64}}
// CHECK-NEXT:    %[[O:.*]] = rlx.attention %[[Q]], %[[K]], %[[V]] mask = causal
// CHECK-NEXT:    return %[[O]]
// CHECK-LABEL: func.func @causal_gqa_bf16(
// CHECK:         %[[R:.*]] = call @rlx_flash_attention(%arg0, %arg1, %arg2)
// CHECK-NEXT:    return %[[R]]
func.func @causal_gqa_bf16(%q: tensor<2x8x256x64xbf16>, %k: tensor<2x2x256x64xbf16>, %v: tensor<2x2x256x64xbf16>) -> tensor<2x8x256x64xbf16> {
  // expected-remark @below {{attention: flash kernel 'bf16' causal 2x8x2x256x256x64 (batch x heads x kv heads x seq q x seq k x head dim)}}
  %o = rlx.attention %q, %k, %v mask = causal : tensor<2x8x256x64xbf16>, tensor<2x2x256x64xbf16>, tensor<2x2x256x64xbf16>
  return %o : tensor<2x8x256x64xbf16>
}

// -----

// f16 sliding window over more keys than queries, head dim 128, the op's
// own scale.
// CHECK-LABEL: func.func private @rlx_flash_attention(
// CHECK-SAME:      attributes {rlx.flash_attention = {batch = 1 : i64, head_dim = 128 : i64, heads = 4 : i64, kv_heads = 4 : i64, mask = "sliding_window", scale = 1.000000e-01 : f32, seq_k = 192 : i64, seq_major = array<i1: false, false, false, false>, seq_q = 64 : i64, window = 32 : i64}}
// CHECK-LABEL: func.func @sliding_window_f16(
// CHECK:         call @rlx_flash_attention
func.func @sliding_window_f16(%q: tensor<1x4x64x128xf16>, %k: tensor<1x4x192x128xf16>, %v: tensor<1x4x192x128xf16>) -> tensor<1x4x64x128xf16> {
  // expected-remark @below {{attention: flash kernel 'f16' sliding_window 1x4x4x64x192x128}}
  %o = rlx.attention %q, %k, %v mask = sliding_window window = 32 {scale = 0.1 : f32} : tensor<1x4x64x128xf16>, tensor<1x4x192x128xf16>, tensor<1x4x192x128xf16>
  return %o : tensor<1x4x64x128xf16>
}

// -----

// Unmasked: the kernel too (rather than decomposed into matmuls).
// CHECK-LABEL: func.func private @rlx_flash_attention(
// CHECK-SAME:      mask = "none"
// CHECK-LABEL: func.func @unmasked_bf16(
// CHECK:         call @rlx_flash_attention
func.func @unmasked_bf16(%q: tensor<32x12x128x64xbf16>, %k: tensor<32x12x128x64xbf16>, %v: tensor<32x12x128x64xbf16>) -> tensor<32x12x128x64xbf16> {
  // expected-remark @below {{attention: flash kernel 'bf16' none 32x12x12x128x128x64}}
  %o = rlx.attention %q, %k, %v mask = none : tensor<32x12x128x64xbf16>, tensor<32x12x128x64xbf16>, tensor<32x12x128x64xbf16>
  return %o : tensor<32x12x128x64xbf16>
}

// -----

// BERT's heads: q, k and v are [batch, seq, heads, dim] slices of one
// projection, transposed; the result is transposed back. The transposes
// move into the function (the kernel reads and writes rows in place
// through strides), marked in `seq_major` (q, k, v, o); the call takes
// and returns the untransposed tensors.
// CHECK-LABEL: func.func private @rlx_flash_attention(
// CHECK-SAME:      %[[Q:.*]]: tensor<2x128x12x64xbf16>, %[[K:.*]]: tensor<2x128x12x64xbf16>, %[[V:.*]]: tensor<2x128x12x64xbf16>) -> tensor<2x128x12x64xbf16>
// CHECK-SAME:      seq_major = array<i1: true, true, true, true>
// CHECK-NEXT:    %[[QT:.*]] = rlx.transpose %[[Q]] [0, 2, 1, 3]
// CHECK-NEXT:    %[[KT:.*]] = rlx.transpose %[[K]] [0, 2, 1, 3]
// CHECK-NEXT:    %[[VT:.*]] = rlx.transpose %[[V]] [0, 2, 1, 3]
// CHECK-NEXT:    %[[O:.*]] = rlx.attention %[[QT]], %[[KT]], %[[VT]] mask = none
// CHECK-NEXT:    %[[OT:.*]] = rlx.transpose %[[O]] [0, 2, 1, 3]
// CHECK-NEXT:    return %[[OT]]
// CHECK-LABEL: func.func @heads_in_place(
// CHECK-NOT:     rlx.transpose
// CHECK:         %[[R:.*]] = call @rlx_flash_attention(%{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NEXT:    %[[A:.*]] = rlx.reshape %[[R]]
// CHECK-NEXT:    return %[[A]]
func.func @heads_in_place(%qkv: tensor<2x128x2304xbf16>) -> tensor<2x128x768xbf16> {
  %q0 = rlx.narrow %qkv axis = 2 start = 0 length = 768 : tensor<2x128x2304xbf16>
  %k0 = rlx.narrow %qkv axis = 2 start = 768 length = 768 : tensor<2x128x2304xbf16>
  %v0 = rlx.narrow %qkv axis = 2 start = 1536 length = 768 : tensor<2x128x2304xbf16>
  %q1 = rlx.reshape %q0 : tensor<2x128x768xbf16> -> tensor<2x128x12x64xbf16>
  %k1 = rlx.reshape %k0 : tensor<2x128x768xbf16> -> tensor<2x128x12x64xbf16>
  %v1 = rlx.reshape %v0 : tensor<2x128x768xbf16> -> tensor<2x128x12x64xbf16>
  %q = rlx.transpose %q1 [0, 2, 1, 3] : tensor<2x128x12x64xbf16>
  %k = rlx.transpose %k1 [0, 2, 1, 3] : tensor<2x128x12x64xbf16>
  %v = rlx.transpose %v1 [0, 2, 1, 3] : tensor<2x128x12x64xbf16>
  // expected-remark @below {{attention: flash kernel 'bf16' none 2x12x12x128x128x64 (batch x heads x kv heads x seq q x seq k x head dim), q k v o as batch x seq x heads x head dim in place}}
  %a = rlx.attention %q, %k, %v mask = none : tensor<2x12x128x64xbf16>, tensor<2x12x128x64xbf16>, tensor<2x12x128x64xbf16>
  %a1 = rlx.transpose %a [0, 2, 1, 3] : tensor<2x12x128x64xbf16>
  %a2 = rlx.reshape %a1 : tensor<2x128x12x64xbf16> -> tensor<2x128x768xbf16>
  return %a2 : tensor<2x128x768xbf16>
}

// -----

// One transpose feeding k and v is taken in once; one that something else
// reads too stays for that reader; other permutations stay; a result read
// by more than its transpose is returned as it is.
// CHECK-LABEL: func.func private @rlx_flash_attention(
// CHECK-SAME:      %[[Q:.*]]: tensor<1x4x64x64xf16>, %{{.*}}: tensor<1x64x4x64xf16>, %[[KV:.*]]: tensor<1x64x4x64xf16>) -> tensor<1x4x64x64xf16>
// CHECK-SAME:      seq_major = array<i1: false, true, true, false>
// CHECK-NEXT:    %[[T:.*]] = rlx.transpose %[[KV]] [0, 2, 1, 3]
// CHECK-NEXT:    %[[O:.*]] = rlx.attention %[[Q]], %[[T]], %[[T]] mask = causal
// CHECK-NEXT:    return %[[O]]
// CHECK-LABEL: func.func @shared_and_kept(
// CHECK:         %[[QT:.*]] = rlx.transpose %arg0 [0, 1, 3, 2]
// CHECK:         %[[KVT:.*]] = rlx.transpose %arg1 [0, 2, 1, 3]
// CHECK:         %[[R:.*]] = call @rlx_flash_attention(%[[QT]], %arg1, %arg1)
// CHECK:         rlx.transpose %[[R]] [0, 2, 1, 3]
// CHECK:         return {{.*}}, %[[R]], %[[KVT]]
func.func @shared_and_kept(%q: tensor<1x4x64x64xf16>, %kv: tensor<1x64x4x64xf16>) -> (tensor<1x64x4x64xf16>, tensor<1x4x64x64xf16>, tensor<1x4x64x64xf16>) {
  %qt = rlx.transpose %q [0, 1, 3, 2] : tensor<1x4x64x64xf16>
  %t = rlx.transpose %kv [0, 2, 1, 3] : tensor<1x64x4x64xf16>
  // expected-remark @below {{attention: flash kernel 'f16' causal 1x4x4x64x64x64 (batch x heads x kv heads x seq q x seq k x head dim), k v as batch x seq x heads x head dim in place}}
  %a = rlx.attention %qt, %t, %t mask = causal : tensor<1x4x64x64xf16>, tensor<1x4x64x64xf16>, tensor<1x4x64x64xf16>
  %a1 = rlx.transpose %a [0, 2, 1, 3] : tensor<1x4x64x64xf16>
  return %a1, %a, %t : tensor<1x64x4x64xf16>, tensor<1x4x64x64xf16>, tensor<1x4x64x64xf16>
}

// -----

// What the kernel does not take stays, with the reason.
// CHECK-NOT:   rlx_flash_attention
// CHECK-LABEL: func.func @f32(
// CHECK-NEXT:    rlx.attention
func.func @f32(%q: tensor<1x4x64x64xf32>, %k: tensor<1x4x64x64xf32>, %v: tensor<1x4x64x64xf32>) -> tensor<1x4x64x64xf32> {
  // expected-remark @below {{attention: no flash kernel (element type f32; the kernel takes bf16 and f16)}}
  %o = rlx.attention %q, %k, %v mask = causal : tensor<1x4x64x64xf32>, tensor<1x4x64x64xf32>, tensor<1x4x64x64xf32>
  return %o : tensor<1x4x64x64xf32>
}

// CHECK-LABEL: func.func @custom_mask(
// CHECK-NEXT:    rlx.attention
func.func @custom_mask(%q: tensor<1x4x64x64xbf16>, %k: tensor<1x4x64x64xbf16>, %v: tensor<1x4x64x64xbf16>, %m: tensor<1x1x64x64xi1>) -> tensor<1x4x64x64xbf16> {
  // expected-remark @below {{attention: no flash kernel (mask custom; the kernel takes none, causal and sliding_window)}}
  %o = rlx.attention %q, %k, %v, %m mask = custom : tensor<1x4x64x64xbf16>, tensor<1x4x64x64xbf16>, tensor<1x4x64x64xbf16>, tensor<1x1x64x64xi1>
  return %o : tensor<1x4x64x64xbf16>
}

// CHECK-LABEL: func.func @bias_mask(
// CHECK-NEXT:    rlx.attention
func.func @bias_mask(%q: tensor<1x4x64x64xf16>, %k: tensor<1x4x64x64xf16>, %v: tensor<1x4x64x64xf16>, %b: tensor<1x4x64x64xf16>) -> tensor<1x4x64x64xf16> {
  // expected-remark @below {{attention: no flash kernel (mask bias; the kernel takes none, causal and sliding_window)}}
  %o = rlx.attention %q, %k, %v, %b mask = bias : tensor<1x4x64x64xf16>, tensor<1x4x64x64xf16>, tensor<1x4x64x64xf16>, tensor<1x4x64x64xf16>
  return %o : tensor<1x4x64x64xf16>
}

// CHECK-LABEL: func.func @head_dim_96(
// CHECK-NEXT:    rlx.attention
func.func @head_dim_96(%q: tensor<1x4x64x96xbf16>, %k: tensor<1x4x64x96xbf16>, %v: tensor<1x4x64x96xbf16>) -> tensor<1x4x64x96xbf16> {
  // expected-remark @below {{attention: no flash kernel (head dim 96 (values 96); the kernel takes 64 and 128 for both)}}
  %o = rlx.attention %q, %k, %v mask = causal : tensor<1x4x64x96xbf16>, tensor<1x4x64x96xbf16>, tensor<1x4x64x96xbf16>
  return %o : tensor<1x4x64x96xbf16>
}

// CHECK-LABEL: func.func @dynamic(
// CHECK-NEXT:    rlx.attention
func.func @dynamic(%q: tensor<?x4x64x64xbf16>, %k: tensor<?x4x64x64xbf16>, %v: tensor<?x4x64x64xbf16>) -> tensor<?x4x64x64xbf16> {
  // expected-remark @below {{attention: no flash kernel (dynamic shape)}}
  %o = rlx.attention %q, %k, %v mask = causal : tensor<?x4x64x64xbf16>, tensor<?x4x64x64xbf16>, tensor<?x4x64x64xbf16>
  return %o : tensor<?x4x64x64xbf16>
}

// CHECK-LABEL: func.func @negative_scale(
// CHECK-NEXT:    rlx.attention
func.func @negative_scale(%q: tensor<1x4x64x64xbf16>, %k: tensor<1x4x64x64xbf16>, %v: tensor<1x4x64x64xbf16>) -> tensor<1x4x64x64xbf16> {
  // expected-remark @below {{attention: no flash kernel (scale -1.000000e+00; the kernel takes a positive one)}}
  %o = rlx.attention %q, %k, %v mask = causal {scale = -1.0 : f32} : tensor<1x4x64x64xbf16>, tensor<1x4x64x64xbf16>, tensor<1x4x64x64xbf16>
  return %o : tensor<1x4x64x64xbf16>
}
