// RUN: rlx-opt %s --rlx-cpu-tile-rows --split-input-file | FileCheck %s

// A 2-D softmax (row max, row sum of exp, normalize) becomes one loop over
// the 64 rows: the three ops (and the fills of the max and the sum) run on
// one row at a time, their temporaries are row-sized tensor.empty, and no
// full-size linalg op is left outside the loop.
// CHECK-LABEL: func.func @softmax_2d(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<64x128xf32>
// CHECK-NOT:     linalg.
// CHECK-NOT:     tensor<64xf32>
// CHECK:         %[[INIT:.+]] = tensor.empty() : tensor<64x128xf32>
// CHECK-NOT:     linalg.
// CHECK:         %[[LOOP:.+]] = scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %[[INIT]]) -> (tensor<64x128xf32>) {
// CHECK:           %[[ROW:.+]] = tensor.extract_slice %[[X]][%[[I]], 0] [1, 128] [1, 1] : tensor<64x128xf32> to tensor<1x128xf32>
// CHECK:           %[[E:.+]] = tensor.empty() : tensor<1xf32>
// CHECK:           %[[F:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<1xf32>) -> tensor<1xf32>
// CHECK:           linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "reduction"]
// CHECK-SAME:        ins(%{{.+}} : tensor<1x128xf32>) outs(%[[F]] : tensor<1xf32>)
// CHECK:             arith.maximumf
// CHECK:           %[[SUM:.+]] = linalg.generic {indexing_maps = [{{.+}}], iterator_types = ["parallel", "reduction"]} ins(%{{[^ ]+}}, %{{[^ ]+}} : tensor<1x128xf32>, tensor<1xf32>) outs(%{{[^ ]+}} : tensor<1xf32>)
// CHECK:             math.exp
// CHECK:             arith.addf
// CHECK:           %[[OUT:.+]] = tensor.extract_slice %[[ACC]][%[[I]], 0] [1, 128] [1, 1] : tensor<64x128xf32> to tensor<1x128xf32>
// CHECK:           %[[Y:.+]] = linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "parallel"]
// CHECK-SAME:        ins(%[[ROW]], %{{.+}}, %[[SUM]] : tensor<1x128xf32>, tensor<1xf32>, tensor<1xf32>) outs(%[[OUT]] : tensor<1x128xf32>)
// CHECK:             arith.divf
// CHECK:           %[[INS:.+]] = tensor.insert_slice %[[Y]] into %[[ACC]][%[[I]], 0] [1, 128] [1, 1] : tensor<1x128xf32> into tensor<64x128xf32>
// CHECK:           scf.yield %[[INS]] : tensor<64x128xf32>
// CHECK-NEXT:    }
// CHECK-NOT:     linalg.
// CHECK:         return %[[LOOP]] : tensor<64x128xf32>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax_2d(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x128xf32>) outs(%m0 : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %out, %in : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %max : tensor<64x128xf32>, tensor<64xf32>) outs(%s0 : tensor<64xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %e = math.exp %d : f32
    %r = arith.addf %out, %e : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<64x128xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max, %sum : tensor<64x128xf32>, tensor<64xf32>, tensor<64xf32>) outs(%e1 : tensor<64x128xf32>) {
  ^bb0(%in: f32, %m: f32, %s: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %e = math.exp %d : f32
    %r = arith.divf %e, %s : f32
    linalg.yield %r : f32
  } -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}

// -----

