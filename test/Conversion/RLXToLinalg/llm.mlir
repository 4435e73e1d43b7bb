// RUN: rlx-opt %s -convert-rlx-to-linalg -split-input-file | FileCheck %s

// The LLM layer ops' lowerings (each split one op).

// lora_matmul has no pattern of its own: the conversion unfuses it into
// rlx.matmul / rlx.mul / rlx.add and lowers those: three contractions
// (x W, x A, then (s x A) B), the scale applied to the [.., r]
// intermediate, one add.
// CHECK-LABEL: func.func @lora_matmul(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<2x5x37xf32>, %[[W:[^:]+]]: tensor<37x12xf32>, %[[A:[^:]+]]: tensor<37x4xf32>, %[[B:[^:]+]]: tensor<4x12xf32>
// CHECK-NOT:     rlx.
// CHECK:         %[[XW:.+]] = linalg.generic {{.*}} ins(%[[X]], %[[W]] : tensor<2x5x37xf32>, tensor<37x12xf32>)
// CHECK:         %[[XA:.+]] = linalg.generic {{.*}} ins(%[[X]], %[[A]] : tensor<2x5x37xf32>, tensor<37x4xf32>)
// CHECK:         %[[XAS:.+]] = linalg.generic {{.*}} ins(%[[XA]], %{{.+}} : tensor<2x5x4xf32>, tensor<f32>)
// CHECK:           arith.mulf
// CHECK:         %[[UP:.+]] = linalg.generic {{.*}} ins(%[[XAS]], %[[B]] : tensor<2x5x4xf32>, tensor<4x12xf32>)
// CHECK:         %[[Y:.+]] = linalg.generic {{.*}} ins(%[[XW]], %[[UP]] : tensor<2x5x12xf32>, tensor<2x5x12xf32>)
// CHECK:           arith.addf
// CHECK:         return %[[Y]] : tensor<2x5x12xf32>
func.func @lora_matmul(%x: tensor<2x5x37xf32>, %w: tensor<37x12xf32>, %a: tensor<37x4xf32>, %b: tensor<4x12xf32>) -> tensor<2x5x12xf32> {
  %y = rlx.lora_matmul %x, %w, %a, %b {scale = 2.0 : f32} : tensor<2x5x37xf32>, tensor<37x12xf32>, tensor<37x4xf32>, tensor<4x12xf32>
  return %y : tensor<2x5x12xf32>
}

// -----

// grouped_matmul is one contraction over (r, n, k) that reads the row's
// expert weight with tensor.extract at the expert index clamped to
// [0, E - 1] (E - 1 = 3 - 1 here).
// CHECK-LABEL: func.func @grouped_matmul(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<5x37xf32>, %[[W:[^:]+]]: tensor<3x37x11xf32>, %[[E:[^:]+]]: tensor<5xi64>
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C3:.+]] = arith.constant 3 : index
// CHECK:         %[[LAST:.+]] = arith.subi %[[C3]], %[[C1]] : index
// CHECK:         %[[INIT:.+]] = linalg.fill
// CHECK:         %[[Y:.+]] = linalg.generic {{{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]], %[[E]] : tensor<5x37xf32>, tensor<5xi64>) outs(%[[INIT]] : tensor<5x11xf32>)
// CHECK-NEXT:    ^bb0(%[[XV:.+]]: f32, %[[EV:.+]]: i64, %[[ACC:.+]]: f32):
// CHECK-NEXT:      %[[I:.+]] = arith.index_cast %[[EV]] : i64 to index
// CHECK-NEXT:      %[[LO:.+]] = arith.maxsi %[[I]], %[[C0]] : index
// CHECK-NEXT:      %[[EX:.+]] = arith.minsi %[[LO]], %[[LAST]] : index
// CHECK-NEXT:      %[[N:.+]] = linalg.index 1 : index
// CHECK-NEXT:      %[[K:.+]] = linalg.index 2 : index
// CHECK-NEXT:      %[[WV:.+]] = tensor.extract %[[W]][%[[EX]], %[[K]], %[[N]]] : tensor<3x37x11xf32>
// CHECK-NEXT:      %[[P:.+]] = arith.mulf %[[XV]], %[[WV]] : f32
// CHECK-NEXT:      %[[S:.+]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK:         return %[[Y]] : tensor<5x11xf32>
func.func @grouped_matmul(%x: tensor<5x37xf32>, %w: tensor<3x37x11xf32>, %e: tensor<5xi64>) -> tensor<5x11xf32> {
  %y = rlx.grouped_matmul %x, %w, %e : tensor<5x37xf32>, tensor<3x37x11xf32>, tensor<5xi64>
  return %y : tensor<5x11xf32>
}

// -----

