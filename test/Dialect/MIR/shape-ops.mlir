// RUN: rlx-opt %s | FileCheck %s
// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round trips of the shape and data-movement ops. Functions return their
// results so that the `return` line checks the (inferred) result types.

//===----------------------------------------------------------------------===//
// rlx.reshape
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reshape
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<2x3x4xf32>)
func.func @reshape(%x: tensor<2x3x4xf32>) -> (tensor<6x4xf32>, tensor<24xf32>, tensor<1x24x1xf32>, tensor<4x3x2xf32>) {
  // CHECK: %[[A:.+]] = rlx.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<6x4xf32>
  %a = rlx.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
  // CHECK: %[[B:.+]] = rlx.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<24xf32>
  %b = rlx.reshape %x : tensor<2x3x4xf32> -> tensor<24xf32>
  // CHECK: %[[C:.+]] = rlx.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<1x24x1xf32>
  %c = rlx.reshape %x : tensor<2x3x4xf32> -> tensor<1x24x1xf32>
  // CHECK: %[[D:.+]] = rlx.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
  %d = rlx.reshape %x : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]]
  return %a, %b, %c, %d : tensor<6x4xf32>, tensor<24xf32>, tensor<1x24x1xf32>, tensor<4x3x2xf32>
}

// Rank 0 to and from rank 1; empty tensors; the same type.
// CHECK-LABEL: func.func @reshape_scalar_and_empty
// CHECK-SAME:    (%[[S:[^:]+]]: tensor<f32>, %[[E:[^:]+]]: tensor<0x4xf32>)
func.func @reshape_scalar_and_empty(%s: tensor<f32>, %e: tensor<0x4xf32>)
    -> (tensor<1xf32>, tensor<f32>, tensor<2x0xf32>, tensor<0x4xf32>) {
  // CHECK: %[[A:.+]] = rlx.reshape %[[S]] : tensor<f32> -> tensor<1xf32>
  %a = rlx.reshape %s : tensor<f32> -> tensor<1xf32>
  // CHECK: %[[B:.+]] = rlx.reshape %[[A]] : tensor<1xf32> -> tensor<f32>
  %b = rlx.reshape %a : tensor<1xf32> -> tensor<f32>
  // CHECK: %[[C:.+]] = rlx.reshape %[[E]] : tensor<0x4xf32> -> tensor<2x0xf32>
  %c = rlx.reshape %e : tensor<0x4xf32> -> tensor<2x0xf32>
  // CHECK: %[[D:.+]] = rlx.reshape %[[E]] : tensor<0x4xf32> -> tensor<0x4xf32>
  %d = rlx.reshape %e : tensor<0x4xf32> -> tensor<0x4xf32>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]] : tensor<1xf32>, tensor<f32>, tensor<2x0xf32>, tensor<0x4xf32>
  return %a, %b, %c, %d : tensor<1xf32>, tensor<f32>, tensor<2x0xf32>, tensor<0x4xf32>
}

// A dynamic dim on either side drops the element-count check.
// CHECK-LABEL: func.func @reshape_dynamic
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<?x4xf32>, %[[Y:[^:]+]]: tensor<8x4xf32>)
func.func @reshape_dynamic(%x: tensor<?x4xf32>, %y: tensor<8x4xf32>)
    -> (tensor<?xf32>, tensor<2x?x2xf32>, tensor<?x8xf32>, tensor<3x5xf32>) {
  // CHECK: %[[A:.+]] = rlx.reshape %[[X]] : tensor<?x4xf32> -> tensor<?xf32>
  %a = rlx.reshape %x : tensor<?x4xf32> -> tensor<?xf32>
  // CHECK: %[[B:.+]] = rlx.reshape %[[X]] : tensor<?x4xf32> -> tensor<2x?x2xf32>
  %b = rlx.reshape %x : tensor<?x4xf32> -> tensor<2x?x2xf32>
  // CHECK: %[[C:.+]] = rlx.reshape %[[Y]] : tensor<8x4xf32> -> tensor<?x8xf32>
  %c = rlx.reshape %y : tensor<8x4xf32> -> tensor<?x8xf32>
  // CHECK: %[[D:.+]] = rlx.reshape %[[X]] : tensor<?x4xf32> -> tensor<3x5xf32>
  %d = rlx.reshape %x : tensor<?x4xf32> -> tensor<3x5xf32>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]] : tensor<?xf32>, tensor<2x?x2xf32>, tensor<?x8xf32>, tensor<3x5xf32>
  return %a, %b, %c, %d : tensor<?xf32>, tensor<2x?x2xf32>, tensor<?x8xf32>, tensor<3x5xf32>
}

