// RUN: rlx-opt %s --rlx-cpu-stream-stores="min-bytes=4096" --canonicalize --split-input-file | FileCheck %s
// RUN: rlx-opt %s --rlx-cpu-stream-stores="min-bytes=4096 prefetch=false" --split-input-file | FileCheck %s --check-prefix=NOPF
// RUN: rlx-opt %s --rlx-cpu-stream-stores="min-bytes=4096 stage-rows=false" --split-input-file | FileCheck %s --check-prefix=NOSTAGE
// RUN: rlx-opt %s --rlx-cpu-stream-stores="min-bytes=4096 elementwise=false" --split-input-file | FileCheck %s --check-prefix=NOEW

// A row group after rlx-cpu-tile-rows (a row sum, then the row divided by
// it into the returned buffer): the division is tiled to one 16-lane
// vector along the row and each vector is written with an aligned
// non-temporal store into the buffer itself, at the row's offset (the
// attributes would not survive the later folding of stores through
// views), after a prefetch of the same columns of the next row of x (the
// last row clamped to itself); a store fence before the return orders the
// streamed stores.
// NOPF-LABEL: func.func @row_group(
// NOPF-NOT:     memref.prefetch
// NOPF:         vector.store
// CHECK-LABEL: func.func @row_group(
// CHECK-SAME:      %[[X:[^:]+]]: memref<64x32xf32>
// CHECK:         %[[Y:.+]] = memref.alloc() {alignment = 64 : i64} : memref<64x32xf32>
// CHECK:         scf.for %[[R:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:           linalg.generic {{.+}} iterator_types = ["parallel", "reduction"]
// CHECK:           scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %[[C16:.+]] {
// CHECK:             %[[NEXT:.+]] = arith.addi %[[R]], %[[C1:.+]] : index
// CHECK:             %[[CLAMP:.+]] = arith.minui %[[NEXT]], %[[C63:.+]] : index
// CHECK:             memref.prefetch %[[X]][%[[CLAMP]], %[[J]]], read, locality<3>, data : memref<64x32xf32>
// CHECK:             %[[D:.+]] = arith.divf %{{.+}}, %{{.+}} : vector<1x16xf32>
// CHECK:             %[[V:.+]] = vector.shape_cast %[[D]] : vector<1x16xf32> to vector<16xf32>
// CHECK:             vector.store %[[V]], %[[Y]][%[[R]], %[[J]]] {alignment = 64 : i64, nontemporal = true} : memref<64x32xf32>, vector<16xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         {{llvm.call_intrinsic "llvm.x86.sse.sfence"\(\)|llvm.fence seq_cst}}
// CHECK-NEXT:    return %[[Y]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @row_group(%x: memref<64x32xf32>) -> memref<64x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %y = memref.alloc() {alignment = 64 : i64} : memref<64x32xf32>
  %sum = memref.alloca() {alignment = 64 : i64} : memref<1xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %xr = memref.subview %x[%i, 0] [1, 32] [1, 1] : memref<64x32xf32> to memref<1x32xf32, strided<[32, 1], offset: ?>>
    %yr = memref.subview %y[%i, 0] [1, 32] [1, 1] : memref<64x32xf32> to memref<1x32xf32, strided<[32, 1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%sum : memref<1xf32>)
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%xr : memref<1x32xf32, strided<[32, 1], offset: ?>>) outs(%sum : memref<1xf32>) {
    ^bb0(%a: f32, %s: f32):
      %t = arith.addf %a, %s : f32
      linalg.yield %t : f32
    }
    linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%xr, %sum : memref<1x32xf32, strided<[32, 1], offset: ?>>, memref<1xf32>) outs(%yr : memref<1x32xf32, strided<[32, 1], offset: ?>>) {
    ^bb0(%a: f32, %s: f32, %o: f32):
      %t = arith.divf %a, %s : f32
      linalg.yield %t : f32
    }
  }
  return %y : memref<64x32xf32>
}

// -----

