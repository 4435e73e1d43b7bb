// The memory-bound workloads of shared/bench/gpu_peers.py in f32, bf16 and
// f16 (the entry point's name ends in _bf16 / _f16), its matmul and causal
// attention, at its shapes, compiled by bench/gpu/build.sh with
// rlx-compile --target=cuda.

func.func @rmsnorm(%x: tensor<16384x4096xf32>, %w: tensor<4096xf32>) -> tensor<16384x4096xf32> {
  %y = rlx.rms_norm %x, %w {epsilon = 1.0e-6 : f32} : tensor<16384x4096xf32>, tensor<4096xf32>
  return %y : tensor<16384x4096xf32>
}

func.func @softmax(%x: tensor<16384x4096xf32>) -> tensor<16384x4096xf32> {
  %y = rlx.softmax %x axis = -1 : tensor<16384x4096xf32>
  return %y : tensor<16384x4096xf32>
}

func.func @swiglu(%g: tensor<8192x11008xf32>, %u: tensor<8192x11008xf32>) -> tensor<8192x11008xf32> {
  %s = rlx.silu %g : tensor<8192x11008xf32>
  %y = rlx.mul %s, %u : tensor<8192x11008xf32>, tensor<8192x11008xf32>
  return %y : tensor<8192x11008xf32>
}