// Any element type of the dialect.
// CHECK-LABEL: func.func @reshape_element_types
func.func @reshape_element_types(%f16: tensor<2x2xf16>, %bf16: tensor<2x2xbf16>, %f64: tensor<2x2xf64>,
                                 %i8: tensor<2x2xi8>, %ui8: tensor<2x2xui8>, %i64: tensor<2x2xi64>,
                                 %i1: tensor<2x2xi1>, %c64: tensor<2x2xcomplex<f32>>) {
  // CHECK: rlx.reshape %{{.+}} : tensor<2x2xf16> -> tensor<4xf16>
  %0 = rlx.reshape %f16 : tensor<2x2xf16> -> tensor<4xf16>
  // CHECK: rlx.reshape %{{.+}} : tensor<2x2xbf16> -> tensor<4xbf16>
  %1 = rlx.reshape %bf16 : tensor<2x2xbf16> -> tensor<4xbf16>
  // CHECK: rlx.reshape %{{.+}} : tensor<2x2xf64> -> tensor<4xf64>
  %2 = rlx.reshape %f64 : tensor<2x2xf64> -> tensor<4xf64>
  // CHECK: rlx.reshape %{{.+}} : tensor<2x2xi8> -> tensor<4xi8>
  %3 = rlx.reshape %i8 : tensor<2x2xi8> -> tensor<4xi8>
  // CHECK: rlx.reshape %{{.+}} : tensor<2x2xui8> -> tensor<4xui8>
  %4 = rlx.reshape %ui8 : tensor<2x2xui8> -> tensor<4xui8>
  // CHECK: rlx.reshape %{{.+}} : tensor<2x2xi64> -> tensor<4xi64>
  %5 = rlx.reshape %i64 : tensor<2x2xi64> -> tensor<4xi64>
  // CHECK: rlx.reshape %{{.+}} : tensor<2x2xi1> -> tensor<4xi1>
  %6 = rlx.reshape %i1 : tensor<2x2xi1> -> tensor<4xi1>
  // CHECK: rlx.reshape %{{.+}} : tensor<2x2xcomplex<f32>> -> tensor<4xcomplex<f32>>
  %7 = rlx.reshape %c64 : tensor<2x2xcomplex<f32>> -> tensor<4xcomplex<f32>>
  return
}

//===----------------------------------------------------------------------===//
// rlx.transpose
//===----------------------------------------------------------------------===//

// Result dim i is input dim permutation[i]; the identity is valid.
// CHECK-LABEL: func.func @transpose
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<2x3x4xf32>)
func.func @transpose(%x: tensor<2x3x4xf32>) -> (tensor<2x4x3xf32>, tensor<4x2x3xf32>, tensor<3x4x2xf32>, tensor<2x3x4xf32>) {
  // CHECK: %[[A:.+]] = rlx.transpose %[[X]] [0, 2, 1] : tensor<2x3x4xf32>
  %a = rlx.transpose %x [0, 2, 1] : tensor<2x3x4xf32>
  // CHECK: %[[B:.+]] = rlx.transpose %[[X]] [2, 0, 1] : tensor<2x3x4xf32>
  %b = rlx.transpose %x [2, 0, 1] : tensor<2x3x4xf32>
  // CHECK: %[[C:.+]] = rlx.transpose %[[X]] [1, 2, 0] : tensor<2x3x4xf32>
  %c = rlx.transpose %x [1, 2, 0] : tensor<2x3x4xf32>
  // CHECK: %[[D:.+]] = rlx.transpose %[[X]] [0, 1, 2] : tensor<2x3x4xf32>
  %d = rlx.transpose %x [0, 1, 2] : tensor<2x3x4xf32>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]] : tensor<2x4x3xf32>, tensor<4x2x3xf32>, tensor<3x4x2xf32>, tensor<2x3x4xf32>
  return %a, %b, %c, %d : tensor<2x4x3xf32>, tensor<4x2x3xf32>, tensor<3x4x2xf32>, tensor<2x3x4xf32>
}

