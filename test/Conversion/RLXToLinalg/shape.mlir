// RUN: rlx-opt %s -convert-rlx-to-linalg -split-input-file | FileCheck %s

// A static reshape that merges adjacent dims is a collapse_shape, one that
// splits them an expand_shape: views with the shape in their types, and no
// shape buffer (which GPU kernels could not read from host memory).
// CHECK-LABEL: func.func @reshape_merge(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<2x3x4xf32>
// CHECK:         %[[R:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
// CHECK:         return %[[R]]
func.func @reshape_merge(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %0 = rlx.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// CHECK-LABEL: func.func @reshape_split(
// CHECK:         %[[R:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0], [1, 2]] output_shape [4, 3, 2] : tensor<4x6xf32> into tensor<4x3x2xf32>
// CHECK:         return %[[R]]
func.func @reshape_split(%x: tensor<4x6xf32>) -> tensor<4x3x2xf32> {
  %0 = rlx.reshape %x : tensor<4x6xf32> -> tensor<4x3x2xf32>
  return %0 : tensor<4x3x2xf32>
}

// -----

// Neither a merge nor a split, but both shapes merge dims of 2x16x2: an
// expand to it and a collapse from it, views with static shapes.
// CHECK-LABEL: func.func @reshape_refine(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<2x32xf32>
// CHECK:         %[[E:.+]] = tensor.expand_shape %[[X]] {{\[\[}}0], [1, 2]] output_shape [2, 16, 2] : tensor<2x32xf32> into tensor<2x16x2xf32>
// CHECK:         %[[R:.+]] = tensor.collapse_shape %[[E]] {{\[\[}}0, 1], [2]] : tensor<2x16x2xf32> into tensor<32x2xf32>
// CHECK:         return %[[R]]
func.func @reshape_refine(%x: tensor<2x32xf32>) -> tensor<32x2xf32> {
  %0 = rlx.reshape %x : tensor<2x32xf32> -> tensor<32x2xf32>
  return %0 : tensor<32x2xf32>
}

// -----

// Unit dims stay in the refinement: 1x4x8 -> 1x2x16 through 1x2x2x8.
// CHECK-LABEL: func.func @reshape_refine_unit(
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3]] output_shape [1, 2, 2, 8] : tensor<1x4x8xf32> into tensor<1x2x2x8xf32>
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : tensor<1x2x2x8xf32> into tensor<1x2x16xf32>
func.func @reshape_refine_unit(%x: tensor<1x4x8xf32>) -> tensor<1x2x16xf32> {
  %0 = rlx.reshape %x : tensor<1x4x8xf32> -> tensor<1x2x16xf32>
  return %0 : tensor<1x2x16xf32>
}

// -----

// Unit dims apart: the dims that are not 1 merge (4 and 16 into 64), then
// the unit dim is put back (grouped-query attention's reshape of q).
// CHECK-LABEL: func.func @reshape_unit_dims(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<2x4x16x8xf32>
// CHECK:         %[[C:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0], [1, 2], [3]] : tensor<2x4x16x8xf32> into tensor<2x64x8xf32>
// CHECK:         %[[E:.+]] = tensor.expand_shape %[[C]] {{\[}}[0], [1, 2], [3]] output_shape [2, 1, 64, 8] : tensor<2x64x8xf32> into tensor<2x1x64x8xf32>
// CHECK:         return %[[E]]
func.func @reshape_unit_dims(%x: tensor<2x4x16x8xf32>) -> tensor<2x1x64x8xf32> {
  %0 = rlx.reshape %x : tensor<2x4x16x8xf32> -> tensor<2x1x64x8xf32>
  return %0 : tensor<2x1x64x8xf32>
}

// -----

