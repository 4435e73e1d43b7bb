// RUN: rlx-opt %s -convert-rlx-to-linalg -split-input-file | FileCheck %s
// The checks follow the order in which the lowering creates index and
// element ops: one op per statement, so the gcc-built and the clang-built
// (sanitizer) rlx-opt print the same (docs/Testing.md).

// layer_norm_backward: the forward's two row passes (sum, sum of squared
// deviations), one row pass for sum(g * xhat) and sum(g) (g = dy * gamma),
// the all-parallel d_input, then one pass reducing over the leading dims for
// d_gamma = sum(dy * xhat) and d_beta = sum(dy).
// CHECK-DAG: #[[$ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[$FEAT:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @layer_norm_backward(
// CHECK-SAME:    %[[DY:[^:]+]]: tensor<8x32xf32>, %[[X:[^:]+]]: tensor<8x32xf32>, %[[G:[^:]+]]: tensor<32xf32>
// CHECK:         %[[SUM:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%[[X]] : tensor<8x32xf32>)
// CHECK:         %[[SQ:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%[[X]], %[[SUM]] :
// CHECK:         %[[GS:.+]]:2 = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID]], #[[$ID]], #[[$FEAT]], #[[$ROW]], #[[$ROW]], #[[$ROW]], #[[$ROW]]]
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%[[DY]], %[[X]], %[[G]], %[[SUM]], %[[SQ]] :
// CHECK:           %[[GV:.+]] = arith.mulf
// CHECK:           math.rsqrt
// CHECK:           linalg.yield
// CHECK:         %[[DX:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%[[DY]], %[[X]], %[[G]], %[[SUM]], %[[SQ]], %[[GS]]#0, %[[GS]]#1 :
// CHECK:           math.rsqrt
// CHECK:         %[[P:.+]]:2 = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID]], #[[$ID]], #[[$ROW]], #[[$ROW]], #[[$FEAT]], #[[$FEAT]]]
// CHECK-SAME:      iterator_types = ["reduction", "parallel"]
// CHECK-SAME:      ins(%[[DY]], %[[X]], %[[SUM]], %[[SQ]] :
// CHECK:         } -> (tensor<32xf32>, tensor<32xf32>)
// CHECK:         return %[[DX]], %[[P]]#0, %[[P]]#1
func.func @layer_norm_backward(%dy: tensor<8x32xf32>, %x: tensor<8x32xf32>, %g: tensor<32xf32>) -> (tensor<8x32xf32>, tensor<32xf32>, tensor<32xf32>) {
  %dx, %dg, %db = rlx.layer_norm_backward %dy, %x, %g : tensor<8x32xf32>, tensor<32xf32>
  return %dx, %dg, %db : tensor<8x32xf32>, tensor<32xf32>, tensor<32xf32>
}

// -----

// rms_norm_backward of bf16 with a dynamic row count: no mean pass; the
// statistics and cotangents are f32, truncated to bf16 at the end; d_gamma
// is reduced over the rows in f32 and then truncated.
// CHECK-LABEL: func.func @rms_norm_backward_bf16(
// CHECK-SAME:    %[[DY:[^:]+]]: tensor<?x64xbf16>, %[[X:[^:]+]]: tensor<?x64xbf16>, %[[G:[^:]+]]: tensor<64xbf16>
// CHECK:         %[[SQ:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%[[X]] : tensor<?x64xbf16>) outs(%{{.+}} : tensor<?xf32>)
// CHECK:         %[[GS:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[DY]], %[[X]], %[[G]], %[[SQ]] :
// CHECK-SAME:      outs(%{{.+}} : tensor<?xf32>)
// CHECK:         %[[DX:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[DY]], %[[X]], %[[G]], %[[SQ]], %[[GS]] :
// CHECK:           arith.truncf %{{.+}} : f32 to bf16
// CHECK:         %[[DG32:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["reduction", "parallel"]
// CHECK-SAME:      outs(%{{.+}} : tensor<64xf32>)
// CHECK:         %[[DG:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[DG32]] : tensor<64xf32>) outs(%{{.+}} : tensor<64xbf16>)
// CHECK:         return %[[DX]], %[[DG]]
func.func @rms_norm_backward_bf16(%dy: tensor<?x64xbf16>, %x: tensor<?x64xbf16>, %g: tensor<64xbf16>) -> (tensor<?x64xbf16>, tensor<64xbf16>) {
  %dx, %dg = rlx.rms_norm_backward %dy, %x, %g : tensor<?x64xbf16>, tensor<64xbf16>
  return %dx, %dg : tensor<?x64xbf16>, tensor<64xbf16>
}

// -----

