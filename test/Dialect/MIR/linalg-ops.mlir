// RUN: rlx-opt %s | FileCheck %s
// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round trips of the linear algebra ops. Each function returns its results
// so that the checked `return` line also checks the inferred result types.

//===----------------------------------------------------------------------===//
// rlx.matmul
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @matmul_2d
// CHECK-SAME:    (%[[A:[^:]+]]: tensor<4x8xf32>, %[[B:[^:]+]]: tensor<8x5xf32>)
func.func @matmul_2d(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>) -> tensor<4x5xf32> {
  // CHECK: %[[Y:.+]] = rlx.matmul %[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x5xf32>
  %y = rlx.matmul %a, %b : tensor<4x8xf32>, tensor<8x5xf32>
  // CHECK: return %[[Y]] : tensor<4x5xf32>
  return %y : tensor<4x5xf32>
}

// A single type after the colon stands for both operands, and is printed so.
// CHECK-LABEL: func.func @matmul_same_types
// CHECK-SAME:    (%[[A:[^:]+]]: tensor<8x8xf32>)
func.func @matmul_same_types(%a: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  // CHECK: %[[Y:.+]] = rlx.matmul %[[A]], %[[A]] : tensor<8x8xf32>{{$}}
  %y = rlx.matmul %a, %a : tensor<8x8xf32>
  // CHECK: %[[Z:.+]] = rlx.matmul %[[A]], %[[A]] : tensor<8x8xf32>{{$}}
  %z = rlx.matmul %a, %a : tensor<8x8xf32>, tensor<8x8xf32>
  // CHECK: return %[[Y]], %[[Z]] : tensor<8x8xf32>, tensor<8x8xf32>
  return %y, %z : tensor<8x8xf32>, tensor<8x8xf32>
}

// transpose_a / transpose_b present (true), and absent when false.
// CHECK-LABEL: func.func @matmul_transposes
// CHECK-SAME:    (%[[A:[^:]+]]: tensor<8x4xf32>, %[[B:[^:]+]]: tensor<5x8xf32>, %[[C:[^:]+]]: tensor<4x8xf32>, %[[D:[^:]+]]: tensor<8x5xf32>)
func.func @matmul_transposes(%a: tensor<8x4xf32>, %b: tensor<5x8xf32>, %c: tensor<4x8xf32>, %d: tensor<8x5xf32>)
    -> (tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) {
  // CHECK: %[[TA:.+]] = rlx.matmul %[[A]], %[[D]] transpose_a true : tensor<8x4xf32>, tensor<8x5xf32>
  %ta = rlx.matmul %a, %d transpose_a true : tensor<8x4xf32>, tensor<8x5xf32>
  // CHECK: %[[TB:.+]] = rlx.matmul %[[C]], %[[B]] transpose_b true : tensor<4x8xf32>, tensor<5x8xf32>
  %tb = rlx.matmul %c, %b transpose_b true : tensor<4x8xf32>, tensor<5x8xf32>
  // CHECK: %[[TAB:.+]] = rlx.matmul %[[A]], %[[B]] transpose_a true transpose_b true : tensor<8x4xf32>, tensor<5x8xf32>
  %tab = rlx.matmul %a, %b transpose_a true transpose_b true : tensor<8x4xf32>, tensor<5x8xf32>
  // An explicit false is the default and is not printed.
  // CHECK: %[[NONE:.+]] = rlx.matmul %[[C]], %[[D]] : tensor<4x8xf32>, tensor<8x5xf32>
  %none = rlx.matmul %c, %d transpose_a false transpose_b false : tensor<4x8xf32>, tensor<8x5xf32>
  // CHECK: return %[[TA]], %[[TB]], %[[TAB]], %[[NONE]] : tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>
  return %ta, %tb, %tab, %none : tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>
}