func.func @residual_layernorm(%x: tensor<32768x768xf32>, %r: tensor<32768x768xf32>,
                              %w: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<32768x768xf32> {
  %s = rlx.add %x, %r : tensor<32768x768xf32>, tensor<32768x768xf32>
  %y = rlx.layer_norm %s, %w, %b {epsilon = 1.0e-5 : f32} : tensor<32768x768xf32>, tensor<768xf32>
  return %y : tensor<32768x768xf32>
}

// matmul + bias + tanh GELU of gpu_peers.py (8192x768 @ 768x3072), in f32
// and bf16: rlx-cuda-pipeline fuses the chain and calls cuBLASLt with its
// GELU_BIAS epilogue (matmul=library, the default).
func.func @matmul_bias_gelu_f32(%x: tensor<8192x768xf32>, %w: tensor<768x3072xf32>,
                                %b: tensor<3072xf32>) -> tensor<8192x3072xf32> {
  %m = rlx.matmul %x, %w : tensor<8192x768xf32>, tensor<768x3072xf32>
  %a = rlx.add %m, %b : tensor<8192x3072xf32>, tensor<3072xf32>
  %y = rlx.gelu %a {approximate = "tanh"} : tensor<8192x3072xf32>
  return %y : tensor<8192x3072xf32>
}

func.func @matmul_bias_gelu_bf16(%x: tensor<8192x768xbf16>, %w: tensor<768x3072xbf16>,
                                 %b: tensor<3072xbf16>) -> tensor<8192x3072xbf16> {
  %m = rlx.matmul %x, %w : tensor<8192x768xbf16>, tensor<768x3072xbf16>
  %a = rlx.add %m, %b : tensor<8192x3072xbf16>, tensor<3072xbf16>
  %y = rlx.gelu %a {approximate = "tanh"} : tensor<8192x3072xbf16>
  return %y : tensor<8192x3072xbf16>
}

func.func @rmsnorm_bf16(%x: tensor<16384x4096xbf16>, %w: tensor<4096xbf16>) -> tensor<16384x4096xbf16> {
  %y = rlx.rms_norm %x, %w {epsilon = 1.0e-6 : f32} : tensor<16384x4096xbf16>, tensor<4096xbf16>
  return %y : tensor<16384x4096xbf16>
}

func.func @softmax_bf16(%x: tensor<16384x4096xbf16>) -> tensor<16384x4096xbf16> {
  %y = rlx.softmax %x axis = -1 : tensor<16384x4096xbf16>
  return %y : tensor<16384x4096xbf16>
}

func.func @swiglu_bf16(%g: tensor<8192x11008xbf16>, %u: tensor<8192x11008xbf16>) -> tensor<8192x11008xbf16> {
  %s = rlx.silu %g : tensor<8192x11008xbf16>
  %y = rlx.mul %s, %u : tensor<8192x11008xbf16>, tensor<8192x11008xbf16>
  return %y : tensor<8192x11008xbf16>
}

func.func @residual_layernorm_bf16(%x: tensor<32768x768xbf16>, %r: tensor<32768x768xbf16>,
                                   %w: tensor<768xbf16>, %b: tensor<768xbf16>) -> tensor<32768x768xbf16> {
  %s = rlx.add %x, %r : tensor<32768x768xbf16>, tensor<32768x768xbf16>
  %y = rlx.layer_norm %s, %w, %b {epsilon = 1.0e-5 : f32} : tensor<32768x768xbf16>, tensor<768xbf16>
  return %y : tensor<32768x768xbf16>
}

func.func @rmsnorm_f16(%x: tensor<16384x4096xf16>, %w: tensor<4096xf16>) -> tensor<16384x4096xf16> {
  %y = rlx.rms_norm %x, %w {epsilon = 1.0e-6 : f32} : tensor<16384x4096xf16>, tensor<4096xf16>
  return %y : tensor<16384x4096xf16>
}

func.func @softmax_f16(%x: tensor<16384x4096xf16>) -> tensor<16384x4096xf16> {
  %y = rlx.softmax %x axis = -1 : tensor<16384x4096xf16>
  return %y : tensor<16384x4096xf16>
}

func.func @swiglu_f16(%g: tensor<8192x11008xf16>, %u: tensor<8192x11008xf16>) -> tensor<8192x11008xf16> {
  %s = rlx.silu %g : tensor<8192x11008xf16>
  %y = rlx.mul %s, %u : tensor<8192x11008xf16>, tensor<8192x11008xf16>
  return %y : tensor<8192x11008xf16>
}

func.func @residual_layernorm_f16(%x: tensor<32768x768xf16>, %r: tensor<32768x768xf16>,
                                  %w: tensor<768xf16>, %b: tensor<768xf16>) -> tensor<32768x768xf16> {
  %s = rlx.add %x, %r : tensor<32768x768xf16>, tensor<32768x768xf16>
  %y = rlx.layer_norm %s, %w, %b {epsilon = 1.0e-5 : f32} : tensor<32768x768xf16>, tensor<768xf16>
  return %y : tensor<32768x768xf16>
}

// Causal attention of gpu_peers.py (batch 8, 16 heads, 2048 rows of 128) in
// bf16 and f16: one call of the runtime's flash-attention kernel
// (attention=flash, the default).
func.func @attention_causal_bf16(%q: tensor<8x16x2048x128xbf16>, %k: tensor<8x16x2048x128xbf16>,
                                 %v: tensor<8x16x2048x128xbf16>) -> tensor<8x16x2048x128xbf16> {
  %o = rlx.attention %q, %k, %v mask = causal : tensor<8x16x2048x128xbf16>, tensor<8x16x2048x128xbf16>, tensor<8x16x2048x128xbf16>
  return %o : tensor<8x16x2048x128xbf16>
}

func.func @attention_causal_f16(%q: tensor<8x16x2048x128xf16>, %k: tensor<8x16x2048x128xf16>,
                                %v: tensor<8x16x2048x128xf16>) -> tensor<8x16x2048x128xf16> {
  %o = rlx.attention %q, %k, %v mask = causal : tensor<8x16x2048x128xf16>, tensor<8x16x2048x128xf16>, tensor<8x16x2048x128xf16>
  return %o : tensor<8x16x2048x128xf16>
}

// The same attention in f32: no flash kernel takes f32, so
// rlx-decompose-attention makes it two cuBLASLt products (f32 compute, no
// TF32) around one causal row softmax kernel.
func.func @attention_causal_f32(%q: tensor<8x16x2048x128xf32>, %k: tensor<8x16x2048x128xf32>,
                                %v: tensor<8x16x2048x128xf32>) -> tensor<8x16x2048x128xf32> {
  %o = rlx.attention %q, %k, %v mask = causal : tensor<8x16x2048x128xf32>, tensor<8x16x2048x128xf32>, tensor<8x16x2048x128xf32>
  return %o : tensor<8x16x2048x128xf32>
}
