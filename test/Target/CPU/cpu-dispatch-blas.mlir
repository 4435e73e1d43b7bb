// RUN: rlx-opt %s --rlx-cpu-dispatch-blas --split-input-file | FileCheck %s
// RUN: rlx-opt %s --rlx-cpu-dispatch-blas=float-gemms=false --split-input-file | FileCheck %s --check-prefix=INT8ONLY

// A 2-D f32 matmul on buffers becomes a call to rlx_cpu_sgemm on 2-D views
// of its operands (a subview each, cast to a fully dynamic strided layout),
// and the module gets one private declaration of the gemm with a C
// interface.
// CHECK:       func.func private @rlx_cpu_sgemm(memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>) attributes {llvm.emit_c_interface}
// CHECK-NOT:   rlx_cpu_dgemm
// CHECK-LABEL: func.func @sgemm(
// CHECK-SAME:    %[[A:[^:]+]]: memref<64x32xf32>, %[[B:[^:]+]]: memref<32x16xf32>, %[[C:[^:]+]]: memref<64x16xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         %[[VA:.+]] = memref.subview %[[A]][0, 0] [64, 32] [1, 1] : memref<64x32xf32> to memref<64x32xf32, strided<[32, 1]>>
// CHECK-NEXT:    %[[CA:.+]] = memref.cast %[[VA]] : memref<64x32xf32, strided<[32, 1]>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    %[[VB:.+]] = memref.subview %[[B]][0, 0] [32, 16] [1, 1] : memref<32x16xf32> to memref<32x16xf32, strided<[16, 1]>>
// CHECK-NEXT:    %[[CB:.+]] = memref.cast %[[VB]] : memref<32x16xf32, strided<[16, 1]>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    %[[VC:.+]] = memref.subview %[[C]][0, 0] [64, 16] [1, 1] : memref<64x16xf32> to memref<64x16xf32, strided<[16, 1]>>
// CHECK-NEXT:    %[[CC:.+]] = memref.cast %[[VC]] : memref<64x16xf32, strided<[16, 1]>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    call @rlx_cpu_sgemm(%[[CA]], %[[CB]], %[[CC]]) : (memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>) -> ()
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     scf.for
// CHECK:         return
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @sgemm(%A: memref<64x32xf32>, %B: memref<32x16xf32>, %C: memref<64x16xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<64x32xf32>, memref<32x16xf32>) outs(%C : memref<64x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// An f64 matmul (here with dynamic sizes, read with memref.dim) calls
// rlx_cpu_dgemm, declared for f64; no sgemm is declared.
// CHECK-NOT:   rlx_cpu_sgemm
// CHECK:       func.func private @rlx_cpu_dgemm(memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) attributes {llvm.emit_c_interface}
// CHECK-NOT:   rlx_cpu_sgemm
// CHECK-LABEL: func.func @dgemm(
// CHECK-SAME:    %[[A:[^:]+]]: memref<?x?xf64>, %[[B:[^:]+]]: memref<?x?xf64>, %[[C:[^:]+]]: memref<?x?xf64>)
// CHECK-NOT:     linalg.generic
// CHECK:         %[[VA:.+]] = memref.subview %[[A]][0, 0] [%{{.+}}, %{{.+}}] [1, 1] : memref<?x?xf64> to memref<?x?xf64, strided<[?, 1]>>
// CHECK:         %[[CA:.+]] = memref.cast %[[VA]] : memref<?x?xf64, strided<[?, 1]>> to memref<?x?xf64, strided<[?, ?], offset: ?>>
// CHECK:         %[[VB:.+]] = memref.subview %[[B]][0, 0]
// CHECK:         %[[CB:.+]] = memref.cast %[[VB]]
// CHECK:         %[[VC:.+]] = memref.subview %[[C]][0, 0]
// CHECK:         %[[CC:.+]] = memref.cast %[[VC]]
// CHECK:         call @rlx_cpu_dgemm(%[[CA]], %[[CB]], %[[CC]]) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
// CHECK-NOT:     linalg.generic
// CHECK:         return
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @dgemm(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %C: memref<?x?xf64>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<?x?xf64>, memref<?x?xf64>) outs(%C : memref<?x?xf64>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %p = arith.mulf %x, %y : f64
    %s = arith.addf %o, %p : f64
    linalg.yield %s : f64
  }
  return
}

