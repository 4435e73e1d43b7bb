// RUN: rlx-opt %s | FileCheck %s
// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round trips of the normalization, attention and position ops. Functions
// return their results so that the `return` line checks the result types.

//===----------------------------------------------------------------------===//
// rlx.layer_norm
//===----------------------------------------------------------------------===//

// The default epsilon (1e-5) is not printed; another one is.
// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<8x16x32xf32>, %[[G:[^:]+]]: tensor<32xf32>, %[[B:[^:]+]]: tensor<32xf32>)
func.func @layer_norm(%x: tensor<8x16x32xf32>, %g: tensor<32xf32>, %b: tensor<32xf32>)
    -> (tensor<8x16x32xf32>, tensor<8x16x32xf32>, tensor<8x16x32xf32>) {
  // CHECK: %[[Y:.+]] = rlx.layer_norm %[[X]], %[[G]], %[[B]] : tensor<8x16x32xf32>, tensor<32xf32>
  %y = rlx.layer_norm %x, %g, %b : tensor<8x16x32xf32>, tensor<32xf32>
  // CHECK: %[[D:.+]] = rlx.layer_norm %[[X]], %[[G]], %[[B]] : tensor<8x16x32xf32>, tensor<32xf32>
  %d = rlx.layer_norm %x, %g, %b {epsilon = 1.0e-5 : f32} : tensor<8x16x32xf32>, tensor<32xf32>
  // CHECK: %[[E:.+]] = rlx.layer_norm %[[X]], %[[G]], %[[B]] {epsilon = 9.99999996E-13 : f32} : tensor<8x16x32xf32>, tensor<32xf32>
  %e = rlx.layer_norm %x, %g, %b {epsilon = 1.0e-12 : f32} : tensor<8x16x32xf32>, tensor<32xf32>
  // CHECK: return %[[Y]], %[[D]], %[[E]] : tensor<8x16x32xf32>, tensor<8x16x32xf32>, tensor<8x16x32xf32>
  return %y, %d, %e : tensor<8x16x32xf32>, tensor<8x16x32xf32>, tensor<8x16x32xf32>
}

// Rank 1, dynamic dims, and the other float types.
// CHECK-LABEL: func.func @layer_norm_shapes_and_types
func.func @layer_norm_shapes_and_types(%v: tensor<16xf32>, %gv: tensor<16xf32>,
                                       %d: tensor<?x?xf32>, %gd: tensor<?xf32>,
                                       %h: tensor<4x8xf16>, %gh: tensor<8xf16>,
                                       %bf: tensor<4x8xbf16>, %gbf: tensor<8xbf16>,
                                       %f64: tensor<4x8xf64>, %g64: tensor<8xf64>)
    -> (tensor<16xf32>, tensor<?x?xf32>, tensor<4x8xf16>, tensor<4x8xbf16>, tensor<4x8xf64>) {
  // CHECK: %[[A:.+]] = rlx.layer_norm %{{.+}}, %{{.+}}, %{{.+}} : tensor<16xf32>, tensor<16xf32>
  %0 = rlx.layer_norm %v, %gv, %gv : tensor<16xf32>, tensor<16xf32>
  // CHECK: %[[B:.+]] = rlx.layer_norm %{{.+}}, %{{.+}}, %{{.+}} : tensor<?x?xf32>, tensor<?xf32>
  %1 = rlx.layer_norm %d, %gd, %gd : tensor<?x?xf32>, tensor<?xf32>
  // CHECK: %[[C:.+]] = rlx.layer_norm %{{.+}}, %{{.+}}, %{{.+}} : tensor<4x8xf16>, tensor<8xf16>
  %2 = rlx.layer_norm %h, %gh, %gh : tensor<4x8xf16>, tensor<8xf16>
  // CHECK: %[[D:.+]] = rlx.layer_norm %{{.+}}, %{{.+}}, %{{.+}} : tensor<4x8xbf16>, tensor<8xbf16>
  %3 = rlx.layer_norm %bf, %gbf, %gbf : tensor<4x8xbf16>, tensor<8xbf16>
  // CHECK: %[[E:.+]] = rlx.layer_norm %{{.+}}, %{{.+}}, %{{.+}} : tensor<4x8xf64>, tensor<8xf64>
  %4 = rlx.layer_norm %f64, %g64, %g64 : tensor<4x8xf64>, tensor<8xf64>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]] : tensor<16xf32>, tensor<?x?xf32>, tensor<4x8xf16>, tensor<4x8xbf16>, tensor<4x8xf64>
  return %0, %1, %2, %3, %4 : tensor<16xf32>, tensor<?x?xf32>, tensor<4x8xf16>, tensor<4x8xbf16>, tensor<4x8xf64>
}