// No common refinement (a dim of 4 straddles 6 = 4 + 2): a collapse to
// one dim and an expand from it, views with their shapes in their types
// (no shape operand, which would be a host buffer).
// CHECK-LABEL: func.func @reshape_static(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x6xf32>
// CHECK:         %[[F:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1]] : tensor<4x6xf32> into tensor<24xf32>
// CHECK:         %[[R:.+]] = tensor.expand_shape %[[F]] {{\[}}[0, 1]] output_shape [6, 4] : tensor<24xf32> into tensor<6x4xf32>
// CHECK-NOT:     tensor.reshape
// CHECK:         return %[[R]]
func.func @reshape_static(%x: tensor<4x6xf32>) -> tensor<6x4xf32> {
  %0 = rlx.reshape %x : tensor<4x6xf32> -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

// One dynamic result dim is the element count divided by the product of
// the static ones; ui8 becomes i8.
// CHECK-LABEL: func.func @reshape_dynamic(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<?x4xi8>) -> tensor<?x2x2xi8>
// CHECK:         %[[DIM:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x4xi8>
// CHECK:         %[[N0:.+]] = arith.muli %{{.+}}, %[[DIM]] : index
// CHECK:         %[[N:.+]] = arith.muli %[[N0]], %{{.+}} : index
// CHECK:         %[[KNOWN:.+]] = arith.constant 4 : index
// CHECK:         %[[D:.+]] = arith.divui %[[N]], %[[KNOWN]] : index
// CHECK:         %[[SHAPE:.+]] = tensor.from_elements %[[D]], %{{.+}}, %{{.+}} : tensor<3xindex>
// CHECK:         tensor.reshape %[[X]](%[[SHAPE]]) : (tensor<?x4xi8>, tensor<3xindex>) -> tensor<?x2x2xi8>
func.func @reshape_dynamic(%x: tensor<?x4xui8>) -> tensor<?x2x2xui8> {
  %0 = rlx.reshape %x : tensor<?x4xui8> -> tensor<?x2x2xui8>
  return %0 : tensor<?x2x2xui8>
}

// -----

// Several dynamic result dims pair up with the input's: a transformer's
// head split keeps both sizes.
// CHECK-LABEL: func.func @reshape_dynamic_heads(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<?x?x32xf32>
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG:     %[[B:.+]] = tensor.dim %[[X]], %[[C0]]
// CHECK-DAG:     %[[S:.+]] = tensor.dim %[[X]], %[[C1]]
// CHECK:         %[[SHAPE:.+]] = tensor.from_elements %[[B]], %[[S]], %[[C4]], %[[C8]] : tensor<4xindex>
// CHECK:         tensor.reshape %[[X]](%[[SHAPE]]) : (tensor<?x?x32xf32>, tensor<4xindex>) -> tensor<?x?x4x8xf32>
func.func @reshape_dynamic_heads(%x: tensor<?x?x32xf32>) -> tensor<?x?x4x8xf32> {
  %0 = rlx.reshape %x : tensor<?x?x32xf32> -> tensor<?x?x4x8xf32>
  return %0 : tensor<?x?x4x8xf32>
}

// -----

// A dynamic dim whose group's static dims shrink takes their ratio:
// [s, b, 32] -> [s, 4 * b, 8].
// CHECK-LABEL: func.func @reshape_dynamic_group(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<?x?x32xf32>
// CHECK:         %[[S:.+]] = tensor.dim %[[X]], %{{.+}}
// CHECK:         %[[B:.+]] = tensor.dim %[[X]], %{{.+}}
// CHECK:         %[[N:.+]] = arith.muli %[[B]], %{{.+}} : index
// CHECK:         %[[B4:.+]] = arith.divui %[[N]], %{{.+}} : index
// CHECK:         %[[SHAPE:.+]] = tensor.from_elements %[[S]], %[[B4]], %{{.+}} : tensor<3xindex>
// CHECK:         tensor.reshape %[[X]](%[[SHAPE]])
func.func @reshape_dynamic_group(%x: tensor<?x?x32xf32>) -> tensor<?x?x8xf32> {
  %0 = rlx.reshape %x : tensor<?x?x32xf32> -> tensor<?x?x8xf32>
  return %0 : tensor<?x?x8xf32>
}

// -----

// transpose -> linalg.transpose; result dim i is sized by input dim
// permutation[i].
// CHECK-LABEL: func.func @transpose(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<?x3x4xf32>
// CHECK:         %[[C0:.+]] = arith.constant 0 : index
// CHECK:         %[[DIM:.+]] = tensor.dim %[[X]], %[[C0]]
// CHECK:         %[[INIT:.+]] = tensor.empty(%[[DIM]]) : tensor<4x?x3xf32>
// CHECK:         %[[T:.+]] = linalg.transpose ins(%[[X]] : tensor<?x3x4xf32>) outs(%[[INIT]] : tensor<4x?x3xf32>) permutation = [2, 0, 1]
// CHECK:         return %[[T]]
func.func @transpose(%x: tensor<?x3x4xf32>) -> tensor<4x?x3xf32> {
  %0 = rlx.transpose %x [2, 0, 1] : tensor<?x3x4xf32>
  return %0 : tensor<4x?x3xf32>
}

// -----

// narrow -> tensor.extract_slice at `start` along the (negative) axis, full
// elsewhere.
// CHECK-LABEL: func.func @narrow(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<?x128x2304xf32>
// CHECK:         %[[DIM:.+]] = tensor.dim %[[X]], %{{.+}}
// CHECK:         %[[S:.+]] = tensor.extract_slice %[[X]][0, 0, 768] [%[[DIM]], 128, 768] [1, 1, 1] : tensor<?x128x2304xf32> to tensor<?x128x768xf32>
// CHECK:         return %[[S]]
func.func @narrow(%x: tensor<?x128x2304xf32>) -> tensor<?x128x768xf32> {
  %0 = rlx.narrow %x axis = -1 start = 768 length = 768 : tensor<?x128x2304xf32>
  return %0 : tensor<?x128x768xf32>
}

// -----

// An empty slice that starts at the end of its axis (an offset
// tensor.extract_slice rejects) is an empty tensor; its dynamic dims are
// the input's.
// CHECK-LABEL: func.func @narrow_empty_at_end(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<?x128xf32>
// CHECK:         %[[D:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x128xf32>
// CHECK:         %[[E:.+]] = tensor.empty(%[[D]]) : tensor<?x0xf32>
// CHECK-NOT:     tensor.extract_slice
// CHECK:         return %[[E]]
func.func @narrow_empty_at_end(%x: tensor<?x128xf32>) -> tensor<?x0xf32> {
  %0 = rlx.narrow %x axis = 1 start = 128 length = 0 : tensor<?x128xf32>
  return %0 : tensor<?x0xf32>
}

// -----

// concat -> tensor.empty of the summed size and a chain of
// tensor.insert_slice, each at the running offset.
// CHECK-LABEL: func.func @concat(
// CHECK-SAME:    %[[A:[^:]+]]: tensor<?x5xf32>, %[[B:[^:]+]]: tensor<?x5xf32>, %[[C:[^:]+]]: tensor<?x5xf32>
// CHECK:         tensor.dim %[[C]]
// CHECK:         %[[TOTAL:.+]] = arith.addi %{{.+}}, %{{.+}} : index
// CHECK-NEXT:    %[[INIT:.+]] = tensor.empty(%[[TOTAL]]) : tensor<?x5xf32>
// CHECK:         %[[DA:.+]] = tensor.dim %[[A]]
// CHECK:         %[[S0:.+]] = tensor.insert_slice %[[A]] into %[[INIT]][0, 0] [%[[DA]], 5] [1, 1]
// CHECK:         %[[OFF1:.+]] = arith.addi %{{.+}}, %[[DA]] : index
// CHECK:         %[[DB:.+]] = tensor.dim %[[B]]
// CHECK:         %[[S1:.+]] = tensor.insert_slice %[[B]] into %[[S0]][%[[OFF1]], 0] [%[[DB]], 5] [1, 1]
// CHECK:         %[[OFF2:.+]] = arith.addi %[[OFF1]], %[[DB]] : index
// CHECK:         %[[DC:.+]] = tensor.dim %[[C]]
// CHECK:         %[[S2:.+]] = tensor.insert_slice %[[C]] into %[[S1]][%[[OFF2]], 0] [%[[DC]], 5] [1, 1]
// CHECK:         return %[[S2]]
func.func @concat(%a: tensor<?x5xf32>, %b: tensor<?x5xf32>, %c: tensor<?x5xf32>) -> tensor<?x5xf32> {
  %0 = rlx.concat %a, %b, %c axis = 0 : tensor<?x5xf32>, tensor<?x5xf32>, tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}

// -----

// expand: a copying generic that reads the operand through its broadcast
// map (leading dims dropped).
// CHECK-DAG: #[[$LAST:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-DAG: #[[$ID:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @expand(
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$LAST]], #[[$ID]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel"]
// CHECK:         ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      linalg.yield %[[IN]] : f32
func.func @expand(%b: tensor<768xf32>) -> tensor<8x128x768xf32> {
  %0 = rlx.expand %b : tensor<768xf32> -> tensor<8x128x768xf32>
  return %0 : tensor<8x128x768xf32>
}

