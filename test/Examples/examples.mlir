// The examples the README demo runs must parse, verify and survive
// canonicalization.
// RUN: rlx-opt --canonicalize %rlx_src_root/examples/mlp.mlir | FileCheck %s --check-prefix=MLP
// RUN: rlx-opt --canonicalize %rlx_src_root/examples/bert_encoder_layer.mlir | FileCheck %s --check-prefix=BERT
// RUN: rlx-opt --rlx-lower-hir %rlx_src_root/examples/bert_layer_hir.mlir | FileCheck %s --check-prefix=BERTHIR
// RUN: rlx-opt --rlx-lower-hir %rlx_src_root/examples/llama_layer_hir.mlir | FileCheck %s --check-prefix=LLAMA

// MLP-LABEL: func.func @mlp(
// MLP: rlx.matmul
// MLP: rlx.gelu
// MLP: rlx.matmul
// MLP-LABEL: func.func @mlp_loss(
// MLP: rlx.softmax_cross_entropy

// BERT-LABEL: func.func @bert_layer(
// BERT: rlx.attention {{.*}} mask = none
// BERT-COUNT-2: rlx.layer_norm

// The HIR examples lower to MIR primitives: the BERT layer to the same
// chain as bert_encoder_layer.mlir, the Llama layer (both spellings) to
// RMSNorm, grouped-query attention with rope and a causal mask, SwiGLU.
// BERTHIR-LABEL: func.func @bert_layer_hir(
// BERTHIR: rlx.attention {{.*}} mask = none
// BERTHIR-COUNT-2: rlx.layer_norm
// BERTHIR-NOT: rlx_hir.
// LLAMA-LABEL: func.func @llama_layer_hir(
// LLAMA: rlx.rms_norm
// LLAMA-COUNT-2: rlx.rope
// LLAMA: rlx.attention {{.*}} mask = causal : tensor<1x8x16x64xf32>, tensor<1x2x16x64xf32>, tensor<1x2x16x64xf32>
// LLAMA: rlx.rms_norm
// LLAMA: rlx.silu
// LLAMA-NOT: rlx_hir.
// LLAMA-LABEL: func.func @llama_layer_blocks(
// LLAMA: rlx.attention {{.*}} mask = causal
// LLAMA-NOT: rlx_hir.