// -----

// Two f32 matmuls and an f64 one in one module: one declaration per
// element type, each declared once (or reused when the module already
// declares it, as rlx_cpu_sgemm here).
// CHECK:       func.func private @rlx_cpu_dgemm(
// CHECK-NOT:   func.func private
// CHECK:       func.func private @rlx_cpu_sgemm(
// CHECK-NOT:   func.func private
// CHECK-LABEL: func.func @first(
// CHECK:         call @rlx_cpu_sgemm(
// CHECK-NOT:   func.func private
// CHECK-LABEL: func.func @second(
// CHECK:         call @rlx_cpu_sgemm(
// CHECK-NOT:   func.func private
// CHECK-LABEL: func.func @third(
// CHECK:         call @rlx_cpu_dgemm(
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func private @rlx_cpu_sgemm(memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>) attributes {llvm.emit_c_interface}
func.func @first(%A: memref<4x8xf32>, %B: memref<8x5xf32>, %C: memref<4x5xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<4x8xf32>, memref<8x5xf32>) outs(%C : memref<4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}
func.func @second(%A: memref<4x8xf32>, %B: memref<8x5xf32>, %C: memref<4x5xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<4x8xf32>, memref<8x5xf32>) outs(%C : memref<4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}
func.func @third(%A: memref<4x8xf64>, %B: memref<8x5xf64>, %C: memref<4x5xf64>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<4x8xf64>, memref<8x5xf64>) outs(%C : memref<4x5xf64>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %p = arith.mulf %x, %y : f64
    %s = arith.addf %o, %p : f64
    linalg.yield %s : f64
  }
  return
}

// -----

