// RUN: rlx-opt %s | FileCheck %s
// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round trips of the dedicated backward ops. Functions return their results
// so that the `return` line checks the (inferred) result types.

//===----------------------------------------------------------------------===//
// rlx.attention_backward
//===----------------------------------------------------------------------===//

// The cotangents of query, key and value have their types (grouped-query:
// d_key and d_value have the kv heads).
// CHECK-LABEL: func.func @attention_backward
// CHECK-SAME:    (%[[Q:[^:]+]]: tensor<2x8x16x64xf32>, %[[K:[^:]+]]: tensor<2x2x16x64xf32>, %[[V:[^:]+]]: tensor<2x2x16x32xf32>, %[[O:[^:]+]]: tensor<2x8x16x32xf32>, %[[DO:[^:]+]]: tensor<2x8x16x32xf32>)
func.func @attention_backward(%q: tensor<2x8x16x64xf32>, %k: tensor<2x2x16x64xf32>, %v: tensor<2x2x16x32xf32>,
                              %o: tensor<2x8x16x32xf32>, %do: tensor<2x8x16x32xf32>)
    -> (tensor<2x8x16x64xf32>, tensor<2x2x16x64xf32>, tensor<2x2x16x32xf32>) {
  // CHECK: %[[DQ:[^,]+]], %[[DK:[^,]+]], %[[DV:[^ ]+]] = rlx.attention_backward %[[Q]], %[[K]], %[[V]], %[[O]], %[[DO]] mask = causal : tensor<2x8x16x64xf32>, tensor<2x2x16x64xf32>, tensor<2x2x16x32xf32>, tensor<2x8x16x32xf32>{{$}}
  %dq, %dk, %dv = rlx.attention_backward %q, %k, %v, %o, %do mask = causal : tensor<2x8x16x64xf32>, tensor<2x2x16x64xf32>, tensor<2x2x16x32xf32>, tensor<2x8x16x32xf32>
  // CHECK: return %[[DQ]], %[[DK]], %[[DV]] : tensor<2x8x16x64xf32>, tensor<2x2x16x64xf32>, tensor<2x2x16x32xf32>
  return %dq, %dk, %dv : tensor<2x8x16x64xf32>, tensor<2x2x16x64xf32>, tensor<2x2x16x32xf32>
}

// Every mask kind, with its window or attn_mask, and a scale.
// CHECK-LABEL: func.func @attention_backward_masks
// CHECK-SAME:    (%[[Q:[^:]+]]: tensor<1x4x8x16xf32>, %[[M:[^:]+]]: tensor<8x8xi1>, %[[B:[^:]+]]: tensor<1x1x8x8xf32>)
func.func @attention_backward_masks(%q: tensor<1x4x8x16xf32>, %m: tensor<8x8xi1>, %b: tensor<1x1x8x8xf32>) {
  // CHECK: rlx.attention_backward %[[Q]], %[[Q]], %[[Q]], %[[Q]], %[[Q]] mask = none : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>{{$}}
  %0:3 = rlx.attention_backward %q, %q, %q, %q, %q mask = none : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>
  // CHECK: rlx.attention_backward %[[Q]], %[[Q]], %[[Q]], %[[Q]], %[[Q]] mask = sliding_window window = 2 : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>{{$}}
  %1:3 = rlx.attention_backward %q, %q, %q, %q, %q mask = sliding_window window = 2 : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>
  // CHECK: rlx.attention_backward %[[Q]], %[[Q]], %[[Q]], %[[Q]], %[[Q]], %[[M]] mask = custom : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<8x8xi1>
  %2:3 = rlx.attention_backward %q, %q, %q, %q, %q, %m mask = custom : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<8x8xi1>
  // CHECK: rlx.attention_backward %[[Q]], %[[Q]], %[[Q]], %[[Q]], %[[Q]], %[[B]] mask = bias {scale = 2.500000e-01 : f32} : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x1x8x8xf32>
  %3:3 = rlx.attention_backward %q, %q, %q, %q, %q, %b mask = bias {scale = 0.25 : f32} : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x1x8x8xf32>
  return
}

