// RUN: rlx-opt %s | FileCheck %s
// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

//===----------------------------------------------------------------------===//
// rlx.reduce
//===----------------------------------------------------------------------===//

// Every kind; the reduced dim is dropped.
// CHECK-LABEL: func.func @reduce_kinds
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>
func.func @reduce_kinds(%x: tensor<4x8xf32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  // CHECK: %[[SUM:.+]] = rlx.reduce sum %[[X]] axes = [1] : tensor<4x8xf32>
  %sum = rlx.reduce sum %x axes = [1] : tensor<4x8xf32>
  // CHECK: %[[MEAN:.+]] = rlx.reduce mean %[[X]] axes = [1] : tensor<4x8xf32>
  %mean = rlx.reduce mean %x axes = [1] : tensor<4x8xf32>
  // CHECK: %[[MAX:.+]] = rlx.reduce max %[[X]] axes = [1] : tensor<4x8xf32>
  %max = rlx.reduce max %x axes = [1] : tensor<4x8xf32>
  // CHECK: %[[MIN:.+]] = rlx.reduce min %[[X]] axes = [1] : tensor<4x8xf32>
  %min = rlx.reduce min %x axes = [1] : tensor<4x8xf32>
  // CHECK: %[[PROD:.+]] = rlx.reduce prod %[[X]] axes = [1] : tensor<4x8xf32>
  %prod = rlx.reduce prod %x axes = [1] : tensor<4x8xf32>
  // CHECK: return %[[SUM]], %[[MEAN]], %[[MAX]], %[[MIN]], %[[PROD]]
  return %sum, %mean, %max, %min, %prod : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// The kind may be written as a string; it prints as a keyword.
// CHECK-LABEL: func.func @reduce_string_kind
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>
func.func @reduce_string_kind(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  // CHECK: %[[R:.+]] = rlx.reduce sum %[[X]] axes = [0] : tensor<4x8xf32>
  %r = rlx.reduce "sum" %x axes = [0] : tensor<4x8xf32>
  // CHECK: return %[[R]] : tensor<8xf32>
  return %r : tensor<8xf32>
}

// Negative axes count from the end; several axes reduce together; keepdim
// keeps the reduced dims as size 1. keepdim false is the default and is not
// printed.
// CHECK-LABEL: func.func @reduce_axes_keepdim
// CHECK-SAME:    %[[X:[^:]+]]: tensor<2x4x8xf32>
func.func @reduce_axes_keepdim(%x: tensor<2x4x8xf32>)
    -> (tensor<2x4xf32>, tensor<2x4x1xf32>, tensor<4xf32>, tensor<1x4x1xf32>, tensor<f32>, tensor<2x8xf32>) {
  // CHECK: %[[A:.+]] = rlx.reduce sum %[[X]] axes = [-1] : tensor<2x4x8xf32>
  %a = rlx.reduce sum %x axes = [-1] : tensor<2x4x8xf32>
  // CHECK: %[[B:.+]] = rlx.reduce max %[[X]] axes = [-1] keepdim true : tensor<2x4x8xf32>
  %b = rlx.reduce max %x axes = [-1] keepdim true : tensor<2x4x8xf32>
  // CHECK: %[[C:.+]] = rlx.reduce mean %[[X]] axes = [0, -1] : tensor<2x4x8xf32>
  %c = rlx.reduce mean %x axes = [0, -1] : tensor<2x4x8xf32>
  // CHECK: %[[D:.+]] = rlx.reduce min %[[X]] axes = [2, 0] keepdim true : tensor<2x4x8xf32>
  %d = rlx.reduce min %x axes = [2, 0] keepdim true : tensor<2x4x8xf32>
  // CHECK: %[[E:.+]] = rlx.reduce prod %[[X]] axes = [0, 1, 2] : tensor<2x4x8xf32>
  %e = rlx.reduce prod %x axes = [0, 1, 2] : tensor<2x4x8xf32>
  // CHECK: %[[F:.+]] = rlx.reduce sum %[[X]] axes = [-2] : tensor<2x4x8xf32>
  %f = rlx.reduce sum %x axes = [-2] keepdim false : tensor<2x4x8xf32>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]], %[[F]]
  return %a, %b, %c, %d, %e, %f : tensor<2x4xf32>, tensor<2x4x1xf32>, tensor<4xf32>, tensor<1x4x1xf32>, tensor<f32>, tensor<2x8xf32>
}