// A batched matmul: an scf.for over the batch dim around the call, each
// operand's view a rank-reducing subview at batch %i.
// CHECK-LABEL: func.func @batched(
// CHECK-SAME:    %[[A:[^:]+]]: memref<2x4x8xf32>, %[[B:[^:]+]]: memref<2x8x5xf32>, %[[C:[^:]+]]: memref<2x4x5xf32>)
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK:         scf.for %[[I:.+]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK-NEXT:      %[[VA:.+]] = memref.subview %[[A]][%[[I]], 0, 0] [1, 4, 8] [1, 1, 1] : memref<2x4x8xf32> to memref<4x8xf32, strided<[8, 1], offset: ?>>
// CHECK-NEXT:      %[[CA:.+]] = memref.cast %[[VA]]
// CHECK-NEXT:      %[[VB:.+]] = memref.subview %[[B]][%[[I]], 0, 0] [1, 8, 5] [1, 1, 1] : memref<2x8x5xf32> to memref<8x5xf32, strided<[5, 1], offset: ?>>
// CHECK-NEXT:      %[[CB:.+]] = memref.cast %[[VB]]
// CHECK-NEXT:      %[[VC:.+]] = memref.subview %[[C]][%[[I]], 0, 0] [1, 4, 5] [1, 1, 1] : memref<2x4x5xf32> to memref<4x5xf32, strided<[5, 1], offset: ?>>
// CHECK-NEXT:      %[[CC:.+]] = memref.cast %[[VC]]
// CHECK-NEXT:      call @rlx_cpu_sgemm(%[[CA]], %[[CB]], %[[CC]])
// CHECK-NEXT:    }
// CHECK-NOT:     linalg.generic
// CHECK:         return
#a = affine_map<(b, m, n, k) -> (b, m, k)>
#b = affine_map<(b, m, n, k) -> (b, k, n)>
#c = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @batched(%A: memref<2x4x8xf32>, %B: memref<2x8x5xf32>, %C: memref<2x4x5xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<2x4x8xf32>, memref<2x8x5xf32>) outs(%C : memref<2x4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A broadcast matmul (a batch of lhs against one rhs): the loop over the
// batch slices the lhs and the result; the rhs view is the same whole
// matrix every iteration.
// CHECK-LABEL: func.func @broadcast_rhs(
// CHECK-SAME:    %[[A:[^:]+]]: memref<2x4x8xf32>, %[[B:[^:]+]]: memref<8x5xf32>, %[[C:[^:]+]]: memref<2x4x5xf32>)
// CHECK:         scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:      %[[VA:.+]] = memref.subview %[[A]][%[[I]], 0, 0] [1, 4, 8] [1, 1, 1]
// CHECK-NEXT:      %[[CA:.+]] = memref.cast %[[VA]]
// CHECK-NEXT:      %[[VB:.+]] = memref.subview %[[B]][0, 0] [8, 5] [1, 1] : memref<8x5xf32> to memref<8x5xf32, strided<[5, 1]>>
// CHECK-NEXT:      %[[CB:.+]] = memref.cast %[[VB]]
// CHECK-NEXT:      %[[VC:.+]] = memref.subview %[[C]][%[[I]], 0, 0] [1, 4, 5] [1, 1, 1]
// CHECK-NEXT:      %[[CC:.+]] = memref.cast %[[VC]]
// CHECK-NEXT:      call @rlx_cpu_sgemm(%[[CA]], %[[CB]], %[[CC]])
// CHECK-NEXT:    }
// CHECK-NOT:     linalg.generic
#a = affine_map<(b, m, n, k) -> (b, m, k)>
#b = affine_map<(b, m, n, k) -> (k, n)>
#c = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @broadcast_rhs(%A: memref<2x4x8xf32>, %B: memref<8x5xf32>, %C: memref<2x4x5xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<2x4x8xf32>, memref<8x5xf32>) outs(%C : memref<2x4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A broadcast matmul whose rhs has a batch dim of size 1 (read through the
// constant 0, as convert-rlx-to-linalg lowers rlx.matmul of
// tensor<2x4x8xf32> and tensor<1x8x5xf32>): the loop over the batch reads
// the rhs at batch 0 every iteration.
// CHECK-LABEL: func.func @broadcast_unit_batch(
// CHECK-SAME:    %[[A:[^:]+]]: memref<2x4x8xf32>, %[[B:[^:]+]]: memref<1x8x5xf32>, %[[C:[^:]+]]: memref<2x4x5xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:           memref.subview %[[A]][%[[I]], 0, 0] [1, 4, 8] [1, 1, 1]
// CHECK:           memref.subview %[[B]][0, 0, 0] [1, 8, 5] [1, 1, 1] : memref<1x8x5xf32> to memref<8x5xf32
// CHECK:           memref.subview %[[C]][%[[I]], 0, 0] [1, 4, 5] [1, 1, 1]
// CHECK:           call @rlx_cpu_sgemm(
// CHECK:         }
// CHECK-NOT:     linalg.generic
#a = affine_map<(b, m, n, k) -> (b, m, k)>
#b = affine_map<(b, m, n, k) -> (0, k, n)>
#c = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @broadcast_unit_batch(%A: memref<2x4x8xf32>, %B: memref<1x8x5xf32>, %C: memref<2x4x5xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<2x4x8xf32>, memref<1x8x5xf32>) outs(%C : memref<2x4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Two m dims (a 3-D lhs against a 2-D rhs, no batch dim in the rhs): the
// innermost m dim is the gemm's, the outer one is looped over.
// CHECK-LABEL: func.func @two_m_dims(
// CHECK-SAME:    %[[A:[^:]+]]: memref<3x4x8xf32>, %[[B:[^:]+]]: memref<8x5xf32>, %[[C:[^:]+]]: memref<3x4x5xf32>)
// CHECK-DAG:     %[[C3:.+]] = arith.constant 3 : index
// CHECK:         scf.for %[[I:.+]] = %{{.+}} to %[[C3]] step %{{.+}} {
// CHECK-NEXT:      memref.subview %[[A]][%[[I]], 0, 0] [1, 4, 8] [1, 1, 1] : memref<3x4x8xf32> to memref<4x8xf32, strided<[8, 1], offset: ?>>
// CHECK:           memref.subview %[[B]][0, 0] [8, 5] [1, 1] : memref<8x5xf32> to memref<8x5xf32, strided<[5, 1]>>
// CHECK:           memref.subview %[[C]][%[[I]], 0, 0] [1, 4, 5] [1, 1, 1] : memref<3x4x5xf32> to memref<4x5xf32, strided<[5, 1], offset: ?>>
// CHECK:           call @rlx_cpu_sgemm(
// CHECK-NEXT:    }
#a = affine_map<(m1, m2, n, k) -> (m1, m2, k)>
#b = affine_map<(m1, m2, n, k) -> (k, n)>
#c = affine_map<(m1, m2, n, k) -> (m1, m2, n)>
func.func @two_m_dims(%A: memref<3x4x8xf32>, %B: memref<8x5xf32>, %C: memref<3x4x5xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<3x4x8xf32>, memref<8x5xf32>) outs(%C : memref<3x4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A transposed lhs (stored (k, m)): its view is transposed back to (m, k)
// with memref.transpose before the cast; the other operands are not.
// CHECK-LABEL: func.func @transposed_lhs(
// CHECK-SAME:    %[[A:[^:]+]]: memref<8x4xf32>, %[[B:[^:]+]]: memref<8x5xf32>, %[[C:[^:]+]]: memref<4x5xf32>)
// CHECK:         %[[VA:.+]] = memref.subview %[[A]][0, 0] [8, 4] [1, 1] : memref<8x4xf32> to memref<8x4xf32, strided<[4, 1]>>
// CHECK-NEXT:    %[[TA:.+]] = memref.transpose %[[VA]] (d0, d1) -> (d1, d0) : memref<8x4xf32, strided<[4, 1]>> to memref<4x8xf32, strided<[1, 4]>>
// CHECK-NEXT:    %[[CA:.+]] = memref.cast %[[TA]] : memref<4x8xf32, strided<[1, 4]>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK-NOT:     memref.transpose
// CHECK:         call @rlx_cpu_sgemm(%[[CA]], %{{.+}}, %{{.+}})
#a = affine_map<(m, n, k) -> (k, m)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @transposed_lhs(%A: memref<8x4xf32>, %B: memref<8x5xf32>, %C: memref<4x5xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<8x4xf32>, memref<8x5xf32>) outs(%C : memref<4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A transposed rhs (stored (n, k), as in x W^T): only its view is
// transposed.
// CHECK-LABEL: func.func @transposed_rhs(
// CHECK-SAME:    %[[A:[^:]+]]: memref<4x8xf32>, %[[B:[^:]+]]: memref<5x8xf32>, %[[C:[^:]+]]: memref<4x5xf32>)
// CHECK:         %[[CA:.+]] = memref.cast
// CHECK-NOT:     memref.transpose
// CHECK:         %[[VB:.+]] = memref.subview %[[B]][0, 0] [5, 8] [1, 1] : memref<5x8xf32> to memref<5x8xf32, strided<[8, 1]>>
// CHECK-NEXT:    %[[TB:.+]] = memref.transpose %[[VB]] (d0, d1) -> (d1, d0) : memref<5x8xf32, strided<[8, 1]>> to memref<8x5xf32, strided<[1, 8]>>
// CHECK-NEXT:    %[[CB:.+]] = memref.cast %[[TB]]
// CHECK-NOT:     memref.transpose
// CHECK:         call @rlx_cpu_sgemm(%[[CA]], %[[CB]], %{{.+}})
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @transposed_rhs(%A: memref<4x8xf32>, %B: memref<5x8xf32>, %C: memref<4x5xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<4x8xf32>, memref<5x8xf32>) outs(%C : memref<4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A transposed result (stored (n, m)), with the accumulation written
// p + out: the result's view is transposed.
// CHECK-LABEL: func.func @transposed_result(
// CHECK-SAME:    %[[A:[^:]+]]: memref<4x8xf32>, %[[B:[^:]+]]: memref<8x5xf32>, %[[C:[^:]+]]: memref<5x4xf32>)
// CHECK:         %[[VC:.+]] = memref.subview %[[C]][0, 0] [5, 4] [1, 1] : memref<5x4xf32> to memref<5x4xf32, strided<[4, 1]>>
// CHECK-NEXT:    %[[TC:.+]] = memref.transpose %[[VC]] (d0, d1) -> (d1, d0) : memref<5x4xf32, strided<[4, 1]>> to memref<4x5xf32, strided<[1, 4]>>
// CHECK-NEXT:    %[[CC:.+]] = memref.cast %[[TC]]
// CHECK-NEXT:    call @rlx_cpu_sgemm(%{{.+}}, %{{.+}}, %[[CC]])
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (n, m)>
func.func @transposed_result(%A: memref<4x8xf32>, %B: memref<8x5xf32>, %C: memref<5x4xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<4x8xf32>, memref<8x5xf32>) outs(%C : memref<5x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %o : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// An operand that is already a strided view keeps its strides and offset.
// CHECK-LABEL: func.func @strided_operand(
// CHECK-SAME:    %[[A:[^:]+]]: memref<4x8xf32, strided<[16, 1], offset: 3>>
// CHECK:         %[[VA:.+]] = memref.subview %[[A]][0, 0] [4, 8] [1, 1] : memref<4x8xf32, strided<[16, 1], offset: 3>> to memref<4x8xf32, strided<[16, 1], offset: 3>>
// CHECK-NEXT:    %[[CA:.+]] = memref.cast %[[VA]] : memref<4x8xf32, strided<[16, 1], offset: 3>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK:         call @rlx_cpu_sgemm(%[[CA]],
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @strided_operand(%A: memref<4x8xf32, strided<[16, 1], offset: 3>>, %B: memref<8x5xf32>, %C: memref<4x5xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<4x8xf32, strided<[16, 1], offset: 3>>, memref<8x5xf32>) outs(%C : memref<4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// An i32 matmul is left alone (no BLAS gemm for integers): no call, no
// declaration.
// CHECK-NOT:   rlx_cpu
// CHECK-LABEL: func.func @i32_matmul(
// CHECK-NOT:     call
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.+}}, %{{.+}} : memref<4x8xi32>, memref<8x5xi32>) outs(%{{.+}} : memref<4x5xi32>)
// CHECK:           arith.muli
// CHECK:           arith.addi
// CHECK-NOT:     rlx_cpu
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @i32_matmul(%A: memref<4x8xi32>, %B: memref<8x5xi32>, %C: memref<4x5xi32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<4x8xi32>, memref<8x5xi32>) outs(%C : memref<4x5xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %p = arith.muli %x, %y : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// Mixed element types (f16 operands accumulated in f32) are left alone.
// CHECK-NOT:   rlx_cpu
// CHECK-LABEL: func.func @mixed_types(
// CHECK-NOT:     call
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.+}}, %{{.+}} : memref<4x8xf16>, memref<8x5xf16>) outs(%{{.+}} : memref<4x5xf32>)
// CHECK-NOT:     rlx_cpu
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @mixed_types(%A: memref<4x8xf16>, %B: memref<8x5xf16>, %C: memref<4x5xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<4x8xf16>, memref<8x5xf16>) outs(%C : memref<4x5xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Likewise f32 operands accumulated into an f64 result.
// CHECK-NOT:   rlx_cpu
// CHECK-LABEL: func.func @f32_into_f64(
// CHECK-NOT:     call
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.+}}, %{{.+}} : memref<4x8xf32>, memref<8x5xf32>) outs(%{{.+}} : memref<4x5xf64>)
// CHECK-NOT:     rlx_cpu
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @f32_into_f64(%A: memref<4x8xf32>, %B: memref<8x5xf32>, %C: memref<4x5xf64>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<4x8xf32>, memref<8x5xf32>) outs(%C : memref<4x5xf64>) {
  ^bb0(%x: f32, %y: f32, %o: f64):
    %xe = arith.extf %x : f32 to f64
    %ye = arith.extf %y : f32 to f64
    %p = arith.mulf %xe, %ye : f64
    %s = arith.addf %o, %p : f64
    linalg.yield %s : f64
  }
  return
}

