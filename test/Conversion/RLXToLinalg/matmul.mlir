// RUN: rlx-opt %s -convert-rlx-to-linalg -split-input-file | FileCheck %s

// A 2-D matmul is one contraction generic over (m, n, k): k is the one
// reduction loop, the accumulator is zero-filled.
// CHECK-DAG: #[[$LHS:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$RHS:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[$OUT:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @matmul(
// CHECK-SAME:    %[[A:[^:]+]]: tensor<4x8xf32>, %[[B:[^:]+]]: tensor<8x5xf32>
// CHECK:         %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[EMPTY:.+]] = tensor.empty() : tensor<4x5xf32>
// CHECK:         %[[INIT:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<4x5xf32>)
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$LHS]], #[[$RHS]], #[[$OUT]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x5xf32>) outs(%[[INIT]] : tensor<4x5xf32>)
// CHECK:         ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK:           %[[P:.+]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK:           %[[S:.+]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK:           linalg.yield %[[S]] : f32
// CHECK:         return %[[R]]
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>) -> tensor<4x5xf32> {
  %0 = rlx.matmul %a, %b : tensor<4x8xf32>, tensor<8x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// Transposes are in the maps: transpose_a reads lhs as (k, m), transpose_b
// reads rhs as (n, k); no transposed copy is made.
// CHECK-DAG: #[[$LHS_T:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[$RHS_T:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[$LHS:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$RHS:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[$OUT:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @matmul_transposes(
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$LHS_T]], #[[$RHS_T]], #[[$OUT]]]
// CHECK-SAME:      outs(%{{.+}} : tensor<4x5xf32>)
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$LHS_T]], #[[$RHS]], #[[$OUT]]]
// CHECK-SAME:      outs(%{{.+}} : tensor<4x4xf32>)
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$LHS]], #[[$RHS_T]], #[[$OUT]]]
// CHECK-SAME:      outs(%{{.+}} : tensor<5x5xf32>)
// CHECK-NOT:     linalg.transpose
func.func @matmul_transposes(%a: tensor<8x4xf32>, %b: tensor<5x8xf32>)
    -> (tensor<4x5xf32>, tensor<4x4xf32>, tensor<5x5xf32>) {
  %0 = rlx.matmul %a, %b transpose_a true transpose_b true : tensor<8x4xf32>, tensor<5x8xf32>
  %1 = rlx.matmul %a, %a transpose_a true : tensor<8x4xf32>, tensor<8x4xf32>
  %2 = rlx.matmul %b, %b transpose_b true : tensor<5x8xf32>, tensor<5x8xf32>
  return %0, %1, %2 : tensor<4x5xf32>, tensor<4x4xf32>, tensor<5x5xf32>
}

// -----

// Q K^T with batch dims: loops (b, h, m, n, k), both operands read k last.
// CHECK-DAG: #[[$Q:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG: #[[$K:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
// CHECK-DAG: #[[$S:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @qk(
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$Q]], #[[$K]], #[[$S]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
func.func @qk(%q: tensor<2x4x16x64xf32>, %k: tensor<2x4x16x64xf32>) -> tensor<2x4x16x16xf32> {
  %0 = rlx.matmul %q, %k transpose_b true : tensor<2x4x16x64xf32>, tensor<2x4x16x64xf32>
  return %0 : tensor<2x4x16x16xf32>
}

// -----

// Batch dims broadcast in the maps: lhs's size-1 batch dim reads 0, rhs's
// missing leading batch dim is dropped. bf16 accumulates in f32 and is
// truncated by a separate elementwise generic.
// CHECK-DAG: #[[$LHS:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, 0, d2, d4)>
// CHECK-DAG: #[[$RHS:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d3)>
// CHECK-DAG: #[[$OUT:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @batch_broadcast_bf16(
// CHECK:         %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[INIT:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.+}} : tensor<2x3x4x5xf32>)
// CHECK:         %[[ACC:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$LHS]], #[[$RHS]], #[[$OUT]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      outs(%[[INIT]] : tensor<2x3x4x5xf32>)
// CHECK:         ^bb0(%[[X:.+]]: bf16, %[[Y:.+]]: bf16, %[[A:.+]]: f32):
// CHECK-DAG:       %[[WX:.+]] = arith.extf %[[X]] : bf16 to f32
// CHECK-DAG:       %[[WY:.+]] = arith.extf %[[Y]] : bf16 to f32
// CHECK:           %[[P:.+]] = arith.mulf %[[WX]], %[[WY]] : f32
// CHECK:           arith.addf %[[A]], %[[P]] : f32
// CHECK:         } -> tensor<2x3x4x5xf32>
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[ACC]] : tensor<2x3x4x5xf32>)
// CHECK:           arith.truncf %{{.+}} : f32 to bf16
// CHECK:         return %[[R]] : tensor<2x3x4x5xbf16>
func.func @batch_broadcast_bf16(%a: tensor<2x1x4x8xbf16>, %b: tensor<3x8x5xbf16>) -> tensor<2x3x4x5xbf16> {
  %0 = rlx.matmul %a, %b : tensor<2x1x4x8xbf16>, tensor<3x8x5xbf16>
  return %0 : tensor<2x3x4x5xbf16>
}

// -----

