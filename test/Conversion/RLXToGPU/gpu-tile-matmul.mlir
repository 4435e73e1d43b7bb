// RUN: rlx-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(rlx-gpu-tile-matmul{tile-m=8 tile-n=8 tile-k=4 thread-m=2 thread-n=2}),canonicalize,cse)' \
// RUN:   | FileCheck %s

// An odd-shaped f32 matmul: one workgroup of (8/2) x (8/2) = 16 threads per
// 8 x 8 block (grid 2 x 1 x 1). Each thread loads its share of the first
// step's A and B blocks, masked to zero beyond M = 7, N = 13 and K = 5;
// each step stores the share into workgroup memory, then, between two
// barriers, loads the next step's share (if there is one) and computes the
// products from workgroup memory; the sums are added into C under a guard.
// CHECK-LABEL: func.func @odd_f32
// CHECK:       gpu.launch blocks({{.*}}) in ({{[^)]*}} = %c2, {{[^)]*}} = %c1, {{[^)]*}} = %c1)
// CHECK-SAME:    threads({{.*}}) in ({{[^)]*}} = %c16, {{[^)]*}} = %c1, {{[^)]*}} = %c1)
// CHECK-SAME:    workgroup(%[[AS:[a-z0-9_]+]] : memref<64xf32, #gpu.address_space<workgroup>>, %[[BS:[a-z0-9_]+]] : memref<32xf32, #gpu.address_space<workgroup>>)
// CHECK:         %[[A0:[0-9]+]] = scf.if %{{.+}} -> (f32) {
// CHECK:           memref.load %arg0
// CHECK:         } else {
// CHECK:           scf.yield %cst
// CHECK:         %[[B0:[0-9]+]] = scf.if %{{.+}} -> (f32) {
// CHECK:           memref.load %arg1
// CHECK:         %[[LOOP:[0-9]+]]:8 = scf.for %[[K0:[a-z0-9_]+]] = %c0 to %c5 step %c4
// CHECK-SAME:      iter_args({{.*}} = %cst, %[[AR:[a-z0-9_]+]] = %[[A0]], {{.*}} = %[[B0]],
// CHECK:           memref.store %[[AR]], %[[AS]]
// CHECK:           memref.store %{{.+}}, %[[BS]]
// CHECK:           gpu.barrier
// CHECK:           %[[NEXT:.+]] = arith.addi %[[K0]], %c4
// CHECK:           %[[MORE:.+]] = arith.cmpi ult, %[[NEXT]], %c5
// CHECK:           scf.if %[[MORE]] -> (f32, f32, f32, f32) {
// CHECK:             memref.load %arg0
// CHECK:             memref.load %arg1
// CHECK:           } else {
// CHECK:             scf.yield %cst, %cst, %cst, %cst
// CHECK:           memref.load %[[AS]]
// CHECK:           memref.load %[[BS]]
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:           gpu.barrier
// CHECK:           scf.yield
// CHECK:         scf.if
// CHECK:           %[[OLD:.+]] = memref.load %arg2
// CHECK:           %[[NEW:.+]] = arith.addf %[[OLD]], %[[LOOP]]#0
// CHECK:           memref.store %[[NEW]], %arg2
func.func @odd_f32(%a: memref<7x5xf32>, %b: memref<5x13xf32>, %c: memref<7x13xf32>) {
  linalg.matmul ins(%a, %b : memref<7x5xf32>, memref<5x13xf32>)
                outs(%c : memref<7x13xf32>)
  return
}

// -----

// Sizes the tiles divide need no masks: the one scf.if left is whether
// there is a next step to load.
// CHECK-LABEL: func.func @divisible
// CHECK:       gpu.launch blocks({{.*}}) in ({{[^)]*}} = %c2, {{[^)]*}} = %c3, {{[^)]*}} = %c1)
// CHECK-NOT:   scf.if
// CHECK:       scf.for
// CHECK-NOT:   scf.if
// CHECK:       scf.if %{{.+}} -> (f32, f32, f32, f32) {
// CHECK-NOT:   scf.if
// CHECK:       gpu.terminator
func.func @divisible(%a: memref<24x8xf32>, %b: memref<8x16xf32>, %c: memref<24x16xf32>) {
  linalg.matmul ins(%a, %b : memref<24x8xf32>, memref<8x16xf32>)
                outs(%c : memref<24x16xf32>)
  return
}

// -----