// Dynamic dims and other float types.
// CHECK-LABEL: func.func @attention_backward_shapes_and_types
// CHECK-SAME:    (%[[Q:[^:]+]]: tensor<?x4x?x16xf32>, %[[O:[^:]+]]: tensor<?x4x?x16xf32>, %[[H:[^:]+]]: tensor<1x2x4x8xf16>, %[[BF:[^:]+]]: tensor<1x2x4x8xbf16>, %[[D:[^:]+]]: tensor<1x2x4x8xf64>)
func.func @attention_backward_shapes_and_types(%q: tensor<?x4x?x16xf32>, %o: tensor<?x4x?x16xf32>,
                                               %h: tensor<1x2x4x8xf16>, %bf: tensor<1x2x4x8xbf16>, %d: tensor<1x2x4x8xf64>)
    -> (tensor<?x4x?x16xf32>, tensor<1x2x4x8xf16>, tensor<1x2x4x8xbf16>, tensor<1x2x4x8xf64>) {
  // CHECK: %[[A:[^,]+]], %{{[^,]+}}, %{{[^ ]+}} = rlx.attention_backward %[[Q]], %[[Q]], %[[Q]], %[[O]], %[[O]] mask = causal : tensor<?x4x?x16xf32>, tensor<?x4x?x16xf32>, tensor<?x4x?x16xf32>, tensor<?x4x?x16xf32>{{$}}
  %a:3 = rlx.attention_backward %q, %q, %q, %o, %o mask = causal : tensor<?x4x?x16xf32>, tensor<?x4x?x16xf32>, tensor<?x4x?x16xf32>, tensor<?x4x?x16xf32>
  // CHECK: %[[B:[^,]+]], %{{[^,]+}}, %{{[^ ]+}} = rlx.attention_backward %[[H]], %[[H]], %[[H]], %[[H]], %[[H]] mask = none : tensor<1x2x4x8xf16>, tensor<1x2x4x8xf16>, tensor<1x2x4x8xf16>, tensor<1x2x4x8xf16>{{$}}
  %b:3 = rlx.attention_backward %h, %h, %h, %h, %h mask = none : tensor<1x2x4x8xf16>, tensor<1x2x4x8xf16>, tensor<1x2x4x8xf16>, tensor<1x2x4x8xf16>
  // CHECK: %[[C:[^,]+]], %{{[^,]+}}, %{{[^ ]+}} = rlx.attention_backward %[[BF]], %[[BF]], %[[BF]], %[[BF]], %[[BF]] mask = none : tensor<1x2x4x8xbf16>, tensor<1x2x4x8xbf16>, tensor<1x2x4x8xbf16>, tensor<1x2x4x8xbf16>{{$}}
  %c:3 = rlx.attention_backward %bf, %bf, %bf, %bf, %bf mask = none : tensor<1x2x4x8xbf16>, tensor<1x2x4x8xbf16>, tensor<1x2x4x8xbf16>, tensor<1x2x4x8xbf16>
  // CHECK: %[[E:[^,]+]], %{{[^,]+}}, %{{[^ ]+}} = rlx.attention_backward %[[D]], %[[D]], %[[D]], %[[D]], %[[D]] mask = causal : tensor<1x2x4x8xf64>, tensor<1x2x4x8xf64>, tensor<1x2x4x8xf64>, tensor<1x2x4x8xf64>{{$}}
  %e:3 = rlx.attention_backward %d, %d, %d, %d, %d mask = causal : tensor<1x2x4x8xf64>, tensor<1x2x4x8xf64>, tensor<1x2x4x8xf64>, tensor<1x2x4x8xf64>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[E]] : tensor<?x4x?x16xf32>, tensor<1x2x4x8xf16>, tensor<1x2x4x8xbf16>, tensor<1x2x4x8xf64>
  return %a#0, %b#0, %c#0, %e#0 : tensor<?x4x?x16xf32>, tensor<1x2x4x8xf16>, tensor<1x2x4x8xbf16>, tensor<1x2x4x8xf64>
}

