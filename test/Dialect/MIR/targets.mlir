// RUN: rlx-opt %s --rlx-print-target-ops="target=cpu" | FileCheck %s --check-prefix=CPU
// RUN: %if target-cuda %{ rlx-opt %s --rlx-print-target-ops="target=cuda" | FileCheck %s --check-prefix=CUDA %}
// RUN: %if target-rocm %{ rlx-opt %s --rlx-print-target-ops="target=rocm" | FileCheck %s --check-prefix=ROCM %}
// RUN: %if target-vulkan %{ rlx-opt %s --rlx-print-target-ops="target=vulkan" | FileCheck %s --check-prefix=VULKAN %}
// RUN: %if target-metal %{ rlx-opt %s --rlx-print-target-ops="target=metal" | FileCheck %s --check-prefix=METAL %}
// RUN: not rlx-opt %s --rlx-print-target-ops="target=tpu" 2>&1 | FileCheck %s -DTARGETS="%rlx_targets" --check-prefix=ERR

// The claim sets, sorted, one op per line. cpu claims every op that
// convert-rlx-to-linalg lowers: all but rlx.grad/jvp/vmap and rlx.param.

// CPU: // target 'cpu' claims 90 ops
// CPU-NEXT: // broadcasts: general
// CPU-NEXT: rlx.abs
// CPU-NEXT: rlx.add
// CPU: rlx.decode_attention
// CPU: rlx.dot_general
// CPU: rlx.fft
// CPU: rlx.fused_attention_block
// CPU: rlx.fused_transformer_layer
// CPU: rlx.gated_delta_net
// CPU-NOT: rlx.grad
// CPU: rlx.grouped_matmul
// CPU: rlx.if
// CPU-NEXT: rlx.int8_matmul
// CPU-NOT: rlx.jvp
// CPU: rlx.kv_cache_write
// CPU: rlx.lora_matmul
// CPU-NOT: rlx.param
// CPU: rlx.sample
// CPU: rlx.while
// CPU-NEXT: rlx.yield
// CPU-NOT: rlx.

// CUDA claims what rlx-cuda-pipeline compiles: no host loops over buffers
// and no value read back to choose what runs; int8 products; scatter_add
// (atomic kernels); the KV cache's write and decode attention (a copy
// kernel and the runtime's decode-attention kernel); static shapes only
// (the GPU front's kernels have static sizes).
// CUDA: // target 'cuda' claims 80 ops
// CUDA-NEXT: // broadcasts: general
// CUDA-NEXT: // shapes: static only
// CUDA: rlx.decode_attention
// CUDA-NOT: rlx.dense_solve
// CUDA: rlx.fft
// CUDA: rlx.fused_attention_block
// CUDA-NOT: rlx.gated_delta_net
// CUDA-NOT: rlx.grouped_matmul
// CUDA-NOT: rlx.if
// CUDA: rlx.int8_matmul
// CUDA: rlx.irfft
// CUDA: rlx.kv_cache_write
// CUDA-NOT: rlx.lora_matmul
// CUDA-NOT: rlx.sample
// CUDA-NOT: rlx.scan
// CUDA: rlx.scatter_add
// CUDA-NOT: rlx.selective_scan
// CUDA: rlx.softmax
// CUDA-NOT: rlx.topk
// CUDA-NOT: rlx.while
// CUDA: rlx.yield
// ROCM claims what CUDA claims (the same GPU front) but rlx.int8_matmul
// and the KV cache's ops (no decode-attention kernel in its runtime),
// static shapes only.
// ROCM: // target 'rocm' claims 77 ops
// ROCM-NEXT: // broadcasts: general
// ROCM-NEXT: // shapes: static only
// ROCM-NOT: rlx.decode_attention
// ROCM-NOT: rlx.dense_solve
// ROCM: rlx.fft
// ROCM: rlx.fused_attention_block
// ROCM-NOT: rlx.gated_delta_net
// ROCM-NOT: rlx.grouped_matmul
// ROCM-NOT: rlx.if
// ROCM-NOT: rlx.int8_matmul
// ROCM: rlx.irfft
// ROCM-NOT: rlx.kv_cache_write
// ROCM-NOT: rlx.lora_matmul
// ROCM-NOT: rlx.sample
// ROCM-NOT: rlx.scan
// ROCM: rlx.scatter_add
// ROCM-NOT: rlx.selective_scan
// ROCM: rlx.softmax
// ROCM-NOT: rlx.topk
// ROCM-NOT: rlx.while
// ROCM: rlx.yield

// VULKAN claims what the GPU front compiles to SPIR-V and runs, static
// shapes only: no host loop over views (cumsum), no complex values (fft).
// VULKAN: // target 'vulkan' claims 69 ops
// VULKAN-NEXT: // broadcasts: general
// VULKAN-NEXT: // shapes: static only
// VULKAN-NOT: rlx.cumsum
// VULKAN-NOT: rlx.decode_attention
// VULKAN-NOT: rlx.dot_general
// VULKAN-NOT: rlx.fft
// VULKAN: rlx.fused_attention_block
// VULKAN-NOT: rlx.gated_delta_net
// VULKAN-NOT: rlx.grouped_matmul
// VULKAN-NOT: rlx.if
// VULKAN-NOT: rlx.kv_cache_write
// VULKAN-NOT: rlx.lora_matmul
// VULKAN: rlx.matmul
// VULKAN-NOT: rlx.sample
// VULKAN-NOT: rlx.scatter_add
// VULKAN: rlx.softmax
// VULKAN-NOT: rlx.topk

// METAL: // target 'metal' claims 68 ops
// METAL-NOT: rlx.cumsum
// METAL-NOT: rlx.decode_attention
// METAL-NOT: rlx.dense_solve
// METAL-NOT: rlx.fft
// METAL-NOT: rlx.fused_attention_block
// METAL: rlx.fused_matmul_bias_act
// METAL-NEXT: rlx.fused_residual_layer_norm
// METAL-NEXT: rlx.fused_residual_rms_norm
// METAL-NEXT: rlx.fused_swiglu
// METAL-NEXT: rlx.gather
// METAL-NOT: rlx.gated_delta_net
// METAL-NOT: rlx.grouped_matmul
// METAL-NOT: rlx.kv_cache_write
// METAL-NOT: rlx.lora_matmul
// METAL-NOT: rlx.sample
// METAL-NOT: rlx.scatter_add
// METAL-NOT: rlx.topk

// ERR: error: unknown target 'tpu' (registered: [[TARGETS]])

module {}