// A size-1 batch dim broadcasts against a dynamic one, which sizes the
// result.
// CHECK-DAG: #[[$LHS:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (0, d1, d3)>
// CHECK-DAG: #[[$RHS:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-LABEL: func.func @dynamic_batch_broadcast(
// CHECK-SAME:    %{{[^:]+}}: tensor<1x4x8xf32>, %[[B:[^:]+]]: tensor<?x8x5xf32>
// CHECK:         %[[DIM:.+]] = tensor.dim %[[B]], %{{.+}} : tensor<?x8x5xf32>
// CHECK:         tensor.empty(%[[DIM]]) : tensor<?x4x5xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$LHS]], #[[$RHS]], #{{.+}}]
func.func @dynamic_batch_broadcast(%a: tensor<1x4x8xf32>, %b: tensor<?x8x5xf32>) -> tensor<?x4x5xf32> {
  %0 = rlx.matmul %a, %b : tensor<1x4x8xf32>, tensor<?x8x5xf32>
  return %0 : tensor<?x4x5xf32>
}

// -----

// Dynamic dims: batch and M from lhs, N from rhs.
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME:    %[[A:[^:]+]]: tensor<?x?x8xf32>, %[[B:[^:]+]]: tensor<8x?xf32>
// CHECK:         %[[C0:.+]] = arith.constant 0 : index
// CHECK:         %[[BATCH:.+]] = tensor.dim %[[A]], %[[C0]] : tensor<?x?x8xf32>
// CHECK:         %[[C1:.+]] = arith.constant 1 : index
// CHECK:         %[[M:.+]] = tensor.dim %[[A]], %[[C1]] : tensor<?x?x8xf32>
// CHECK:         %[[C1B:.+]] = arith.constant 1 : index
// CHECK:         %[[N:.+]] = tensor.dim %[[B]], %[[C1B]] : tensor<8x?xf32>
// CHECK:         %[[EMPTY:.+]] = tensor.empty(%[[BATCH]], %[[M]], %[[N]]) : tensor<?x?x?xf32>
// CHECK:         linalg.fill ins(%{{.+}} : f32) outs(%[[EMPTY]] : tensor<?x?x?xf32>)
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction"]
func.func @dynamic(%a: tensor<?x?x8xf32>, %b: tensor<8x?xf32>) -> tensor<?x?x?xf32> {
  %0 = rlx.matmul %a, %b : tensor<?x?x8xf32>, tensor<8x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// -----

// Transposed dynamic operands: M is lhs's last dim, N rhs's first.
// CHECK-LABEL: func.func @dynamic_transposed(
// CHECK-SAME:    %[[A:[^:]+]]: tensor<8x?xf32>, %[[B:[^:]+]]: tensor<?x8xf32>
// CHECK:         %[[C1:.+]] = arith.constant 1 : index
// CHECK:         %[[M:.+]] = tensor.dim %[[A]], %[[C1]] : tensor<8x?xf32>
// CHECK:         %[[C0:.+]] = arith.constant 0 : index
// CHECK:         %[[N:.+]] = tensor.dim %[[B]], %[[C0]] : tensor<?x8xf32>
// CHECK:         tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32>
func.func @dynamic_transposed(%a: tensor<8x?xf32>, %b: tensor<?x8xf32>) -> tensor<?x?xf32> {
  %0 = rlx.matmul %a, %b transpose_a true transpose_b true : tensor<8x?xf32>, tensor<?x8xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Integers multiply-add with muli / addi in their own type; complex with
// complex.mul / complex.add from a complex zero.
// CHECK-LABEL: func.func @int_complex(
// CHECK:         %[[IZ:.+]] = arith.constant 0 : i32
// CHECK:         linalg.fill ins(%[[IZ]] : i32)
// CHECK:         linalg.generic
// CHECK:         ^bb0(%[[X:.+]]: i32, %[[Y:.+]]: i32, %[[A:.+]]: i32):
// CHECK:           %[[P:.+]] = arith.muli %[[X]], %[[Y]] : i32
// CHECK:           arith.addi %[[A]], %[[P]] : i32
// CHECK:         %[[CZ:.+]] = complex.constant [0.000000e+00 : f32, 0.000000e+00 : f32] : complex<f32>
// CHECK:         linalg.fill ins(%[[CZ]] : complex<f32>)
// CHECK:         linalg.generic
// CHECK:         ^bb0(%[[CX:.+]]: complex<f32>, %[[CY:.+]]: complex<f32>, %[[CA:.+]]: complex<f32>):
// CHECK:           %[[CP:.+]] = complex.mul %[[CX]], %[[CY]] : complex<f32>
// CHECK:           complex.add %[[CA]], %[[CP]] : complex<f32>
func.func @int_complex(%a: tensor<4x8xi32>, %b: tensor<8x5xi32>, %c: tensor<4x8xcomplex<f32>>, %d: tensor<8x5xcomplex<f32>>)
    -> (tensor<4x5xi32>, tensor<4x5xcomplex<f32>>) {
  %0 = rlx.matmul %a, %b : tensor<4x8xi32>, tensor<8x5xi32>
  %1 = rlx.matmul %c, %d : tensor<4x8xcomplex<f32>>, tensor<8x5xcomplex<f32>>
  return %0, %1 : tensor<4x5xi32>, tensor<4x5xcomplex<f32>>
}