//===----------------------------------------------------------------------===//
// rlx.layer_norm_backward / rlx.rms_norm_backward
//===----------------------------------------------------------------------===//

// d_input has the input's type; d_gamma and d_beta have gamma's.
// CHECK-LABEL: func.func @layer_norm_backward
// CHECK-SAME:    (%[[DY:[^:]+]]: tensor<8x128x768xf32>, %[[X:[^:]+]]: tensor<8x128x768xf32>, %[[G:[^:]+]]: tensor<768xf32>)
func.func @layer_norm_backward(%dy: tensor<8x128x768xf32>, %x: tensor<8x128x768xf32>, %g: tensor<768xf32>)
    -> (tensor<8x128x768xf32>, tensor<768xf32>, tensor<768xf32>) {
  // CHECK: %[[DX:[^,]+]], %[[DG:[^,]+]], %[[DB:[^ ]+]] = rlx.layer_norm_backward %[[DY]], %[[X]], %[[G]] : tensor<8x128x768xf32>, tensor<768xf32>
  %dx, %dg, %db = rlx.layer_norm_backward %dy, %x, %g : tensor<8x128x768xf32>, tensor<768xf32>
  // CHECK: rlx.layer_norm_backward %[[DY]], %[[X]], %[[G]] {epsilon = 9.99999996E-13 : f32} : tensor<8x128x768xf32>, tensor<768xf32>
  %e:3 = rlx.layer_norm_backward %dy, %x, %g {epsilon = 1.0e-12 : f32} : tensor<8x128x768xf32>, tensor<768xf32>
  // CHECK: return %[[DX]], %[[DG]], %[[DB]] : tensor<8x128x768xf32>, tensor<768xf32>, tensor<768xf32>
  return %dx, %dg, %db : tensor<8x128x768xf32>, tensor<768xf32>, tensor<768xf32>
}

// CHECK-LABEL: func.func @rms_norm_backward
// CHECK-SAME:    (%[[DY:[^:]+]]: tensor<1x16x4096xbf16>, %[[X:[^:]+]]: tensor<1x16x4096xbf16>, %[[G:[^:]+]]: tensor<4096xbf16>)
func.func @rms_norm_backward(%dy: tensor<1x16x4096xbf16>, %x: tensor<1x16x4096xbf16>, %g: tensor<4096xbf16>)
    -> (tensor<1x16x4096xbf16>, tensor<4096xbf16>) {
  // CHECK: %[[DX:[^,]+]], %[[DG:[^ ]+]] = rlx.rms_norm_backward %[[DY]], %[[X]], %[[G]] : tensor<1x16x4096xbf16>, tensor<4096xbf16>
  %dx, %dg = rlx.rms_norm_backward %dy, %x, %g : tensor<1x16x4096xbf16>, tensor<4096xbf16>
  // CHECK: rlx.rms_norm_backward %[[DY]], %[[X]], %[[G]] {epsilon = 9.99999974E-6 : f32} : tensor<1x16x4096xbf16>, tensor<4096xbf16>
  %e:2 = rlx.rms_norm_backward %dy, %x, %g {epsilon = 1.0e-5 : f32} : tensor<1x16x4096xbf16>, tensor<4096xbf16>
  // CHECK: return %[[DX]], %[[DG]] : tensor<1x16x4096xbf16>, tensor<4096xbf16>
  return %dx, %dg : tensor<1x16x4096xbf16>, tensor<4096xbf16>
}