// The same on a whole buffer (no row loop) in f64: 8 lanes a vector.
// CHECK-LABEL: func.func @whole_f64(
// CHECK:         %[[Y:.+]] = memref.alloc() {alignment = 64 : i64} : memref<16x64xf64>
// CHECK:         linalg.generic {{.+}} iterator_types = ["parallel", "reduction"]
// CHECK:         scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:           scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:             %[[E:.+]] = math.exp %{{.+}} : vector<1x8xf64>
// CHECK:             %[[V:.+]] = vector.shape_cast %[[E]] : vector<1x8xf64> to vector<8xf64>
// CHECK:             vector.store %[[V]], %[[Y]][%[[I]], %[[J]]] {alignment = 64 : i64, nontemporal = true} : memref<16x64xf64>, vector<8xf64>
// CHECK:         {{llvm.call_intrinsic "llvm.x86.sse.sfence"\(\)|llvm.fence seq_cst}}
// CHECK-NEXT:    return %[[Y]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @whole_f64(%x: memref<16x64xf64>, %m: memref<16xf64>) -> memref<16x64xf64> {
  %y = memref.alloc() {alignment = 64 : i64} : memref<16x64xf64>
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<16x64xf64>) outs(%m : memref<16xf64>) {
  ^bb0(%a: f64, %s: f64):
    %t = arith.maximumf %a, %s : f64
    linalg.yield %t : f64
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : memref<16x64xf64>, memref<16xf64>) outs(%y : memref<16x64xf64>) {
  ^bb0(%a: f64, %s: f64, %o: f64):
    %d = arith.subf %a, %s : f64
    %e = math.exp %d : f64
    linalg.yield %e : f64
  }
  return %y : memref<16x64xf64>
}

// -----

// A softmax row group: exp into the output row, its sum, the row scaled in
// place. Exp's write is read back by the sum, so it is not the group's
// result; the scaling reads its output. Nothing streams.
// CHECK-LABEL: func.func @softmax_group(
// CHECK-NOT:     vector.store
// CHECK-NOT:     {{llvm.call_intrinsic|llvm.fence}}
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax_group(%x: memref<64x32xf32>) -> memref<64x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %y = memref.alloc() {alignment = 64 : i64} : memref<64x32xf32>
  %sum = memref.alloca() {alignment = 64 : i64} : memref<1xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %xr = memref.subview %x[%i, 0] [1, 32] [1, 1] : memref<64x32xf32> to memref<1x32xf32, strided<[32, 1], offset: ?>>
    %yr = memref.subview %y[%i, 0] [1, 32] [1, 1] : memref<64x32xf32> to memref<1x32xf32, strided<[32, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%xr : memref<1x32xf32, strided<[32, 1], offset: ?>>) outs(%yr : memref<1x32xf32, strided<[32, 1], offset: ?>>) {
    ^bb0(%a: f32, %o: f32):
      %e = math.exp %a : f32
      linalg.yield %e : f32
    }
    linalg.fill ins(%zero : f32) outs(%sum : memref<1xf32>)
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%yr : memref<1x32xf32, strided<[32, 1], offset: ?>>) outs(%sum : memref<1xf32>) {
    ^bb0(%a: f32, %s: f32):
      %t = arith.addf %a, %s : f32
      linalg.yield %t : f32
    }
    linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%sum : memref<1xf32>) outs(%yr : memref<1x32xf32, strided<[32, 1], offset: ?>>) {
    ^bb0(%s: f32, %o: f32):
      %t = arith.mulf %s, %o : f32
      linalg.yield %t : f32
    }
  }
  return %y : memref<64x32xf32>
}

// -----