// A static gamma with a dynamic last dim of the input, and the reverse.
// CHECK-LABEL: func.func @layer_norm_dynamic_gamma
func.func @layer_norm_dynamic_gamma(%x: tensor<4x?xf32>, %g: tensor<8xf32>,
                                    %y: tensor<4x8xf32>, %gd: tensor<?xf32>)
    -> (tensor<4x?xf32>, tensor<4x8xf32>) {
  // CHECK: %[[A:.+]] = rlx.layer_norm %{{.+}}, %{{.+}}, %{{.+}} : tensor<4x?xf32>, tensor<8xf32>
  %0 = rlx.layer_norm %x, %g, %g : tensor<4x?xf32>, tensor<8xf32>
  // CHECK: %[[B:.+]] = rlx.layer_norm %{{.+}}, %{{.+}}, %{{.+}} : tensor<4x8xf32>, tensor<?xf32>
  %1 = rlx.layer_norm %y, %gd, %gd : tensor<4x8xf32>, tensor<?xf32>
  // CHECK: return %[[A]], %[[B]] : tensor<4x?xf32>, tensor<4x8xf32>
  return %0, %1 : tensor<4x?xf32>, tensor<4x8xf32>
}

//===----------------------------------------------------------------------===//
// rlx.rms_norm
//===----------------------------------------------------------------------===//

// The default epsilon (1e-6) is not printed; another one is.
// CHECK-LABEL: func.func @rms_norm
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<1x16x4096xbf16>, %[[G:[^:]+]]: tensor<4096xbf16>)
func.func @rms_norm(%x: tensor<1x16x4096xbf16>, %g: tensor<4096xbf16>)
    -> (tensor<1x16x4096xbf16>, tensor<1x16x4096xbf16>, tensor<1x16x4096xbf16>) {
  // CHECK: %[[A:.+]] = rlx.rms_norm %[[X]], %[[G]] : tensor<1x16x4096xbf16>, tensor<4096xbf16>
  %a = rlx.rms_norm %x, %g : tensor<1x16x4096xbf16>, tensor<4096xbf16>
  // CHECK: %[[B:.+]] = rlx.rms_norm %[[X]], %[[G]] : tensor<1x16x4096xbf16>, tensor<4096xbf16>
  %b = rlx.rms_norm %x, %g {epsilon = 1.0e-6 : f32} : tensor<1x16x4096xbf16>, tensor<4096xbf16>
  // CHECK: %[[C:.+]] = rlx.rms_norm %[[X]], %[[G]] {epsilon = 9.99999974E-6 : f32} : tensor<1x16x4096xbf16>, tensor<4096xbf16>
  %c = rlx.rms_norm %x, %g {epsilon = 1.0e-5 : f32} : tensor<1x16x4096xbf16>, tensor<4096xbf16>
  // CHECK: return %[[A]], %[[B]], %[[C]]
  return %a, %b, %c : tensor<1x16x4096xbf16>, tensor<1x16x4096xbf16>, tensor<1x16x4096xbf16>
}

// CHECK-LABEL: func.func @rms_norm_shapes_and_types
func.func @rms_norm_shapes_and_types(%v: tensor<8xf32>, %gv: tensor<8xf32>,
                                     %d: tensor<?x?x?xf16>, %gd: tensor<64xf16>,
                                     %f64: tensor<2x8xf64>, %g64: tensor<8xf64>)
    -> (tensor<8xf32>, tensor<?x?x?xf16>, tensor<2x8xf64>) {
  // CHECK: %[[A:.+]] = rlx.rms_norm %{{.+}}, %{{.+}} : tensor<8xf32>, tensor<8xf32>
  %0 = rlx.rms_norm %v, %gv : tensor<8xf32>, tensor<8xf32>
  // CHECK: %[[B:.+]] = rlx.rms_norm %{{.+}}, %{{.+}} : tensor<?x?x?xf16>, tensor<64xf16>
  %1 = rlx.rms_norm %d, %gd : tensor<?x?x?xf16>, tensor<64xf16>
  // CHECK: %[[C:.+]] = rlx.rms_norm %{{.+}}, %{{.+}} : tensor<2x8xf64>, tensor<8xf64>
  %2 = rlx.rms_norm %f64, %g64 : tensor<2x8xf64>, tensor<8xf64>
  // CHECK: return %[[A]], %[[B]], %[[C]] : tensor<8xf32>, tensor<?x?x?xf16>, tensor<2x8xf64>
  return %0, %1, %2 : tensor<8xf32>, tensor<?x?x?xf16>, tensor<2x8xf64>
}

