// RUN: rlx-opt %s -convert-rlx-to-linalg -split-input-file | FileCheck %s
// The checks follow the order in which the lowering creates index and
// element ops: one op per statement, so the gcc-built and the clang-built
// (sanitizer) rlx-opt print the same (docs/Testing.md).

// layer_norm: a row sum (the mean), a row sum of squared deviations, then
// an all-parallel generic computing (x - mean) * rsqrt(var + eps) * gamma +
// beta, with gamma and beta read along the last dim.
// CHECK-DAG: #[[$ID:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$ROW:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[$FEAT:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-LABEL: func.func @layer_norm(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<8x16x32xf32>, %[[G:[^:]+]]: tensor<32xf32>, %[[B:[^:]+]]: tensor<32xf32>
// CHECK:         %[[N:.+]] = arith.sitofp %{{.+}} : i64 to f32
// CHECK:         %[[SUM:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID]], #[[$ROW]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[X]] : tensor<8x16x32xf32>)
// CHECK:           arith.addf
// CHECK:         %[[SQ:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID]], #[[$ROW]], #[[$ROW]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[X]], %[[SUM]] :
// CHECK:         ^bb0(%[[V:.+]]: f32, %[[S:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK:           %[[MEAN:.+]] = arith.divf %[[S]], %[[N]] : f32
// CHECK:           %[[DEV:.+]] = arith.subf %[[V]], %[[MEAN]] : f32
// CHECK:           %[[DEV2:.+]] = arith.mulf %[[DEV]], %[[DEV]] : f32
// CHECK:           arith.addf %[[ACC]], %[[DEV2]] : f32
// CHECK:         %[[EPS:.+]] = arith.constant 9.99999996E-13 : f32
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID]], #[[$ROW]], #[[$FEAT]], #[[$ROW]], #[[$FEAT]], #[[$ID]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[X]], %[[SQ]], %[[G]], %[[SUM]], %[[B]] :
// CHECK:         ^bb0(%[[XV:.+]]: f32, %[[SQV:.+]]: f32, %[[GV:.+]]: f32, %[[SV:.+]]: f32, %[[BV:.+]]: f32, %{{.+}}: f32):
// CHECK:           %[[VAR:.+]] = arith.divf %[[SQV]], %[[N]] : f32
// CHECK:           %[[VE:.+]] = arith.addf %[[VAR]], %[[EPS]] : f32
// CHECK:           %[[INV:.+]] = math.rsqrt %[[VE]] : f32
// CHECK:           %[[M:.+]] = arith.divf %[[SV]], %[[N]] : f32
// CHECK:           %[[C:.+]] = arith.subf %[[XV]], %[[M]] : f32
// CHECK:           %[[NORM:.+]] = arith.mulf %[[C]], %[[INV]] : f32
// CHECK:           %[[SC:.+]] = arith.mulf %[[NORM]], %[[GV]] : f32
// CHECK:           %[[Y:.+]] = arith.addf %[[SC]], %[[BV]] : f32
// CHECK:           linalg.yield %[[Y]] : f32
// CHECK:         return %[[R]]
func.func @layer_norm(%x: tensor<8x16x32xf32>, %g: tensor<32xf32>, %b: tensor<32xf32>) -> tensor<8x16x32xf32> {
  %0 = rlx.layer_norm %x, %g, %b {epsilon = 1.0e-12 : f32} : tensor<8x16x32xf32>, tensor<32xf32>
  return %0 : tensor<8x16x32xf32>
}

// -----

// rms_norm of bf16: one sum of squares in f32 (no mean), then
// x * rsqrt(ms + eps) * gamma in f32, truncated to bf16; the dynamic batch
// dim sizes both tensors.
// CHECK-DAG: #[[$FEAT:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-LABEL: func.func @rms_norm_bf16(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<?x16x64xbf16>, %[[G:[^:]+]]: tensor<64xbf16>
// CHECK:         %[[D:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x16x64xbf16>
// CHECK:         %[[E:.+]] = tensor.empty(%[[D]]) : tensor<?x16xf32>
// CHECK:         %[[SQ:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[X]] : tensor<?x16x64xbf16>) outs(%{{.+}} : tensor<?x16xf32>)
// CHECK:         ^bb0(%[[IN:.+]]: bf16, %[[ACC:.+]]: f32):
// CHECK:           %[[W:.+]] = arith.extf %[[IN]] : bf16 to f32
// CHECK:           %[[W2:.+]] = arith.mulf %[[W]], %[[W]] : f32
// CHECK:           arith.addf %[[ACC]], %[[W2]] : f32
// CHECK-NOT:     linalg.generic
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#{{.+}}, #{{.+}}, #[[$FEAT]], #{{.+}}]
// CHECK-SAME:      ins(%[[X]], %[[SQ]], %[[G]] : tensor<?x16x64xbf16>, tensor<?x16xf32>, tensor<64xbf16>)
// CHECK:           arith.extf %{{.+}} : bf16 to f32
// CHECK:           math.rsqrt %{{.+}} : f32
// CHECK:           %[[Y:.+]] = arith.truncf %{{.+}} : f32 to bf16
// CHECK:           linalg.yield %[[Y]] : bf16
// CHECK:         return %[[R]]
func.func @rms_norm_bf16(%x: tensor<?x16x64xbf16>, %g: tensor<64xbf16>) -> tensor<?x16x64xbf16> {
  %0 = rlx.rms_norm %x, %g : tensor<?x16x64xbf16>, tensor<64xbf16>
  return %0 : tensor<?x16x64xbf16>
}