// Leading dims are batch dims and broadcast as NumPy's.
// CHECK-LABEL: func.func @matmul_batched
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<8x16x32xf32>, %[[W:[^:]+]]: tensor<32x64xf32>, %[[P:[^:]+]]: tensor<2x1x4x8xf32>, %[[Q:[^:]+]]: tensor<3x8x5xf32>, %[[S:[^:]+]]: tensor<2x4x16x64xf32>)
func.func @matmul_batched(%x: tensor<8x16x32xf32>, %w: tensor<32x64xf32>,
                          %p: tensor<2x1x4x8xf32>, %q: tensor<3x8x5xf32>,
                          %s: tensor<2x4x16x64xf32>)
    -> (tensor<8x16x64xf32>, tensor<2x3x4x5xf32>, tensor<2x4x16x16xf32>) {
  // CHECK: %[[Y:.+]] = rlx.matmul %[[X]], %[[W]] : tensor<8x16x32xf32>, tensor<32x64xf32>
  %y = rlx.matmul %x, %w : tensor<8x16x32xf32>, tensor<32x64xf32>
  // CHECK: %[[B:.+]] = rlx.matmul %[[P]], %[[Q]] : tensor<2x1x4x8xf32>, tensor<3x8x5xf32>
  %b = rlx.matmul %p, %q : tensor<2x1x4x8xf32>, tensor<3x8x5xf32>
  // CHECK: %[[SC:.+]] = rlx.matmul %[[S]], %[[S]] transpose_b true : tensor<2x4x16x64xf32>{{$}}
  %sc = rlx.matmul %s, %s transpose_b true : tensor<2x4x16x64xf32>
  // CHECK: return %[[Y]], %[[B]], %[[SC]] : tensor<8x16x64xf32>, tensor<2x3x4x5xf32>, tensor<2x4x16x16xf32>
  return %y, %b, %sc : tensor<8x16x64xf32>, tensor<2x3x4x5xf32>, tensor<2x4x16x16xf32>
}

// Dynamic dims: a dynamic contracting dim matches any size, dynamic M/N and
// batch dims carry through.
// CHECK-LABEL: func.func @matmul_dynamic
// CHECK-SAME:    (%[[A:[^:]+]]: tensor<?x?x8xf32>, %[[B:[^:]+]]: tensor<8x?xf32>, %[[C:[^:]+]]: tensor<4x?xf32>, %[[D:[^:]+]]: tensor<2x7x5xf32>)
func.func @matmul_dynamic(%a: tensor<?x?x8xf32>, %b: tensor<8x?xf32>,
                          %c: tensor<4x?xf32>, %d: tensor<2x7x5xf32>)
    -> (tensor<?x?x?xf32>, tensor<2x4x5xf32>) {
  // CHECK: %[[Y:.+]] = rlx.matmul %[[A]], %[[B]] : tensor<?x?x8xf32>, tensor<8x?xf32>
  %y = rlx.matmul %a, %b : tensor<?x?x8xf32>, tensor<8x?xf32>
  // CHECK: %[[Z:.+]] = rlx.matmul %[[C]], %[[D]] : tensor<4x?xf32>, tensor<2x7x5xf32>
  %z = rlx.matmul %c, %d : tensor<4x?xf32>, tensor<2x7x5xf32>
  // CHECK: return %[[Y]], %[[Z]] : tensor<?x?x?xf32>, tensor<2x4x5xf32>
  return %y, %z : tensor<?x?x?xf32>, tensor<2x4x5xf32>
}

