// RUN: rlx-opt %s -convert-rlx-to-linalg -split-input-file | FileCheck %s

// W = [A | B] is built with two insert_slices. An scf.for over the pivot
// columns 0 .. n-2 carries W: an argmax reduction over column j from row j
// down (pivot value and offset), then one generic that swaps the pivot row
// into row j and eliminates below it, reading W by coordinates. A second
// scf.for solves X from the last row up: W's row i times X (a matmul of one
// row), then (rhs - that) / diagonal, inserted as row i of X.
// CHECK-LABEL: func.func @dense_solve(
// CHECK-SAME:    %[[A:[^:]+]]: tensor<3x3xf64>, %[[B:[^:]+]]: tensor<3x2xf64>
// CHECK:         %[[N:.+]] = arith.constant 3 : index
// CHECK:         %[[EMPTY:.+]] = tensor.empty() : tensor<3x5xf64>
// CHECK:         %[[WA:.+]] = tensor.insert_slice %[[A]] into %[[EMPTY]][0, 0] [3, 3] [1, 1]
// CHECK:         %[[W0:.+]] = tensor.insert_slice %[[B]] into %[[WA]][0, %[[N]]] [3, 2] [1, 1]
// CHECK:         %[[C0:.+]] = arith.constant 0 : index
// CHECK:         %[[C1:.+]] = arith.constant 1 : index
// CHECK:         %[[LAST:.+]] = arith.subi %[[N]], %[[C1]] : index
// CHECK:         %[[W:.+]] = scf.for %[[J:[^ ]+]] = %[[C0]] to %[[LAST]] step %[[C1]] iter_args(%[[WJ:[^ ]+]] = %[[W0]]) -> (tensor<3x5xf64>) {
// CHECK:           %[[ROWS:.+]] = arith.subi %[[N]], %[[J]] : index
// CHECK:           %[[COL:.+]] = tensor.extract_slice %[[WJ]][%[[J]], %[[J]]] [%[[ROWS]], 1] [1, 1] : tensor<3x5xf64> to tensor<?x1xf64>
// CHECK:           %[[PIV:[^:]+]]:2 = linalg.generic
// CHECK-SAME:        iterator_types = ["reduction"]
// CHECK-SAME:        ins(%[[COL]] : tensor<?x1xf64>) outs({{.+}} : tensor<f64>, tensor<index>)
// CHECK:             math.absf
// CHECK:             math.absf
// CHECK:             arith.cmpf ogt
// CHECK:           } -> (tensor<f64>, tensor<index>)
// CHECK:           %[[NEXT:.+]] = linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "parallel"]
// CHECK-SAME:        ins(%[[PIV]]#0, %[[PIV]]#1 : tensor<f64>, tensor<index>)
// CHECK:             tensor.extract %[[WJ]]
// CHECK:             arith.divf
// CHECK:             arith.subf
// CHECK:             arith.cmpi ugt
// CHECK:           } -> tensor<3x5xf64>
// CHECK:           scf.yield %[[NEXT]] : tensor<3x5xf64>
// CHECK:         }
// CHECK:         %[[X0:.+]] = linalg.fill {{.+}} -> tensor<3x2xf64>
// CHECK:         %[[X:.+]] = scf.for %[[S:[^ ]+]] = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[XS:[^ ]+]] = %[[X0]]) -> (tensor<3x2xf64>) {
// CHECK:           %[[I:.+]] = arith.subi %[[LAST]], %[[S]] : index
// CHECK:           %[[U:.+]] = tensor.extract_slice %[[W]][%[[I]], 0] [1, 3] [1, 1] : tensor<3x5xf64> to tensor<1x3xf64>
// CHECK:           %[[RHS:.+]] = tensor.extract_slice %[[W]][%[[I]], %[[N]]] [1, 2] [1, 1] : tensor<3x5xf64> to tensor<1x2xf64>
// CHECK:           %[[D:.+]] = tensor.extract_slice %[[W]][%[[I]], %[[I]]] [1, 1] [1, 1] : tensor<3x5xf64> to tensor<1x1xf64>
// CHECK:           %[[UX:.+]] = linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:        ins(%[[U]], %[[XS]] : tensor<1x3xf64>, tensor<3x2xf64>)
// CHECK:           %[[ROW:.+]] = linalg.generic
// CHECK-SAME:        ins(%[[RHS]], %[[UX]], %[[D]] : tensor<1x2xf64>, tensor<1x2xf64>, tensor<1x1xf64>)
// CHECK:             arith.subf
// CHECK:             arith.divf
// CHECK:           %[[XI:.+]] = tensor.insert_slice %[[ROW]] into %[[XS]][%[[I]], 0] [1, 2] [1, 1]
// CHECK:           scf.yield %[[XI]] : tensor<3x2xf64>
// CHECK:         }
// CHECK:         return %[[X]] : tensor<3x2xf64>
func.func @dense_solve(%a: tensor<3x3xf64>, %b: tensor<3x2xf64>) -> tensor<3x2xf64> {
  %x = rlx.dense_solve %a, %b : tensor<3x3xf64>, tensor<3x2xf64>
  return %x : tensor<3x2xf64>
}

