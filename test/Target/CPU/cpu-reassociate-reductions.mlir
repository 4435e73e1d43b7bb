// RUN: rlx-opt %s --rlx-cpu-reassociate-reductions --split-input-file | FileCheck %s

// The sum of a softmax: every float op in the body of a generic with a
// reduction loop gets `reassoc` (arith.subf, math.exp, arith.cmpf and the
// accumulating arith.addf); arith.select has no fast-math flags. The float
// arithmetic outside the generic is left alone.
// CHECK-LABEL: func.func @softmax_sum(
// CHECK:         %[[OUTSIDE:.+]] = arith.addf %{{[^ ,]+}}, %{{[^ ,]+}} : f32
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK:           %[[D:.+]] = arith.subf %{{[^ ,]+}}, %{{[^ ,]+}} fastmath<reassoc> : f32
// CHECK-NEXT:      %[[E:.+]] = math.exp %[[D]] fastmath<reassoc> : f32
// CHECK-NEXT:      %[[C:.+]] = arith.cmpf oeq, %{{[^ ,]+}}, %{{[^ ,]+}} fastmath<reassoc> : f32
// CHECK-NEXT:      %[[Z:.+]] = arith.select %[[C]], %{{[^ ,]+}}, %[[E]] : f32
// CHECK-NEXT:      %[[R:.+]] = arith.addf %{{[^ ,]+}}, %[[Z]] fastmath<reassoc> : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax_sum(%x: tensor<4x8xf32>, %m: tensor<4xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.addf %ninf, %ninf : f32
  %s = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<4x8xf32>, tensor<4xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    %e = math.exp %d : f32
    %c = arith.cmpf oeq, %in, %ninf : f32
    %z = arith.select %c, %zero, %e : f32
    %r = arith.addf %out, %z : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// A matmul (reduction loop k): its multiply and its add both get reassoc.
// CHECK-LABEL: func.func @matmul(
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:           %[[P:.+]] = arith.mulf %{{[^ ,]+}}, %{{[^ ,]+}} fastmath<reassoc> : f32
// CHECK-NEXT:      %[[S:.+]] = arith.addf %{{[^ ,]+}}, %[[P]] fastmath<reassoc> : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @matmul(%x: tensor<4x8xf32>, %w: tensor<8x5xf32>, %acc: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %mm = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<4x8xf32>, tensor<8x5xf32>) outs(%acc : tensor<4x5xf32>) {
  ^bb0(%l: f32, %r: f32, %out: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %out, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x5xf32>
  return %mm : tensor<4x5xf32>
}

// -----

// Flags already present are kept and reassoc is added to them: nnan
// becomes reassoc,nnan, nnan,ninf becomes reassoc,nnan,ninf, and fast
// (which includes reassoc) stays fast.
// CHECK-LABEL: func.func @existing_flags(
// CHECK:         linalg.generic
// CHECK:           %[[SQ:.+]] = arith.mulf %{{[^ ,]+}}, %{{[^ ,]+}} fastmath<reassoc,nnan> : f64
// CHECK-NEXT:      %[[A:.+]] = arith.addf %{{[^ ,]+}}, %[[SQ]] fastmath<reassoc,nnan,ninf> : f64
// CHECK-NEXT:      %[[B:.+]] = arith.maximumf %[[A]], %{{[^ ,]+}} fastmath<fast> : f64
// CHECK-NEXT:      linalg.yield %[[B]] : f64
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @existing_flags(%x: tensor<4x8xf64>, %acc: tensor<4xf64>) -> tensor<4xf64> {
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf64>) outs(%acc : tensor<4xf64>) {
  ^bb0(%in: f64, %out: f64):
    %sq = arith.mulf %in, %in fastmath<nnan> : f64
    %a = arith.addf %out, %sq fastmath<nnan,ninf> : f64
    %b = arith.maximumf %a, %out fastmath<fast> : f64
    linalg.yield %b : f64
  } -> tensor<4xf64>
  return %s : tensor<4xf64>
}

// -----

// A reduction on buffers is marked as well.
// CHECK-LABEL: func.func @buffers(
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{[^ ,]+}} : memref<4x8xf32>) outs(%{{[^ ,]+}} : memref<4xf32>)
// CHECK:           arith.addf %{{[^ ,]+}}, %{{[^ ,]+}} fastmath<reassoc> : f32
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @buffers(%x: memref<4x8xf32>, %acc: memref<4xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x8xf32>) outs(%acc : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    linalg.yield %a : f32
  }
  return
}

// -----

// An all-parallel generic is not touched: no flag is added, and an existing
// nnan stays nnan alone.
// CHECK-LABEL: func.func @elementwise(
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK:           %[[R:.+]] = arith.addf %{{[^ ,]+}}, %{{[^ ,]+}} : f32
// CHECK-NEXT:      %[[Q:.+]] = arith.mulf %[[R]], %{{[^ ,]+}} fastmath<nnan> : f32
// CHECK-NEXT:      linalg.yield %[[Q]] : f32
// CHECK-NOT:     reassoc
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @elementwise(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %r = arith.addf %a, %b : f32
    %q = arith.mulf %r, %a fastmath<nnan> : f32
    linalg.yield %q : f32
  } -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// Integer arithmetic has no fast-math flags: an integer sum is unchanged.
// CHECK-LABEL: func.func @integer_sum(
// CHECK:         linalg.generic
// CHECK:           %[[A:.+]] = arith.addi %{{[^ ,]+}}, %{{[^ ,]+}} : i32
// CHECK-NEXT:      linalg.yield %[[A]] : i32
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @integer_sum(%x: tensor<4x8xi32>, %acc: tensor<4xi32>) -> tensor<4xi32> {
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xi32>) outs(%acc : tensor<4xi32>) {
  ^bb0(%in: i32, %out: i32):
    %a = arith.addi %out, %in : i32
    linalg.yield %a : i32
  } -> tensor<4xi32>
  return %s : tensor<4xi32>
}