// Every numeric element type: floats, integers and complex.
// CHECK-LABEL: func.func @matmul_element_types
func.func @matmul_element_types(%f16: tensor<2x3xf16>, %bf16: tensor<2x3xbf16>,
                                %f64: tensor<2x3xf64>, %i8: tensor<2x3xi8>,
                                %i32: tensor<2x3xi32>, %i64: tensor<2x3xi64>,
                                %ui8: tensor<2x3xui8>,
                                %c64: tensor<2x3xcomplex<f32>>)
    -> (tensor<2x2xf16>, tensor<2x2xbf16>, tensor<2x2xf64>, tensor<2x2xi8>,
        tensor<2x2xi32>, tensor<2x2xi64>, tensor<2x2xui8>,
        tensor<2x2xcomplex<f32>>) {
  // CHECK: %[[F16:.+]] = rlx.matmul %{{.+}}, %{{.+}} transpose_b true : tensor<2x3xf16>{{$}}
  %0 = rlx.matmul %f16, %f16 transpose_b true : tensor<2x3xf16>
  // CHECK: %[[BF16:.+]] = rlx.matmul %{{.+}}, %{{.+}} transpose_b true : tensor<2x3xbf16>{{$}}
  %1 = rlx.matmul %bf16, %bf16 transpose_b true : tensor<2x3xbf16>
  // CHECK: %[[F64:.+]] = rlx.matmul %{{.+}}, %{{.+}} transpose_b true : tensor<2x3xf64>{{$}}
  %2 = rlx.matmul %f64, %f64 transpose_b true : tensor<2x3xf64>
  // CHECK: %[[I8:.+]] = rlx.matmul %{{.+}}, %{{.+}} transpose_b true : tensor<2x3xi8>{{$}}
  %3 = rlx.matmul %i8, %i8 transpose_b true : tensor<2x3xi8>
  // CHECK: %[[I32:.+]] = rlx.matmul %{{.+}}, %{{.+}} transpose_b true : tensor<2x3xi32>{{$}}
  %4 = rlx.matmul %i32, %i32 transpose_b true : tensor<2x3xi32>
  // CHECK: %[[I64:.+]] = rlx.matmul %{{.+}}, %{{.+}} transpose_b true : tensor<2x3xi64>{{$}}
  %5 = rlx.matmul %i64, %i64 transpose_b true : tensor<2x3xi64>
  // CHECK: %[[UI8:.+]] = rlx.matmul %{{.+}}, %{{.+}} transpose_b true : tensor<2x3xui8>{{$}}
  %6 = rlx.matmul %ui8, %ui8 transpose_b true : tensor<2x3xui8>
  // CHECK: %[[C64:.+]] = rlx.matmul %{{.+}}, %{{.+}} transpose_b true : tensor<2x3xcomplex<f32>>{{$}}
  %7 = rlx.matmul %c64, %c64 transpose_b true : tensor<2x3xcomplex<f32>>
  // CHECK: return %[[F16]], %[[BF16]], %[[F64]], %[[I8]], %[[I32]], %[[I64]], %[[UI8]], %[[C64]] : tensor<2x2xf16>, tensor<2x2xbf16>, tensor<2x2xf64>, tensor<2x2xi8>, tensor<2x2xi32>, tensor<2x2xi64>, tensor<2x2xui8>, tensor<2x2xcomplex<f32>>
  return %0, %1, %2, %3, %4, %5, %6, %7
      : tensor<2x2xf16>, tensor<2x2xbf16>, tensor<2x2xf64>, tensor<2x2xi8>,
        tensor<2x2xi32>, tensor<2x2xi64>, tensor<2x2xui8>,
        tensor<2x2xcomplex<f32>>
}

//===----------------------------------------------------------------------===//
// rlx.dot_general
//===----------------------------------------------------------------------===//

// Batch dims first, then lhs's free dims, then rhs's free dims.
// CHECK-LABEL: func.func @dot_general
// CHECK-SAME:    (%[[A:[^:]+]]: tensor<4x8x16xf32>, %[[B:[^:]+]]: tensor<4x16x32xf32>)
func.func @dot_general(%a: tensor<4x8x16xf32>, %b: tensor<4x16x32xf32>) -> tensor<4x8x32xf32> {
  // CHECK: %[[Y:.+]] = rlx.dot_general %[[A]], %[[B]] batch [0] x [0] contracting [2] x [1] : tensor<4x8x16xf32>, tensor<4x16x32xf32>
  %y = rlx.dot_general %a, %b batch [0] x [0] contracting [2] x [1] : tensor<4x8x16xf32>, tensor<4x16x32xf32>
  // CHECK: return %[[Y]] : tensor<4x8x32xf32>
  return %y : tensor<4x8x32xf32>
}