//===----------------------------------------------------------------------===//
// rlx.group_norm
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @group_norm
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<2x32x16x16xf32>, %[[G:[^:]+]]: tensor<32xf32>, %[[B:[^:]+]]: tensor<32xf32>)
func.func @group_norm(%x: tensor<2x32x16x16xf32>, %g: tensor<32xf32>, %b: tensor<32xf32>)
    -> (tensor<2x32x16x16xf32>, tensor<2x32x16x16xf32>, tensor<2x32x16x16xf32>, tensor<2x32x16x16xf32>) {
  // CHECK: %[[A:.+]] = rlx.group_norm %[[X]], %[[G]], %[[B]] {num_groups = 8 : i64} : tensor<2x32x16x16xf32>, tensor<32xf32>
  %a = rlx.group_norm %x, %g, %b {num_groups = 8 : i64} : tensor<2x32x16x16xf32>, tensor<32xf32>
  // One group (layer norm over C, H, W) and one channel per group
  // (instance norm).
  // CHECK: %[[ONE:.+]] = rlx.group_norm %[[X]], %[[G]], %[[B]] {num_groups = 1 : i64} : tensor<2x32x16x16xf32>, tensor<32xf32>
  %one = rlx.group_norm %x, %g, %b {num_groups = 1 : i64} : tensor<2x32x16x16xf32>, tensor<32xf32>
  // CHECK: %[[ALL:.+]] = rlx.group_norm %[[X]], %[[G]], %[[B]] {num_groups = 32 : i64} : tensor<2x32x16x16xf32>, tensor<32xf32>
  %all = rlx.group_norm %x, %g, %b {num_groups = 32 : i64} : tensor<2x32x16x16xf32>, tensor<32xf32>
  // CHECK: %[[EPS:.+]] = rlx.group_norm %[[X]], %[[G]], %[[B]] {epsilon = 9.99999997E-7 : f32, num_groups = 4 : i64} : tensor<2x32x16x16xf32>, tensor<32xf32>
  %eps = rlx.group_norm %x, %g, %b {num_groups = 4 : i64, epsilon = 1.0e-6 : f32} : tensor<2x32x16x16xf32>, tensor<32xf32>
  // CHECK: return %[[A]], %[[ONE]], %[[ALL]], %[[EPS]]
  return %a, %one, %all, %eps : tensor<2x32x16x16xf32>, tensor<2x32x16x16xf32>, tensor<2x32x16x16xf32>, tensor<2x32x16x16xf32>
}

// Rank 2 and 3 inputs, a dynamic channel count, other float types.
// CHECK-LABEL: func.func @group_norm_shapes_and_types
func.func @group_norm_shapes_and_types(%a: tensor<4x6xf16>, %ga: tensor<6xf16>,
                                       %b: tensor<2x6x10xbf16>, %gb: tensor<6xbf16>,
                                       %c: tensor<?x?x?x?xf64>, %gc: tensor<?xf64>)
    -> (tensor<4x6xf16>, tensor<2x6x10xbf16>, tensor<?x?x?x?xf64>) {
  // CHECK: %[[A:.+]] = rlx.group_norm %{{.+}}, %{{.+}}, %{{.+}} {num_groups = 3 : i64} : tensor<4x6xf16>, tensor<6xf16>
  %0 = rlx.group_norm %a, %ga, %ga {num_groups = 3 : i64} : tensor<4x6xf16>, tensor<6xf16>
  // CHECK: %[[B:.+]] = rlx.group_norm %{{.+}}, %{{.+}}, %{{.+}} {num_groups = 2 : i64} : tensor<2x6x10xbf16>, tensor<6xbf16>
  %1 = rlx.group_norm %b, %gb, %gb {num_groups = 2 : i64} : tensor<2x6x10xbf16>, tensor<6xbf16>
  // CHECK: %[[C:.+]] = rlx.group_norm %{{.+}}, %{{.+}}, %{{.+}} {num_groups = 5 : i64} : tensor<?x?x?x?xf64>, tensor<?xf64>
  %2 = rlx.group_norm %c, %gc, %gc {num_groups = 5 : i64} : tensor<?x?x?x?xf64>, tensor<?xf64>
  // CHECK: return %[[A]], %[[B]], %[[C]] : tensor<4x6xf16>, tensor<2x6x10xbf16>, tensor<?x?x?x?xf64>
  return %0, %1, %2 : tensor<4x6xf16>, tensor<2x6x10xbf16>, tensor<?x?x?x?xf64>
}

