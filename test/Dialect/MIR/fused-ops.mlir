// RUN: rlx-opt %s | FileCheck %s
// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round trips of the fused ops, with and without their optional operands
// and attributes. Functions return their results so that the `return` line
// checks the inferred result types.

//===----------------------------------------------------------------------===//
// rlx.fused_matmul_bias_act
//===----------------------------------------------------------------------===//

// With and without bias; with transpose_b.
// CHECK-LABEL: func.func @fused_matmul_bias_act
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<8x128x768xf32>, %[[W:[^:]+]]: tensor<768x3072xf32>, %[[WT:[^:]+]]: tensor<3072x768xf32>, %[[B:[^:]+]]: tensor<3072xf32>)
func.func @fused_matmul_bias_act(%x: tensor<8x128x768xf32>, %w: tensor<768x3072xf32>, %wt: tensor<3072x768xf32>, %b: tensor<3072xf32>)
    -> (tensor<8x128x3072xf32>, tensor<8x128x3072xf32>, tensor<8x128x3072xf32>, tensor<8x128x3072xf32>) {
  // CHECK: %[[A:.+]] = rlx.fused_matmul_bias_act %[[X]], %[[W]], %[[B]] activation = gelu : tensor<8x128x768xf32>, tensor<768x3072xf32>, tensor<3072xf32>
  %a = rlx.fused_matmul_bias_act %x, %w, %b activation = gelu : tensor<8x128x768xf32>, tensor<768x3072xf32>, tensor<3072xf32>
  // CHECK: %[[NB:.+]] = rlx.fused_matmul_bias_act %[[X]], %[[W]] activation = relu : tensor<8x128x768xf32>, tensor<768x3072xf32>{{$}}
  %nb = rlx.fused_matmul_bias_act %x, %w activation = relu : tensor<8x128x768xf32>, tensor<768x3072xf32>
  // CHECK: %[[T:.+]] = rlx.fused_matmul_bias_act %[[X]], %[[WT]], %[[B]] transpose_b true activation = silu : tensor<8x128x768xf32>, tensor<3072x768xf32>, tensor<3072xf32>
  %t = rlx.fused_matmul_bias_act %x, %wt, %b transpose_b true activation = silu : tensor<8x128x768xf32>, tensor<3072x768xf32>, tensor<3072xf32>
  // An explicit transpose_b false is the default and is not printed.
  // CHECK: %[[F:.+]] = rlx.fused_matmul_bias_act %[[X]], %[[W]] activation = none : tensor<8x128x768xf32>, tensor<768x3072xf32>{{$}}
  %f = rlx.fused_matmul_bias_act %x, %w transpose_b false activation = none : tensor<8x128x768xf32>, tensor<768x3072xf32>
  // CHECK: return %[[A]], %[[NB]], %[[T]], %[[F]] : tensor<8x128x3072xf32>, tensor<8x128x3072xf32>, tensor<8x128x3072xf32>, tensor<8x128x3072xf32>
  return %a, %nb, %t, %f : tensor<8x128x3072xf32>, tensor<8x128x3072xf32>, tensor<8x128x3072xf32>, tensor<8x128x3072xf32>
}

// Every activation.
// CHECK-LABEL: func.func @fused_matmul_bias_act_activations
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<4x8xf32>, %[[W:[^:]+]]: tensor<8x16xf32>, %[[B:[^:]+]]: tensor<16xf32>)
func.func @fused_matmul_bias_act_activations(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) {
  // CHECK: rlx.fused_matmul_bias_act %[[X]], %[[W]], %[[B]] activation = none :
  %0 = rlx.fused_matmul_bias_act %x, %w, %b activation = none : tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>
  // CHECK: rlx.fused_matmul_bias_act %[[X]], %[[W]], %[[B]] activation = relu :
  %1 = rlx.fused_matmul_bias_act %x, %w, %b activation = relu : tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>
  // CHECK: rlx.fused_matmul_bias_act %[[X]], %[[W]], %[[B]] activation = gelu :
  %2 = rlx.fused_matmul_bias_act %x, %w, %b activation = gelu : tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>
  // CHECK: rlx.fused_matmul_bias_act %[[X]], %[[W]], %[[B]] activation = gelu_tanh :
  %3 = rlx.fused_matmul_bias_act %x, %w, %b activation = gelu_tanh : tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>
  // CHECK: rlx.fused_matmul_bias_act %[[X]], %[[W]], %[[B]] activation = silu :
  %4 = rlx.fused_matmul_bias_act %x, %w, %b activation = silu : tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>
  // CHECK: rlx.fused_matmul_bias_act %[[X]], %[[W]], %[[B]] activation = sigmoid :
  %5 = rlx.fused_matmul_bias_act %x, %w, %b activation = sigmoid : tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>
  // CHECK: rlx.fused_matmul_bias_act %[[X]], %[[W]], %[[B]] activation = tanh :
  %6 = rlx.fused_matmul_bias_act %x, %w, %b activation = tanh : tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>
  return
}