// Rank 0 (the empty permutation), rank 1, dynamic dims, other element types.
// CHECK-LABEL: func.func @transpose_shapes_and_types
// CHECK-SAME:    (%[[S:[^:]+]]: tensor<f32>, %[[V:[^:]+]]: tensor<5xi64>, %[[D:[^:]+]]: tensor<?x3x?x2xbf16>, %[[B:[^:]+]]: tensor<2x3xi1>, %[[C:[^:]+]]: tensor<2x3xcomplex<f32>>)
func.func @transpose_shapes_and_types(%s: tensor<f32>, %v: tensor<5xi64>, %d: tensor<?x3x?x2xbf16>,
                                      %b: tensor<2x3xi1>, %c: tensor<2x3xcomplex<f32>>)
    -> (tensor<f32>, tensor<5xi64>, tensor<2x?x3x?xbf16>, tensor<3x2xi1>, tensor<3x2xcomplex<f32>>) {
  // CHECK: %[[A0:.+]] = rlx.transpose %[[S]] [] : tensor<f32>
  %0 = rlx.transpose %s [] : tensor<f32>
  // CHECK: %[[A1:.+]] = rlx.transpose %[[V]] [0] : tensor<5xi64>
  %1 = rlx.transpose %v [0] : tensor<5xi64>
  // CHECK: %[[A2:.+]] = rlx.transpose %[[D]] [3, 2, 1, 0] : tensor<?x3x?x2xbf16>
  %2 = rlx.transpose %d [3, 2, 1, 0] : tensor<?x3x?x2xbf16>
  // CHECK: %[[A3:.+]] = rlx.transpose %[[B]] [1, 0] : tensor<2x3xi1>
  %3 = rlx.transpose %b [1, 0] : tensor<2x3xi1>
  // CHECK: %[[A4:.+]] = rlx.transpose %[[C]] [1, 0] : tensor<2x3xcomplex<f32>>
  %4 = rlx.transpose %c [1, 0] : tensor<2x3xcomplex<f32>>
  // CHECK: return %[[A0]], %[[A1]], %[[A2]], %[[A3]], %[[A4]] : tensor<f32>, tensor<5xi64>, tensor<2x?x3x?xbf16>, tensor<3x2xi1>, tensor<3x2xcomplex<f32>>
  return %0, %1, %2, %3, %4 : tensor<f32>, tensor<5xi64>, tensor<2x?x3x?xbf16>, tensor<3x2xi1>, tensor<3x2xcomplex<f32>>
}

//===----------------------------------------------------------------------===//
// rlx.narrow
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @narrow
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<8x128x2304xf32>)
func.func @narrow(%x: tensor<8x128x2304xf32>)
    -> (tensor<8x128x768xf32>, tensor<8x128x768xf32>, tensor<1x128x2304xf32>, tensor<8x128x2304xf32>, tensor<8x0x2304xf32>) {
  // CHECK: %[[Q:.+]] = rlx.narrow %[[X]] axis = 2 start = 0 length = 768 : tensor<8x128x2304xf32>
  %q = rlx.narrow %x axis = 2 start = 0 length = 768 : tensor<8x128x2304xf32>
  // The slice may end exactly at the end of the axis.
  // CHECK: %[[V:.+]] = rlx.narrow %[[X]] axis = 2 start = 1536 length = 768 : tensor<8x128x2304xf32>
  %v = rlx.narrow %x axis = 2 start = 1536 length = 768 : tensor<8x128x2304xf32>
  // A negative axis counts from the end.
  // CHECK: %[[B:.+]] = rlx.narrow %[[X]] axis = -3 start = 7 length = 1 : tensor<8x128x2304xf32>
  %b = rlx.narrow %x axis = -3 start = 7 length = 1 : tensor<8x128x2304xf32>
  // The whole axis, and an empty slice.
  // CHECK: %[[W:.+]] = rlx.narrow %[[X]] axis = 0 start = 0 length = 8 : tensor<8x128x2304xf32>
  %w = rlx.narrow %x axis = 0 start = 0 length = 8 : tensor<8x128x2304xf32>
  // CHECK: %[[E:.+]] = rlx.narrow %[[X]] axis = 1 start = 128 length = 0 : tensor<8x128x2304xf32>
  %e = rlx.narrow %x axis = 1 start = 128 length = 0 : tensor<8x128x2304xf32>
  // CHECK: return %[[Q]], %[[V]], %[[B]], %[[W]], %[[E]] : tensor<8x128x768xf32>, tensor<8x128x768xf32>, tensor<1x128x2304xf32>, tensor<8x128x2304xf32>, tensor<8x0x2304xf32>
  return %q, %v, %b, %w, %e : tensor<8x128x768xf32>, tensor<8x128x768xf32>, tensor<1x128x2304xf32>, tensor<8x128x2304xf32>, tensor<8x0x2304xf32>
}

// A dynamic axis takes any slice; the result dim is the length.
// CHECK-LABEL: func.func @narrow_dynamic
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<?x?xi32>, %[[C:[^:]+]]: tensor<4x6xcomplex<f32>>)
func.func @narrow_dynamic(%x: tensor<?x?xi32>, %c: tensor<4x6xcomplex<f32>>)
    -> (tensor<?x100xi32>, tensor<4x2xcomplex<f32>>) {
  // CHECK: %[[A:.+]] = rlx.narrow %[[X]] axis = -1 start = 1000 length = 100 : tensor<?x?xi32>
  %a = rlx.narrow %x axis = -1 start = 1000 length = 100 : tensor<?x?xi32>
  // CHECK: %[[B:.+]] = rlx.narrow %[[C]] axis = 1 start = 2 length = 2 : tensor<4x6xcomplex<f32>>
  %b = rlx.narrow %c axis = 1 start = 2 length = 2 : tensor<4x6xcomplex<f32>>
  // CHECK: return %[[A]], %[[B]] : tensor<?x100xi32>, tensor<4x2xcomplex<f32>>
  return %a, %b : tensor<?x100xi32>, tensor<4x2xcomplex<f32>>
}

