// RUN: rlx-opt %s --rlx-cpu-order-loops --split-input-file | FileCheck %s

// A matmul (m, n, k): n is the last dim of the rhs and of the result and
// the lhs does not read it, so n moves innermost: loops (m, k, n), the maps
// rewritten to match, the body unchanged.
// CHECK-DAG:   #[[$LHS:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG:   #[[$RHS:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG:   #[[$OUT:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @matmul(
// CHECK-SAME:    %[[A:[^:]+]]: tensor<4x8xf32>, %[[B:[^:]+]]: tensor<8x5xf32>, %[[C:[^:]+]]: tensor<4x5xf32>
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$LHS]], #[[$RHS]], #[[$OUT]]]
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:      ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x5xf32>) outs(%[[C]] : tensor<4x5xf32>)
// CHECK:           %[[P:.+]] = arith.mulf
// CHECK-NEXT:      %[[S:.+]] = arith.addf %{{.+}}, %[[P]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK:         return %[[R]]
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @matmul(%A: tensor<4x8xf32>, %B: tensor<8x5xf32>, %C: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : tensor<4x8xf32>, tensor<8x5xf32>) outs(%C : tensor<4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}

// -----

// A batched matmul (b, m, n, k): n moves innermost and the other loops keep
// their order: (b, m, k, n).
// CHECK-DAG:   #[[$LHS:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG:   #[[$RHS:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG:   #[[$OUT:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-LABEL: func.func @batch_matmul(
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$LHS]], #[[$RHS]], #[[$OUT]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction", "parallel"]
#a = affine_map<(b, m, n, k) -> (b, m, k)>
#b = affine_map<(b, m, n, k) -> (b, k, n)>
#c = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @batch_matmul(%A: tensor<2x4x8xf32>, %B: tensor<2x8x5xf32>, %C: tensor<2x4x5xf32>) -> tensor<2x4x5xf32> {
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : tensor<2x4x8xf32>, tensor<2x8x5xf32>) outs(%C : tensor<2x4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x4x5xf32>
  return %r : tensor<2x4x5xf32>
}

// -----

// Generics on buffers are reordered too. The body reads its loop indices
// (a causal mask: k <= m): after the interchange they are recomputed from
// the new loops, so the mask still compares the old k (now loop 1) with
// the old m (loop 0).
// CHECK-DAG:   #[[$LHS:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG:   #[[$RHS:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG:   #[[$OUT:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$D0:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0)>
// CHECK-DAG:   #[[$D1:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @causal_buffers(
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$LHS]], #[[$RHS]], #[[$OUT]]]
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:      ins(%{{.+}}, %{{.+}} : memref<4x8xf32>, memref<8x5xf32>) outs(%{{.+}} : memref<4x5xf32>)
// CHECK-DAG:       %[[I0:.+]] = linalg.index 0 : index
// CHECK-DAG:       %[[I1:.+]] = linalg.index 1 : index
// CHECK-DAG:       %[[I2:.+]] = linalg.index 2 : index
// CHECK-DAG:       %[[M:.+]] = affine.apply #[[$D0]](%[[I0]], %[[I1]], %[[I2]])
// CHECK-DAG:       %[[K:.+]] = affine.apply #[[$D1]](%{{.+}}, %{{.+}}, %{{.+}})
// CHECK:           arith.cmpi ule, %[[K]], %[[M]] : index
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @causal_buffers(%A: memref<4x8xf32>, %B: memref<8x5xf32>, %C: memref<4x5xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<4x8xf32>, memref<8x5xf32>) outs(%C : memref<4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = linalg.index 0 : index
    %k = linalg.index 2 : index
    %le = arith.cmpi ule, %k, %m : index
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    %r = arith.select %le, %s, %o : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A sum over the rows of a tensor stored transposed (x[k, i] summed over
// k): the parallel loop i is the last dim of both operands, so it goes
// innermost, ahead of the reduction (parallel loops are preferred).
// CHECK-DAG:   #[[$IN:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[$OUT:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @column_sum(
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$IN]], #[[$OUT]]]
// CHECK-SAME:      iterator_types = ["reduction", "parallel"]
// CHECK-SAME:      ins(%{{.+}} : tensor<8x4xf32>) outs(%{{.+}} : tensor<4xf32>)
func.func @column_sum(%x: tensor<8x4xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, k) -> (k, i)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x4xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// No parallel loop is contiguous (d2 is not the input's last dim), so the
// contiguous reduction loop d1 goes innermost, after d2: loops (d0, d2, d1).
// CHECK-DAG:   #[[$IN:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[$OUT:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @reduction_innermost(
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$IN]], #[[$OUT]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%{{.+}} : tensor<4x5x8xf32>) outs(%{{.+}} : tensor<4x5xf32>)
func.func @reduction_innermost(%x: tensor<4x5x8xf32>, %o: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<4x5x8xf32>) outs(%o : tensor<4x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}

// -----

// An elementwise op (with a broadcast operand) already has its contiguous
// loop innermost: unchanged.
// CHECK-DAG:   #[[$ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[$ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @elementwise(
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID]], #[[$ROW]], #[[$ID]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%{{.+}}, %{{.+}} : tensor<4x8xf32>, tensor<8xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @elementwise(%x: tensor<4x8xf32>, %b: tensor<8xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%o : tensor<4x8xf32>) {
  ^bb0(%in: f32, %v: f32, %out: f32):
    %s = arith.addf %in, %v : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// A row sum: the parallel loop is not contiguous in the input and the
// reduction already is innermost: unchanged.
// CHECK-DAG:   #[[$ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[$ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @row_sum(
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID]], #[[$ROW]]]
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @row_sum(%x: tensor<4x8xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A transpose: each loop is the last dim of one operand and a strided dim
// of the other. No loop is contiguous: unchanged.
// CHECK-DAG:   #[[$T:map[0-9]*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG:   #[[$ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @transpose(
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$T]], #[[$ID]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%{{.+}} : tensor<8x4xf32>) outs(%{{.+}} : tensor<4x8xf32>)
func.func @transpose(%x: tensor<8x4xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x4xf32>) outs(%o : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// A compound index counts as strided even in the last position: d1 is
// read as d1 floordiv 2, so it does not go innermost; the reduction d2 is
// contiguous and already innermost: unchanged.
// CHECK-DAG:   #[[$X:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$Y:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1 floordiv 2)>
// CHECK-DAG:   #[[$OUT:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @compound_index(
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$X]], #[[$Y]], #[[$OUT]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
func.func @compound_index(%x: tensor<4x8xf32>, %y: tensor<3xf32>, %o: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1 floordiv 2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<4x8xf32>, tensor<3xf32>) outs(%o : tensor<4x6xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %out, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

// -----

// A sum of all the elements of a tensor read transposed: both loops are
// reductions. Putting the contiguous one innermost would change the order
// in which the single result accumulates (rows first instead of columns
// first), which the pass promises never to do: unchanged.
// CHECK-DAG:   #[[$T:map[0-9]*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG:   #[[$S:map[0-9]*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @two_reductions(
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$T]], #[[$S]]]
// CHECK-SAME:      iterator_types = ["reduction", "reduction"]
// CHECK-SAME:      ins(%{{.+}} : tensor<8x4xf32>) outs(%{{.+}} : tensor<f32>)
func.func @two_reductions(%x: tensor<8x4xf32>, %acc: tensor<f32>) -> tensor<f32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%x : tensor<8x4xf32>) outs(%acc : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}
