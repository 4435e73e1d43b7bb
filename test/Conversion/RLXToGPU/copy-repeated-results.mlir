// RUN: rlx-opt %s --split-input-file --rlx-copy-repeated-results | FileCheck %s

// The second return of %a is a copy in a buffer of its own; the first
// and the other result stay (rlx-to-gpu.mlir has them as out-parameters).
// CHECK-LABEL: func.func @twice(
// CHECK:         %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         %[[B:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         %[[C:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    memref.copy %[[A]], %[[C]] : memref<4xf32> to memref<4xf32>
// CHECK-NEXT:    return %[[A]], %[[B]], %[[C]]
func.func @twice(%x: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>, memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  linalg.copy ins(%x : memref<4xf32>) outs(%a : memref<4xf32>)
  %b = memref.alloc() : memref<4xf32>
  linalg.copy ins(%x : memref<4xf32>) outs(%b : memref<4xf32>)
  return %a, %b, %a : memref<4xf32>, memref<4xf32>, memref<4xf32>
}

// -----

// Dynamic dims of the copy come from the returned buffer; three returns
// of one argument give two copies.
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME:      %[[X:.*]]: memref<?x8xf32>)
// CHECK:         %[[D0:.*]] = memref.dim %[[X]], %{{.*}} : memref<?x8xf32>
// CHECK:         %[[C0:.*]] = memref.alloc(%[[D0]]) : memref<?x8xf32>
// CHECK:         memref.copy %[[X]], %[[C0]]
// CHECK:         %[[D1:.*]] = memref.dim %[[X]], %{{.*}} : memref<?x8xf32>
// CHECK:         %[[C1:.*]] = memref.alloc(%[[D1]]) : memref<?x8xf32>
// CHECK:         memref.copy %[[X]], %[[C1]]
// CHECK:         return %[[X]], %[[C0]], %[[C1]]
func.func @dynamic(%x: memref<?x8xf32>) -> (memref<?x8xf32>, memref<?x8xf32>, memref<?x8xf32>) {
  return %x, %x, %x : memref<?x8xf32>, memref<?x8xf32>, memref<?x8xf32>
}

// -----

// A strided result with a dynamic offset is copied into an identity buffer
// and cast back to the result type.
// CHECK-LABEL: func.func @strided(
// CHECK:         %[[C:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         memref.copy
// CHECK:         %[[V:.*]] = memref.cast %[[C]] : memref<4xf32> to memref<4xf32, strided<[1], offset: ?>>
// CHECK:         return %{{.*}}, %[[V]]
func.func @strided(%x: memref<8xf32>, %i: index) -> (memref<4xf32, strided<[1], offset: ?>>, memref<4xf32, strided<[1], offset: ?>>) {
  %v = memref.subview %x[%i] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: ?>>
  return %v, %v : memref<4xf32, strided<[1], offset: ?>>, memref<4xf32, strided<[1], offset: ?>>
}

// -----

// Results that differ, and non-memref results, are left alone.
// CHECK-LABEL: func.func @distinct(
// CHECK-NOT:     memref.copy
// CHECK:         return %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<4xf32>, memref<4xf32>, index, index
func.func @distinct(%x: memref<4xf32>, %y: memref<4xf32>, %i: index) -> (memref<4xf32>, memref<4xf32>, index, index) {
  return %x, %y, %i, %i : memref<4xf32>, memref<4xf32>, index, index
}
