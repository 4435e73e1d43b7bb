// RUN: rlx-opt %s -split-input-file --rlx-gpu-dispatch-matmul="report=true int8-library=true fp8-activations=true fp8-library=true" -verify-diagnostics | FileCheck %s
// RUN: rlx-opt %s -split-input-file --rlx-gpu-dispatch-matmul="report=true" | FileCheck %s --check-prefix=OFF

// int8 and fp8 products to the runtime's library (rlx-gpu-dispatch-matmul
// int8-library, fp8-activations). Without the options both stay where
// they are (generated kernels).
// OFF-NOT: rlx.library_matmul

// An int8 product already in the library's layout (lhs x rhs^T): outlined
// as it is, no epilogue.
// CHECK-LABEL: func.func private @rlx_library_matmul(
// CHECK-SAME:      %[[A:.*]]: tensor<37x16xi8>, %[[B:.*]]: tensor<24x16xi8>) -> tensor<37x24xi32>
// CHECK-SAME:      attributes {rlx.library_matmul = {batch = 1 : i64, epilogue = "none", k = 16 : i64, m = 37 : i64, n = 24 : i64, transpose_a = false, transpose_b = true}}
// CHECK-NEXT:    %[[Y:.*]] = rlx.int8_matmul %[[A]], %[[B]] transpose_b true
// CHECK-LABEL: func.func @int8_tn(
// CHECK:         call @rlx_library_matmul(%arg0, %arg1)
func.func @int8_tn(%a: tensor<37x16xi8>, %b: tensor<24x16xi8>) -> tensor<37x24xi32> {
  // expected-remark @below {{matmul: library 'i32' 1x37x24x16 (batch x m x n x k), epilogue none}}
  %y = rlx.int8_matmul %a, %b transpose_b true : tensor<37x16xi8>, tensor<24x16xi8>
  return %y : tensor<37x24xi32>
}

// -----

// The other layouts are transposed first: a [K, N] rhs and a transposed
// lhs.
// CHECK-LABEL: func.func private @rlx_library_matmul(
// CHECK-SAME:      tensor<20x8xi8>, %{{.*}}: tensor<12x8xi8>) -> tensor<20x12xi32>
// CHECK-SAME:      k = 8 : i64, m = 20 : i64, n = 12 : i64, transpose_a = false, transpose_b = true
// CHECK-LABEL: func.func @int8_transposes(
// CHECK:         %[[AT:.*]] = rlx.transpose %arg0 [1, 0] : tensor<8x20xi8>
// CHECK-NEXT:    %[[BT:.*]] = rlx.transpose %arg1 [1, 0] : tensor<8x12xi8>
// CHECK-NEXT:    call @rlx_library_matmul(%[[AT]], %[[BT]])
func.func @int8_transposes(%a: tensor<8x20xi8>, %b: tensor<8x12xi8>) -> tensor<20x12xi32> {
  // expected-remark @below {{matmul: library 'i32' 1x20x12x8 (batch x m x n x k), epilogue none}}
  %y = rlx.int8_matmul %a, %b transpose_a true : tensor<8x20xi8>, tensor<8x12xi8>
  return %y : tensor<20x12xi32>
}

// -----

// Batched int8 products with equal batch dims: the batch's last two dims
// swap.
// CHECK-LABEL: func.func @int8_batched(
// CHECK:         rlx.transpose %arg1 [0, 2, 1] : tensor<2x16x12xi8>
func.func @int8_batched(%a: tensor<2x8x16xi8>, %b: tensor<2x16x12xi8>) -> tensor<2x8x12xi32> {
  // expected-remark @below {{matmul: library 'i32' 2x8x12x16 (batch x m x n x k), epilogue none}}
  %y = rlx.int8_matmul %a, %b : tensor<2x8x16xi8>, tensor<2x16x12xi8>
  return %y : tensor<2x8x12xi32>
}

// -----