// Batch broadcasting as rlx.matmul, dynamic dims, other float types.
// CHECK-LABEL: func.func @fused_matmul_bias_act_shapes_and_types
func.func @fused_matmul_bias_act_shapes_and_types(%x: tensor<2x1x4x8xf32>, %w: tensor<3x8x16xf32>,
                                                  %d: tensor<?x8xf32>, %wd: tensor<8x?xf32>, %bd: tensor<16xf32>,
                                                  %h: tensor<4x8xf16>, %wh: tensor<8x2xf16>, %bh: tensor<2xf16>,
                                                  %bf: tensor<4x8xbf16>, %f64: tensor<4x8xf64>)
    -> (tensor<2x3x4x16xf32>, tensor<?x?xf32>, tensor<4x2xf16>, tensor<4x4xbf16>, tensor<4x4xf64>) {
  // CHECK: %[[A:.+]] = rlx.fused_matmul_bias_act %{{.+}}, %{{.+}} activation = relu : tensor<2x1x4x8xf32>, tensor<3x8x16xf32>{{$}}
  %0 = rlx.fused_matmul_bias_act %x, %w activation = relu : tensor<2x1x4x8xf32>, tensor<3x8x16xf32>
  // CHECK: %[[B:.+]] = rlx.fused_matmul_bias_act %{{.+}}, %{{.+}}, %{{.+}} activation = gelu : tensor<?x8xf32>, tensor<8x?xf32>, tensor<16xf32>
  %1 = rlx.fused_matmul_bias_act %d, %wd, %bd activation = gelu : tensor<?x8xf32>, tensor<8x?xf32>, tensor<16xf32>
  // CHECK: %[[C:.+]] = rlx.fused_matmul_bias_act %{{.+}}, %{{.+}}, %{{.+}} activation = tanh : tensor<4x8xf16>, tensor<8x2xf16>, tensor<2xf16>
  %2 = rlx.fused_matmul_bias_act %h, %wh, %bh activation = tanh : tensor<4x8xf16>, tensor<8x2xf16>, tensor<2xf16>
  // CHECK: %[[D:.+]] = rlx.fused_matmul_bias_act %{{.+}}, %{{.+}} transpose_b true activation = sigmoid : tensor<4x8xbf16>, tensor<4x8xbf16>{{$}}
  %3 = rlx.fused_matmul_bias_act %bf, %bf transpose_b true activation = sigmoid : tensor<4x8xbf16>, tensor<4x8xbf16>
  // CHECK: %[[E:.+]] = rlx.fused_matmul_bias_act %{{.+}}, %{{.+}} transpose_b true activation = gelu_tanh : tensor<4x8xf64>, tensor<4x8xf64>{{$}}
  %4 = rlx.fused_matmul_bias_act %f64, %f64 transpose_b true activation = gelu_tanh : tensor<4x8xf64>, tensor<4x8xf64>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]] : tensor<2x3x4x16xf32>, tensor<?x?xf32>, tensor<4x2xf16>, tensor<4x4xbf16>, tensor<4x4xf64>
  return %0, %1, %2, %3, %4 : tensor<2x3x4x16xf32>, tensor<?x?xf32>, tensor<4x2xf16>, tensor<4x4xbf16>, tensor<4x4xf64>
}

//===----------------------------------------------------------------------===//
// rlx.fused_residual_layer_norm / rlx.fused_residual_rms_norm
//===----------------------------------------------------------------------===//

// Two results: the normalized value and the residual sum.
// CHECK-LABEL: func.func @fused_residual_layer_norm
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<8x128x768xf32>, %[[R:[^:]+]]: tensor<8x128x768xf32>, %[[G:[^:]+]]: tensor<768xf32>, %[[B:[^:]+]]: tensor<768xf32>)
func.func @fused_residual_layer_norm(%x: tensor<8x128x768xf32>, %r: tensor<8x128x768xf32>, %g: tensor<768xf32>, %b: tensor<768xf32>)
    -> (tensor<8x128x768xf32>, tensor<8x128x768xf32>, tensor<8x128x768xf32>, tensor<8x128x768xf32>) {
  // CHECK: %[[Y:[^,]+]], %[[S:[^ ]+]] = rlx.fused_residual_layer_norm %[[X]], %[[R]], %[[G]], %[[B]] : tensor<8x128x768xf32>, tensor<768xf32>
  %y, %s = rlx.fused_residual_layer_norm %x, %r, %g, %b : tensor<8x128x768xf32>, tensor<768xf32>
  // CHECK: %[[Y2:[^,]+]], %[[S2:[^ ]+]] = rlx.fused_residual_layer_norm %[[X]], %[[R]], %[[G]], %[[B]] {epsilon = 9.99999996E-13 : f32} : tensor<8x128x768xf32>, tensor<768xf32>
  %y2, %s2 = rlx.fused_residual_layer_norm %x, %r, %g, %b {epsilon = 1.0e-12 : f32} : tensor<8x128x768xf32>, tensor<768xf32>
  // CHECK: return %[[Y]], %[[S]], %[[Y2]], %[[S2]]
  return %y, %s, %y2, %s2 : tensor<8x128x768xf32>, tensor<8x128x768xf32>, tensor<8x128x768xf32>, tensor<8x128x768xf32>
}

