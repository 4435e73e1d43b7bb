// RUN: rlx-opt %s --rlx-lower-hir -split-input-file -verify-diagnostics

// A block whose attention shapes do not fit fails with the fused op's
// diagnostic at the block, and the pass fails (no crash in inference).
func.func @qkv_columns(%x: tensor<1x8x64xf32>, %w: tensor<64x100xf32>, %o: tensor<64x64xf32>) -> tensor<1x8x64xf32> {
  // expected-error @+3 {{'rlx.fused_attention_block' op 'w_qkv' has 100 columns, not a multiple of num_heads + 2 * num_kv_heads (12)}}
  // expected-error @+2 {{'rlx.fused_attention_block' op failed to infer returned types}}
  // expected-error @+1 {{cannot lower this block to rlx (see above)}}
  %y = rlx_hir.attention_block %x, %w, %o {num_heads = 4 : i64} : (tensor<1x8x64xf32>, tensor<64x100xf32>, tensor<64x64xf32>) -> tensor<1x8x64xf32>
  return %y : tensor<1x8x64xf32>
}

// -----

// Grouped-query heads that do not divide the query heads.
func.func @kv_heads(%x: tensor<1x8x64xf32>, %w: tensor<64x112xf32>, %o: tensor<64x64xf32>) -> tensor<1x8x64xf32> {
  // expected-error @+2 {{'rlx.fused_attention_block'}}
  // expected-error @+1 {{cannot lower this block to rlx (see above)}}
  %y = rlx_hir.attention_block %x, %w, %o {num_heads = 4 : i64, num_kv_heads = 3 : i64} : (tensor<1x8x64xf32>, tensor<64x112xf32>, tensor<64x64xf32>) -> tensor<1x8x64xf32>
  return %y : tensor<1x8x64xf32>
}