// K not a multiple of 4 and dynamic shapes keep the generated kernel.
// CHECK-LABEL: func.func @int8_generated(
// CHECK-NOT:     call
// CHECK:         rlx.int8_matmul
// CHECK:         rlx.int8_matmul
func.func @int8_generated(%a: tensor<3x18xi8>, %b: tensor<18x5xi8>, %c: tensor<?x16xi8>, %d: tensor<16x4xi8>) -> (tensor<3x5xi32>, tensor<?x4xi32>) {
  // expected-remark @below {{matmul: generated kernel (K = 18, not a multiple of 4)}}
  %y = rlx.int8_matmul %a, %b : tensor<3x18xi8>, tensor<18x5xi8>
  // expected-remark @below {{matmul: generated kernel (dynamic shape)}}
  %z = rlx.int8_matmul %c, %d : tensor<?x16xi8>, tensor<16x4xi8>
  return %y, %z : tensor<3x5xi32>, tensor<?x4xi32>
}

// -----

// An fp8 dequant_matmul with per-channel scales: x's leading dims are rows.
// CHECK-LABEL: func.func private @rlx_library_matmul(
// CHECK-SAME:      %[[X:.*]]: tensor<2x35x32xbf16>, %[[W:.*]]: tensor<24x32xui8>, %[[S:.*]]: tensor<24xf32>) -> tensor<2x35x24xbf16>
// CHECK-SAME:      attributes {rlx.library_matmul = {batch = 1 : i64, epilogue = "none", fp8_scaling = "channel", fp8_weight = "e4m3", k = 32 : i64, m = 70 : i64, n = 24 : i64, transpose_a = false, transpose_b = true}}
// CHECK-NEXT:    rlx.dequant_matmul #rlx.quant<fp8_e4m3> %[[X]], %[[W]], %[[S]]
// CHECK-LABEL: func.func @fp8_channel(
// CHECK:         call @rlx_library_matmul(%arg0, %arg1, %arg2)
func.func @fp8_channel(%x: tensor<2x35x32xbf16>, %w: tensor<24x32xui8>, %s: tensor<24xf32>) -> tensor<2x35x24xbf16> {
  // expected-remark @below {{matmul: library fp8 e4m3 per channel, 'bf16' 1x70x24x32 (batch x m x n x k), epilogue none}}
  %y = rlx.dequant_matmul #rlx.quant<fp8_e4m3> %x, %w, %s : tensor<2x35x32xbf16>, tensor<24x32xui8>, tensor<24xf32>
  return %y : tensor<2x35x24xbf16>
}

// -----

// A splat constant scale is a per-tensor scale; e5m2 weights.
// CHECK-LABEL: func.func private @rlx_library_matmul(
// CHECK-SAME:      fp8_scaling = "tensor", fp8_weight = "e5m2"
// CHECK-LABEL: func.func @fp8_tensor(
func.func @fp8_tensor(%x: tensor<4x64xf32>, %w: tensor<16x64xui8>) -> tensor<4x16xf32> {
  %s = rlx.constant dense<0.5> : tensor<16xf32>
  // expected-remark @below {{matmul: library fp8 e5m2 per tensor, 'f32' 1x4x16x64 (batch x m x n x k), epilogue none}}
  %y = rlx.dequant_matmul #rlx.quant<fp8_e5m2> %x, %w, %s : tensor<4x64xf32>, tensor<16x64xui8>, tensor<16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// Shapes the fp8 library does not take, and other schemes, stay
// dequant_matmuls (decoded to x's type by the generated kernels).
// CHECK-LABEL: func.func @fp8_not_taken(
// CHECK-NOT:     call
func.func @fp8_not_taken(%x: tensor<5x24xbf16>, %w: tensor<16x24xui8>, %s: tensor<16xf32>, %x2: tensor<4x32xf32>, %w2: tensor<16x32xi8>, %s2: tensor<16x1xf32>) -> (tensor<5x16xbf16>, tensor<4x16xf32>) {
  // expected-remark @below {{matmul: generated kernel (K = 24, N = 16 (the fp8 library needs K a multiple of 16 and N of 8))}}
  %y = rlx.dequant_matmul #rlx.quant<fp8_e4m3> %x, %w, %s : tensor<5x24xbf16>, tensor<16x24xui8>, tensor<16xf32>
  %z = rlx.dequant_matmul #rlx.quant<int8_block, 32> %x2, %w2, %s2 : tensor<4x32xf32>, tensor<16x32xi8>, tensor<16x1xf32>
  return %y, %z : tensor<5x16xbf16>, tensor<4x16xf32>
}
