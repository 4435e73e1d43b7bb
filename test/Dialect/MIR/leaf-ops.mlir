// RUN: rlx-opt %s | FileCheck %s
// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

//===----------------------------------------------------------------------===//
// rlx.constant
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @constant
func.func @constant() -> tensor<2xf32> {
  // CHECK: %[[C:.+]] = rlx.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %c = rlx.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %c : tensor<2xf32>
}

// Every element type a tensor of the dialect may hold.
// CHECK-LABEL: func.func @constant_element_types
func.func @constant_element_types() {
  // CHECK: rlx.constant dense<[1.500000e+00, -2.000000e+00]> : tensor<2xf16>
  %f16 = rlx.constant dense<[1.5, -2.0]> : tensor<2xf16>
  // CHECK: rlx.constant dense<[1.500000e+00, -2.000000e+00]> : tensor<2xbf16>
  %bf16 = rlx.constant dense<[1.5, -2.0]> : tensor<2xbf16>
  // CHECK: rlx.constant dense<[1.500000e+00, -2.000000e+00]> : tensor<2xf64>
  %f64 = rlx.constant dense<[1.5, -2.0]> : tensor<2xf64>
  // CHECK: rlx.constant dense<[1, -2]> : tensor<2xi8>
  %i8 = rlx.constant dense<[1, -2]> : tensor<2xi8>
  // CHECK: rlx.constant dense<[1, -2]> : tensor<2xi16>
  %i16 = rlx.constant dense<[1, -2]> : tensor<2xi16>
  // CHECK: rlx.constant dense<[1, -2]> : tensor<2xi32>
  %i32 = rlx.constant dense<[1, -2]> : tensor<2xi32>
  // CHECK: rlx.constant dense<[1, -2]> : tensor<2xi64>
  %i64 = rlx.constant dense<[1, -2]> : tensor<2xi64>
  // CHECK: rlx.constant dense<[1, 255]> : tensor<2xui8>
  %ui8 = rlx.constant dense<[1, 255]> : tensor<2xui8>
  // CHECK: rlx.constant dense<[1, 4294967295]> : tensor<2xui32>
  %ui32 = rlx.constant dense<[1, 4294967295]> : tensor<2xui32>
  // CHECK: rlx.constant dense<[true, false]> : tensor<2xi1>
  %i1 = rlx.constant dense<[true, false]> : tensor<2xi1>
  // CHECK: rlx.constant dense<[(1.000000e+00,2.000000e+00), (3.000000e+00,-4.000000e+00)]> : tensor<2xcomplex<f32>>
  %c64 = rlx.constant dense<[(1.0, 2.0), (3.0, -4.0)]> : tensor<2xcomplex<f32>>
  return
}

// Splats, rank 0, rank 2 and an empty tensor; the result type is the
// attribute's type.
// CHECK-LABEL: func.func @constant_shapes
func.func @constant_shapes() -> (tensor<f32>, tensor<4x8xi32>, tensor<2x1xi1>, tensor<0x3xf32>) {
  // CHECK: %[[S:.+]] = rlx.constant dense<0.000000e+00> : tensor<f32>
  %s = rlx.constant dense<0.0> : tensor<f32>
  // CHECK: %[[SPLAT:.+]] = rlx.constant dense<7> : tensor<4x8xi32>
  %splat = rlx.constant dense<7> : tensor<4x8xi32>
  // CHECK: %[[M:.+]] = rlx.constant dense<{{\[}}[true], [false]]> : tensor<2x1xi1>
  %m = rlx.constant dense<[[true], [false]]> : tensor<2x1xi1>
  // CHECK: %[[E:.+]] = rlx.constant dense<1.000000e+00> : tensor<0x3xf32>
  %e = rlx.constant dense<1.0> : tensor<0x3xf32>
  // CHECK: return %[[S]], %[[SPLAT]], %[[M]], %[[E]]
  return %s, %splat, %m, %e : tensor<f32>, tensor<4x8xi32>, tensor<2x1xi1>, tensor<0x3xf32>
}

// A resource blob is an elements attribute too.
// CHECK-LABEL: func.func @constant_resource
func.func @constant_resource() -> tensor<2xf32> {
  // CHECK: %[[C:.+]] = rlx.constant dense_resource<weights> : tensor<2xf32>
  %c = rlx.constant dense_resource<weights> : tensor<2xf32>
  // CHECK: return %[[C]] : tensor<2xf32>
  return %c : tensor<2xf32>
}

