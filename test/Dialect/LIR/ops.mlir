// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// A planned two-layer function: the arena with its plan, two root buffers
// sharing no byte while both live, an in-place alias, a weight slot, and
// kernels over them; everything parses, prints and re-parses.

// CHECK: module attributes {rlx_lir.weights = #rlx_lir.weights<size = 256, alignment = 64, slots = [#rlx_lir.slot<name = "w", offset = 0, size = 256>]>}
module attributes {rlx_lir.weights = #rlx_lir.weights<size = 256, alignment = 64, slots = [#rlx_lir.slot<name = "w", offset = 0, size = 256>]>} {
// CHECK-LABEL: func.func @two_layers
func.func @two_layers(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK: %[[ARENA:.+]] = rlx_lir.arena {plan = #rlx_lir.plan<arena_size = 256, alignment = 64, buffers = [#rlx_lir.buffer<id = 0, offset = 0, size = 128, start = 0, end = 2>, #rlx_lir.buffer<id = 1, offset = 0, size = 128, start = 1, end = 2, root = 0>, #rlx_lir.buffer<id = 2, offset = 128, size = 128, start = 2, end = 3>]>} : memref<256xi8>
  %arena = rlx_lir.arena {plan = #rlx_lir.plan<arena_size = 256, alignment = 64, buffers = [
      #rlx_lir.buffer<id = 0, offset = 0, size = 128, start = 0, end = 2>,
      #rlx_lir.buffer<id = 1, offset = 0, size = 128, start = 1, end = 2, root = 0>,
      #rlx_lir.buffer<id = 2, offset = 128, size = 128, start = 2, end = 3>]>} : memref<256xi8>
  // CHECK: %[[B0:.+]] = rlx_lir.buffer %[[ARENA]][0] id 0 : memref<256xi8> -> memref<4x8xf32>
  %b0 = rlx_lir.buffer %arena[0] id 0 : memref<256xi8> -> memref<4x8xf32>
  // CHECK: %[[B2:.+]] = rlx_lir.buffer %[[ARENA]][128] id 2 : memref<256xi8> -> memref<4x8xf32>
  %b2 = rlx_lir.buffer %arena[128] id 2 : memref<256xi8> -> memref<4x8xf32>
  // CHECK: %[[B1:.+]] = rlx_lir.alias %[[B0]][0] id 1 : memref<4x8xf32> -> memref<4x8xf32>
  %b1 = rlx_lir.alias %b0[0] id 1 : memref<4x8xf32> -> memref<4x8xf32>
  // CHECK: %[[W:.+]] = rlx_lir.weight "w" : memref<8x8xf32>
  %w = rlx_lir.weight "w" : memref<8x8xf32>
  // CHECK: rlx_lir.kernel "rlx.matmul" ins(%{{.+}}, %[[W]] : tensor<4x8xf32>, memref<8x8xf32>) outs(%[[B0]] : memref<4x8xf32>)
  rlx_lir.kernel "rlx.matmul" ins(%x, %w : tensor<4x8xf32>, memref<8x8xf32>) outs(%b0 : memref<4x8xf32>) {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>):
    %m = rlx.matmul %a, %b : tensor<4x8xf32>, tensor<8x8xf32>
    // CHECK: rlx_lir.yield %{{.+}} : tensor<4x8xf32>
    rlx_lir.yield %m : tensor<4x8xf32>
  }
  // CHECK: rlx_lir.kernel "rlx.gelu" ins(%[[B0]] : memref<4x8xf32>) outs(%[[B1]] : memref<4x8xf32>)
  rlx_lir.kernel "rlx.gelu" ins(%b0 : memref<4x8xf32>) outs(%b1 : memref<4x8xf32>) {
  ^bb0(%a: tensor<4x8xf32>):
    %g = rlx.gelu %a : tensor<4x8xf32>
    rlx_lir.yield %g : tensor<4x8xf32>
  }
  rlx_lir.kernel "rlx.matmul" ins(%b1, %w : memref<4x8xf32>, memref<8x8xf32>) outs(%b2 : memref<4x8xf32>) {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>):
    %m = rlx.matmul %a, %b : tensor<4x8xf32>, tensor<8x8xf32>
    rlx_lir.yield %m : tensor<4x8xf32>
  }
  // CHECK: %[[Y:.+]] = rlx_lir.kernel "rlx.add" ins(%[[B2]], %{{.+}} : memref<4x8xf32>, tensor<4x8xf32>) {
  // CHECK: } -> tensor<4x8xf32>
  %y = rlx_lir.kernel "rlx.add" ins(%b2, %x : memref<4x8xf32>, tensor<4x8xf32>) {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>):
    %s = rlx.add %a, %b : tensor<4x8xf32>
    rlx_lir.yield %s : tensor<4x8xf32>
  } -> tensor<4x8xf32>
  // CHECK: return %[[Y]]
  return %y : tensor<4x8xf32>
}
}