// Empty batch dims (a plain contraction), empty contracting dims (an outer
// product), and several contracting dims.
// CHECK-LABEL: func.func @dot_general_empty_lists
// CHECK-SAME:    (%[[A:[^:]+]]: tensor<3x5xf32>, %[[B:[^:]+]]: tensor<5x7xf32>, %[[C:[^:]+]]: tensor<2x3x4xf32>, %[[D:[^:]+]]: tensor<4x2x3xf32>)
func.func @dot_general_empty_lists(%a: tensor<3x5xf32>, %b: tensor<5x7xf32>,
                                   %c: tensor<2x3x4xf32>, %d: tensor<4x2x3xf32>)
    -> (tensor<3x7xf32>, tensor<3x5x5x7xf32>, tensor<f32>) {
  // CHECK: %[[MM:.+]] = rlx.dot_general %[[A]], %[[B]] batch [] x [] contracting [1] x [0] : tensor<3x5xf32>, tensor<5x7xf32>
  %mm = rlx.dot_general %a, %b batch [] x [] contracting [1] x [0] : tensor<3x5xf32>, tensor<5x7xf32>
  // CHECK: %[[OUTER:.+]] = rlx.dot_general %[[A]], %[[B]] batch [] x [] contracting [] x [] : tensor<3x5xf32>, tensor<5x7xf32>
  %outer = rlx.dot_general %a, %b batch [] x [] contracting [] x [] : tensor<3x5xf32>, tensor<5x7xf32>
  // CHECK: %[[FULL:.+]] = rlx.dot_general %[[C]], %[[D]] batch [] x [] contracting [0, 1, 2] x [1, 2, 0] : tensor<2x3x4xf32>, tensor<4x2x3xf32>
  %full = rlx.dot_general %c, %d batch [] x [] contracting [0, 1, 2] x [1, 2, 0] : tensor<2x3x4xf32>, tensor<4x2x3xf32>
  // CHECK: return %[[MM]], %[[OUTER]], %[[FULL]] : tensor<3x7xf32>, tensor<3x5x5x7xf32>, tensor<f32>
  return %mm, %outer, %full : tensor<3x7xf32>, tensor<3x5x5x7xf32>, tensor<f32>
}

// Negative dims count from the end; they are printed as written.
// CHECK-LABEL: func.func @dot_general_negative_dims
// CHECK-SAME:    (%[[A:[^:]+]]: tensor<8x16x32xf32>)
func.func @dot_general_negative_dims(%a: tensor<8x16x32xf32>) -> tensor<8x16x16xf32> {
  // CHECK: %[[Y:.+]] = rlx.dot_general %[[A]], %[[A]] batch [-3] x [0] contracting [-1] x [-1] : tensor<8x16x32xf32>{{$}}
  %y = rlx.dot_general %a, %a batch [-3] x [0] contracting [-1] x [-1] : tensor<8x16x32xf32>
  // CHECK: return %[[Y]] : tensor<8x16x16xf32>
  return %y : tensor<8x16x16xf32>
}

// A batch dim static on one side refines a dynamic one on the other.
// CHECK-LABEL: func.func @dot_general_dynamic
// CHECK-SAME:    (%[[A:[^:]+]]: tensor<?x8x?xf16>, %[[B:[^:]+]]: tensor<4x16x?xf16>)
func.func @dot_general_dynamic(%a: tensor<?x8x?xf16>, %b: tensor<4x16x?xf16>) -> tensor<4x8x?xf16> {
  // CHECK: %[[Y:.+]] = rlx.dot_general %[[A]], %[[B]] batch [0] x [0] contracting [2] x [1] : tensor<?x8x?xf16>, tensor<4x16x?xf16>
  %y = rlx.dot_general %a, %b batch [0] x [0] contracting [2] x [1] : tensor<?x8x?xf16>, tensor<4x16x?xf16>
  // CHECK: return %[[Y]] : tensor<4x8x?xf16>
  return %y : tensor<4x8x?xf16>
}