// bf16 with B transposed (k its contiguous dim), accumulating in f32: the
// staging converts each element to f32 once; B's consecutive threads walk
// k (index mod tile-k), as A's do, so both blocks' rows in workgroup
// memory are padded by 32 / tile-k words (4 x (8 + 8) = 64 words; B is
// 4 x 8 = 32 words in @odd_f32, where n is its contiguous dim). K = 4 is
// one step: the loop folds away.
// CHECK-LABEL: func.func @bf16_transpose_b
// CHECK:       workgroup(%{{[a-z0-9_]+}} : memref<64xf32, #gpu.address_space<workgroup>>, %[[BS:[a-z0-9_]+]] : memref<64xf32, #gpu.address_space<workgroup>>)
// CHECK:         %[[ROW:[0-9]+]] = arith.divui %{{.+}}, %c4
// CHECK:         %[[KK:[0-9]+]] = arith.remui %{{.+}}, %c4
// CHECK:         %[[A:[0-9]+]] = memref.load %arg0[%[[ROW]], %[[KK]]] : memref<8x4xbf16>
// CHECK:         arith.extf %[[A]] : bf16 to f32
// CHECK:         %[[B:[0-9]+]] = memref.load %arg1[%[[ROW]], %[[KK]]] : memref<8x4xbf16>
// CHECK:         %[[BF:[0-9]+]] = arith.extf %[[B]] : bf16 to f32
// CHECK:         memref.store %[[BF]], %[[BS]]
// CHECK:         gpu.barrier
// CHECK-NOT:   arith.extf
// CHECK:       gpu.terminator
func.func @bf16_transpose_b(%a: memref<8x4xbf16>, %b: memref<8x4xbf16>, %c: memref<8x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (n, k)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xbf16>, memref<8x4xbf16>) outs(%c : memref<8x8xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A batched matmul broadcasting A's batch dim of size 1: the grid's z walks
// the 2 x 3 batch, split back into its two dims; A reads index 0 of its
// broadcast dim. (K = 4 is one step: the loop folds away.)
// CHECK-LABEL: func.func @batched_broadcast
// CHECK:       gpu.launch blocks(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %[[BZ:[a-z0-9_]+]]) in ({{[^)]*}} = %c1, {{[^)]*}} = %c1, {{[^)]*}} = %c6)
// CHECK-DAG:     %[[B1:[0-9]+]] = arith.remui %[[BZ]], %c3
// CHECK-DAG:     %[[B0:[0-9]+]] = arith.divui %[[BZ]], %c3
// CHECK:           memref.load %arg0[%[[B0]], %c0, %{{.+}}, %{{.+}}] : memref<2x1x8x4xf32>
// CHECK:           memref.load %arg1[%[[B1]], %{{.+}}, %{{.+}}] : memref<3x4x8xf32>
// CHECK:         memref.load %arg2[%[[B0]], %[[B1]], %{{.+}}, %{{.+}}]
func.func @batched_broadcast(%a: memref<2x1x8x4xf32>, %b: memref<3x4x8xf32>, %c: memref<2x3x8x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b0, b1, m, n, k) -> (b0, 0, m, k)>,
                                   affine_map<(b0, b1, m, n, k) -> (b1, k, n)>,
                                   affine_map<(b0, b1, m, n, k) -> (b0, b1, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<2x1x8x4xf32>, memref<3x4x8xf32>) outs(%c : memref<2x3x8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// What is not an f32 or f64 matmul stays for rlx-gpu-map-linalg: an
// integer product (generalized, as rlx-gpu-map-linalg would), an f16
// accumulator, and a body that does more than multiply and add.
// CHECK-LABEL: func.func @not_matmuls
// CHECK-NOT:   gpu.launch
// CHECK:       linalg.generic {{.+}} ins(%{{.+}} : memref<4x4xi32>, memref<4x4xi32>)
// CHECK:         arith.muli
// CHECK:       linalg.generic {{.+}} outs(%{{.+}} : memref<4x4xf16>)
// CHECK:       linalg.generic
// CHECK:         math.absf
func.func @not_matmuls(%a: memref<4x4xi32>, %b: memref<4x4xi32>, %c: memref<4x4xi32>,
                       %h: memref<4x4xf16>,
                       %x: memref<4x4xf32>, %y: memref<4x4xf32>, %z: memref<4x4xf32>) {
  linalg.matmul ins(%a, %b : memref<4x4xi32>, memref<4x4xi32>)
                outs(%c : memref<4x4xi32>)
  linalg.matmul ins(%h, %h : memref<4x4xf16>, memref<4x4xf16>)
                outs(%h : memref<4x4xf16>)
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (k, n)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : memref<4x4xf32>, memref<4x4xf32>) outs(%z : memref<4x4xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %a1 = math.absf %m : f32
    %s = arith.addf %acc, %a1 : f32
    linalg.yield %s : f32
  }
  return
}