//===----------------------------------------------------------------------===//
// rlx.param
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @param
func.func @param() -> (tensor<768x768xf32>, tensor<?x8xbf16>, tensor<f16>) {
  // CHECK: %[[W:.+]] = rlx.param "encoder.layer0.wq" : tensor<768x768xf32>
  %w = rlx.param "encoder.layer0.wq" : tensor<768x768xf32>
  // CHECK: %[[D:.+]] = rlx.param "embed" : tensor<?x8xbf16>
  %d = rlx.param "embed" : tensor<?x8xbf16>
  // CHECK: %[[S:.+]] = rlx.param "scale" : tensor<f16>
  %s = rlx.param "scale" : tensor<f16>
  // CHECK: return %[[W]], %[[D]], %[[S]]
  return %w, %d, %s : tensor<768x768xf32>, tensor<?x8xbf16>, tensor<f16>
}

// CHECK-LABEL: func.func @param_element_types
func.func @param_element_types() {
  // CHECK: rlx.param "f64" : tensor<2xf64>
  %f64 = rlx.param "f64" : tensor<2xf64>
  // CHECK: rlx.param "i8" : tensor<2xi8>
  %i8 = rlx.param "i8" : tensor<2xi8>
  // CHECK: rlx.param "i16" : tensor<2xi16>
  %i16 = rlx.param "i16" : tensor<2xi16>
  // CHECK: rlx.param "i32" : tensor<2xi32>
  %i32 = rlx.param "i32" : tensor<2xi32>
  // CHECK: rlx.param "i64" : tensor<2xi64>
  %i64 = rlx.param "i64" : tensor<2xi64>
  // CHECK: rlx.param "ui8" : tensor<2xui8>
  %ui8 = rlx.param "ui8" : tensor<2xui8>
  // CHECK: rlx.param "ui32" : tensor<2xui32>
  %ui32 = rlx.param "ui32" : tensor<2xui32>
  // CHECK: rlx.param "i1" : tensor<2xi1>
  %i1 = rlx.param "i1" : tensor<2xi1>
  // CHECK: rlx.param "c64" : tensor<2xcomplex<f32>>
  %c64 = rlx.param "c64" : tensor<2xcomplex<f32>>
  return
}

//===----------------------------------------------------------------------===//
// rlx.cast
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @cast_float
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<4x8xf32>, %[[H:[^:]+]]: tensor<4x8xf16>)
func.func @cast_float(%x: tensor<4x8xf32>, %h: tensor<4x8xf16>) {
  // CHECK: rlx.cast %[[X]] : tensor<4x8xf32> -> tensor<4x8xbf16>
  %0 = rlx.cast %x : tensor<4x8xf32> -> tensor<4x8xbf16>
  // CHECK: rlx.cast %[[X]] : tensor<4x8xf32> -> tensor<4x8xf16>
  %1 = rlx.cast %x : tensor<4x8xf32> -> tensor<4x8xf16>
  // CHECK: rlx.cast %[[X]] : tensor<4x8xf32> -> tensor<4x8xf64>
  %2 = rlx.cast %x : tensor<4x8xf32> -> tensor<4x8xf64>
  // CHECK: rlx.cast %[[H]] : tensor<4x8xf16> -> tensor<4x8xf32>
  %3 = rlx.cast %h : tensor<4x8xf16> -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @cast_int
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<4xf32>, %[[I8:[^:]+]]: tensor<4xi8>, %[[U32:[^:]+]]: tensor<4xui32>)
func.func @cast_int(%x: tensor<4xf32>, %i8: tensor<4xi8>, %u32: tensor<4xui32>) {
  // CHECK: rlx.cast %[[X]] : tensor<4xf32> -> tensor<4xi32>
  %0 = rlx.cast %x : tensor<4xf32> -> tensor<4xi32>
  // CHECK: rlx.cast %[[X]] : tensor<4xf32> -> tensor<4xui8>
  %1 = rlx.cast %x : tensor<4xf32> -> tensor<4xui8>
  // CHECK: rlx.cast %[[I8]] : tensor<4xi8> -> tensor<4xi64>
  %2 = rlx.cast %i8 : tensor<4xi8> -> tensor<4xi64>
  // CHECK: rlx.cast %[[I8]] : tensor<4xi8> -> tensor<4xi16>
  %3 = rlx.cast %i8 : tensor<4xi8> -> tensor<4xi16>
  // CHECK: rlx.cast %[[U32]] : tensor<4xui32> -> tensor<4xf64>
  %4 = rlx.cast %u32 : tensor<4xui32> -> tensor<4xf64>
  return
}

// CHECK-LABEL: func.func @cast_bool_complex
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<4xf32>, %[[M:[^:]+]]: tensor<4xi1>)
func.func @cast_bool_complex(%x: tensor<4xf32>, %m: tensor<4xi1>) {
  // CHECK: rlx.cast %[[X]] : tensor<4xf32> -> tensor<4xi1>
  %0 = rlx.cast %x : tensor<4xf32> -> tensor<4xi1>
  // CHECK: rlx.cast %[[M]] : tensor<4xi1> -> tensor<4xf32>
  %1 = rlx.cast %m : tensor<4xi1> -> tensor<4xf32>
  // CHECK: rlx.cast %[[X]] : tensor<4xf32> -> tensor<4xcomplex<f32>>
  %2 = rlx.cast %x : tensor<4xf32> -> tensor<4xcomplex<f32>>
  return
}