// CHECK-LABEL: func.func @dot_general_element_types
func.func @dot_general_element_types(%bf16: tensor<2x3xbf16>, %f64: tensor<2x3xf64>,
                                     %i8: tensor<2x3xi8>, %c64: tensor<2x3xcomplex<f32>>)
    -> (tensor<2x2xbf16>, tensor<2x2xf64>, tensor<2x2xi8>, tensor<2x2xcomplex<f32>>) {
  // CHECK: rlx.dot_general %{{.+}}, %{{.+}} batch [] x [] contracting [1] x [1] : tensor<2x3xbf16>{{$}}
  %0 = rlx.dot_general %bf16, %bf16 batch [] x [] contracting [1] x [1] : tensor<2x3xbf16>
  // CHECK: rlx.dot_general %{{.+}}, %{{.+}} batch [] x [] contracting [1] x [1] : tensor<2x3xf64>{{$}}
  %1 = rlx.dot_general %f64, %f64 batch [] x [] contracting [1] x [1] : tensor<2x3xf64>
  // CHECK: rlx.dot_general %{{.+}}, %{{.+}} batch [] x [] contracting [1] x [1] : tensor<2x3xi8>{{$}}
  %2 = rlx.dot_general %i8, %i8 batch [] x [] contracting [1] x [1] : tensor<2x3xi8>
  // CHECK: rlx.dot_general %{{.+}}, %{{.+}} batch [] x [] contracting [1] x [1] : tensor<2x3xcomplex<f32>>{{$}}
  %3 = rlx.dot_general %c64, %c64 batch [] x [] contracting [1] x [1] : tensor<2x3xcomplex<f32>>
  // CHECK: return {{.+}} : tensor<2x2xbf16>, tensor<2x2xf64>, tensor<2x2xi8>, tensor<2x2xcomplex<f32>>
  return %0, %1, %2, %3 : tensor<2x2xbf16>, tensor<2x2xf64>, tensor<2x2xi8>, tensor<2x2xcomplex<f32>>
}

//===----------------------------------------------------------------------===//
// rlx.dense_solve
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @dense_solve
// CHECK-SAME:    (%[[A:[^:]+]]: tensor<3x3xf64>, %[[B:[^:]+]]: tensor<3x2xf64>)
func.func @dense_solve(%a: tensor<3x3xf64>, %b: tensor<3x2xf64>) -> tensor<3x2xf64> {
  // CHECK: %[[X:.+]] = rlx.dense_solve %[[A]], %[[B]] : tensor<3x3xf64>, tensor<3x2xf64>
  %x = rlx.dense_solve %a, %b : tensor<3x3xf64>, tensor<3x2xf64>
  // CHECK: return %[[X]] : tensor<3x2xf64>
  return %x : tensor<3x2xf64>
}

