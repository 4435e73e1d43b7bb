// RUN: rlx-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(rlx-vulkan-constant-arrays{max-elements=4}))' | FileCheck %s

// A small constant table is built in Function memory at the kernel's
// entry, one store per element; the global goes.
// CHECK-LABEL: gpu.module @small
// CHECK-NOT: memref.global
// CHECK: gpu.func @k
// CHECK: %[[T:.+]] = memref.alloca() : memref<2x2xf32, #spirv.storage_class<Function>>
// CHECK: %[[V0:.+]] = arith.constant 1.000000e+00 : f32
// CHECK: memref.store %[[V0]], %[[T]]
// CHECK: %[[V3:.+]] = arith.constant 4.000000e+00 : f32
// CHECK: memref.store %[[V3]], %[[T]]
// CHECK: memref.load %[[T]]
gpu.module @small {
  memref.global "private" constant @table : memref<2x2xf32> = dense<[[1.0, 2.0], [3.0, 4.0]]>
  gpu.func @k(%x: memref<2x2xf32>, %i: index) kernel {
    %t = memref.get_global @table : memref<2x2xf32>
    %v = memref.load %t[%i, %i] : memref<2x2xf32>
    memref.store %v, %x[%i, %i] : memref<2x2xf32>
    gpu.return
  }
}

// -----

// Past max-elements the read stays, for rlx-vulkan-kernel-abi to diagnose.
// CHECK-LABEL: gpu.module @large
// CHECK: memref.global "private" constant @table
// CHECK: memref.get_global @table
gpu.module @large {
  memref.global "private" constant @table : memref<5xf32> = dense<[1.0, 2.0, 3.0, 4.0, 5.0]>
  gpu.func @k(%x: memref<5xf32>, %i: index) kernel {
    %t = memref.get_global @table : memref<5xf32>
    %v = memref.load %t[%i] : memref<5xf32>
    memref.store %v, %x[%i] : memref<5xf32>
    gpu.return
  }
}