// bf16 with i32 indices and dynamic dims: E - 1 from tensor.dim, the
// products accumulate in f32 and the result is truncated to bf16.
// CHECK-LABEL: func.func @grouped_matmul_bf16(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<?x64xbf16>, %[[W:[^:]+]]: tensor<?x64x?xbf16>, %[[E:[^:]+]]: tensor<?xi32>
// CHECK:         %[[NE:.+]] = tensor.dim %[[W]], %{{.+}} : tensor<?x64x?xbf16>
// CHECK:         %[[LAST:.+]] = arith.subi %[[NE]], %{{.+}} : index
// CHECK:         %[[ACC:.+]] = linalg.generic {{.*}} ins(%[[X]], %[[E]] : tensor<?x64xbf16>, tensor<?xi32>) outs(%{{.+}} : tensor<?x?xf32>)
// CHECK:           arith.index_cast %{{.+}} : i32 to index
// CHECK:           arith.minsi %{{.+}}, %[[LAST]] : index
// CHECK:           tensor.extract %[[W]]
// CHECK:           arith.extf
// CHECK:         %[[Y:.+]] = linalg.generic {{.*}} ins(%[[ACC]] : tensor<?x?xf32>) outs(%{{.+}} : tensor<?x?xbf16>)
// CHECK:           arith.truncf
// CHECK:         return %[[Y]] : tensor<?x?xbf16>
func.func @grouped_matmul_bf16(%x: tensor<?x64xbf16>, %w: tensor<?x64x?xbf16>, %e: tensor<?xi32>) -> tensor<?x?xbf16> {
  %y = rlx.grouped_matmul %x, %w, %e : tensor<?x64xbf16>, tensor<?x64x?xbf16>, tensor<?xi32>
  return %y : tensor<?x?xbf16>
}

// -----

// gated_delta_net is an scf.for over T carrying the state and the output;
// q is scaled by 1/sqrt(Dk) once before the loop. Per step: rank-reduced
// slices of q, k, v, g, beta at t; S * exp(g_t); kv_mem = contraction of S
// with k_t over Dk; delta = (v_t - kv_mem) * beta_t; S + k_t (x) delta;
// the output row = contraction of the new S with the scaled q_t, inserted
// at t.
// CHECK-LABEL: func.func @gated_delta_net(
// CHECK-SAME:    %[[Q:[^:]+]]: tensor<2x7x3x5xf32>, %[[K:[^:]+]]: tensor<2x7x3x5xf32>, %[[V:[^:]+]]: tensor<2x7x3x4xf32>, %[[G:[^:]+]]: tensor<2x7x3xf32>, %[[B:[^:]+]]: tensor<2x7x3xf32>, %[[S:[^:]+]]: tensor<2x3x5x4xf32>
// CHECK:         %[[C7:.+]] = arith.constant 7 : index
// CHECK:         %[[SCALE:.+]] = arith.constant 0.44721359 : f32
// CHECK:         %[[QS:.+]] = linalg.generic {{.*}} ins(%[[Q]] : tensor<2x7x3x5xf32>)
// CHECK:           arith.mulf %{{.+}}, %[[SCALE]] : f32
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK:         %[[OUT0:.+]] = tensor.empty() : tensor<2x7x3x4xf32>
// CHECK:         %[[LOOP:.+]]:2 = scf.for %[[T:.+]] = %[[C0]] to %[[C7]] step %[[C1]] iter_args(%[[SI:.+]] = %[[S]], %[[OI:.+]] = %[[OUT0]]) -> (tensor<2x3x5x4xf32>, tensor<2x7x3x4xf32>) {
// CHECK:           %[[QT:.+]] = tensor.extract_slice %[[QS]][0, %[[T]], 0, 0] [2, 1, 3, 5] [1, 1, 1, 1] : tensor<2x7x3x5xf32> to tensor<2x3x5xf32>
// CHECK:           %[[KT:.+]] = tensor.extract_slice %[[K]][0, %[[T]], 0, 0] [2, 1, 3, 5] [1, 1, 1, 1] : tensor<2x7x3x5xf32> to tensor<2x3x5xf32>
// CHECK:           %[[VT:.+]] = tensor.extract_slice %[[V]][0, %[[T]], 0, 0] [2, 1, 3, 4] [1, 1, 1, 1] : tensor<2x7x3x4xf32> to tensor<2x3x4xf32>
// CHECK:           %[[GT:.+]] = tensor.extract_slice %[[G]][0, %[[T]], 0] [2, 1, 3] [1, 1, 1] : tensor<2x7x3xf32> to tensor<2x3xf32>
// CHECK:           %[[BT:.+]] = tensor.extract_slice %[[B]][0, %[[T]], 0] [2, 1, 3] [1, 1, 1] : tensor<2x7x3xf32> to tensor<2x3xf32>
// CHECK:           %[[DEC:.+]] = linalg.generic {{.*}} ins(%[[SI]], %[[GT]] : tensor<2x3x5x4xf32>, tensor<2x3xf32>)
// CHECK:             math.exp
// CHECK:             arith.mulf
// CHECK:           %[[MEM:.+]] = linalg.generic {{{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[DEC]], %[[KT]] : tensor<2x3x5x4xf32>, tensor<2x3x5xf32>)
// CHECK:           %[[DELTA:.+]] = linalg.generic {{.*}} ins(%[[VT]], %[[MEM]], %[[BT]] : tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3xf32>)
// CHECK:             arith.subf
// CHECK:             arith.mulf
// CHECK:           %[[NEW:.+]] = linalg.generic {{.*}} ins(%[[DEC]], %[[KT]], %[[DELTA]] : tensor<2x3x5x4xf32>, tensor<2x3x5xf32>, tensor<2x3x4xf32>)
// CHECK:             arith.mulf
// CHECK:             arith.addf
// CHECK:           %[[ROW:.+]] = linalg.generic {{{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[NEW]], %[[QT]] : tensor<2x3x5x4xf32>, tensor<2x3x5xf32>)
// CHECK:           %[[INS:.+]] = tensor.insert_slice %[[ROW]] into %[[OI]][0, %[[T]], 0, 0] [2, 1, 3, 4] [1, 1, 1, 1] : tensor<2x3x4xf32> into tensor<2x7x3x4xf32>
// CHECK:           scf.yield %[[NEW]], %[[INS]] : tensor<2x3x5x4xf32>, tensor<2x7x3x4xf32>
// CHECK:         return %[[LOOP]]#1, %[[LOOP]]#0 : tensor<2x7x3x4xf32>, tensor<2x3x5x4xf32>
func.func @gated_delta_net(%q: tensor<2x7x3x5xf32>, %k: tensor<2x7x3x5xf32>, %v: tensor<2x7x3x4xf32>,
                           %g: tensor<2x7x3xf32>, %b: tensor<2x7x3xf32>, %s: tensor<2x3x5x4xf32>)
    -> (tensor<2x7x3x4xf32>, tensor<2x3x5x4xf32>) {
  %o, %f = rlx.gated_delta_net %q, %k, %v, %g, %b, %s : tensor<2x7x3x5xf32>, tensor<2x7x3x5xf32>, tensor<2x7x3x4xf32>, tensor<2x7x3xf32>, tensor<2x7x3xf32>, tensor<2x3x5x4xf32>
  return %o, %f : tensor<2x7x3x4xf32>, tensor<2x3x5x4xf32>
}