//===----------------------------------------------------------------------===//
// rlx.concat
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @concat
// CHECK-SAME:    (%[[A:[^:]+]]: tensor<2x3xf32>, %[[B:[^:]+]]: tensor<2x5xf32>, %[[C:[^:]+]]: tensor<4x3xf32>)
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>, %c: tensor<4x3xf32>)
    -> (tensor<2x8xf32>, tensor<6x3xf32>, tensor<2x11xf32>, tensor<2x3xf32>, tensor<6x3xf32>) {
  // CHECK: %[[X:.+]] = rlx.concat %[[A]], %[[B]] axis = 1 : tensor<2x3xf32>, tensor<2x5xf32>
  %x = rlx.concat %a, %b axis = 1 : tensor<2x3xf32>, tensor<2x5xf32>
  // CHECK: %[[Y:.+]] = rlx.concat %[[A]], %[[C]] axis = 0 : tensor<2x3xf32>, tensor<4x3xf32>
  %y = rlx.concat %a, %c axis = 0 : tensor<2x3xf32>, tensor<4x3xf32>
  // Three inputs, a negative axis.
  // CHECK: %[[Z:.+]] = rlx.concat %[[A]], %[[B]], %[[A]] axis = -1 : tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x3xf32>
  %z = rlx.concat %a, %b, %a axis = -1 : tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x3xf32>
  // A single input.
  // CHECK: %[[ONE:.+]] = rlx.concat %[[A]] axis = 0 : tensor<2x3xf32>
  %one = rlx.concat %a axis = 0 : tensor<2x3xf32>
  // CHECK: %[[N:.+]] = rlx.concat %[[A]], %[[C]] axis = -2 : tensor<2x3xf32>, tensor<4x3xf32>
  %n = rlx.concat %a, %c axis = -2 : tensor<2x3xf32>, tensor<4x3xf32>
  // CHECK: return %[[X]], %[[Y]], %[[Z]], %[[ONE]], %[[N]] : tensor<2x8xf32>, tensor<6x3xf32>, tensor<2x11xf32>, tensor<2x3xf32>, tensor<6x3xf32>
  return %x, %y, %z, %one, %n : tensor<2x8xf32>, tensor<6x3xf32>, tensor<2x11xf32>, tensor<2x3xf32>, tensor<6x3xf32>
}

// A dynamic dim along the axis makes the result dim dynamic; off the axis a
// static dim refines a dynamic one.
// CHECK-LABEL: func.func @concat_dynamic
// CHECK-SAME:    (%[[A:[^:]+]]: tensor<?x3xi64>, %[[B:[^:]+]]: tensor<2x?xi64>, %[[C:[^:]+]]: tensor<2x3xi64>)
func.func @concat_dynamic(%a: tensor<?x3xi64>, %b: tensor<2x?xi64>, %c: tensor<2x3xi64>)
    -> (tensor<?x3xi64>, tensor<2x?xi64>, tensor<2x6xi64>) {
  // CHECK: %[[X:.+]] = rlx.concat %[[A]], %[[C]] axis = 0 : tensor<?x3xi64>, tensor<2x3xi64>
  %x = rlx.concat %a, %c axis = 0 : tensor<?x3xi64>, tensor<2x3xi64>
  // CHECK: %[[Y:.+]] = rlx.concat %[[C]], %[[B]] axis = 1 : tensor<2x3xi64>, tensor<2x?xi64>
  %y = rlx.concat %c, %b axis = 1 : tensor<2x3xi64>, tensor<2x?xi64>
  // CHECK: %[[Z:.+]] = rlx.concat %[[A]], %[[C]] axis = 1 : tensor<?x3xi64>, tensor<2x3xi64>
  %z = rlx.concat %a, %c axis = 1 : tensor<?x3xi64>, tensor<2x3xi64>
  // CHECK: return %[[X]], %[[Y]], %[[Z]] : tensor<?x3xi64>, tensor<2x?xi64>, tensor<2x6xi64>
  return %x, %y, %z : tensor<?x3xi64>, tensor<2x?xi64>, tensor<2x6xi64>
}

