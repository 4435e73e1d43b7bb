// RUN: rlx-opt %s | FileCheck %s
// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

// The default approximation is "none" and is not printed.
// CHECK-LABEL: func.func @gelu
// CHECK-SAME:    %[[F32:[^:]+]]: tensor<?x8xf32>
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
func.func @gelu(%f32: tensor<?x8xf32>, %f16: tensor<4xf16>,
                %bf16: tensor<4xbf16>, %f64: tensor<4xf64>) {
  // CHECK: rlx.gelu %[[F32]] : tensor<?x8xf32>
  %0 = rlx.gelu %f32 : tensor<?x8xf32>
  // CHECK: rlx.gelu %[[F16]] : tensor<4xf16>
  %1 = rlx.gelu %f16 : tensor<4xf16>
  // CHECK: rlx.gelu %[[BF16]] : tensor<4xbf16>
  %2 = rlx.gelu %bf16 : tensor<4xbf16>
  // CHECK: rlx.gelu %[[F64]] : tensor<4xf64>
  %3 = rlx.gelu %f64 : tensor<4xf64>
  // CHECK: rlx.gelu %[[F32]] : tensor<?x8xf32>
  %4 = rlx.gelu %f32 {approximate = "none"} : tensor<?x8xf32>
  return
}

// CHECK-LABEL: func.func @gelu_tanh
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>
// CHECK-SAME:    %[[H:[^:]+]]: tensor<?xbf16>
func.func @gelu_tanh(%x: tensor<4x8xf32>, %h: tensor<?xbf16>) {
  // CHECK: rlx.gelu %[[X]] {approximate = "tanh"} : tensor<4x8xf32>
  %0 = rlx.gelu %x {approximate = "tanh"} : tensor<4x8xf32>
  // CHECK: rlx.gelu %[[H]] {approximate = "tanh"} : tensor<?xbf16>
  %1 = rlx.gelu %h {approximate = "tanh"} : tensor<?xbf16>
  return
}

// Float element types.
// CHECK-LABEL: func.func @silu
// CHECK-SAME:    %[[F32:[^:]+]]: tensor<?x8xf32>
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
func.func @silu(%f32: tensor<?x8xf32>, %f16: tensor<4xf16>,
                %bf16: tensor<4xbf16>, %f64: tensor<4xf64>) {
  // CHECK: rlx.silu %[[F32]] : tensor<?x8xf32>
  %f32_0 = rlx.silu %f32 : tensor<?x8xf32>
  // CHECK: rlx.silu %[[F16]] : tensor<4xf16>
  %f16_0 = rlx.silu %f16 : tensor<4xf16>
  // CHECK: rlx.silu %[[BF16]] : tensor<4xbf16>
  %bf16_0 = rlx.silu %bf16 : tensor<4xbf16>
  // CHECK: rlx.silu %[[F64]] : tensor<4xf64>
  %f64_0 = rlx.silu %f64 : tensor<4xf64>
  return
}

// Float element types.
// CHECK-LABEL: func.func @sigmoid
// CHECK-SAME:    %[[F32:[^:]+]]: tensor<?x8xf32>
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
func.func @sigmoid(%f32: tensor<?x8xf32>, %f16: tensor<4xf16>,
                   %bf16: tensor<4xbf16>, %f64: tensor<4xf64>) {
  // CHECK: rlx.sigmoid %[[F32]] : tensor<?x8xf32>
  %f32_0 = rlx.sigmoid %f32 : tensor<?x8xf32>
  // CHECK: rlx.sigmoid %[[F16]] : tensor<4xf16>
  %f16_0 = rlx.sigmoid %f16 : tensor<4xf16>
  // CHECK: rlx.sigmoid %[[BF16]] : tensor<4xbf16>
  %bf16_0 = rlx.sigmoid %bf16 : tensor<4xbf16>
  // CHECK: rlx.sigmoid %[[F64]] : tensor<4xf64>
  %f64_0 = rlx.sigmoid %f64 : tensor<4xf64>
  return
}

// Float element types.
// CHECK-LABEL: func.func @tanh
// CHECK-SAME:    %[[F32:[^:]+]]: tensor<?x8xf32>
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
func.func @tanh(%f32: tensor<?x8xf32>, %f16: tensor<4xf16>,
                %bf16: tensor<4xbf16>, %f64: tensor<4xf64>) {
  // CHECK: rlx.tanh %[[F32]] : tensor<?x8xf32>
  %f32_0 = rlx.tanh %f32 : tensor<?x8xf32>
  // CHECK: rlx.tanh %[[F16]] : tensor<4xf16>
  %f16_0 = rlx.tanh %f16 : tensor<4xf16>
  // CHECK: rlx.tanh %[[BF16]] : tensor<4xbf16>
  %bf16_0 = rlx.tanh %bf16 : tensor<4xbf16>
  // CHECK: rlx.tanh %[[F64]] : tensor<4xf64>
  %f64_0 = rlx.tanh %f64 : tensor<4xf64>
  return
}

// Float and complex element types.
// CHECK-LABEL: func.func @exp
// CHECK-SAME:    %[[F32:[^:]+]]: tensor<?x8xf32>
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
// CHECK-SAME:    %[[C64:[^:]+]]: tensor<4xcomplex<f32>>
func.func @exp(%f32: tensor<?x8xf32>, %f16: tensor<4xf16>,
               %bf16: tensor<4xbf16>, %f64: tensor<4xf64>,
               %c64: tensor<4xcomplex<f32>>) {
  // CHECK: rlx.exp %[[F32]] : tensor<?x8xf32>
  %f32_0 = rlx.exp %f32 : tensor<?x8xf32>
  // CHECK: rlx.exp %[[F16]] : tensor<4xf16>
  %f16_0 = rlx.exp %f16 : tensor<4xf16>
  // CHECK: rlx.exp %[[BF16]] : tensor<4xbf16>
  %bf16_0 = rlx.exp %bf16 : tensor<4xbf16>
  // CHECK: rlx.exp %[[F64]] : tensor<4xf64>
  %f64_0 = rlx.exp %f64 : tensor<4xf64>
  // CHECK: rlx.exp %[[C64]] : tensor<4xcomplex<f32>>
  %c64_0 = rlx.exp %c64 : tensor<4xcomplex<f32>>
  return
}

// Float and complex element types.
// CHECK-LABEL: func.func @log
// CHECK-SAME:    %[[F32:[^:]+]]: tensor<?x8xf32>
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
// CHECK-SAME:    %[[C64:[^:]+]]: tensor<4xcomplex<f32>>
func.func @log(%f32: tensor<?x8xf32>, %f16: tensor<4xf16>,
               %bf16: tensor<4xbf16>, %f64: tensor<4xf64>,
               %c64: tensor<4xcomplex<f32>>) {
  // CHECK: rlx.log %[[F32]] : tensor<?x8xf32>
  %f32_0 = rlx.log %f32 : tensor<?x8xf32>
  // CHECK: rlx.log %[[F16]] : tensor<4xf16>
  %f16_0 = rlx.log %f16 : tensor<4xf16>
  // CHECK: rlx.log %[[BF16]] : tensor<4xbf16>
  %bf16_0 = rlx.log %bf16 : tensor<4xbf16>
  // CHECK: rlx.log %[[F64]] : tensor<4xf64>
  %f64_0 = rlx.log %f64 : tensor<4xf64>
  // CHECK: rlx.log %[[C64]] : tensor<4xcomplex<f32>>
  %c64_0 = rlx.log %c64 : tensor<4xcomplex<f32>>
  return
}

// Float element types.
// CHECK-LABEL: func.func @sqrt
// CHECK-SAME:    %[[F32:[^:]+]]: tensor<?x8xf32>
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
func.func @sqrt(%f32: tensor<?x8xf32>, %f16: tensor<4xf16>,
                %bf16: tensor<4xbf16>, %f64: tensor<4xf64>) {
  // CHECK: rlx.sqrt %[[F32]] : tensor<?x8xf32>
  %f32_0 = rlx.sqrt %f32 : tensor<?x8xf32>
  // CHECK: rlx.sqrt %[[F16]] : tensor<4xf16>
  %f16_0 = rlx.sqrt %f16 : tensor<4xf16>
  // CHECK: rlx.sqrt %[[BF16]] : tensor<4xbf16>
  %bf16_0 = rlx.sqrt %bf16 : tensor<4xbf16>
  // CHECK: rlx.sqrt %[[F64]] : tensor<4xf64>
  %f64_0 = rlx.sqrt %f64 : tensor<4xf64>
  return
}