// -----

// A size-1 dim stretches to a static size; a dynamic dim stays dynamic.
// CHECK-DAG: #[[$COL:map[0-9]*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @expand_dynamic(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<?x1xi64>
// CHECK:         %[[DIM:.+]] = tensor.dim %[[X]]
// CHECK:         %[[INIT:.+]] = tensor.empty(%[[DIM]]) : tensor<?x4xi64>
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$COL]], #{{.+}}]
// CHECK-SAME:      outs(%[[INIT]] : tensor<?x4xi64>)
func.func @expand_dynamic(%c: tensor<?x1xi64>) -> tensor<?x4xi64> {
  %0 = rlx.expand %c : tensor<?x1xi64> -> tensor<?x4xi64>
  return %0 : tensor<?x4xi64>
}

// -----

// A size-1 dim stretched to a dynamic size takes it from `like` (the
// gradient of a mean over a dynamic batch).
// CHECK-DAG: #[[$ROW:map[0-9]*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func.func @expand_like(
// CHECK-SAME:    %[[C:[^:]+]]: tensor<1x4xf32>, %[[L:[^:]+]]: tensor<?x4xf16>
// CHECK:         %[[ZERO:.+]] = arith.constant 0 : index
// CHECK:         %[[DIM:.+]] = tensor.dim %[[L]], %[[ZERO]]
// CHECK:         %[[INIT:.+]] = tensor.empty(%[[DIM]]) : tensor<?x4xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ROW]], #{{.+}}]
// CHECK-SAME:      ins(%[[C]] : tensor<1x4xf32>)
// CHECK-SAME:      outs(%[[INIT]] : tensor<?x4xf32>)
func.func @expand_like(%c: tensor<1x4xf32>, %l: tensor<?x4xf16>) -> tensor<?x4xf32> {
  %0 = rlx.expand %c like %l : tensor<1x4xf32>, tensor<?x4xf16> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// gather: a generic over the result that reads the indices through a map
// and extracts from the table at (index, trailing loop dims).
// CHECK-DAG: #[[$IDX:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[$ID:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @gather(
// CHECK-SAME:    %[[T:[^:]+]]: tensor<100x32xf32>, %[[I:[^:]+]]: tensor<4x5xi64>
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$IDX]], #[[$ID]]]
// CHECK-SAME:      ins(%[[I]] : tensor<4x5xi64>)
// CHECK:         ^bb0(%[[IN:.+]]: i64, %{{.+}}: f32):
// CHECK:           %[[ROW:.+]] = arith.index_cast %[[IN]] : i64 to index
// CHECK:           %[[COL:.+]] = linalg.index 2 : index
// CHECK:           %[[E:.+]] = tensor.extract %[[T]][%[[ROW]], %[[COL]]] : tensor<100x32xf32>
// CHECK:           linalg.yield %[[E]] : f32
func.func @gather(%t: tensor<100x32xf32>, %i: tensor<4x5xi64>) -> tensor<4x5x32xf32> {
  %0 = rlx.gather %t, %i axis = 0 : tensor<100x32xf32>, tensor<4x5xi64>
  return %0 : tensor<4x5x32xf32>
}