// -----

// f16 solves in f32 (cast in, cast out). The batch dims are the leading
// parallel loops of every generic, each system with its own pivots.
// CHECK-DAG: #[[$COL:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2, 0)>
// CHECK-DAG: #[[$PIVOUT:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[$PIVIN:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-LABEL: func.func @dense_solve_batched_f16(
// CHECK:         arith.extf {{.+}} : f16 to f32
// CHECK:         arith.extf {{.+}} : f16 to f32
// CHECK:         tensor.empty() : tensor<2x3x4x5xf32>
// CHECK:         scf.for {{.+}} -> (tensor<2x3x4x5xf32>) {
// CHECK:           tensor.extract_slice {{.+}} : tensor<2x3x4x5xf32> to tensor<2x3x?x1xf32>
// CHECK:           linalg.generic
// CHECK-SAME:        indexing_maps = [#[[$COL]], #[[$PIVOUT]], #[[$PIVOUT]]]
// CHECK-SAME:        iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:        outs({{.+}} : tensor<2x3xf32>, tensor<2x3xindex>)
// CHECK:           linalg.generic
// CHECK-SAME:        indexing_maps = [#[[$PIVIN]], #[[$PIVIN]], #{{map[0-9]*}}]
// CHECK-SAME:        iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK:             %[[B0:.+]] = linalg.index 0 : index
// CHECK:             %[[B1:.+]] = linalg.index 1 : index
// CHECK:             tensor.extract %{{.+}}[%[[B0]], %[[B1]], %{{.+}}, %{{.+}}] : tensor<2x3x4x5xf32>
// CHECK:           scf.yield
// CHECK:         scf.for {{.+}} -> (tensor<2x3x4x1xf32>) {
// CHECK:           linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:        ins({{.+}} : tensor<2x3x1x4xf32>, tensor<2x3x4x1xf32>)
// CHECK:           tensor.insert_slice {{.+}} : tensor<2x3x1x1xf32> into tensor<2x3x4x1xf32>
// CHECK:         arith.truncf {{.+}} : f32 to f16
// CHECK:         return {{.+}} : tensor<2x3x4x1xf16>
func.func @dense_solve_batched_f16(%a: tensor<2x3x4x4xf16>, %b: tensor<2x3x4x1xf16>) -> tensor<2x3x4x1xf16> {
  %x = rlx.dense_solve %a, %b : tensor<2x3x4x4xf16>, tensor<2x3x4x1xf16>
  return %x : tensor<2x3x4x1xf16>
}

// -----

// Dynamic dims: both operands are cast to the sizes either one knows, W's
// width is n + k at run time, and X is cast back to b's type.
// CHECK-LABEL: func.func @dense_solve_dynamic(
// CHECK-SAME:    %[[A:[^:]+]]: tensor<?x4x4xf32>, %[[B:[^:]+]]: tensor<2x?x?xf32>
// CHECK:         %[[CA:.+]] = tensor.cast %[[A]] : tensor<?x4x4xf32> to tensor<2x4x4xf32>
// CHECK:         %[[CB:.+]] = tensor.cast %[[B]] : tensor<2x?x?xf32> to tensor<2x4x?xf32>
// CHECK:         %[[N:.+]] = arith.constant 4 : index
// CHECK:         %[[K:.+]] = tensor.dim %[[CB]], %{{.+}} : tensor<2x4x?xf32>
// CHECK:         %[[M:.+]] = arith.addi %[[N]], %[[K]] : index
// CHECK:         tensor.empty(%[[M]]) : tensor<2x4x?xf32>
// CHECK:         scf.for {{.+}} -> (tensor<2x4x?xf32>) {
// CHECK:         %[[X:.+]] = scf.for {{.+}} -> (tensor<2x4x?xf32>) {
// CHECK:         %[[R:.+]] = tensor.cast %[[X]] : tensor<2x4x?xf32> to tensor<2x?x?xf32>
// CHECK:         return %[[R]] : tensor<2x?x?xf32>
func.func @dense_solve_dynamic(%a: tensor<?x4x4xf32>, %b: tensor<2x?x?xf32>) -> tensor<2x?x?xf32> {
  %x = rlx.dense_solve %a, %b : tensor<?x4x4xf32>, tensor<2x?x?xf32>
  return %x : tensor<2x?x?xf32>
}