// Float element types.
// CHECK-LABEL: func.func @rsqrt
// CHECK-SAME:    %[[F32:[^:]+]]: tensor<?x8xf32>
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
func.func @rsqrt(%f32: tensor<?x8xf32>, %f16: tensor<4xf16>,
                 %bf16: tensor<4xbf16>, %f64: tensor<4xf64>) {
  // CHECK: rlx.rsqrt %[[F32]] : tensor<?x8xf32>
  %f32_0 = rlx.rsqrt %f32 : tensor<?x8xf32>
  // CHECK: rlx.rsqrt %[[F16]] : tensor<4xf16>
  %f16_0 = rlx.rsqrt %f16 : tensor<4xf16>
  // CHECK: rlx.rsqrt %[[BF16]] : tensor<4xbf16>
  %bf16_0 = rlx.rsqrt %bf16 : tensor<4xbf16>
  // CHECK: rlx.rsqrt %[[F64]] : tensor<4xf64>
  %f64_0 = rlx.rsqrt %f64 : tensor<4xf64>
  return
}

// Float, signed integer and complex element types.
// CHECK-LABEL: func.func @neg
// CHECK-SAME:    %[[F32:[^:]+]]: tensor<?x8xf32>
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
// CHECK-SAME:    %[[I8:[^:]+]]: tensor<4xi8>
// CHECK-SAME:    %[[I16:[^:]+]]: tensor<4xi16>
// CHECK-SAME:    %[[I32:[^:]+]]: tensor<4xi32>
// CHECK-SAME:    %[[I64:[^:]+]]: tensor<4xi64>
// CHECK-SAME:    %[[C64:[^:]+]]: tensor<4xcomplex<f32>>
func.func @neg(%f32: tensor<?x8xf32>, %f16: tensor<4xf16>,
               %bf16: tensor<4xbf16>, %f64: tensor<4xf64>, %i8: tensor<4xi8>,
               %i16: tensor<4xi16>, %i32: tensor<4xi32>, %i64: tensor<4xi64>,
               %c64: tensor<4xcomplex<f32>>) {
  // CHECK: rlx.neg %[[F32]] : tensor<?x8xf32>
  %f32_0 = rlx.neg %f32 : tensor<?x8xf32>
  // CHECK: rlx.neg %[[F16]] : tensor<4xf16>
  %f16_0 = rlx.neg %f16 : tensor<4xf16>
  // CHECK: rlx.neg %[[BF16]] : tensor<4xbf16>
  %bf16_0 = rlx.neg %bf16 : tensor<4xbf16>
  // CHECK: rlx.neg %[[F64]] : tensor<4xf64>
  %f64_0 = rlx.neg %f64 : tensor<4xf64>
  // CHECK: rlx.neg %[[I8]] : tensor<4xi8>
  %i8_0 = rlx.neg %i8 : tensor<4xi8>
  // CHECK: rlx.neg %[[I16]] : tensor<4xi16>
  %i16_0 = rlx.neg %i16 : tensor<4xi16>
  // CHECK: rlx.neg %[[I32]] : tensor<4xi32>
  %i32_0 = rlx.neg %i32 : tensor<4xi32>
  // CHECK: rlx.neg %[[I64]] : tensor<4xi64>
  %i64_0 = rlx.neg %i64 : tensor<4xi64>
  // CHECK: rlx.neg %[[C64]] : tensor<4xcomplex<f32>>
  %c64_0 = rlx.neg %c64 : tensor<4xcomplex<f32>>
  return
}

// Float and signed integer element types.
// CHECK-LABEL: func.func @relu
// CHECK-SAME:    %[[F32:[^:]+]]: tensor<?x8xf32>
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
// CHECK-SAME:    %[[I8:[^:]+]]: tensor<4xi8>
// CHECK-SAME:    %[[I16:[^:]+]]: tensor<4xi16>
// CHECK-SAME:    %[[I32:[^:]+]]: tensor<4xi32>
// CHECK-SAME:    %[[I64:[^:]+]]: tensor<4xi64>
func.func @relu(%f32: tensor<?x8xf32>, %f16: tensor<4xf16>,
                %bf16: tensor<4xbf16>, %f64: tensor<4xf64>, %i8: tensor<4xi8>,
                %i16: tensor<4xi16>, %i32: tensor<4xi32>, %i64: tensor<4xi64>) {
  // CHECK: rlx.relu %[[F32]] : tensor<?x8xf32>
  %f32_0 = rlx.relu %f32 : tensor<?x8xf32>
  // CHECK: rlx.relu %[[F16]] : tensor<4xf16>
  %f16_0 = rlx.relu %f16 : tensor<4xf16>
  // CHECK: rlx.relu %[[BF16]] : tensor<4xbf16>
  %bf16_0 = rlx.relu %bf16 : tensor<4xbf16>
  // CHECK: rlx.relu %[[F64]] : tensor<4xf64>
  %f64_0 = rlx.relu %f64 : tensor<4xf64>
  // CHECK: rlx.relu %[[I8]] : tensor<4xi8>
  %i8_0 = rlx.relu %i8 : tensor<4xi8>
  // CHECK: rlx.relu %[[I16]] : tensor<4xi16>
  %i16_0 = rlx.relu %i16 : tensor<4xi16>
  // CHECK: rlx.relu %[[I32]] : tensor<4xi32>
  %i32_0 = rlx.relu %i32 : tensor<4xi32>
  // CHECK: rlx.relu %[[I64]] : tensor<4xi64>
  %i64_0 = rlx.relu %i64 : tensor<4xi64>
  return
}

// Float and signed integer element types.
// CHECK-LABEL: func.func @abs
// CHECK-SAME:    %[[F32:[^:]+]]: tensor<?x8xf32>
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
// CHECK-SAME:    %[[I8:[^:]+]]: tensor<4xi8>
// CHECK-SAME:    %[[I16:[^:]+]]: tensor<4xi16>
// CHECK-SAME:    %[[I32:[^:]+]]: tensor<4xi32>
// CHECK-SAME:    %[[I64:[^:]+]]: tensor<4xi64>
func.func @abs(%f32: tensor<?x8xf32>, %f16: tensor<4xf16>,
               %bf16: tensor<4xbf16>, %f64: tensor<4xf64>, %i8: tensor<4xi8>,
               %i16: tensor<4xi16>, %i32: tensor<4xi32>, %i64: tensor<4xi64>) {
  // CHECK: rlx.abs %[[F32]] : tensor<?x8xf32>
  %f32_0 = rlx.abs %f32 : tensor<?x8xf32>
  // CHECK: rlx.abs %[[F16]] : tensor<4xf16>
  %f16_0 = rlx.abs %f16 : tensor<4xf16>
  // CHECK: rlx.abs %[[BF16]] : tensor<4xbf16>
  %bf16_0 = rlx.abs %bf16 : tensor<4xbf16>
  // CHECK: rlx.abs %[[F64]] : tensor<4xf64>
  %f64_0 = rlx.abs %f64 : tensor<4xf64>
  // CHECK: rlx.abs %[[I8]] : tensor<4xi8>
  %i8_0 = rlx.abs %i8 : tensor<4xi8>
  // CHECK: rlx.abs %[[I16]] : tensor<4xi16>
  %i16_0 = rlx.abs %i16 : tensor<4xi16>
  // CHECK: rlx.abs %[[I32]] : tensor<4xi32>
  %i32_0 = rlx.abs %i32 : tensor<4xi32>
  // CHECK: rlx.abs %[[I64]] : tensor<4xi64>
  %i64_0 = rlx.abs %i64 : tensor<4xi64>
  return
}

// Float element types.
// CHECK-LABEL: func.func @sin
// CHECK-SAME:    %[[F32:[^:]+]]: tensor<?x8xf32>
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
func.func @sin(%f32: tensor<?x8xf32>, %f16: tensor<4xf16>,
               %bf16: tensor<4xbf16>, %f64: tensor<4xf64>) {
  // CHECK: rlx.sin %[[F32]] : tensor<?x8xf32>
  %f32_0 = rlx.sin %f32 : tensor<?x8xf32>
  // CHECK: rlx.sin %[[F16]] : tensor<4xf16>
  %f16_0 = rlx.sin %f16 : tensor<4xf16>
  // CHECK: rlx.sin %[[BF16]] : tensor<4xbf16>
  %bf16_0 = rlx.sin %bf16 : tensor<4xbf16>
  // CHECK: rlx.sin %[[F64]] : tensor<4xf64>
  %f64_0 = rlx.sin %f64 : tensor<4xf64>
  return
}