// The same softmax over the last dim of a 3-D tensor: a nest of two loops
// (the two outer parallel dims, each tiled by 1) with the three ops on a
// 1x1x8 row inside and 1x1 temporaries.
// CHECK-LABEL: func.func @softmax_3d(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<2x4x8xf32>
// CHECK-NOT:     linalg.
// CHECK-NOT:     tensor<2x4xf32>
// CHECK:         %[[INIT:.+]] = tensor.empty() : tensor<2x4x8xf32>
// CHECK-NOT:     linalg.
// CHECK:         %[[OUTER:.+]] = scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC0:.+]] = %[[INIT]]) -> (tensor<2x4x8xf32>) {
// CHECK-NEXT:      %[[INNER:.+]] = scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC1:.+]] = %[[ACC0]]) -> (tensor<2x4x8xf32>) {
// CHECK:             %[[ROW:.+]] = tensor.extract_slice %[[X]][%[[I]], %[[J]], 0] [1, 1, 8] [1, 1, 1] : tensor<2x4x8xf32> to tensor<1x1x8xf32>
// CHECK:             tensor.empty() : tensor<1x1xf32>
// CHECK:             linalg.generic
// CHECK-SAME:          iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:          ins(%{{.+}} : tensor<1x1x8xf32>) outs(%{{.+}} : tensor<1x1xf32>)
// CHECK:               arith.maximumf
// CHECK:             %[[SUM:.+]] = linalg.generic {indexing_maps = [{{.+}}], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{[^ ]+}}, %{{[^ ]+}} : tensor<1x1x8xf32>, tensor<1x1xf32>) outs(%{{[^ ]+}} : tensor<1x1xf32>)
// CHECK:               arith.addf
// CHECK:             %[[OUT:.+]] = tensor.extract_slice %[[ACC1]][%[[I]], %[[J]], 0] [1, 1, 8] [1, 1, 1]
// CHECK:             %[[Y:.+]] = linalg.generic
// CHECK-SAME:          iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-SAME:          ins(%[[ROW]], %{{.+}}, %[[SUM]] : tensor<1x1x8xf32>, tensor<1x1xf32>, tensor<1x1xf32>) outs(%[[OUT]] : tensor<1x1x8xf32>)
// CHECK:               arith.divf
// CHECK:             %[[INS:.+]] = tensor.insert_slice %[[Y]] into %[[ACC1]][%[[I]], %[[J]], 0] [1, 1, 8] [1, 1, 1]
// CHECK:             scf.yield %[[INS]] : tensor<2x4x8xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[INNER]] : tensor<2x4x8xf32>
// CHECK-NEXT:    }
// CHECK-NOT:     linalg.
// CHECK:         return %[[OUTER]] : tensor<2x4x8xf32>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @softmax_3d(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %max = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<2x4x8xf32>) outs(%m0 : tensor<2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %out, %in : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %max : tensor<2x4x8xf32>, tensor<2x4xf32>) outs(%s0 : tensor<2x4xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %e = math.exp %d : f32
    %r = arith.addf %out, %e : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  %e1 = tensor.empty() : tensor<2x4x8xf32>
  %y = linalg.generic {indexing_maps = [#id3, #row3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %max, %sum : tensor<2x4x8xf32>, tensor<2x4xf32>, tensor<2x4xf32>) outs(%e1 : tensor<2x4x8xf32>) {
  ^bb0(%in: f32, %m: f32, %s: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %e = math.exp %d : f32
    %r = arith.divf %e, %s : f32
    linalg.yield %r : f32
  } -> tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----

// Rows of a dynamic number: the loop runs to the tensor's dim 0 and the
// fused max still works on 1x8 rows with a tensor<1xf32> temporary.
// CHECK-LABEL: func.func @dynamic_rows(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<?x8xf32>
// CHECK-NOT:     linalg.
// CHECK:         %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x8xf32>
// CHECK-NEXT:    tensor.empty(%[[N]]) : tensor<?x8xf32>
// CHECK-NEXT:    %[[LOOP:.+]] = scf.for %[[I:.+]] = %{{.+}} to %[[N]] step %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}}) -> (tensor<?x8xf32>) {
// CHECK:           tensor.extract_slice %[[X]][%[[I]], 0] [1, 8] [1, 1] : tensor<?x8xf32> to tensor<1x8xf32>
// CHECK:           tensor.empty() : tensor<1xf32>
// CHECK:           %[[MAX:.+]] = linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "reduction"]
// CHECK-SAME:        outs(%{{.+}} : tensor<1xf32>)
// CHECK:             arith.maximumf
// CHECK:           linalg.generic
// CHECK-SAME:        ins(%{{.+}}, %[[MAX]] : tensor<1x8xf32>, tensor<1xf32>)
// CHECK:             arith.subf
// CHECK:           tensor.insert_slice %{{.+}} into %[[ACC]][%[[I]], 0] [1, 8] [1, 1] : tensor<1x8xf32> into tensor<?x8xf32>
// CHECK-NOT:     linalg.
// CHECK:         return %[[LOOP]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @dynamic_rows(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty(%n) : tensor<?xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<?xf32>) -> tensor<?xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x8xf32>) outs(%m0 : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %out, %in : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %e1 = tensor.empty(%n) : tensor<?x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<?x8xf32>, tensor<?xf32>) outs(%e1 : tensor<?x8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %r = arith.subf %in, %m : f32
    linalg.yield %r : f32
  } -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}