// CHECK-LABEL: func.func @fused_residual_rms_norm
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<1x16x4096xbf16>, %[[R:[^:]+]]: tensor<1x16x4096xbf16>, %[[G:[^:]+]]: tensor<4096xbf16>)
func.func @fused_residual_rms_norm(%x: tensor<1x16x4096xbf16>, %r: tensor<1x16x4096xbf16>, %g: tensor<4096xbf16>)
    -> (tensor<1x16x4096xbf16>, tensor<1x16x4096xbf16>, tensor<1x16x4096xbf16>, tensor<1x16x4096xbf16>) {
  // CHECK: %[[Y:[^,]+]], %[[S:[^ ]+]] = rlx.fused_residual_rms_norm %[[X]], %[[R]], %[[G]] : tensor<1x16x4096xbf16>, tensor<4096xbf16>
  %y, %s = rlx.fused_residual_rms_norm %x, %r, %g : tensor<1x16x4096xbf16>, tensor<4096xbf16>
  // CHECK: %[[Y2:[^,]+]], %[[S2:[^ ]+]] = rlx.fused_residual_rms_norm %[[X]], %[[R]], %[[G]] {epsilon = 9.99999974E-6 : f32} : tensor<1x16x4096xbf16>, tensor<4096xbf16>
  %y2, %s2 = rlx.fused_residual_rms_norm %x, %r, %g {epsilon = 1.0e-5 : f32} : tensor<1x16x4096xbf16>, tensor<4096xbf16>
  // CHECK: return %[[Y]], %[[S]], %[[Y2]], %[[S2]]
  return %y, %s, %y2, %s2 : tensor<1x16x4096xbf16>, tensor<1x16x4096xbf16>, tensor<1x16x4096xbf16>, tensor<1x16x4096xbf16>
}

// Rank 1, dynamic dims, other float types.
// CHECK-LABEL: func.func @fused_residual_norms_shapes_and_types
func.func @fused_residual_norms_shapes_and_types(%v: tensor<8xf16>, %gv: tensor<8xf16>,
                                                 %d: tensor<?x?xf64>, %gd: tensor<16xf64>,
                                                 %e: tensor<2x?xf32>, %ge: tensor<?xf32>)
    -> (tensor<8xf16>, tensor<?x?xf64>, tensor<2x?xf32>) {
  // CHECK: %[[A:[^,]+]], %{{[^ ]+}} = rlx.fused_residual_layer_norm %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : tensor<8xf16>, tensor<8xf16>
  %a, %as = rlx.fused_residual_layer_norm %v, %v, %gv, %gv : tensor<8xf16>, tensor<8xf16>
  // CHECK: %[[B:[^,]+]], %{{[^ ]+}} = rlx.fused_residual_rms_norm %{{.+}}, %{{.+}}, %{{.+}} : tensor<?x?xf64>, tensor<16xf64>
  %b, %bs = rlx.fused_residual_rms_norm %d, %d, %gd : tensor<?x?xf64>, tensor<16xf64>
  // CHECK: %[[C:[^,]+]], %{{[^ ]+}} = rlx.fused_residual_layer_norm %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : tensor<2x?xf32>, tensor<?xf32>
  %c, %cs = rlx.fused_residual_layer_norm %e, %e, %ge, %ge : tensor<2x?xf32>, tensor<?xf32>
  // CHECK: return %[[A]], %[[B]], %[[C]] : tensor<8xf16>, tensor<?x?xf64>, tensor<2x?xf32>
  return %a, %b, %c : tensor<8xf16>, tensor<?x?xf64>, tensor<2x?xf32>
}

//===----------------------------------------------------------------------===//
// rlx.fused_swiglu
//===----------------------------------------------------------------------===//