// -----

// attention with 8 query heads over 2 kv heads: k and v are read at head
// h floordiv 4. Scores reduce over the head dim (d4); the causal mask
// compares linalg.index 3 (key) with linalg.index 2 (query) + (Skv - S);
// the output contraction runs over the keys as d4.
// CHECK-DAG: #[[$Q:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG: #[[$K:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 floordiv 4, d3, d4)>
// CHECK-DAG: #[[$S:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$V:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 floordiv 4, d4, d3)>
// CHECK-DAG: #[[$ID4:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$ROW:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @attention_gqa_causal(
// CHECK-SAME:    %[[Qa:[^:]+]]: tensor<2x8x16x64xf32>, %[[Ka:[^:]+]]: tensor<2x2x16x64xf32>, %[[Va:[^:]+]]: tensor<2x2x16x32xf32>
// CHECK:         %[[SCORES:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$Q]], #[[$K]], #[[$S]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[Qa]], %[[Ka]] :
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         %[[OFF:.+]] = arith.subi %{{.+}}, %{{.+}} : index
// CHECK:         %[[MASKED:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID4]], #[[$ID4]]]
// CHECK-SAME:      ins(%[[SCORES]] :
// CHECK:           %[[SCALE:.+]] = arith.constant 1.250000e-01 : f32
// CHECK:           %[[SC:.+]] = arith.mulf %{{.+}}, %[[SCALE]] : f32
// CHECK:           %[[NINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK:           %[[I:.+]] = linalg.index 2 : index
// CHECK:           %[[J:.+]] = linalg.index 3 : index
// CHECK:           %[[DIAG:.+]] = arith.addi %[[I]], %[[OFF]] : index
// CHECK:           %[[VIS:.+]] = arith.cmpi sle, %[[J]], %[[DIAG]] : index
// CHECK:           %[[SEL:.+]] = arith.select %[[VIS]], %[[SC]], %[[NINF]] : f32
// CHECK:           linalg.yield %[[SEL]] : f32
// CHECK:         %[[MAX:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID4]], #[[$ROW]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK:         %[[SUM:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[MASKED]], %[[MAX]] :
// CHECK:         %[[PROBS:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[MASKED]], %[[MAX]], %[[SUM]] :
// CHECK:           math.exp
// CHECK:           arith.divf
// CHECK:         %[[OUT:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$Q]], #[[$V]], #[[$S]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[PROBS]], %[[Va]] :
// CHECK:         return %[[OUT]] : tensor<2x8x16x32xf32>
func.func @attention_gqa_causal(%q: tensor<2x8x16x64xf32>, %k: tensor<2x2x16x64xf32>, %v: tensor<2x2x16x32xf32>) -> tensor<2x8x16x32xf32> {
  %0 = rlx.attention %q, %k, %v mask = causal : tensor<2x8x16x64xf32>, tensor<2x2x16x64xf32>, tensor<2x2x16x32xf32>
  return %0 : tensor<2x8x16x32xf32>
}

// -----

