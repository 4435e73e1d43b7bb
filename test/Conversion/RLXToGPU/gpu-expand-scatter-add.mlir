// RUN: rlx-opt %s --split-input-file --rlx-gpu-expand-scatter-add="block-size=64" | FileCheck %s

// The call becomes a copy of the base into the caller's out-parameter
// (the temporary and its copy go) and one launch of a thread per update
// element (4 x 30 x 8 = 960: 15 blocks of 64) that adds it at its index
// along axis 1, skipping indices outside [0, 50); the tagged function goes.
// CHECK-LABEL: func.func @rows(
// CHECK-SAME:    %[[B:[^:]+]]: memref<4x50x8xf32>, %[[I:[^:]+]]: memref<30xi64>, %[[U:[^:]+]]: memref<4x30x8xf32>, %[[OUT:[^:]+]]: memref<4x50x8xf32>
// CHECK-NOT:     memref.alloc
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[B]] : memref<4x50x8xf32>) outs(%[[OUT]] : memref<4x50x8xf32>)
// CHECK-DAG:     %[[C15:.+]] = arith.constant 15 : index
// CHECK-DAG:     %[[C64:.+]] = arith.constant 64 : index
// CHECK:         gpu.launch blocks(%[[BX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C15]], {{.+}} threads(%[[TX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C64]],
// CHECK:           arith.cmpi ult, %{{.+}}, %{{.+}} : index
// CHECK:           scf.if
// CHECK:             arith.remui
// CHECK:             %[[ROW:.+]] = memref.load %[[I]][%{{.+}}] : memref<30xi64>
// CHECK:             %[[R:.+]] = arith.index_cast %[[ROW]] : i64 to index
// CHECK:             %[[C50:.+]] = arith.constant 50 : index
// CHECK:             %[[OK:.+]] = arith.cmpi ult, %[[R]], %[[C50]] : index
// CHECK:             scf.if %[[OK]]
// CHECK:               %[[V:.+]] = memref.load %[[U]]
// CHECK:               memref.atomic_rmw addf %[[V]], %[[OUT]][%{{.+}}, %[[R]], %{{.+}}] : (f32, memref<4x50x8xf32>) -> f32
// CHECK-NOT:     memref.copy
// CHECK-NOT:     call
// CHECK:         return
// CHECK-NOT:     rlx.gpu_scatter_add
func.func private @scatter_add(%b: memref<4x50x8xf32>, %i: memref<30xi64>, %u: memref<4x30x8xf32>, %o: memref<4x50x8xf32>) attributes {rlx.gpu_scatter_add = {axis = 1 : i64}} {
  memref.copy %b, %o : memref<4x50x8xf32> to memref<4x50x8xf32>
  return
}
func.func @rows(%b: memref<4x50x8xf32>, %i: memref<30xi64>, %u: memref<4x30x8xf32>, %out: memref<4x50x8xf32>) {
  %t = memref.alloc() : memref<4x50x8xf32>
  call @scatter_add(%b, %i, %u, %t) : (memref<4x50x8xf32>, memref<30xi64>, memref<4x30x8xf32>, memref<4x50x8xf32>) -> ()
  memref.copy %t, %out : memref<4x50x8xf32> to memref<4x50x8xf32>
  memref.dealloc %t : memref<4x50x8xf32>
  return
}

// -----

// Integers add with addi. A result read again after the call keeps its
// buffer (no copy to elide); fewer updates than a block: one block of 3.
// CHECK-LABEL: func.func @ints(
// CHECK:         %[[T:.+]] = memref.alloc() : memref<10xi32>
// CHECK:         linalg.generic
// CHECK-SAME:      outs(%[[T]] : memref<10xi32>)
// CHECK-DAG:     %[[C3:.+]] = arith.constant 3 : index
// CHECK:         gpu.launch {{.+}} threads({{.+}}) in (%{{.+}} = %[[C3]],
// CHECK:           memref.atomic_rmw addi %{{.+}}, %[[T]][%{{.+}}] : (i32, memref<10xi32>) -> i32
// CHECK:         memref.copy %[[T]]
func.func private @scatter_add(%b: memref<10xi32>, %i: memref<3xi64>, %u: memref<3xi32>, %o: memref<10xi32>) attributes {rlx.gpu_scatter_add = {axis = 0 : i64}} {
  return
}
func.func @ints(%b: memref<10xi32>, %i: memref<3xi64>, %u: memref<3xi32>, %out: memref<10xi32>, %again: memref<10xi32>) {
  %t = memref.alloc() : memref<10xi32>
  call @scatter_add(%b, %i, %u, %t) : (memref<10xi32>, memref<3xi64>, memref<3xi32>, memref<10xi32>) -> ()
  memref.copy %t, %out : memref<10xi32> to memref<10xi32>
  memref.copy %t, %again : memref<10xi32> to memref<10xi32>
  return
}
