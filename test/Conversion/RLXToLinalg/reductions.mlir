// RUN: rlx-opt %s -convert-rlx-to-linalg -split-input-file | FileCheck %s

// A sum is a generic with the reduced dim as a reduction loop, dropped from
// the output map, accumulating into a zero-filled tensor.
// CHECK-DAG: #[[$ID:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$OUT:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @sum_last(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<2x4x8xf32>
// CHECK:         %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[EMPTY:.+]] = tensor.empty() : tensor<2x4xf32>
// CHECK:         %[[INIT:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<2x4xf32>)
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID]], #[[$OUT]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[X]] : tensor<2x4x8xf32>) outs(%[[INIT]] : tensor<2x4xf32>)
// CHECK:         ^bb0(%[[IN:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK:           %[[S:.+]] = arith.addf %[[ACC]], %[[IN]] : f32
// CHECK:           linalg.yield %[[S]] : f32
// CHECK:         return %[[R]]
func.func @sum_last(%x: tensor<2x4x8xf32>) -> tensor<2x4xf32> {
  %0 = rlx.reduce sum %x axes = [-1] : tensor<2x4x8xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// f16 accumulates in f32 (extf in the body) and is truncated afterwards.
// CHECK-LABEL: func.func @sum_f16(
// CHECK:         %[[INIT:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<4xf32>)
// CHECK:         %[[ACC:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      outs(%[[INIT]] : tensor<4xf32>)
// CHECK:         ^bb0(%[[IN:.+]]: f16, %[[A:.+]]: f32):
// CHECK:           %[[W:.+]] = arith.extf %[[IN]] : f16 to f32
// CHECK:           arith.addf %[[A]], %[[W]] : f32
// CHECK:         } -> tensor<4xf32>
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[ACC]] : tensor<4xf32>)
// CHECK:           arith.truncf %{{.+}} : f32 to f16
// CHECK:         } -> tensor<4xf16>
// CHECK:         return %[[R]]
func.func @sum_f16(%x: tensor<4x8xf16>) -> tensor<4xf16> {
  %0 = rlx.reduce sum %x axes = [1] : tensor<4x8xf16>
  return %0 : tensor<4xf16>
}

// -----

// mean over two axes with keepdim: reduction loops at both, a division by
// the count (2 * 8) in f32, truncf, then tensor.expand_shape back to rank 3.
// CHECK-DAG: #[[$KEPT:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @mean_keepdim(
// CHECK:         %[[SUM:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#{{.+}}, #[[$KEPT]]]
// CHECK-SAME:      iterator_types = ["reduction", "parallel", "reduction"]
// CHECK:           arith.extf %{{.+}} : bf16 to f32
// CHECK:           arith.addf
// CHECK:         %[[C2:.+]] = arith.constant 2 : index
// CHECK:         %[[P:.+]] = arith.muli %{{.+}}, %[[C2]] : index
// CHECK:         %[[C8:.+]] = arith.constant 8 : index
// CHECK:         %[[N:.+]] = arith.muli %[[P]], %[[C8]] : index
// CHECK:         %[[NI:.+]] = arith.index_cast %[[N]] : index to i64
// CHECK:         %[[NF:.+]] = arith.sitofp %[[NI]] : i64 to f32
// CHECK:         %[[MEAN:.+]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<4xf32>)
// CHECK:           arith.divf %{{.+}}, %[[NF]] : f32
// CHECK:         %[[T:.+]] = linalg.generic {{.*}} ins(%[[MEAN]] : tensor<4xf32>)
// CHECK:           arith.truncf %{{.+}} : f32 to bf16
// CHECK:         %[[E:.+]] = tensor.expand_shape %[[T]] {{\[}}[0, 1, 2]] output_shape [1, 4, 1] : tensor<4xbf16> into tensor<1x4x1xbf16>
// CHECK:         return %[[E]]
func.func @mean_keepdim(%x: tensor<2x4x8xbf16>) -> tensor<1x4x1xbf16> {
  %0 = rlx.reduce mean %x axes = [2, 0] keepdim true : tensor<2x4x8xbf16>
  return %0 : tensor<1x4x1xbf16>
}