// -----

// A matmul (a contraction) feeding an elementwise exp: the exp is tiled by
// rows but the matmul is not fused into its loop; it stays whole, before
// the loop, and the loop reads rows of its result.
// CHECK-LABEL: func.func @matmul_exp(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>, %[[W:[^:]+]]: tensor<8x5xf32>
// CHECK:         %[[MM:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[X]], %[[W]] : tensor<4x8xf32>, tensor<8x5xf32>) outs(%{{.+}} : tensor<4x5xf32>)
// CHECK:         %[[LOOP:.+]] = scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args
// CHECK-NOT:       arith.mulf
// CHECK:           %[[ROW:.+]] = tensor.extract_slice %[[MM]][%[[I]], 0] [1, 5] [1, 1] : tensor<4x5xf32> to tensor<1x5xf32>
// CHECK-NOT:       arith.mulf
// CHECK:           linalg.generic
// CHECK-SAME:        ins(%[[ROW]] : tensor<1x5xf32>)
// CHECK:             math.exp
// CHECK-NOT:       arith.mulf
// CHECK:           scf.yield
// CHECK:         return %[[LOOP]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @matmul_exp(%x: tensor<4x8xf32>, %w: tensor<8x5xf32>) -> tensor<4x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x5xf32>
  %c0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x5xf32>) -> tensor<4x5xf32>
  %mm = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<4x8xf32>, tensor<8x5xf32>) outs(%c0 : tensor<4x5xf32>) {
  ^bb0(%l: f32, %r: f32, %out: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %out, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x5xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<4x5xf32>) outs(%e0 : tensor<4x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<4x5xf32>
  return %y : tensor<4x5xf32>
}

// -----

// A matmul that is the last op of its group is not tiled either: no loop.
// CHECK-LABEL: func.func @matmul_root(
// CHECK-NOT:     scf.for
// CHECK:         %[[MM:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%{{.+}}, %{{.+}} : tensor<4x8xf32>, tensor<8x5xf32>) outs(%{{.+}} : tensor<4x5xf32>)
// CHECK-NOT:     scf.for
// CHECK:         return %[[MM]]
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @matmul_root(%x: tensor<4x8xf32>, %w: tensor<8x5xf32>) -> tensor<4x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x5xf32>
  %c0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x5xf32>) -> tensor<4x5xf32>
  %mm = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<4x8xf32>, tensor<8x5xf32>) outs(%c0 : tensor<4x5xf32>) {
  ^bb0(%l: f32, %r: f32, %out: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %out, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x5xf32>
  return %mm : tensor<4x5xf32>
}

// -----

// An elementwise exp read by a matmul is not the last op of its group (a
// linalg op reads it), and the matmul is not tiled: nothing changes.
// CHECK-LABEL: func.func @exp_matmul(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>
// CHECK-NOT:     scf.for
// CHECK:         %[[EXP:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%[[X]] : tensor<4x8xf32>) outs(%{{.+}} : tensor<4x8xf32>)
// CHECK:           math.exp
// CHECK:         %[[MM:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[EXP]], %{{.+}} : tensor<4x8xf32>, tensor<8x5xf32>)
// CHECK-NOT:     scf.for
// CHECK:         return %[[MM]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @exp_matmul(%x: tensor<4x8xf32>, %w: tensor<8x5xf32>, %acc: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %ex = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<4x8xf32>
  %mm = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex, %w : tensor<4x8xf32>, tensor<8x5xf32>) outs(%acc : tensor<4x5xf32>) {
  ^bb0(%l: f32, %r: f32, %out: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %out, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x5xf32>
  return %mm : tensor<4x5xf32>
}

// -----

// A column sum (a reduction along dim 0, over the rows) feeding an
// elementwise consumer: every row needs the whole column sum, so it is
// computed once, before the loop, at full size, and the consumer's loop
// reads all of it.
// CHECK-LABEL: func.func @center_columns(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>
// CHECK:         %[[CS:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["reduction", "parallel"]
// CHECK-SAME:      ins(%[[X]] : tensor<4x8xf32>) outs(%{{.+}} : tensor<8xf32>)
// CHECK:         %[[LOOP:.+]] = scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args
// CHECK-NOT:       iterator_types = ["reduction", "parallel"]
// CHECK:           %[[ROW:.+]] = tensor.extract_slice %[[X]][%[[I]], 0] [1, 8] [1, 1]
// CHECK-NOT:       iterator_types = ["reduction", "parallel"]
// CHECK:           linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "parallel"]
// CHECK-SAME:        ins(%[[ROW]], %[[CS]] : tensor<1x8xf32>, tensor<8xf32>)
// CHECK:             arith.subf
// CHECK-NOT:       iterator_types = ["reduction", "parallel"]
// CHECK:           scf.yield
// CHECK:         return %[[LOOP]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @center_columns(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<8xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
  %colsum = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%s0 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %out, %in : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %colsum : tensor<4x8xf32>, tensor<8xf32>) outs(%e1 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %r = arith.subf %in, %s : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Likewise a producer broadcast along the rows (exp of a bias vector): each
// row reads all of it, so it is not recomputed per row.
// CHECK-LABEL: func.func @broadcast_producer(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>, %[[B:[^:]+]]: tensor<8xf32>
// CHECK:         %[[EB:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[B]] : tensor<8xf32>) outs(%{{.+}} : tensor<8xf32>)
// CHECK:           math.exp
// CHECK:         %[[LOOP:.+]] = scf.for
// CHECK-NOT:       math.exp
// CHECK:           linalg.generic
// CHECK-SAME:        ins(%{{.+}}, %[[EB]] : tensor<1x8xf32>, tensor<8xf32>)
// CHECK:             arith.mulf
// CHECK-NOT:       math.exp
// CHECK:           scf.yield
// CHECK:         return %[[LOOP]]
#id1 = affine_map<(d0) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @broadcast_producer(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %e0 = tensor.empty() : tensor<8xf32>
  %eb = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%b : tensor<8xf32>) outs(%e0 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.exp %in : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %eb : tensor<4x8xf32>, tensor<8xf32>) outs(%e1 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %r = arith.mulf %in, %s : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// A column sum on its own has no parallel loop but its innermost one:
// nothing to tile.
// CHECK-LABEL: func.func @column_sum(
// CHECK-NOT:     scf.for
// CHECK:         %[[CS:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["reduction", "parallel"]
// CHECK-SAME:      ins(%{{.+}} : tensor<4x8xf32>) outs(%{{.+}} : tensor<8xf32>)
// CHECK-NOT:     scf.for
// CHECK:         return %[[CS]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @column_sum(%x: tensor<4x8xf32>, %acc: tensor<8xf32>) -> tensor<8xf32> {
  %colsum = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%acc : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %out, %in : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %colsum : tensor<8xf32>
}