//===----------------------------------------------------------------------===//
// rlx.batch_norm_inference
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @batch_norm_inference
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<2x16x8x8xf32>, %[[G:[^:]+]]: tensor<16xf32>, %[[B:[^:]+]]: tensor<16xf32>, %[[M:[^:]+]]: tensor<16xf32>, %[[V:[^:]+]]: tensor<16xf32>)
func.func @batch_norm_inference(%x: tensor<2x16x8x8xf32>, %g: tensor<16xf32>, %b: tensor<16xf32>,
                                %m: tensor<16xf32>, %v: tensor<16xf32>)
    -> (tensor<2x16x8x8xf32>, tensor<2x16x8x8xf32>) {
  // CHECK: %[[Y:.+]] = rlx.batch_norm_inference %[[X]], %[[G]], %[[B]], %[[M]], %[[V]] : tensor<2x16x8x8xf32>, tensor<16xf32>
  %y = rlx.batch_norm_inference %x, %g, %b, %m, %v : tensor<2x16x8x8xf32>, tensor<16xf32>
  // CHECK: %[[E:.+]] = rlx.batch_norm_inference %[[X]], %[[G]], %[[B]], %[[M]], %[[V]] {epsilon = 1.000000e-03 : f32} : tensor<2x16x8x8xf32>, tensor<16xf32>
  %e = rlx.batch_norm_inference %x, %g, %b, %m, %v {epsilon = 1.0e-3 : f32} : tensor<2x16x8x8xf32>, tensor<16xf32>
  // CHECK: return %[[Y]], %[[E]] : tensor<2x16x8x8xf32>, tensor<2x16x8x8xf32>
  return %y, %e : tensor<2x16x8x8xf32>, tensor<2x16x8x8xf32>
}

// Rank 2 (BatchNorm1d on [N, C]) and 3, dynamic dims, other float types.
// CHECK-LABEL: func.func @batch_norm_inference_shapes_and_types
func.func @batch_norm_inference_shapes_and_types(%a: tensor<4x6xf16>, %pa: tensor<6xf16>,
                                                 %b: tensor<?x6x?xbf16>, %pb: tensor<6xbf16>,
                                                 %c: tensor<2x?x4x4xf64>, %pc: tensor<3xf64>)
    -> (tensor<4x6xf16>, tensor<?x6x?xbf16>, tensor<2x?x4x4xf64>) {
  // CHECK: %[[A:.+]] = rlx.batch_norm_inference %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : tensor<4x6xf16>, tensor<6xf16>
  %0 = rlx.batch_norm_inference %a, %pa, %pa, %pa, %pa : tensor<4x6xf16>, tensor<6xf16>
  // CHECK: %[[B:.+]] = rlx.batch_norm_inference %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : tensor<?x6x?xbf16>, tensor<6xbf16>
  %1 = rlx.batch_norm_inference %b, %pb, %pb, %pb, %pb : tensor<?x6x?xbf16>, tensor<6xbf16>
  // CHECK: %[[C:.+]] = rlx.batch_norm_inference %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : tensor<2x?x4x4xf64>, tensor<3xf64>
  %2 = rlx.batch_norm_inference %c, %pc, %pc, %pc, %pc : tensor<2x?x4x4xf64>, tensor<3xf64>
  // CHECK: return %[[A]], %[[B]], %[[C]] : tensor<4x6xf16>, tensor<?x6x?xbf16>, tensor<2x?x4x4xf64>
  return %0, %1, %2 : tensor<4x6xf16>, tensor<?x6x?xbf16>, tensor<2x?x4x4xf64>
}

//===----------------------------------------------------------------------===//
// rlx.attention
//===----------------------------------------------------------------------===//

