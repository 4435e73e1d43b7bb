// RUN: rlx-opt %s --rlx-dealloc-after-last-use --split-input-file | FileCheck %s

// Each buffer is freed after the last op that reads it, not at the end.
// CHECK-LABEL: func.func @straight_line
// CHECK:         %[[A:.*]] = memref.alloc() : memref<8xf32>
// CHECK:         linalg.copy ins(%arg0 : memref<8xf32>) outs(%[[A]]
// CHECK:         linalg.copy ins(%[[A]] : memref<8xf32>) outs(%arg1
// CHECK-NEXT:    memref.dealloc %[[A]]
// CHECK:         %[[B:.*]] = memref.alloc() : memref<8xf32>
// CHECK:         linalg.copy ins(%arg1 : memref<8xf32>) outs(%[[B]]
// CHECK-NEXT:    memref.dealloc %[[B]]
// CHECK-NEXT:    return
func.func @straight_line(%x: memref<8xf32>, %y: memref<8xf32>) {
  %a = memref.alloc() : memref<8xf32>
  linalg.copy ins(%x : memref<8xf32>) outs(%a : memref<8xf32>)
  linalg.copy ins(%a : memref<8xf32>) outs(%y : memref<8xf32>)
  %b = memref.alloc() : memref<8xf32>
  linalg.copy ins(%y : memref<8xf32>) outs(%b : memref<8xf32>)
  memref.dealloc %a : memref<8xf32>
  memref.dealloc %b : memref<8xf32>
  return
}

// -----

// A view and a pointer taken from the buffer are uses too: the buffer lives
// until the call that takes the pointer, and until the kernel that reads
// the view.
func.func private @library(index)
// CHECK-LABEL: func.func @through_views
// CHECK:         %[[A:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK:         %[[V:.*]] = memref.collapse_shape %[[A]]
// CHECK:         %[[P:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK:         scf.for
// CHECK:           memref.load %[[V]]
// CHECK:         call @library(%[[P]])
// CHECK-NEXT:    memref.dealloc %[[A]]
func.func @through_views(%y: memref<32xf32>) {
  %a = memref.alloc() : memref<4x8xf32>
  %v = memref.collapse_shape %a [[0, 1]] : memref<4x8xf32> into memref<32xf32>
  %p = memref.extract_aligned_pointer_as_index %a : memref<4x8xf32> -> index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  scf.for %i = %c0 to %c32 step %c1 {
    %e = memref.load %v[%i] : memref<32xf32>
    memref.store %e, %y[%i] : memref<32xf32>
  }
  call @library(%p) : (index) -> ()
  %b = memref.alloc() : memref<8xf32>
  memref.dealloc %b : memref<8xf32>
  memref.dealloc %a : memref<4x8xf32>
  return
}

// -----

// A loop that carries the buffer makes its result an alias: the buffer
// lives until that result's last use.
// CHECK-LABEL: func.func @loop_alias
// CHECK:         %[[A:.*]] = memref.alloc() : memref<8xf32>
// CHECK:         %[[R:.*]] = scf.for
// CHECK:         linalg.copy ins(%[[R]] : memref<8xf32>)
// CHECK-NEXT:    memref.dealloc %[[A]]
// CHECK-NEXT:    %[[B:.*]] = memref.alloc() : memref<8xf32>
// CHECK-NEXT:    memref.dealloc %[[B]]
// CHECK-NEXT:    return
func.func @loop_alias(%y: memref<8xf32>) {
  %a = memref.alloc() : memref<8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%m = %a) -> (memref<8xf32>) {
    scf.yield %m : memref<8xf32>
  }
  linalg.copy ins(%r : memref<8xf32>) outs(%y : memref<8xf32>)
  %b = memref.alloc() : memref<8xf32>
  memref.dealloc %b : memref<8xf32>
  memref.dealloc %a : memref<8xf32>
  return
}

// -----

// A buffer freed in another block than the one that allocates it stays as
// it is.
// CHECK-LABEL: func.func @other_block
// CHECK:         ^bb1:
// CHECK-NEXT:    memref.dealloc
func.func @other_block(%x: memref<8xf32>) {
  %a = memref.alloc() : memref<8xf32>
  linalg.copy ins(%x : memref<8xf32>) outs(%a : memref<8xf32>)
  cf.br ^bb1
^bb1:
  memref.dealloc %a : memref<8xf32>
  return
}

// -----

// Device buffers after kernel mapping: the gpu.dealloc follows the last
// kernel that captures the buffer.
// CHECK-LABEL: func.func @device_buffers
// CHECK:         %[[A:.*]] = gpu.alloc () : memref<8xf32>
// CHECK:         gpu.launch
// CHECK:         gpu.launch
// CHECK:           memref.load %[[A]]
// CHECK:         gpu.terminator
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.dealloc %[[A]]
// CHECK-NEXT:    %[[B:.*]] = gpu.alloc () : memref<8xf32>
func.func @device_buffers(%x: memref<8xf32>, %y: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = gpu.alloc () : memref<8xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%c0] : memref<8xf32>
    memref.store %v, %a[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%c0] : memref<8xf32>
    memref.store %v, %y[%c0] : memref<8xf32>
    gpu.terminator
  }
  %b = gpu.alloc () : memref<8xf32>
  gpu.dealloc %b : memref<8xf32>
  gpu.dealloc %a : memref<8xf32>
  return
}