// -----

// min starts from +inf; a kept dynamic dim sizes both the accumulator and
// the expand_shape.
// CHECK-LABEL: func.func @min_keepdim_dynamic(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<?x8xf32>
// CHECK:         %[[INF:.+]] = arith.constant 0x7F800000 : f32
// CHECK:         %[[DIM:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x8xf32>
// CHECK:         %[[EMPTY:.+]] = tensor.empty(%[[DIM]]) : tensor<?xf32>
// CHECK:         %[[INIT:.+]] = linalg.fill ins(%[[INF]] : f32) outs(%[[EMPTY]] : tensor<?xf32>)
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK:           arith.minimumf
// CHECK:         %[[RD:.+]] = tensor.dim %[[R]], %{{.+}} : tensor<?xf32>
// CHECK:         tensor.expand_shape %[[R]] {{\[}}[0, 1]] output_shape [%[[RD]], 1] : tensor<?xf32> into tensor<?x1xf32>
func.func @min_keepdim_dynamic(%x: tensor<?x8xf32>) -> tensor<?x1xf32> {
  %0 = rlx.reduce min %x axes = [1] keepdim true : tensor<?x8xf32>
  return %0 : tensor<?x1xf32>
}

// -----

// Reducing every dim gives a rank-0 result; integer prod starts at 1 and
// multiplies with muli.
// CHECK-DAG: #[[$NONE:map[0-9]*]] = affine_map<(d0, d1, d2) -> ()>
// CHECK-LABEL: func.func @prod_all(
// CHECK:         %[[ONE:.+]] = arith.constant 1 : i32
// CHECK:         linalg.fill ins(%[[ONE]] : i32) outs(%{{.+}} : tensor<i32>)
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#{{.+}}, #[[$NONE]]]
// CHECK-SAME:      iterator_types = ["reduction", "reduction", "reduction"]
// CHECK:           arith.muli %{{.+}}, %{{.+}} : i32
func.func @prod_all(%x: tensor<2x4x8xi32>) -> tensor<i32> {
  %0 = rlx.reduce prod %x axes = [0, 1, 2] : tensor<2x4x8xi32>
  return %0 : tensor<i32>
}

// -----

// ui8 max starts at 0 and uses maxui; min starts at 255 (-1 as i8) and
// uses minui.
// CHECK-LABEL: func.func @max_unsigned(
// CHECK-SAME:    %{{[^:]+}}: tensor<4x8xi8>) -> (tensor<4xi8>, tensor<4xi8>)
// CHECK:         %[[LO:.+]] = arith.constant 0 : i8
// CHECK:         linalg.fill ins(%[[LO]] : i8)
// CHECK:           arith.maxui %{{.+}}, %{{.+}} : i8
// CHECK:         %[[HI:.+]] = arith.constant -1 : i8
// CHECK:         linalg.fill ins(%[[HI]] : i8)
// CHECK:           arith.minui %{{.+}}, %{{.+}} : i8
func.func @max_unsigned(%u: tensor<4x8xui8>) -> (tensor<4xui8>, tensor<4xui8>) {
  %0 = rlx.reduce max %u axes = [1] : tensor<4x8xui8>
  %1 = rlx.reduce min %u axes = [1] : tensor<4x8xui8>
  return %0, %1 : tensor<4xui8>, tensor<4xui8>
}

// -----

// Float max starts at -inf and uses maximumf; signed max starts at the
// lowest value and uses maxsi. Reducing dim 0 keeps d1 in the output map.
// CHECK-DAG: #[[$COLS:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @max_float(
// CHECK:         %[[NINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK:         linalg.fill ins(%[[NINF]] : f32)
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#{{.+}}, #[[$COLS]]]
// CHECK-SAME:      iterator_types = ["reduction", "parallel"]
// CHECK:           arith.maximumf %{{.+}}, %{{.+}} : f32
// CHECK:         %[[MIN:.+]] = arith.constant -32768 : i16
// CHECK:         linalg.fill ins(%[[MIN]] : i16)
// CHECK:           arith.maxsi %{{.+}}, %{{.+}} : i16
func.func @max_float(%x: tensor<4x8xf32>, %i: tensor<4x8xi16>) -> (tensor<8xf32>, tensor<8xi16>) {
  %0 = rlx.reduce max %x axes = [0] : tensor<4x8xf32>
  %1 = rlx.reduce max %i axes = [0] : tensor<4x8xi16>
  return %0, %1 : tensor<8xf32>, tensor<8xi16>
}