// attention_backward, 4 query heads over 2 kv heads, causal: P is
// recomputed as in the forward (scores, mask, max, sum, normalize), then
// dP = dO V^T (kv head h floordiv 2), D = rowsum(dO * O), dS = P (dP - D)
// scale, dQ = dS K, and per query head dK = dS^T Q and dV = P^T dO, whose
// heads pairs are summed through a [B, Hkv, 2, S, D] view.
// CHECK-DAG: #[[$Q:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG: #[[$KV:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 floordiv 2, d3, d4)>
// CHECK-DAG: #[[$OUT:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$KVT:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 floordiv 2, d4, d3)>
// CHECK-DAG: #[[$T1:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d2)>
// CHECK-DAG: #[[$T2:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
// CHECK-LABEL: func.func @attention_backward(
// CHECK-SAME:    %[[Q:[^:]+]]: tensor<1x4x8x16xf32>, %[[K:[^:]+]]: tensor<1x2x8x16xf32>, %[[V:[^:]+]]: tensor<1x2x8x16xf32>, %[[O:[^:]+]]: tensor<1x4x8x16xf32>, %[[DO:[^:]+]]: tensor<1x4x8x16xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[$Q]], #[[$KV]], #[[$OUT]]]
// CHECK-SAME:      ins(%[[Q]], %[[K]] :
// CHECK:         math.exp
// CHECK:         %[[P:.+]] = linalg.generic
// CHECK:           math.exp
// CHECK:           arith.divf
// CHECK:         %[[DP:.+]] = linalg.generic {indexing_maps = [#[[$Q]], #[[$KV]], #[[$OUT]]]
// CHECK-SAME:      ins(%[[DO]], %[[V]] :
// CHECK:         %[[D:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[DO]], %[[O]] :
// CHECK:         %[[DS:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[P]], %[[DP]], %[[D]] :
// CHECK:           %[[DIFF:.+]] = arith.subf
// CHECK:           %[[SCALE:.+]] = arith.constant 2.500000e-01 : f32
// CHECK:           %[[PD:.+]] = arith.mulf %{{.+}}, %[[DIFF]]
// CHECK:           arith.mulf %[[PD]], %[[SCALE]]
// CHECK:         %[[DQ:.+]] = linalg.generic {indexing_maps = [#[[$Q]], #[[$KVT]], #[[$OUT]]]
// CHECK-SAME:      ins(%[[DS]], %[[K]] :
// CHECK:         %[[DKH:.+]] = linalg.generic {indexing_maps = [#[[$T1]], #[[$T2]], #[[$OUT]]]
// CHECK-SAME:      ins(%[[DS]], %[[Q]] :
// CHECK:         %[[DVH:.+]] = linalg.generic {indexing_maps = [#[[$T1]], #[[$T2]], #[[$OUT]]]
// CHECK-SAME:      ins(%[[P]], %[[DO]] :
// CHECK:         %[[KE:.+]] = tensor.expand_shape %[[DKH]] {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 8, 16]
// CHECK:         %[[DK:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[KE]] : tensor<1x2x2x8x16xf32>)
// CHECK:         %[[VE:.+]] = tensor.expand_shape %[[DVH]]
// CHECK:         %[[DV:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[VE]] : tensor<1x2x2x8x16xf32>)
// CHECK:         return %[[DQ]], %[[DK]], %[[DV]]
func.func @attention_backward(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %o: tensor<1x4x8x16xf32>, %do: tensor<1x4x8x16xf32>) -> (tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) {
  %dq, %dk, %dv = rlx.attention_backward %q, %k, %v, %o, %do mask = causal : tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x4x8x16xf32>
  return %dq, %dk, %dv : tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
}

// -----

// conv2d_backward_input: the gather form of the transposed convolution (as
// rlx.conv_transpose2d), with the groups in the weight's map; the 9x9 result
// includes the last row and column that the stride-2 window never read.
// CHECK-DAG: #[[$WIN:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6)>
// CHECK-DAG: #[[$W:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> ((d1 floordiv 2) * 4 + d4, d1 mod 2, d5, d6)>
// CHECK-LABEL: func.func @conv2d_backward_input(
// CHECK-SAME:    %[[DY:[^:]+]]: tensor<1x8x4x4xf32>, %[[W:[^:]+]]: tensor<8x2x3x3xf32>
// CHECK:         %[[R:.+]] = linalg.generic {indexing_maps = [#[[$WIN]], #[[$W]], #{{[^]]+}}]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
// CHECK-SAME:      ins(%{{.+}}, %[[W]] : tensor<4x3x3xf32>, tensor<8x2x3x3xf32>) outs(%{{.+}} : tensor<1x4x9x9xf32>)
// CHECK:           arith.divsi
// CHECK:           tensor.extract %[[DY]]
// CHECK:         return %[[R]]
func.func @conv2d_backward_input(%dy: tensor<1x8x4x4xf32>, %w: tensor<8x2x3x3xf32>) -> tensor<1x4x9x9xf32> {
  %dx = rlx.conv2d_backward_input %dy, %w strides = [2, 2] groups = 2 : tensor<1x8x4x4xf32>, tensor<8x2x3x3xf32> -> tensor<1x4x9x9xf32>
  return %dx : tensor<1x4x9x9xf32>
}