// CHECK-LABEL: func.func @concat_element_types
func.func @concat_element_types(%h: tensor<2xf16>, %b: tensor<2xi1>, %c: tensor<2xcomplex<f32>>, %u: tensor<2xui8>)
    -> (tensor<4xf16>, tensor<4xi1>, tensor<4xcomplex<f32>>, tensor<4xui8>) {
  // CHECK: %[[A:.+]] = rlx.concat %{{.+}}, %{{.+}} axis = 0 : tensor<2xf16>, tensor<2xf16>
  %0 = rlx.concat %h, %h axis = 0 : tensor<2xf16>, tensor<2xf16>
  // CHECK: %[[B:.+]] = rlx.concat %{{.+}}, %{{.+}} axis = 0 : tensor<2xi1>, tensor<2xi1>
  %1 = rlx.concat %b, %b axis = 0 : tensor<2xi1>, tensor<2xi1>
  // CHECK: %[[C:.+]] = rlx.concat %{{.+}}, %{{.+}} axis = 0 : tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>
  %2 = rlx.concat %c, %c axis = 0 : tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>
  // CHECK: %[[D:.+]] = rlx.concat %{{.+}}, %{{.+}} axis = 0 : tensor<2xui8>, tensor<2xui8>
  %3 = rlx.concat %u, %u axis = 0 : tensor<2xui8>, tensor<2xui8>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]] : tensor<4xf16>, tensor<4xi1>, tensor<4xcomplex<f32>>, tensor<4xui8>
  return %0, %1, %2, %3 : tensor<4xf16>, tensor<4xi1>, tensor<4xcomplex<f32>>, tensor<4xui8>
}

//===----------------------------------------------------------------------===//
// rlx.expand
//===----------------------------------------------------------------------===//

// Dims align at the end; a 1 expands to any size; leading dims are added.
// CHECK-LABEL: func.func @expand
// CHECK-SAME:    (%[[B:[^:]+]]: tensor<768xf32>, %[[C:[^:]+]]: tensor<4x1xf32>, %[[S:[^:]+]]: tensor<f32>)
func.func @expand(%b: tensor<768xf32>, %c: tensor<4x1xf32>, %s: tensor<f32>)
    -> (tensor<8x128x768xf32>, tensor<4x5xf32>, tensor<3x4x5xf32>, tensor<2x2xf32>, tensor<768xf32>) {
  // CHECK: %[[A0:.+]] = rlx.expand %[[B]] : tensor<768xf32> -> tensor<8x128x768xf32>
  %0 = rlx.expand %b : tensor<768xf32> -> tensor<8x128x768xf32>
  // CHECK: %[[A1:.+]] = rlx.expand %[[C]] : tensor<4x1xf32> -> tensor<4x5xf32>
  %1 = rlx.expand %c : tensor<4x1xf32> -> tensor<4x5xf32>
  // CHECK: %[[A2:.+]] = rlx.expand %[[C]] : tensor<4x1xf32> -> tensor<3x4x5xf32>
  %2 = rlx.expand %c : tensor<4x1xf32> -> tensor<3x4x5xf32>
  // CHECK: %[[A3:.+]] = rlx.expand %[[S]] : tensor<f32> -> tensor<2x2xf32>
  %3 = rlx.expand %s : tensor<f32> -> tensor<2x2xf32>
  // CHECK: %[[A4:.+]] = rlx.expand %[[B]] : tensor<768xf32> -> tensor<768xf32>
  %4 = rlx.expand %b : tensor<768xf32> -> tensor<768xf32>
  // CHECK: return %[[A0]], %[[A1]], %[[A2]], %[[A3]], %[[A4]] : tensor<8x128x768xf32>, tensor<4x5xf32>, tensor<3x4x5xf32>, tensor<2x2xf32>, tensor<768xf32>
  return %0, %1, %2, %3, %4 : tensor<8x128x768xf32>, tensor<4x5xf32>, tensor<3x4x5xf32>, tensor<2x2xf32>, tensor<768xf32>
}

// Dynamic dims on either side, other element types.
// CHECK-LABEL: func.func @expand_dynamic_and_types
// CHECK-SAME:    (%[[D:[^:]+]]: tensor<?x1xi1>, %[[E:[^:]+]]: tensor<1x8xbf16>, %[[C:[^:]+]]: tensor<3xcomplex<f32>>)
func.func @expand_dynamic_and_types(%d: tensor<?x1xi1>, %e: tensor<1x8xbf16>, %c: tensor<3xcomplex<f32>>)
    -> (tensor<2x?x4xi1>, tensor<?x8xbf16>, tensor<4x3xi1>, tensor<2x3xcomplex<f32>>) {
  // CHECK: %[[A0:.+]] = rlx.expand %[[D]] : tensor<?x1xi1> -> tensor<2x?x4xi1>
  %0 = rlx.expand %d : tensor<?x1xi1> -> tensor<2x?x4xi1>
  // CHECK: %[[A1:.+]] = rlx.expand %[[E]] : tensor<1x8xbf16> -> tensor<?x8xbf16>
  %1 = rlx.expand %e : tensor<1x8xbf16> -> tensor<?x8xbf16>
  // CHECK: %[[A2:.+]] = rlx.expand %[[D]] : tensor<?x1xi1> -> tensor<4x3xi1>
  %2 = rlx.expand %d : tensor<?x1xi1> -> tensor<4x3xi1>
  // CHECK: %[[A3:.+]] = rlx.expand %[[C]] : tensor<3xcomplex<f32>> -> tensor<2x3xcomplex<f32>>
  %3 = rlx.expand %c : tensor<3xcomplex<f32>> -> tensor<2x3xcomplex<f32>>
  // CHECK: return %[[A0]], %[[A1]], %[[A2]], %[[A3]] : tensor<2x?x4xi1>, tensor<?x8xbf16>, tensor<4x3xi1>, tensor<2x3xcomplex<f32>>
  return %0, %1, %2, %3 : tensor<2x?x4xi1>, tensor<?x8xbf16>, tensor<4x3xi1>, tensor<2x3xcomplex<f32>>
}

