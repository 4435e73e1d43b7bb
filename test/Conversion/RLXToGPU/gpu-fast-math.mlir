// RUN: rlx-opt %s --rlx-gpu-fast-math --split-input-file | FileCheck %s

// f32 exp becomes the fast one; divisions by one shared divisor become one
// reciprocal, right after the divisor's definition, and multiplications.
// CHECK-LABEL: func.func @softmax_tail
// CHECK-SAME:      (%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[P:.*]]: memref<f32>)
// CHECK:         %[[S:.*]] = memref.load %[[P]]
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[R:.*]] = arith.divf %[[ONE]], %[[S]] : f32
// CHECK:         %[[EX:.*]] = math.exp %[[X]] fastmath<afn> : f32
// CHECK:         %[[EY:.*]] = math.exp %[[Y]] fastmath<afn> : f32
// CHECK:         %[[A:.*]] = arith.mulf %[[EX]], %[[R]] : f32
// CHECK:         %[[B:.*]] = arith.mulf %[[EY]], %[[R]] fastmath<nnan> : f32
// CHECK-NOT:     arith.divf
// CHECK:         return %[[A]], %[[B]]
func.func @softmax_tail(%x: f32, %y: f32, %p: memref<f32>) -> (f32, f32) {
  %s = memref.load %p[] : memref<f32>
  %ex = math.exp %x : f32
  %ey = math.exp %y : f32
  %a = arith.divf %ex, %s : f32
  %b = arith.divf %ey, %s fastmath<nnan> : f32
  return %a, %b : f32, f32
}

// -----

// A divisor used once keeps its division; f64 keeps the accurate exp and
// its divisions.
// CHECK-LABEL: func.func @kept
// CHECK:         math.exp %{{.*}} : f64
// CHECK-NOT:     fastmath
// CHECK:         arith.divf %{{.*}}, %{{.*}} : f32
// CHECK:         arith.divf %{{.*}}, %{{.*}} : f64
// CHECK:         arith.divf %{{.*}}, %{{.*}} : f64
func.func @kept(%x: f32, %s: f32, %u: f64, %v: f64, %t: f64) -> (f32, f64, f64) {
  %e = math.exp %u : f64
  %a = arith.divf %x, %s : f32
  %b = arith.divf %e, %t : f64
  %c = arith.divf %v, %t : f64
  return %a, %b, %c : f32, f64, f64
}

// -----

// A block argument as divisor: the reciprocal opens the block, before the
// loop whose divisions use it.
// CHECK-LABEL: func.func @block_argument
// CHECK-SAME:      (%[[S:.*]]: f32
// CHECK:         %[[R:.*]] = arith.divf %{{.*}}, %[[S]] : f32
// CHECK:         scf.for
// CHECK-COUNT-2:   arith.mulf %{{.*}}, %[[R]] : f32
func.func @block_argument(%s: f32, %m: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %x = memref.load %m[%i] : memref<8xf32>
    %a = arith.divf %x, %s : f32
    %b = arith.divf %a, %s : f32
    memref.store %b, %m[%i] : memref<8xf32>
  }
  return
}