// Dynamic dims that are kept stay dynamic; a reduced dynamic dim becomes 1
// under keepdim.
// CHECK-LABEL: func.func @reduce_dynamic
// CHECK-SAME:    %[[X:[^:]+]]: tensor<?x8xf32>
func.func @reduce_dynamic(%x: tensor<?x8xf32>) -> (tensor<?xf32>, tensor<8xf32>, tensor<1x8xf32>) {
  // CHECK: %[[A:.+]] = rlx.reduce sum %[[X]] axes = [1] : tensor<?x8xf32>
  %a = rlx.reduce sum %x axes = [1] : tensor<?x8xf32>
  // CHECK: %[[B:.+]] = rlx.reduce max %[[X]] axes = [0] : tensor<?x8xf32>
  %b = rlx.reduce max %x axes = [0] : tensor<?x8xf32>
  // CHECK: %[[C:.+]] = rlx.reduce mean %[[X]] axes = [-2] keepdim true : tensor<?x8xf32>
  %c = rlx.reduce mean %x axes = [-2] keepdim true : tensor<?x8xf32>
  // CHECK: return %[[A]], %[[B]], %[[C]]
  return %a, %b, %c : tensor<?xf32>, tensor<8xf32>, tensor<1x8xf32>
}

// mean takes floats; the other kinds take floats and integers.
// CHECK-LABEL: func.func @reduce_element_types
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
// CHECK-SAME:    %[[I8:[^:]+]]: tensor<4xi8>
// CHECK-SAME:    %[[I16:[^:]+]]: tensor<4xi16>
// CHECK-SAME:    %[[I32:[^:]+]]: tensor<4xi32>
// CHECK-SAME:    %[[I64:[^:]+]]: tensor<4xi64>
// CHECK-SAME:    %[[UI8:[^:]+]]: tensor<4xui8>
// CHECK-SAME:    %[[UI32:[^:]+]]: tensor<4xui32>
func.func @reduce_element_types(%f16: tensor<4xf16>, %bf16: tensor<4xbf16>, %f64: tensor<4xf64>,
                                %i8: tensor<4xi8>, %i16: tensor<4xi16>, %i32: tensor<4xi32>,
                                %i64: tensor<4xi64>, %ui8: tensor<4xui8>, %ui32: tensor<4xui32>)
    -> (tensor<f16>, tensor<bf16>, tensor<f64>, tensor<i8>, tensor<i16>, tensor<i32>,
        tensor<i64>, tensor<ui8>, tensor<ui32>) {
  // CHECK: %[[R0:.+]] = rlx.reduce mean %[[F16]] axes = [0] : tensor<4xf16>
  %0 = rlx.reduce mean %f16 axes = [0] : tensor<4xf16>
  // CHECK: %[[R1:.+]] = rlx.reduce mean %[[BF16]] axes = [0] : tensor<4xbf16>
  %1 = rlx.reduce mean %bf16 axes = [0] : tensor<4xbf16>
  // CHECK: %[[R2:.+]] = rlx.reduce mean %[[F64]] axes = [0] : tensor<4xf64>
  %2 = rlx.reduce mean %f64 axes = [0] : tensor<4xf64>
  // CHECK: %[[R3:.+]] = rlx.reduce sum %[[I8]] axes = [0] : tensor<4xi8>
  %3 = rlx.reduce sum %i8 axes = [0] : tensor<4xi8>
  // CHECK: %[[R4:.+]] = rlx.reduce prod %[[I16]] axes = [0] : tensor<4xi16>
  %4 = rlx.reduce prod %i16 axes = [0] : tensor<4xi16>
  // CHECK: %[[R5:.+]] = rlx.reduce max %[[I32]] axes = [0] : tensor<4xi32>
  %5 = rlx.reduce max %i32 axes = [0] : tensor<4xi32>
  // CHECK: %[[R6:.+]] = rlx.reduce min %[[I64]] axes = [0] : tensor<4xi64>
  %6 = rlx.reduce min %i64 axes = [0] : tensor<4xi64>
  // CHECK: %[[R7:.+]] = rlx.reduce sum %[[UI8]] axes = [0] : tensor<4xui8>
  %7 = rlx.reduce sum %ui8 axes = [0] : tensor<4xui8>
  // CHECK: %[[R8:.+]] = rlx.reduce max %[[UI32]] axes = [0] : tensor<4xui32>
  %8 = rlx.reduce max %ui32 axes = [0] : tensor<4xui32>
  // CHECK: return %[[R0]], %[[R1]], %[[R2]], %[[R3]], %[[R4]], %[[R5]], %[[R6]], %[[R7]], %[[R8]]
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<f16>, tensor<bf16>, tensor<f64>, tensor<i8>, tensor<i16>, tensor<i32>, tensor<i64>, tensor<ui8>, tensor<ui32>
}

