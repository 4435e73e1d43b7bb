// RUN: rlx-opt %s --rlx-cpu-outline-kernels --split-input-file | FileCheck %s

// Each outermost kernel (a loop nest, a linalg op on buffers) becomes a
// private function that LLVM may not inline, called where it was; the
// function left is glue, compiled unoptimized. The constant the loop reads
// is cloned into its kernel, the stack buffer only the loop uses moves in
// with it, and the buffer both kernels use is passed to each.
// CHECK-LABEL: func.func private @two_kernels_kernel0(
// CHECK-SAME:    %[[BUF:[^:]+]]: memref<4x8xf32>) attributes {passthrough = ["noinline"]} {
// CHECK:         %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         linalg.fill ins(%[[ZERO]] : f32) outs(%[[BUF]] : memref<4x8xf32>)
// CHECK:         return
// CHECK-LABEL: func.func private @two_kernels_kernel1(
// CHECK-SAME:    %[[X:[^:]+]]: memref<4x8xf32>, %[[OUT:[^:]+]]: memref<4x8xf32>) attributes {passthrough = ["noinline"]} {
// CHECK-DAG:     %[[TWO:.+]] = arith.constant 2.000000e+00 : f32
// CHECK-DAG:     %[[TMP:.+]] = memref.alloca() : memref<8xf32>
// CHECK:         scf.for
// CHECK:           arith.mulf %{{.+}}, %[[TWO]] : f32
// CHECK:           memref.store %{{.+}}, %[[TMP]]
// CHECK:           memref.load %[[TMP]]
// CHECK:         return
// CHECK-LABEL: func.func @two_kernels(
// CHECK-SAME:    %[[X:[^:]+]]: memref<4x8xf32>) -> memref<4x8xf32> attributes {passthrough = ["noinline", "optnone"]} {
// CHECK-NOT:     memref.alloca
// CHECK:         %[[OUT:.+]] = memref.alloc() : memref<4x8xf32>
// CHECK-NEXT:    call @two_kernels_kernel0(%[[OUT]]) : (memref<4x8xf32>) -> ()
// CHECK-NEXT:    call @two_kernels_kernel1(%[[X]], %[[OUT]]) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
// CHECK-NEXT:    return %[[OUT]]
func.func @two_kernels(%x: memref<4x8xf32>) -> memref<4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %tmp = memref.alloca() : memref<8xf32>
  %out = memref.alloc() : memref<4x8xf32>
  linalg.fill ins(%zero : f32) outs(%out : memref<4x8xf32>)
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %x[%i, %j] : memref<4x8xf32>
      %d = arith.mulf %v, %two : f32
      memref.store %d, %tmp[%j] : memref<8xf32>
    }
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %tmp[%j] : memref<8xf32>
      memref.store %v, %out[%i, %j] : memref<4x8xf32>
    }
  }
  return %out : memref<4x8xf32>
}

// -----

// A loop with a result (a sum carried in iter_args) returns it from its
// kernel. Kernel names do not collide with existing symbols.
// CHECK-LABEL: func.func private @sum_kernel1(
// CHECK-SAME:    %[[X:[^:]+]]: memref<8xf32>) -> f32 attributes {passthrough = ["noinline"]} {
// CHECK:         %[[S:.+]] = scf.for
// CHECK:         return %[[S]] : f32
// CHECK-LABEL: func.func @sum(
// CHECK:         %[[R:.+]] = call @sum_kernel1(%{{.+}}) : (memref<8xf32>) -> f32
// CHECK-NEXT:    return %[[R]] : f32
func.func private @sum_kernel0() {
  return
}
func.func @sum(%x: memref<8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %x[%i] : memref<8xf32>
    %a = arith.addf %acc, %v : f32
    scf.yield %a : f32
  }
  return %s : f32
}

// -----

// A function with no kernel that computes nothing (a gradient's entry,
// which calls the function that computes it and returns its results) is
// glue too; one that computes without a loop (scalar float arithmetic
// here) is compiled as usual.
// CHECK-LABEL: func.func @no_kernel(
// CHECK-SAME:    attributes {passthrough = ["noinline", "optnone"]}
// CHECK:         memref.load
// CHECK-LABEL: func.func @scalar_math(
// CHECK-NOT:     passthrough
// CHECK:         arith.mulf
func.func @no_kernel(%x: memref<8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0] : memref<8xf32>
  return %v : f32
}
func.func @scalar_math(%x: f32) -> f32 {
  %two = arith.constant 2.0 : f32
  %v = arith.mulf %x, %two : f32
  return %v : f32
}

// -----

// A heap buffer only the loop uses (a packed panel hoisted out of it) moves
// into the kernel with its deallocation: each call, and each thread of a
// chunked kernel, has its own. One that the caller reads stays outside.
// CHECK-LABEL: func.func private @scratch_kernel0(
// CHECK-SAME:    %[[X:[^:]+]]: memref<4x8xf32>, %[[OUT:[^:]+]]: memref<4x8xf32>)
// CHECK:         %[[PANEL:.+]] = memref.alloc() : memref<8xf32>
// CHECK:         scf.for
// CHECK:         memref.dealloc %[[PANEL]] : memref<8xf32>
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @scratch(
// CHECK:         %[[OUT:.+]] = memref.alloc() : memref<4x8xf32>
// CHECK-NEXT:    call @scratch_kernel0(%{{.+}}, %[[OUT]])
// CHECK-NOT:     memref.dealloc
// CHECK:         return %[[OUT]]
func.func @scratch(%x: memref<4x8xf32>) -> memref<4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %panel = memref.alloc() : memref<8xf32>
  %out = memref.alloc() : memref<4x8xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %x[%i, %j] : memref<4x8xf32>
      memref.store %v, %panel[%j] : memref<8xf32>
    }
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %panel[%j] : memref<8xf32>
      memref.store %v, %out[%i, %j] : memref<4x8xf32>
    }
  }
  memref.dealloc %panel : memref<8xf32>
  return %out : memref<4x8xf32>
}

// -----

// A row's temporary of dynamic size, hoisted out of the row loop, moves too
// (its size becomes an argument): left outside, every thread of a chunked
// kernel would share it.
// CHECK-LABEL: func.func private @dynamic_scratch_kernel0(
// CHECK-SAME:    %[[N:[^:]+]]: index
// CHECK:         %[[ROW:.+]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK:         scf.for
// CHECK:         memref.dealloc %[[ROW]] : memref<?xf32>
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @dynamic_scratch(
// CHECK:         %[[DIM:.+]] = memref.dim
// CHECK-NOT:     memref.alloc(
// CHECK:         call @dynamic_scratch_kernel0(
// CHECK-NOT:     memref.dealloc
// CHECK:         return
func.func @dynamic_scratch(%x: memref<4x?xf32>, %out: memref<4x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %x, %c1 : memref<4x?xf32>
  %row = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %x[%i, %j] : memref<4x?xf32>
      memref.store %v, %row[%j] : memref<?xf32>
    }
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %row[%j] : memref<?xf32>
      memref.store %v, %out[%i, %j] : memref<4x?xf32>
    }
  }
  memref.dealloc %row : memref<?xf32>
  return
}
