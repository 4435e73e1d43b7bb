// RUN: rlx-opt %s --rlx-cpu-stream-stores="min-bytes=4096" --canonicalize --split-input-file | FileCheck %s

// A whole returned buffer: tiled to one 16-lane vector along the innermost
// loop and written with aligned non-temporal stores; the broadcast row
// operand is read per tile.
// CHECK-LABEL: func.func @whole(
// CHECK:         %[[Y:.+]] = memref.alloc() {alignment = 64 : i64} : memref<64x32xf32>
// CHECK:         scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:           scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %[[C16:.+]] {
// CHECK:             %[[S:.+]] = arith.addf %{{.+}}, %{{.+}} : vector<1x16xf32>
// CHECK:             %[[V:.+]] = vector.shape_cast %[[S]] : vector<1x16xf32> to vector<16xf32>
// CHECK:             vector.store %[[V]], %[[Y]][%[[I]], %[[J]]] {alignment = 64 : i64, nontemporal = true} : memref<64x32xf32>, vector<16xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[Y]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @whole(%x: memref<64x32xf32>, %b: memref<32xf32>) -> memref<64x32xf32> {
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

// A row view in a loop over rows (an elementwise op after row tiling): the
// store indexes the buffer itself at the row's offset, so the attributes
// survive the later folding of views. f64: 8 lanes.
// CHECK-LABEL: func.func @row_view(
// CHECK:         %[[Y:.+]] = memref.alloc() {alignment = 64 : i64} : memref<16x64xf64>
// CHECK:         scf.for %[[R:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:           scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:             %[[E:.+]] = math.exp %{{.+}} : vector<1x8xf64>
// CHECK:             %[[V:.+]] = vector.shape_cast %[[E]] : vector<1x8xf64> to vector<8xf64>
// CHECK:             vector.store %[[V]], %[[Y]][%[[R]], %[[J]]] {alignment = 64 : i64, nontemporal = true} : memref<16x64xf64>, vector<8xf64>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @row_view(%x: memref<16x64xf64>) -> memref<16x64xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %y = memref.alloc() {alignment = 64 : i64} : memref<16x64xf64>
  scf.for %i = %c0 to %c16 step %c1 {
    %xr = memref.subview %x[%i, 0] [1, 64] [1, 1] : memref<16x64xf64> to memref<1x64xf64, strided<[64, 1], offset: ?>>
    %yr = memref.subview %y[%i, 0] [1, 64] [1, 1] : memref<16x64xf64> to memref<1x64xf64, strided<[64, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%xr : memref<1x64xf64, strided<[64, 1], offset: ?>>) outs(%yr : memref<1x64xf64, strided<[64, 1], offset: ?>>) {
    ^bb0(%a: f64, %o: f64):
      %e = math.exp %a : f64
      linalg.yield %e : f64
    }
  }
  return %y : memref<16x64xf64>
}

// -----

// Left alone: an op beside a reduction in its block (a row group, whose
// rows are in L1 when written); a body that reads its output; an
// innermost dim that is not a whole number of vectors; a buffer without
// 64-byte alignment; a buffer the function does not return.
// CHECK-LABEL: func.func @row_group(
// CHECK-NOT:     vector.store
// CHECK:         linalg.generic
// CHECK:         linalg.generic
// CHECK-NOT:     vector.store
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @row_group(%x: memref<64x32xf32>, %sum: memref<64xf32>) -> memref<64x32xf32> {
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

// CHECK-LABEL: func.func @reads_output(
// CHECK-NOT:     vector.store
// CHECK:         linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @reads_output(%x: memref<64x32xf32>) -> memref<64x32xf32> {
  %y = memref.alloc() {alignment = 64 : i64} : memref<64x32xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x32xf32>) outs(%y : memref<64x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %a, %o : f32
    linalg.yield %t : f32
  }
  return %y : memref<64x32xf32>
}

// -----

// CHECK-LABEL: func.func @partial_vector(
// CHECK-NOT:     vector.store
// CHECK:         linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @partial_vector(%x: memref<64x24xf32>) -> memref<64x24xf32> {
  %y = memref.alloc() {alignment = 64 : i64} : memref<64x24xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x24xf32>) outs(%y : memref<64x24xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.negf %a : f32
    linalg.yield %t : f32
  }
  return %y : memref<64x24xf32>
}

// -----

// CHECK-LABEL: func.func @unaligned(
// CHECK-NOT:     vector.store
// CHECK:         linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @unaligned(%x: memref<64x32xf32>) -> memref<64x32xf32> {
  %y = memref.alloc() : memref<64x32xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x32xf32>) outs(%y : memref<64x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.negf %a : f32
    linalg.yield %t : f32
  }
  return %y : memref<64x32xf32>
}

// -----

// CHECK-LABEL: func.func @not_returned(
// CHECK-NOT:     vector.store
// CHECK:         linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @not_returned(%x: memref<64x32xf32>, %out: memref<64x32xf32>) {
  %y = memref.alloc() {alignment = 64 : i64} : memref<64x32xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x32xf32>) outs(%y : memref<64x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.negf %a : f32
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
// DEFAULT:         linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @small(%x: memref<64x32xf32>) -> memref<64x32xf32> {
  %y = memref.alloc() {alignment = 64 : i64} : memref<64x32xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x32xf32>) outs(%y : memref<64x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.negf %a : f32
    linalg.yield %t : f32
  }
  return %y : memref<64x32xf32>
}