// Every mask kind. none and causal take no attn_mask; sliding_window takes a
// window; custom takes an i1 attn_mask; bias a float attn_mask.
// CHECK-LABEL: func.func @attention_masks
// CHECK-SAME:    (%[[Q:[^:]+]]: tensor<2x8x16x64xf32>, %[[I1:[^:]+]]: tensor<2x8x16x16xi1>, %[[BIAS:[^:]+]]: tensor<2x8x16x16xf32>)
func.func @attention_masks(%q: tensor<2x8x16x64xf32>, %i1: tensor<2x8x16x16xi1>, %bias: tensor<2x8x16x16xf32>)
    -> (tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>,
        tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>) {
  // CHECK: %[[NONE:.+]] = rlx.attention %[[Q]], %[[Q]], %[[Q]] mask = none : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>{{$}}
  %none = rlx.attention %q, %q, %q mask = none : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>
  // CHECK: %[[CAUSAL:.+]] = rlx.attention %[[Q]], %[[Q]], %[[Q]] mask = causal : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>{{$}}
  %causal = rlx.attention %q, %q, %q mask = causal : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>
  // CHECK: %[[SW:.+]] = rlx.attention %[[Q]], %[[Q]], %[[Q]] mask = sliding_window window = 4 : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>{{$}}
  %sw = rlx.attention %q, %q, %q mask = sliding_window window = 4 : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>
  // CHECK: %[[CUSTOM:.+]] = rlx.attention %[[Q]], %[[Q]], %[[Q]], %[[I1]] mask = custom : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x16xi1>
  %custom = rlx.attention %q, %q, %q, %i1 mask = custom : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x16xi1>
  // CHECK: %[[B:.+]] = rlx.attention %[[Q]], %[[Q]], %[[Q]], %[[BIAS]] mask = bias : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x16xf32>
  %b = rlx.attention %q, %q, %q, %bias mask = bias : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x16xf32>
  // CHECK: return %[[NONE]], %[[CAUSAL]], %[[SW]], %[[CUSTOM]], %[[B]]
  return %none, %causal, %sw, %custom, %b
      : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>,
        tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>
}

// The attn_mask broadcasts to the scores [B, H, S, Skv]: fewer dims, or
// size-1 dims.
// CHECK-LABEL: func.func @attention_mask_broadcast
// CHECK-SAME:    (%[[Q:[^:]+]]: tensor<2x8x16x64xf32>, %[[K:[^:]+]]: tensor<2x8x32x64xf32>, %[[M2:[^:]+]]: tensor<16x32xi1>, %[[M1:[^:]+]]: tensor<32xi1>, %[[B4:[^:]+]]: tensor<2x1x16x32xf32>, %[[B0:[^:]+]]: tensor<1x1x1x1xf32>)
func.func @attention_mask_broadcast(%q: tensor<2x8x16x64xf32>, %k: tensor<2x8x32x64xf32>,
                                    %m2: tensor<16x32xi1>, %m1: tensor<32xi1>,
                                    %b4: tensor<2x1x16x32xf32>, %b0: tensor<1x1x1x1xf32>)
    -> (tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>) {
  // CHECK: %[[A:.+]] = rlx.attention %[[Q]], %[[K]], %[[K]], %[[M2]] mask = custom : tensor<2x8x16x64xf32>, tensor<2x8x32x64xf32>, tensor<2x8x32x64xf32>, tensor<16x32xi1>
  %a = rlx.attention %q, %k, %k, %m2 mask = custom : tensor<2x8x16x64xf32>, tensor<2x8x32x64xf32>, tensor<2x8x32x64xf32>, tensor<16x32xi1>
  // CHECK: %[[B:.+]] = rlx.attention %[[Q]], %[[K]], %[[K]], %[[M1]] mask = custom : tensor<2x8x16x64xf32>, tensor<2x8x32x64xf32>, tensor<2x8x32x64xf32>, tensor<32xi1>
  %b = rlx.attention %q, %k, %k, %m1 mask = custom : tensor<2x8x16x64xf32>, tensor<2x8x32x64xf32>, tensor<2x8x32x64xf32>, tensor<32xi1>
  // CHECK: %[[C:.+]] = rlx.attention %[[Q]], %[[K]], %[[K]], %[[B4]] mask = bias : tensor<2x8x16x64xf32>, tensor<2x8x32x64xf32>, tensor<2x8x32x64xf32>, tensor<2x1x16x32xf32>
  %c = rlx.attention %q, %k, %k, %b4 mask = bias : tensor<2x8x16x64xf32>, tensor<2x8x32x64xf32>, tensor<2x8x32x64xf32>, tensor<2x1x16x32xf32>
  // CHECK: %[[D:.+]] = rlx.attention %[[Q]], %[[K]], %[[K]], %[[B0]] mask = bias : tensor<2x8x16x64xf32>, tensor<2x8x32x64xf32>, tensor<2x8x32x64xf32>, tensor<1x1x1x1xf32>
  %d = rlx.attention %q, %k, %k, %b0 mask = bias : tensor<2x8x16x64xf32>, tensor<2x8x32x64xf32>, tensor<2x8x32x64xf32>, tensor<1x1x1x1xf32>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]]
  return %a, %b, %c, %d : tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>
}

