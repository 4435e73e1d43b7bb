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

// Causal, grouped-query (4 query heads on 2 k/v heads): the two query
// heads of a k/v head are one product of 2 * 8 rows, the mask is a select
// from the indices (row r is query position r mod 8; 4 more keys than
// queries put the diagonal at r mod 8 + 4), and the result goes back to
// [1, 4, 8, 16] (the two reshapes each way fold into one).
// CHECK-LABEL: func.func @causal_grouped(
// CHECK:         %[[QS:.*]] = rlx.mul
// CHECK:         %[[Q4:.*]] = rlx.reshape %[[QS]] : tensor<1x4x8x16xf32> -> tensor<1x2x16x16xf32>
// CHECK:         %[[S:.*]] = rlx.matmul %[[Q4]], %{{.*}} transpose_b true : tensor<1x2x16x16xf32>, tensor<1x2x12x16xf32>
// CHECK:         %[[M:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[S]] : tensor<1x2x16x12xf32>)
// CHECK-DAG:       %[[ROW:.*]] = linalg.index 2
// CHECK-DAG:       %[[KEY:.*]] = linalg.index 3
// CHECK-DAG:       %[[POS:.*]] = arith.remui %[[ROW]], %c8
// CHECK:           %[[DIAG:.*]] = arith.addi %[[POS]], %c4
// CHECK:           %[[VIS:.*]] = arith.cmpi sle, %[[KEY]], %[[DIAG]]
// CHECK:           arith.select %[[VIS]], %{{.*}}, %cst
// CHECK:         %[[P:.*]] = rlx.softmax %[[M]] axis = -1
// CHECK:         %[[O:.*]] = rlx.matmul %[[P]], %{{.*}} : tensor<1x2x16x12xf32>, tensor<1x2x12x16xf32>
// CHECK:         rlx.reshape %[[O]] : tensor<1x2x16x16xf32> -> tensor<1x4x8x16xf32>
// CHECK-NOT:     rlx.attention
func.func @causal_grouped(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x12x16xf32>, %v: tensor<1x2x12x16xf32>) -> tensor<1x4x8x16xf32> {
  %a = rlx.attention %q, %k, %v mask = causal : tensor<1x4x8x16xf32>, tensor<1x2x12x16xf32>, tensor<1x2x12x16xf32>
  return %a : tensor<1x4x8x16xf32>
}

// -----

// A sliding window also hides keys `window` or more before the diagonal
// (here at the query position: as many keys as queries).
// CHECK-LABEL: func.func @sliding_window(
// CHECK:         linalg.generic
// CHECK:           %[[DIAG:.*]] = arith.remui %{{.*}}, %c8
// CHECK:           %[[VIS:.*]] = arith.cmpi sle, %[[KEY:.*]], %[[DIAG]]
// CHECK:           %[[FIRST:.*]] = arith.subi %[[DIAG]], %c3
// CHECK:           %[[AFTER:.*]] = arith.cmpi sgt, %[[KEY]], %[[FIRST]]
// CHECK:           arith.andi %[[VIS]], %[[AFTER]]
// CHECK:         rlx.softmax
// CHECK-NOT:     rlx.attention
func.func @sliding_window(%q: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  %a = rlx.attention %q, %q, %q mask = sliding_window window = 3 : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
  return %a : tensor<1x2x8x16xf32>
}

// -----

// Left fused: a mask tensor, a causal mask with fewer keys than queries
// (rows that see no key), a dynamic dim.
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT:     rlx.matmul
// CHECK-COUNT-3: rlx.attention
// CHECK-NOT:     rlx.matmul
func.func @left_alone(%q: tensor<1x4x8x16xf32>, %k: tensor<1x4x8x16xf32>, %m: tensor<8x8xi1>, %k2: tensor<1x4x4x16xf32>,
                      %qd: tensor<?x4x8x16xf32>, %kd: tensor<?x4x8x16xf32>) -> (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<?x4x8x16xf32>) {
  %c = rlx.attention %q, %k, %k, %m mask = custom : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<8x8xi1>
  %g = rlx.attention %q, %k2, %k2 mask = causal : tensor<1x4x8x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>
  %d = rlx.attention %qd, %kd, %kd mask = none : tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32>, tensor<?x4x8x16xf32>
  return %c, %g, %d : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<?x4x8x16xf32>
}

