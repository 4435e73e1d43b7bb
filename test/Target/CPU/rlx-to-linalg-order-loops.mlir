// RUN: rlx-opt %s -convert-rlx-to-linalg -rlx-cpu-order-loops -split-input-file | FileCheck %s

// A matmul's n loop is contiguous in rhs and the result, so it moves
// innermost: loops (m, k, n), the maps permuted to match.
// CHECK-DAG: #[[$LHS:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[$RHS:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[$OUT:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @matmul(
// CHECK-SAME:    %[[A:[^:]+]]: tensor<4x8xf32>, %[[B:[^:]+]]: tensor<8x5xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$LHS]], #[[$RHS]], #[[$OUT]]]
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:      ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x5xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>) -> tensor<4x5xf32> {
  %0 = rlx.matmul %a, %b : tensor<4x8xf32>, tensor<8x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// With a batch dim: loops (b, m, k, n).
// CHECK-DAG: #[[$LHS:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG: #[[$RHS:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
// CHECK-DAG: #[[$OUT:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-LABEL: func.func @batch_matmul(
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$LHS]], #[[$RHS]], #[[$OUT]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction", "parallel"]
func.func @batch_matmul(%a: tensor<2x4x8xf32>, %b: tensor<8x5xf32>) -> tensor<2x4x5xf32> {
  %0 = rlx.matmul %a, %b : tensor<2x4x8xf32>, tensor<8x5xf32>
  return %0 : tensor<2x4x5xf32>
}

// -----

// An elementwise op already has its last loop innermost: unchanged.
// CHECK-DAG: #[[$ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @add(
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID]], #[[$ROW]], #[[$ID]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%{{.+}}, %{{.+}} : tensor<4x8xf32>, tensor<8xf32>)
func.func @add(%x: tensor<4x8xf32>, %row: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = rlx.add %x, %row : tensor<4x8xf32>, tensor<8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Q K^T reads both operands along the head dim (the reduction) and no
// parallel loop is contiguous in both: the reduction stays innermost.
// CHECK-DAG: #[[$Q:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG: #[[$K:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
// CHECK-DAG: #[[$S:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @qk_transposed(
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$Q]], #[[$K]], #[[$S]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
func.func @qk_transposed(%q: tensor<2x4x16x64xf32>, %k: tensor<2x4x16x64xf32>) -> tensor<2x4x16x16xf32> {
  %0 = rlx.matmul %q, %k transpose_b true : tensor<2x4x16x64xf32>, tensor<2x4x16x64xf32>
  return %0 : tensor<2x4x16x16xf32>
}

// -----

// In attention the scores contraction (with its floordiv head map) keeps
// the reduction innermost; the probs x V contraction moves the value dim
// innermost: loops (b, h, i, j, e), so probs read (d0, d1, d2, d3), V
// (d0, d1 floordiv 4, d3, d4) and the result (d0, d1, d2, d4).
// CHECK-DAG: #[[$Q:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG: #[[$K:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 floordiv 4, d3, d4)>
// CHECK-DAG: #[[$S:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @attention(
// CHECK-SAME:    %[[Qa:[^:]+]]: tensor<2x8x16x64xf32>, %[[Ka:[^:]+]]: tensor<2x2x16x64xf32>, %[[Va:[^:]+]]: tensor<2x2x16x32xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$Q]], #[[$K]], #[[$S]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[Qa]], %[[Ka]] :
// CHECK:         linalg.generic {indexing_maps = [#[[$S]], #[[$K]], #[[$Q]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]
// CHECK-SAME:      ins(%{{.+}}, %[[Va]] :
func.func @attention(%q: tensor<2x8x16x64xf32>, %k: tensor<2x2x16x64xf32>, %v: tensor<2x2x16x32xf32>) -> tensor<2x8x16x32xf32> {
  %0 = rlx.attention %q, %k, %v mask = causal : tensor<2x8x16x64xf32>, tensor<2x2x16x64xf32>, tensor<2x2x16x32xf32>
  return %0 : tensor<2x8x16x32xf32>
}