// Grouped-query attention (8 query heads over 2 and 1 kv heads), a kv length
// other than the query length, and a value head dim other than D: the
// result is [B, H, S, Dv].
// CHECK-LABEL: func.func @attention_grouped_query
// CHECK-SAME:    (%[[Q:[^:]+]]: tensor<2x8x16x64xf32>, %[[K:[^:]+]]: tensor<2x2x16x64xf32>, %[[K1:[^:]+]]: tensor<2x1x40x64xf32>, %[[V1:[^:]+]]: tensor<2x1x40x32xf32>)
func.func @attention_grouped_query(%q: tensor<2x8x16x64xf32>, %k: tensor<2x2x16x64xf32>,
                                   %k1: tensor<2x1x40x64xf32>, %v1: tensor<2x1x40x32xf32>)
    -> (tensor<2x8x16x64xf32>, tensor<2x8x16x32xf32>) {
  // CHECK: %[[A:.+]] = rlx.attention %[[Q]], %[[K]], %[[K]] mask = causal : tensor<2x8x16x64xf32>, tensor<2x2x16x64xf32>, tensor<2x2x16x64xf32>
  %a = rlx.attention %q, %k, %k mask = causal : tensor<2x8x16x64xf32>, tensor<2x2x16x64xf32>, tensor<2x2x16x64xf32>
  // CHECK: %[[B:.+]] = rlx.attention %[[Q]], %[[K1]], %[[V1]] mask = none : tensor<2x8x16x64xf32>, tensor<2x1x40x64xf32>, tensor<2x1x40x32xf32>
  %b = rlx.attention %q, %k1, %v1 mask = none : tensor<2x8x16x64xf32>, tensor<2x1x40x64xf32>, tensor<2x1x40x32xf32>
  // CHECK: return %[[A]], %[[B]] : tensor<2x8x16x64xf32>, tensor<2x8x16x32xf32>
  return %a, %b : tensor<2x8x16x64xf32>, tensor<2x8x16x32xf32>
}

// An explicit scale (printed in the attribute dictionary), alone and with a
// window; a negative scale is allowed.
// CHECK-LABEL: func.func @attention_scale
// CHECK-SAME:    (%[[Q:[^:]+]]: tensor<1x4x8x16xf32>)
func.func @attention_scale(%q: tensor<1x4x8x16xf32>) -> (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>) {
  // CHECK: %[[A:.+]] = rlx.attention %[[Q]], %[[Q]], %[[Q]] mask = none {scale = 1.250000e-01 : f32} : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>
  %a = rlx.attention %q, %q, %q mask = none {scale = 0.125 : f32} : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>
  // CHECK: %[[B:.+]] = rlx.attention %[[Q]], %[[Q]], %[[Q]] mask = sliding_window window = 2 {scale = 5.000000e-01 : f32} : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>
  %b = rlx.attention %q, %q, %q mask = sliding_window window = 2 {scale = 0.5 : f32} : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>
  // CHECK: %[[C:.+]] = rlx.attention %[[Q]], %[[Q]], %[[Q]] mask = causal {scale = -1.000000e+00 : f32} : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>
  %c = rlx.attention %q, %q, %q mask = causal {scale = -1.0 : f32} : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>
  // CHECK: return %[[A]], %[[B]], %[[C]]
  return %a, %b, %c : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>
}