// Float element types.
// CHECK-LABEL: func.func @cos
// CHECK-SAME:    %[[F32:[^:]+]]: tensor<?x8xf32>
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
func.func @cos(%f32: tensor<?x8xf32>, %f16: tensor<4xf16>,
               %bf16: tensor<4xbf16>, %f64: tensor<4xf64>) {
  // CHECK: rlx.cos %[[F32]] : tensor<?x8xf32>
  %f32_0 = rlx.cos %f32 : tensor<?x8xf32>
  // CHECK: rlx.cos %[[F16]] : tensor<4xf16>
  %f16_0 = rlx.cos %f16 : tensor<4xf16>
  // CHECK: rlx.cos %[[BF16]] : tensor<4xbf16>
  %bf16_0 = rlx.cos %bf16 : tensor<4xbf16>
  // CHECK: rlx.cos %[[F64]] : tensor<4xf64>
  %f64_0 = rlx.cos %f64 : tensor<4xf64>
  return
}

// Float element types.
// CHECK-LABEL: func.func @tan
// CHECK-SAME:    %[[F32:[^:]+]]: tensor<?x8xf32>
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
func.func @tan(%f32: tensor<?x8xf32>, %f16: tensor<4xf16>,
               %bf16: tensor<4xbf16>, %f64: tensor<4xf64>) {
  // CHECK: rlx.tan %[[F32]] : tensor<?x8xf32>
  %f32_0 = rlx.tan %f32 : tensor<?x8xf32>
  // CHECK: rlx.tan %[[F16]] : tensor<4xf16>
  %f16_0 = rlx.tan %f16 : tensor<4xf16>
  // CHECK: rlx.tan %[[BF16]] : tensor<4xbf16>
  %bf16_0 = rlx.tan %bf16 : tensor<4xbf16>
  // CHECK: rlx.tan %[[F64]] : tensor<4xf64>
  %f64_0 = rlx.tan %f64 : tensor<4xf64>
  return
}

// Float element types.
// CHECK-LABEL: func.func @atan
// CHECK-SAME:    %[[F32:[^:]+]]: tensor<?x8xf32>
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
func.func @atan(%f32: tensor<?x8xf32>, %f16: tensor<4xf16>,
                %bf16: tensor<4xbf16>, %f64: tensor<4xf64>) {
  // CHECK: rlx.atan %[[F32]] : tensor<?x8xf32>
  %f32_0 = rlx.atan %f32 : tensor<?x8xf32>
  // CHECK: rlx.atan %[[F16]] : tensor<4xf16>
  %f16_0 = rlx.atan %f16 : tensor<4xf16>
  // CHECK: rlx.atan %[[BF16]] : tensor<4xbf16>
  %bf16_0 = rlx.atan %bf16 : tensor<4xbf16>
  // CHECK: rlx.atan %[[F64]] : tensor<4xf64>
  %f64_0 = rlx.atan %f64 : tensor<4xf64>
  return
}

// Float element types.
// CHECK-LABEL: func.func @round
// CHECK-SAME:    %[[F32:[^:]+]]: tensor<?x8xf32>
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
func.func @round(%f32: tensor<?x8xf32>, %f16: tensor<4xf16>,
                 %bf16: tensor<4xbf16>, %f64: tensor<4xf64>) {
  // CHECK: rlx.round %[[F32]] : tensor<?x8xf32>
  %f32_0 = rlx.round %f32 : tensor<?x8xf32>
  // CHECK: rlx.round %[[F16]] : tensor<4xf16>
  %f16_0 = rlx.round %f16 : tensor<4xf16>
  // CHECK: rlx.round %[[BF16]] : tensor<4xbf16>
  %bf16_0 = rlx.round %bf16 : tensor<4xbf16>
  // CHECK: rlx.round %[[F64]] : tensor<4xf64>
  %f64_0 = rlx.round %f64 : tensor<4xf64>
  return
}

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

// Float, integer and complex element types.
// CHECK-LABEL: func.func @add
// CHECK-SAME:    %[[F32:[^:]+]]: tensor<?x8xf32>
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
// CHECK-SAME:    %[[I8:[^:]+]]: tensor<4xi8>
// CHECK-SAME:    %[[I16:[^:]+]]: tensor<4xi16>
// CHECK-SAME:    %[[I32:[^:]+]]: tensor<4xi32>
// CHECK-SAME:    %[[I64:[^:]+]]: tensor<4xi64>
// CHECK-SAME:    %[[UI8:[^:]+]]: tensor<4xui8>
// CHECK-SAME:    %[[UI32:[^:]+]]: tensor<4xui32>
// CHECK-SAME:    %[[C64:[^:]+]]: tensor<4xcomplex<f32>>
func.func @add(%f32: tensor<?x8xf32>, %f16: tensor<4xf16>,
               %bf16: tensor<4xbf16>, %f64: tensor<4xf64>, %i8: tensor<4xi8>,
               %i16: tensor<4xi16>, %i32: tensor<4xi32>, %i64: tensor<4xi64>,
               %ui8: tensor<4xui8>, %ui32: tensor<4xui32>,
               %c64: tensor<4xcomplex<f32>>) {
  // CHECK: rlx.add %[[F32]], %[[F32]] : tensor<?x8xf32>
  %f32_0 = rlx.add %f32, %f32 : tensor<?x8xf32>
  // CHECK: rlx.add %[[F16]], %[[F16]] : tensor<4xf16>
  %f16_0 = rlx.add %f16, %f16 : tensor<4xf16>
  // CHECK: rlx.add %[[BF16]], %[[BF16]] : tensor<4xbf16>
  %bf16_0 = rlx.add %bf16, %bf16 : tensor<4xbf16>
  // CHECK: rlx.add %[[F64]], %[[F64]] : tensor<4xf64>
  %f64_0 = rlx.add %f64, %f64 : tensor<4xf64>
  // CHECK: rlx.add %[[I8]], %[[I8]] : tensor<4xi8>
  %i8_0 = rlx.add %i8, %i8 : tensor<4xi8>
  // CHECK: rlx.add %[[I16]], %[[I16]] : tensor<4xi16>
  %i16_0 = rlx.add %i16, %i16 : tensor<4xi16>
  // CHECK: rlx.add %[[I32]], %[[I32]] : tensor<4xi32>
  %i32_0 = rlx.add %i32, %i32 : tensor<4xi32>
  // CHECK: rlx.add %[[I64]], %[[I64]] : tensor<4xi64>
  %i64_0 = rlx.add %i64, %i64 : tensor<4xi64>
  // CHECK: rlx.add %[[UI8]], %[[UI8]] : tensor<4xui8>
  %ui8_0 = rlx.add %ui8, %ui8 : tensor<4xui8>
  // CHECK: rlx.add %[[UI32]], %[[UI32]] : tensor<4xui32>
  %ui32_0 = rlx.add %ui32, %ui32 : tensor<4xui32>
  // CHECK: rlx.add %[[C64]], %[[C64]] : tensor<4xcomplex<f32>>
  %c64_0 = rlx.add %c64, %c64 : tensor<4xcomplex<f32>>
  return
}