// `like` gives the dynamic sizes that the input cannot (any element type;
// its dims where the result is static do not matter).
// CHECK-LABEL: func.func @expand_like
// CHECK-SAME:    (%[[S:[^:]+]]: tensor<f32>, %[[X:[^:]+]]: tensor<?x?x8xi64>)
func.func @expand_like(%s: tensor<f32>, %x: tensor<?x?x8xi64>) -> (tensor<?x?x8xf32>, tensor<?x2x3xf32>) {
  // CHECK: %[[A:.+]] = rlx.expand %[[S]] like %[[X]] : tensor<f32>, tensor<?x?x8xi64> -> tensor<?x?x8xf32>
  %0 = rlx.expand %s like %x : tensor<f32>, tensor<?x?x8xi64> -> tensor<?x?x8xf32>
  // CHECK: %[[B:.+]] = rlx.expand %[[S]] like %[[X]] : tensor<f32>, tensor<?x?x8xi64> -> tensor<?x2x3xf32>
  %1 = rlx.expand %s like %x : tensor<f32>, tensor<?x?x8xi64> -> tensor<?x2x3xf32>
  // CHECK: return %[[A]], %[[B]]
  return %0, %1 : tensor<?x?x8xf32>, tensor<?x2x3xf32>
}

//===----------------------------------------------------------------------===//
// rlx.gather
//===----------------------------------------------------------------------===//

// The result is table.shape[:axis] + indices.shape + table.shape[axis+1:].
// CHECK-LABEL: func.func @gather
// CHECK-SAME:    (%[[T:[^:]+]]: tensor<100x32xf32>, %[[I2:[^:]+]]: tensor<4x5xi64>, %[[I1:[^:]+]]: tensor<7xi64>, %[[I0:[^:]+]]: tensor<i64>)
func.func @gather(%t: tensor<100x32xf32>, %i2: tensor<4x5xi64>, %i1: tensor<7xi64>, %i0: tensor<i64>)
    -> (tensor<4x5x32xf32>, tensor<100x7xf32>, tensor<100x4x5xf32>, tensor<32xf32>, tensor<100xf32>) {
  // CHECK: %[[A:.+]] = rlx.gather %[[T]], %[[I2]] axis = 0 : tensor<100x32xf32>, tensor<4x5xi64>
  %a = rlx.gather %t, %i2 axis = 0 : tensor<100x32xf32>, tensor<4x5xi64>
  // CHECK: %[[B:.+]] = rlx.gather %[[T]], %[[I1]] axis = 1 : tensor<100x32xf32>, tensor<7xi64>
  %b = rlx.gather %t, %i1 axis = 1 : tensor<100x32xf32>, tensor<7xi64>
  // CHECK: %[[C:.+]] = rlx.gather %[[T]], %[[I2]] axis = -1 : tensor<100x32xf32>, tensor<4x5xi64>
  %c = rlx.gather %t, %i2 axis = -1 : tensor<100x32xf32>, tensor<4x5xi64>
  // Rank-0 indices drop the axis.
  // CHECK: %[[D:.+]] = rlx.gather %[[T]], %[[I0]] axis = 0 : tensor<100x32xf32>, tensor<i64>
  %d = rlx.gather %t, %i0 axis = 0 : tensor<100x32xf32>, tensor<i64>
  // CHECK: %[[E:.+]] = rlx.gather %[[T]], %[[I0]] axis = -1 : tensor<100x32xf32>, tensor<i64>
  %e = rlx.gather %t, %i0 axis = -1 : tensor<100x32xf32>, tensor<i64>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]] : tensor<4x5x32xf32>, tensor<100x7xf32>, tensor<100x4x5xf32>, tensor<32xf32>, tensor<100xf32>
  return %a, %b, %c, %d, %e : tensor<4x5x32xf32>, tensor<100x7xf32>, tensor<100x4x5xf32>, tensor<32xf32>, tensor<100xf32>
}

