// RUN: rlx-opt %s -convert-rlx-to-linalg -split-input-file | FileCheck %s

// A GGUF K-quant weight decodes in one all-parallel generic over (n, k)
// with no inputs: its body finds k's super-block (k / 256 times the block
// bytes, here 144) and reads the bytes weight (n, k) needs with
// tensor.extract from the packed i8 rows. q4_K reads 8: one nibble byte,
// three bytes of packed 6-bit scales and mins, and the two bytes each of the
// f16 d and dmin, then computes d * sc * q - dmin * m. x [2, 256] then multiplies by the f32
// [3, 256] result read transposed.
// CHECK-DAG: #[[$ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$LHS:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$RHS_T:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[$OUT:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @q4_k(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<2x256xf32>, %[[W:[^:]+]]: tensor<3x144xi8>
// CHECK:         %[[EMPTY:.+]] = tensor.empty() : tensor<3x256xf32>
// CHECK:         %[[DEC:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      outs(%[[EMPTY]] : tensor<3x256xf32>)
// CHECK:         ^bb0(%{{.+}}: f32):
// CHECK:           %[[N:.+]] = linalg.index 0 : index
// CHECK:           %[[K:.+]] = linalg.index 1 : index
// CHECK:           %[[C256:.+]] = arith.constant 256 : index
// CHECK:           arith.remui %[[K]], %[[C256]] : index
// CHECK:           %[[BLOCK:.+]] = arith.divui %[[K]], %{{.+}} : index
// CHECK:           %[[C144:.+]] = arith.constant 144 : index
// CHECK:           arith.muli %[[BLOCK]], %[[C144]] : index
// CHECK-COUNT-4:   tensor.extract %[[W]][%[[N]], %{{.+}}] : tensor<3x144xi8>
// CHECK:           arith.cmpi ult
// CHECK:           arith.select
// CHECK:           arith.select
// CHECK-COUNT-2:   tensor.extract %[[W]][%[[N]], %{{.+}}] : tensor<3x144xi8>
// CHECK:           arith.bitcast %{{.+}} : i16 to f16
// CHECK:           arith.extf %{{.+}} : f16 to f32
// CHECK-COUNT-2:   tensor.extract %[[W]][%[[N]], %{{.+}}] : tensor<3x144xi8>
// CHECK:           arith.bitcast %{{.+}} : i16 to f16
// CHECK-NOT:       tensor.extract
// CHECK:           %[[V:.+]] = arith.subf
// CHECK:           linalg.yield %[[V]] : f32
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$LHS]], #[[$RHS_T]], #[[$OUT]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[X]], %[[DEC]] : tensor<2x256xf32>, tensor<3x256xf32>)
func.func @q4_k(%x: tensor<2x256xf32>, %w: tensor<3x144xui8>) -> tensor<2x3xf32> {
  %y = rlx.dequant_matmul #rlx.quant<gguf_q4_k> %x, %w : tensor<2x256xf32>, tensor<3x144xui8>
  return %y : tensor<2x3xf32>
}

// -----

// q5_K: as q4_K (176-byte blocks) plus one byte of qh for the fifth bit of
// q, 9 reads in all.
// CHECK-LABEL: func.func @q5_k(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<2x512xf32>, %[[W:[^:]+]]: tensor<3x352xi8>
// CHECK:         %[[DEC:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      outs(%{{.+}} : tensor<3x512xf32>)
// CHECK:           %[[N:.+]] = linalg.index 0 : index
// CHECK:           arith.constant 176 : index
// CHECK-COUNT-9:   tensor.extract %[[W]][%[[N]], %{{.+}}] : tensor<3x352xi8>
// CHECK-NOT:       tensor.extract
// CHECK:           %[[V:.+]] = arith.subf
// CHECK:           linalg.yield %[[V]] : f32
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[X]], %[[DEC]] : tensor<2x512xf32>, tensor<3x512xf32>)
func.func @q5_k(%x: tensor<2x512xf32>, %w: tensor<3x352xui8>) -> tensor<2x3xf32> {
  %y = rlx.dequant_matmul #rlx.quant<gguf_q5_k> %x, %w : tensor<2x512xf32>, tensor<3x352xui8>
  return %y : tensor<2x3xf32>
}

