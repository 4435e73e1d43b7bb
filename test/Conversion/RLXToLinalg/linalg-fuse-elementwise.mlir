// RUN: rlx-opt %s --rlx-linalg-fuse-elementwise --split-input-file | FileCheck %s
// RUN: rlx-opt %s --rlx-linalg-fuse-elementwise=max-body-ops=3 --split-input-file | FileCheck %s --check-prefix=SMALL
// RUN: rlx-opt %s --rlx-linalg-fuse-elementwise=max-body-ops=0 --split-input-file | FileCheck %s --check-prefix=NODUP

// A chain of elementwise generics (add of a broadcast row, exp, multiply)
// becomes one generic that reads all three inputs through their own maps
// and computes the chain in its body.
// CHECK-DAG:   #[[$ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[$COL:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// With max-body-ops=0 (the CUDA pipeline's setting) a chain of producers
// read once still fuses.
// NODUP-LABEL: func.func @chain(
// NODUP:         linalg.generic
// NODUP-NOT:     linalg.generic
// NODUP:         return
// CHECK-LABEL: func.func @chain(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>, %[[B:[^:]+]]: tensor<8xf32>, %[[C:[^:]+]]: tensor<4x8xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID]], #[[$COL]], #[[$ID]], #[[$ID]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%[[X]], %[[B]], %[[C]] : tensor<4x8xf32>, tensor<8xf32>, tensor<4x8xf32>)
// CHECK:         ^bb0(%[[XV:[^:]+]]: f32, %[[BV:[^:]+]]: f32, %[[CV:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:      %[[S:.+]] = arith.addf %[[XV]], %[[BV]] : f32
// CHECK-NEXT:      %[[E:.+]] = math.exp %[[S]] : f32
// CHECK-NEXT:      %[[M:.+]] = arith.mulf %[[E]], %[[CV]] : f32
// CHECK-NEXT:      linalg.yield %[[M]] : f32
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @chain(%x: tensor<4x8xf32>, %b: tensor<8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %v: f32, %o: f32):
    %s = arith.addf %a, %v : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.exp %a : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%1, %c : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %w: f32, %o: f32):
    %s = arith.mulf %a, %w : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// A 1-D producer read as a broadcast row by an elementwise consumer fuses
// too (the consumer's loops are all parallel): the fused generic reads the
// producer's input through the row map.
// CHECK-DAG:   #[[$ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[$COL:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @broadcast_producer(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>, %[[B:[^:]+]]: tensor<8xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID]], #[[$COL]], #[[$ID]]]
// CHECK-SAME:      ins(%[[X]], %[[B]] : tensor<4x8xf32>, tensor<8xf32>)
// CHECK:         ^bb0(%[[XV:[^:]+]]: f32, %[[BV:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:      %[[E:.+]] = math.exp %[[BV]] : f32
// CHECK-NEXT:      %[[M:.+]] = arith.mulf %[[XV]], %[[E]] : f32
// CHECK-NEXT:      linalg.yield %[[M]] : f32
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]]
#id1 = affine_map<(d0) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @broadcast_producer(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %e1 = tensor.empty() : tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%b : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.exp %a : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %0 : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %v: f32, %o: f32):
    %s = arith.mulf %a, %v : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// An exp feeding a row sum is not fused into the reduction: two generics,
// and the reduction's body has no exp.
// CHECK-LABEL: func.func @into_reduction(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>
// CHECK:         %[[E:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%[[X]] : tensor<4x8xf32>)
// CHECK:           math.exp
// CHECK:         %[[S:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%[[E]] : tensor<4x8xf32>)
// CHECK-NOT:       math.exp
// CHECK:           arith.addf
// CHECK-NEXT:      linalg.yield
// CHECK:         return %[[S]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @into_reduction(%x: tensor<4x8xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.exp %a : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%0 : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// An exp (a GELU-like activation) feeding a matmul is not recomputed in
// every step of the matmul's reduction: two generics remain.
// CHECK-LABEL: func.func @into_matmul(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>, %[[W:[^:]+]]: tensor<8x5xf32>
// CHECK:         %[[E:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[X]] : tensor<4x8xf32>)
// CHECK:           math.exp
// CHECK:         %[[MM:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[E]], %[[W]] : tensor<4x8xf32>, tensor<8x5xf32>)
// CHECK-NOT:       math.exp
// CHECK:           arith.mulf
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      linalg.yield
// CHECK:         return %[[MM]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @into_matmul(%x: tensor<4x8xf32>, %w: tensor<8x5xf32>, %acc: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.exp %a : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%0, %w : tensor<4x8xf32>, tensor<8x5xf32>) outs(%acc : tensor<4x5xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x5xf32>
  return %1 : tensor<4x5xf32>
}

// -----

// A reduction producer (row sum) is not fused into its elementwise
// consumer (only all-parallel producers fuse).
// CHECK-LABEL: func.func @reduction_producer(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>
// CHECK:         %[[S:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%[[X]], %[[S]] : tensor<4x8xf32>, tensor<4xf32>)
// CHECK:           arith.divf
// CHECK:         return %[[R]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @reduction_producer(%x: tensor<4x8xf32>, %acc: tensor<4xf32>) -> tensor<4x8xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %0 : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %v: f32, %o: f32):
    %s = arith.divf %a, %v : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// An exp read by an elementwise negate and by a row sum: it fuses into the