// Batched, in each float type, and with dynamic dims.
// CHECK-LABEL: func.func @dense_solve_batched
func.func @dense_solve_batched(%a: tensor<5x4x4xf32>, %b: tensor<5x4x1xf32>,
                               %ah: tensor<4x4xf16>, %bh: tensor<4x2xf16>,
                               %ab: tensor<4x4xbf16>, %bb: tensor<4x2xbf16>,
                               %ad: tensor<?x?x?xf32>, %bd: tensor<2x3x?xf32>)
    -> (tensor<5x4x1xf32>, tensor<4x2xf16>, tensor<4x2xbf16>, tensor<2x3x?xf32>) {
  // CHECK: %[[X:.+]] = rlx.dense_solve %{{.+}}, %{{.+}} : tensor<5x4x4xf32>, tensor<5x4x1xf32>
  %x = rlx.dense_solve %a, %b : tensor<5x4x4xf32>, tensor<5x4x1xf32>
  // CHECK: %[[H:.+]] = rlx.dense_solve %{{.+}}, %{{.+}} : tensor<4x4xf16>, tensor<4x2xf16>
  %h = rlx.dense_solve %ah, %bh : tensor<4x4xf16>, tensor<4x2xf16>
  // CHECK: %[[BF:.+]] = rlx.dense_solve %{{.+}}, %{{.+}} : tensor<4x4xbf16>, tensor<4x2xbf16>
  %bf = rlx.dense_solve %ab, %bb : tensor<4x4xbf16>, tensor<4x2xbf16>
  // CHECK: %[[D:.+]] = rlx.dense_solve %{{.+}}, %{{.+}} : tensor<?x?x?xf32>, tensor<2x3x?xf32>
  %d = rlx.dense_solve %ad, %bd : tensor<?x?x?xf32>, tensor<2x3x?xf32>
  // CHECK: return %[[X]], %[[H]], %[[BF]], %[[D]] : tensor<5x4x1xf32>, tensor<4x2xf16>, tensor<4x2xbf16>, tensor<2x3x?xf32>
  return %x, %h, %bf, %d : tensor<5x4x1xf32>, tensor<4x2xf16>, tensor<4x2xbf16>, tensor<2x3x?xf32>
}

//===----------------------------------------------------------------------===//
// rlx.fft
//===----------------------------------------------------------------------===//

// The defaults (forward transform, norm = backward) are not printed; the
// other settings are.
// CHECK-LABEL: func.func @fft
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<4x12xcomplex<f32>>)
func.func @fft(%x: tensor<4x12xcomplex<f32>>)
    -> (tensor<4x12xcomplex<f32>>, tensor<4x12xcomplex<f32>>, tensor<4x12xcomplex<f32>>,
        tensor<4x12xcomplex<f32>>, tensor<4x12xcomplex<f32>>) {
  // CHECK: %[[A:.+]] = rlx.fft %[[X]] : tensor<4x12xcomplex<f32>>
  %a = rlx.fft %x : tensor<4x12xcomplex<f32>>
  // CHECK: %[[B:.+]] = rlx.fft %[[X]] : tensor<4x12xcomplex<f32>>
  %b = rlx.fft %x {inverse = false, norm = "backward"} : tensor<4x12xcomplex<f32>>
  // CHECK: %[[C:.+]] = rlx.fft %[[X]] {norm = "ortho"} : tensor<4x12xcomplex<f32>>
  %c = rlx.fft %x {norm = "ortho"} : tensor<4x12xcomplex<f32>>
  // CHECK: %[[D:.+]] = rlx.fft %[[X]] {inverse = true} : tensor<4x12xcomplex<f32>>
  %d = rlx.fft %x {inverse = true} : tensor<4x12xcomplex<f32>>
  // CHECK: %[[E:.+]] = rlx.fft %[[X]] {inverse = true, norm = "forward"} : tensor<4x12xcomplex<f32>>
  %e = rlx.fft %x {inverse = true, norm = "forward"} : tensor<4x12xcomplex<f32>>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]]
  return %a, %b, %c, %d, %e
      : tensor<4x12xcomplex<f32>>, tensor<4x12xcomplex<f32>>, tensor<4x12xcomplex<f32>>,
        tensor<4x12xcomplex<f32>>, tensor<4x12xcomplex<f32>>
}