// Float, integer and complex element types.
// CHECK-LABEL: func.func @sub
// CHECK-SAME:    %[[F32:[^:]+]]: tensor<?x8xf32>
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
// CHECK-SAME:    %[[I8:[^:]+]]: tensor<4xi8>
// CHECK-SAME:    %[[I16:[^:]+]]: tensor<4xi16>
// CHECK-SAME:    %[[I32:[^:]+]]: tensor<4xi32>
// CHECK-SAME:    %[[I64:[^:]+]]: tensor<4xi64>
// CHECK-SAME:    %[[UI8:[^:]+]]: tensor<4xui8>
// CHECK-SAME:    %[[UI32:[^:]+]]: tensor<4xui32>
// CHECK-SAME:    %[[C64:[^:]+]]: tensor<4xcomplex<f32>>
func.func @sub(%f32: tensor<?x8xf32>, %f16: tensor<4xf16>,
               %bf16: tensor<4xbf16>, %f64: tensor<4xf64>, %i8: tensor<4xi8>,
               %i16: tensor<4xi16>, %i32: tensor<4xi32>, %i64: tensor<4xi64>,
               %ui8: tensor<4xui8>, %ui32: tensor<4xui32>,
               %c64: tensor<4xcomplex<f32>>) {
  // CHECK: rlx.sub %[[F32]], %[[F32]] : tensor<?x8xf32>
  %f32_0 = rlx.sub %f32, %f32 : tensor<?x8xf32>
  // CHECK: rlx.sub %[[F16]], %[[F16]] : tensor<4xf16>
  %f16_0 = rlx.sub %f16, %f16 : tensor<4xf16>
  // CHECK: rlx.sub %[[BF16]], %[[BF16]] : tensor<4xbf16>
  %bf16_0 = rlx.sub %bf16, %bf16 : tensor<4xbf16>
  // CHECK: rlx.sub %[[F64]], %[[F64]] : tensor<4xf64>
  %f64_0 = rlx.sub %f64, %f64 : tensor<4xf64>
  // CHECK: rlx.sub %[[I8]], %[[I8]] : tensor<4xi8>
  %i8_0 = rlx.sub %i8, %i8 : tensor<4xi8>
  // CHECK: rlx.sub %[[I16]], %[[I16]] : tensor<4xi16>
  %i16_0 = rlx.sub %i16, %i16 : tensor<4xi16>
  // CHECK: rlx.sub %[[I32]], %[[I32]] : tensor<4xi32>
  %i32_0 = rlx.sub %i32, %i32 : tensor<4xi32>
  // CHECK: rlx.sub %[[I64]], %[[I64]] : tensor<4xi64>
  %i64_0 = rlx.sub %i64, %i64 : tensor<4xi64>
  // CHECK: rlx.sub %[[UI8]], %[[UI8]] : tensor<4xui8>
  %ui8_0 = rlx.sub %ui8, %ui8 : tensor<4xui8>
  // CHECK: rlx.sub %[[UI32]], %[[UI32]] : tensor<4xui32>
  %ui32_0 = rlx.sub %ui32, %ui32 : tensor<4xui32>
  // CHECK: rlx.sub %[[C64]], %[[C64]] : tensor<4xcomplex<f32>>
  %c64_0 = rlx.sub %c64, %c64 : tensor<4xcomplex<f32>>
  return
}

// Float, integer and complex element types.
// CHECK-LABEL: func.func @mul
// CHECK-SAME:    %[[F32:[^:]+]]: tensor<?x8xf32>
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
// CHECK-SAME:    %[[I8:[^:]+]]: tensor<4xi8>
// CHECK-SAME:    %[[I16:[^:]+]]: tensor<4xi16>
// CHECK-SAME:    %[[I32:[^:]+]]: tensor<4xi32>
// CHECK-SAME:    %[[I64:[^:]+]]: tensor<4xi64>
// CHECK-SAME:    %[[UI8:[^:]+]]: tensor<4xui8>
// CHECK-SAME:    %[[UI32:[^:]+]]: tensor<4xui32>
// CHECK-SAME:    %[[C64:[^:]+]]: tensor<4xcomplex<f32>>
func.func @mul(%f32: tensor<?x8xf32>, %f16: tensor<4xf16>,
               %bf16: tensor<4xbf16>, %f64: tensor<4xf64>, %i8: tensor<4xi8>,
               %i16: tensor<4xi16>, %i32: tensor<4xi32>, %i64: tensor<4xi64>,
               %ui8: tensor<4xui8>, %ui32: tensor<4xui32>,
               %c64: tensor<4xcomplex<f32>>) {
  // CHECK: rlx.mul %[[F32]], %[[F32]] : tensor<?x8xf32>
  %f32_0 = rlx.mul %f32, %f32 : tensor<?x8xf32>
  // CHECK: rlx.mul %[[F16]], %[[F16]] : tensor<4xf16>
  %f16_0 = rlx.mul %f16, %f16 : tensor<4xf16>
  // CHECK: rlx.mul %[[BF16]], %[[BF16]] : tensor<4xbf16>
  %bf16_0 = rlx.mul %bf16, %bf16 : tensor<4xbf16>
  // CHECK: rlx.mul %[[F64]], %[[F64]] : tensor<4xf64>
  %f64_0 = rlx.mul %f64, %f64 : tensor<4xf64>
  // CHECK: rlx.mul %[[I8]], %[[I8]] : tensor<4xi8>
  %i8_0 = rlx.mul %i8, %i8 : tensor<4xi8>
  // CHECK: rlx.mul %[[I16]], %[[I16]] : tensor<4xi16>
  %i16_0 = rlx.mul %i16, %i16 : tensor<4xi16>
  // CHECK: rlx.mul %[[I32]], %[[I32]] : tensor<4xi32>
  %i32_0 = rlx.mul %i32, %i32 : tensor<4xi32>
  // CHECK: rlx.mul %[[I64]], %[[I64]] : tensor<4xi64>
  %i64_0 = rlx.mul %i64, %i64 : tensor<4xi64>
  // CHECK: rlx.mul %[[UI8]], %[[UI8]] : tensor<4xui8>
  %ui8_0 = rlx.mul %ui8, %ui8 : tensor<4xui8>
  // CHECK: rlx.mul %[[UI32]], %[[UI32]] : tensor<4xui32>
  %ui32_0 = rlx.mul %ui32, %ui32 : tensor<4xui32>
  // CHECK: rlx.mul %[[C64]], %[[C64]] : tensor<4xcomplex<f32>>
  %c64_0 = rlx.mul %c64, %c64 : tensor<4xcomplex<f32>>
  return
}

// Float, integer and complex element types.
// CHECK-LABEL: func.func @div
// CHECK-SAME:    %[[F32:[^:]+]]: tensor<?x8xf32>
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
// CHECK-SAME:    %[[I8:[^:]+]]: tensor<4xi8>
// CHECK-SAME:    %[[I16:[^:]+]]: tensor<4xi16>
// CHECK-SAME:    %[[I32:[^:]+]]: tensor<4xi32>
// CHECK-SAME:    %[[I64:[^:]+]]: tensor<4xi64>
// CHECK-SAME:    %[[UI8:[^:]+]]: tensor<4xui8>
// CHECK-SAME:    %[[UI32:[^:]+]]: tensor<4xui32>
// CHECK-SAME:    %[[C64:[^:]+]]: tensor<4xcomplex<f32>>
func.func @div(%f32: tensor<?x8xf32>, %f16: tensor<4xf16>,
               %bf16: tensor<4xbf16>, %f64: tensor<4xf64>, %i8: tensor<4xi8>,
               %i16: tensor<4xi16>, %i32: tensor<4xi32>, %i64: tensor<4xi64>,
               %ui8: tensor<4xui8>, %ui32: tensor<4xui32>,
               %c64: tensor<4xcomplex<f32>>) {
  // CHECK: rlx.div %[[F32]], %[[F32]] : tensor<?x8xf32>
  %f32_0 = rlx.div %f32, %f32 : tensor<?x8xf32>
  // CHECK: rlx.div %[[F16]], %[[F16]] : tensor<4xf16>
  %f16_0 = rlx.div %f16, %f16 : tensor<4xf16>
  // CHECK: rlx.div %[[BF16]], %[[BF16]] : tensor<4xbf16>
  %bf16_0 = rlx.div %bf16, %bf16 : tensor<4xbf16>
  // CHECK: rlx.div %[[F64]], %[[F64]] : tensor<4xf64>
  %f64_0 = rlx.div %f64, %f64 : tensor<4xf64>
  // CHECK: rlx.div %[[I8]], %[[I8]] : tensor<4xi8>
  %i8_0 = rlx.div %i8, %i8 : tensor<4xi8>
  // CHECK: rlx.div %[[I16]], %[[I16]] : tensor<4xi16>
  %i16_0 = rlx.div %i16, %i16 : tensor<4xi16>
  // CHECK: rlx.div %[[I32]], %[[I32]] : tensor<4xi32>
  %i32_0 = rlx.div %i32, %i32 : tensor<4xi32>
  // CHECK: rlx.div %[[I64]], %[[I64]] : tensor<4xi64>
  %i64_0 = rlx.div %i64, %i64 : tensor<4xi64>
  // CHECK: rlx.div %[[UI8]], %[[UI8]] : tensor<4xui8>
  %ui8_0 = rlx.div %ui8, %ui8 : tensor<4xui8>
  // CHECK: rlx.div %[[UI32]], %[[UI32]] : tensor<4xui32>
  %ui32_0 = rlx.div %ui32, %ui32 : tensor<4xui32>
  // CHECK: rlx.div %[[C64]], %[[C64]] : tensor<4xcomplex<f32>>
  %c64_0 = rlx.div %c64, %c64 : tensor<4xcomplex<f32>>
  return
}

