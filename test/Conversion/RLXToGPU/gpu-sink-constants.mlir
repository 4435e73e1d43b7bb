// RUN: rlx-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(rlx-gpu-sink-constants))" -verify-diagnostics | FileCheck %s

// A kernel reading a constant buffer gets its own handle of the global
// (kernel outlining then copies the global into the kernel's module); the
// host handle goes.
// CHECK-LABEL: func.func @one_kernel(
// CHECK-NOT:     memref.get_global
// CHECK:         gpu.launch
// CHECK:           %[[C:.*]] = memref.get_global @table : memref<8xf32>
// CHECK:           memref.load %[[C]]
memref.global "private" constant @table : memref<8xf32> = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]>
func.func @one_kernel(%y: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %t = memref.get_global @table : memref<8xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %v = memref.load %t[%tx] : memref<8xf32>
    memref.store %v, %y[%tx] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// A view of a constant (with the index constants it takes) moves in with
// the handle; two kernels reading one global each get their own.
// CHECK-LABEL: func.func @views_and_two_kernels(
// CHECK-NOT:     memref.get_global
// CHECK-NOT:     memref.subview
// CHECK:         gpu.launch
// CHECK:           %[[C:.*]] = memref.get_global @table : memref<4x8xf32>
// CHECK:           %[[V:.*]] = memref.subview %[[C]][1, 0] [1, 8] [1, 1]
// CHECK:           memref.load %[[V]]
// CHECK:         gpu.launch
// CHECK:           %[[C2:.*]] = memref.get_global @table : memref<4x8xf32>
// CHECK:           memref.load %[[C2]]
memref.global "private" constant @table : memref<4x8xf32> = dense<2.0>
func.func @views_and_two_kernels(%y: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %t = memref.get_global @table : memref<4x8xf32>
  %row = memref.subview %t[1, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: 8>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %v = memref.load %row[%tx] : memref<8xf32, strided<[1], offset: 8>>
    memref.store %v, %y[%tx] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %v = memref.load %t[%c0, %tx] : memref<4x8xf32>
    memref.store %v, %y[%tx] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// Host code reading a constant (here a call, as a runtime library call
// would) has no device copy to read.
memref.global "private" constant @weights : memref<8xf32> = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]>
func.func private @library(memref<8xf32>)
func.func @host_reads(%y: memref<8xf32>) {
  %w = memref.get_global @weights : memref<8xf32>
  // expected-error @below {{rlx-gpu-sink-constants: host code reads constant @weights, which lives in host memory (generated kernels read constants from their module)}}
  call @library(%w) : (memref<8xf32>) -> ()
  return
}

// -----

// Taking a constant's host address (rlx-gpu-call-runtime-kernels does, for
// rlxGpuConstant's device copy) reads nothing: the handle stays.
// CHECK-LABEL: func.func @host_address(
// CHECK:         %[[W:.*]] = memref.get_global @weights
// CHECK-NEXT:    memref.extract_aligned_pointer_as_index %[[W]]
memref.global "private" constant @weights : memref<8xf32> = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]>
func.func @host_address() -> index {
  %w = memref.get_global @weights : memref<8xf32>
  %p = memref.extract_aligned_pointer_as_index %w : memref<8xf32> -> index
  return %p : index
}

// -----

// A global that is not constant stays in host memory: a kernel cannot
// read it.
memref.global "private" @state : memref<8xf32> = dense<0.0>
func.func @mutable_global(%y: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %s = memref.get_global @state : memref<8xf32>
  // expected-error @below {{rlx-gpu-sink-constants: a kernel reads global @state, which is not constant and lives in host memory}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %v = memref.load %s[%tx] : memref<8xf32>
    memref.store %v, %y[%tx] : memref<8xf32>
    gpu.terminator
  }
  return
}
