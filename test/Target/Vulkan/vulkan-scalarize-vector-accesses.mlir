// RUN: rlx-opt %s --pass-pipeline='builtin.module(gpu.module(rlx-vulkan-scalarize-vector-accesses))' | FileCheck %s

gpu.module @m {
  // A 4-lane load and store become one scalar access per lane at
  // consecutive innermost indices (the lanes' vector folds away between
  // them).
  // CHECK-LABEL: gpu.func @row
  // CHECK-SAME: (%[[X:.+]]: memref<4x16xf32>, %[[I:.+]]: index, %[[J:.+]]: index)
  // CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
  // CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
  // CHECK: %[[A:.+]] = memref.load %[[X]][%[[I]], %[[J]]]
  // CHECK: %[[J1:.+]] = arith.addi %[[J]], %[[C1]]
  // CHECK: memref.load %[[X]][%[[I]], %[[J1]]]
  // CHECK: %[[J3:.+]] = arith.addi %[[J]], %[[C3]]
  // CHECK: %[[D:.+]] = memref.load %[[X]][%[[I]], %[[J3]]]
  // CHECK: memref.store %[[A]], %[[X]][%[[I]], %[[J]]]
  // CHECK: %[[K3:.+]] = arith.addi %[[J]], %[[C3]]
  // CHECK: memref.store %[[D]], %[[X]][%[[I]], %[[K3]]]
  // CHECK-NOT: vector.
  gpu.func @row(%x: memref<4x16xf32>, %i: index, %j: index) kernel {
    %v = vector.load %x[%i, %j] : memref<4x16xf32>, vector<4xf32>
    vector.store %v, %x[%i, %j] : memref<4x16xf32>, vector<4xf32>
    gpu.return
  }
}