// One weight type is printed when w_gate and w_up agree.
// CHECK-LABEL: func.func @fused_swiglu
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<1x16x64xf32>, %[[WG:[^:]+]]: tensor<64x176xf32>, %[[WU:[^:]+]]: tensor<64x176xf32>)
func.func @fused_swiglu(%x: tensor<1x16x64xf32>, %wg: tensor<64x176xf32>, %wu: tensor<64x176xf32>)
    -> (tensor<1x16x176xf32>, tensor<1x16x176xf32>) {
  // CHECK: %[[A:.+]] = rlx.fused_swiglu %[[X]], %[[WG]], %[[WU]] : tensor<1x16x64xf32>, tensor<64x176xf32>{{$}}
  %a = rlx.fused_swiglu %x, %wg, %wu : tensor<1x16x64xf32>, tensor<64x176xf32>
  // CHECK: %[[B:.+]] = rlx.fused_swiglu %[[X]], %[[WG]], %[[WU]] : tensor<1x16x64xf32>, tensor<64x176xf32>{{$}}
  %b = rlx.fused_swiglu %x, %wg, %wu : tensor<1x16x64xf32>, tensor<64x176xf32>, tensor<64x176xf32>
  // CHECK: return %[[A]], %[[B]] : tensor<1x16x176xf32>, tensor<1x16x176xf32>
  return %a, %b : tensor<1x16x176xf32>, tensor<1x16x176xf32>
}

// Weights of different (compatible) types print both; a static hidden size
// refines a dynamic one; rank 1 input; other float types.
// CHECK-LABEL: func.func @fused_swiglu_shapes_and_types
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<?x8xf32>, %[[WG:[^:]+]]: tensor<8x?xf32>, %[[WU:[^:]+]]: tensor<8x32xf32>, %[[V:[^:]+]]: tensor<8xf16>, %[[WH:[^:]+]]: tensor<8x4xf16>, %[[BF:[^:]+]]: tensor<2x8xbf16>, %[[WB:[^:]+]]: tensor<8x4xbf16>, %[[D:[^:]+]]: tensor<2x8xf64>, %[[WD:[^:]+]]: tensor<8x4xf64>)
func.func @fused_swiglu_shapes_and_types(%x: tensor<?x8xf32>, %wg: tensor<8x?xf32>, %wu: tensor<8x32xf32>,
                                         %v: tensor<8xf16>, %wh: tensor<8x4xf16>,
                                         %bf: tensor<2x8xbf16>, %wb: tensor<8x4xbf16>,
                                         %d: tensor<2x8xf64>, %wd: tensor<8x4xf64>)
    -> (tensor<?x32xf32>, tensor<4xf16>, tensor<2x4xbf16>, tensor<2x4xf64>) {
  // CHECK: %[[A:.+]] = rlx.fused_swiglu %[[X]], %[[WG]], %[[WU]] : tensor<?x8xf32>, tensor<8x?xf32>, tensor<8x32xf32>
  %0 = rlx.fused_swiglu %x, %wg, %wu : tensor<?x8xf32>, tensor<8x?xf32>, tensor<8x32xf32>
  // CHECK: %[[B:.+]] = rlx.fused_swiglu %[[V]], %[[WH]], %[[WH]] : tensor<8xf16>, tensor<8x4xf16>{{$}}
  %1 = rlx.fused_swiglu %v, %wh, %wh : tensor<8xf16>, tensor<8x4xf16>
  // CHECK: %[[C:.+]] = rlx.fused_swiglu %[[BF]], %[[WB]], %[[WB]] : tensor<2x8xbf16>, tensor<8x4xbf16>{{$}}
  %2 = rlx.fused_swiglu %bf, %wb, %wb : tensor<2x8xbf16>, tensor<8x4xbf16>
  // CHECK: %[[E:.+]] = rlx.fused_swiglu %[[D]], %[[WD]], %[[WD]] : tensor<2x8xf64>, tensor<8x4xf64>{{$}}
  %3 = rlx.fused_swiglu %d, %wd, %wd : tensor<2x8xf64>, tensor<8x4xf64>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[E]] : tensor<?x32xf32>, tensor<4xf16>, tensor<2x4xbf16>, tensor<2x4xf64>
  return %0, %1, %2, %3 : tensor<?x32xf32>, tensor<4xf16>, tensor<2x4xbf16>, tensor<2x4xf64>
}

//===----------------------------------------------------------------------===//
// rlx.fused_attention_block
//===----------------------------------------------------------------------===//