// A softmax row group as rlx-cpu-tile-rows leaves it (the row max, exp of
// x minus it into the output row, its sum, the row scaled in place), rows
// of 128 f32 (eight cache lines). Exp's row is staged in a 64-byte aligned
// row on the stack, allocated once at the function's entry: exp writes it,
// the sum reads it, and the scaling reads it and writes the output row
// with aligned non-temporal stores (fence before the return). Exp, the
// group's long compute pass, is tiled to four cache lines (64 elements),
// each tile first prefetching each line of the next row of x (the last row
// clamped to itself); the tile stays a linalg.generic for LLVM to
// vectorize. The streamed scaling prefetches nothing.
// NOPF-LABEL: func.func @softmax_prefetch(
// NOPF-NOT:     memref.prefetch
// NOPF:         vector.store {{.+}} {alignment = 64 : i64, nontemporal = true}
// NOPF-NOT:     memref.prefetch
// NOPF:         return
// CHECK-LABEL: func.func @softmax_prefetch(
// CHECK-SAME:      %[[X:[^:]+]]: memref<64x128xf32>
// CHECK:         %[[ROW:.+]] = memref.alloca() {alignment = 64 : i64} : memref<1x128xf32>
// CHECK:         %[[Y:.+]] = memref.alloc() {alignment = 64 : i64} : memref<64x128xf32>
// CHECK:         scf.for %[[R:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:           arith.maximumf
// CHECK:           scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %[[C64:.+]] {
// CHECK:             %[[NEXT:.+]] = arith.addi %[[R]], %[[C1:.+]] : index
// CHECK:             %[[CLAMP:.+]] = arith.minui %[[NEXT]], %[[C63:.+]] : index
// CHECK:             memref.prefetch %[[X]][%[[CLAMP]], %[[J]]], read, locality<3>, data
// CHECK:             %[[J16:.+]] = arith.addi %[[J]], %[[C16:.+]] : index
// CHECK:             memref.prefetch %[[X]][%{{.+}}, %[[J16]]], read, locality<3>, data
// CHECK:             %[[J32:.+]] = arith.addi %[[J]], %{{.+}} : index
// CHECK:             memref.prefetch %[[X]][%{{.+}}, %[[J32]]], read, locality<3>, data
// CHECK:             %[[J48:.+]] = arith.addi %[[J]], %{{.+}} : index
// CHECK:             memref.prefetch %[[X]][%{{.+}}, %[[J48]]], read, locality<3>, data
// CHECK-NOT:         memref.prefetch
// CHECK:             %[[TILE:.+]] = memref.subview %[[ROW]][0, %[[J]]] [1, 64] [1, 1]
// CHECK:             linalg.generic
// CHECK-SAME:            outs(%[[TILE]] :
// CHECK:               math.exp
// CHECK:           }
// CHECK:           linalg.generic {{.+}} ins(%[[ROW]] : memref<1x128xf32>)
// CHECK:             arith.addf
// CHECK:           scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %[[C16]] {
// CHECK-NOT:         memref.prefetch
// CHECK:             arith.mulf {{.+}} : vector<1x16xf32>
// CHECK:             vector.store %{{.+}}, %[[Y]][%[[R]], %[[K]]] {alignment = 64 : i64, nontemporal = true} : memref<64x128xf32>, vector<16xf32>
// CHECK-NOT:     memref.prefetch
// CHECK:         {{llvm.call_intrinsic "llvm.x86.sse.sfence"\(\)|llvm.fence seq_cst}}
// CHECK-NEXT:    return %[[Y]]
// Without staging, exp writes the output row and prefetches the next row
// of x and of y, and nothing streams.
// NOSTAGE-LABEL: func.func @softmax_prefetch(
// NOSTAGE-NOT:     memref<1x128xf32>{{$}}
// NOSTAGE-COUNT-8: memref.prefetch
// NOSTAGE-NOT:     nontemporal
// NOSTAGE:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax_prefetch(%x: memref<64x128xf32>) -> memref<64x128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %y = memref.alloc() {alignment = 64 : i64} : memref<64x128xf32>
  %acc = memref.alloca() {alignment = 64 : i64} : memref<1xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %xr = memref.subview %x[%i, 0] [1, 128] [1, 1] : memref<64x128xf32> to memref<1x128xf32, strided<[128, 1], offset: ?>>
    %yr = memref.subview %y[%i, 0] [1, 128] [1, 1] : memref<64x128xf32> to memref<1x128xf32, strided<[128, 1], offset: ?>>
    linalg.fill ins(%ninf : f32) outs(%acc : memref<1xf32>)
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%xr : memref<1x128xf32, strided<[128, 1], offset: ?>>) outs(%acc : memref<1xf32>) {
    ^bb0(%a: f32, %m: f32):
      %t = arith.maximumf %m, %a : f32
      linalg.yield %t : f32
    }
    linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%xr, %acc : memref<1x128xf32, strided<[128, 1], offset: ?>>, memref<1xf32>) outs(%yr : memref<1x128xf32, strided<[128, 1], offset: ?>>) {
    ^bb0(%a: f32, %m: f32, %o: f32):
      %d = arith.subf %a, %m : f32
      %e = math.exp %d : f32
      linalg.yield %e : f32
    }
    linalg.fill ins(%zero : f32) outs(%acc : memref<1xf32>)
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%yr : memref<1x128xf32, strided<[128, 1], offset: ?>>) outs(%acc : memref<1xf32>) {
    ^bb0(%a: f32, %s: f32):
      %t = arith.addf %a, %s : f32
      linalg.yield %t : f32
    }
    linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%acc : memref<1xf32>) outs(%yr : memref<1x128xf32, strided<[128, 1], offset: ?>>) {
    ^bb0(%s: f32, %o: f32):
      %t = arith.mulf %s, %o : f32
      linalg.yield %t : f32
    }
  }
  return %y : memref<64x128xf32>
}