// -----

// bf16 with dynamic dims: the operands are cast to the result types'
// shapes and to f32, the scale is rsqrt(Dk) from tensor.dim, and the
// results are truncated to bf16 after the loop.
// CHECK-LABEL: func.func @gated_delta_net_dynamic(
// CHECK-SAME:    %[[Q:[^:]+]]: tensor<?x?x?x?xbf16>
// CHECK:         %[[DKI:.+]] = arith.index_cast %{{.+}} : index to i64
// CHECK:         %[[DKF:.+]] = arith.sitofp %[[DKI]] : i64 to f32
// CHECK:         %[[SCALE:.+]] = math.rsqrt %[[DKF]] : f32
// CHECK:         %[[LOOP:.+]]:2 = scf.for {{.*}} -> (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>)
// CHECK:         %[[O:.+]] = linalg.generic {{.*}} ins(%[[LOOP]]#1 : tensor<?x?x?x?xf32>) outs(%{{.+}} : tensor<?x?x?x?xbf16>)
// CHECK:           arith.truncf
// CHECK:         %[[F:.+]] = linalg.generic {{.*}} ins(%[[LOOP]]#0 : tensor<?x?x?x?xf32>) outs(%{{.+}} : tensor<?x?x?x?xbf16>)
// CHECK:           arith.truncf
// CHECK:         return %[[O]], %[[F]] : tensor<?x?x?x?xbf16>, tensor<?x?x?x?xbf16>
func.func @gated_delta_net_dynamic(%q: tensor<?x?x?x?xbf16>, %k: tensor<?x?x?x?xbf16>, %v: tensor<?x?x?x?xbf16>,
                                   %g: tensor<?x?x?xbf16>, %b: tensor<?x?x?xbf16>, %s: tensor<?x?x?x?xbf16>)
    -> (tensor<?x?x?x?xbf16>, tensor<?x?x?x?xbf16>) {
  %o, %f = rlx.gated_delta_net %q, %k, %v, %g, %b, %s : tensor<?x?x?x?xbf16>, tensor<?x?x?x?xbf16>, tensor<?x?x?x?xbf16>, tensor<?x?x?xbf16>, tensor<?x?x?xbf16>, tensor<?x?x?x?xbf16>
  return %o, %f : tensor<?x?x?x?xbf16>, tensor<?x?x?x?xbf16>
}
