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

// -----

// q4_0 (32-weight blocks of 18 bytes): one nibble byte at 2 + k % 16 and
// the two bytes of the f16 d, 3 reads; (q - 8) * d.
// CHECK-LABEL: func.func @q4_0(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<2x64xf32>, %[[W:[^:]+]]: tensor<3x36xi8>
// CHECK:         %[[DEC:.+]] = linalg.generic
// CHECK-SAME:      outs(%{{.+}} : tensor<3x64xf32>)
// CHECK:           %[[N:.+]] = linalg.index 0 : index
// CHECK:           arith.constant 32 : index
// CHECK:           arith.constant 18 : index
// CHECK-COUNT-3:   tensor.extract %[[W]][%[[N]], %{{.+}}] : tensor<3x36xi8>
// CHECK:           arith.bitcast %{{.+}} : i16 to f16
// CHECK-NOT:       tensor.extract
// CHECK:           %[[V:.+]] = arith.mulf
// CHECK:           linalg.yield %[[V]] : f32
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[X]], %[[DEC]] : tensor<2x64xf32>, tensor<3x64xf32>)
func.func @q4_0(%x: tensor<2x64xf32>, %w: tensor<3x36xui8>) -> tensor<2x3xf32> {
  %y = rlx.dequant_matmul #rlx.quant<gguf_q4_0> %x, %w : tensor<2x64xf32>, tensor<3x36xui8>
  return %y : tensor<2x3xf32>
}

// -----

// q8_0 (32-weight blocks of 34 bytes): the signed byte at 2 + k % 32 times
// the f16 d.
// CHECK-LABEL: func.func @q8_0(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<2x64xf32>, %[[W:[^:]+]]: tensor<3x68xi8>
// CHECK:         linalg.generic
// CHECK:           %[[N:.+]] = linalg.index 0 : index
// CHECK:           arith.constant 34 : index
// CHECK:           %[[Q:.+]] = tensor.extract %[[W]][%[[N]], %{{.+}}] : tensor<3x68xi8>
// CHECK:           arith.extsi %[[Q]] : i8 to i32
// CHECK-COUNT-2:   tensor.extract %[[W]][%[[N]], %{{.+}}] : tensor<3x68xi8>
// CHECK:           arith.bitcast %{{.+}} : i16 to f16
// CHECK-NOT:       tensor.extract
// CHECK:           %[[V:.+]] = arith.mulf
// CHECK:           linalg.yield %[[V]] : f32
func.func @q8_0(%x: tensor<2x64xf32>, %w: tensor<3x68xui8>) -> tensor<2x3xf32> {
  %y = rlx.dequant_matmul #rlx.quant<gguf_q8_0> %x, %w : tensor<2x64xf32>, tensor<3x68xui8>
  return %y : tensor<2x3xf32>
}

// -----

// q2_K (84-byte blocks): a byte of 2-bit quants, the scale/min byte, then
// the f16 d at byte 80 and dmin at 82, 6 reads; d * sc * q - dmin * m.
// CHECK-LABEL: func.func @q2_k(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<2x256xf32>, %[[W:[^:]+]]: tensor<3x84xi8>
// CHECK:         linalg.generic
// CHECK:           %[[N:.+]] = linalg.index 0 : index
// CHECK:           arith.constant 84 : index
// CHECK-COUNT-2:   tensor.extract %[[W]][%[[N]], %{{.+}}] : tensor<3x84xi8>
// CHECK:           arith.constant 80 : index
// CHECK-COUNT-2:   tensor.extract %[[W]][%[[N]], %{{.+}}] : tensor<3x84xi8>
// CHECK:           arith.constant 82 : index
// CHECK-COUNT-2:   tensor.extract %[[W]][%[[N]], %{{.+}}] : tensor<3x84xi8>
// CHECK-NOT:       tensor.extract
// CHECK:           %[[V:.+]] = arith.subf
// CHECK:           linalg.yield %[[V]] : f32
func.func @q2_k(%x: tensor<2x256xf32>, %w: tensor<3x84xui8>) -> tensor<2x3xf32> {
  %y = rlx.dequant_matmul #rlx.quant<gguf_q2_k> %x, %w : tensor<2x256xf32>, tensor<3x84xui8>
  return %y : tensor<2x3xf32>
}

