// RUN: rlx-opt %s --rlx-results-in-place --split-input-file -verify-diagnostics | FileCheck %s

// A result computed in its argument's buffer (a KV cache written at a
// run-time position): the result goes, nothing is copied.
// CHECK-LABEL: func.func @cache_step(
// CHECK-SAME:    %[[CACHE:[^:]+]]: memref<1x8x2x4xf32>, %{{[^:]+}}: memref<1x1x2x4xf32>, %{{[^:]+}}: index)
// CHECK-SAME:    -> memref<2xf32> {
// CHECK-NOT:     memref.copy %{{.+}}, %[[CACHE]] :
// CHECK:         return %{{.+}} : memref<2xf32>
func.func @cache_step(%cache: memref<1x8x2x4xf32> {rlx.in_place_result = 0 : i64},
                      %new: memref<1x1x2x4xf32>, %pos: index)
    -> (memref<1x8x2x4xf32>, memref<2xf32>) {
  %view = memref.subview %cache[0, %pos, 0, 0] [1, 1, 2, 4] [1, 1, 1, 1]
      : memref<1x8x2x4xf32> to memref<1x1x2x4xf32, strided<[64, 8, 4, 1], offset: ?>>
  memref.copy %new, %view : memref<1x1x2x4xf32> to memref<1x1x2x4xf32, strided<[64, 8, 4, 1], offset: ?>>
  %sum = memref.alloc() : memref<2xf32>
  return %cache, %sum : memref<1x8x2x4xf32>, memref<2xf32>
}

// -----

// A result bufferization computed elsewhere is copied into the argument
// before the return; the second result goes too (results 1 and 0 held by
// arguments 0 and 1).
// CHECK-LABEL: func.func @copied(
// CHECK-SAME:    %[[A:[^:]+]]: memref<4xf32>, %[[B:[^:]+]]: memref<4xf32>) {
// CHECK:         %[[NEW:.+]] = memref.alloc() : memref<4xf32>
// CHECK:         memref.copy %[[B]], %[[B]]
// CHECK-NOT:     memref.copy %{{.+}}, %[[B]]
// CHECK:         memref.copy %[[NEW]], %[[A]] : memref<4xf32> to memref<4xf32>
// CHECK-NEXT:    return
// CHECK-NOT:     %{{.+}}
func.func @copied(%a: memref<4xf32> {rlx.in_place_result = 1 : i64},
                  %b: memref<4xf32> {rlx.in_place_result = 0 : i64})
    -> (memref<4xf32>, memref<4xf32>) {
  %new = memref.alloc() : memref<4xf32>
  memref.copy %b, %b : memref<4xf32> to memref<4xf32>
  return %b, %new : memref<4xf32>, memref<4xf32>
}

// -----

// A function without the attribute is left as it is.
// CHECK-LABEL: func.func @untouched(
// CHECK-SAME:    -> memref<4xf32>
// CHECK:         return %{{.+}} : memref<4xf32>
func.func @untouched(%a: memref<4xf32>) -> memref<4xf32> {
  return %a : memref<4xf32>
}

// -----

// expected-error @+1 {{argument #0: rlx.in_place_result must be the index of one of the 1 results, got 1 : i64}}
func.func @out_of_range(%a: memref<4xf32> {rlx.in_place_result = 1 : i64}) -> memref<4xf32> {
  return %a : memref<4xf32>
}

// -----

// expected-error @+1 {{result #0 is held in place by two arguments}}
func.func @twice(%a: memref<4xf32> {rlx.in_place_result = 0 : i64},
                 %b: memref<4xf32> {rlx.in_place_result = 0 : i64}) -> memref<4xf32> {
  return %a : memref<4xf32>
}

// -----

// expected-error @+1 {{argument #0 of type 'memref<4xf32>' cannot hold result #0 of type 'memref<8xf32>'}}
func.func @other_type(%a: memref<4xf32> {rlx.in_place_result = 0 : i64}) -> memref<8xf32> {
  %r = memref.alloc() : memref<8xf32>
  return %r : memref<8xf32>
}

// -----

// expected-error @+1 {{results held in place by arguments (rlx.in_place_result) are for entry points; @callee is called in the module}}
func.func @callee(%a: memref<4xf32> {rlx.in_place_result = 0 : i64}) -> memref<4xf32> {
  return %a : memref<4xf32>
}
func.func @caller(%a: memref<4xf32>) -> memref<4xf32> {
  %r = call @callee(%a) : (memref<4xf32>) -> memref<4xf32>
  return %r : memref<4xf32>
}

// -----

// expected-error @+1 {{result #0 is not computed in argument #0's buffer and has a dynamic shape ('memref<?xf32>'): its copy there cannot be checked}}
func.func @dynamic_copy(%a: memref<?xf32> {rlx.in_place_result = 0 : i64}, %n: index) -> memref<?xf32> {
  %r = memref.alloc(%n) : memref<?xf32>
  return %r : memref<?xf32>
}