// Float and integer element types.
// CHECK-LABEL: func.func @max
// CHECK-SAME:    %[[F32:[^:]+]]: tensor<?x8xf32>
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
// CHECK-SAME:    %[[I8:[^:]+]]: tensor<4xi8>
// CHECK-SAME:    %[[I16:[^:]+]]: tensor<4xi16>
// CHECK-SAME:    %[[I32:[^:]+]]: tensor<4xi32>
// CHECK-SAME:    %[[I64:[^:]+]]: tensor<4xi64>
// CHECK-SAME:    %[[UI8:[^:]+]]: tensor<4xui8>
// CHECK-SAME:    %[[UI32:[^:]+]]: tensor<4xui32>
func.func @max(%f32: tensor<?x8xf32>, %f16: tensor<4xf16>,
               %bf16: tensor<4xbf16>, %f64: tensor<4xf64>, %i8: tensor<4xi8>,
               %i16: tensor<4xi16>, %i32: tensor<4xi32>, %i64: tensor<4xi64>,
               %ui8: tensor<4xui8>, %ui32: tensor<4xui32>) {
  // CHECK: rlx.max %[[F32]], %[[F32]] : tensor<?x8xf32>
  %f32_0 = rlx.max %f32, %f32 : tensor<?x8xf32>
  // CHECK: rlx.max %[[F16]], %[[F16]] : tensor<4xf16>
  %f16_0 = rlx.max %f16, %f16 : tensor<4xf16>
  // CHECK: rlx.max %[[BF16]], %[[BF16]] : tensor<4xbf16>
  %bf16_0 = rlx.max %bf16, %bf16 : tensor<4xbf16>
  // CHECK: rlx.max %[[F64]], %[[F64]] : tensor<4xf64>
  %f64_0 = rlx.max %f64, %f64 : tensor<4xf64>
  // CHECK: rlx.max %[[I8]], %[[I8]] : tensor<4xi8>
  %i8_0 = rlx.max %i8, %i8 : tensor<4xi8>
  // CHECK: rlx.max %[[I16]], %[[I16]] : tensor<4xi16>
  %i16_0 = rlx.max %i16, %i16 : tensor<4xi16>
  // CHECK: rlx.max %[[I32]], %[[I32]] : tensor<4xi32>
  %i32_0 = rlx.max %i32, %i32 : tensor<4xi32>
  // CHECK: rlx.max %[[I64]], %[[I64]] : tensor<4xi64>
  %i64_0 = rlx.max %i64, %i64 : tensor<4xi64>
  // CHECK: rlx.max %[[UI8]], %[[UI8]] : tensor<4xui8>
  %ui8_0 = rlx.max %ui8, %ui8 : tensor<4xui8>
  // CHECK: rlx.max %[[UI32]], %[[UI32]] : tensor<4xui32>
  %ui32_0 = rlx.max %ui32, %ui32 : tensor<4xui32>
  return
}

// Float and integer element types.
// CHECK-LABEL: func.func @min
// CHECK-SAME:    %[[F32:[^:]+]]: tensor<?x8xf32>
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
// CHECK-SAME:    %[[I8:[^:]+]]: tensor<4xi8>
// CHECK-SAME:    %[[I16:[^:]+]]: tensor<4xi16>
// CHECK-SAME:    %[[I32:[^:]+]]: tensor<4xi32>
// CHECK-SAME:    %[[I64:[^:]+]]: tensor<4xi64>
// CHECK-SAME:    %[[UI8:[^:]+]]: tensor<4xui8>
// CHECK-SAME:    %[[UI32:[^:]+]]: tensor<4xui32>
func.func @min(%f32: tensor<?x8xf32>, %f16: tensor<4xf16>,
               %bf16: tensor<4xbf16>, %f64: tensor<4xf64>, %i8: tensor<4xi8>,
               %i16: tensor<4xi16>, %i32: tensor<4xi32>, %i64: tensor<4xi64>,
               %ui8: tensor<4xui8>, %ui32: tensor<4xui32>) {
  // CHECK: rlx.min %[[F32]], %[[F32]] : tensor<?x8xf32>
  %f32_0 = rlx.min %f32, %f32 : tensor<?x8xf32>
  // CHECK: rlx.min %[[F16]], %[[F16]] : tensor<4xf16>
  %f16_0 = rlx.min %f16, %f16 : tensor<4xf16>
  // CHECK: rlx.min %[[BF16]], %[[BF16]] : tensor<4xbf16>
  %bf16_0 = rlx.min %bf16, %bf16 : tensor<4xbf16>
  // CHECK: rlx.min %[[F64]], %[[F64]] : tensor<4xf64>
  %f64_0 = rlx.min %f64, %f64 : tensor<4xf64>
  // CHECK: rlx.min %[[I8]], %[[I8]] : tensor<4xi8>
  %i8_0 = rlx.min %i8, %i8 : tensor<4xi8>
  // CHECK: rlx.min %[[I16]], %[[I16]] : tensor<4xi16>
  %i16_0 = rlx.min %i16, %i16 : tensor<4xi16>
  // CHECK: rlx.min %[[I32]], %[[I32]] : tensor<4xi32>
  %i32_0 = rlx.min %i32, %i32 : tensor<4xi32>
  // CHECK: rlx.min %[[I64]], %[[I64]] : tensor<4xi64>
  %i64_0 = rlx.min %i64, %i64 : tensor<4xi64>
  // CHECK: rlx.min %[[UI8]], %[[UI8]] : tensor<4xui8>
  %ui8_0 = rlx.min %ui8, %ui8 : tensor<4xui8>
  // CHECK: rlx.min %[[UI32]], %[[UI32]] : tensor<4xui32>
  %ui32_0 = rlx.min %ui32, %ui32 : tensor<4xui32>
  return
}

// Float element types.
// CHECK-LABEL: func.func @pow
// CHECK-SAME:    %[[F32:[^:]+]]: tensor<?x8xf32>
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
func.func @pow(%f32: tensor<?x8xf32>, %f16: tensor<4xf16>,
               %bf16: tensor<4xbf16>, %f64: tensor<4xf64>) {
  // CHECK: rlx.pow %[[F32]], %[[F32]] : tensor<?x8xf32>
  %f32_0 = rlx.pow %f32, %f32 : tensor<?x8xf32>
  // CHECK: rlx.pow %[[F16]], %[[F16]] : tensor<4xf16>
  %f16_0 = rlx.pow %f16, %f16 : tensor<4xf16>
  // CHECK: rlx.pow %[[BF16]], %[[BF16]] : tensor<4xbf16>
  %bf16_0 = rlx.pow %bf16, %bf16 : tensor<4xbf16>
  // CHECK: rlx.pow %[[F64]], %[[F64]] : tensor<4xf64>
  %f64_0 = rlx.pow %f64, %f64 : tensor<4xf64>
  return
}

//===----------------------------------------------------------------------===//
// Broadcasting of the binary ops
//===----------------------------------------------------------------------===//