// -----

// q3_K (110-byte blocks): a byte of 2-bit quants at 32 + ..., the hmask
// byte, the scale's low nibble from bytes 96.. and its top bits from bytes
// 104.. (ggml's kmask unpacking, per sub-block), the f16 d at 108: 6 reads;
// d * (sc - 32) * q.
// CHECK-LABEL: func.func @q3_k(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<2x256xf32>, %[[W:[^:]+]]: tensor<3x110xi8>
// CHECK:         linalg.generic
// CHECK:           %[[N:.+]] = linalg.index 0 : index
// CHECK:           arith.constant 110 : index
// CHECK-COUNT-2:   tensor.extract %[[W]][%[[N]], %{{.+}}] : tensor<3x110xi8>
// CHECK:           arith.constant 96 : index
// CHECK:           tensor.extract %[[W]][%[[N]], %{{.+}}] : tensor<3x110xi8>
// CHECK:           arith.constant 104 : index
// CHECK:           tensor.extract %[[W]][%[[N]], %{{.+}}] : tensor<3x110xi8>
// CHECK:           arith.constant 32 : i32
// CHECK:           arith.constant 108 : index
// CHECK-COUNT-2:   tensor.extract %[[W]][%[[N]], %{{.+}}] : tensor<3x110xi8>
// CHECK-NOT:       tensor.extract
// CHECK:           %[[DL:.+]] = arith.mulf
// CHECK:           %[[V:.+]] = arith.mulf %[[DL]], %{{.+}} : f32
// CHECK:           linalg.yield %[[V]] : f32
func.func @q3_k(%x: tensor<2x256xf32>, %w: tensor<3x110xui8>) -> tensor<2x3xf32> {
  %y = rlx.dequant_matmul #rlx.quant<gguf_q3_k> %x, %w : tensor<2x256xf32>, tensor<3x110xui8>
  return %y : tensor<2x3xf32>
}

// -----

// nvfp4 (16-weight blocks of 9 bytes): the per-tensor scale is the
// generic's rank-0 input; the body reads the code byte at 1 + k % 16 / 2
// and the e4m3 scale byte at 0, and yields e2m1 * e4m3 * scale.
// CHECK-DAG: #[[$SCALAR:map[0-9]*]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG: #[[$ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @nvfp4(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<2x32xf32>, %[[W:[^:]+]]: tensor<3x18xi8>, %[[S:[^:]+]]: tensor<f32>
// CHECK:         %[[DEC:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$SCALAR]], #[[$ID]]]
// CHECK-SAME:      ins(%[[S]] : tensor<f32>)
// CHECK:         ^bb0(%[[SV:.+]]: f32, %{{.+}}: f32):
// CHECK:           %[[N:.+]] = linalg.index 0 : index
// CHECK:           arith.constant 9 : index
// CHECK:           tensor.extract %[[W]][%[[N]], %{{.+}}] : tensor<3x18xi8>
// CHECK:           arith.constant 5.000000e-01 : f32
// CHECK:           %[[E2M1:.+]] = arith.select %{{.+}}, %{{.+}}, %{{.+}} : f32
// CHECK:           tensor.extract %[[W]][%[[N]], %{{.+}}] : tensor<3x18xi8>
// CHECK-NOT:       tensor.extract
// CHECK:           arith.negf
// CHECK-NEXT:      %[[E4M3:.+]] = arith.select %{{.+}}, %{{.+}}, %{{.+}} : f32
// CHECK-NEXT:      %[[P:.+]] = arith.mulf %[[E2M1]], %[[E4M3]] : f32
// CHECK:           %[[V:.+]] = arith.mulf %[[P]], %[[SV]] : f32
// CHECK:           linalg.yield %[[V]] : f32
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[X]], %[[DEC]] : tensor<2x32xf32>, tensor<3x32xf32>)
func.func @nvfp4(%x: tensor<2x32xf32>, %w: tensor<3x18xui8>, %s: tensor<f32>) -> tensor<2x3xf32> {
  %y = rlx.dequant_matmul #rlx.quant<nvfp4> %x, %w, %s : tensor<2x32xf32>, tensor<3x18xui8>, tensor<f32>
  return %y : tensor<2x3xf32>
}
