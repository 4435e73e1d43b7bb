// RUN: rlx-opt %s --rlx-lower-hir --split-input-file | FileCheck %s

// linear: matmul, bias add, activation; without bias or activation only
// the matmul.
// CHECK-LABEL: func.func @linear
// CHECK-SAME:    (%[[X:.+]]: tensor<4x8xf32>, %[[W:.+]]: tensor<8x3xf32>, %[[B:.+]]: tensor<3xf32>)
// CHECK:         %[[M:.+]] = rlx.matmul %[[X]], %[[W]] : tensor<4x8xf32>, tensor<8x3xf32>
// CHECK:         %[[A:.+]] = rlx.add %[[M]], %[[B]] : tensor<4x3xf32>, tensor<3xf32>
// CHECK:         %[[G:.+]] = rlx.gelu %[[A]] : tensor<4x3xf32>
// CHECK:         %[[P:.+]] = rlx.matmul %[[X]], %[[W]]
// CHECK-NOT:     rlx.add
// CHECK:         return %[[G]], %[[P]]
func.func @linear(%x: tensor<4x8xf32>, %w: tensor<8x3xf32>, %b: tensor<3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %y = rlx_hir.linear %x, %w, %b {activation = "gelu"} : (tensor<4x8xf32>, tensor<8x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %z = rlx_hir.linear %x, %w : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  return %y, %z : tensor<4x3xf32>, tensor<4x3xf32>
}

// -----

// mlp: two linear layers, the activation between them only.
// CHECK-LABEL: func.func @mlp
// CHECK:         rlx.matmul
// CHECK-NEXT:    rlx.add
// CHECK-NEXT:    rlx.relu
// CHECK-NEXT:    rlx.matmul
// CHECK-NEXT:    %[[Y:.+]] = rlx.add
// CHECK-NEXT:    return %[[Y]]
func.func @mlp(%x: tensor<4x8xf32>, %w1: tensor<8x16xf32>, %b1: tensor<16xf32>, %w2: tensor<16x2xf32>, %b2: tensor<2xf32>) -> tensor<4x2xf32> {
  %y = rlx_hir.mlp %x, %w1, %b1, %w2, %b2 {activation = "relu"} : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>, tensor<16x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// -----

// swiglu: silu(x Wg) * (x Wu), then the down projection.
// CHECK-LABEL: func.func @swiglu
// CHECK-SAME:    (%[[X:.+]]: tensor<2x4x8xf32>, %[[WG:.+]]: tensor<8x16xf32>, %[[WU:.+]]: tensor<8x16xf32>, %[[WD:.+]]: tensor<16x8xf32>)
// CHECK-DAG:     %[[G:.+]] = rlx.matmul %[[X]], %[[WG]]
// CHECK-DAG:     %[[U:.+]] = rlx.matmul %[[X]], %[[WU]]
// CHECK-DAG:     %[[S:.+]] = rlx.silu %[[G]]
// CHECK:         %[[H:.+]] = rlx.mul %[[S]], %[[U]]
// CHECK:         rlx.matmul %[[H]], %[[WD]] : tensor<2x4x16xf32>, tensor<16x8xf32>
func.func @swiglu(%x: tensor<2x4x8xf32>, %wg: tensor<8x16xf32>, %wu: tensor<8x16xf32>, %wd: tensor<16x8xf32>) -> tensor<2x4x8xf32> {
  %y = rlx_hir.swiglu %x, %wg, %wu, %wd : (tensor<2x4x8xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----

// embedding: a gather of table rows; the norms map one to one.
// CHECK-LABEL: func.func @embedding_norms
// CHECK:         %[[E:.+]] = rlx.gather %{{.+}}, %{{.+}} axis = 0 : tensor<10x4xf32>, tensor<2x3xi64>
// CHECK:         %[[L:.+]] = rlx.layer_norm %[[E]], %{{.+}}, %{{.+}} {epsilon = 9.99999996E-13 : f32}
// CHECK:         rlx.rms_norm %[[L]], %{{.+}} : tensor<2x3x4xf32>
func.func @embedding_norms(%t: tensor<10x4xf32>, %i: tensor<2x3xi64>, %g: tensor<4xf32>) -> tensor<2x3x4xf32> {
  %e = rlx_hir.embedding %t, %i : (tensor<10x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  %l = rlx_hir.layer_norm %e, %g, %g {epsilon = 1.0e-12 : f32} : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  %r = rlx_hir.rms_norm %l, %g : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}

// -----

// attention_block with rope and grouped-query heads: one QKV matmul, three
// column blocks (4 query heads, 2 kv heads of 16), rope on q and k,
// attention with the mask kind, heads merged, output projection.
// CHECK-LABEL: func.func @attention_block
// CHECK:         %[[QKV:.+]] = rlx.matmul %{{.+}}, %{{.+}} : tensor<1x8x64xf32>, tensor<64x128xf32>
// CHECK:         rlx.narrow %[[QKV]] axis = 2 start = 0 length = 64
// CHECK:         rlx.narrow %[[QKV]] axis = 2 start = 64 length = 32
// CHECK:         rlx.narrow %[[QKV]] axis = 2 start = 96 length = 32
// CHECK-COUNT-2: rlx.rope
// CHECK:         rlx.attention {{.+}} mask = causal : tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
// CHECK:         rlx.reshape {{.+}} -> tensor<1x8x64xf32>
// CHECK:         rlx.matmul {{.+}} : tensor<1x8x64xf32>, tensor<64x64xf32>
// CHECK-NOT:     rlx.fused_attention_block
func.func @attention_block(%x: tensor<1x8x64xf32>, %wqkv: tensor<64x128xf32>, %wo: tensor<64x64xf32>, %cos: tensor<8x8xf32>, %sin: tensor<8x8xf32>) -> tensor<1x8x64xf32> {
  %y = rlx_hir.attention_block %x, %wqkv, %wo rope(%cos, %sin) {num_heads = 4 : i64, num_kv_heads = 2 : i64, mask = "causal"} : (tensor<1x8x64xf32>, tensor<64x128xf32>, tensor<64x64xf32>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<1x8x64xf32>
  return %y : tensor<1x8x64xf32>
}

// -----

// The llama layer: rms_norm, attention block, residual add, rms_norm,
// SwiGLU with its down projection, residual add.
// CHECK-LABEL: func.func @llama
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<1x8x64xf32>
// CHECK:         %[[N1:.+]] = rlx.rms_norm %[[X]]
// CHECK:         rlx.matmul %[[N1]]
// CHECK:         rlx.attention {{.+}} mask = causal
// CHECK:         %[[O:.+]] = rlx.matmul {{.+}} : tensor<1x8x64xf32>, tensor<64x64xf32>
// CHECK:         %[[H:.+]] = rlx.add %[[X]], %[[O]]
// CHECK:         %[[N2:.+]] = rlx.rms_norm %[[H]]
// CHECK:         rlx.silu
// CHECK:         rlx.mul
// CHECK:         %[[D:.+]] = rlx.matmul {{.+}} : tensor<1x8x96xf32>, tensor<96x64xf32>
// CHECK:         %[[Y:.+]] = rlx.add %[[H]], %[[D]]
// CHECK:         return %[[Y]]
func.func @llama(%x: tensor<1x8x64xf32>, %an: tensor<64xf32>, %wqkv: tensor<64x128xf32>, %wo: tensor<64x64xf32>, %cos: tensor<8x8xf32>, %sin: tensor<8x8xf32>, %fn: tensor<64xf32>, %wg: tensor<64x96xf32>, %wu: tensor<64x96xf32>, %wd: tensor<96x64xf32>) -> tensor<1x8x64xf32> {
  %y = rlx_hir.transformer_layer %x, %an, %wqkv, %wo, %cos, %sin, %fn, %wg, %wu, %wd {style = "llama", num_heads = 4 : i64, num_kv_heads = 2 : i64, mask = "causal"} : (tensor<1x8x64xf32>, tensor<64xf32>, tensor<64x128xf32>, tensor<64x64xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<64xf32>, tensor<64x96xf32>, tensor<64x96xf32>, tensor<96x64xf32>) -> tensor<1x8x64xf32>
  return %y : tensor<1x8x64xf32>
}

// -----

// The bert layer: attention block, residual + layer_norm, feed-forward with
// gelu, residual + layer_norm; no fused op is left.
// CHECK-LABEL: func.func @bert
// CHECK:         rlx.attention {{.+}} mask = none
// CHECK:         rlx.layer_norm
// CHECK:         rlx.gelu
// CHECK:         rlx.layer_norm
// CHECK-NOT:     rlx.fused
func.func @bert(%x: tensor<1x8x64xf32>, %wqkv: tensor<64x192xf32>, %bqkv: tensor<192xf32>, %wo: tensor<64x64xf32>, %bo: tensor<64xf32>, %g: tensor<64xf32>, %w1: tensor<64x96xf32>, %b1: tensor<96xf32>, %w2: tensor<96x64xf32>) -> tensor<1x8x64xf32> {
  %y = rlx_hir.transformer_layer %x, %wqkv, %bqkv, %wo, %bo, %g, %g, %w1, %b1, %w2, %bo, %g, %g {style = "bert", num_heads = 4 : i64} : (tensor<1x8x64xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x96xf32>, tensor<96xf32>, tensor<96x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x8x64xf32>
  return %y : tensor<1x8x64xf32>
}

// -----

// conv_block: conv, group_norm, activation. A fused op written by hand
// stays (only the blocks' own fused ops are unfused).
// CHECK-LABEL: func.func @conv_and_fused
// CHECK:         %[[C:.+]] = rlx.conv {{.+}} padding = [1, 1, 1, 1]
// CHECK:         %[[N:.+]] = rlx.group_norm %[[C]], {{.+}} {num_groups = 4 : i64}
// CHECK:         rlx.relu %[[N]]
// CHECK:         rlx.fused_swiglu
func.func @conv_and_fused(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>, %v: tensor<2x8xf32>, %wg: tensor<8x4xf32>) -> (tensor<1x8x8x8xf32>, tensor<2x4xf32>) {
  %y = rlx_hir.conv_block %x, %w, %b, %b, %b {num_groups = 4 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x8x8x8xf32>
  %s = rlx.fused_swiglu %v, %wg, %wg : tensor<2x8xf32>, tensor<8x4xf32>, tensor<8x4xf32>
  return %y, %s : tensor<1x8x8x8xf32>, tensor<2x4xf32>
}
