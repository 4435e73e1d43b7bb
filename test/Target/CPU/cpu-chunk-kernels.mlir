// RUN: rlx-opt %s --rlx-cpu-chunk-kernels=min-elements=0 --split-input-file | FileCheck %s
// RUN: rlx-opt %s --rlx-cpu-chunk-kernels --split-input-file | FileCheck %s --check-prefix=SMALL

// A band of two parallel loops becomes one loop over the kernel's range
// [begin, end), delinearized back into the two induction variables; the
// caller passes [0, 4 * 6). With the default min-elements the kernel is too
// small to split and stays as it is.
// CHECK-LABEL: func.func private @band_kernel0(
// CHECK-SAME:    %[[X:[^:]+]]: memref<4x6x32xf32>, %[[Y:[^:]+]]: memref<4x6x32xf32>, %[[BEGIN:[^:]+]]: index, %[[END:[^:]+]]: index) attributes {rlx.chunked_kernel}
// CHECK:         scf.for %[[L:.+]] = %[[BEGIN]] to %[[END]] step %{{.+}} {
// CHECK-NEXT:      %[[J:.+]] = arith.remsi %[[L]], %c6 : index
// CHECK-NEXT:      %[[I:.+]] = arith.divsi %[[L]], %c6 : index
// CHECK-NEXT:      scf.for %[[K:.+]] =
// CHECK-NEXT:        memref.load %[[X]][%[[I]], %[[J]], %[[K]]]
// CHECK-NEXT:        arith.mulf
// CHECK-NEXT:        memref.store %{{.+}}, %[[Y]][%[[I]], %[[J]], %[[K]]]
// CHECK-NOT:     rlx.parallel_loop
// CHECK:         return
// CHECK-LABEL: func.func @band(
// CHECK:         %[[N:.+]] = arith.constant 24 : index
// CHECK:         %[[ZERO:.+]] = arith.constant 0 : index
// CHECK-NEXT:    call @band_kernel0(%{{.+}}, %{{.+}}, %[[ZERO]], %[[N]]) : (memref<4x6x32xf32>, memref<4x6x32xf32>, index, index) -> ()
// SMALL-LABEL: func.func private @band_kernel0(
// SMALL-SAME:    memref<4x6x32xf32>, %{{[^:]+}}: memref<4x6x32xf32>) {
// SMALL-LABEL: func.func @band(
// SMALL:         call @band_kernel0(%{{.+}}, %{{.+}}) : (memref<4x6x32xf32>, memref<4x6x32xf32>) -> ()
func.func private @band_kernel0(%x: memref<4x6x32xf32>, %y: memref<4x6x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c32 = arith.constant 32 : index
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c6 step %c1 {
      scf.for %k = %c0 to %c32 step %c1 {
        %v = memref.load %x[%i, %j, %k] : memref<4x6x32xf32>
        %d = arith.mulf %v, %two : f32
        memref.store %d, %y[%i, %j, %k] : memref<4x6x32xf32>
      }
    } {rlx.parallel_loop}
  } {rlx.parallel_loop}
  return
}
func.func @band(%x: memref<4x6x32xf32>, %y: memref<4x6x32xf32>) {
  call @band_kernel0(%x, %y) : (memref<4x6x32xf32>, memref<4x6x32xf32>) -> ()
  return
}

// -----

// Dynamic bounds, a start and a step: the caller computes the iteration
// count ceil((dim - 2) / 3) from its own operand (a negative count runs
// nothing). The loop over k inside the parallel loop carries a dependence
// and is not marked: the band ends above it.
// CHECK-LABEL: func.func private @dynamic_kernel0(
// CHECK-SAME:    %[[X:[^:]+]]: memref<?x16xf32>, %[[BEGIN:[^:]+]]: index, %[[END:[^:]+]]: index) attributes {rlx.chunked_kernel}
// CHECK:         scf.for %[[L:.+]] = %[[BEGIN]] to %[[END]]
// CHECK-NEXT:      %[[S:.+]] = arith.muli %[[L]], %c3 : index
// CHECK-NEXT:      %[[I:.+]] = arith.addi %[[S]], %c2 : index
// CHECK-NEXT:      scf.for %[[K:.+]] =
// CHECK:             memref.load %[[X]][%[[I]], %{{.+}}]
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME:    %[[A:[^:]+]]: memref<?x16xf32>)
// CHECK:         %[[DIM:.+]] = memref.dim %[[A]], %{{.+}} : memref<?x16xf32>
// CHECK:         %[[SPAN:.+]] = arith.subi %[[DIM]], %c2 : index
// CHECK:         %[[N:.+]] = arith.ceildivsi %[[SPAN]], %c3 : index
// CHECK:         call @dynamic_kernel0(%[[A]], %{{.+}}, %[[N]])
func.func private @dynamic_kernel0(%x: memref<?x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %n = memref.dim %x, %c0 : memref<?x16xf32>
  scf.for %i = %c2 to %n step %c3 {
    scf.for %k = %c1 to %c16 step %c1 {
      %p = arith.subi %k, %c1 : index
      %a = memref.load %x[%i, %p] : memref<?x16xf32>
      %b = memref.load %x[%i, %k] : memref<?x16xf32>
      %s = arith.addf %a, %b : f32
      memref.store %s, %x[%i, %k] : memref<?x16xf32>
    }
  } {rlx.parallel_loop}
  return
}
func.func @dynamic(%x: memref<?x16xf32>) {
  call @dynamic_kernel0(%x) : (memref<?x16xf32>) -> ()
  return
}

