// RUN: rlx-opt %s -split-input-file --rlx-plan-memory | FileCheck %s
// RUN: rlx-opt %s -split-input-file --rlx-plan-memory=planner=greedy | FileCheck %s --check-prefix=GREEDY
// RUN: rlx-opt %s -split-input-file --rlx-plan-memory=planner=best-fit | FileCheck %s --check-prefix=BESTFIT

// Exact plans of small graphs, worked out by hand (sizes in bytes, kernels
// numbered in program order, lifetimes inclusive, alignment 64).

// A chain: the matmul's result (buffer 0) is overwritten in place by the
// gelu (alias 1), which the second matmul reads at kernel 2 while writing
// buffer 2; so buffer 0 lives over [0, 2] and buffer 2 over [2, 3], and
// they cannot share bytes. The final add is returned: not in the arena.

// CHECK-LABEL: func.func @chain
// CHECK: %[[A:.+]] = rlx_lir.arena {plan = #rlx_lir.plan<arena_size = 256, alignment = 64, buffers = [#rlx_lir.buffer<id = 0, offset = 0, size = 128, start = 0, end = 2>, #rlx_lir.buffer<id = 1, offset = 0, size = 128, start = 1, end = 2, root = 0>, #rlx_lir.buffer<id = 2, offset = 128, size = 128, start = 2, end = 3>]>} : memref<256xi8>
// CHECK: %[[B0:.+]] = rlx_lir.buffer %[[A]][0] id 0 : memref<256xi8> -> memref<4x8xf32>
// CHECK: %[[B2:.+]] = rlx_lir.buffer %[[A]][128] id 2 : memref<256xi8> -> memref<4x8xf32>
// CHECK: %[[B1:.+]] = rlx_lir.alias %[[B0]][0] id 1 : memref<4x8xf32> -> memref<4x8xf32>
// CHECK: rlx_lir.kernel "rlx.matmul" ins(%{{.+}}, %{{.+}} : tensor<4x8xf32>, tensor<8x8xf32>) outs(%[[B0]] : memref<4x8xf32>)
// CHECK: rlx_lir.kernel "rlx.gelu" ins(%[[B0]] : memref<4x8xf32>) outs(%[[B1]] : memref<4x8xf32>)
// CHECK: rlx_lir.kernel "rlx.matmul" ins(%[[B1]], %{{.+}} : memref<4x8xf32>, tensor<8x8xf32>) outs(%[[B2]] : memref<4x8xf32>)
// CHECK: %[[Y:.+]] = rlx_lir.kernel "rlx.add" ins(%[[B2]], %{{.+}} : memref<4x8xf32>, tensor<4x8xf32>) {
// CHECK: } -> tensor<4x8xf32>
// CHECK: return %[[Y]] : tensor<4x8xf32>
func.func @chain(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %0 = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x8xf32>
  %1 = rlx.gelu %0 : tensor<4x8xf32>
  %2 = rlx.matmul %1, %w : tensor<4x8xf32>, tensor<8x8xf32>
  %3 = rlx.add %2, %x : tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// -----

// A broadcasting add writes over its operand of the result's shape (here the
// right one), which dies there; the bias is read as it is.

// CHECK-LABEL: func.func @bias_in_place
// CHECK: rlx_lir.arena {plan = #rlx_lir.plan<arena_size = 128, alignment = 64, buffers = [#rlx_lir.buffer<id = 0, offset = 0, size = 128, start = 0, end = 2>, #rlx_lir.buffer<id = 1, offset = 0, size = 128, start = 1, end = 2, root = 0>]>} : memref<128xi8>
// CHECK: rlx_lir.kernel "rlx.add" ins(%{{.+}}, %{{.+}} : tensor<8xf32>, memref<4x8xf32>) outs(%{{.+}} : memref<4x8xf32>)
func.func @bias_in_place(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %b: tensor<8xf32>) -> tensor<8x4xf32> {
  %0 = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x8xf32>
  %1 = rlx.add %b, %0 : tensor<8xf32>, tensor<4x8xf32>
  %2 = rlx.transpose %1 [1, 0] : tensor<4x8xf32>
  return %2 : tensor<8x4xf32>
}

// -----

// Reuse after death: transposes (not elementwise, not views) each read the
// previous one, so buffer 0 ([0, 1]) is dead when buffer 2 ([2, 3]) is
// written and both take offset 0; buffer 1 ([1, 2]) overlaps both in time.

// CHECK-LABEL: func.func @reuse
// CHECK: rlx_lir.arena {plan = #rlx_lir.plan<arena_size = 256, alignment = 64, buffers = [#rlx_lir.buffer<id = 0, offset = 0, size = 128, start = 0, end = 1>, #rlx_lir.buffer<id = 1, offset = 128, size = 128, start = 1, end = 2>, #rlx_lir.buffer<id = 2, offset = 0, size = 128, start = 2, end = 3>]>} : memref<256xi8>
func.func @reuse(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = rlx.transpose %x [1, 0] : tensor<4x8xf32>
  %b = rlx.transpose %a [1, 0] : tensor<8x4xf32>
  %c = rlx.transpose %b [1, 0] : tensor<4x8xf32>
  %d = rlx.transpose %c [1, 0] : tensor<8x4xf32>
  return %d : tensor<4x8xf32>
}

// -----

// Views cost nothing: the reshape is buffer 0's bytes (alias 1), the axis-0
// narrow of its second row is bytes [64, 128) (alias 2), and the neg, the
// last reader of buffer 0, overwrites that row in place (alias 3).

// CHECK-LABEL: func.func @views
// CHECK: %[[A:.+]] = rlx_lir.arena {plan = #rlx_lir.plan<arena_size = 128, alignment = 64, buffers = [#rlx_lir.buffer<id = 0, offset = 0, size = 128, start = 0, end = 2>, #rlx_lir.buffer<id = 1, offset = 0, size = 128, start = 0, end = 1, root = 0>, #rlx_lir.buffer<id = 2, offset = 64, size = 64, start = 0, end = 1, root = 0>, #rlx_lir.buffer<id = 3, offset = 64, size = 64, start = 1, end = 2, root = 0>]>} : memref<128xi8>
// CHECK: %[[B0:.+]] = rlx_lir.buffer %[[A]][0] id 0 : memref<128xi8> -> memref<8x4xf32>
// CHECK: rlx_lir.alias %[[B0]][0] id 1 : memref<8x4xf32> -> memref<2x16xf32>
// CHECK: %[[N:.+]] = rlx_lir.alias %[[B0]][64] id 2 : memref<8x4xf32> -> memref<1x16xf32>
// CHECK: %[[E:.+]] = rlx_lir.alias %[[B0]][64] id 3 : memref<8x4xf32> -> memref<1x16xf32>
// CHECK: rlx_lir.kernel "rlx.transpose"
// CHECK: rlx_lir.kernel "rlx.neg" ins(%[[N]] : memref<1x16xf32>) outs(%[[E]] : memref<1x16xf32>)
// CHECK-NOT: rlx.reshape
// CHECK-NOT: rlx.narrow
// CHECK: rlx_lir.kernel "rlx.transpose" ins(%[[E]] : memref<1x16xf32>)
func.func @views(%x: tensor<4x8xf32>) -> tensor<16x1xf32> {
  %a = rlx.transpose %x [1, 0] : tensor<4x8xf32>
  %r = rlx.reshape %a : tensor<8x4xf32> -> tensor<2x16xf32>
  %n = rlx.narrow %r axis = 0 start = 1 length = 1 : tensor<2x16xf32>
  %e = rlx.neg %n : tensor<1x16xf32>
  %t = rlx.transpose %e [1, 0] : tensor<1x16xf32>
  return %t : tensor<16x1xf32>
}

// -----

// Outside the arena: a returned view of an argument is a kernel of its own
// (the caller gets a fresh tensor); a constant is cloned into the kernel
// that reads it. Nothing is left for the arena.

// CHECK-LABEL: func.func @outside
// CHECK: rlx_lir.arena {plan = #rlx_lir.plan<arena_size = 0, alignment = 64, buffers = []>} : memref<0xi8>
// CHECK: %[[R:.+]] = rlx_lir.kernel "rlx.reshape" ins(%{{.+}} : tensor<4x8xf32>) {
// CHECK: %[[S:.+]] = rlx_lir.kernel "rlx.add" ins(%{{.+}} : tensor<4x8xf32>) {
// CHECK-NEXT: ^bb0(%[[X:.+]]: tensor<4x8xf32>):
// CHECK-NEXT: %[[C:.+]] = rlx.constant dense<1.000000e+00> : tensor<4x8xf32>
// CHECK-NEXT: %[[SUM:.+]] = rlx.add %[[X]], %[[C]] : tensor<4x8xf32>
// CHECK-NEXT: rlx_lir.yield %[[SUM]] : tensor<4x8xf32>
// CHECK: return %[[R]], %[[S]]
func.func @outside(%x: tensor<4x8xf32>) -> (tensor<32xf32>, tensor<4x8xf32>) {
  %c = rlx.constant dense<1.0> : tensor<4x8xf32>
  %r = rlx.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
  %s = rlx.add %x, %c : tensor<4x8xf32>
  return %r, %s : tensor<32xf32>, tensor<4x8xf32>
}

// -----

// Greedy and best-fit disagree. Buffers (bytes, lifetime): 0 (64, [0, 6]),
// 1 (64, [1, 3]), 2 (64, [2, 4]), 3 (128, [3, 4]), 4 (192, [4, 5]),
// 5 (192, [5, 6]). Both place by decreasing size (then longer lifetime):
// 4 at 0, 5 at 192 (live with 4), 3 at 192 (live with 4 only), 0 at 384
// (live with all). Buffer 1 (live with 3 and 0) has the gaps [0, 192) and
// [320, 384): greedy takes 0, best-fit the smaller, 320. Buffer 2 (live
// with 4, 3, 1, 0) then fits at 320 after greedy, and only on top (448)
// after best-fit. The most bytes live at once is 448 (kernels 4 and 5), so
// greedy is optimal and auto keeps it.

// CHECK-LABEL: func.func @divergent
// CHECK: rlx_lir.plan<arena_size = 448, alignment = 64, buffers = [#rlx_lir.buffer<id = 0, offset = 384, size = 64, start = 0, end = 6>, #rlx_lir.buffer<id = 1, offset = 0, size = 64, start = 1, end = 3>, #rlx_lir.buffer<id = 2, offset = 320, size = 64, start = 2, end = 4>, #rlx_lir.buffer<id = 3, offset = 192, size = 128, start = 3, end = 4>, #rlx_lir.buffer<id = 4, offset = 0, size = 192, start = 4, end = 5>, #rlx_lir.buffer<id = 5, offset = 192, size = 192, start = 5, end = 6>]>
// GREEDY-LABEL: func.func @divergent
// GREEDY: rlx_lir.plan<arena_size = 448, alignment = 64, buffers = [#rlx_lir.buffer<id = 0, offset = 384, size = 64, start = 0, end = 6>, #rlx_lir.buffer<id = 1, offset = 0, size = 64, start = 1, end = 3>, #rlx_lir.buffer<id = 2, offset = 320, size = 64, start = 2, end = 4>, #rlx_lir.buffer<id = 3, offset = 192, size = 128, start = 3, end = 4>, #rlx_lir.buffer<id = 4, offset = 0, size = 192, start = 4, end = 5>, #rlx_lir.buffer<id = 5, offset = 192, size = 192, start = 5, end = 6>]>
// BESTFIT-LABEL: func.func @divergent
// BESTFIT: rlx_lir.plan<arena_size = 512, alignment = 64, buffers = [#rlx_lir.buffer<id = 0, offset = 384, size = 64, start = 0, end = 6>, #rlx_lir.buffer<id = 1, offset = 320, size = 64, start = 1, end = 3>, #rlx_lir.buffer<id = 2, offset = 448, size = 64, start = 2, end = 4>, #rlx_lir.buffer<id = 3, offset = 192, size = 128, start = 3, end = 4>, #rlx_lir.buffer<id = 4, offset = 0, size = 192, start = 4, end = 5>, #rlx_lir.buffer<id = 5, offset = 192, size = 192, start = 5, end = 6>]>
func.func @divergent(%x: tensor<1x16xf32>, %w: tensor<16x16xf32>,
                     %a: tensor<2x1xf32>, %m: tensor<3x3xf32>) -> tensor<4x16xf32> {
  %b0 = rlx.matmul %x, %w : tensor<1x16xf32>, tensor<16x16xf32>
  %b1 = rlx.matmul %x, %w : tensor<1x16xf32>, tensor<16x16xf32>
  %b2 = rlx.matmul %x, %w : tensor<1x16xf32>, tensor<16x16xf32>
  %b3 = rlx.matmul %a, %b1 : tensor<2x1xf32>, tensor<1x16xf32>
  %b4 = rlx.concat %b2, %b3 axis = 0 : tensor<1x16xf32>, tensor<2x16xf32>
  %b5 = rlx.matmul %m, %b4 : tensor<3x3xf32>, tensor<3x16xf32>
  %y = rlx.concat %b0, %b5 axis = 0 : tensor<1x16xf32>, tensor<3x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// Parameters: one weight region for the module, one slot per name in order
// of first appearance; the forward and the backward read the same "w".

// CHECK: module attributes {rlx_lir.weights = #rlx_lir.weights<size = 288, alignment = 64, slots = [#rlx_lir.slot<name = "w", offset = 0, size = 256>, #rlx_lir.slot<name = "b", offset = 256, size = 32>]>}
// CHECK-LABEL: func.func @forward
// CHECK-DAG: %[[W:.+]] = rlx_lir.weight "w" : memref<8x8xf32>
// CHECK-DAG: %[[B:.+]] = rlx_lir.weight "b" : memref<8xf32>
// CHECK: rlx_lir.kernel "rlx.matmul" ins(%{{.+}}, %[[W]] : tensor<4x8xf32>, memref<8x8xf32>)
// CHECK: rlx_lir.kernel "rlx.add" ins(%{{.+}}, %[[B]] : memref<4x8xf32>, memref<8xf32>)
// CHECK-LABEL: func.func @backward
// CHECK: %[[W2:.+]] = rlx_lir.weight "w" : memref<8x8xf32>
// CHECK: rlx_lir.kernel "rlx.matmul" ins(%{{.+}}, %[[W2]] : tensor<4x8xf32>, memref<8x8xf32>)
func.func @forward(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %w = "rlx.param"() {name = "w"} : () -> tensor<8x8xf32>
  %b = "rlx.param"() {name = "b"} : () -> tensor<8xf32>
  %m = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x8xf32>
  %y = rlx.add %m, %b : tensor<4x8xf32>, tensor<8xf32>
  return %y : tensor<4x8xf32>
}
func.func @backward(%dy: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %w = "rlx.param"() {name = "w"} : () -> tensor<8x8xf32>
  %dx = rlx.matmul %dy, %w transpose_b true : tensor<4x8xf32>, tensor<8x8xf32>
  return %dx : tensor<4x8xf32>
}

// -----

// Dead ops: the exp -> matmul chain and the transpose are read by nothing
// live (the transpose by the dead matmul alone), so they get no buffer and
// no kernel: three kernels, the gelu in place of the matmul result, which
// the add reads last.

// CHECK-LABEL: func.func @dead_ops
// CHECK: rlx_lir.arena {plan = #rlx_lir.plan<arena_size = 128, alignment = 64, buffers = [#rlx_lir.buffer<id = 0, offset = 0, size = 128, start = 0, end = 2>, #rlx_lir.buffer<id = 1, offset = 0, size = 128, start = 1, end = 2, root = 0>]>} : memref<128xi8>
// CHECK-NOT: rlx.exp
// CHECK-NOT: rlx.transpose
// CHECK: rlx_lir.kernel "rlx.matmul"
// CHECK: rlx_lir.kernel "rlx.gelu"
// CHECK: rlx_lir.kernel "rlx.add"
// CHECK-NOT: rlx_lir.kernel
// CHECK: return
func.func @dead_ops(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %e = rlx.exp %x : tensor<4x8xf32>
  %t = rlx.transpose %w [1, 0] : tensor<8x8xf32>
  %0 = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x8xf32>
  %dead = rlx.matmul %e, %t : tensor<4x8xf32>, tensor<8x8xf32>
  %1 = rlx.gelu %0 : tensor<4x8xf32>
  %3 = rlx.add %1, %x : tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// -----

// A scalar constant that a kernel's body reads (the -inf of a decomposed
// attention's mask) is a value, not a buffer: it is planned nowhere and
// goes into the kernel that reads it (it was an error: "memory planning
// needs statically shaped tensors").
// CHECK-LABEL: func.func @scalar_constant
// CHECK-NOT:     arith.constant
// CHECK:         rlx_lir.kernel "linalg.generic"
// CHECK:           %[[INF:.+]] = arith.constant 0xFF800000 : f32
// CHECK:           arith.maximumf %{{.+}}, %[[INF]] : f32
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @scalar_constant(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %inf = arith.constant 0xFF800000 : f32
  %0 = rlx.exp %x : tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %inf : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %2 = rlx.neg %1 : tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}