// Dynamic tables and indices; tables of any element type.
// CHECK-LABEL: func.func @gather_dynamic_and_types
// CHECK-SAME:    (%[[T:[^:]+]]: tensor<?x16xbf16>, %[[I:[^:]+]]: tensor<?x?xi64>, %[[B:[^:]+]]: tensor<10xi1>, %[[C:[^:]+]]: tensor<3x10xcomplex<f32>>, %[[J:[^:]+]]: tensor<2xi64>)
func.func @gather_dynamic_and_types(%t: tensor<?x16xbf16>, %i: tensor<?x?xi64>, %b: tensor<10xi1>,
                                    %c: tensor<3x10xcomplex<f32>>, %j: tensor<2xi64>)
    -> (tensor<?x?x16xbf16>, tensor<2xi1>, tensor<3x2xcomplex<f32>>) {
  // CHECK: %[[A0:.+]] = rlx.gather %[[T]], %[[I]] axis = 0 : tensor<?x16xbf16>, tensor<?x?xi64>
  %0 = rlx.gather %t, %i axis = 0 : tensor<?x16xbf16>, tensor<?x?xi64>
  // CHECK: %[[A1:.+]] = rlx.gather %[[B]], %[[J]] axis = 0 : tensor<10xi1>, tensor<2xi64>
  %1 = rlx.gather %b, %j axis = 0 : tensor<10xi1>, tensor<2xi64>
  // CHECK: %[[A2:.+]] = rlx.gather %[[C]], %[[J]] axis = 1 : tensor<3x10xcomplex<f32>>, tensor<2xi64>
  %2 = rlx.gather %c, %j axis = 1 : tensor<3x10xcomplex<f32>>, tensor<2xi64>
  // CHECK: return %[[A0]], %[[A1]], %[[A2]] : tensor<?x?x16xbf16>, tensor<2xi1>, tensor<3x2xcomplex<f32>>
  return %0, %1, %2 : tensor<?x?x16xbf16>, tensor<2xi1>, tensor<3x2xcomplex<f32>>
}

//===----------------------------------------------------------------------===//
// rlx.scatter_add
//===----------------------------------------------------------------------===//

// updates has base's shape except the number of indices at axis; the
// result has base's type.
// CHECK-LABEL: func.func @scatter_add
// CHECK-SAME:    (%[[BASE:[^:]+]]: tensor<100x32xf32>, %[[I:[^:]+]]: tensor<3xi64>, %[[U0:[^:]+]]: tensor<3x32xf32>, %[[U1:[^:]+]]: tensor<100x3xf32>)
func.func @scatter_add(%base: tensor<100x32xf32>, %i: tensor<3xi64>, %u0: tensor<3x32xf32>, %u1: tensor<100x3xf32>)
    -> (tensor<100x32xf32>, tensor<100x32xf32>, tensor<100x32xf32>) {
  // CHECK: %[[A:.+]] = rlx.scatter_add %[[BASE]], %[[I]], %[[U0]] axis = 0 : tensor<100x32xf32>, tensor<3xi64>, tensor<3x32xf32>
  %a = rlx.scatter_add %base, %i, %u0 axis = 0 : tensor<100x32xf32>, tensor<3xi64>, tensor<3x32xf32>
  // CHECK: %[[B:.+]] = rlx.scatter_add %[[BASE]], %[[I]], %[[U1]] axis = 1 : tensor<100x32xf32>, tensor<3xi64>, tensor<100x3xf32>
  %b = rlx.scatter_add %base, %i, %u1 axis = 1 : tensor<100x32xf32>, tensor<3xi64>, tensor<100x3xf32>
  // CHECK: %[[C:.+]] = rlx.scatter_add %[[BASE]], %[[I]], %[[U1]] axis = -1 : tensor<100x32xf32>, tensor<3xi64>, tensor<100x3xf32>
  %c = rlx.scatter_add %base, %i, %u1 axis = -1 : tensor<100x32xf32>, tensor<3xi64>, tensor<100x3xf32>
  // CHECK: return %[[A]], %[[B]], %[[C]] : tensor<100x32xf32>, tensor<100x32xf32>, tensor<100x32xf32>
  return %a, %b, %c : tensor<100x32xf32>, tensor<100x32xf32>, tensor<100x32xf32>
}