// attention of f16 with a bias that broadcasts over heads: scores in f32,
// the bias read at head 0 and added after the explicit scale; without
// grouping no floordiv; the f32 result is truncated to f16.
// CHECK-DAG: #[[$K:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
// CHECK-DAG: #[[$V:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
// CHECK-DAG: #[[$BIAS:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
// CHECK-LABEL: func.func @attention_bias_f16(
// CHECK-SAME:    %[[Qa:[^:]+]]: tensor<1x4x8x16xf16>, %[[Ba:[^:]+]]: tensor<1x1x8x8xf16>
// CHECK:         %[[SCORES:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#{{.+}}, #[[$K]], #{{.+}}]
// CHECK-SAME:      outs(%{{.+}} : tensor<1x4x8x8xf32>)
// CHECK:           arith.extf %{{.+}} : f16 to f32
// CHECK:           arith.extf %{{.+}} : f16 to f32
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#{{.+}}, #[[$BIAS]], #{{.+}}]
// CHECK-SAME:      ins(%[[SCORES]], %[[Ba]] : tensor<1x4x8x8xf32>, tensor<1x1x8x8xf16>)
// CHECK:         ^bb0(%[[S:.+]]: f32, %[[BV:.+]]: f16, %{{.+}}: f32):
// CHECK:           %[[SCALE:.+]] = arith.constant 5.000000e-01 : f32
// CHECK:           %[[SC:.+]] = arith.mulf %[[S]], %[[SCALE]] : f32
// CHECK:           %[[BW:.+]] = arith.extf %[[BV]] : f16 to f32
// CHECK:           %[[Y:.+]] = arith.addf %[[SC]], %[[BW]] : f32
// CHECK:           linalg.yield %[[Y]] : f32
// CHECK:         %[[OUT:.+]] = linalg.generic {indexing_maps = [#{{[a-z0-9]+}}, #[[$V]], #{{[a-z0-9]+}}]
// CHECK-SAME:      outs(%{{.+}} : tensor<1x4x8x16xf32>)
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[OUT]] : tensor<1x4x8x16xf32>)
// CHECK:           arith.truncf %{{.+}} : f32 to f16
// CHECK:         return %[[R]] : tensor<1x4x8x16xf16>
func.func @attention_bias_f16(%q: tensor<1x4x8x16xf16>, %b: tensor<1x1x8x8xf16>) -> tensor<1x4x8x16xf16> {
  %0 = rlx.attention %q, %q, %q, %b mask = bias {scale = 0.5 : f32} : tensor<1x4x8x16xf16>, tensor<1x4x8x16xf16>, tensor<1x4x8x16xf16>, tensor<1x1x8x8xf16>
  return %0 : tensor<1x4x8x16xf16>
}

// -----

// A custom i1 mask of [S, Skv] is read through its broadcast map and
// selects between the scaled score (default scale 1/sqrt(16)) and -inf.
// CHECK-DAG: #[[$MASK:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
// CHECK-LABEL: func.func @attention_custom(
// CHECK-SAME:    %{{[^:]+}}: tensor<1x4x8x16xf32>, %[[M:[^:]+]]: tensor<8x8xi1>
// CHECK:         linalg.generic {indexing_maps = [#{{[a-z0-9]+}}, #[[$MASK]], #{{[a-z0-9]+}}]
// CHECK-SAME:      ins(%{{.+}}, %[[M]] : tensor<1x4x8x8xf32>, tensor<8x8xi1>)
// CHECK:         ^bb0(%[[S:.+]]: f32, %[[P:.+]]: i1, %{{.+}}: f32):
// CHECK:           %[[SCALE:.+]] = arith.constant 2.500000e-01 : f32
// CHECK:           %[[SC:.+]] = arith.mulf %[[S]], %[[SCALE]] : f32
// CHECK:           %[[NINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK:           arith.select %[[P]], %[[SC]], %[[NINF]] : f32
func.func @attention_custom(%q: tensor<1x4x8x16xf32>, %m: tensor<8x8xi1>) -> tensor<1x4x8x16xf32> {
  %0 = rlx.attention %q, %q, %q, %m mask = custom : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<8x8xi1>
  return %0 : tensor<1x4x8x16xf32>
}

// -----

// A sliding window also requires key > diagonal - window.
// CHECK-LABEL: func.func @attention_sliding_window(
// CHECK:           %[[I:.+]] = linalg.index 2 : index
// CHECK:           %[[J:.+]] = linalg.index 3 : index
// CHECK:           %[[DIAG:.+]] = arith.addi %[[I]], %{{.+}} : index
// CHECK:           %[[CAUSAL:.+]] = arith.cmpi sle, %[[J]], %[[DIAG]] : index
// CHECK:           %[[W:.+]] = arith.constant 3 : index
// CHECK:           %[[LO:.+]] = arith.subi %[[DIAG]], %[[W]] : index
// CHECK:           %[[IN:.+]] = arith.cmpi sgt, %[[J]], %[[LO]] : index
// CHECK:           %[[VIS:.+]] = arith.andi %[[CAUSAL]], %[[IN]] : i1
// CHECK:           arith.select %[[VIS]], %{{.+}}, %{{.+}} : f32
func.func @attention_sliding_window(%q: tensor<1x4x8x16xf32>) -> tensor<1x4x8x16xf32> {
  %0 = rlx.attention %q, %q, %q mask = sliding_window window = 3 : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>
  return %0 : tensor<1x4x8x16xf32>
}