// -----

// conv2d_backward_weight: the padded input and d_result contracted over
// (n, oy, ox), the input read at the output position times the stride plus
// the kernel position, in the channel of the output channel's group.
// CHECK-DAG: #[[$X:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, (d0 floordiv 4) * 2 + d1, d5 * 2 + d2, d6 * 2 + d3)>
// CHECK-DAG: #[[$DY:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d0, d5, d6)>
// CHECK-DAG: #[[$OUT:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv2d_backward_weight(
// CHECK-SAME:    %[[DY:[^:]+]]: tensor<1x8x5x5xf32>, %[[X:[^:]+]]: tensor<1x4x9x9xf32>
// CHECK:         %[[PAD:.+]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:         %[[R:.+]] = linalg.generic {indexing_maps = [#[[$X]], #[[$DY]], #[[$OUT]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
// CHECK-SAME:      ins(%[[PAD]], %[[DY]] : tensor<1x4x11x11xf32>, tensor<1x8x5x5xf32>) outs(%{{.+}} : tensor<8x2x3x3xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         return %[[R]]
func.func @conv2d_backward_weight(%dy: tensor<1x8x5x5xf32>, %x: tensor<1x4x9x9xf32>) -> tensor<8x2x3x3xf32> {
  %dw = rlx.conv2d_backward_weight %dy, %x strides = [2, 2] padding = [1, 1, 1, 1] groups = 2 : tensor<1x8x5x5xf32>, tensor<1x4x9x9xf32> -> tensor<8x2x3x3xf32>
  return %dw : tensor<8x2x3x3xf32>
}

// -----

// softmax_cross_entropy_backward: the forward's row max and sum of exp,
// then (softmax - (class == label)) * d_loss / N in one generic reading the
// labels per row and d_loss through a rank-0 map.
// CHECK-DAG: #[[$ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[$SCALAR:map[0-9]*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @softmax_cross_entropy_backward(
// CHECK-SAME:    %[[L:[^:]+]]: tensor<8x10xf32>, %[[Y:[^:]+]]: tensor<8xi64>, %[[G:[^:]+]]: tensor<f32>
// CHECK:         %[[MAX:.+]] = linalg.generic
// CHECK:           arith.maxnumf
// CHECK:         %[[SUM:.+]] = linalg.generic
// CHECK:           math.exp
// CHECK:         %[[N:.+]] = arith.sitofp %{{.+}} : i64 to f32
// CHECK:         %[[R:.+]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ROW]], #[[$ROW]], #[[$ROW]], #[[$SCALAR]], #[[$ID]]]
// CHECK-SAME:      ins(%[[L]], %[[MAX]], %[[SUM]], %[[Y]], %[[G]] :
// CHECK:         ^bb0(%[[X:.+]]: f32, %[[M:.+]]: f32, %[[S:.+]]: f32, %[[LBL:.+]]: i64, %[[DL:.+]]: f32, %{{.+}}: f32):
// CHECK:           %[[E:.+]] = math.exp
// CHECK:           %[[P:.+]] = arith.divf %[[E]], %[[S]] : f32
// CHECK:           %[[C:.+]] = arith.index_cast %[[LBL]] : i64 to index
// CHECK:           %[[J:.+]] = linalg.index 1 : index
// CHECK:           %[[HIT:.+]] = arith.cmpi eq, %[[J]], %[[C]] : index
// CHECK:           %[[PM1:.+]] = arith.subf %[[P]], %{{.+}} : f32
// CHECK:           %[[SEL:.+]] = arith.select %[[HIT]], %[[PM1]], %[[P]] : f32
// CHECK:           %[[T:.+]] = arith.mulf %[[SEL]], %[[DL]] : f32
// CHECK:           %[[OUT:.+]] = arith.divf %[[T]], %[[N]] : f32
// CHECK:           linalg.yield %[[OUT]] : f32
// CHECK:         return %[[R]]
func.func @softmax_cross_entropy_backward(%l: tensor<8x10xf32>, %y: tensor<8xi64>, %g: tensor<f32>) -> tensor<8x10xf32> {
  %d = rlx.softmax_cross_entropy_backward %l, %y, %g : tensor<8x10xf32>, tensor<8xi64>, tensor<f32>
  return %d : tensor<8x10xf32>
}
