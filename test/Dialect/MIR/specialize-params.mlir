// RUN: rm -rf %t && %python %S/Inputs/write-params.py %t
// RUN: rlx-opt %s -split-input-file --rlx-specialize-params=dir=%t | FileCheck %s

// Each rlx.param "NAME" becomes an rlx.constant holding DIR/NAME.npy (the
// files are written by Inputs/write-params.py).

// CHECK-LABEL: func.func @f32
// CHECK-DAG: %[[W:.*]] = rlx.constant dense<{{\[}}[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK-DAG: %[[B:.*]] = rlx.constant dense<[5.000000e-01, -5.000000e-01]> : tensor<2xf32>
// CHECK: %[[M:.*]] = rlx.matmul %arg0, %[[W]]
// CHECK: rlx.add %[[M]], %[[B]]
// CHECK-NOT: rlx.param
func.func @f32(%x: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %w = rlx.param "w" : tensor<2x2xf32>
  %b = rlx.param "layer0.b" : tensor<2xf32>
  %m = rlx.matmul %x, %w : tensor<3x2xf32>, tensor<2x2xf32>
  %y = rlx.add %m, %b : tensor<3x2xf32>, tensor<2xf32>
  return %y : tensor<3x2xf32>
}

// -----

// Every element type with a .npy dtype; bf16 is read from f32 and rounded
// to nearest even; a rank-0 param reads a 0-d array.

// CHECK-LABEL: func.func @element_types
// CHECK: rlx.constant dense<[2.500000e-01, 1.000000e-300, -3.000000e+00]> : tensor<3xf64>
// CHECK: rlx.constant dense<[1.500000e+00, -2.000000e+00]> : tensor<2xf16>
// CHECK: rlx.constant dense<[1.000000e+00, 1.015630e+00]> : tensor<2xbf16>
// CHECK: rlx.constant dense<[1, -2, 3]> : tensor<3xi32>
// CHECK: rlx.constant dense<[-128, 127]> : tensor<2xi8>
// CHECK: rlx.constant dense<1099511627776> : tensor<1x1xi64>
// CHECK: rlx.constant dense<[255, 0]> : tensor<2xui8>
// CHECK: rlx.constant dense<[true, false, true]> : tensor<3xi1>
// CHECK: rlx.constant dense<7.000000e+00> : tensor<f32>
// CHECK-NOT: rlx.param
func.func @element_types() -> (tensor<3xf64>, tensor<2xf16>, tensor<2xbf16>, tensor<3xi32>, tensor<2xi8>, tensor<1x1xi64>, tensor<2xui8>, tensor<3xi1>, tensor<f32>) {
  %d = rlx.param "d" : tensor<3xf64>
  %h = rlx.param "h" : tensor<2xf16>
  %bf = rlx.param "bf" : tensor<2xbf16>
  %i = rlx.param "i32" : tensor<3xi32>
  %i8 = rlx.param "i8" : tensor<2xi8>
  %i64 = rlx.param "i64" : tensor<1x1xi64>
  %u8 = rlx.param "u8" : tensor<2xui8>
  %m = rlx.param "mask" : tensor<3xi1>
  %s = rlx.param "scalar" : tensor<f32>
  return %d, %h, %bf, %i, %i8, %i64, %u8, %m, %s : tensor<3xf64>, tensor<2xf16>, tensor<2xbf16>, tensor<3xi32>, tensor<2xi8>, tensor<1x1xi64>, tensor<2xui8>, tensor<3xi1>, tensor<f32>
}

// -----

// Private functions are specialized too; each use of a name gets the same
// value.

// CHECK-LABEL: func.func private @twice
// CHECK: %[[B1:.*]] = rlx.constant dense<[5.000000e-01, -5.000000e-01]> : tensor<2xf32>
// CHECK: %[[B2:.*]] = rlx.constant dense<[5.000000e-01, -5.000000e-01]> : tensor<2xf32>
// CHECK: %[[Y:.*]] = rlx.add %arg0, %[[B1]]
// CHECK: rlx.add %[[Y]], %[[B2]]
func.func private @twice(%x: tensor<2xf32>) -> tensor<2xf32> {
  %b = rlx.param "layer0.b" : tensor<2xf32>
  %b2 = rlx.param "layer0.b" : tensor<2xf32>
  %y = rlx.add %x, %b : tensor<2xf32>
  %z = rlx.add %y, %b2 : tensor<2xf32>
  return %z : tensor<2xf32>
}

// -----

// A function without params is unchanged, and no file is read.

// CHECK-LABEL: func.func @no_params
// CHECK-NEXT: return %arg0
func.func @no_params(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
