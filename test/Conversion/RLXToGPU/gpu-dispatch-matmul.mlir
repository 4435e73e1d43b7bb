// RUN: rlx-opt %s -split-input-file --rlx-gpu-dispatch-matmul="report=true" -verify-diagnostics | FileCheck %s

// matmul + bias + tanh GELU, fused: one call, GELU_BIAS as the epilogue;
// the outlined function keeps the op (it bufferizes as any function).
// CHECK-LABEL: func.func private @rlx_library_matmul(
// CHECK-SAME:      %[[X:.*]]: tensor<64x32xbf16>, %[[W:.*]]: tensor<32x16xbf16>, %[[B:.*]]: tensor<16xbf16>) -> tensor<64x16xbf16>
// CHECK-SAME:      attributes {rlx.library_matmul = {batch = 1 : i64, epilogue = "gelu_bias", k = 32 : i64, m = 64 : i64, n = 16 : i64, transpose_a = false, transpose_b = false}}
// CHECK-NEXT:    %[[Y:.*]] = rlx.fused_matmul_bias_act %[[X]], %[[W]], %[[B]] activation = gelu_tanh
// CHECK-NEXT:    return %[[Y]]
// CHECK-LABEL: func.func @gelu_bias_bf16(
// CHECK:         %[[R:.*]] = call @rlx_library_matmul(%arg0, %arg1, %arg2)
// CHECK-NEXT:    return %[[R]]
func.func @gelu_bias_bf16(%x: tensor<64x32xbf16>, %w: tensor<32x16xbf16>, %b: tensor<16xbf16>) -> tensor<64x16xbf16> {
  // expected-remark @below {{matmul: library 'bf16' 1x64x16x32 (batch x m x n x k), epilogue gelu_bias}}
  %y = rlx.fused_matmul_bias_act %x, %w, %b activation = gelu_tanh : tensor<64x32xbf16>, tensor<32x16xbf16>, tensor<16xbf16>
  return %y : tensor<64x16xbf16>
}

// -----

// The exact GELU is no library epilogue: the call adds the bias, the GELU
// follows as an rlx op (a generated kernel). The lhs's leading dims are
// rows of one product with a 2-D weight; transpose_b reads w as stored.
// CHECK-LABEL: func.func private @rlx_library_matmul(
// CHECK-SAME:      attributes {rlx.library_matmul = {batch = 1 : i64, epilogue = "bias", k = 32 : i64, m = 256 : i64, n = 16 : i64, transpose_a = false, transpose_b = true}}
// CHECK-NEXT:    rlx.fused_matmul_bias_act {{.*}} transpose_b true activation = none
// CHECK-LABEL: func.func @exact_gelu_linear_f32(
// CHECK:         %[[R:.*]] = call @rlx_library_matmul(%arg0, %arg1, %arg2)
// CHECK-NEXT:    %[[G:.*]] = rlx.gelu %[[R]] : tensor<4x64x16xf32>
// CHECK-NEXT:    return %[[G]]
func.func @exact_gelu_linear_f32(%x: tensor<4x64x32xf32>, %w: tensor<16x32xf32>, %b: tensor<16xf32>) -> tensor<4x64x16xf32> {
  // expected-remark @below {{matmul: library 'f32' 1x256x16x32 (batch x m x n x k), epilogue bias, then gelu as a generated kernel}}
  %y = rlx.fused_matmul_bias_act %x, %w, %b transpose_b true activation = gelu : tensor<4x64x32xf32>, tensor<16x32xf32>, tensor<16xf32>
  return %y : tensor<4x64x16xf32>
}

// -----

// Plain matmuls: batched with equal batch dims (strided batches), both
// operands transposed; relu without a bias is an epilogue too.
// CHECK-LABEL: func.func private @rlx_library_matmul(
// CHECK-SAME:      attributes {rlx.library_matmul = {batch = 6 : i64, epilogue = "none", k = 64 : i64, m = 128 : i64, n = 32 : i64, transpose_a = true, transpose_b = true}}
// CHECK-NEXT:    rlx.matmul {{.*}} transpose_a true transpose_b true
// CHECK-LABEL: func.func private @rlx_library_matmul_0(
// CHECK-SAME:      attributes {rlx.library_matmul = {batch = 1 : i64, epilogue = "relu", k = 8 : i64, m = 4 : i64, n = 16 : i64, transpose_a = false, transpose_b = false}}
// CHECK-LABEL: func.func @batched_f16(
// CHECK:         call @rlx_library_matmul(%arg0, %arg1) : (tensor<2x3x64x128xf16>, tensor<2x3x32x64xf16>) -> tensor<2x3x128x32xf16>
// CHECK:         call @rlx_library_matmul_0(%arg2, %arg3) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
func.func @batched_f16(%a: tensor<2x3x64x128xf16>, %b: tensor<2x3x32x64xf16>,
                       %x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> (tensor<2x3x128x32xf16>, tensor<4x16xf32>) {
  // expected-remark @below {{matmul: library 'f16' 6x128x32x64 (batch x m x n x k), epilogue none}}
  %y = rlx.matmul %a, %b transpose_a true transpose_b true : tensor<2x3x64x128xf16>, tensor<2x3x32x64xf16>
  // expected-remark @below {{matmul: library 'f32' 1x4x16x8 (batch x m x n x k), epilogue relu}}
  %r = rlx.fused_matmul_bias_act %x, %w activation = relu : tensor<4x8xf32>, tensor<8x16xf32>
  return %y, %r : tensor<2x3x128x32xf16>, tensor<4x16xf32>
}

// -----

// Not taken: f64 and integers (no library path here), broadcast batch
// dims, transpose_a with a batch folded into rows, dynamic shapes. They
// keep the generated kernel.
// CHECK-LABEL: func.func @generated(
// CHECK-NOT:     call
// CHECK-COUNT-5: rlx.matmul
// CHECK-NOT:     func.func private
func.func @generated(%a: tensor<16x8xf64>, %b: tensor<8x4xf64>,
                     %i: tensor<16x8xi32>, %j: tensor<8x4xi32>,
                     %c: tensor<3x16x8xf32>, %d: tensor<1x8x4xf32>,
                     %e: tensor<3x8x16xf32>, %f: tensor<8x4xf32>,
                     %g: tensor<?x8xf32>) {
  // expected-remark @below {{matmul: generated kernel (element type f64 (the library matmul takes f32, bf16 and f16))}}
  %0 = rlx.matmul %a, %b : tensor<16x8xf64>, tensor<8x4xf64>
  // expected-remark @below {{matmul: generated kernel (element type i32 (the library matmul takes f32, bf16 and f16))}}
  %1 = rlx.matmul %i, %j : tensor<16x8xi32>, tensor<8x4xi32>
  // expected-remark @below {{matmul: generated kernel (batch dims that broadcast)}}
  %2 = rlx.matmul %c, %d : tensor<3x16x8xf32>, tensor<1x8x4xf32>
  // expected-remark @below {{matmul: generated kernel (batch dims that broadcast)}}
  %3 = rlx.matmul %e, %f transpose_a true : tensor<3x8x16xf32>, tensor<8x4xf32>
  // expected-remark @below {{matmul: generated kernel (dynamic shape)}}
  %4 = rlx.matmul %g, %f : tensor<?x8xf32>, tensor<8x4xf32>
  return
}