//===----------------------------------------------------------------------===//
// rlx.argmax / rlx.argmin
//===----------------------------------------------------------------------===//

// The result is i64 with the axis dropped.
// CHECK-LABEL: func.func @argmax_argmin
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>
// CHECK-SAME:    %[[D:[^:]+]]: tensor<?x8xi32>
func.func @argmax_argmin(%x: tensor<4x8xf32>, %d: tensor<?x8xi32>)
    -> (tensor<4xi64>, tensor<8xi64>, tensor<?xi64>, tensor<8xi64>, tensor<4xi64>) {
  // CHECK: %[[A:.+]] = rlx.argmax %[[X]] axis = 1 : tensor<4x8xf32>
  %a = rlx.argmax %x axis = 1 : tensor<4x8xf32>
  // CHECK: %[[B:.+]] = rlx.argmin %[[X]] axis = 0 : tensor<4x8xf32>
  %b = rlx.argmin %x axis = 0 : tensor<4x8xf32>
  // CHECK: %[[C:.+]] = rlx.argmax %[[D]] axis = -1 : tensor<?x8xi32>
  %c = rlx.argmax %d axis = -1 : tensor<?x8xi32>
  // CHECK: %[[E:.+]] = rlx.argmin %[[D]] axis = -2 : tensor<?x8xi32>
  %e = rlx.argmin %d axis = -2 : tensor<?x8xi32>
  // keepdim = false is the default and is not printed.
  // CHECK: %[[F:.+]] = rlx.argmax %[[X]] axis = -1 : tensor<4x8xf32>
  %f = rlx.argmax %x axis = -1 {keepdim = false} : tensor<4x8xf32>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[E]], %[[F]]
  return %a, %b, %c, %e, %f : tensor<4xi64>, tensor<8xi64>, tensor<?xi64>, tensor<8xi64>, tensor<4xi64>
}

// CHECK-LABEL: func.func @argmax_element_types
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
// CHECK-SAME:    %[[I8:[^:]+]]: tensor<4xi8>
// CHECK-SAME:    %[[I16:[^:]+]]: tensor<4xi16>
// CHECK-SAME:    %[[I64:[^:]+]]: tensor<4xi64>
// CHECK-SAME:    %[[UI8:[^:]+]]: tensor<4xui8>
// CHECK-SAME:    %[[UI32:[^:]+]]: tensor<4xui32>
func.func @argmax_element_types(%f16: tensor<4xf16>, %bf16: tensor<4xbf16>, %f64: tensor<4xf64>,
                                %i8: tensor<4xi8>, %i16: tensor<4xi16>, %i64: tensor<4xi64>,
                                %ui8: tensor<4xui8>, %ui32: tensor<4xui32>) {
  // CHECK: rlx.argmax %[[F16]] axis = 0 : tensor<4xf16>
  %0 = rlx.argmax %f16 axis = 0 : tensor<4xf16>
  // CHECK: rlx.argmin %[[BF16]] axis = 0 : tensor<4xbf16>
  %1 = rlx.argmin %bf16 axis = 0 : tensor<4xbf16>
  // CHECK: rlx.argmax %[[F64]] axis = 0 : tensor<4xf64>
  %2 = rlx.argmax %f64 axis = 0 : tensor<4xf64>
  // CHECK: rlx.argmin %[[I8]] axis = 0 : tensor<4xi8>
  %3 = rlx.argmin %i8 axis = 0 : tensor<4xi8>
  // CHECK: rlx.argmax %[[I16]] axis = 0 : tensor<4xi16>
  %4 = rlx.argmax %i16 axis = 0 : tensor<4xi16>
  // CHECK: rlx.argmin %[[I64]] axis = 0 : tensor<4xi64>
  %5 = rlx.argmin %i64 axis = 0 : tensor<4xi64>
  // CHECK: rlx.argmax %[[UI8]] axis = 0 : tensor<4xui8>
  %6 = rlx.argmax %ui8 axis = 0 : tensor<4xui8>
  // CHECK: rlx.argmin %[[UI32]] axis = 0 : tensor<4xui32>
  %7 = rlx.argmin %ui32 axis = 0 : tensor<4xui32>
  return
}

