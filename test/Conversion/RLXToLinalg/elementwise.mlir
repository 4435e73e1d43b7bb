// RUN: rlx-opt %s -convert-rlx-to-linalg -split-input-file | FileCheck %s

// A binary op becomes one all-parallel linalg.generic into a tensor.empty;
// a missing leading dim of an operand is dropped from its map.
// CHECK-DAG: #[[$ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @add_row_broadcast(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>, %[[R:[^:]+]]: tensor<8xf32>
// CHECK:         %[[INIT:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK:         %[[RES:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID]], #[[$ROW]], #[[$ID]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%[[X]], %[[R]] : tensor<4x8xf32>, tensor<8xf32>)
// CHECK-SAME:      outs(%[[INIT]] : tensor<4x8xf32>)
// CHECK:         ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32, %{{.+}}: f32):
// CHECK:           %[[S:.+]] = arith.addf %[[A]], %[[B]] : f32
// CHECK:           linalg.yield %[[S]] : f32
// CHECK:         return %[[RES]]
func.func @add_row_broadcast(%x: tensor<4x8xf32>, %row: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = rlx.add %x, %row : tensor<4x8xf32>, tensor<8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A static size-1 dim that stretches is read at index 0.
// CHECK-DAG: #[[$COL:map[0-9]*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[$ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @add_col_row_broadcast(
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$COL]], #[[$ROW]], #[[$ID]]]
// CHECK-SAME:      ins(%{{.+}}, %{{.+}} : tensor<4x1xf32>, tensor<8xf32>)
// CHECK:           arith.addf
func.func @add_col_row_broadcast(%col: tensor<4x1xf32>, %row: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = rlx.add %col, %row : tensor<4x1xf32>, tensor<8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A rank-0 operand is read through a map without results; integers add
// with arith.addi.
// CHECK-DAG: #[[$ID:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$SCALAR:map[0-9]*]] = affine_map<(d0, d1, d2) -> ()>
// CHECK-LABEL: func.func @add_scalar_broadcast(
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID]], #[[$SCALAR]], #[[$ID]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel"]
// CHECK:           arith.addi %{{.+}}, %{{.+}} : i32
func.func @add_scalar_broadcast(%x: tensor<2x3x4xi32>, %s: tensor<i32>) -> tensor<2x3x4xi32> {
  %0 = rlx.add %x, %s : tensor<2x3x4xi32>, tensor<i32>
  return %0 : tensor<2x3x4xi32>
}

// -----