// -----

// A matmul on tensors (before bufferization) is left alone.
// CHECK-NOT:   rlx_cpu
// CHECK-LABEL: func.func @tensor_matmul(
// CHECK-NOT:     call
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      ins(%{{.+}}, %{{.+}} : tensor<4x8xf32>, tensor<8x5xf32>) outs(%{{.+}} : tensor<4x5xf32>)
// CHECK:         return %[[R]]
// CHECK-NOT:     rlx_cpu
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @tensor_matmul(%A: tensor<4x8xf32>, %B: tensor<8x5xf32>, %C: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : tensor<4x8xf32>, tensor<8x5xf32>) outs(%C : tensor<4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}

// -----

// A generic with matmul maps but a max-plus body (add, then max) is not a
// contraction: left alone.
// CHECK-NOT:   rlx_cpu
// CHECK-LABEL: func.func @max_plus(
// CHECK-NOT:     call
// CHECK:         linalg.generic
// CHECK:           arith.addf
// CHECK:           arith.maximumf
// CHECK-NOT:     rlx_cpu
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @max_plus(%A: memref<4x8xf32>, %B: memref<8x5xf32>, %C: memref<4x5xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<4x8xf32>, memref<8x5xf32>) outs(%C : memref<4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.addf %x, %y : f32
    %s = arith.maximumf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// An elementwise product on buffers (no reduction) is not a contraction.
// CHECK-NOT:   rlx_cpu
// CHECK-LABEL: func.func @elementwise(
// CHECK-NOT:     call
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-NOT:     rlx_cpu
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @elementwise(%A: memref<4x8xf32>, %B: memref<4x8xf32>, %C: memref<4x8xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A, %B : memref<4x8xf32>, memref<4x8xf32>) outs(%C : memref<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    linalg.yield %p : f32
  }
  return
}