// The shape must agree; a dynamic dim is compatible with a static one.
// CHECK-LABEL: func.func @cast_dynamic
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<?x8xf32>)
func.func @cast_dynamic(%x: tensor<?x8xf32>) -> (tensor<?x8xbf16>, tensor<4x8xi32>) {
  // CHECK: %[[A:.+]] = rlx.cast %[[X]] : tensor<?x8xf32> -> tensor<?x8xbf16>
  %a = rlx.cast %x : tensor<?x8xf32> -> tensor<?x8xbf16>
  // CHECK: %[[B:.+]] = rlx.cast %[[X]] : tensor<?x8xf32> -> tensor<4x8xi32>
  %b = rlx.cast %x : tensor<?x8xf32> -> tensor<4x8xi32>
  // CHECK: return %[[A]], %[[B]]
  return %a, %b : tensor<?x8xbf16>, tensor<4x8xi32>
}

//===----------------------------------------------------------------------===//
// rlx.stop_gradient
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @stop_gradient
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<4x8xf32>, %[[D:[^:]+]]: tensor<?x8xf16>)
func.func @stop_gradient(%x: tensor<4x8xf32>, %d: tensor<?x8xf16>) -> (tensor<4x8xf32>, tensor<?x8xf16>) {
  // CHECK: %[[A:.+]] = rlx.stop_gradient %[[X]] : tensor<4x8xf32>
  %a = rlx.stop_gradient %x : tensor<4x8xf32>
  // CHECK: %[[B:.+]] = rlx.stop_gradient %[[D]] : tensor<?x8xf16>
  %b = rlx.stop_gradient %d : tensor<?x8xf16>
  // CHECK: return %[[A]], %[[B]]
  return %a, %b : tensor<4x8xf32>, tensor<?x8xf16>
}

// CHECK-LABEL: func.func @stop_gradient_element_types
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<2xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<2xf64>
// CHECK-SAME:    %[[I8:[^:]+]]: tensor<2xi8>
// CHECK-SAME:    %[[I16:[^:]+]]: tensor<2xi16>
// CHECK-SAME:    %[[I32:[^:]+]]: tensor<2xi32>
// CHECK-SAME:    %[[I64:[^:]+]]: tensor<2xi64>
// CHECK-SAME:    %[[UI8:[^:]+]]: tensor<2xui8>
// CHECK-SAME:    %[[UI32:[^:]+]]: tensor<2xui32>
// CHECK-SAME:    %[[I1:[^:]+]]: tensor<2xi1>
// CHECK-SAME:    %[[C64:[^:]+]]: tensor<2xcomplex<f32>>
func.func @stop_gradient_element_types(
    %bf16: tensor<2xbf16>, %f64: tensor<2xf64>, %i8: tensor<2xi8>,
    %i16: tensor<2xi16>, %i32: tensor<2xi32>, %i64: tensor<2xi64>,
    %ui8: tensor<2xui8>, %ui32: tensor<2xui32>, %i1: tensor<2xi1>,
    %c64: tensor<2xcomplex<f32>>) {
  // CHECK: rlx.stop_gradient %[[BF16]] : tensor<2xbf16>
  %0 = rlx.stop_gradient %bf16 : tensor<2xbf16>
  // CHECK: rlx.stop_gradient %[[F64]] : tensor<2xf64>
  %1 = rlx.stop_gradient %f64 : tensor<2xf64>
  // CHECK: rlx.stop_gradient %[[I8]] : tensor<2xi8>
  %2 = rlx.stop_gradient %i8 : tensor<2xi8>
  // CHECK: rlx.stop_gradient %[[I16]] : tensor<2xi16>
  %3 = rlx.stop_gradient %i16 : tensor<2xi16>
  // CHECK: rlx.stop_gradient %[[I32]] : tensor<2xi32>
  %4 = rlx.stop_gradient %i32 : tensor<2xi32>
  // CHECK: rlx.stop_gradient %[[I64]] : tensor<2xi64>
  %5 = rlx.stop_gradient %i64 : tensor<2xi64>
  // CHECK: rlx.stop_gradient %[[UI8]] : tensor<2xui8>
  %6 = rlx.stop_gradient %ui8 : tensor<2xui8>
  // CHECK: rlx.stop_gradient %[[UI32]] : tensor<2xui32>
  %7 = rlx.stop_gradient %ui32 : tensor<2xui32>
  // CHECK: rlx.stop_gradient %[[I1]] : tensor<2xi1>
  %8 = rlx.stop_gradient %i1 : tensor<2xi1>
  // CHECK: rlx.stop_gradient %[[C64]] : tensor<2xcomplex<f32>>
  %9 = rlx.stop_gradient %c64 : tensor<2xcomplex<f32>>
  return
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040"
    }
  }
#-}