// Operands of one type print the type once; operands of different types
// print both. The result has the broadcast shape.
// CHECK-LABEL: func.func @binary_broadcast
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>
// CHECK-SAME:    %[[ROW:[^:]+]]: tensor<8xf32>
// CHECK-SAME:    %[[COL:[^:]+]]: tensor<4x1xf32>
// CHECK-SAME:    %[[S:[^:]+]]: tensor<f32>
func.func @binary_broadcast(%x: tensor<4x8xf32>, %row: tensor<8xf32>, %col: tensor<4x1xf32>, %s: tensor<f32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  // CHECK: %[[ADD:.+]] = rlx.add %[[X]], %[[X]] : tensor<4x8xf32>
  %add = rlx.add %x, %x : tensor<4x8xf32>
  // CHECK: %[[SUB:.+]] = rlx.sub %[[X]], %[[ROW]] : tensor<4x8xf32>, tensor<8xf32>
  %sub = rlx.sub %x, %row : tensor<4x8xf32>, tensor<8xf32>
  // CHECK: %[[MUL:.+]] = rlx.mul %[[ROW]], %[[X]] : tensor<8xf32>, tensor<4x8xf32>
  %mul = rlx.mul %row, %x : tensor<8xf32>, tensor<4x8xf32>
  // CHECK: %[[DIV:.+]] = rlx.div %[[X]], %[[S]] : tensor<4x8xf32>, tensor<f32>
  %div = rlx.div %x, %s : tensor<4x8xf32>, tensor<f32>
  // CHECK: %[[MAX:.+]] = rlx.max %[[COL]], %[[ROW]] : tensor<4x1xf32>, tensor<8xf32>
  %max = rlx.max %col, %row : tensor<4x1xf32>, tensor<8xf32>
  // CHECK: %[[MIN:.+]] = rlx.min %[[S]], %[[X]] : tensor<f32>, tensor<4x8xf32>
  %min = rlx.min %s, %x : tensor<f32>, tensor<4x8xf32>
  // CHECK: %[[POW:.+]] = rlx.pow %[[X]], %[[COL]] : tensor<4x8xf32>, tensor<4x1xf32>
  %pow = rlx.pow %x, %col : tensor<4x8xf32>, tensor<4x1xf32>
  // The types may be spelled twice; they print once.
  // CHECK: %[[ADD2:.+]] = rlx.add %[[X]], %[[X]] : tensor<4x8xf32>{{$}}
  %add2 = rlx.add %x, %x : tensor<4x8xf32>, tensor<4x8xf32>
  // CHECK: return %[[ADD]], %[[SUB]], %[[MUL]], %[[DIV]], %[[MAX]], %[[MIN]], %[[POW]], %[[ADD2]]
  return %add, %sub, %mul, %div, %max, %min, %pow, %add2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// A dynamic dim broadcasts against a static one (the static size wins) and
// against 1 (it stays dynamic).
// CHECK-LABEL: func.func @binary_broadcast_dynamic
// CHECK-SAME:    %[[D:[^:]+]]: tensor<?x8xi32>
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xi32>
// CHECK-SAME:    %[[ONE:[^:]+]]: tensor<1x8xi32>
// CHECK-SAME:    %[[DD:[^:]+]]: tensor<?x?xi32>
func.func @binary_broadcast_dynamic(%d: tensor<?x8xi32>, %x: tensor<4x8xi32>, %one: tensor<1x8xi32>, %dd: tensor<?x?xi32>)
    -> (tensor<4x8xi32>, tensor<?x8xi32>, tensor<?x8xi32>, tensor<?x?xi32>) {
  // CHECK: %[[A:.+]] = rlx.add %[[D]], %[[X]] : tensor<?x8xi32>, tensor<4x8xi32>
  %a = rlx.add %d, %x : tensor<?x8xi32>, tensor<4x8xi32>
  // CHECK: %[[B:.+]] = rlx.mul %[[ONE]], %[[D]] : tensor<1x8xi32>, tensor<?x8xi32>
  %b = rlx.mul %one, %d : tensor<1x8xi32>, tensor<?x8xi32>
  // CHECK: %[[C:.+]] = rlx.max %[[DD]], %[[D]] : tensor<?x?xi32>, tensor<?x8xi32>
  %c = rlx.max %dd, %d : tensor<?x?xi32>, tensor<?x8xi32>
  // CHECK: %[[E:.+]] = rlx.sub %[[DD]], %[[DD]] : tensor<?x?xi32>
  %e = rlx.sub %dd, %dd : tensor<?x?xi32>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[E]]
  return %a, %b, %c, %e : tensor<4x8xi32>, tensor<?x8xi32>, tensor<?x8xi32>, tensor<?x?xi32>
}

//===----------------------------------------------------------------------===//
// rlx.cmp
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @cmp_predicates
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>
// CHECK-SAME:    %[[Y:[^:]+]]: tensor<4x8xf32>
func.func @cmp_predicates(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>)
    -> (tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>) {
  // CHECK: %[[EQ:.+]] = rlx.cmp eq, %[[X]], %[[Y]] : tensor<4x8xf32>
  %eq = rlx.cmp eq, %x, %y : tensor<4x8xf32>
  // CHECK: %[[NE:.+]] = rlx.cmp ne, %[[X]], %[[Y]] : tensor<4x8xf32>
  %ne = rlx.cmp ne, %x, %y : tensor<4x8xf32>
  // CHECK: %[[LT:.+]] = rlx.cmp lt, %[[X]], %[[Y]] : tensor<4x8xf32>
  %lt = rlx.cmp lt, %x, %y : tensor<4x8xf32>
  // CHECK: %[[LE:.+]] = rlx.cmp le, %[[X]], %[[Y]] : tensor<4x8xf32>
  %le = rlx.cmp le, %x, %y : tensor<4x8xf32>
  // CHECK: %[[GT:.+]] = rlx.cmp gt, %[[X]], %[[Y]] : tensor<4x8xf32>
  %gt = rlx.cmp gt, %x, %y : tensor<4x8xf32>
  // CHECK: %[[GE:.+]] = rlx.cmp ge, %[[X]], %[[Y]] : tensor<4x8xf32>
  %ge = rlx.cmp ge, %x, %y : tensor<4x8xf32>
  // CHECK: return %[[EQ]], %[[NE]], %[[LT]], %[[LE]], %[[GT]], %[[GE]]
  return %eq, %ne, %lt, %le, %gt, %ge : tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>
}

// The predicate may also be written as a string; it prints as a keyword.
// CHECK-LABEL: func.func @cmp_string_predicate
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4xf32>
func.func @cmp_string_predicate(%x: tensor<4xf32>) -> tensor<4xi1> {
  // CHECK: %[[R:.+]] = rlx.cmp ge, %[[X]], %[[X]] : tensor<4xf32>
  %r = rlx.cmp "ge", %x, %x : tensor<4xf32>
  // CHECK: return %[[R]] : tensor<4xi1>
  return %r : tensor<4xi1>
}

// Every element type; the result is always i1.
// CHECK-LABEL: func.func @cmp_element_types
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
// CHECK-SAME:    %[[I8:[^:]+]]: tensor<4xi8>
// CHECK-SAME:    %[[I16:[^:]+]]: tensor<4xi16>
// CHECK-SAME:    %[[I32:[^:]+]]: tensor<4xi32>
// CHECK-SAME:    %[[I64:[^:]+]]: tensor<4xi64>
// CHECK-SAME:    %[[UI8:[^:]+]]: tensor<4xui8>
// CHECK-SAME:    %[[UI32:[^:]+]]: tensor<4xui32>
// CHECK-SAME:    %[[I1:[^:]+]]: tensor<4xi1>
// CHECK-SAME:    %[[C64:[^:]+]]: tensor<4xcomplex<f32>>
func.func @cmp_element_types(%f16: tensor<4xf16>, %bf16: tensor<4xbf16>, %f64: tensor<4xf64>,
                             %i8: tensor<4xi8>, %i16: tensor<4xi16>, %i32: tensor<4xi32>,
                             %i64: tensor<4xi64>, %ui8: tensor<4xui8>, %ui32: tensor<4xui32>,
                             %i1: tensor<4xi1>, %c64: tensor<4xcomplex<f32>>)
    -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>,
        tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  // CHECK: %[[R0:.+]] = rlx.cmp lt, %[[F16]], %[[F16]] : tensor<4xf16>
  %0 = rlx.cmp lt, %f16, %f16 : tensor<4xf16>
  // CHECK: %[[R1:.+]] = rlx.cmp le, %[[BF16]], %[[BF16]] : tensor<4xbf16>
  %1 = rlx.cmp le, %bf16, %bf16 : tensor<4xbf16>
  // CHECK: %[[R2:.+]] = rlx.cmp gt, %[[F64]], %[[F64]] : tensor<4xf64>
  %2 = rlx.cmp gt, %f64, %f64 : tensor<4xf64>
  // CHECK: %[[R3:.+]] = rlx.cmp ge, %[[I8]], %[[I8]] : tensor<4xi8>
  %3 = rlx.cmp ge, %i8, %i8 : tensor<4xi8>
  // CHECK: %[[R4:.+]] = rlx.cmp eq, %[[I16]], %[[I16]] : tensor<4xi16>
  %4 = rlx.cmp eq, %i16, %i16 : tensor<4xi16>
  // CHECK: %[[R5:.+]] = rlx.cmp ne, %[[I32]], %[[I32]] : tensor<4xi32>
  %5 = rlx.cmp ne, %i32, %i32 : tensor<4xi32>
  // CHECK: %[[R6:.+]] = rlx.cmp lt, %[[I64]], %[[I64]] : tensor<4xi64>
  %6 = rlx.cmp lt, %i64, %i64 : tensor<4xi64>
  // CHECK: %[[R7:.+]] = rlx.cmp gt, %[[UI8]], %[[UI8]] : tensor<4xui8>
  %7 = rlx.cmp gt, %ui8, %ui8 : tensor<4xui8>
  // CHECK: %[[R8:.+]] = rlx.cmp le, %[[UI32]], %[[UI32]] : tensor<4xui32>
  %8 = rlx.cmp le, %ui32, %ui32 : tensor<4xui32>
  // CHECK: %[[R9:.+]] = rlx.cmp eq, %[[I1]], %[[I1]] : tensor<4xi1>
  %9 = rlx.cmp eq, %i1, %i1 : tensor<4xi1>
  // CHECK: %[[R10:.+]] = rlx.cmp ne, %[[C64]], %[[C64]] : tensor<4xcomplex<f32>>
  %10 = rlx.cmp ne, %c64, %c64 : tensor<4xcomplex<f32>>
  // CHECK: return %[[R0]], %[[R1]], %[[R2]], %[[R3]], %[[R4]], %[[R5]], %[[R6]], %[[R7]], %[[R8]], %[[R9]], %[[R10]]
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// CHECK-LABEL: func.func @cmp_broadcast
// CHECK-SAME:    %[[X:[^:]+]]: tensor<?x8xf32>
// CHECK-SAME:    %[[ROW:[^:]+]]: tensor<8xf32>
// CHECK-SAME:    %[[COL:[^:]+]]: tensor<4x1xf32>
func.func @cmp_broadcast(%x: tensor<?x8xf32>, %row: tensor<8xf32>, %col: tensor<4x1xf32>)
    -> (tensor<?x8xi1>, tensor<4x8xi1>) {
  // CHECK: %[[A:.+]] = rlx.cmp lt, %[[X]], %[[ROW]] : tensor<?x8xf32>, tensor<8xf32>
  %a = rlx.cmp lt, %x, %row : tensor<?x8xf32>, tensor<8xf32>
  // CHECK: %[[B:.+]] = rlx.cmp eq, %[[COL]], %[[ROW]] : tensor<4x1xf32>, tensor<8xf32>
  %b = rlx.cmp eq, %col, %row : tensor<4x1xf32>, tensor<8xf32>
  // CHECK: return %[[A]], %[[B]]
  return %a, %b : tensor<?x8xi1>, tensor<4x8xi1>
}