// negate (which then reads the function's argument) and stays, on its own,
// for the sum.
// CHECK-LABEL: func.func @two_consumers(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>
// CHECK:         %[[E:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%[[X]] : tensor<4x8xf32>)
// CHECK:           math.exp
// CHECK-NOT:       arith.negf
// CHECK:         %[[N:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%[[X]] : tensor<4x8xf32>)
// CHECK:           %[[EV:.+]] = math.exp
// CHECK-NEXT:      arith.negf %[[EV]]
// CHECK:         %[[S:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%[[E]] : tensor<4x8xf32>)
// CHECK-NOT:       math.exp
// CHECK:         return %[[N]], %[[S]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @two_consumers(%x: tensor<4x8xf32>, %acc: tensor<4xf32>) -> (tensor<4x8xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.exp %a : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.negf %a : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%0 : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %1, %2 : tensor<4x8xf32>, tensor<4xf32>
}

// -----

// Elementwise generics on buffers are not fused (the fusion works on
// tensors): both stay, the second reading the first's buffer.
// CHECK-LABEL: func.func @buffers(
// CHECK-SAME:    %[[X:[^:]+]]: memref<4x8xf32>, %[[T:[^:]+]]: memref<4x8xf32>, %[[Y:[^:]+]]: memref<4x8xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[X]] : memref<4x8xf32>) outs(%[[T]] : memref<4x8xf32>)
// CHECK:           math.exp
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[T]] : memref<4x8xf32>) outs(%[[Y]] : memref<4x8xf32>)
// CHECK-NOT:       math.exp
// CHECK:           arith.negf
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @buffers(%x: memref<4x8xf32>, %t: memref<4x8xf32>, %y: memref<4x8xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x8xf32>) outs(%t : memref<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.exp %a : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<4x8xf32>) outs(%y : memref<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.negf %a : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A producer read by two consumers is fused into both (it is computed
// again in each) while the fused body stays within max-body-ops: here
// 2 + 2 body ops, within the default 64 but not within 3.
// CHECK-LABEL: func.func @shared_producer(
// CHECK-COUNT-2: arith.mulf
// CHECK-NOT:     linalg.generic
// CHECK:         return
// SMALL-LABEL: func.func @shared_producer(
// SMALL-COUNT-3: linalg.generic
// SMALL:         return
// With max-body-ops=0 a producer with two readers is never duplicated.
// NODUP-LABEL: func.func @shared_producer(
// NODUP-COUNT-3: linalg.generic
// NODUP:         return
#id = affine_map<(d0) -> (d0)>
func.func @shared_producer(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %c1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%p, %y : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %c2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%p, %y : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %c1, %c2 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Each step reads the previous value twice, through two different maps
// (so the reads cannot be merged into one operand): unbounded, fusing
// would double the body at every step (2^24 multiplies here); bounded,
// the pass stops fusing at 64 body ops and leaves several generics.
// CHECK-LABEL: func.func @doubling_chain(
// CHECK-COUNT-2: linalg.generic
// CHECK:         return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#tr2 = affine_map<(d0, d1) -> (d1, d0)>
func.func @doubling_chain(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %s0 = linalg.generic {indexing_maps = [#id2, #tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %x : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %s1 = linalg.generic {indexing_maps = [#id2, #tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s0, %s0 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %s2 = linalg.generic {indexing_maps = [#id2, #tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s1, %s1 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %s3 = linalg.generic {indexing_maps = [#id2, #tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s2, %s2 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %s4 = linalg.generic {indexing_maps = [#id2, #tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s3, %s3 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %s5 = linalg.generic {indexing_maps = [#id2, #tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s4, %s4 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %s6 = linalg.generic {indexing_maps = [#id2, #tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s5, %s5 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %s7 = linalg.generic {indexing_maps = [#id2, #tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s6, %s6 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %s8 = linalg.generic {indexing_maps = [#id2, #tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s7, %s7 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %s9 = linalg.generic {indexing_maps = [#id2, #tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s8, %s8 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %s10 = linalg.generic {indexing_maps = [#id2, #tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s9, %s9 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %s11 = linalg.generic {indexing_maps = [#id2, #tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s10, %s10 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %s12 = linalg.generic {indexing_maps = [#id2, #tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s11, %s11 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %s13 = linalg.generic {indexing_maps = [#id2, #tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s12, %s12 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %s14 = linalg.generic {indexing_maps = [#id2, #tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s13, %s13 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %s15 = linalg.generic {indexing_maps = [#id2, #tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s14, %s14 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %s16 = linalg.generic {indexing_maps = [#id2, #tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s15, %s15 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %s17 = linalg.generic {indexing_maps = [#id2, #tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s16, %s16 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %s18 = linalg.generic {indexing_maps = [#id2, #tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s17, %s17 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %s19 = linalg.generic {indexing_maps = [#id2, #tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s18, %s18 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %s20 = linalg.generic {indexing_maps = [#id2, #tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s19, %s19 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %s21 = linalg.generic {indexing_maps = [#id2, #tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s20, %s20 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %s22 = linalg.generic {indexing_maps = [#id2, #tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s21, %s21 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %s23 = linalg.generic {indexing_maps = [#id2, #tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s22, %s22 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  return %s23 : tensor<8x8xf32>
}