// -----

// gather along a middle axis: the dims before and after it are loop
// indices; the dynamic result dim is the indices' length.
// CHECK-DAG: #[[$IDX:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @gather_middle(
// CHECK-SAME:    %[[T:[^:]+]]: tensor<3x?x7xf32>, %[[I:[^:]+]]: tensor<?xi64>
// CHECK:         %[[DIM:.+]] = tensor.dim %[[I]]
// CHECK:         %[[INIT:.+]] = tensor.empty(%[[DIM]]) : tensor<3x?x7xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$IDX]], #{{.+}}]
// CHECK:         ^bb0(%[[IN:.+]]: i64, %{{.+}}: f32):
// CHECK:           %[[I0:.+]] = linalg.index 0 : index
// CHECK:           %[[I1:.+]] = arith.index_cast %[[IN]] : i64 to index
// CHECK:           %[[I2:.+]] = linalg.index 2 : index
// CHECK:           tensor.extract %[[T]][%[[I0]], %[[I1]], %[[I2]]]
func.func @gather_middle(%t: tensor<3x?x7xf32>, %i: tensor<?xi64>) -> tensor<3x?x7xf32> {
  %0 = rlx.gather %t, %i axis = 1 : tensor<3x?x7xf32>, tensor<?xi64>
  return %0 : tensor<3x?x7xf32>
}

// -----

