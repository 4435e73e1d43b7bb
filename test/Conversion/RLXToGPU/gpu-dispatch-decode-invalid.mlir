// RUN: rlx-opt %s --split-input-file --rlx-gpu-dispatch-decode --verify-diagnostics
// RUN: not rlx-opt %s --split-input-file --rlx-gpu-dispatch-decode=runtime-kernel=0 2>&1 | FileCheck %s --check-prefix=NOKERNEL

// Without the kernel (a target whose runtime lacks it), every one is.
// NOKERNEL-COUNT-3: error: 'rlx.decode_attention' op has no GPU lowering here: the target's runtime has no decode-attention kernel

// The GPU front has no other lowering of a decode attention than the
// runtime's kernel: what it does not take is an error at the op.
func.func @f64(%q: tensor<1x4x1x16xf64>, %kc: tensor<1x32x2x16xf64>, %len: tensor<i64>) -> tensor<1x4x1x16xf64> {
  // expected-error @+1 {{'rlx.decode_attention' op has no GPU lowering here: element type 'f64'; the kernel takes f32, f16, bf16}}
  %o = rlx.decode_attention %q, %kc, %kc, %len {num_kv_heads = 2 : i64} : tensor<1x4x1x16xf64>, tensor<1x32x2x16xf64>, tensor<1x32x2x16xf64>, tensor<i64>
  return %o : tensor<1x4x1x16xf64>
}

// -----

func.func @wide(%q: tensor<1x4x1x512xf32>, %kc: tensor<1x32x2x512xf32>, %len: tensor<i64>) -> tensor<1x4x1x512xf32> {
  // expected-error @+1 {{'rlx.decode_attention' op has no GPU lowering here: head dims 512 and 512; the kernel takes up to 256}}
  %o = rlx.decode_attention %q, %kc, %kc, %len {num_kv_heads = 2 : i64} : tensor<1x4x1x512xf32>, tensor<1x32x2x512xf32>, tensor<1x32x2x512xf32>, tensor<i64>
  return %o : tensor<1x4x1x512xf32>
}

// -----

func.func @dynamic(%q: tensor<?x4x1x16xf32>, %kc: tensor<?x32x2x16xf32>, %len: tensor<i64>) -> tensor<?x4x1x16xf32> {
  // expected-error @+1 {{'rlx.decode_attention' op has no GPU lowering here: dynamic shapes}}
  %o = rlx.decode_attention %q, %kc, %kc, %len {num_kv_heads = 2 : i64} : tensor<?x4x1x16xf32>, tensor<?x32x2x16xf32>, tensor<?x32x2x16xf32>, tensor<i64>
  return %o : tensor<?x4x1x16xf32>
}