// -----

// A contraction over two k dims (no single k for the gemm) is left alone.
// CHECK-NOT:   rlx_cpu
// CHECK-LABEL: func.func @two_k_dims(
// CHECK-NOT:     call
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK-NOT:     rlx_cpu
#a = affine_map<(m, n, k1, k2) -> (m, k1, k2)>
#b = affine_map<(m, n, k1, k2) -> (k1, k2, n)>
#c = affine_map<(m, n, k1, k2) -> (m, n)>
func.func @two_k_dims(%A: memref<4x2x8xf32>, %B: memref<2x8x5xf32>, %C: memref<4x5xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%A, %B : memref<4x2x8xf32>, memref<2x8x5xf32>) outs(%C : memref<4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A matrix-vector product has no n dim: left alone.
// CHECK-NOT:   rlx_cpu
// CHECK-LABEL: func.func @matvec(
// CHECK-NOT:     call
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.+}}, %{{.+}} : memref<4x8xf32>, memref<8xf32>) outs(%{{.+}} : memref<4xf32>)
// CHECK-NOT:     rlx_cpu
#a = affine_map<(m, k) -> (m, k)>
#b = affine_map<(m, k) -> (k)>
#c = affine_map<(m, k) -> (m)>
func.func @matvec(%A: memref<4x8xf32>, %B: memref<8xf32>, %C: memref<4xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction"]}
      ins(%A, %B : memref<4x8xf32>, memref<8xf32>) outs(%C : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Grouped-query heads read through h floordiv 4 are not a plain map: left
// alone.
// CHECK-NOT:   rlx_cpu
// CHECK-LABEL: func.func @grouped_heads(
// CHECK-NOT:     call
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.+}}, %{{.+}} : memref<2x8x4x16xf32>, memref<2x2x16x5xf32>)
// CHECK-NOT:     rlx_cpu
#a = affine_map<(b, h, m, n, k) -> (b, h, m, k)>
#b = affine_map<(b, h, m, n, k) -> (b, h floordiv 4, k, n)>
#c = affine_map<(b, h, m, n, k) -> (b, h, m, n)>
func.func @grouped_heads(%A: memref<2x8x4x16xf32>, %B: memref<2x2x16x5xf32>, %C: memref<2x8x4x5xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<2x8x4x16xf32>, memref<2x2x16x5xf32>) outs(%C : memref<2x8x4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Named linalg ops are not linalg.generic: a linalg.matmul is left alone.
// CHECK-NOT:   rlx_cpu
// CHECK-LABEL: func.func @named_matmul(
// CHECK-NOT:     call
// CHECK:         linalg.matmul
// CHECK-NOT:     rlx_cpu
func.func @named_matmul(%A: memref<4x8xf32>, %B: memref<8x5xf32>, %C: memref<4x5xf32>) {
  linalg.matmul ins(%A, %B : memref<4x8xf32>, memref<8x5xf32>) outs(%C : memref<4x5xf32>)
  return
}

// -----

// An int8 contraction summed in i32 (rlx.int8_matmul's lowering) calls
// rlx_cpu_gemm_s8 on i8 and i32 views, with float gemms dispatched or not.
// CHECK-LABEL: func.func private @rlx_cpu_gemm_s8(memref<?x?xi8, strided<[?, ?], offset: ?>>, memref<?x?xi8, strided<[?, ?], offset: ?>>, memref<?x?xi32, strided<[?, ?], offset: ?>>)
// CHECK-LABEL: func.func @int8(
// CHECK:         call @rlx_cpu_gemm_s8(
// CHECK-NOT:     linalg.generic
// INT8ONLY-LABEL: func.func @int8(
// INT8ONLY:         call @rlx_cpu_gemm_s8(
#a8 = affine_map<(m, n, k) -> (m, k)>
#b8 = affine_map<(m, n, k) -> (k, n)>
#c8 = affine_map<(m, n, k) -> (m, n)>
func.func @int8(%A: memref<4x8xi8>, %B: memref<8x5xi8>, %C: memref<4x5xi32>) {
  linalg.generic {indexing_maps = [#a8, #b8, #c8], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<4x8xi8>, memref<8x5xi8>) outs(%C : memref<4x5xi32>) {
  ^bb0(%x: i8, %y: i8, %o: i32):
    %xw = arith.extsi %x : i8 to i32
    %yw = arith.extsi %y : i8 to i32
    %p = arith.muli %xw, %yw : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// With float-gemms=false an f32 contraction stays a linalg.generic.
// INT8ONLY-LABEL: func.func @float_left(
// INT8ONLY-NOT:     call
// INT8ONLY:         linalg.generic
#af = affine_map<(m, n, k) -> (m, k)>
#bf = affine_map<(m, n, k) -> (k, n)>
#cf = affine_map<(m, n, k) -> (m, n)>
func.func @float_left(%A: memref<4x8xf32>, %B: memref<8x5xf32>, %C: memref<4x5xf32>) {
  linalg.generic {indexing_maps = [#af, #bf, #cf], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<4x8xf32>, memref<8x5xf32>) outs(%C : memref<4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// An int8 contraction whose B is a constant global calls
// rlx_cpu_gemm_s8_constant_b with a slot of its own (a mutable i64 global,
// zero at first), also when B is a view of the constant; one slot per call
// site. A mutable global's B, and a constant B whose view moves with the
// batch loop, call rlx_cpu_gemm_s8.
// CHECK-DAG:   memref.global "private" @rlx_gemm_s8_slot : memref<1xi64> = dense<0>
// CHECK-DAG:   memref.global "private" @rlx_gemm_s8_slot_0 : memref<1xi64> = dense<0>
// CHECK-DAG:   func.func private @rlx_cpu_gemm_s8_constant_b(memref<?x?xi8, strided<[?, ?], offset: ?>>, memref<?x?xi8, strided<[?, ?], offset: ?>>, memref<?x?xi32, strided<[?, ?], offset: ?>>, memref<1xi64>) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @int8_constant_b(
// CHECK:         %[[S0:.+]] = memref.get_global @rlx_gemm_s8_slot : memref<1xi64>
// CHECK:         call @rlx_cpu_gemm_s8_constant_b({{.*}}, %[[S0]])
// CHECK:         %[[S1:.+]] = memref.get_global @rlx_gemm_s8_slot_0 : memref<1xi64>
// CHECK:         call @rlx_cpu_gemm_s8_constant_b({{.*}}, %[[S1]])
// CHECK:         call @rlx_cpu_gemm_s8({{[^,]*}}, {{[^,]*}}, {{[^,]*}}) :
// CHECK:         scf.for
// CHECK:           call @rlx_cpu_gemm_s8({{[^,]*}}, {{[^,]*}}, {{[^,]*}}) :
memref.global "private" constant @w : memref<8x5xi8> = dense<1>
memref.global "private" constant @wt : memref<5x8xi8> = dense<2>
memref.global "private" @mutable : memref<8x5xi8> = dense<3>
memref.global "private" constant @batched : memref<2x8x5xi8> = dense<4>
#a8 = affine_map<(m, n, k) -> (m, k)>
#b8 = affine_map<(m, n, k) -> (k, n)>
#c8 = affine_map<(m, n, k) -> (m, n)>
#ba = affine_map<(b, m, n, k) -> (b, m, k)>
#bb = affine_map<(b, m, n, k) -> (b, k, n)>
#bc = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @int8_constant_b(%A: memref<4x8xi8>, %C: memref<4x5xi32>, %BA: memref<2x4x8xi8>, %BC: memref<2x4x5xi32>) {
  %w = memref.get_global @w : memref<8x5xi8>
  linalg.generic {indexing_maps = [#a8, #b8, #c8], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %w : memref<4x8xi8>, memref<8x5xi8>) outs(%C : memref<4x5xi32>) {
  ^bb0(%x: i8, %y: i8, %o: i32):
    %xw = arith.extsi %x : i8 to i32
    %yw = arith.extsi %y : i8 to i32
    %p = arith.muli %xw, %yw : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  }
  %wt = memref.get_global @wt : memref<5x8xi8>
  %t = memref.transpose %wt (i, j) -> (j, i) : memref<5x8xi8> to memref<8x5xi8, strided<[1, 8]>>
  linalg.generic {indexing_maps = [#a8, #b8, #c8], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %t : memref<4x8xi8>, memref<8x5xi8, strided<[1, 8]>>) outs(%C : memref<4x5xi32>) {
  ^bb0(%x: i8, %y: i8, %o: i32):
    %xw = arith.extsi %x : i8 to i32
    %yw = arith.extsi %y : i8 to i32
    %p = arith.muli %xw, %yw : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  }
  %m = memref.get_global @mutable : memref<8x5xi8>
  linalg.generic {indexing_maps = [#a8, #b8, #c8], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %m : memref<4x8xi8>, memref<8x5xi8>) outs(%C : memref<4x5xi32>) {
  ^bb0(%x: i8, %y: i8, %o: i32):
    %xw = arith.extsi %x : i8 to i32
    %yw = arith.extsi %y : i8 to i32
    %p = arith.muli %xw, %yw : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  }
  %bw = memref.get_global @batched : memref<2x8x5xi8>
  linalg.generic {indexing_maps = [#ba, #bb, #bc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%BA, %bw : memref<2x4x8xi8>, memref<2x8x5xi8>) outs(%BC : memref<2x4x5xi32>) {
  ^bb0(%x: i8, %y: i8, %o: i32):
    %xw = arith.extsi %x : i8 to i32
    %yw = arith.extsi %y : i8 to i32
    %p = arith.muli %xw, %yw : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  }
  return
}