// -----

// Dynamic batch and sequence dims: scores are sized B and S from q and Skv
// from k, the causal offset is Skv - S from the dims, the output's dims
// come from q.
// CHECK-LABEL: func.func @attention_dynamic(
// CHECK-SAME:    %[[Qa:[^:]+]]: tensor<?x4x?x16xf32>, %[[Ka:[^:]+]]: tensor<?x4x?x16xf32>, %{{[^:]+}}: tensor<?x4x?x8xf32>
// CHECK:         %[[B:.+]] = tensor.dim %[[Qa]], %{{.+}} : tensor<?x4x?x16xf32>
// CHECK:         %[[S:.+]] = tensor.dim %[[Qa]], %{{.+}} : tensor<?x4x?x16xf32>
// CHECK:         %[[SKV:.+]] = tensor.dim %[[Ka]], %{{.+}} : tensor<?x4x?x16xf32>
// CHECK:         tensor.empty(%[[B]], %[[S]], %[[SKV]]) : tensor<?x4x?x?xf32>
// CHECK:         %[[S2:.+]] = tensor.dim %[[Qa]], %{{.+}} : tensor<?x4x?x16xf32>
// CHECK:         %[[SKV2:.+]] = tensor.dim %[[Ka]], %{{.+}} : tensor<?x4x?x16xf32>
// CHECK:         arith.subi %[[SKV2]], %[[S2]] : index
// CHECK:         %[[OB:.+]] = tensor.dim %[[Qa]], %{{.+}} : tensor<?x4x?x16xf32>
// CHECK:         %[[OS:.+]] = tensor.dim %[[Qa]], %{{.+}} : tensor<?x4x?x16xf32>
// CHECK:         tensor.empty(%[[OB]], %[[OS]]) : tensor<?x4x?x8xf32>
func.func @attention_dynamic(%q: tensor<?x4x?x16xf32>, %k: tensor<?x4x?x16xf32>, %v: tensor<?x4x?x8xf32>) -> tensor<?x4x?x8xf32> {
  %0 = rlx.attention %q, %k, %v mask = causal : tensor<?x4x?x16xf32>, tensor<?x4x?x16xf32>, tensor<?x4x?x8xf32>
  return %0 : tensor<?x4x?x8xf32>
}

// -----

// conv_transpose2d gathers: each output element reduces over (ci, ky, kx),
// fixed by an unread window tensor, and reads the input with
// tensor.extract where (o + lo - k d) divides by the stride.
// CHECK-LABEL: func.func @conv_transpose2d(
// CHECK:         %[[WIN:.+]] = tensor.empty() : tensor<2x3x3xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
// CHECK-SAME:      ins(%[[WIN]], %{{.+}} : tensor<2x3x3xf32>, tensor<4x3x3x3xf32>)
// CHECK:           arith.divsi
// CHECK:           tensor.extract
func.func @conv_transpose2d(%x: tensor<2x4x5x6xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x6x11x12xf32> {
  %0 = rlx.conv_transpose2d %x, %w strides = [2, 2] padding = [1, 0, 1, 1] output_padding = [1, 1] groups = 2 : tensor<2x4x5x6xf32>, tensor<4x3x3x3xf32>
  return %0 : tensor<2x6x11x12xf32>
}

// -----

// group_norm over a dynamic batch and spatial dim: the [N, G, K] view
// splits the (static) channels into groups, then merges each group's
// channels with the spatial dims; K is counted at run time.
// CHECK-LABEL: func.func @group_norm_dynamic(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<?x8x?x5xf32>
// CHECK:         %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x8x?x5xf32>
// CHECK:         %[[H:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x8x?x5xf32>
// CHECK:         %[[G:.+]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2], [3], [4]] output_shape [%[[N]], 4, 2, %[[H]], 5] : tensor<?x8x?x5xf32> into tensor<?x4x2x?x5xf32>
// CHECK:         %[[V:.+]] = tensor.collapse_shape %[[G]] {{\[}}[0], [1], [2, 3, 4]] : tensor<?x4x2x?x5xf32> into tensor<?x4x?xf32>
// CHECK:         %[[K:.+]] = tensor.dim %[[V]], %{{.+}} : tensor<?x4x?xf32>
// CHECK:         arith.sitofp
// CHECK-COUNT-3: linalg.generic
// CHECK:         return
func.func @group_norm_dynamic(%x: tensor<?x8x?x5xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<?x8x?x5xf32> {
  %0 = rlx.group_norm %x, %g, %b {num_groups = 4 : i64} : tensor<?x8x?x5xf32>, tensor<8xf32>
  return %0 : tensor<?x8x?x5xf32>
}