// The bare block: E = 64, H = 4, D = 16, w_qkv [64, (4 + 2 * 4) * 16].
// CHECK-LABEL: func.func @fused_attention_block
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<2x16x64xf32>, %[[WQKV:[^:]+]]: tensor<64x192xf32>, %[[WO:[^:]+]]: tensor<64x64xf32>)
func.func @fused_attention_block(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>)
    -> (tensor<2x16x64xf32>, tensor<2x16x64xf32>) {
  // CHECK: %[[A:.+]] = rlx.fused_attention_block %[[X]], %[[WQKV]], %[[WO]] heads = 4 mask = none : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  %a = rlx.fused_attention_block %x, %wqkv, %wo heads = 4 mask = none : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  // CHECK: %[[B:.+]] = rlx.fused_attention_block %[[X]], %[[WQKV]], %[[WO]] heads = 4 mask = causal : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  %b = rlx.fused_attention_block %x, %wqkv, %wo heads = 4 mask = causal : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
  // CHECK: return %[[A]], %[[B]] : tensor<2x16x64xf32>, tensor<2x16x64xf32>
  return %a, %b : tensor<2x16x64xf32>, tensor<2x16x64xf32>
}

// Each optional operand alone: qkv_bias, out_bias, rope(cos, sin) and
// attn_mask (custom i1, bias float).
// CHECK-LABEL: func.func @fused_attention_block_optional_operands
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<2x16x64xf32>, %[[WQKV:[^:]+]]: tensor<64x192xf32>, %[[WO:[^:]+]]: tensor<64x64xf32>, %[[BQKV:[^:]+]]: tensor<192xf32>, %[[BO:[^:]+]]: tensor<64xf32>, %[[COS:[^:]+]]: tensor<16x8xf32>, %[[SIN:[^:]+]]: tensor<16x8xf32>, %[[M:[^:]+]]: tensor<16x16xi1>, %[[BIAS:[^:]+]]: tensor<2x1x16x16xf32>)
func.func @fused_attention_block_optional_operands(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %wo: tensor<64x64xf32>,
                                                   %bqkv: tensor<192xf32>, %bo: tensor<64xf32>,
                                                   %cos: tensor<16x8xf32>, %sin: tensor<16x8xf32>,
                                                   %m: tensor<16x16xi1>, %bias: tensor<2x1x16x16xf32>) {
  // CHECK: rlx.fused_attention_block %[[X]], %[[WQKV]], %[[WO]] qkv_bias %[[BQKV]] heads = 4 mask = none : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>, tensor<192xf32>) -> tensor<2x16x64xf32>
  %0 = rlx.fused_attention_block %x, %wqkv, %wo qkv_bias %bqkv heads = 4 mask = none : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>, tensor<192xf32>) -> tensor<2x16x64xf32>
  // CHECK: rlx.fused_attention_block %[[X]], %[[WQKV]], %[[WO]] out_bias %[[BO]] heads = 4 mask = none : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  %1 = rlx.fused_attention_block %x, %wqkv, %wo out_bias %bo heads = 4 mask = none : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  // CHECK: rlx.fused_attention_block %[[X]], %[[WQKV]], %[[WO]] rope(%[[COS]], %[[SIN]]) heads = 4 mask = causal : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>, tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<2x16x64xf32>
  %2 = rlx.fused_attention_block %x, %wqkv, %wo rope(%cos, %sin) heads = 4 mask = causal : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>, tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<2x16x64xf32>
  // CHECK: rlx.fused_attention_block %[[X]], %[[WQKV]], %[[WO]] attn_mask %[[M]] heads = 4 mask = custom : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>, tensor<16x16xi1>) -> tensor<2x16x64xf32>
  %3 = rlx.fused_attention_block %x, %wqkv, %wo attn_mask %m heads = 4 mask = custom : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>, tensor<16x16xi1>) -> tensor<2x16x64xf32>
  // CHECK: rlx.fused_attention_block %[[X]], %[[WQKV]], %[[WO]] attn_mask %[[BIAS]] heads = 4 mask = bias : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>, tensor<2x1x16x16xf32>) -> tensor<2x16x64xf32>
  %4 = rlx.fused_attention_block %x, %wqkv, %wo attn_mask %bias heads = 4 mask = bias : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<64x64xf32>, tensor<2x1x16x16xf32>) -> tensor<2x16x64xf32>
  return
}