// Dynamic dims, rank 1, integer and complex element types.
// CHECK-LABEL: func.func @scatter_add_dynamic_and_types
// CHECK-SAME:    (%[[B:[^:]+]]: tensor<?x8xf16>, %[[I:[^:]+]]: tensor<?xi64>, %[[U:[^:]+]]: tensor<5x?xf16>, %[[BI:[^:]+]]: tensor<10xi32>, %[[J:[^:]+]]: tensor<4xi64>, %[[UI:[^:]+]]: tensor<4xi32>, %[[BC:[^:]+]]: tensor<2x10xcomplex<f32>>, %[[UC:[^:]+]]: tensor<2x4xcomplex<f32>>)
func.func @scatter_add_dynamic_and_types(%b: tensor<?x8xf16>, %i: tensor<?xi64>, %u: tensor<5x?xf16>,
                                         %bi: tensor<10xi32>, %j: tensor<4xi64>, %ui: tensor<4xi32>,
                                         %bc: tensor<2x10xcomplex<f32>>, %uc: tensor<2x4xcomplex<f32>>)
    -> (tensor<?x8xf16>, tensor<10xi32>, tensor<2x10xcomplex<f32>>) {
  // CHECK: %[[A0:.+]] = rlx.scatter_add %[[B]], %[[I]], %[[U]] axis = 0 : tensor<?x8xf16>, tensor<?xi64>, tensor<5x?xf16>
  %0 = rlx.scatter_add %b, %i, %u axis = 0 : tensor<?x8xf16>, tensor<?xi64>, tensor<5x?xf16>
  // CHECK: %[[A1:.+]] = rlx.scatter_add %[[BI]], %[[J]], %[[UI]] axis = 0 : tensor<10xi32>, tensor<4xi64>, tensor<4xi32>
  %1 = rlx.scatter_add %bi, %j, %ui axis = 0 : tensor<10xi32>, tensor<4xi64>, tensor<4xi32>
  // CHECK: %[[A2:.+]] = rlx.scatter_add %[[BC]], %[[J]], %[[UC]] axis = 1 : tensor<2x10xcomplex<f32>>, tensor<4xi64>, tensor<2x4xcomplex<f32>>
  %2 = rlx.scatter_add %bc, %j, %uc axis = 1 : tensor<2x10xcomplex<f32>>, tensor<4xi64>, tensor<2x4xcomplex<f32>>
  // CHECK: return %[[A0]], %[[A1]], %[[A2]] : tensor<?x8xf16>, tensor<10xi32>, tensor<2x10xcomplex<f32>>
  return %0, %1, %2 : tensor<?x8xf16>, tensor<10xi32>, tensor<2x10xcomplex<f32>>
}

//===----------------------------------------------------------------------===//
// rlx.reverse
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reverse
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<4x8x2xf32>)
func.func @reverse(%x: tensor<4x8x2xf32>)
    -> (tensor<4x8x2xf32>, tensor<4x8x2xf32>, tensor<4x8x2xf32>, tensor<4x8x2xf32>) {
  // CHECK: %[[A:.+]] = rlx.reverse %[[X]] axes = [1] : tensor<4x8x2xf32>
  %a = rlx.reverse %x axes = [1] : tensor<4x8x2xf32>
  // Several axes, negative axes, and no axis at all.
  // CHECK: %[[B:.+]] = rlx.reverse %[[X]] axes = [0, 2] : tensor<4x8x2xf32>
  %b = rlx.reverse %x axes = [0, 2] : tensor<4x8x2xf32>
  // CHECK: %[[C:.+]] = rlx.reverse %[[X]] axes = [-1, -3] : tensor<4x8x2xf32>
  %c = rlx.reverse %x axes = [-1, -3] : tensor<4x8x2xf32>
  // CHECK: %[[D:.+]] = rlx.reverse %[[X]] axes = [] : tensor<4x8x2xf32>
  %d = rlx.reverse %x axes = [] : tensor<4x8x2xf32>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]]
  return %a, %b, %c, %d : tensor<4x8x2xf32>, tensor<4x8x2xf32>, tensor<4x8x2xf32>, tensor<4x8x2xf32>
}

// CHECK-LABEL: func.func @reverse_dynamic_and_types
// CHECK-SAME:    (%[[D:[^:]+]]: tensor<?x?xi8>, %[[B:[^:]+]]: tensor<3xi1>, %[[C:[^:]+]]: tensor<3xcomplex<f32>>)
func.func @reverse_dynamic_and_types(%d: tensor<?x?xi8>, %b: tensor<3xi1>, %c: tensor<3xcomplex<f32>>)
    -> (tensor<?x?xi8>, tensor<3xi1>, tensor<3xcomplex<f32>>) {
  // CHECK: %[[A0:.+]] = rlx.reverse %[[D]] axes = [0, 1] : tensor<?x?xi8>
  %0 = rlx.reverse %d axes = [0, 1] : tensor<?x?xi8>
  // CHECK: %[[A1:.+]] = rlx.reverse %[[B]] axes = [0] : tensor<3xi1>
  %1 = rlx.reverse %b axes = [0] : tensor<3xi1>
  // CHECK: %[[A2:.+]] = rlx.reverse %[[C]] axes = [-1] : tensor<3xcomplex<f32>>
  %2 = rlx.reverse %c axes = [-1] : tensor<3xcomplex<f32>>
  // CHECK: return %[[A0]], %[[A1]], %[[A2]] : tensor<?x?xi8>, tensor<3xi1>, tensor<3xcomplex<f32>>
  return %0, %1, %2 : tensor<?x?xi8>, tensor<3xi1>, tensor<3xcomplex<f32>>
}
