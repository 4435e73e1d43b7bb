// RUN: rlx-opt %s --pass-pipeline='builtin.module(gpu.module(rlx-vulkan-guard-empty-loops))' | FileCheck %s

gpu.module @m {
  // A lane's strided loop over a row may run no iteration: its result is
  // the init then, on an explicit path.
  // CHECK-LABEL: gpu.func @lane_max
  // CHECK-SAME: (%[[X:.+]]: memref<5xf32>, %[[OUT:.+]]: memref<8xf32>, %[[TID:.+]]: index)
  // CHECK: %[[INIT:.+]] = arith.constant 0xFF800000 : f32
  // CHECK: %[[NONEMPTY:.+]] = arith.cmpi slt, %[[TID]], %{{.+}} : index
  // CHECK: %[[R:.+]] = scf.if %[[NONEMPTY]] -> (f32) {
  // CHECK:   %[[L:.+]] = scf.for {{.+}} iter_args(%{{.+}} = %[[INIT]]) -> (f32) {
  // CHECK:   scf.yield %[[L]] : f32
  // CHECK: } else {
  // CHECK:   scf.yield %[[INIT]] : f32
  // CHECK: memref.store %[[R]], %[[OUT]]
  gpu.func @lane_max(%x: memref<5xf32>, %out: memref<8xf32>, %tid: index) kernel {
    %c5 = arith.constant 5 : index
    %c8 = arith.constant 8 : index
    %init = arith.constant 0xFF800000 : f32
    %m = scf.for %i = %tid to %c5 step %c8 iter_args(%a = %init) -> (f32) {
      %v = memref.load %x[%i] : memref<5xf32>
      %n = arith.maximumf %a, %v : f32
      scf.yield %n : f32
    }
    memref.store %m, %out[%tid] : memref<8xf32>
    gpu.return
  }

  // Constant bounds with lb < ub run at least once: no guard.
  // CHECK-LABEL: gpu.func @constant_bounds
  // CHECK-NOT: scf.if
  // CHECK: scf.for
  gpu.func @constant_bounds(%x: memref<4xf32>, %out: memref<1xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %zero) -> (f32) {
      %v = memref.load %x[%i] : memref<4xf32>
      %n = arith.addf %a, %v : f32
      scf.yield %n : f32
    }
    memref.store %s, %out[%c0] : memref<1xf32>
    gpu.return
  }
}