// Rank 1, rank 3 and dynamic dims; any length (not only powers of two).
// CHECK-LABEL: func.func @fft_shapes
func.func @fft_shapes(%a: tensor<7xcomplex<f32>>, %b: tensor<2x3x5xcomplex<f32>>,
                      %c: tensor<?x?xcomplex<f32>>)
    -> (tensor<7xcomplex<f32>>, tensor<2x3x5xcomplex<f32>>, tensor<?x?xcomplex<f32>>) {
  // CHECK: %[[A:.+]] = rlx.fft %{{.+}} : tensor<7xcomplex<f32>>
  %0 = rlx.fft %a : tensor<7xcomplex<f32>>
  // CHECK: %[[B:.+]] = rlx.fft %{{.+}} : tensor<2x3x5xcomplex<f32>>
  %1 = rlx.fft %b : tensor<2x3x5xcomplex<f32>>
  // CHECK: %[[C:.+]] = rlx.fft %{{.+}} {inverse = true} : tensor<?x?xcomplex<f32>>
  %2 = rlx.fft %c {inverse = true} : tensor<?x?xcomplex<f32>>
  // CHECK: return %[[A]], %[[B]], %[[C]] : tensor<7xcomplex<f32>>, tensor<2x3x5xcomplex<f32>>, tensor<?x?xcomplex<f32>>
  return %0, %1, %2 : tensor<7xcomplex<f32>>, tensor<2x3x5xcomplex<f32>>, tensor<?x?xcomplex<f32>>
}

//===----------------------------------------------------------------------===//
// rlx.rfft / rlx.irfft
//===----------------------------------------------------------------------===//

// Without n the signal length is the last dim (16 -> 9 frequencies); n crops
// (10 -> 6) or zero-pads (20 -> 11); odd n (7 -> 4).
// CHECK-LABEL: func.func @rfft
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<4x16xf32>)
func.func @rfft(%x: tensor<4x16xf32>)
    -> (tensor<4x9xcomplex<f32>>, tensor<4x6xcomplex<f32>>, tensor<4x11xcomplex<f32>>,
        tensor<4x4xcomplex<f32>>, tensor<4x9xcomplex<f32>>) {
  // CHECK: %[[A:.+]] = rlx.rfft %[[X]] : tensor<4x16xf32>
  %a = rlx.rfft %x : tensor<4x16xf32>
  // CHECK: %[[B:.+]] = rlx.rfft %[[X]] n = 10 : tensor<4x16xf32>
  %b = rlx.rfft %x n = 10 : tensor<4x16xf32>
  // CHECK: %[[C:.+]] = rlx.rfft %[[X]] n = 20 : tensor<4x16xf32>
  %c = rlx.rfft %x n = 20 : tensor<4x16xf32>
  // CHECK: %[[D:.+]] = rlx.rfft %[[X]] n = 7 {norm = "ortho"} : tensor<4x16xf32>
  %d = rlx.rfft %x n = 7 {norm = "ortho"} : tensor<4x16xf32>
  // CHECK: %[[E:.+]] = rlx.rfft %[[X]] {norm = "forward"} : tensor<4x16xf32>
  %e = rlx.rfft %x {norm = "forward"} : tensor<4x16xf32>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]] : tensor<4x9xcomplex<f32>>, tensor<4x6xcomplex<f32>>, tensor<4x11xcomplex<f32>>, tensor<4x4xcomplex<f32>>, tensor<4x9xcomplex<f32>>
  return %a, %b, %c, %d, %e
      : tensor<4x9xcomplex<f32>>, tensor<4x6xcomplex<f32>>, tensor<4x11xcomplex<f32>>,
        tensor<4x4xcomplex<f32>>, tensor<4x9xcomplex<f32>>
}

// A dynamic signal length gives a dynamic frequency count unless n fixes it.
// CHECK-LABEL: func.func @rfft_dynamic
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<?x?xf32>, %[[V:[^:]+]]: tensor<8xf32>)
func.func @rfft_dynamic(%x: tensor<?x?xf32>, %v: tensor<8xf32>)
    -> (tensor<?x?xcomplex<f32>>, tensor<?x5xcomplex<f32>>, tensor<5xcomplex<f32>>) {
  // CHECK: %[[A:.+]] = rlx.rfft %[[X]] : tensor<?x?xf32>
  %a = rlx.rfft %x : tensor<?x?xf32>
  // CHECK: %[[B:.+]] = rlx.rfft %[[X]] n = 8 : tensor<?x?xf32>
  %b = rlx.rfft %x n = 8 : tensor<?x?xf32>
  // CHECK: %[[C:.+]] = rlx.rfft %[[V]] : tensor<8xf32>
  %c = rlx.rfft %v : tensor<8xf32>
  // CHECK: return %[[A]], %[[B]], %[[C]] : tensor<?x?xcomplex<f32>>, tensor<?x5xcomplex<f32>>, tensor<5xcomplex<f32>>
  return %a, %b, %c : tensor<?x?xcomplex<f32>>, tensor<?x5xcomplex<f32>>, tensor<5xcomplex<f32>>
}

