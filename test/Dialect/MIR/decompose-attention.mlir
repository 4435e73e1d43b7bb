// RUN: rlx-opt %s --rlx-decompose-attention --split-input-file | FileCheck %s

// f32: q scaled by 1/sqrt(64), scores with k transposed, softmax over the
// keys, probabilities times v; no casts.
// CHECK-LABEL: func.func @f32(
// CHECK-SAME:    %[[Q:[^:]+]]: tensor<2x4x16x64xf32>, %[[K:[^:]+]]: tensor<2x4x32x64xf32>, %[[V:[^:]+]]: tensor<2x4x32x48xf32>
// CHECK-NOT:     rlx.cast
// CHECK:         %[[S:.+]] = rlx.constant dense<1.250000e-01> : tensor<f32>
// CHECK:         %[[QS:.+]] = rlx.mul %[[Q]], %[[S]] : tensor<2x4x16x64xf32>, tensor<f32>
// CHECK:         %[[P0:.+]] = rlx.matmul %[[QS]], %[[K]] transpose_b true : tensor<2x4x16x64xf32>, tensor<2x4x32x64xf32>
// CHECK:         %[[P:.+]] = rlx.softmax %[[P0]] axis = -1 : tensor<2x4x16x32xf32>
// CHECK:         %[[O:.+]] = rlx.matmul %[[P]], %[[V]] : tensor<2x4x16x32xf32>, tensor<2x4x32x48xf32>
// CHECK-NOT:     rlx.cast
// CHECK:         return %[[O]]
func.func @f32(%q: tensor<2x4x16x64xf32>, %k: tensor<2x4x32x64xf32>, %v: tensor<2x4x32x48xf32>) -> tensor<2x4x16x48xf32> {
  %a = rlx.attention %q, %k, %v mask = none : tensor<2x4x16x64xf32>, tensor<2x4x32x64xf32>, tensor<2x4x32x48xf32>
  return %a : tensor<2x4x16x48xf32>
}

// -----

// bf16 with an explicit scale: q k^T and the softmax in f32, the
// probabilities cast back to bf16 for the product with v.
// CHECK-LABEL: func.func @bf16(
// CHECK-SAME:    %[[QIN:[^:]+]]: tensor<1x2x8x16xbf16>, %[[KIN:[^:]+]]: tensor<1x2x8x16xbf16>, %[[VIN:[^:]+]]: tensor<1x2x8x16xbf16>
// CHECK:         %[[S:.+]] = rlx.constant dense<5.000000e-01> : tensor<f32>
// CHECK:         %[[Q:.+]] = rlx.cast %[[QIN]] : tensor<1x2x8x16xbf16> -> tensor<1x2x8x16xf32>
// CHECK:         %[[K:.+]] = rlx.cast %[[KIN]] : tensor<1x2x8x16xbf16> -> tensor<1x2x8x16xf32>
// CHECK:         %[[QS:.+]] = rlx.mul %[[Q]], %[[S]]
// CHECK:         %[[P0:.+]] = rlx.matmul %[[QS]], %[[K]] transpose_b true
// CHECK:         %[[P:.+]] = rlx.softmax %[[P0]] axis = -1 : tensor<1x2x8x8xf32>
// CHECK:         %[[PB:.+]] = rlx.cast %[[P]] : tensor<1x2x8x8xf32> -> tensor<1x2x8x8xbf16>
// CHECK:         %[[O:.+]] = rlx.matmul %[[PB]], %[[VIN]] : tensor<1x2x8x8xbf16>, tensor<1x2x8x16xbf16>
// CHECK:         return %[[O]]
func.func @bf16(%q: tensor<1x2x8x16xbf16>, %k: tensor<1x2x8x16xbf16>, %v: tensor<1x2x8x16xbf16>) -> tensor<1x2x8x16xbf16> {
  %a = rlx.attention %q, %k, %v mask = none {scale = 5.000000e-01 : f32} : tensor<1x2x8x16xbf16>, tensor<1x2x8x16xbf16>, tensor<1x2x8x16xbf16>
  return %a : tensor<1x2x8x16xbf16>
}

// -----

// Left fused: a causal mask, grouped-query heads, a dynamic dim.
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT:     rlx.matmul
// CHECK-COUNT-3: rlx.attention
// CHECK-NOT:     rlx.matmul
func.func @left_alone(%q: tensor<1x4x8x16xf32>, %k: tensor<1x4x8x16xf32>, %k2: tensor<1x2x8x16xf32>,
                      %qd: tensor<?x4x8x16xf32>, %kd: tensor<?x4x8x16xf32>) -> (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<?x4x8x16xf32>) {
  %c = rlx.attention %q, %k, %k mask = causal : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>
  %g = rlx.attention %q, %k2, %k2 mask = none : tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
  %d = rlx.attention %qd, %kd, %kd mask = none : tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32>
  return %c, %g, %d : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<?x4x8x16xf32>
}