//===----------------------------------------------------------------------===//
// rlx.where
//===----------------------------------------------------------------------===//

// The condition's type is always printed; on_true and on_false print one
// type when they agree.
// CHECK-LABEL: func.func @where
// CHECK-SAME:    %[[M:[^:]+]]: tensor<4x8xi1>
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>
// CHECK-SAME:    %[[Z:[^:]+]]: tensor<f32>
func.func @where(%m: tensor<4x8xi1>, %x: tensor<4x8xf32>, %z: tensor<f32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  // CHECK: %[[A:.+]] = rlx.where %[[M]], %[[X]], %[[X]] : tensor<4x8xi1>, tensor<4x8xf32>{{$}}
  %a = rlx.where %m, %x, %x : tensor<4x8xi1>, tensor<4x8xf32>
  // CHECK: %[[B:.+]] = rlx.where %[[M]], %[[X]], %[[Z]] : tensor<4x8xi1>, tensor<4x8xf32>, tensor<f32>
  %b = rlx.where %m, %x, %z : tensor<4x8xi1>, tensor<4x8xf32>, tensor<f32>
  // CHECK: return %[[A]], %[[B]]
  return %a, %b : tensor<4x8xf32>, tensor<4x8xf32>
}

// All three operands broadcast together; the result takes the element type
// of on_true / on_false.
// CHECK-LABEL: func.func @where_broadcast
// CHECK-SAME:    %[[C:[^:]+]]: tensor<4x1xi1>
// CHECK-SAME:    %[[T:[^:]+]]: tensor<8xi64>
// CHECK-SAME:    %[[F:[^:]+]]: tensor<?x1x1xi64>
// CHECK-SAME:    %[[S:[^:]+]]: tensor<i1>
// CHECK-SAME:    %[[D:[^:]+]]: tensor<?x8xbf16>
func.func @where_broadcast(%c: tensor<4x1xi1>, %t: tensor<8xi64>, %f: tensor<?x1x1xi64>, %s: tensor<i1>, %d: tensor<?x8xbf16>)
    -> (tensor<?x4x8xi64>, tensor<?x8xbf16>, tensor<4x8xbf16>) {
  // CHECK: %[[A:.+]] = rlx.where %[[C]], %[[T]], %[[F]] : tensor<4x1xi1>, tensor<8xi64>, tensor<?x1x1xi64>
  %a = rlx.where %c, %t, %f : tensor<4x1xi1>, tensor<8xi64>, tensor<?x1x1xi64>
  // CHECK: %[[B:.+]] = rlx.where %[[S]], %[[D]], %[[D]] : tensor<i1>, tensor<?x8xbf16>
  %b = rlx.where %s, %d, %d : tensor<i1>, tensor<?x8xbf16>
  // CHECK: %[[E:.+]] = rlx.where %[[C]], %[[D]], %[[D]] : tensor<4x1xi1>, tensor<?x8xbf16>
  %e = rlx.where %c, %d, %d : tensor<4x1xi1>, tensor<?x8xbf16>
  // CHECK: return %[[A]], %[[B]], %[[E]]
  return %a, %b, %e : tensor<?x4x8xi64>, tensor<?x8xbf16>, tensor<4x8xbf16>
}

// CHECK-LABEL: func.func @where_element_types
// CHECK-SAME:    %[[M:[^:]+]]: tensor<4xi1>
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
// CHECK-SAME:    %[[I8:[^:]+]]: tensor<4xi8>
// CHECK-SAME:    %[[I16:[^:]+]]: tensor<4xi16>
// CHECK-SAME:    %[[I32:[^:]+]]: tensor<4xi32>
// CHECK-SAME:    %[[UI8:[^:]+]]: tensor<4xui8>
// CHECK-SAME:    %[[UI32:[^:]+]]: tensor<4xui32>
// CHECK-SAME:    %[[C64:[^:]+]]: tensor<4xcomplex<f32>>
func.func @where_element_types(%m: tensor<4xi1>, %f16: tensor<4xf16>, %f64: tensor<4xf64>,
                               %i8: tensor<4xi8>, %i16: tensor<4xi16>, %i32: tensor<4xi32>,
                               %ui8: tensor<4xui8>, %ui32: tensor<4xui32>, %c64: tensor<4xcomplex<f32>>) {
  // CHECK: rlx.where %[[M]], %[[F16]], %[[F16]] : tensor<4xi1>, tensor<4xf16>
  %0 = rlx.where %m, %f16, %f16 : tensor<4xi1>, tensor<4xf16>
  // CHECK: rlx.where %[[M]], %[[F64]], %[[F64]] : tensor<4xi1>, tensor<4xf64>
  %1 = rlx.where %m, %f64, %f64 : tensor<4xi1>, tensor<4xf64>
  // CHECK: rlx.where %[[M]], %[[I8]], %[[I8]] : tensor<4xi1>, tensor<4xi8>
  %2 = rlx.where %m, %i8, %i8 : tensor<4xi1>, tensor<4xi8>
  // CHECK: rlx.where %[[M]], %[[I16]], %[[I16]] : tensor<4xi1>, tensor<4xi16>
  %3 = rlx.where %m, %i16, %i16 : tensor<4xi1>, tensor<4xi16>
  // CHECK: rlx.where %[[M]], %[[I32]], %[[I32]] : tensor<4xi1>, tensor<4xi32>
  %4 = rlx.where %m, %i32, %i32 : tensor<4xi1>, tensor<4xi32>
  // CHECK: rlx.where %[[M]], %[[UI8]], %[[UI8]] : tensor<4xi1>, tensor<4xui8>
  %5 = rlx.where %m, %ui8, %ui8 : tensor<4xi1>, tensor<4xui8>
  // CHECK: rlx.where %[[M]], %[[UI32]], %[[UI32]] : tensor<4xi1>, tensor<4xui32>
  %6 = rlx.where %m, %ui32, %ui32 : tensor<4xi1>, tensor<4xui32>
  // CHECK: rlx.where %[[M]], %[[M]], %[[M]] : tensor<4xi1>, tensor<4xi1>
  %7 = rlx.where %m, %m, %m : tensor<4xi1>, tensor<4xi1>
  // CHECK: rlx.where %[[M]], %[[C64]], %[[C64]] : tensor<4xi1>, tensor<4xcomplex<f32>>
  %8 = rlx.where %m, %c64, %c64 : tensor<4xi1>, tensor<4xcomplex<f32>>
  return
}