// Without n the length is 2 (m - 1) (9 -> 16); with n it is n (odd 17 too).
// CHECK-LABEL: func.func @irfft
// CHECK-SAME:    (%[[F:[^:]+]]: tensor<4x9xcomplex<f32>>, %[[D:[^:]+]]: tensor<?x?xcomplex<f32>>, %[[ONE:[^:]+]]: tensor<1xcomplex<f32>>)
func.func @irfft(%f: tensor<4x9xcomplex<f32>>, %d: tensor<?x?xcomplex<f32>>, %one: tensor<1xcomplex<f32>>)
    -> (tensor<4x16xf32>, tensor<4x17xf32>, tensor<4x16xf32>, tensor<?x?xf32>, tensor<?x6xf32>, tensor<1xf32>) {
  // CHECK: %[[A:.+]] = rlx.irfft %[[F]] : tensor<4x9xcomplex<f32>>
  %a = rlx.irfft %f : tensor<4x9xcomplex<f32>>
  // CHECK: %[[B:.+]] = rlx.irfft %[[F]] n = 17 : tensor<4x9xcomplex<f32>>
  %b = rlx.irfft %f n = 17 : tensor<4x9xcomplex<f32>>
  // CHECK: %[[C:.+]] = rlx.irfft %[[F]] n = 16 {norm = "ortho"} : tensor<4x9xcomplex<f32>>
  %c = rlx.irfft %f n = 16 {norm = "ortho"} : tensor<4x9xcomplex<f32>>
  // CHECK: %[[E:.+]] = rlx.irfft %[[D]] : tensor<?x?xcomplex<f32>>
  %e = rlx.irfft %d : tensor<?x?xcomplex<f32>>
  // CHECK: %[[G:.+]] = rlx.irfft %[[D]] n = 6 : tensor<?x?xcomplex<f32>>
  %g = rlx.irfft %d n = 6 : tensor<?x?xcomplex<f32>>
  // One frequency needs an explicit n.
  // CHECK: %[[H:.+]] = rlx.irfft %[[ONE]] n = 1 : tensor<1xcomplex<f32>>
  %h = rlx.irfft %one n = 1 : tensor<1xcomplex<f32>>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[E]], %[[G]], %[[H]] : tensor<4x16xf32>, tensor<4x17xf32>, tensor<4x16xf32>, tensor<?x?xf32>, tensor<?x6xf32>, tensor<1xf32>
  return %a, %b, %c, %e, %g, %h
      : tensor<4x16xf32>, tensor<4x17xf32>, tensor<4x16xf32>, tensor<?x?xf32>, tensor<?x6xf32>, tensor<1xf32>
}

// rfft then irfft with the same n restores the signal's shape.
// CHECK-LABEL: func.func @rfft_irfft
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<2x15xf32>)
func.func @rfft_irfft(%x: tensor<2x15xf32>) -> tensor<2x15xf32> {
  // CHECK: %[[F:.+]] = rlx.rfft %[[X]] : tensor<2x15xf32>
  %f = rlx.rfft %x : tensor<2x15xf32>
  // CHECK: %[[Y:.+]] = rlx.irfft %[[F]] n = 15 : tensor<2x8xcomplex<f32>>
  %y = rlx.irfft %f n = 15 : tensor<2x8xcomplex<f32>>
  // CHECK: return %[[Y]] : tensor<2x15xf32>
  return %y : tensor<2x15xf32>
}