// -----

// argmax: one reduction generic carrying (best value, its index); the index
// is linalg.index of the axis; the result is the index output.
// CHECK-DAG: #[[$ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @argmax(
// CHECK:         %[[NINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[BEST:.+]] = linalg.fill ins(%[[NINF]] : f32)
// CHECK:         %[[IDX:.+]] = linalg.fill ins(%{{.+}} : i64) outs(%{{.+}} : tensor<4xi64>)
// CHECK:         %[[R:.+]]:2 = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID]], #[[$ROW]], #[[$ROW]]]
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      outs(%[[BEST]], %[[IDX]] : tensor<4xf32>, tensor<4xi64>)
// CHECK:         ^bb0(%[[X:.+]]: f32, %[[CUR:.+]]: f32, %[[CI:.+]]: i64):
// CHECK:           %[[L:.+]] = linalg.index 1 : index
// CHECK:           %[[I:.+]] = arith.index_cast %[[L]] : index to i64
// CHECK:           arith.cmpf ogt, %[[X]], %[[CUR]] : f32
// CHECK:           %[[FIRST:.+]] = arith.cmpi eq, %[[I]], %{{.+}} : i64
// CHECK:           %[[TAKE:.+]] = arith.ori %{{.+}}, %[[FIRST]] : i1
// CHECK:           %[[V:.+]] = arith.select %[[TAKE]], %[[X]], %[[CUR]] : f32
// CHECK:           %[[NI:.+]] = arith.select %[[TAKE]], %[[I]], %[[CI]] : i64
// CHECK:           linalg.yield %[[V]], %[[NI]] : f32, i64
// CHECK:         return %[[R]]#1 : tensor<4xi64>
func.func @argmax(%x: tensor<4x8xf32>) -> tensor<4xi64> {
  %0 = rlx.argmax %x axis = 1 : tensor<4x8xf32>
  return %0 : tensor<4xi64>
}

// -----

// argmin of ui8 compares unsigned (ult) from 255; keepdim expands the
// indices.
// CHECK-LABEL: func.func @argmin_unsigned_keepdim(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<?x8xi8>) -> tensor<?x1xi64>
// CHECK:         %[[HI:.+]] = arith.constant -1 : i8
// CHECK:         %[[R:.+]]:2 = linalg.generic
// CHECK:           arith.cmpi ult, %{{.+}}, %{{.+}} : i8
// CHECK:         tensor.expand_shape %[[R]]#1 {{\[}}[0, 1]] output_shape [%{{.+}}, 1] : tensor<?xi64> into tensor<?x1xi64>
func.func @argmin_unsigned_keepdim(%x: tensor<?x8xui8>) -> tensor<?x1xi64> {
  %0 = rlx.argmin %x axis = -1 keepdim true : tensor<?x8xui8>
  return %0 : tensor<?x1xi64>
}

// -----

