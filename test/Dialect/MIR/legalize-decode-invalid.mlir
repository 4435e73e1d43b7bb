// RUN: %if target-cuda %{ rlx-opt %s -split-input-file -verify-diagnostics --rlx-legalize="target=cuda" %}
// RUN: %if target-rocm %{ rlx-opt %s -split-input-file -verify-diagnostics --rlx-legalize="target=rocm" %}
// RUN: %if target-vulkan %{ rlx-opt %s -split-input-file -verify-diagnostics --rlx-legalize="target=vulkan" %}
// RUN: %if target-metal %{ rlx-opt %s -split-input-file -verify-diagnostics --rlx-legalize="target=metal" %}
// RUN: rlx-opt %s -split-input-file --rlx-legalize="target=cpu" | FileCheck %s --check-prefix=CPU

// The LLM decoding ops of the Decode op group have no GPU kernels yet: no
// GPU target claims them and no rewrite removes them, so rlx-legalize
// rejects each with one error; the cpu target claims and keeps them. (The
// KV cache's ops: legalize-kv-cache-invalid.mlir.)

// The next token drawn from the logits.
// CPU-LABEL: func.func @sample
// CPU:         rlx.sample
func.func @sample(%logits: tensor<1x32000xf32>, %seed: tensor<i64>) -> tensor<1xi64> {
  // expected-error @below {{'rlx.sample' is not supported by target}}
  %t = rlx.sample %logits, %seed {top_k = 50 : i64} : tensor<1x32000xf32>, tensor<i64>
  return %t : tensor<1xi64>
}

// -----

// A MoE expert product.
// CPU-LABEL: func.func @grouped_matmul
// CPU:         rlx.grouped_matmul
func.func @grouped_matmul(%x: tensor<5x32xf32>, %w: tensor<4x32x16xf32>, %e: tensor<5xi32>) -> tensor<5x16xf32> {
  // expected-error @below {{'rlx.grouped_matmul' is not supported by target}}
  %y = rlx.grouped_matmul %x, %w, %e : tensor<5x32xf32>, tensor<4x32x16xf32>, tensor<5xi32>
  return %y : tensor<5x16xf32>
}

// -----

// The gated delta rule's recurrence.
// CPU-LABEL: func.func @gated_delta_net
// CPU:         rlx.gated_delta_net
func.func @gated_delta_net(%q: tensor<1x1x2x8xf32>, %k: tensor<1x1x2x8xf32>, %v: tensor<1x1x2x8xf32>,
                           %g: tensor<1x1x2xf32>, %b: tensor<1x1x2xf32>, %s: tensor<1x2x8x8xf32>)
    -> (tensor<1x1x2x8xf32>, tensor<1x2x8x8xf32>) {
  // expected-error @below {{'rlx.gated_delta_net' is not supported by target}}
  %o, %f = rlx.gated_delta_net %q, %k, %v, %g, %b, %s : tensor<1x1x2x8xf32>, tensor<1x1x2x8xf32>, tensor<1x1x2x8xf32>, tensor<1x1x2xf32>, tensor<1x1x2xf32>, tensor<1x2x8x8xf32>
  return %o, %f : tensor<1x1x2x8xf32>, tensor<1x2x8x8xf32>
}