// Everything at once: grouped-query heads (H = 4, Hkv = 2, D = 16, so
// w_qkv has (4 + 2 * 2) * 16 = 128 columns), both biases, gptj rope, a
// custom mask and a scale; and a sliding window with its window.
// CHECK-LABEL: func.func @fused_attention_block_all
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<2x16x64xf32>, %[[WQKV:[^:]+]]: tensor<64x128xf32>, %[[WO:[^:]+]]: tensor<64x64xf32>, %[[BQKV:[^:]+]]: tensor<128xf32>, %[[BO:[^:]+]]: tensor<64xf32>, %[[CS:[^:]+]]: tensor<16x8xf32>, %[[M:[^:]+]]: tensor<16x16xi1>)
func.func @fused_attention_block_all(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x128xf32>, %wo: tensor<64x64xf32>,
                                     %bqkv: tensor<128xf32>, %bo: tensor<64xf32>, %cs: tensor<16x8xf32>,
                                     %m: tensor<16x16xi1>) -> (tensor<2x16x64xf32>, tensor<2x16x64xf32>) {
  // CHECK: %[[A:.+]] = rlx.fused_attention_block %[[X]], %[[WQKV]], %[[WO]] qkv_bias %[[BQKV]] out_bias %[[BO]] rope(%[[CS]], %[[CS]]) attn_mask %[[M]] heads = 4 kv_heads = 2 mask = custom {rope_style = "gptj", scale = 2.500000e-01 : f32} : (tensor<2x16x64xf32>, tensor<64x128xf32>, tensor<64x64xf32>, tensor<128xf32>, tensor<64xf32>, tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x16xi1>) -> tensor<2x16x64xf32>
  %a = rlx.fused_attention_block %x, %wqkv, %wo qkv_bias %bqkv out_bias %bo rope(%cs, %cs) attn_mask %m heads = 4 kv_heads = 2 mask = custom {rope_style = "gptj", scale = 0.25 : f32} : (tensor<2x16x64xf32>, tensor<64x128xf32>, tensor<64x64xf32>, tensor<128xf32>, tensor<64xf32>, tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x16xi1>) -> tensor<2x16x64xf32>
  // rope_style = "neox" is the default and is not printed.
  // CHECK: %[[B:.+]] = rlx.fused_attention_block %[[X]], %[[WQKV]], %[[WO]] rope(%[[CS]], %[[CS]]) heads = 4 kv_heads = 2 mask = sliding_window window = 3 : (tensor<2x16x64xf32>, tensor<64x128xf32>, tensor<64x64xf32>, tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<2x16x64xf32>
  %b = rlx.fused_attention_block %x, %wqkv, %wo rope(%cs, %cs) heads = 4 kv_heads = 2 mask = sliding_window window = 3 {rope_style = "neox"} : (tensor<2x16x64xf32>, tensor<64x128xf32>, tensor<64x64xf32>, tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<2x16x64xf32>
  // CHECK: return %[[A]], %[[B]] : tensor<2x16x64xf32>, tensor<2x16x64xf32>
  return %a, %b : tensor<2x16x64xf32>, tensor<2x16x64xf32>
}

// Multi-query attention (one kv head), kv_heads equal to heads, dynamic
// batch and sequence, other float types.
// CHECK-LABEL: func.func @fused_attention_block_shapes_and_types
func.func @fused_attention_block_shapes_and_types(%x: tensor<?x?x32xf32>, %w1: tensor<32x48xf32>, %wo: tensor<32x32xf32>,
                                                  %w4: tensor<32x96xf32>,
                                                  %h: tensor<1x4x8xf16>, %wh: tensor<8x24xf16>, %woh: tensor<8x8xf16>,
                                                  %bf: tensor<1x4x8xbf16>, %wbf: tensor<8x24xbf16>, %wobf: tensor<8x8xbf16>,
                                                  %d: tensor<1x4x8xf64>, %wd: tensor<8x24xf64>, %wod: tensor<8x8xf64>)
    -> (tensor<?x?x32xf32>, tensor<?x?x32xf32>, tensor<1x4x8xf16>, tensor<1x4x8xbf16>, tensor<1x4x8xf64>) {
  // 4 query heads over 1 kv head: (4 + 2) * 8 = 48 columns.
  // CHECK: %[[A:.+]] = rlx.fused_attention_block %{{.+}}, %{{.+}}, %{{.+}} heads = 4 kv_heads = 1 mask = causal : (tensor<?x?x32xf32>, tensor<32x48xf32>, tensor<32x32xf32>) -> tensor<?x?x32xf32>
  %0 = rlx.fused_attention_block %x, %w1, %wo heads = 4 kv_heads = 1 mask = causal : (tensor<?x?x32xf32>, tensor<32x48xf32>, tensor<32x32xf32>) -> tensor<?x?x32xf32>
  // CHECK: %[[B:.+]] = rlx.fused_attention_block %{{.+}}, %{{.+}}, %{{.+}} heads = 4 kv_heads = 4 mask = none : (tensor<?x?x32xf32>, tensor<32x96xf32>, tensor<32x32xf32>) -> tensor<?x?x32xf32>
  %1 = rlx.fused_attention_block %x, %w4, %wo heads = 4 kv_heads = 4 mask = none : (tensor<?x?x32xf32>, tensor<32x96xf32>, tensor<32x32xf32>) -> tensor<?x?x32xf32>
  // CHECK: %[[C:.+]] = rlx.fused_attention_block %{{.+}}, %{{.+}}, %{{.+}} heads = 2 mask = none : (tensor<1x4x8xf16>, tensor<8x24xf16>, tensor<8x8xf16>) -> tensor<1x4x8xf16>
  %2 = rlx.fused_attention_block %h, %wh, %woh heads = 2 mask = none : (tensor<1x4x8xf16>, tensor<8x24xf16>, tensor<8x8xf16>) -> tensor<1x4x8xf16>
  // CHECK: %[[D:.+]] = rlx.fused_attention_block %{{.+}}, %{{.+}}, %{{.+}} heads = 2 mask = causal : (tensor<1x4x8xbf16>, tensor<8x24xbf16>, tensor<8x8xbf16>) -> tensor<1x4x8xbf16>
  %3 = rlx.fused_attention_block %bf, %wbf, %wobf heads = 2 mask = causal : (tensor<1x4x8xbf16>, tensor<8x24xbf16>, tensor<8x8xbf16>) -> tensor<1x4x8xbf16>
  // CHECK: %[[E:.+]] = rlx.fused_attention_block %{{.+}}, %{{.+}}, %{{.+}} heads = 1 mask = none : (tensor<1x4x8xf64>, tensor<8x24xf64>, tensor<8x8xf64>) -> tensor<1x4x8xf64>
  %4 = rlx.fused_attention_block %d, %wd, %wod heads = 1 mask = none : (tensor<1x4x8xf64>, tensor<8x24xf64>, tensor<8x8xf64>) -> tensor<1x4x8xf64>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]] : tensor<?x?x32xf32>, tensor<?x?x32xf32>, tensor<1x4x8xf16>, tensor<1x4x8xbf16>, tensor<1x4x8xf64>
  return %0, %1, %2, %3, %4 : tensor<?x?x32xf32>, tensor<?x?x32xf32>, tensor<1x4x8xf16>, tensor<1x4x8xbf16>, tensor<1x4x8xf64>
}