// -----

// The same group on rows of 48 f32 (three cache lines, not a whole tile of
// four): no prefetch.
// CHECK-LABEL: func.func @softmax_partial_tile(
// CHECK-NOT:     memref.prefetch
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax_partial_tile(%x: memref<96x48xf32>) -> memref<96x48xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c96 = arith.constant 96 : index
  %ninf = arith.constant 0xFF800000 : f32
  %y = memref.alloc() {alignment = 64 : i64} : memref<96x48xf32>
  %acc = memref.alloca() {alignment = 64 : i64} : memref<1xf32>
  scf.for %i = %c0 to %c96 step %c1 {
    %xr = memref.subview %x[%i, 0] [1, 48] [1, 1] : memref<96x48xf32> to memref<1x48xf32, strided<[48, 1], offset: ?>>
    %yr = memref.subview %y[%i, 0] [1, 48] [1, 1] : memref<96x48xf32> to memref<1x48xf32, strided<[48, 1], offset: ?>>
    linalg.fill ins(%ninf : f32) outs(%acc : memref<1xf32>)
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%xr : memref<1x48xf32, strided<[48, 1], offset: ?>>) outs(%acc : memref<1xf32>) {
    ^bb0(%a: f32, %m: f32):
      %t = arith.maximumf %m, %a : f32
      linalg.yield %t : f32
    }
    linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%xr, %acc : memref<1x48xf32, strided<[48, 1], offset: ?>>, memref<1xf32>) outs(%yr : memref<1x48xf32, strided<[48, 1], offset: ?>>) {
    ^bb0(%a: f32, %m: f32, %o: f32):
      %d = arith.subf %a, %m : f32
      %e = math.exp %d : f32
      linalg.yield %e : f32
    }
    linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%acc : memref<1xf32>) outs(%yr : memref<1x48xf32, strided<[48, 1], offset: ?>>) {
    ^bb0(%s: f32, %o: f32):
      %t = arith.mulf %s, %o : f32
      linalg.yield %t : f32
    }
  }
  return %y : memref<96x48xf32>
}

// -----

// A lone elementwise op (no reduction beside it) streams too: one 16-lane
// vector a tile, the broadcast bias read along the columns, the sum
// stored non-temporally into the returned buffer, a fence before the
// return. With elementwise=false it is left to LLVM's loop vectorizer,
// with no fence where nothing streams.
// CHECK-LABEL: func.func @lone_elementwise(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: memref<64x32xf32>, %[[B:[a-z0-9]+]]: memref<32xf32>)
// CHECK:         %[[Y:.*]] = memref.alloc() {alignment = 64 : i64}
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %[[C16:.*]] {
// CHECK:             memref.subview %[[X]][%[[I]], %[[J]]] [1, 16] [1, 1]
// CHECK:             memref.subview %[[B]][%[[J]]] [16] [1]
// CHECK:             %[[S:.*]] = arith.addf %{{.*}}, %{{.*}} : vector<1x16xf32>
// CHECK:             %[[F:.*]] = vector.shape_cast %[[S]] : vector<1x16xf32> to vector<16xf32>
// CHECK:             vector.store %[[F]], %[[Y]][%[[I]], %[[J]]] {alignment = 64 : i64, nontemporal = true}
// CHECK:         llvm.call_intrinsic "llvm.x86.sse.sfence"
// CHECK-NEXT:    return %[[Y]]
// NOEW-LABEL:  func.func @lone_elementwise(
// NOEW-NOT:      vector.store
// NOEW-NOT:      {{llvm.call_intrinsic|llvm.fence}}
// NOEW:          linalg.generic
// NOEW-NOT:      {{llvm.call_intrinsic|llvm.fence}}
// NOEW:          return
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @lone_elementwise(%x: memref<64x32xf32>, %b: memref<32xf32>) -> memref<64x32xf32> {
  %y = memref.alloc() {alignment = 64 : i64} : memref<64x32xf32>
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : memref<64x32xf32>, memref<32xf32>) outs(%y : memref<64x32xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  }
  return %y : memref<64x32xf32>
}

