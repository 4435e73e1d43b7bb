// RUN: rlx-opt %s -convert-rlx-to-linalg -rlx-linalg-fuse-elementwise -split-input-file | FileCheck %s

// add + gelu fuse into one generic that reads the add's operands through
// their broadcast maps and computes the gelu on the sum.
// CHECK-DAG: #[[$ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @add_gelu(
// CHECK-SAME:    %[[A:[^:]+]]: tensor<4x8xf32>, %[[B:[^:]+]]: tensor<8xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID]], #[[$ROW]], #[[$ID]]]
// CHECK-SAME:      ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8xf32>)
// CHECK:         ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
// CHECK:           %[[S:.+]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK:           %[[T:.+]] = arith.mulf %[[S]], %{{.+}} : f32
// CHECK:           math.erf %[[T]] : f32
// CHECK:           linalg.yield
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]]
func.func @add_gelu(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = rlx.add %a, %b : tensor<4x8xf32>, tensor<8xf32>
  %1 = rlx.gelu %0 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// A longer chain (add, gelu, mul by a broadcast column) is one generic with
// all three inputs.
// CHECK-DAG: #[[$COL:map[0-9]*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @add_gelu_mul(
// CHECK-SAME:    %[[A:[^:]+]]: tensor<4x8xf32>, %[[B:[^:]+]]: tensor<8xf32>, %[[C:[^:]+]]: tensor<4x1xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#{{[a-z0-9]+}}, #{{[a-z0-9]+}}, #[[$COL]], #{{[a-z0-9]+}}]
// CHECK-SAME:      ins(%[[A]], %[[B]], %[[C]] :
// CHECK:         ^bb0(%{{.+}}: f32, %{{.+}}: f32, %[[CV:.+]]: f32, %{{.+}}: f32):
// CHECK:           arith.addf
// CHECK:           math.erf
// CHECK:           %[[M:.+]] = arith.mulf %{{.+}}, %[[CV]] : f32
// CHECK-NEXT:      linalg.yield %[[M]] : f32
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]]
func.func @add_gelu_mul(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %c: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %0 = rlx.add %a, %b : tensor<4x8xf32>, tensor<8xf32>
  %1 = rlx.gelu %0 : tensor<4x8xf32>
  %2 = rlx.mul %1, %c : tensor<4x8xf32>, tensor<4x1xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// A gelu feeding a matmul is not recomputed inside the contraction: two
// generics remain and the matmul's body has no math.erf.
// CHECK-LABEL: func.func @gelu_matmul(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>, %[[W:[^:]+]]: tensor<8x5xf32>
// CHECK:         %[[G:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%[[X]] : tensor<4x8xf32>)
// CHECK:           math.erf
// CHECK:         } -> tensor<4x8xf32>
// CHECK:         %[[MM:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[G]], %[[W]] : tensor<4x8xf32>, tensor<8x5xf32>)
// CHECK-NOT:       math.erf
// CHECK:           arith.mulf
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      linalg.yield
// CHECK-NOT:       math.erf
// CHECK:         return %[[MM]]
func.func @gelu_matmul(%x: tensor<4x8xf32>, %w: tensor<8x5xf32>) -> tensor<4x5xf32> {
  %0 = rlx.gelu %x : tensor<4x8xf32>
  %1 = rlx.matmul %0, %w : tensor<4x8xf32>, tensor<8x5xf32>
  return %1 : tensor<4x5xf32>
}

// -----

// Likewise a gelu feeding a sum stays a separate generic.
// CHECK-LABEL: func.func @gelu_sum(
// CHECK:         %[[G:.+]] = linalg.generic
// CHECK:           math.erf
// CHECK:         %[[S:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%[[G]] : tensor<4x8xf32>)
// CHECK-NOT:       math.erf
// CHECK:         return %[[S]]
func.func @gelu_sum(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = rlx.gelu %x : tensor<4x8xf32>
  %1 = rlx.reduce sum %0 axes = [1] : tensor<4x8xf32>
  return %1 : tensor<4xf32>
}

// -----

// The elementwise consumers of a matmul (bias add, gelu) fuse with each
// other but not into the contraction.
// CHECK-LABEL: func.func @matmul_bias_gelu(
// CHECK-SAME:    %{{[^:]+}}: tensor<4x8xf32>, %{{[^:]+}}: tensor<8x5xf32>, %[[B:[^:]+]]: tensor<5xf32>
// CHECK:         %[[MM:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-NOT:       math.erf
// CHECK:         } -> tensor<4x5xf32>
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%[[MM]], %[[B]] : tensor<4x5xf32>, tensor<5xf32>)
// CHECK:           arith.addf
// CHECK:           math.erf
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]]
func.func @matmul_bias_gelu(%x: tensor<4x8xf32>, %w: tensor<8x5xf32>, %b: tensor<5xf32>) -> tensor<4x5xf32> {
  %0 = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x5xf32>
  %1 = rlx.add %0, %b : tensor<4x5xf32>, tensor<5xf32>
  %2 = rlx.gelu %1 : tensor<4x5xf32>
  return %2 : tensor<4x5xf32>
}
