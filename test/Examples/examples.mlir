// The examples the README demo runs must parse, verify and survive
// canonicalization.
// RUN: rlx-opt --canonicalize %rlx_src_root/examples/mlp.mlir | FileCheck %s --check-prefix=MLP
// RUN: rlx-opt --canonicalize %rlx_src_root/examples/bert_encoder_layer.mlir | FileCheck %s --check-prefix=BERT

// MLP-LABEL: func.func @mlp(
// MLP: rlx.matmul
// MLP: rlx.gelu
// MLP: rlx.matmul
// MLP-LABEL: func.func @mlp_loss(
// MLP: rlx.softmax_cross_entropy

// BERT-LABEL: func.func @bert_layer(
// BERT: rlx.attention {{.*}} mask = none
// BERT-COUNT-2: rlx.layer_norm