// -----

// An elementwise op beside a reduction whose result it does not read is
// no row group's: it streams as a lone elementwise op, and only with
// elementwise; the reduction is left as it was.
// CHECK-LABEL: func.func @unrelated_reduction(
// CHECK:         linalg.generic {{.*}}["parallel", "reduction"]
// CHECK:         arith.negf %{{.*}} : vector<1x16xf32>
// CHECK:         vector.store {{.*}} {alignment = 64 : i64, nontemporal = true}
// CHECK:         return
// NOEW-LABEL:  func.func @unrelated_reduction(
// NOEW-NOT:      vector.store
// NOEW:          return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @unrelated_reduction(%x: memref<64x32xf32>, %sum: memref<64xf32>) -> memref<64x32xf32> {
  %y = memref.alloc() {alignment = 64 : i64} : memref<64x32xf32>
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x32xf32>) outs(%sum : memref<64xf32>) {
  ^bb0(%a: f32, %s: f32):
    %t = arith.addf %a, %s : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x32xf32>) outs(%y : memref<64x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.negf %a : f32
    linalg.yield %t : f32
  }
  return %y : memref<64x32xf32>
}

// -----

// Left alone, each beside a row reduction: a body that reads its output
// (the whole buffer, not a row that could be staged);
// rows of 24 f32 (rows start off 64-byte boundaries); a view that starts
// 8 elements into the row; a buffer without 64-byte alignment (none, or
// 32 bytes); a dynamic row length; a buffer the function does not return.
// CHECK-LABEL: func.func @reads_output(
// CHECK-NOT:     vector.store
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-NOT:     vector.store
// CHECK-NOT:     {{llvm.call_intrinsic|llvm.fence}}
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @reads_output(%x: memref<64x32xf32>, %sum: memref<64xf32>) -> memref<64x32xf32> {
  %y = memref.alloc() {alignment = 64 : i64} : memref<64x32xf32>
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x32xf32>) outs(%sum : memref<64xf32>) {
  ^bb0(%a: f32, %s: f32):
    %t = arith.addf %a, %s : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sum : memref<64xf32>) outs(%y : memref<64x32xf32>) {
  ^bb0(%s: f32, %o: f32):
    %t = arith.mulf %o, %s : f32
    linalg.yield %t : f32
  }
  return %y : memref<64x32xf32>
}

// -----

// CHECK-LABEL: func.func @odd_width(
// CHECK-NOT:     vector.store
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @odd_width(%x: memref<64x24xf32>, %sum: memref<64xf32>) -> memref<64x24xf32> {
  %y = memref.alloc() {alignment = 64 : i64} : memref<64x24xf32>
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x24xf32>) outs(%sum : memref<64xf32>) {
  ^bb0(%a: f32, %s: f32):
    %t = arith.addf %a, %s : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : memref<64x24xf32>, memref<64xf32>) outs(%y : memref<64x24xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %t = arith.divf %a, %s : f32
    linalg.yield %t : f32
  }
  return %y : memref<64x24xf32>
}

// -----

// CHECK-LABEL: func.func @offset_view(
// CHECK-NOT:     vector.store
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @offset_view(%x: memref<64x16xf32>, %sum: memref<64xf32>) -> memref<64x32xf32> {
  %y = memref.alloc() {alignment = 64 : i64} : memref<64x32xf32>
  %v = memref.subview %y[0, 8] [64, 16] [1, 1] : memref<64x32xf32> to memref<64x16xf32, strided<[32, 1], offset: 8>>
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x16xf32>) outs(%sum : memref<64xf32>) {
  ^bb0(%a: f32, %s: f32):
    %t = arith.addf %a, %s : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : memref<64x16xf32>, memref<64xf32>) outs(%v : memref<64x16xf32, strided<[32, 1], offset: 8>>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %t = arith.divf %a, %s : f32
    linalg.yield %t : f32
  }
  return %y : memref<64x32xf32>
}

// -----