//===----------------------------------------------------------------------===//
// rlx.fma
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @fma
// CHECK-SAME:    %[[A:[^:]+]]: tensor<4x8xf32>
// CHECK-SAME:    %[[B:[^:]+]]: tensor<8xf32>
// CHECK-SAME:    %[[C:[^:]+]]: tensor<f32>
// CHECK-SAME:    %[[D:[^:]+]]: tensor<?x1x8xf32>
func.func @fma(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %c: tensor<f32>, %d: tensor<?x1x8xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<?x4x8xf32>) {
  // CHECK: %[[R0:.+]] = rlx.fma %[[A]], %[[A]], %[[A]] : tensor<4x8xf32>{{$}}
  %0 = rlx.fma %a, %a, %a : tensor<4x8xf32>
  // CHECK: %[[R1:.+]] = rlx.fma %[[A]], %[[B]], %[[C]] : tensor<4x8xf32>, tensor<8xf32>, tensor<f32>
  %1 = rlx.fma %a, %b, %c : tensor<4x8xf32>, tensor<8xf32>, tensor<f32>
  // CHECK: %[[R2:.+]] = rlx.fma %[[C]], %[[C]], %[[A]] : tensor<f32>, tensor<f32>, tensor<4x8xf32>
  %2 = rlx.fma %c, %c, %a : tensor<f32>, tensor<f32>, tensor<4x8xf32>
  // CHECK: %[[R3:.+]] = rlx.fma %[[D]], %[[A]], %[[B]] : tensor<?x1x8xf32>, tensor<4x8xf32>, tensor<8xf32>
  %3 = rlx.fma %d, %a, %b : tensor<?x1x8xf32>, tensor<4x8xf32>, tensor<8xf32>
  // CHECK: return %[[R0]], %[[R1]], %[[R2]], %[[R3]]
  return %0, %1, %2, %3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<?x4x8xf32>
}

// CHECK-LABEL: func.func @fma_element_types
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
// CHECK-SAME:    %[[I8:[^:]+]]: tensor<4xi8>
// CHECK-SAME:    %[[I16:[^:]+]]: tensor<4xi16>
// CHECK-SAME:    %[[I32:[^:]+]]: tensor<4xi32>
// CHECK-SAME:    %[[I64:[^:]+]]: tensor<4xi64>
// CHECK-SAME:    %[[UI8:[^:]+]]: tensor<4xui8>
// CHECK-SAME:    %[[UI32:[^:]+]]: tensor<4xui32>
// CHECK-SAME:    %[[C64:[^:]+]]: tensor<4xcomplex<f32>>
func.func @fma_element_types(%f16: tensor<4xf16>, %bf16: tensor<4xbf16>, %f64: tensor<4xf64>,
                             %i8: tensor<4xi8>, %i16: tensor<4xi16>, %i32: tensor<4xi32>,
                             %i64: tensor<4xi64>, %ui8: tensor<4xui8>, %ui32: tensor<4xui32>,
                             %c64: tensor<4xcomplex<f32>>) {
  // CHECK: rlx.fma %[[F16]], %[[F16]], %[[F16]] : tensor<4xf16>
  %0 = rlx.fma %f16, %f16, %f16 : tensor<4xf16>
  // CHECK: rlx.fma %[[BF16]], %[[BF16]], %[[BF16]] : tensor<4xbf16>
  %1 = rlx.fma %bf16, %bf16, %bf16 : tensor<4xbf16>
  // CHECK: rlx.fma %[[F64]], %[[F64]], %[[F64]] : tensor<4xf64>
  %2 = rlx.fma %f64, %f64, %f64 : tensor<4xf64>
  // CHECK: rlx.fma %[[I8]], %[[I8]], %[[I8]] : tensor<4xi8>
  %3 = rlx.fma %i8, %i8, %i8 : tensor<4xi8>
  // CHECK: rlx.fma %[[I16]], %[[I16]], %[[I16]] : tensor<4xi16>
  %4 = rlx.fma %i16, %i16, %i16 : tensor<4xi16>
  // CHECK: rlx.fma %[[I32]], %[[I32]], %[[I32]] : tensor<4xi32>
  %5 = rlx.fma %i32, %i32, %i32 : tensor<4xi32>
  // CHECK: rlx.fma %[[I64]], %[[I64]], %[[I64]] : tensor<4xi64>
  %6 = rlx.fma %i64, %i64, %i64 : tensor<4xi64>
  // CHECK: rlx.fma %[[UI8]], %[[UI8]], %[[UI8]] : tensor<4xui8>
  %7 = rlx.fma %ui8, %ui8, %ui8 : tensor<4xui8>
  // CHECK: rlx.fma %[[UI32]], %[[UI32]], %[[UI32]] : tensor<4xui32>
  %8 = rlx.fma %ui32, %ui32, %ui32 : tensor<4xui32>
  // CHECK: rlx.fma %[[C64]], %[[C64]], %[[C64]] : tensor<4xcomplex<f32>>
  %9 = rlx.fma %c64, %c64, %c64 : tensor<4xcomplex<f32>>
  return
}

//===----------------------------------------------------------------------===//
// rlx.elementwise_region
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @elementwise_region
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>
func.func @elementwise_region(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK:      %[[R:.+]] = rlx.elementwise_region ins(%[[X]] : tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK-NEXT: ^bb0(%[[A:.+]]: f32):
  // CHECK-NEXT:   %[[E:.+]] = math.exp %[[A]] : f32
  // CHECK-NEXT:   rlx.yield %[[E]] : f32
  // CHECK-NEXT: }
  %r = rlx.elementwise_region ins(%x : tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: f32):
    %e = math.exp %a : f32
    rlx.yield %e : f32
  }
  // CHECK: return %[[R]] : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// Several inputs that broadcast together, several results of different
// element types.
// CHECK-LABEL: func.func @elementwise_region_multi
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>
// CHECK-SAME:    %[[B:[^:]+]]: tensor<8xf32>
// CHECK-SAME:    %[[M:[^:]+]]: tensor<4x1xi1>
func.func @elementwise_region_multi(%x: tensor<4x8xf32>, %b: tensor<8xf32>, %m: tensor<4x1xi1>)
    -> (tensor<4x8xf32>, tensor<4x8xi1>) {
  // CHECK:      %[[R:.+]]:2 = rlx.elementwise_region ins(%[[X]], %[[B]], %[[M]] : tensor<4x8xf32>, tensor<8xf32>, tensor<4x1xi1>) -> tensor<4x8xf32>, tensor<4x8xi1> {
  // CHECK-NEXT: ^bb0(%[[A:.+]]: f32, %[[C:.+]]: f32, %[[P:.+]]: i1):
  // CHECK-NEXT:   %[[S:.+]] = arith.addf %[[A]], %[[C]] : f32
  // CHECK-NEXT:   %[[SEL:.+]] = arith.select %[[P]], %[[S]], %[[A]] : f32
  // CHECK-NEXT:   %[[GT:.+]] = arith.cmpf ogt, %[[SEL]], %[[C]] : f32
  // CHECK-NEXT:   rlx.yield %[[SEL]], %[[GT]] : f32, i1
  // CHECK-NEXT: }
  %r:2 = rlx.elementwise_region ins(%x, %b, %m : tensor<4x8xf32>, tensor<8xf32>, tensor<4x1xi1>)
      -> tensor<4x8xf32>, tensor<4x8xi1> {
  ^bb0(%a: f32, %c: f32, %p: i1):
    %s = arith.addf %a, %c : f32
    %sel = arith.select %p, %s, %a : f32
    %gt = arith.cmpf ogt, %sel, %c : f32
    rlx.yield %sel, %gt : f32, i1
  }
  // CHECK: return %[[R]]#0, %[[R]]#1 : tensor<4x8xf32>, tensor<4x8xi1>
  return %r#0, %r#1 : tensor<4x8xf32>, tensor<4x8xi1>
}

// A dynamic input gives a dynamic result; an integer and a float input.
// CHECK-LABEL: func.func @elementwise_region_dynamic
// CHECK-SAME:    %[[X:[^:]+]]: tensor<?x8xi32>
// CHECK-SAME:    %[[S:[^:]+]]: tensor<f16>
func.func @elementwise_region_dynamic(%x: tensor<?x8xi32>, %s: tensor<f16>) -> tensor<?x8xf16> {
  // CHECK:      %[[R:.+]] = rlx.elementwise_region ins(%[[X]], %[[S]] : tensor<?x8xi32>, tensor<f16>) -> tensor<?x8xf16> {
  // CHECK-NEXT: ^bb0(%[[A:.+]]: i32, %[[B:.+]]: f16):
  // CHECK-NEXT:   %[[F:.+]] = arith.sitofp %[[A]] : i32 to f16
  // CHECK-NEXT:   %[[M:.+]] = arith.mulf %[[F]], %[[B]] : f16
  // CHECK-NEXT:   rlx.yield %[[M]] : f16
  %r = rlx.elementwise_region ins(%x, %s : tensor<?x8xi32>, tensor<f16>) -> tensor<?x8xf16> {
  ^bb0(%a: i32, %b: f16):
    %f = arith.sitofp %a : i32 to f16
    %m = arith.mulf %f, %b : f16
    rlx.yield %m : f16
  }
  // CHECK: return %[[R]] : tensor<?x8xf16>
  return %r : tensor<?x8xf16>
}