//===----------------------------------------------------------------------===//
// rlx.softmax / rlx.log_softmax
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @softmax
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>
// CHECK-SAME:    %[[D:[^:]+]]: tensor<?x8xf16>
// CHECK-SAME:    %[[B:[^:]+]]: tensor<2x3xbf16>
// CHECK-SAME:    %[[W:[^:]+]]: tensor<5xf64>
func.func @softmax(%x: tensor<4x8xf32>, %d: tensor<?x8xf16>, %b: tensor<2x3xbf16>, %w: tensor<5xf64>)
    -> (tensor<4x8xf32>, tensor<?x8xf16>, tensor<2x3xbf16>, tensor<5xf64>) {
  // CHECK: %[[A:.+]] = rlx.softmax %[[X]] axis = -1 : tensor<4x8xf32>
  %a = rlx.softmax %x axis = -1 : tensor<4x8xf32>
  // CHECK: %[[C:.+]] = rlx.softmax %[[D]] axis = 0 : tensor<?x8xf16>
  %c = rlx.softmax %d axis = 0 : tensor<?x8xf16>
  // CHECK: %[[E:.+]] = rlx.softmax %[[B]] axis = -2 : tensor<2x3xbf16>
  %e = rlx.softmax %b axis = -2 : tensor<2x3xbf16>
  // CHECK: %[[F:.+]] = rlx.softmax %[[W]] axis = 0 : tensor<5xf64>
  %f = rlx.softmax %w axis = 0 : tensor<5xf64>
  // CHECK: return %[[A]], %[[C]], %[[E]], %[[F]]
  return %a, %c, %e, %f : tensor<4x8xf32>, tensor<?x8xf16>, tensor<2x3xbf16>, tensor<5xf64>
}

// CHECK-LABEL: func.func @log_softmax
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>
// CHECK-SAME:    %[[D:[^:]+]]: tensor<?x8xf16>
// CHECK-SAME:    %[[B:[^:]+]]: tensor<2x3xbf16>
// CHECK-SAME:    %[[W:[^:]+]]: tensor<5xf64>
func.func @log_softmax(%x: tensor<4x8xf32>, %d: tensor<?x8xf16>, %b: tensor<2x3xbf16>, %w: tensor<5xf64>)
    -> (tensor<4x8xf32>, tensor<?x8xf16>, tensor<2x3xbf16>, tensor<5xf64>) {
  // CHECK: %[[A:.+]] = rlx.log_softmax %[[X]] axis = 1 : tensor<4x8xf32>
  %a = rlx.log_softmax %x axis = 1 : tensor<4x8xf32>
  // CHECK: %[[C:.+]] = rlx.log_softmax %[[D]] axis = -1 : tensor<?x8xf16>
  %c = rlx.log_softmax %d axis = -1 : tensor<?x8xf16>
  // CHECK: %[[E:.+]] = rlx.log_softmax %[[B]] axis = -2 : tensor<2x3xbf16>
  %e = rlx.log_softmax %b axis = -2 : tensor<2x3xbf16>
  // CHECK: %[[F:.+]] = rlx.log_softmax %[[W]] axis = -1 : tensor<5xf64>
  %f = rlx.log_softmax %w axis = -1 : tensor<5xf64>
  // CHECK: return %[[A]], %[[C]], %[[E]], %[[F]]
  return %a, %c, %e, %f : tensor<4x8xf32>, tensor<?x8xf16>, tensor<2x3xbf16>, tensor<5xf64>
}