// f32 softmax: row max (maxnumf: a NaN is skipped, its exp makes the row
// NaN); e = exp(x - shift) with shift the max, or 0 where the max is -inf
// (a fully masked row; exp(-inf) = 0 for a -inf element); the row sum of
// e; then e * (1 / sum) written over e (exp once per element).
// CHECK-DAG: #[[$ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @softmax(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>
// CHECK:         %[[MAX:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID]], #[[$ROW]]]
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK:           arith.maxnumf
// CHECK:         %[[E:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID]], #[[$ROW]], #[[$ID]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%[[X]], %[[MAX]] :
// CHECK:         ^bb0(%[[XE:.+]]: f32, %[[M:.+]]: f32, %{{.+}}: f32):
// CHECK:           %[[NI:.+]] = arith.cmpf oeq, %[[M]], %{{.+}} : f32
// CHECK:           %[[SHIFT:.+]] = arith.select %[[NI]], %{{.+}}, %[[M]] : f32
// CHECK:           %[[D:.+]] = arith.subf %[[XE]], %[[SHIFT]] : f32
// CHECK:           %[[EX:.+]] = math.exp %[[D]] : f32
// CHECK:           linalg.yield %[[EX]] : f32
// CHECK:         %[[SUM:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID]], #[[$ROW]]]
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%[[E]] :
// CHECK:           arith.addf
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ROW]], #[[$ID]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%[[SUM]] : tensor<4xf32>) outs(%[[E]] : tensor<4x8xf32>)
// CHECK:         ^bb0(%[[S:.+]]: f32, %[[O:.+]]: f32):
// CHECK:           %[[INV:.+]] = arith.divf %{{.+}}, %[[S]] : f32
// CHECK:           arith.mulf %[[O]], %[[INV]] : f32
// CHECK:         return %[[R]]
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = rlx.softmax %x axis = -1 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// log_softmax of f16 along axis 0: the statistics are f32 (extf in the
// bodies), the result is x - max - log(sum), truncated to f16.
// CHECK-DAG: #[[$COLS:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @log_softmax_f16(
// CHECK:         %[[MAX:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["reduction", "parallel"]
// CHECK-SAME:      outs(%{{.+}} : tensor<8xf32>)
// CHECK:           arith.extf %{{.+}} : f16 to f32
// CHECK:         %[[SUM:.+]] = linalg.generic
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#{{.+}}, #[[$COLS]], #[[$COLS]], #{{.+}}]
// CHECK-SAME:      ins(%{{.+}}, %[[MAX]], %[[SUM]] : tensor<?x8xf16>, tensor<8xf32>, tensor<8xf32>)
// CHECK:         ^bb0(%[[A:.+]]: f16, %[[M:.+]]: f32, %[[S:.+]]: f32, %{{.+}}: f16):
// CHECK:           %[[W:.+]] = arith.extf %[[A]] : f16 to f32
// CHECK:           %[[SH:.+]] = arith.subf %[[W]], %[[M]] : f32
// CHECK:           %[[L:.+]] = math.log %[[S]] : f32
// CHECK:           %[[Y:.+]] = arith.subf %[[SH]], %[[L]] : f32
// CHECK:           arith.truncf %[[Y]] : f32 to f16
func.func @log_softmax_f16(%x: tensor<?x8xf16>) -> tensor<?x8xf16> {
  %0 = rlx.log_softmax %x axis = 0 : tensor<?x8xf16>
  return %0 : tensor<?x8xf16>
}

// -----

// cumsum: an scf.for from 1 adding slice i - 1 into slice i.
// CHECK-LABEL: func.func @cumsum(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<16xi64>
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK:         %[[R:.+]] = scf.for %[[I:.+]] = %[[C1]] to %[[C16]] step %[[C1]] iter_args(%[[ACC:.+]] = %[[X]])
// CHECK:           %[[PREV:.+]] = arith.subi %[[I]], %[[C1]] : index
// CHECK:           %[[P:.+]] = tensor.extract_slice %[[ACC]][%[[PREV]]] [1] [1]
// CHECK:           %[[C:.+]] = tensor.extract_slice %[[ACC]][%[[I]]] [1] [1]
// CHECK:           %[[S:.+]] = linalg.generic {{.*}} ins(%[[C]], %[[P]] :
// CHECK:             arith.addi %{{.+}}, %{{.+}} : i64
// CHECK:           %[[N:.+]] = tensor.insert_slice %[[S]] into %[[ACC]][%[[I]]] [1] [1]
// CHECK:           scf.yield %[[N]]
// CHECK:         return %[[R]]
func.func @cumsum(%x: tensor<16xi64>) -> tensor<16xi64> {
  %0 = rlx.cumsum %x axis = 0 : tensor<16xi64>
  return %0 : tensor<16xi64>
}

// -----