//===----------------------------------------------------------------------===//
// rlx.fused_transformer_layer
//===----------------------------------------------------------------------===//

// A BERT-style layer: E = 64, H = 4, F = 256.
// CHECK-LABEL: func.func @fused_transformer_layer
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<2x16x64xf32>, %[[WQKV:[^:]+]]: tensor<64x192xf32>, %[[BQKV:[^:]+]]: tensor<192xf32>, %[[WO:[^:]+]]: tensor<64x64xf32>, %[[P:[^:]+]]: tensor<64xf32>, %[[W1:[^:]+]]: tensor<64x256xf32>, %[[B1:[^:]+]]: tensor<256xf32>, %[[W2:[^:]+]]: tensor<256x64xf32>)
func.func @fused_transformer_layer(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %bqkv: tensor<192xf32>,
                                   %wo: tensor<64x64xf32>, %p: tensor<64xf32>, %w1: tensor<64x256xf32>,
                                   %b1: tensor<256xf32>, %w2: tensor<256x64xf32>)
    -> (tensor<2x16x64xf32>, tensor<2x16x64xf32>) {
  // CHECK: %[[A:.+]] = rlx.fused_transformer_layer %[[X]], %[[WQKV]], %[[BQKV]], %[[WO]], %[[P]], %[[P]], %[[P]], %[[W1]], %[[B1]], %[[W2]], %[[P]], %[[P]], %[[P]] heads = 4 mask = none : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x256xf32>, tensor<256xf32>, tensor<256x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  %a = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %p, %p, %p, %w1, %b1, %w2, %p, %p, %p heads = 4 mask = none
      : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>,
         tensor<64x256xf32>, tensor<256xf32>, tensor<256x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  // The defaults (epsilon 1e-12, activation gelu) are not printed; others are.
  // CHECK: %[[B:.+]] = rlx.fused_transformer_layer %[[X]], %[[WQKV]], %[[BQKV]], %[[WO]], %[[P]], %[[P]], %[[P]], %[[W1]], %[[B1]], %[[W2]], %[[P]], %[[P]], %[[P]] heads = 4 mask = causal {activation = "relu", epsilon = 9.99999974E-6 : f32} : (
  %b = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %p, %p, %p, %w1, %b1, %w2, %p, %p, %p heads = 4 mask = causal {activation = "relu", epsilon = 1.0e-5 : f32}
      : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>,
         tensor<64x256xf32>, tensor<256xf32>, tensor<256x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  // CHECK: %[[C:.+]] = rlx.fused_transformer_layer {{.+}} heads = 4 mask = none : (
  %c = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %p, %p, %p, %w1, %b1, %w2, %p, %p, %p heads = 4 mask = none {activation = "gelu", epsilon = 1.0e-12 : f32}
      : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>,
         tensor<64x256xf32>, tensor<256xf32>, tensor<256x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  // CHECK: return %[[A]], %[[B]]
  return %a, %b : tensor<2x16x64xf32>, tensor<2x16x64xf32>
}

