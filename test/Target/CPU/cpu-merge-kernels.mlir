// RUN: rlx-opt %s --rlx-cpu-merge-kernels --split-input-file | FileCheck %s

// Two kernels with the same body but for their names merge into the first;
// one that differs in a constant stays, and so do public functions and
// declarations.
// CHECK-LABEL: func.func private @k0
// CHECK-NOT: func.func private @k1(
// CHECK-LABEL: func.func private @k2
// CHECK: arith.constant 3.000000e+00
// CHECK-LABEL: func.func @entry
// CHECK: call @k0(%arg0)
// CHECK: call @k0(%arg1)
// CHECK: call @k2(%arg0)
// CHECK: call @ext(%arg1)
// CHECK-LABEL: func.func @public_twin
// CHECK: func.func private @ext
func.func private @k0(%a: memref<4xf32>) attributes {passthrough = ["noinline"]} {
  %c = arith.constant 2.0 : f32
  %i = arith.constant 0 : index
  memref.store %c, %a[%i] : memref<4xf32>
  return
}
func.func private @k1(%b: memref<4xf32>) attributes {passthrough = ["noinline"]} {
  %c = arith.constant 2.0 : f32
  %i = arith.constant 0 : index
  memref.store %c, %b[%i] : memref<4xf32>
  return
}
func.func private @k2(%a: memref<4xf32>) attributes {passthrough = ["noinline"]} {
  %c = arith.constant 3.0 : f32
  %i = arith.constant 0 : index
  memref.store %c, %a[%i] : memref<4xf32>
  return
}
func.func @entry(%x: memref<4xf32>, %y: memref<4xf32>) {
  call @k0(%x) : (memref<4xf32>) -> ()
  call @k1(%y) : (memref<4xf32>) -> ()
  call @k2(%x) : (memref<4xf32>) -> ()
  call @ext(%y) : (memref<4xf32>) -> ()
  return
}
func.func @public_twin(%a: memref<4xf32>) attributes {passthrough = ["noinline"]} {
  %c = arith.constant 2.0 : f32
  %i = arith.constant 0 : index
  memref.store %c, %a[%i] : memref<4xf32>
  return
}
func.func private @ext(%a: memref<4xf32>)

// -----

// Same ops, different attributes on the functions: not merged.
// CHECK-LABEL: func.func private @inline0
// CHECK-LABEL: func.func private @inline1
func.func private @inline0(%a: memref<4xf32>) attributes {passthrough = ["noinline"]} {
  return
}
func.func private @inline1(%a: memref<4xf32>) {
  return
}
func.func @calls(%x: memref<4xf32>) {
  call @inline0(%x) : (memref<4xf32>) -> ()
  call @inline1(%x) : (memref<4xf32>) -> ()
  return
}

// -----

// The same ops on the arguments in another order: not the same function.
// CHECK-LABEL: func.func private @forward
// CHECK-LABEL: func.func private @backward
// CHECK: call @forward
// CHECK: call @backward
func.func private @forward(%a: memref<4xf32>, %b: memref<4xf32>) {
  %i = arith.constant 0 : index
  %v = memref.load %a[%i] : memref<4xf32>
  memref.store %v, %b[%i] : memref<4xf32>
  return
}
func.func private @backward(%a: memref<4xf32>, %b: memref<4xf32>) {
  %i = arith.constant 0 : index
  %v = memref.load %b[%i] : memref<4xf32>
  memref.store %v, %a[%i] : memref<4xf32>
  return
}
func.func @copies(%x: memref<4xf32>, %y: memref<4xf32>) {
  call @forward(%x, %y) : (memref<4xf32>, memref<4xf32>) -> ()
  call @backward(%x, %y) : (memref<4xf32>, memref<4xf32>) -> ()
  return
}
