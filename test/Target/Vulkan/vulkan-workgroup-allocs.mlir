// RUN: rlx-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(rlx-vulkan-workgroup-allocs))' -verify-diagnostics | FileCheck %s

gpu.module @m {
  // The subgroups' partial values in a Workgroup allocation.
  // CHECK-LABEL: gpu.func @partials
  // CHECK-SAME: (%[[X:.+]]: memref<8xf32>, %[[I:.+]]: index) kernel
  // CHECK-NOT: workgroup(
  // CHECK: %[[W:.+]] = memref.alloc() : memref<8xf32, #spirv.storage_class<Workgroup>>
  // CHECK: %[[V:.+]] = memref.load %[[X]][%[[I]]]
  // CHECK: memref.store %[[V]], %[[W]][%[[I]]]
  // CHECK: memref.load %[[W]][%[[I]]]
  gpu.func @partials(%x: memref<8xf32>, %i: index) workgroup(%w : memref<8xf32, #gpu.address_space<workgroup>>) kernel {
    %v = memref.load %x[%i] : memref<8xf32>
    memref.store %v, %w[%i] : memref<8xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %u = memref.load %w[%i] : memref<8xf32, #gpu.address_space<workgroup>>
    memref.store %u, %x[%i] : memref<8xf32>
    gpu.return
  }
}

// -----

// A view of the buffer would carry its type further.
gpu.module @m {
  gpu.func @view(%i: index) workgroup(%w : memref<8xf32, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{'memref.subview' op uses a workgroup buffer otherwise than by loads and stores}}
    %s = memref.subview %w[0] [4] [1] : memref<8xf32, #gpu.address_space<workgroup>> to memref<4xf32, strided<[1]>, #gpu.address_space<workgroup>>
    gpu.return
  }
}