// Rank 1, dynamic dims, f16 and f64.
// CHECK-LABEL: func.func @norm_backward_shapes_and_types
func.func @norm_backward_shapes_and_types(%v: tensor<8xf16>, %gv: tensor<8xf16>, %d: tensor<?x?xf64>, %gd: tensor<16xf64>)
    -> (tensor<8xf16>, tensor<16xf64>) {
  // CHECK: %{{[^,]+}}, %{{[^,]+}}, %[[DB:[^ ]+]] = rlx.layer_norm_backward %{{.+}}, %{{.+}}, %{{.+}} : tensor<8xf16>, tensor<8xf16>
  %a:3 = rlx.layer_norm_backward %v, %v, %gv : tensor<8xf16>, tensor<8xf16>
  // CHECK: %{{[^,]+}}, %[[DG:[^ ]+]] = rlx.rms_norm_backward %{{.+}}, %{{.+}}, %{{.+}} : tensor<?x?xf64>, tensor<16xf64>
  %b:2 = rlx.rms_norm_backward %d, %d, %gd : tensor<?x?xf64>, tensor<16xf64>
  // CHECK: return %[[DB]], %[[DG]] : tensor<8xf16>, tensor<16xf64>
  return %a#2, %b#1 : tensor<8xf16>, tensor<16xf64>
}

//===----------------------------------------------------------------------===//
// rlx.conv2d_backward_input / rlx.conv2d_backward_weight
//===----------------------------------------------------------------------===//

// The result type names the forward operand's shape; the window attributes
// are those of the forward rlx.conv.
// CHECK-LABEL: func.func @conv2d_backward
// CHECK-SAME:    (%[[DY:[^:]+]]: tensor<1x16x16x16xf32>, %[[W:[^:]+]]: tensor<16x3x3x3xf32>, %[[X:[^:]+]]: tensor<1x3x32x32xf32>)
func.func @conv2d_backward(%dy: tensor<1x16x16x16xf32>, %w: tensor<16x3x3x3xf32>, %x: tensor<1x3x32x32xf32>)
    -> (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<1x3x31x31xf32>) {
  // CHECK: %[[DX:.+]] = rlx.conv2d_backward_input %[[DY]], %[[W]] strides = [2, 2] padding = [1, 1, 1, 1] : tensor<1x16x16x16xf32>, tensor<16x3x3x3xf32> -> tensor<1x3x32x32xf32>
  %dx = rlx.conv2d_backward_input %dy, %w strides = [2, 2] padding = [1, 1, 1, 1] : tensor<1x16x16x16xf32>, tensor<16x3x3x3xf32> -> tensor<1x3x32x32xf32>
  // CHECK: %[[DW:.+]] = rlx.conv2d_backward_weight %[[DY]], %[[X]] strides = [2, 2] padding = [1, 1, 1, 1] : tensor<1x16x16x16xf32>, tensor<1x3x32x32xf32> -> tensor<16x3x3x3xf32>
  %dw = rlx.conv2d_backward_weight %dy, %x strides = [2, 2] padding = [1, 1, 1, 1] : tensor<1x16x16x16xf32>, tensor<1x3x32x32xf32> -> tensor<16x3x3x3xf32>
  // Several input sizes give the same output size: 31 works as well as 32.
  // CHECK: %[[DX31:.+]] = rlx.conv2d_backward_input %[[DY]], %[[W]] strides = [2, 2] padding = [1, 1, 1, 1] : tensor<1x16x16x16xf32>, tensor<16x3x3x3xf32> -> tensor<1x3x31x31xf32>
  %dx31 = rlx.conv2d_backward_input %dy, %w strides = [2, 2] padding = [1, 1, 1, 1] : tensor<1x16x16x16xf32>, tensor<16x3x3x3xf32> -> tensor<1x3x31x31xf32>
  // CHECK: return %[[DX]], %[[DW]], %[[DX31]] : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<1x3x31x31xf32>
  return %dx, %dw, %dx31 : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<1x3x31x31xf32>
}