// Dynamic batch, heads, lengths and head dims.
// CHECK-LABEL: func.func @attention_dynamic
// CHECK-SAME:    (%[[Q:[^:]+]]: tensor<?x?x?x64xf32>, %[[K:[^:]+]]: tensor<?x2x?x?xf32>, %[[V:[^:]+]]: tensor<2x?x?x?xf32>, %[[M:[^:]+]]: tensor<?x?xf32>)
func.func @attention_dynamic(%q: tensor<?x?x?x64xf32>, %k: tensor<?x2x?x?xf32>, %v: tensor<2x?x?x?xf32>,
                             %m: tensor<?x?xf32>)
    -> (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) {
  // CHECK: %[[A:.+]] = rlx.attention %[[Q]], %[[K]], %[[V]] mask = causal : tensor<?x?x?x64xf32>, tensor<?x2x?x?xf32>, tensor<2x?x?x?xf32>
  %a = rlx.attention %q, %k, %v mask = causal : tensor<?x?x?x64xf32>, tensor<?x2x?x?xf32>, tensor<2x?x?x?xf32>
  // CHECK: %[[B:.+]] = rlx.attention %[[Q]], %[[K]], %[[V]], %[[M]] mask = bias : tensor<?x?x?x64xf32>, tensor<?x2x?x?xf32>, tensor<2x?x?x?xf32>, tensor<?x?xf32>
  %b = rlx.attention %q, %k, %v, %m mask = bias : tensor<?x?x?x64xf32>, tensor<?x2x?x?xf32>, tensor<2x?x?x?xf32>, tensor<?x?xf32>
  // CHECK: return %[[A]], %[[B]] : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>
  return %a, %b : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>
}

// f16, bf16 and f64; a bias mask has the query's float type.
// CHECK-LABEL: func.func @attention_element_types
func.func @attention_element_types(%h: tensor<1x2x4x8xf16>, %hb: tensor<4x4xf16>,
                                   %bf: tensor<1x2x4x8xbf16>, %d: tensor<1x2x4x8xf64>,
                                   %db: tensor<1x1x4x4xf64>)
    -> (tensor<1x2x4x8xf16>, tensor<1x2x4x8xbf16>, tensor<1x2x4x8xf64>) {
  // CHECK: %[[A:.+]] = rlx.attention %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} mask = bias : tensor<1x2x4x8xf16>, tensor<1x2x4x8xf16>, tensor<1x2x4x8xf16>, tensor<4x4xf16>
  %0 = rlx.attention %h, %h, %h, %hb mask = bias : tensor<1x2x4x8xf16>, tensor<1x2x4x8xf16>, tensor<1x2x4x8xf16>, tensor<4x4xf16>
  // CHECK: %[[B:.+]] = rlx.attention %{{.+}}, %{{.+}}, %{{.+}} mask = causal : tensor<1x2x4x8xbf16>, tensor<1x2x4x8xbf16>, tensor<1x2x4x8xbf16>
  %1 = rlx.attention %bf, %bf, %bf mask = causal : tensor<1x2x4x8xbf16>, tensor<1x2x4x8xbf16>, tensor<1x2x4x8xbf16>
  // CHECK: %[[C:.+]] = rlx.attention %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} mask = bias : tensor<1x2x4x8xf64>, tensor<1x2x4x8xf64>, tensor<1x2x4x8xf64>, tensor<1x1x4x4xf64>
  %2 = rlx.attention %d, %d, %d, %db mask = bias : tensor<1x2x4x8xf64>, tensor<1x2x4x8xf64>, tensor<1x2x4x8xf64>, tensor<1x1x4x4xf64>
  // CHECK: return %[[A]], %[[B]], %[[C]] : tensor<1x2x4x8xf16>, tensor<1x2x4x8xbf16>, tensor<1x2x4x8xf64>
  return %0, %1, %2 : tensor<1x2x4x8xf16>, tensor<1x2x4x8xbf16>, tensor<1x2x4x8xf64>
}

//===----------------------------------------------------------------------===//
// rlx.rope
//===----------------------------------------------------------------------===//