//===----------------------------------------------------------------------===//
// rlx.cumsum
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @cumsum
// CHECK-SAME:    %[[X:[^:]+]]: tensor<16xi64>
// CHECK-SAME:    %[[D:[^:]+]]: tensor<?x8xf32>
func.func @cumsum(%x: tensor<16xi64>, %d: tensor<?x8xf32>) -> (tensor<16xi64>, tensor<?x8xf32>, tensor<?x8xf32>) {
  // CHECK: %[[A:.+]] = rlx.cumsum %[[X]] axis = 0 : tensor<16xi64>
  %a = rlx.cumsum %x axis = 0 : tensor<16xi64>
  // CHECK: %[[B:.+]] = rlx.cumsum %[[D]] axis = -1 : tensor<?x8xf32>
  %b = rlx.cumsum %d axis = -1 : tensor<?x8xf32>
  // CHECK: %[[C:.+]] = rlx.cumsum %[[D]] axis = 0 : tensor<?x8xf32>
  %c = rlx.cumsum %d axis = 0 : tensor<?x8xf32>
  // CHECK: return %[[A]], %[[B]], %[[C]]
  return %a, %b, %c : tensor<16xi64>, tensor<?x8xf32>, tensor<?x8xf32>
}

// CHECK-LABEL: func.func @cumsum_element_types
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
// CHECK-SAME:    %[[I8:[^:]+]]: tensor<4xi8>
// CHECK-SAME:    %[[I16:[^:]+]]: tensor<4xi16>
// CHECK-SAME:    %[[I32:[^:]+]]: tensor<4xi32>
// CHECK-SAME:    %[[UI8:[^:]+]]: tensor<4xui8>
// CHECK-SAME:    %[[UI32:[^:]+]]: tensor<4xui32>
func.func @cumsum_element_types(%f16: tensor<4xf16>, %bf16: tensor<4xbf16>, %f64: tensor<4xf64>,
                                %i8: tensor<4xi8>, %i16: tensor<4xi16>, %i32: tensor<4xi32>,
                                %ui8: tensor<4xui8>, %ui32: tensor<4xui32>) {
  // CHECK: rlx.cumsum %[[F16]] axis = 0 : tensor<4xf16>
  %0 = rlx.cumsum %f16 axis = 0 : tensor<4xf16>
  // CHECK: rlx.cumsum %[[BF16]] axis = 0 : tensor<4xbf16>
  %1 = rlx.cumsum %bf16 axis = 0 : tensor<4xbf16>
  // CHECK: rlx.cumsum %[[F64]] axis = 0 : tensor<4xf64>
  %2 = rlx.cumsum %f64 axis = 0 : tensor<4xf64>
  // CHECK: rlx.cumsum %[[I8]] axis = 0 : tensor<4xi8>
  %3 = rlx.cumsum %i8 axis = 0 : tensor<4xi8>
  // CHECK: rlx.cumsum %[[I16]] axis = 0 : tensor<4xi16>
  %4 = rlx.cumsum %i16 axis = 0 : tensor<4xi16>
  // CHECK: rlx.cumsum %[[I32]] axis = 0 : tensor<4xi32>
  %5 = rlx.cumsum %i32 axis = 0 : tensor<4xi32>
  // CHECK: rlx.cumsum %[[UI8]] axis = 0 : tensor<4xui8>
  %6 = rlx.cumsum %ui8 axis = 0 : tensor<4xui8>
  // CHECK: rlx.cumsum %[[UI32]] axis = 0 : tensor<4xui32>
  %7 = rlx.cumsum %ui32 axis = 0 : tensor<4xui32>
  return
}

//===----------------------------------------------------------------------===//
// rlx.topk
//===----------------------------------------------------------------------===//

// The axis becomes size k in both results; the indices are i64.
// CHECK-LABEL: func.func @topk
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>
func.func @topk(%x: tensor<4x8xf32>)
    -> (tensor<4x2xf32>, tensor<4x2xi64>, tensor<1x8xf32>, tensor<1x8xi64>, tensor<4x8xf32>, tensor<4x8xi64>) {
  // CHECK: %[[V0:[^,]+]], %[[I0:.+]] = rlx.topk %[[X]] k = 2 axis = -1 : tensor<4x8xf32>
  %v0, %i0 = rlx.topk %x k = 2 axis = -1 : tensor<4x8xf32>
  // CHECK: %[[V1:[^,]+]], %[[I1:.+]] = rlx.topk %[[X]] k = 1 axis = 0 : tensor<4x8xf32>
  %v1, %i1 = rlx.topk %x k = 1 axis = 0 : tensor<4x8xf32>
  // k may be the whole axis.
  // CHECK: %[[V2:[^,]+]], %[[I2:.+]] = rlx.topk %[[X]] k = 8 axis = 1 : tensor<4x8xf32>
  %v2, %i2 = rlx.topk %x k = 8 axis = 1 : tensor<4x8xf32>
  // CHECK: return %[[V0]], %[[I0]], %[[V1]], %[[I1]], %[[V2]], %[[I2]]
  return %v0, %i0, %v1, %i1, %v2, %i2 : tensor<4x2xf32>, tensor<4x2xi64>, tensor<1x8xf32>, tensor<1x8xi64>, tensor<4x8xf32>, tensor<4x8xi64>
}