// softmax_cross_entropy: per row log(sum) + max - logits[n, label[n]] (the
// label read with tensor.extract at linalg.index 0), then the mean over
// rows, all in f32, truncated to bf16 at the end.
// CHECK-LABEL: func.func @softmax_cross_entropy(
// CHECK-SAME:    %[[L:[^:]+]]: tensor<8x10xbf16>, %[[Y:[^:]+]]: tensor<8xi64>
// CHECK:         %[[MAX:.+]] = linalg.generic
// CHECK:         %[[SUM:.+]] = linalg.generic
// CHECK:         %[[ROWS:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[MAX]], %[[SUM]], %[[Y]] : tensor<8xf32>, tensor<8xf32>, tensor<8xi64>)
// CHECK:         ^bb0(%[[M:.+]]: f32, %[[S:.+]]: f32, %[[LBL:.+]]: i64, %{{.+}}: f32):
// CHECK:           %[[N:.+]] = linalg.index 0 : index
// CHECK:           %[[C:.+]] = arith.index_cast %[[LBL]] : i64 to index
// CHECK:           %[[PICK:.+]] = tensor.extract %[[L]][%[[N]], %[[C]]] : tensor<8x10xbf16>
// CHECK:           %[[PW:.+]] = arith.extf %[[PICK]] : bf16 to f32
// CHECK:           %[[LOG:.+]] = math.log %[[S]] : f32
// CHECK:           %[[LSE:.+]] = arith.addf %[[LOG]], %[[M]] : f32
// CHECK:           arith.subf %[[LSE]], %[[PW]] : f32
// CHECK:         %[[TOTAL:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["reduction"]
// CHECK-SAME:      ins(%[[ROWS]] : tensor<8xf32>) outs(%{{.+}} : tensor<f32>)
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[TOTAL]] : tensor<f32>) outs(%{{.+}} : tensor<bf16>)
// CHECK:           %[[MEAN:.+]] = arith.divf
// CHECK:           arith.truncf %[[MEAN]] : f32 to bf16
// CHECK:         return %[[R]] : tensor<bf16>
func.func @softmax_cross_entropy(%l: tensor<8x10xbf16>, %y: tensor<8xi64>) -> tensor<bf16> {
  %0 = rlx.softmax_cross_entropy %l, %y : tensor<8x10xbf16>, tensor<8xi64>
  return %0 : tensor<bf16>
}

// -----

// topk selects: a loop of k passes, pass j a reduction over the axis
// taking the best element that ranks after pass j-1's pick (index -1:
// none yet), inserted as slot j of values and indices.
// CHECK-LABEL: func.func @topk(
// CHECK:         %[[K:.+]] = arith.constant 2 : index
// CHECK:         %[[LOOP:.+]]:4 = scf.for %[[J:.+]] = %{{.+}} to %[[K]] step %{{.+}} iter_args(%[[V:[^ ]+]] = %{{.+}}, %[[I:[^ ]+]] = %{{.+}}, %[[PV:[^ ]+]] = %{{.+}}, %[[PI:[^ ]+]] = %{{.+}})
// CHECK:           %[[BEST:.+]]:2 = linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "reduction"]
// CHECK-SAME:        ins(%{{.+}}, %[[PV]], %[[PI]] : tensor<4x8xf32>, tensor<4xf32>, tensor<4xi64>)
// CHECK:             arith.select
// CHECK:             arith.select
// CHECK:           } -> (tensor<4xf32>, tensor<4xi64>)
// CHECK:           %[[NV:.+]] = tensor.insert_slice %[[BEST]]#0 into %[[V]][0, %[[J]]] [4, 1] [1, 1]
// CHECK:           %[[NI:.+]] = tensor.insert_slice %[[BEST]]#1 into %[[I]][0, %[[J]]] [4, 1] [1, 1]
// CHECK:           scf.yield %[[NV]], %[[NI]], %[[BEST]]#0, %[[BEST]]#1
// CHECK:         return %[[LOOP]]#0, %[[LOOP]]#1
func.func @topk(%x: tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xi64>) {
  %v, %i = rlx.topk %x k = 2 axis = -1 : tensor<4x8xf32>
  return %v, %i : tensor<4x2xf32>, tensor<4x2xi64>
}