// neox is the default style and is not printed; gptj is.
// CHECK-LABEL: func.func @rope
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<1x32x16x128xf32>, %[[C:[^:]+]]: tensor<16x64xf32>, %[[S:[^:]+]]: tensor<16x64xf32>)
func.func @rope(%x: tensor<1x32x16x128xf32>, %c: tensor<16x64xf32>, %s: tensor<16x64xf32>)
    -> (tensor<1x32x16x128xf32>, tensor<1x32x16x128xf32>, tensor<1x32x16x128xf32>) {
  // CHECK: %[[A:.+]] = rlx.rope %[[X]], %[[C]], %[[S]] : tensor<1x32x16x128xf32>, tensor<16x64xf32>
  %a = rlx.rope %x, %c, %s : tensor<1x32x16x128xf32>, tensor<16x64xf32>
  // CHECK: %[[N:.+]] = rlx.rope %[[X]], %[[C]], %[[S]] : tensor<1x32x16x128xf32>, tensor<16x64xf32>
  %n = rlx.rope %x, %c, %s {style = "neox"} : tensor<1x32x16x128xf32>, tensor<16x64xf32>
  // CHECK: %[[G:.+]] = rlx.rope %[[X]], %[[C]], %[[S]] {style = "gptj"} : tensor<1x32x16x128xf32>, tensor<16x64xf32>
  %g = rlx.rope %x, %c, %s {style = "gptj"} : tensor<1x32x16x128xf32>, tensor<16x64xf32>
  // CHECK: return %[[A]], %[[N]], %[[G]]
  return %a, %n, %g : tensor<1x32x16x128xf32>, tensor<1x32x16x128xf32>, tensor<1x32x16x128xf32>
}

// Dynamic dims and the other float types.
// CHECK-LABEL: func.func @rope_shapes_and_types
func.func @rope_shapes_and_types(%d: tensor<?x?x?x?xf32>, %cd: tensor<?x?xf32>,
                                 %e: tensor<2x4x?x8xf32>, %ce: tensor<6x4xf32>,
                                 %h: tensor<1x2x3x4xf16>, %ch: tensor<3x2xf16>,
                                 %bf: tensor<1x2x3x4xbf16>, %cbf: tensor<3x2xbf16>,
                                 %f64: tensor<1x2x3x4xf64>, %c64: tensor<3x2xf64>)
    -> (tensor<?x?x?x?xf32>, tensor<2x4x?x8xf32>, tensor<1x2x3x4xf16>, tensor<1x2x3x4xbf16>, tensor<1x2x3x4xf64>) {
  // CHECK: %[[A:.+]] = rlx.rope %{{.+}}, %{{.+}}, %{{.+}} : tensor<?x?x?x?xf32>, tensor<?x?xf32>
  %0 = rlx.rope %d, %cd, %cd : tensor<?x?x?x?xf32>, tensor<?x?xf32>
  // CHECK: %[[B:.+]] = rlx.rope %{{.+}}, %{{.+}}, %{{.+}} {style = "gptj"} : tensor<2x4x?x8xf32>, tensor<6x4xf32>
  %1 = rlx.rope %e, %ce, %ce {style = "gptj"} : tensor<2x4x?x8xf32>, tensor<6x4xf32>
  // CHECK: %[[C:.+]] = rlx.rope %{{.+}}, %{{.+}}, %{{.+}} : tensor<1x2x3x4xf16>, tensor<3x2xf16>
  %2 = rlx.rope %h, %ch, %ch : tensor<1x2x3x4xf16>, tensor<3x2xf16>
  // CHECK: %[[D:.+]] = rlx.rope %{{.+}}, %{{.+}}, %{{.+}} : tensor<1x2x3x4xbf16>, tensor<3x2xbf16>
  %3 = rlx.rope %bf, %cbf, %cbf : tensor<1x2x3x4xbf16>, tensor<3x2xbf16>
  // CHECK: %[[E:.+]] = rlx.rope %{{.+}}, %{{.+}}, %{{.+}} {style = "gptj"} : tensor<1x2x3x4xf64>, tensor<3x2xf64>
  %4 = rlx.rope %f64, %c64, %c64 {style = "gptj"} : tensor<1x2x3x4xf64>, tensor<3x2xf64>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]] : tensor<?x?x?x?xf32>, tensor<2x4x?x8xf32>, tensor<1x2x3x4xf16>, tensor<1x2x3x4xbf16>, tensor<1x2x3x4xf64>
  return %0, %1, %2, %3, %4 : tensor<?x?x?x?xf32>, tensor<2x4x?x8xf32>, tensor<1x2x3x4xf16>, tensor<1x2x3x4xbf16>, tensor<1x2x3x4xf64>
}