// On a dynamic axis any k >= 1 is accepted and the axis becomes static.
// CHECK-LABEL: func.func @topk_dynamic
// CHECK-SAME:    %[[X:[^:]+]]: tensor<?x8xi32>
// CHECK-SAME:    %[[U:[^:]+]]: tensor<3x?xui8>
func.func @topk_dynamic(%x: tensor<?x8xi32>, %u: tensor<3x?xui8>)
    -> (tensor<100x8xi32>, tensor<100x8xi64>, tensor<?x3xi32>, tensor<?x3xi64>, tensor<3x5xui8>, tensor<3x5xi64>) {
  // CHECK: %[[V0:[^,]+]], %[[I0:.+]] = rlx.topk %[[X]] k = 100 axis = 0 : tensor<?x8xi32>
  %v0, %i0 = rlx.topk %x k = 100 axis = 0 : tensor<?x8xi32>
  // CHECK: %[[V1:[^,]+]], %[[I1:.+]] = rlx.topk %[[X]] k = 3 axis = 1 : tensor<?x8xi32>
  %v1, %i1 = rlx.topk %x k = 3 axis = 1 : tensor<?x8xi32>
  // CHECK: %[[V2:[^,]+]], %[[I2:.+]] = rlx.topk %[[U]] k = 5 axis = -1 : tensor<3x?xui8>
  %v2, %i2 = rlx.topk %u k = 5 axis = -1 : tensor<3x?xui8>
  // CHECK: return %[[V0]], %[[I0]], %[[V1]], %[[I1]], %[[V2]], %[[I2]]
  return %v0, %i0, %v1, %i1, %v2, %i2 : tensor<100x8xi32>, tensor<100x8xi64>, tensor<?x3xi32>, tensor<?x3xi64>, tensor<3x5xui8>, tensor<3x5xi64>
}

// CHECK-LABEL: func.func @topk_element_types
// CHECK-SAME:    %[[F16:[^:]+]]: tensor<4xf16>
// CHECK-SAME:    %[[BF16:[^:]+]]: tensor<4xbf16>
// CHECK-SAME:    %[[F64:[^:]+]]: tensor<4xf64>
// CHECK-SAME:    %[[I8:[^:]+]]: tensor<4xi8>
// CHECK-SAME:    %[[I16:[^:]+]]: tensor<4xi16>
// CHECK-SAME:    %[[I64:[^:]+]]: tensor<4xi64>
// CHECK-SAME:    %[[UI32:[^:]+]]: tensor<4xui32>
func.func @topk_element_types(%f16: tensor<4xf16>, %bf16: tensor<4xbf16>, %f64: tensor<4xf64>,
                              %i8: tensor<4xi8>, %i16: tensor<4xi16>, %i64: tensor<4xi64>,
                              %ui32: tensor<4xui32>) {
  // CHECK: rlx.topk %[[F16]] k = 2 axis = 0 : tensor<4xf16>
  %v0, %i0 = rlx.topk %f16 k = 2 axis = 0 : tensor<4xf16>
  // CHECK: rlx.topk %[[BF16]] k = 2 axis = 0 : tensor<4xbf16>
  %v1, %i1 = rlx.topk %bf16 k = 2 axis = 0 : tensor<4xbf16>
  // CHECK: rlx.topk %[[F64]] k = 2 axis = 0 : tensor<4xf64>
  %v2, %i2 = rlx.topk %f64 k = 2 axis = 0 : tensor<4xf64>
  // CHECK: rlx.topk %[[I8]] k = 2 axis = 0 : tensor<4xi8>
  %v3, %i3 = rlx.topk %i8 k = 2 axis = 0 : tensor<4xi8>
  // CHECK: rlx.topk %[[I16]] k = 2 axis = 0 : tensor<4xi16>
  %v4, %i4 = rlx.topk %i16 k = 2 axis = 0 : tensor<4xi16>
  // CHECK: rlx.topk %[[I64]] k = 2 axis = 0 : tensor<4xi64>
  %v5, %i5 = rlx.topk %i64 k = 2 axis = 0 : tensor<4xi64>
  // CHECK: rlx.topk %[[UI32]] k = 2 axis = 0 : tensor<4xui32>
  %v6, %i6 = rlx.topk %ui32 k = 2 axis = 0 : tensor<4xui32>
  return
}