// No window attributes (all defaults); dilations and groups.
// CHECK-LABEL: func.func @conv2d_backward_attributes
// CHECK-SAME:    (%[[DY:[^:]+]]: tensor<2x16x8x8xf32>, %[[W:[^:]+]]: tensor<16x3x3x3xf32>, %[[X:[^:]+]]: tensor<2x3x10x10xf32>, %[[DYG:[^:]+]]: tensor<2x4x6x6xf32>, %[[WG:[^:]+]]: tensor<4x4x3x3xf32>, %[[XG:[^:]+]]: tensor<2x8x10x10xf32>)
func.func @conv2d_backward_attributes(%dy: tensor<2x16x8x8xf32>, %w: tensor<16x3x3x3xf32>, %x: tensor<2x3x10x10xf32>,
                                      %dyg: tensor<2x4x6x6xf32>, %wg: tensor<4x4x3x3xf32>, %xg: tensor<2x8x10x10xf32>)
    -> (tensor<2x3x10x10xf32>, tensor<16x3x3x3xf32>, tensor<2x8x10x10xf32>, tensor<4x4x3x3xf32>) {
  // CHECK: %[[A:.+]] = rlx.conv2d_backward_input %[[DY]], %[[W]] : tensor<2x16x8x8xf32>, tensor<16x3x3x3xf32> -> tensor<2x3x10x10xf32>
  %a = rlx.conv2d_backward_input %dy, %w : tensor<2x16x8x8xf32>, tensor<16x3x3x3xf32> -> tensor<2x3x10x10xf32>
  // CHECK: %[[B:.+]] = rlx.conv2d_backward_weight %[[DY]], %[[X]] : tensor<2x16x8x8xf32>, tensor<2x3x10x10xf32> -> tensor<16x3x3x3xf32>
  %b = rlx.conv2d_backward_weight %dy, %x : tensor<2x16x8x8xf32>, tensor<2x3x10x10xf32> -> tensor<16x3x3x3xf32>
  // (10 - 2 * 2 - 1) / 1 + 1 = 6 with dilation 2, groups 2.
  // CHECK: %[[C:.+]] = rlx.conv2d_backward_input %[[DYG]], %[[WG]] dilations = [2, 2] groups = 2 : tensor<2x4x6x6xf32>, tensor<4x4x3x3xf32> -> tensor<2x8x10x10xf32>
  %c = rlx.conv2d_backward_input %dyg, %wg dilations = [2, 2] groups = 2 : tensor<2x4x6x6xf32>, tensor<4x4x3x3xf32> -> tensor<2x8x10x10xf32>
  // CHECK: %[[D:.+]] = rlx.conv2d_backward_weight %[[DYG]], %[[XG]] dilations = [2, 2] groups = 2 : tensor<2x4x6x6xf32>, tensor<2x8x10x10xf32> -> tensor<4x4x3x3xf32>
  %d = rlx.conv2d_backward_weight %dyg, %xg dilations = [2, 2] groups = 2 : tensor<2x4x6x6xf32>, tensor<2x8x10x10xf32> -> tensor<4x4x3x3xf32>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]] : tensor<2x3x10x10xf32>, tensor<16x3x3x3xf32>, tensor<2x8x10x10xf32>, tensor<4x4x3x3xf32>
  return %a, %b, %c, %d : tensor<2x3x10x10xf32>, tensor<16x3x3x3xf32>, tensor<2x8x10x10xf32>, tensor<4x4x3x3xf32>
}

// Dynamic dims (the forward gives d_result's exact type) and f16.
// CHECK-LABEL: func.func @conv2d_backward_shapes_and_types
func.func @conv2d_backward_shapes_and_types(%dy: tensor<?x16x?x30xf32>, %w: tensor<16x3x3x3xf32>,
                                            %dyh: tensor<1x2x2x2xf16>, %xh: tensor<1x2x4x4xf16>)
    -> (tensor<?x3x?x32xf32>, tensor<2x2x3x3xf16>) {
  // CHECK: %[[A:.+]] = rlx.conv2d_backward_input %{{.+}}, %{{.+}} : tensor<?x16x?x30xf32>, tensor<16x3x3x3xf32> -> tensor<?x3x?x32xf32>
  %a = rlx.conv2d_backward_input %dy, %w : tensor<?x16x?x30xf32>, tensor<16x3x3x3xf32> -> tensor<?x3x?x32xf32>
  // CHECK: %[[B:.+]] = rlx.conv2d_backward_weight %{{.+}}, %{{.+}} : tensor<1x2x2x2xf16>, tensor<1x2x4x4xf16> -> tensor<2x2x3x3xf16>
  %b = rlx.conv2d_backward_weight %dyh, %xh : tensor<1x2x2x2xf16>, tensor<1x2x4x4xf16> -> tensor<2x2x3x3xf16>
  // CHECK: return %[[A]], %[[B]] : tensor<?x3x?x32xf32>, tensor<2x2x3x3xf16>
  return %a, %b : tensor<?x3x?x32xf32>, tensor<2x2x3x3xf16>
}