// scatter_add: an scf.for over the indices; each step adds one update
// slice into the slice of the accumulator at the index.
// CHECK-LABEL: func.func @scatter_add(
// CHECK-SAME:    %[[BASE:[^:]+]]: tensor<100x32xf32>, %[[IDX:[^:]+]]: tensor<3xi64>, %[[UPD:[^:]+]]: tensor<3x32xf32>
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C3:.+]] = arith.constant 3 : index
// CHECK:         %[[R:.+]] = scf.for %[[J:.+]] = %[[C0]] to %[[C3]] step %[[C1]] iter_args(%[[ACC:.+]] = %[[BASE]]) -> (tensor<100x32xf32>) {
// CHECK:           %[[E:.+]] = tensor.extract %[[IDX]][%[[J]]] : tensor<3xi64>
// CHECK:           %[[T:.+]] = arith.index_cast %[[E]] : i64 to index
// CHECK:           %[[U:.+]] = tensor.extract_slice %[[UPD]][%[[J]], 0] [1, 32] [1, 1]
// CHECK:           %[[CUR:.+]] = tensor.extract_slice %[[ACC]][%[[T]], 0] [1, 32] [1, 1]
// CHECK:           %[[SUM:.+]] = linalg.generic
// CHECK-SAME:        ins(%[[CUR]], %[[U]] :
// CHECK:             arith.addf
// CHECK:           %[[NEXT:.+]] = tensor.insert_slice %[[SUM]] into %[[ACC]][%[[T]], 0] [1, 32] [1, 1]
// CHECK:           scf.yield %[[NEXT]]
// CHECK:         return %[[R]]
func.func @scatter_add(%b: tensor<100x32xf32>, %i: tensor<3xi64>, %u: tensor<3x32xf32>) -> tensor<100x32xf32> {
  %0 = rlx.scatter_add %b, %i, %u axis = 0 : tensor<100x32xf32>, tensor<3xi64>, tensor<3x32xf32>
  return %0 : tensor<100x32xf32>
}

// -----

// reverse: a generic without inputs that extracts at size - 1 - index
// along the reversed axes.
// CHECK-LABEL: func.func @reverse(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x?x2xf32>
// CHECK:         %[[DIM:.+]] = tensor.dim %[[X]], %{{.+}}
// CHECK:         %[[LAST:.+]] = arith.subi %[[DIM]], %{{.+}} : index
// CHECK:         linalg.generic {indexing_maps = [#{{[a-z0-9]+}}], iterator_types = ["parallel", "parallel", "parallel"]} outs(
// CHECK:           %[[I0:.+]] = linalg.index 0 : index
// CHECK:           %[[I1:.+]] = linalg.index 1 : index
// CHECK:           %[[M:.+]] = arith.subi %[[LAST]], %[[I1]] : index
// CHECK:           %[[I2:.+]] = linalg.index 2 : index
// CHECK:           tensor.extract %[[X]][%[[I0]], %[[M]], %[[I2]]]
func.func @reverse(%x: tensor<4x?x2xf32>) -> tensor<4x?x2xf32> {
  %0 = rlx.reverse %x axes = [1] : tensor<4x?x2xf32>
  return %0 : tensor<4x?x2xf32>
}

// -----

// concat of statically sized inputs keeps each slice's static size (a
// dynamic size would not match the static source type).
// CHECK-LABEL: func.func @concat_static(
// CHECK-SAME:    %[[A:[^:]+]]: tensor<2x3xf32>, %[[B:[^:]+]]: tensor<2x5xf32>
// CHECK:         %[[INIT:.+]] = tensor.empty() : tensor<2x8xf32>
// CHECK:         %[[S0:.+]] = tensor.insert_slice %[[A]] into %[[INIT]][0, 0] [2, 3] [1, 1]
// CHECK:         %[[S1:.+]] = tensor.insert_slice %[[B]] into %[[S0]][0, %{{.+}}] [2, 5] [1, 1]
// CHECK:         return %[[S1]]
func.func @concat_static(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> tensor<2x8xf32> {
  %0 = rlx.concat %a, %b axis = 1 : tensor<2x3xf32>, tensor<2x5xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// scatter_add on complex adds with complex.add.
// CHECK-LABEL: func.func @scatter_add_complex(
// CHECK:         scf.for
// CHECK:           complex.add
func.func @scatter_add_complex(%b: tensor<4x2xcomplex<f32>>, %i: tensor<3xi64>, %u: tensor<3x2xcomplex<f32>>) -> tensor<4x2xcomplex<f32>> {
  %0 = rlx.scatter_add %b, %i, %u axis = 0 : tensor<4x2xcomplex<f32>>, tensor<3xi64>, tensor<3x2xcomplex<f32>>
  return %0 : tensor<4x2xcomplex<f32>>
}