// -----

// q6_K (210-byte blocks, d last): a low-nibble byte of ql, a byte of qh for
// the top two bits, the signed 8-bit scale (sign-extended) and the f16 d at
// byte 208: d * scale * (q - 32). Batched x keeps its batch dim.
// CHECK-LABEL: func.func @q6_k(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<2x3x256xf32>, %[[W:[^:]+]]: tensor<4x210xi8>
// CHECK:         %[[DEC:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      outs(%{{.+}} : tensor<4x256xf32>)
// CHECK:           %[[N:.+]] = linalg.index 0 : index
// CHECK:           arith.constant 210 : index
// CHECK-COUNT-2:   tensor.extract %[[W]][%[[N]], %{{.+}}] : tensor<4x210xi8>
// CHECK:           arith.subi
// CHECK:           %[[SC:.+]] = tensor.extract %[[W]][%[[N]], %{{.+}}] : tensor<4x210xi8>
// CHECK:           arith.extsi %[[SC]] : i8 to i32
// CHECK:           arith.constant 208 : index
// CHECK-COUNT-2:   tensor.extract %[[W]][%[[N]], %{{.+}}] : tensor<4x210xi8>
// CHECK:           arith.bitcast %{{.+}} : i16 to f16
// CHECK-NOT:       tensor.extract
// CHECK:           %[[DS:.+]] = arith.mulf %{{.+}}, %{{.+}} : f32
// CHECK:           %[[V:.+]] = arith.mulf %[[DS]], %{{.+}} : f32
// CHECK:           linalg.yield %[[V]] : f32
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[X]], %[[DEC]] : tensor<2x3x256xf32>, tensor<4x256xf32>)
func.func @q6_k(%x: tensor<2x3x256xf32>, %w: tensor<4x210xui8>) -> tensor<2x3x4xf32> {
  %y = rlx.dequant_matmul #rlx.quant<gguf_q6_k> %x, %w : tensor<2x3x256xf32>, tensor<4x210xui8>
  return %y : tensor<2x3x4xf32>
}

// -----

// q8_K (292-byte blocks): the signed byte q at 4 + k % 256 times the f32 d
// assembled from the block's first 4 bytes. bf16 activations get the
// decoded weight truncated to bf16 before the product.
// CHECK-LABEL: func.func @q8_k(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<2x256xbf16>, %[[W:[^:]+]]: tensor<3x292xi8>
// CHECK:         %[[DEC:.+]] = linalg.generic
// CHECK-SAME:      outs(%{{.+}} : tensor<3x256xf32>)
// CHECK:           %[[N:.+]] = linalg.index 0 : index
// CHECK:           arith.constant 292 : index
// CHECK:           %[[Q:.+]] = tensor.extract %[[W]][%[[N]], %{{.+}}] : tensor<3x292xi8>
// CHECK:           arith.extsi %[[Q]] : i8 to i32
// CHECK-COUNT-4:   tensor.extract %[[W]][%[[N]], %{{.+}}] : tensor<3x292xi8>
// CHECK:           %[[D:.+]] = arith.bitcast %{{.+}} : i32 to f32
// CHECK-NOT:       tensor.extract
// CHECK:           %[[V:.+]] = arith.mulf %[[D]], %{{.+}} : f32
// CHECK:           linalg.yield %[[V]] : f32
// CHECK:         %[[BF:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[DEC]] : tensor<3x256xf32>)
// CHECK:           arith.truncf %{{.+}} : f32 to bf16
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[X]], %[[BF]] : tensor<2x256xbf16>, tensor<3x256xbf16>)
func.func @q8_k(%x: tensor<2x256xbf16>, %w: tensor<3x292xui8>) -> tensor<2x3xbf16> {
  %y = rlx.dequant_matmul #rlx.quant<gguf_q8_k> %x, %w : tensor<2x256xbf16>, tensor<3x292xui8>
  return %y : tensor<2x3xbf16>
}