//===----------------------------------------------------------------------===//
// rlx.softmax_cross_entropy_backward
//===----------------------------------------------------------------------===//

// The gradient has the logits' type.
// CHECK-LABEL: func.func @softmax_cross_entropy_backward
// CHECK-SAME:    (%[[L:[^:]+]]: tensor<8x10xf32>, %[[Y:[^:]+]]: tensor<8xi64>, %[[G:[^:]+]]: tensor<f32>)
func.func @softmax_cross_entropy_backward(%l: tensor<8x10xf32>, %y: tensor<8xi64>, %g: tensor<f32>) -> tensor<8x10xf32> {
  // CHECK: %[[D:.+]] = rlx.softmax_cross_entropy_backward %[[L]], %[[Y]], %[[G]] : tensor<8x10xf32>, tensor<8xi64>, tensor<f32>
  %d = rlx.softmax_cross_entropy_backward %l, %y, %g : tensor<8x10xf32>, tensor<8xi64>, tensor<f32>
  // CHECK: return %[[D]] : tensor<8x10xf32>
  return %d : tensor<8x10xf32>
}

// The forward's loss feeds d_loss; dynamic dims; f16 and f64.
// CHECK-LABEL: func.func @softmax_cross_entropy_backward_shapes_and_types
// CHECK-SAME:    (%[[L:[^:]+]]: tensor<?x?xf64>, %[[Y:[^:]+]]: tensor<?xi64>, %[[H:[^:]+]]: tensor<4x3xf16>, %[[YH:[^:]+]]: tensor<4xi64>)
func.func @softmax_cross_entropy_backward_shapes_and_types(%l: tensor<?x?xf64>, %y: tensor<?xi64>, %h: tensor<4x3xf16>, %yh: tensor<4xi64>)
    -> (tensor<?x?xf64>, tensor<4x3xf16>) {
  // CHECK: %[[LOSS:.+]] = rlx.softmax_cross_entropy %[[L]], %[[Y]] : tensor<?x?xf64>, tensor<?xi64>
  %loss = rlx.softmax_cross_entropy %l, %y : tensor<?x?xf64>, tensor<?xi64>
  // CHECK: %[[A:.+]] = rlx.softmax_cross_entropy_backward %[[L]], %[[Y]], %[[LOSS]] : tensor<?x?xf64>, tensor<?xi64>, tensor<f64>
  %a = rlx.softmax_cross_entropy_backward %l, %y, %loss : tensor<?x?xf64>, tensor<?xi64>, tensor<f64>
  // CHECK: %[[ONE:.+]] = rlx.constant dense<1.000000e+00> : tensor<f16>
  %one = rlx.constant dense<1.0> : tensor<f16>
  // CHECK: %[[B:.+]] = rlx.softmax_cross_entropy_backward %[[H]], %[[YH]], %[[ONE]] : tensor<4x3xf16>, tensor<4xi64>, tensor<f16>
  %b = rlx.softmax_cross_entropy_backward %h, %yh, %one : tensor<4x3xf16>, tensor<4xi64>, tensor<f16>
  // CHECK: return %[[A]], %[[B]] : tensor<?x?xf64>, tensor<4x3xf16>
  return %a, %b : tensor<?x?xf64>, tensor<4x3xf16>
}