//===----------------------------------------------------------------------===//
// rlx.softmax_cross_entropy
//===----------------------------------------------------------------------===//

// The loss is a rank-0 tensor of the logits' element type.
// CHECK-LABEL: func.func @softmax_cross_entropy
// CHECK-SAME:    %[[L:[^:]+]]: tensor<8x10xf32>
// CHECK-SAME:    %[[Y:[^:]+]]: tensor<8xi64>
// CHECK-SAME:    %[[LD:[^:]+]]: tensor<?x10xbf16>
// CHECK-SAME:    %[[YD:[^:]+]]: tensor<?xi64>
// CHECK-SAME:    %[[LH:[^:]+]]: tensor<8x?xf16>
// CHECK-SAME:    %[[LW:[^:]+]]: tensor<?x3xf64>
func.func @softmax_cross_entropy(%l: tensor<8x10xf32>, %y: tensor<8xi64>, %ld: tensor<?x10xbf16>,
                                 %yd: tensor<?xi64>, %lh: tensor<8x?xf16>, %lw: tensor<?x3xf64>)
    -> (tensor<f32>, tensor<bf16>, tensor<f16>, tensor<f64>) {
  // CHECK: %[[A:.+]] = rlx.softmax_cross_entropy %[[L]], %[[Y]] : tensor<8x10xf32>, tensor<8xi64>
  %a = rlx.softmax_cross_entropy %l, %y : tensor<8x10xf32>, tensor<8xi64>
  // CHECK: %[[B:.+]] = rlx.softmax_cross_entropy %[[LD]], %[[Y]] : tensor<?x10xbf16>, tensor<8xi64>
  %b = rlx.softmax_cross_entropy %ld, %y : tensor<?x10xbf16>, tensor<8xi64>
  // CHECK: %[[C:.+]] = rlx.softmax_cross_entropy %[[LH]], %[[YD]] : tensor<8x?xf16>, tensor<?xi64>
  %c = rlx.softmax_cross_entropy %lh, %yd : tensor<8x?xf16>, tensor<?xi64>
  // CHECK: %[[D:.+]] = rlx.softmax_cross_entropy %[[LW]], %[[YD]] : tensor<?x3xf64>, tensor<?xi64>
  %d = rlx.softmax_cross_entropy %lw, %yd : tensor<?x3xf64>, tensor<?xi64>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]]
  return %a, %b, %c, %d : tensor<f32>, tensor<bf16>, tensor<f16>, tensor<f64>
}

// keepdim is spelled as a keyword so that the parser's type inference sees
// it; the printed form parses back to the same types.
// CHECK-LABEL: func.func @keepdim_keyword
func.func @keepdim_keyword(%x: tensor<4x8xf32>) -> (tensor<4x1xf32>, tensor<4x1xi64>, tensor<1x8xi64>) {
  // CHECK: rlx.reduce max %{{.+}} axes = [-1] keepdim true : tensor<4x8xf32>
  %m = rlx.reduce max %x axes = [-1] keepdim true : tensor<4x8xf32>
  // CHECK: rlx.argmax %{{.+}} axis = 1 keepdim true : tensor<4x8xf32>
  %a = rlx.argmax %x axis = 1 keepdim true : tensor<4x8xf32>
  // CHECK: rlx.argmin %{{.+}} axis = 0 keepdim true : tensor<4x8xf32>
  %b = rlx.argmin %x axis = 0 keepdim true : tensor<4x8xf32>
  return %m, %a, %b : tensor<4x1xf32>, tensor<4x1xi64>, tensor<1x8xi64>
}