// -----

// 1-D ops (an exp and the sum of its result to a scalar) have no rows:
// untouched, no loop, full-size temporaries.
// CHECK-LABEL: func.func @one_d(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<8xf32>
// CHECK-NOT:     scf.for
// CHECK:         %[[EX:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel"]
// CHECK-SAME:      ins(%[[X]] : tensor<8xf32>) outs(%{{.+}} : tensor<8xf32>)
// CHECK:         %[[S:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["reduction"]
// CHECK-SAME:      ins(%[[EX]] : tensor<8xf32>) outs(%{{.+}} : tensor<f32>)
// CHECK-NOT:     scf.for
// CHECK:         return %[[S]]
#id1 = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>
func.func @one_d(%x: tensor<8xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<8xf32>
  %ex = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e0 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.exp %in : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<f32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [#id1, #scalar], iterator_types = ["reduction"]}
      ins(%ex : tensor<8xf32>) outs(%s0 : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %out, %in : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// A sum over both dims of a 2-D tensor has no parallel loop: not tiled.
// CHECK-LABEL: func.func @full_reduction(
// CHECK-NOT:     scf.for
// CHECK:         %[[S:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["reduction", "reduction"]
// CHECK-SAME:      ins(%{{.+}} : tensor<4x8xf32>) outs(%{{.+}} : tensor<f32>)
// CHECK-NOT:     scf.for
// CHECK:         return %[[S]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#scalar = affine_map<(d0, d1) -> ()>
func.func @full_reduction(%x: tensor<4x8xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<f32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [#id, #scalar], iterator_types = ["reduction", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%s0 : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %out, %in : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// Ops on buffers are not tiled (only tensor groups are).
// CHECK-LABEL: func.func @buffers(
// CHECK-NOT:     scf.for
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.+}} : memref<4x8xf32>) outs(%{{.+}} : memref<4x8xf32>)
// CHECK-NOT:     scf.for
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @buffers(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// The row max is also returned, so it is a group of its own (each op is
// computed once): its loop computes it row by row into the returned
// tensor, and the normalize's loop reads its rows.
// CHECK-LABEL: func.func @intermediate_returned(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>
// CHECK-NOT:     linalg.
// CHECK:         %[[MAXES:.+]] = scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[MACC:.+]] = %{{.+}}) -> (tensor<4xf32>) {
// CHECK:           linalg.fill
// CHECK:           %[[MAX:.+]] = linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "reduction"]
// CHECK-SAME:        ins(%{{.+}} : tensor<1x8xf32>) outs(%{{.+}} : tensor<1xf32>)
// CHECK:             arith.maximumf
// CHECK:           tensor.insert_slice %[[MAX]] into %[[MACC]][%[[I]]] [1] [1]
// CHECK:         }
// CHECK-NOT:     linalg.
// CHECK:         %[[LOOP:.+]] = scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}}) -> (tensor<4x8xf32>) {
// CHECK-NOT:       arith.maximumf
// CHECK:           %[[ROWMAX:.+]] = tensor.extract_slice %[[MAXES]][%[[J]]] [1] [1]
// CHECK-NOT:       arith.maximumf
// CHECK:           %[[Y:.+]] = linalg.generic
// CHECK-SAME:        ins(%{{.+}}, %[[ROWMAX]] : tensor<1x8xf32>, tensor<1xf32>)
// CHECK:             arith.subf
// CHECK:           %[[INS:.+]] = tensor.insert_slice %[[Y]] into %[[ACC]][%[[J]], 0] [1, 8] [1, 1]
// CHECK:           scf.yield %[[INS]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[LOOP]], %[[MAXES]] : tensor<4x8xf32>, tensor<4xf32>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @intermediate_returned(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<4xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%m0 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %out, %in : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4x8xf32>, tensor<4xf32>) outs(%e1 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %r = arith.subf %in, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %y, %max : tensor<4x8xf32>, tensor<4xf32>
}

// -----

// Two groups read the same row max: it is computed once, in a loop of its
// own, and each group's loop reads its rows (fusing it into both would
// compute it twice; through a residual stream such copies compound).
// CHECK-LABEL: func.func @two_roots(
// CHECK-NOT:     linalg.
// CHECK:         %[[MAXES:.+]] = scf.for
// CHECK:           arith.maximumf
// CHECK:           scf.yield
// CHECK-NOT:     linalg.
// CHECK:         %[[L1:.+]] = scf.for
// CHECK-NOT:       arith.maximumf
// CHECK:           tensor.extract_slice %[[MAXES]]
// CHECK-NOT:       arith.maximumf
// CHECK:           arith.subf
// CHECK:           scf.yield
// CHECK-NOT:     linalg.
// CHECK:         %[[L2:.+]] = scf.for
// CHECK-NOT:       arith.maximumf
// CHECK:           tensor.extract_slice %[[MAXES]]
// CHECK-NOT:       arith.maximumf
// CHECK:           arith.divf
// CHECK:           scf.yield
// CHECK-NOT:     linalg.
// CHECK:         return %[[L1]], %[[L2]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @two_roots(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<4xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%m0 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %out, %in : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4x8xf32>, tensor<4xf32>) outs(%e1 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %r = arith.subf %in, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %z = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4x8xf32>, tensor<4xf32>) outs(%e1 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %r = arith.divf %in, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %y, %z : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Softmax as rlx lowers f32 softmax: e = exp(x - max), then e * (1 / sum(e))
// written over e. Both the sum and the normalization read e, so upstream
// fusion clones e's op twice into the row loop (once into the sum's input,
// once into the normalization's output); the copies are merged, so each
// row computes exp once, into the output row, and the max once.
// CHECK-LABEL: func.func @softmax_exp_once(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<64x128xf32>
// CHECK:         scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}}) -> (tensor<64x128xf32>) {
// CHECK:           %[[ROW:.+]] = tensor.extract_slice %[[X]][%[[I]], 0] [1, 128] [1, 1]
// CHECK:           %[[MAX:.+]] = linalg.generic
// CHECK:             arith.maximumf
// CHECK-NOT:       arith.maximumf
// CHECK:           %[[OUT:.+]] = tensor.extract_slice %[[ACC]][%[[I]], 0] [1, 128] [1, 1]
// CHECK-NEXT:      %[[E:.+]] = linalg.generic
// CHECK-SAME:        ins(%[[ROW]], %[[MAX]] : tensor<1x128xf32>, tensor<1xf32>) outs(%[[OUT]] : tensor<1x128xf32>)
// CHECK:             math.exp
// CHECK:           %[[SUM:.+]] = linalg.generic
// CHECK-SAME:        ins(%[[E]] : tensor<1x128xf32>)
// CHECK-NOT:         math.exp
// CHECK:           %[[Y:.+]] = linalg.generic
// CHECK-SAME:        ins(%[[SUM]] : tensor<1xf32>) outs(%[[E]] : tensor<1x128xf32>)
// CHECK-NOT:         math.exp
// CHECK:           tensor.insert_slice %[[Y]] into %[[ACC]][%[[I]], 0] [1, 128] [1, 1]
// CHECK-NOT:     math.exp
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax_exp_once(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<64xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x128xf32>) outs(%m0 : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %out, %in : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<64x128xf32>
  %exps = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<64x128xf32>, tensor<64xf32>) outs(%e1 : tensor<64x128xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<64x128xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exps : tensor<64x128xf32>) outs(%s0 : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %out, %in : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %y = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<64xf32>) outs(%exps : tensor<64x128xf32>) {
  ^bb0(%s: f32, %out: f32):
    %inv = arith.divf %one, %s : f32
    %r = arith.mulf %out, %inv : f32
    linalg.yield %r : f32
  } -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}

// -----

// A residual stream of two layers, as deep models have: layer 1's rows n1
// = x - rowsum(x) feed a matmul and layer 2's residual add a2 = n1 + m1,
// whose rows n2 = a2 - rowsum(a2) are returned. Each op is computed once:
// n1's group is its own loop (not fused again into layer 2's, which would
// pull every earlier layer into the last loop), the matmul reads all of
// n1, and layer 2's loop reads n1's rows and computes a2 once although its
// row sum and its normalize both read it.
// CHECK-LABEL: func.func @residual_chain(
// CHECK:         %[[N1:.+]] = scf.for
// CHECK:           arith.addf %out
// CHECK:           arith.subf
// CHECK:           scf.yield
// CHECK-NEXT:    }
// CHECK:         %[[MM:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[N1]], %{{.+}} : tensor<4x8xf32>, tensor<8x8xf32>)
// CHECK:         %[[N2:.+]] = scf.for
// CHECK-NOT:       arith.subf
// CHECK:           arith.addf %in
// CHECK-NOT:       arith.subf
// CHECK:           arith.addf %out
// CHECK-NOT:       arith.addf
// CHECK:           arith.subf
// CHECK-NOT:       arith.
// CHECK:           scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[N2]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#mk = affine_map<(d0, d1, d2) -> (d0, d2)>
#kn = affine_map<(d0, d1, d2) -> (d2, d1)>
#mn = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @residual_chain(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %er = tensor.empty() : tensor<4xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %sum1 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%s0 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %out, %in : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %n1 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum1 : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %r = arith.subf %in, %s : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m1 = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%n1, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%z : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %out, %p : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %a2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%n1, %m1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %sum2 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a2 : tensor<4x8xf32>) outs(%s0 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %out, %in : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %n2 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a2, %sum2 : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %r = arith.subf %in, %s : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %n2 : tensor<4x8xf32>
}