// -----

// attention_backward, grouped (4 query heads on 2 k/v heads) and causal:
// the probabilities recomputed as the forward's, D = rowsum(dO * o), and
// five batched matmuls: dP = dO v^T, dQ = dS k, dK = dS^T q, dV = P^T dO
// with dS = scale * P * (dP - D), all on [B, Hkv, G * S, ...] rows.
// CHECK-LABEL: func.func @backward_grouped(
// CHECK-SAME:    %[[Q:[^:]+]]: tensor<1x4x8x16xf32>, %[[K:[^:]+]]: tensor<1x2x8x16xf32>, %[[V:[^:]+]]: tensor<1x2x8x16xf32>, %[[O:[^:]+]]: tensor<1x4x8x16xf32>, %[[DO:[^:]+]]: tensor<1x4x8x16xf32>
// CHECK:         %[[S:.+]] = rlx.constant dense<2.500000e-01> : tensor<f32>
// CHECK:         %[[QS:.+]] = rlx.mul %[[Q]], %[[S]]
// CHECK:         %[[QSG:.+]] = rlx.reshape %[[QS]] : tensor<1x4x8x16xf32> -> tensor<1x2x16x16xf32>
// CHECK:         %[[SC:.+]] = rlx.matmul %[[QSG]], %[[K]] transpose_b true
// CHECK:         %[[M:.+]] = linalg.generic
// CHECK:         %[[P:.+]] = rlx.softmax %[[M]] axis = -1 : tensor<1x2x16x8xf32>
// CHECK:         %[[DOG:.+]] = rlx.reshape %[[DO]] : tensor<1x4x8x16xf32> -> tensor<1x2x16x16xf32>
// CHECK:         %[[OG:.+]] = rlx.reshape %[[O]] : tensor<1x4x8x16xf32> -> tensor<1x2x16x16xf32>
// CHECK:         %[[DOO:.+]] = rlx.mul %[[DOG]], %[[OG]]
// CHECK:         %[[D:.+]] = rlx.reduce sum %[[DOO]] axes = [3] keepdim true
// CHECK:         %[[DP:.+]] = rlx.matmul %[[DOG]], %[[V]] transpose_b true
// CHECK:         %[[DIFF:.+]] = rlx.sub %[[DP]], %[[D]] : tensor<1x2x16x8xf32>, tensor<1x2x16x1xf32>
// CHECK:         %[[PD:.+]] = rlx.mul %[[P]], %[[DIFF]]
// CHECK:         %[[DS:.+]] = rlx.mul %[[PD]], %[[S]]
// CHECK:         %[[QG:.+]] = rlx.reshape %[[Q]] : tensor<1x4x8x16xf32> -> tensor<1x2x16x16xf32>
// CHECK:         %[[DQG:.+]] = rlx.matmul %[[DS]], %[[K]] : tensor<1x2x16x8xf32>, tensor<1x2x8x16xf32>
// CHECK:         %[[DQ:.+]] = rlx.reshape %[[DQG]] : tensor<1x2x16x16xf32> -> tensor<1x4x8x16xf32>
// CHECK:         %[[DK:.+]] = rlx.matmul %[[DS]], %[[QG]] transpose_a true
// CHECK:         %[[DV:.+]] = rlx.matmul %[[P]], %[[DOG]] transpose_a true
// CHECK:         return %[[DQ]], %[[DK]], %[[DV]]
func.func @backward_grouped(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %o: tensor<1x4x8x16xf32>, %do: tensor<1x4x8x16xf32>) -> (tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) {
  %dq, %dk, %dv = rlx.attention_backward %q, %k, %v, %o, %do mask = causal : tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x4x8x16xf32>
  return %dq, %dk, %dv : tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
}