// Complex operands add with complex.add.
// CHECK-LABEL: func.func @add_complex(
// CHECK:         linalg.generic
// CHECK:           complex.add %{{.+}}, %{{.+}} : complex<f32>
// CHECK-NOT:       arith.add
func.func @add_complex(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = rlx.add %a, %a : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

// Rank-0 operands: a generic without loops.
// CHECK-DAG: #[[$EMPTY:map[0-9]*]] = affine_map<() -> ()>
// CHECK-LABEL: func.func @add_rank0(
// CHECK:         tensor.empty() : tensor<f32>
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$EMPTY]], #[[$EMPTY]], #[[$EMPTY]]]
// CHECK-SAME:      iterator_types = []
// CHECK:           arith.addf
func.func @add_rank0(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = rlx.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// sub and mul pick the integer or float arith op.
// CHECK-LABEL: func.func @sub_mul(
// CHECK:         linalg.generic
// CHECK:           arith.subi %{{.+}}, %{{.+}} : i8
// CHECK:         linalg.generic
// CHECK:           arith.mulf %{{.+}}, %{{.+}} : f64
func.func @sub_mul(%a: tensor<4xi8>, %b: tensor<4xf64>) -> (tensor<4xi8>, tensor<4xf64>) {
  %0 = rlx.sub %a, %a : tensor<4xi8>
  %1 = rlx.mul %b, %b : tensor<4xf64>
  return %0, %1 : tensor<4xi8>, tensor<4xf64>
}

// -----

// div: unsigned integers divide with divui, signed with divsi; ui32 becomes
// i32 in the signature.
// CHECK-LABEL: func.func @div_kinds(
// CHECK-SAME:    %[[U:[^:]+]]: tensor<4xi32>, %[[I:[^:]+]]: tensor<4xi32>, %[[F:[^:]+]]: tensor<4xf32>, %[[C:[^:]+]]: tensor<4xcomplex<f32>>
// CHECK-SAME:    -> (tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xcomplex<f32>>)
// CHECK:         linalg.generic {{.*}} ins(%[[U]], %[[U]] :
// CHECK:           arith.divui %{{.+}}, %{{.+}} : i32
// CHECK:         linalg.generic {{.*}} ins(%[[I]], %[[I]] :
// CHECK:           arith.divsi %{{.+}}, %{{.+}} : i32
// CHECK:         linalg.generic {{.*}} ins(%[[F]], %[[F]] :
// CHECK:           arith.divf %{{.+}}, %{{.+}} : f32
// CHECK:         linalg.generic {{.*}} ins(%[[C]], %[[C]] :
// CHECK:           complex.div %{{.+}}, %{{.+}} : complex<f32>
func.func @div_kinds(%u: tensor<4xui32>, %i: tensor<4xi32>, %f: tensor<4xf32>, %c: tensor<4xcomplex<f32>>)
    -> (tensor<4xui32>, tensor<4xi32>, tensor<4xf32>, tensor<4xcomplex<f32>>) {
  %0 = rlx.div %u, %u : tensor<4xui32>
  %1 = rlx.div %i, %i : tensor<4xi32>
  %2 = rlx.div %f, %f : tensor<4xf32>
  %3 = rlx.div %c, %c : tensor<4xcomplex<f32>>
  return %0, %1, %2, %3 : tensor<4xui32>, tensor<4xi32>, tensor<4xf32>, tensor<4xcomplex<f32>>
}

// -----

// max / min: maximumf / minimumf for floats (NaN propagates), the unsigned
// forms for ui8 (an i8 in the signature), the signed forms for i16.
// CHECK-LABEL: func.func @max_min_kinds(
// CHECK-SAME:    %{{[^:]+}}: tensor<4xf32>, %{{[^:]+}}: tensor<4xi8>, %{{[^:]+}}: tensor<4xi16>
// CHECK:         arith.maximumf %{{.+}}, %{{.+}} : f32
// CHECK:         arith.maxui %{{.+}}, %{{.+}} : i8
// CHECK:         arith.maxsi %{{.+}}, %{{.+}} : i16
// CHECK:         arith.minimumf %{{.+}}, %{{.+}} : f32
// CHECK:         arith.minui %{{.+}}, %{{.+}} : i8
// CHECK:         arith.minsi %{{.+}}, %{{.+}} : i16
func.func @max_min_kinds(%f: tensor<4xf32>, %u: tensor<4xui8>, %i: tensor<4xi16>)
    -> (tensor<4xf32>, tensor<4xui8>, tensor<4xi16>, tensor<4xf32>, tensor<4xui8>, tensor<4xi16>) {
  %0 = rlx.max %f, %f : tensor<4xf32>
  %1 = rlx.max %u, %u : tensor<4xui8>
  %2 = rlx.max %i, %i : tensor<4xi16>
  %3 = rlx.min %f, %f : tensor<4xf32>
  %4 = rlx.min %u, %u : tensor<4xui8>
  %5 = rlx.min %i, %i : tensor<4xi16>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xui8>, tensor<4xi16>, tensor<4xf32>, tensor<4xui8>, tensor<4xi16>
}

// -----

// A dynamic result dim is sized by tensor.dim of the operand that has it.
// CHECK-DAG: #[[$ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @dynamic_broadcast(
// CHECK-SAME:    %[[D:[^:]+]]: tensor<?x8xf32>
// CHECK:         %[[C0:.+]] = arith.constant 0 : index
// CHECK:         %[[DIM:.+]] = tensor.dim %[[D]], %[[C0]] : tensor<?x8xf32>
// CHECK:         %[[INIT:.+]] = tensor.empty(%[[DIM]]) : tensor<?x8xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID]], #[[$ROW]], #[[$ID]]]
// CHECK-SAME:      outs(%[[INIT]] : tensor<?x8xf32>)
// CHECK:           arith.maximumf
func.func @dynamic_broadcast(%d: tensor<?x8xf32>, %row: tensor<8xf32>) -> tensor<?x8xf32> {
  %0 = rlx.max %d, %row : tensor<?x8xf32>, tensor<8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

// Each dynamic dim of an outer product comes from the operand that has it;
// the static 1s stretch.
// CHECK-DAG: #[[$COL:map[0-9]*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[$ROW:map[0-9]*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func.func @dynamic_outer(
// CHECK-SAME:    %[[A:[^:]+]]: tensor<?x1xf32>, %[[B:[^:]+]]: tensor<1x?xf32>
// CHECK-DAG:     %[[D0:.+]] = tensor.dim %[[A]], %{{.+}} : tensor<?x1xf32>
// CHECK-DAG:     %[[D1:.+]] = tensor.dim %[[B]], %{{.+}} : tensor<1x?xf32>
// CHECK:         %[[INIT:.+]] = tensor.empty(%[[D0]], %[[D1]]) : tensor<?x?xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$COL]], #[[$ROW]], #{{.+}}]
// CHECK-SAME:      outs(%[[INIT]] : tensor<?x?xf32>)
// CHECK:           arith.mulf
func.func @dynamic_outer(%a: tensor<?x1xf32>, %b: tensor<1x?xf32>) -> tensor<?x?xf32> {
  %0 = rlx.mul %a, %b : tensor<?x1xf32>, tensor<1x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// gelu (erf form) of f16 is computed in f32: extf in, truncf out.
// CHECK-LABEL: func.func @gelu_f16(
// CHECK:         linalg.generic
// CHECK:         ^bb0(%[[IN:.+]]: f16, %{{.+}}: f16):
// CHECK:           %[[W:.+]] = arith.extf %[[IN]] : f16 to f32
// CHECK:           math.erf %{{.+}} : f32
// CHECK:           %[[Y:.+]] = arith.truncf %{{.+}} : f32 to f16
// CHECK:           linalg.yield %[[Y]] : f16
func.func @gelu_f16(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = rlx.gelu %x : tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// The tanh approximation of gelu uses math.tanh and no erf.
// CHECK-LABEL: func.func @gelu_tanh(
// CHECK:         linalg.generic
// CHECK-NOT:       math.erf
// CHECK:           math.tanh %{{.+}} : f32
// CHECK-NOT:       math.erf
// CHECK:         return
func.func @gelu_tanh(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = rlx.gelu %x {approximate = "tanh"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// sigmoid is 1 / (1 + exp(-x)); silu multiplies it by x.
// CHECK-LABEL: func.func @sigmoid_silu(
// CHECK:         linalg.generic
// CHECK:         ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK:           %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK:           %[[NEG:.+]] = arith.negf %[[X]] : f32
// CHECK:           %[[E:.+]] = math.exp %[[NEG]] : f32
// CHECK:           %[[DEN:.+]] = arith.addf %[[ONE]], %[[E]] : f32
// CHECK:           %[[SIG:.+]] = arith.divf %[[ONE]], %[[DEN]] : f32
// CHECK:           linalg.yield %[[SIG]] : f32
// CHECK:         linalg.generic
// CHECK:         ^bb0(%[[X2:.+]]: f32, %{{.+}}: f32):
// CHECK:           %[[SIG2:.+]] = arith.divf
// CHECK:           %[[SILU:.+]] = arith.mulf %[[X2]], %[[SIG2]] : f32
// CHECK:           linalg.yield %[[SILU]] : f32
func.func @sigmoid_silu(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = rlx.sigmoid %x : tensor<4xf32>
  %1 = rlx.silu %x : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// relu is max(x, 0): maximumf for floats, maxsi for signed integers.
// CHECK-LABEL: func.func @relu(
// CHECK:         ^bb0(%[[F:.+]]: f32, %{{.+}}: f32):
// CHECK:           %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:           arith.maximumf %[[F]], %[[Z]] : f32
// CHECK:         ^bb0(%[[I:.+]]: i8, %{{.+}}: i8):
// CHECK:           %[[ZI:.+]] = arith.constant 0 : i8
// CHECK:           arith.maxsi %[[I]], %[[ZI]] : i8
func.func @relu(%f: tensor<4xf32>, %i: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xi8>) {
  %0 = rlx.relu %f : tensor<4xf32>
  %1 = rlx.relu %i : tensor<4xi8>
  return %0, %1 : tensor<4xf32>, tensor<4xi8>
}

// -----

// neg: negf, 0 - x for integers, complex.neg; abs: absf, absi.
// CHECK-LABEL: func.func @neg_abs(
// CHECK:           arith.negf %{{.+}} : f32
// CHECK:         ^bb0(%[[I:.+]]: i32, %{{.+}}: i32):
// CHECK:           %[[Z:.+]] = arith.constant 0 : i32
// CHECK:           arith.subi %[[Z]], %[[I]] : i32
// CHECK:           complex.neg %{{.+}} : complex<f32>
// CHECK:           math.absf %{{.+}} : f32
// CHECK:           math.absi %{{.+}} : i32
func.func @neg_abs(%f: tensor<4xf32>, %i: tensor<4xi32>, %c: tensor<4xcomplex<f32>>)
    -> (tensor<4xf32>, tensor<4xi32>, tensor<4xcomplex<f32>>, tensor<4xf32>, tensor<4xi32>) {
  %0 = rlx.neg %f : tensor<4xf32>
  %1 = rlx.neg %i : tensor<4xi32>
  %2 = rlx.neg %c : tensor<4xcomplex<f32>>
  %3 = rlx.abs %f : tensor<4xf32>
  %4 = rlx.abs %i : tensor<4xi32>
  return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<4xi32>, tensor<4xcomplex<f32>>, tensor<4xf32>, tensor<4xi32>
}

// -----

// exp of bf16 is computed in f32; complex exp and log use the complex
// dialect.
// CHECK-LABEL: func.func @exp_log(
// CHECK:           %[[W:.+]] = arith.extf %{{.+}} : bf16 to f32
// CHECK:           %[[E:.+]] = math.exp %[[W]] : f32
// CHECK:           arith.truncf %[[E]] : f32 to bf16
// CHECK:           complex.exp %{{.+}} : complex<f32>
// CHECK:           complex.log %{{.+}} : complex<f32>
func.func @exp_log(%h: tensor<4xbf16>, %c: tensor<4xcomplex<f32>>)
    -> (tensor<4xbf16>, tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) {
  %0 = rlx.exp %h : tensor<4xbf16>
  %1 = rlx.exp %c : tensor<4xcomplex<f32>>
  %2 = rlx.log %c : tensor<4xcomplex<f32>>
  return %0, %1, %2 : tensor<4xbf16>, tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>
}

// -----

// The other unary ops map one to one onto math ops; f64 stays f64; round
// rounds halves to even.
// CHECK-LABEL: func.func @math_unary(
// CHECK-NOT:       arith.extf
// CHECK:           math.tanh %{{.+}} : f64
// CHECK:           math.sqrt %{{.+}} : f64
// CHECK:           math.rsqrt %{{.+}} : f64
// CHECK:           math.sin %{{.+}} : f64
// CHECK:           math.cos %{{.+}} : f64
// CHECK:           math.tan %{{.+}} : f64
// CHECK:           math.atan %{{.+}} : f64
// CHECK:           math.roundeven %{{.+}} : f64
func.func @math_unary(%x: tensor<4xf64>) -> (tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>) {
  %0 = rlx.tanh %x : tensor<4xf64>
  %1 = rlx.sqrt %x : tensor<4xf64>
  %2 = rlx.rsqrt %x : tensor<4xf64>
  %3 = rlx.sin %x : tensor<4xf64>
  %4 = rlx.cos %x : tensor<4xf64>
  %5 = rlx.tan %x : tensor<4xf64>
  %6 = rlx.atan %x : tensor<4xf64>
  %7 = rlx.round %x : tensor<4xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>
}

// -----

// pow of f16 widens both operands to f32; the exponent column broadcasts.
// CHECK-DAG: #[[$ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$COL:map[0-9]*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @pow_f16(
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID]], #[[$COL]], #[[$ID]]]
// CHECK:         ^bb0(%[[B:.+]]: f16, %[[E:.+]]: f16, %{{.+}}: f16):
// CHECK-DAG:       %[[WB:.+]] = arith.extf %[[B]] : f16 to f32
// CHECK-DAG:       %[[WE:.+]] = arith.extf %[[E]] : f16 to f32
// CHECK:           %[[P:.+]] = math.powf %[[WB]], %[[WE]] : f32
// CHECK:           arith.truncf %[[P]] : f32 to f16
func.func @pow_f16(%x: tensor<4x8xf16>, %col: tensor<4x1xf16>) -> tensor<4x8xf16> {
  %0 = rlx.pow %x, %col : tensor<4x8xf16>, tensor<4x1xf16>
  return %0 : tensor<4x8xf16>
}

// -----

// cmp yields i1: ordered float predicates (ne is unordered), unsigned
// predicates for ui8, signed for i32, complex.eq for complex.
// CHECK-DAG: #[[$ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @cmp(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<?x8xf32>
// CHECK:         %[[DIM:.+]] = tensor.dim %[[X]]
// CHECK:         %[[INIT:.+]] = tensor.empty(%[[DIM]]) : tensor<?x8xi1>
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#{{.+}}, #[[$ROW]], #{{.+}}]
// CHECK-SAME:      outs(%[[INIT]] : tensor<?x8xi1>)
// CHECK:           arith.cmpf olt, %{{.+}}, %{{.+}} : f32
// CHECK:           arith.cmpf une, %{{.+}}, %{{.+}} : f32
// CHECK:           arith.cmpi ugt, %{{.+}}, %{{.+}} : i8
// CHECK:           arith.cmpi sge, %{{.+}}, %{{.+}} : i32
// CHECK:           complex.eq %{{.+}}, %{{.+}} : complex<f32>
func.func @cmp(%x: tensor<?x8xf32>, %row: tensor<8xf32>, %u: tensor<4xui8>, %i: tensor<4xi32>, %c: tensor<4xcomplex<f32>>)
    -> (tensor<?x8xi1>, tensor<?x8xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = rlx.cmp lt, %x, %row : tensor<?x8xf32>, tensor<8xf32>
  %1 = rlx.cmp ne, %x, %x : tensor<?x8xf32>
  %2 = rlx.cmp gt, %u, %u : tensor<4xui8>
  %3 = rlx.cmp ge, %i, %i : tensor<4xi32>
  %4 = rlx.cmp eq, %c, %c : tensor<4xcomplex<f32>>
  return %0, %1, %2, %3, %4 : tensor<?x8xi1>, tensor<?x8xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// where: all three operands broadcast; the body is arith.select; ui8
// becomes i8.
// CHECK-DAG: #[[$COL:map[0-9]*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[$ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$SCALAR:map[0-9]*]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG: #[[$ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @where(
// CHECK-SAME:    -> tensor<4x8xi8>
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$COL]], #[[$ROW]], #[[$SCALAR]], #[[$ID]]]
// CHECK:         ^bb0(%[[C:.+]]: i1, %[[T:.+]]: i8, %[[F:.+]]: i8, %{{.+}}: i8):
// CHECK:           arith.select %[[C]], %[[T]], %[[F]] : i8
func.func @where(%c: tensor<4x1xi1>, %t: tensor<8xui8>, %f: tensor<ui8>) -> tensor<4x8xui8> {
  %0 = rlx.where %c, %t, %f : tensor<4x1xi1>, tensor<8xui8>, tensor<ui8>
  return %0 : tensor<4x8xui8>
}

// -----

// fma: math.fma for floats, muli + addi for integers, complex mul + add.
// CHECK-DAG: #[[$ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @fma(
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#{{.+}}, #[[$ROW]], #{{.+}}, #{{.+}}]
// CHECK:         ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32, %[[C:.+]]: f32, %{{.+}}: f32):
// CHECK:           math.fma %[[A]], %[[B]], %[[C]] : f32
// CHECK:         ^bb0(%[[IA:.+]]: i64, %[[IB:.+]]: i64, %[[IC:.+]]: i64, %{{.+}}: i64):
// CHECK:           %[[P:.+]] = arith.muli %[[IA]], %[[IB]] : i64
// CHECK:           arith.addi %[[P]], %[[IC]] : i64
// CHECK:           %[[CP:.+]] = complex.mul
// CHECK:           complex.add %[[CP]], %{{.+}} : complex<f32>
func.func @fma(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %i: tensor<4xi64>, %c: tensor<4xcomplex<f32>>)
    -> (tensor<4x8xf32>, tensor<4xi64>, tensor<4xcomplex<f32>>) {
  %0 = rlx.fma %a, %b, %a : tensor<4x8xf32>, tensor<8xf32>, tensor<4x8xf32>
  %1 = rlx.fma %i, %i, %i : tensor<4xi64>
  %2 = rlx.fma %c, %c, %c : tensor<4xcomplex<f32>>
  return %0, %1, %2 : tensor<4x8xf32>, tensor<4xi64>, tensor<4xcomplex<f32>>
}

// -----

// Casts from floats: truncf / extf by width, f16 -> bf16 through f32,
// fptosi / fptoui by the target's sign, non-zero test for i1, a zero
// imaginary part for complex.
// CHECK-LABEL: func.func @cast_float(
// CHECK-SAME:    -> (tensor<4xbf16>, tensor<4xf64>, tensor<4xbf16>, tensor<4xi32>, tensor<4xi8>, tensor<4xi1>, tensor<4xcomplex<f32>>)
// CHECK:           arith.truncf %{{.+}} : f32 to bf16
// CHECK:           arith.extf %{{.+}} : f32 to f64
// CHECK:           %[[W:.+]] = arith.extf %{{.+}} : f16 to f32
// CHECK-NEXT:      arith.truncf %[[W]] : f32 to bf16
// CHECK:           arith.fptosi %{{.+}} : f32 to i32
// CHECK:           arith.fptoui %{{.+}} : f32 to i8
// CHECK:         ^bb0(%[[B:.+]]: f32, %{{.+}}: i1):
// CHECK:           %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:           arith.cmpf une, %[[B]], %[[Z]] : f32
// CHECK:         ^bb0(%[[R:.+]]: f32, %{{.+}}: complex<f32>):
// CHECK:           %[[ZI:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:           complex.create %[[R]], %[[ZI]] : complex<f32>
func.func @cast_float(%f: tensor<4xf32>, %h: tensor<4xf16>)
    -> (tensor<4xbf16>, tensor<4xf64>, tensor<4xbf16>, tensor<4xi32>, tensor<4xui8>, tensor<4xi1>, tensor<4xcomplex<f32>>) {
  %0 = rlx.cast %f : tensor<4xf32> -> tensor<4xbf16>
  %1 = rlx.cast %f : tensor<4xf32> -> tensor<4xf64>
  %2 = rlx.cast %h : tensor<4xf16> -> tensor<4xbf16>
  %3 = rlx.cast %f : tensor<4xf32> -> tensor<4xi32>
  %4 = rlx.cast %f : tensor<4xf32> -> tensor<4xui8>
  %5 = rlx.cast %f : tensor<4xf32> -> tensor<4xi1>
  %6 = rlx.cast %f : tensor<4xf32> -> tensor<4xcomplex<f32>>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<4xbf16>, tensor<4xf64>, tensor<4xbf16>, tensor<4xi32>, tensor<4xui8>, tensor<4xi1>, tensor<4xcomplex<f32>>
}

// -----

// Casts from integers keep the source's sign (ui8 and i1 zero-extend),
// narrowing truncates, i1 tests for non-zero, complex to real keeps the
// real part.
// CHECK-LABEL: func.func @cast_int(
// CHECK:           arith.sitofp %{{.+}} : i8 to f32
// CHECK:           arith.uitofp %{{.+}} : i8 to f32
// CHECK:           arith.extsi %{{.+}} : i8 to i32
// CHECK:           arith.extui %{{.+}} : i8 to i32
// CHECK:           arith.trunci %{{.+}} : i64 to i16
// CHECK:           arith.uitofp %{{.+}} : i1 to f32
// CHECK:         ^bb0(%[[W:.+]]: i64, %{{.+}}: i1):
// CHECK:           %[[Z:.+]] = arith.constant 0 : i64
// CHECK:           arith.cmpi ne, %[[W]], %[[Z]] : i64
// CHECK:           complex.re %{{.+}} : complex<f32>
func.func @cast_int(%i: tensor<4xi8>, %u: tensor<4xui8>, %w: tensor<4xi64>, %b: tensor<4xi1>, %c: tensor<4xcomplex<f32>>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi16>, tensor<4xf32>, tensor<4xi1>, tensor<4xf32>) {
  %0 = rlx.cast %i : tensor<4xi8> -> tensor<4xf32>
  %1 = rlx.cast %u : tensor<4xui8> -> tensor<4xf32>
  %2 = rlx.cast %i : tensor<4xi8> -> tensor<4xi32>
  %3 = rlx.cast %u : tensor<4xui8> -> tensor<4xi32>
  %4 = rlx.cast %w : tensor<4xi64> -> tensor<4xi16>
  %5 = rlx.cast %b : tensor<4xi1> -> tensor<4xf32>
  %6 = rlx.cast %w : tensor<4xi64> -> tensor<4xi1>
  %7 = rlx.cast %c : tensor<4xcomplex<f32>> -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi16>, tensor<4xf32>, tensor<4xi1>, tensor<4xf32>
}

// -----

// Dense constants become arith.constant; ui8 data is reinterpreted as i8.
// CHECK-LABEL: func.func @constant(
// CHECK-SAME:    -> (tensor<2xi8>, tensor<2xf32>)
// CHECK-DAG:     %[[U:.+]] = arith.constant dense<[1, -1]> : tensor<2xi8>
// CHECK-DAG:     %[[F:.+]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK:         return %[[U]], %[[F]]
func.func @constant() -> (tensor<2xui8>, tensor<2xf32>) {
  %0 = rlx.constant dense<[1, 255]> : tensor<2xui8>
  %1 = rlx.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %0, %1 : tensor<2xui8>, tensor<2xf32>
}

// -----

// stop_gradient is the identity.
// CHECK-LABEL: func.func @stop_gradient(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4xf32>
// CHECK-NEXT:    return %[[X]] : tensor<4xf32>
func.func @stop_gradient(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = rlx.stop_gradient %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// elementwise_region: one generic per result over the broadcast inputs,
// its body cloned, yielding that result's scalar.
// CHECK-DAG: #[[$ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$COL:map[0-9]*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @elementwise_region(
// CHECK:         %[[R0:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID]], #[[$ROW]], #[[$COL]], #[[$ID]]]
// CHECK:         ^bb0(%[[A:.+]]: f32, %[[C:.+]]: f32, %[[P:.+]]: i1, %{{.+}}: f32):
// CHECK:           %[[S:.+]] = arith.addf %[[A]], %[[C]] : f32
// CHECK:           %[[SEL:.+]] = arith.select %[[P]], %[[S]], %[[A]] : f32
// CHECK:           linalg.yield %[[SEL]] : f32
// CHECK:         } -> tensor<4x8xf32>
// CHECK:         %[[R1:.+]] = linalg.generic
// CHECK:           %[[GT:.+]] = arith.cmpf ogt
// CHECK:           linalg.yield %[[GT]] : i1
// CHECK:         } -> tensor<4x8xi1>
// CHECK:         return %[[R0]], %[[R1]]
func.func @elementwise_region(%x: tensor<4x8xf32>, %b: tensor<8xf32>, %m: tensor<4x1xi1>)
    -> (tensor<4x8xf32>, tensor<4x8xi1>) {
  %r:2 = rlx.elementwise_region ins(%x, %b, %m : tensor<4x8xf32>, tensor<8xf32>, tensor<4x1xi1>)
      -> tensor<4x8xf32>, tensor<4x8xi1> {
  ^bb0(%a: f32, %c: f32, %p: i1):
    %s = arith.addf %a, %c : f32
    %sel = arith.select %p, %s, %a : f32
    %gt = arith.cmpf ogt, %sel, %c : f32
    rlx.yield %sel, %gt : f32, i1
  }
  return %r#0, %r#1 : tensor<4x8xf32>, tensor<4x8xi1>
}

// -----

// A complex value is non-zero when either part is: cast to i1 compares the
// whole value with complex.neq.
// CHECK-LABEL: func.func @cast_complex_to_i1(
// CHECK:         linalg.generic
// CHECK:           complex.neq
// CHECK-NOT:       complex.re
func.func @cast_complex_to_i1(%c: tensor<4xcomplex<f32>>) -> tensor<4xi1> {
  %0 = rlx.cast %c : tensor<4xcomplex<f32>> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