// -----

// A linalg op whose leading loops are parallel is tiled by 1 along them
// (all but its last loop) and chunked like a band.
// CHECK-LABEL: func.func private @generic_kernel0(
// CHECK-SAME:    %[[X:[^:]+]]: memref<8x16x32xf32>, %[[Y:[^:]+]]: memref<8x16x32xf32>, %[[BEGIN:[^:]+]]: index, %[[END:[^:]+]]: index) attributes {rlx.chunked_kernel}
// CHECK:         scf.for %[[L:.+]] = %[[BEGIN]] to %[[END]]
// CHECK-NEXT:      %[[J:.+]] = arith.remsi %[[L]], %c16 : index
// CHECK-NEXT:      %[[I:.+]] = arith.divsi %[[L]], %c16 : index
// CHECK-NEXT:      memref.subview %[[X]][%[[I]], %[[J]], 0] [1, 1, 32]
// CHECK-NEXT:      memref.subview %[[Y]][%[[I]], %[[J]], 0] [1, 1, 32]
// CHECK-NEXT:      linalg.generic
// CHECK-NEXT:      ^bb0
// CHECK-NEXT:        math.exp
// CHECK-LABEL: func.func @generic(
// CHECK-DAG:     %[[N:.+]] = arith.constant 128 : index
// CHECK:         call @generic_kernel0(%{{.+}}, %{{.+}}, %{{.+}}, %[[N]]) : (memref<8x16x32xf32>, memref<8x16x32xf32>, index, index) -> ()
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func private @generic_kernel0(%x: memref<8x16x32xf32>, %y: memref<8x16x32xf32>) {
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<8x16x32xf32>) outs(%y : memref<8x16x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  return
}
func.func @generic(%x: memref<8x16x32xf32>, %y: memref<8x16x32xf32>) {
  call @generic_kernel0(%x, %y) : (memref<8x16x32xf32>, memref<8x16x32xf32>) -> ()
  return
}

// -----

// Left as they are: a linalg op whose first loop is a reduction (a sum over
// rows), a loop no pass marked parallel, a loop whose bound the kernel
// loads, and a kernel called twice.
// CHECK-LABEL: func.func private @column_sum_kernel0(
// CHECK-SAME:    %{{[^:]+}}: memref<64x32xf32>, %{{[^:]+}}: memref<32xf32>) {
// CHECK-LABEL: func.func private @unmarked_kernel0(
// CHECK-SAME:    %{{[^:]+}}: memref<64x32xf32>) {
// CHECK-LABEL: func.func private @loaded_bound_kernel0(
// CHECK-SAME:    %{{[^:]+}}: memref<64x32xf32>, %{{[^:]+}}: memref<1xindex>) {
// CHECK-LABEL: func.func private @twice_kernel0(
// CHECK-SAME:    %{{[^:]+}}: memref<64x32xf32>) {
// CHECK-NOT:   rlx.chunked_kernel
#rows = affine_map<(d0, d1) -> (d0, d1)>
#cols = affine_map<(d0, d1) -> (d1)>
func.func private @column_sum_kernel0(%x: memref<64x32xf32>, %s: memref<32xf32>) {
  linalg.generic {indexing_maps = [#rows, #cols], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<64x32xf32>) outs(%s : memref<32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  }
  return
}
func.func private @unmarked_kernel0(%x: memref<64x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c1 to %c64 step %c1 {
    %p = arith.subi %i, %c1 : index
    %v = memref.load %x[%p, %c0] : memref<64x32xf32>
    memref.store %v, %x[%i, %c0] : memref<64x32xf32>
  }
  return
}
func.func private @loaded_bound_kernel0(%x: memref<64x32xf32>, %n: memref<1xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %rows = memref.load %n[%c0] : memref<1xindex>
  scf.for %i = %c0 to %rows step %c1 {
    memref.store %zero, %x[%i, %c0] : memref<64x32xf32>
  } {rlx.parallel_loop}
  return
}
func.func private @twice_kernel0(%x: memref<64x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %zero, %x[%i, %c0] : memref<64x32xf32>
  } {rlx.parallel_loop}
  return
}
func.func @unchanged(%x: memref<64x32xf32>, %s: memref<32xf32>, %n: memref<1xindex>) {
  call @column_sum_kernel0(%x, %s) : (memref<64x32xf32>, memref<32xf32>) -> ()
  call @unmarked_kernel0(%x) : (memref<64x32xf32>) -> ()
  call @loaded_bound_kernel0(%x, %n) : (memref<64x32xf32>, memref<1xindex>) -> ()
  call @twice_kernel0(%x) : (memref<64x32xf32>) -> ()
  call @twice_kernel0(%x) : (memref<64x32xf32>) -> ()
  return
}