// With an attn_mask: custom (i1) and bias (float, the input's type).
// CHECK-LABEL: func.func @fused_transformer_layer_masks
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<2x16x64xf32>, %[[WQKV:[^:]+]]: tensor<64x192xf32>, %[[BQKV:[^:]+]]: tensor<192xf32>, %[[WO:[^:]+]]: tensor<64x64xf32>, %[[P:[^:]+]]: tensor<64xf32>, %[[W1:[^:]+]]: tensor<64x256xf32>, %[[B1:[^:]+]]: tensor<256xf32>, %[[W2:[^:]+]]: tensor<256x64xf32>, %[[M:[^:]+]]: tensor<2x1x1x16xi1>, %[[BIAS:[^:]+]]: tensor<16x16xf32>)
func.func @fused_transformer_layer_masks(%x: tensor<2x16x64xf32>, %wqkv: tensor<64x192xf32>, %bqkv: tensor<192xf32>,
                                         %wo: tensor<64x64xf32>, %p: tensor<64xf32>, %w1: tensor<64x256xf32>,
                                         %b1: tensor<256xf32>, %w2: tensor<256x64xf32>,
                                         %m: tensor<2x1x1x16xi1>, %bias: tensor<16x16xf32>) {
  // CHECK: rlx.fused_transformer_layer %[[X]], %[[WQKV]], %[[BQKV]], %[[WO]], %[[P]], %[[P]], %[[P]], %[[W1]], %[[B1]], %[[W2]], %[[P]], %[[P]], %[[P]] attn_mask %[[M]] heads = 4 mask = custom : ({{.+}}, tensor<2x1x1x16xi1>) -> tensor<2x16x64xf32>
  %0 = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %p, %p, %p, %w1, %b1, %w2, %p, %p, %p attn_mask %m heads = 4 mask = custom
      : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>,
         tensor<64x256xf32>, tensor<256xf32>, tensor<256x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<2x1x1x16xi1>) -> tensor<2x16x64xf32>
  // CHECK: rlx.fused_transformer_layer %[[X]], %[[WQKV]], %[[BQKV]], %[[WO]], %[[P]], %[[P]], %[[P]], %[[W1]], %[[B1]], %[[W2]], %[[P]], %[[P]], %[[P]] attn_mask %[[BIAS]] heads = 4 mask = bias : ({{.+}}, tensor<16x16xf32>) -> tensor<2x16x64xf32>
  %1 = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %p, %p, %p, %w1, %b1, %w2, %p, %p, %p attn_mask %bias heads = 4 mask = bias
      : (tensor<2x16x64xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>,
         tensor<64x256xf32>, tensor<256xf32>, tensor<256x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<16x16xf32>) -> tensor<2x16x64xf32>
  return
}

// Dynamic batch and sequence, and an f16 layer.
// CHECK-LABEL: func.func @fused_transformer_layer_shapes_and_types
func.func @fused_transformer_layer_shapes_and_types(%x: tensor<?x?x8xf16>, %wqkv: tensor<8x24xf16>, %bqkv: tensor<24xf16>,
                                                    %wo: tensor<8x8xf16>, %p: tensor<8xf16>, %w1: tensor<8x32xf16>,
                                                    %b1: tensor<32xf16>, %w2: tensor<32x8xf16>) -> tensor<?x?x8xf16> {
  // CHECK: %[[A:.+]] = rlx.fused_transformer_layer {{.+}} heads = 2 mask = causal : ({{.+}}) -> tensor<?x?x8xf16>
  %0 = rlx.fused_transformer_layer %x, %wqkv, %bqkv, %wo, %p, %p, %p, %w1, %b1, %w2, %p, %p, %p heads = 2 mask = causal
      : (tensor<?x?x8xf16>, tensor<8x24xf16>, tensor<24xf16>, tensor<8x8xf16>, tensor<8xf16>, tensor<8xf16>, tensor<8xf16>,
         tensor<8x32xf16>, tensor<32xf16>, tensor<32x8xf16>, tensor<8xf16>, tensor<8xf16>, tensor<8xf16>) -> tensor<?x?x8xf16>
  // CHECK: return %[[A]] : tensor<?x?x8xf16>
  return %0 : tensor<?x?x8xf16>
}
