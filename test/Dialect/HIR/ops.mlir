// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Every rlx_hir block parses, prints and re-parses (custom and generic
// forms); enumerated attributes keep their string spelling.

// CHECK-LABEL: func.func @blocks
func.func @blocks(%x: tensor<2x16x64xf32>, %w: tensor<64x32xf32>, %b: tensor<32xf32>,
                  %w2: tensor<32x64xf32>, %b2: tensor<64xf32>,
                  %table: tensor<100x64xf32>, %ids: tensor<2x16xi64>,
                  %g: tensor<64xf32>) -> tensor<2x16x64xf32> {
  // CHECK: rlx_hir.linear %{{.+}}, %{{.+}}, %{{.+}} {activation = "gelu"} : (tensor<2x16x64xf32>, tensor<64x32xf32>, tensor<32xf32>) -> tensor<2x16x32xf32>
  %l = rlx_hir.linear %x, %w, %b {activation = "gelu"} : (tensor<2x16x64xf32>, tensor<64x32xf32>, tensor<32xf32>) -> tensor<2x16x32xf32>
  // CHECK: rlx_hir.linear %{{.+}}, %{{.+}} : (tensor<2x16x64xf32>, tensor<64x32xf32>) -> tensor<2x16x32xf32>
  %l2 = rlx_hir.linear %x, %w : (tensor<2x16x64xf32>, tensor<64x32xf32>) -> tensor<2x16x32xf32>
  // CHECK: rlx_hir.mlp {{.+}} {activation = "relu"} : (tensor<2x16x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32x64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  %m = rlx_hir.mlp %x, %w, %b, %w2, %b2 {activation = "relu"} : (tensor<2x16x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32x64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  // CHECK: rlx_hir.swiglu {{.+}} -> tensor<2x16x64xf32>
  %s = rlx_hir.swiglu %x, %w, %w, %w2 : (tensor<2x16x64xf32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<32x64xf32>) -> tensor<2x16x64xf32>
  // CHECK: rlx_hir.embedding {{.+}} -> tensor<2x16x64xf32>
  %e = rlx_hir.embedding %table, %ids : (tensor<100x64xf32>, tensor<2x16xi64>) -> tensor<2x16x64xf32>
  // CHECK: rlx_hir.layer_norm {{.+}} {epsilon = 9.99999996E-13 : f32}
  %n = rlx_hir.layer_norm %e, %g, %g {epsilon = 1.0e-12 : f32} : (tensor<2x16x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  // CHECK: rlx_hir.rms_norm
  %r = rlx_hir.rms_norm %n, %g : (tensor<2x16x64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  return %r : tensor<2x16x64xf32>
}

// CHECK-LABEL: func.func @attention_and_layers
func.func @attention_and_layers(%x: tensor<1x8x64xf32>, %wqkv: tensor<64x128xf32>,
    %wo: tensor<64x64xf32>, %cos: tensor<8x8xf32>, %sin: tensor<8x8xf32>,
    %g: tensor<64xf32>, %wg: tensor<64x96xf32>, %wd: tensor<96x64xf32>,
    %bqkv: tensor<192xf32>, %wqkv_full: tensor<64x192xf32>, %bo: tensor<64xf32>,
    %w1: tensor<64x96xf32>, %b1: tensor<96xf32>) -> tensor<1x8x64xf32> {
  // CHECK: rlx_hir.attention_block %{{.+}}, %{{.+}}, %{{.+}} rope(%{{.+}}, %{{.+}}) {mask = "causal", num_heads = 4 : i64, num_kv_heads = 2 : i64}
  %a = rlx_hir.attention_block %x, %wqkv, %wo rope(%cos, %sin) {num_heads = 4 : i64, num_kv_heads = 2 : i64, mask = "causal"} : (tensor<1x8x64xf32>, tensor<64x128xf32>, tensor<64x64xf32>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<1x8x64xf32>
  // CHECK: rlx_hir.transformer_layer {{.+}} {mask = "causal", num_heads = 4 : i64, num_kv_heads = 2 : i64, style = "llama"}
  %l = rlx_hir.transformer_layer %a, %g, %wqkv, %wo, %cos, %sin, %g, %wg, %wg, %wd {style = "llama", num_heads = 4 : i64, num_kv_heads = 2 : i64, mask = "causal"} : (tensor<1x8x64xf32>, tensor<64xf32>, tensor<64x128xf32>, tensor<64x64xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<64xf32>, tensor<64x96xf32>, tensor<64x96xf32>, tensor<96x64xf32>) -> tensor<1x8x64xf32>
  // CHECK: rlx_hir.transformer_layer {{.+}} {num_heads = 4 : i64, style = "bert"}
  %bt = rlx_hir.transformer_layer %l, %wqkv_full, %bqkv, %wo, %bo, %g, %g, %w1, %b1, %wd, %bo, %g, %g {style = "bert", num_heads = 4 : i64} : (tensor<1x8x64xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x96xf32>, tensor<96xf32>, tensor<96x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x8x64xf32>
  return %bt : tensor<1x8x64xf32>
}

// CHECK-LABEL: func.func @conv
func.func @conv(%x: tensor<1x3x16x16xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x8x16x16xf32> {
  // CHECK: rlx_hir.conv_block {{.+}} {num_groups = 4 : i64, padding = array<i64: 1, 1, 1, 1>}
  %y = rlx_hir.conv_block %x, %w, %b, %b, %b {num_groups = 4 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x8x16x16xf32>
  return %y : tensor<1x8x16x16xf32>
}