// CHECK-LABEL: func.func @unaligned(
// CHECK-NOT:     vector.store
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @unaligned(%x: memref<64x32xf32>, %sum: memref<64xf32>) -> (memref<64x32xf32>, memref<64x32xf32>) {
  %y = memref.alloc() : memref<64x32xf32>
  %z = memref.alloc() {alignment = 32 : i64} : memref<64x32xf32>
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x32xf32>) outs(%sum : memref<64xf32>) {
  ^bb0(%a: f32, %s: f32):
    %t = arith.addf %a, %s : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : memref<64x32xf32>, memref<64xf32>) outs(%y : memref<64x32xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %t = arith.divf %a, %s : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : memref<64x32xf32>, memref<64xf32>) outs(%z : memref<64x32xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %t = arith.subf %a, %s : f32
    linalg.yield %t : f32
  }
  return %y, %z : memref<64x32xf32>, memref<64x32xf32>
}

// -----

// CHECK-LABEL: func.func @dynamic_width(
// CHECK-NOT:     vector.store
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @dynamic_width(%x: memref<64x?xf32>, %sum: memref<64xf32>, %n: index) -> memref<64x?xf32> {
  %y = memref.alloc(%n) {alignment = 64 : i64} : memref<64x?xf32>
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x?xf32>) outs(%sum : memref<64xf32>) {
  ^bb0(%a: f32, %s: f32):
    %t = arith.addf %a, %s : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : memref<64x?xf32>, memref<64xf32>) outs(%y : memref<64x?xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %t = arith.divf %a, %s : f32
    linalg.yield %t : f32
  }
  return %y : memref<64x?xf32>
}

// -----

// CHECK-LABEL: func.func @not_returned(
// CHECK-NOT:     vector.store
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @not_returned(%x: memref<64x32xf32>, %sum: memref<64xf32>, %out: memref<64x32xf32>) {
  %y = memref.alloc() {alignment = 64 : i64} : memref<64x32xf32>
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x32xf32>) outs(%sum : memref<64xf32>) {
  ^bb0(%a: f32, %s: f32):
    %t = arith.addf %a, %s : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : memref<64x32xf32>, memref<64xf32>) outs(%y : memref<64x32xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %t = arith.divf %a, %s : f32
    linalg.yield %t : f32
  }
  memref.copy %y, %out : memref<64x32xf32> to memref<64x32xf32>
  memref.dealloc %y : memref<64x32xf32>
  return
}

// -----

// Below min-bytes (the default threshold is 16 MiB; this buffer is 8 KiB):
// checked with the pass's default in a second run.
// RUN: rlx-opt %s --rlx-cpu-stream-stores --split-input-file | FileCheck %s --check-prefix=DEFAULT
// DEFAULT-LABEL: func.func @small(
// DEFAULT-NOT:     vector.store
// DEFAULT:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @small(%x: memref<64x32xf32>, %sum: memref<64xf32>) -> memref<64x32xf32> {
  %y = memref.alloc() {alignment = 64 : i64} : memref<64x32xf32>
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x32xf32>) outs(%sum : memref<64xf32>) {
  ^bb0(%a: f32, %s: f32):
    %t = arith.addf %a, %s : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : memref<64x32xf32>, memref<64xf32>) outs(%y : memref<64x32xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %t = arith.divf %a, %s : f32
    linalg.yield %t : f32
  }
  return %y : memref<64x32xf32>
}

// -----

// A rank-0 result (a mean: the sum, then divided in place) that a later op
// reads: nothing to stage, stream or prefetch (as in a loss function).
// CHECK-LABEL: func.func @scalar_read_back(
// CHECK-NOT:     memref.alloca
// CHECK-NOT:     memref.prefetch
// CHECK-NOT:     vector.store
// CHECK:         linalg.generic
// CHECK:         linalg.generic
// CHECK:         memref.extract_aligned_pointer_as_index
// CHECK:         return
func.func @scalar_read_back(%x: memref<4096xf32>) -> (memref<f32>, index) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 4096.0 : f32
  %m = memref.alloc() {alignment = 64 : i64} : memref<f32>
  linalg.fill ins(%zero : f32) outs(%m : memref<f32>)
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%x : memref<4096xf32>) outs(%m : memref<f32>) {
  ^bb0(%a: f32, %s: f32):
    %t = arith.addf %a, %s : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%m : memref<f32>) outs(%m : memref<f32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.divf %a, %n : f32
    linalg.yield %t : f32
  }
  %p = memref.extract_aligned_pointer_as_index %m : memref<f32> -> index
  return %m, %p : memref<f32>, index
}
