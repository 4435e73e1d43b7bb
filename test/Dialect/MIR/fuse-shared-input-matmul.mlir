// RUN: rlx-opt %s -split-input-file --rlx-fuse-shared-input-matmul | FileCheck %s
// RUN: rlx-opt %s -split-input-file --rlx-fuse=patterns=shared-input-matmul | FileCheck %s
// RUN: rlx-opt %s -split-input-file --rlx-fuse | FileCheck %s --check-prefix=ALL

// Three matmuls of one input (weights of 16, 4 and 8 columns, one of
// them a constant): one matmul of the concatenated weights, each result
// a narrow of its columns, in the matmuls' order.

// CHECK-LABEL: func.func @three(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x4x8xf32>, %[[WA:[^:]*]]: tensor<8x16xf32>, %[[WB:[^:]*]]: tensor<8x4xf32>)
// CHECK: %[[WC:.+]] = rlx.constant
// CHECK-NEXT: %[[W:.+]] = rlx.concat %[[WA]], %[[WB]], %[[WC]] axis = 1 : tensor<8x16xf32>, tensor<8x4xf32>, tensor<8x8xf32>
// CHECK-NEXT: %[[M:.+]] = rlx.matmul %[[X]], %[[W]] : tensor<2x4x8xf32>, tensor<8x28xf32>
// CHECK-NEXT: %[[A:.+]] = rlx.narrow %[[M]] axis = 2 start = 0 length = 16 : tensor<2x4x28xf32>
// CHECK-NEXT: %[[B:.+]] = rlx.narrow %[[M]] axis = 2 start = 16 length = 4 : tensor<2x4x28xf32>
// CHECK-NEXT: %[[C:.+]] = rlx.narrow %[[M]] axis = 2 start = 20 length = 8 : tensor<2x4x28xf32>
// CHECK-NEXT: return %[[A]], %[[B]], %[[C]]
func.func @three(%x: tensor<2x4x8xf32>, %wa: tensor<8x16xf32>, %wb: tensor<8x4xf32>)
    -> (tensor<2x4x16xf32>, tensor<2x4x4xf32>, tensor<2x4x8xf32>) {
  %wc = rlx.constant dense<1.0> : tensor<8x8xf32>
  %a = rlx.matmul %x, %wa : tensor<2x4x8xf32>, tensor<8x16xf32>
  %b = rlx.matmul %x, %wb : tensor<2x4x8xf32>, tensor<8x4xf32>
  %c = rlx.matmul %x, %wc : tensor<2x4x8xf32>, tensor<8x8xf32>
  return %a, %b, %c : tensor<2x4x16xf32>, tensor<2x4x4xf32>, tensor<2x4x8xf32>
}

// -----

// A computed weight stays out; the two others merge.

// CHECK-LABEL: func.func @computed_weight(
// CHECK: rlx.concat %{{[^,]*}}, %{{[^ ]*}} axis = 1 : tensor<8x4xf32>, tensor<8x4xf32>
// CHECK: rlx.matmul %{{.*}} : tensor<4x8xf32>, tensor<8x8xf32>
// CHECK: rlx.matmul %{{.*}} : tensor<4x8xf32>, tensor<8x4xf32>
func.func @computed_weight(%x: tensor<4x8xf32>, %wa: tensor<8x4xf32>, %wb: tensor<8x4xf32>, %wc: tensor<8x4xf32>)
    -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %w = rlx.exp %wc : tensor<8x4xf32>
  %a = rlx.matmul %x, %wa : tensor<4x8xf32>, tensor<8x4xf32>
  %b = rlx.matmul %x, %wb : tensor<4x8xf32>, tensor<8x4xf32>
  %c = rlx.matmul %x, %w : tensor<4x8xf32>, tensor<8x4xf32>
  return %a, %b, %c : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// A transposed weight: nothing to merge with.

// CHECK-LABEL: func.func @transposed(
// CHECK-NOT: rlx.concat
// CHECK: return
func.func @transposed(%x: tensor<4x8xf32>, %wa: tensor<8x4xf32>, %wb: tensor<4x8xf32>)
    -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %a = rlx.matmul %x, %wa : tensor<4x8xf32>, tensor<8x4xf32>
  %b = rlx.matmul %x, %wb transpose_b true : tensor<4x8xf32>, tensor<4x8xf32>
  return %a, %b : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// Different inputs: no merge.

// CHECK-LABEL: func.func @different_inputs(
// CHECK-NOT: rlx.concat
// CHECK: return
func.func @different_inputs(%x: tensor<4x8xf32>, %z: tensor<4x8xf32>, %wa: tensor<8x4xf32>, %wb: tensor<8x4xf32>)
    -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %a = rlx.matmul %x, %wa : tensor<4x8xf32>, tensor<8x4xf32>
  %b = rlx.matmul %z, %wb : tensor<4x8xf32>, tensor<8x4xf32>
  return %a, %b : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// A batched (3-D) weight cannot be concatenated with a 2-D one: no merge.

// CHECK-LABEL: func.func @batched_weight(
// CHECK-NOT: rlx.concat
// CHECK: return
func.func @batched_weight(%x: tensor<2x4x8xf32>, %wa: tensor<8x4xf32>, %wb: tensor<2x8x4xf32>)
    -> (tensor<2x4x4xf32>, tensor<2x4x4xf32>) {
  %a = rlx.matmul %x, %wa : tensor<2x4x8xf32>, tensor<8x4xf32>
  %b = rlx.matmul %x, %wb : tensor<2x4x8xf32>, tensor<2x8x4xf32>
  return %a, %b : tensor<2x4x4xf32>, tensor<2x4x4xf32>
}

// -----

// A SwiGLU's gate and up are left to rlx-fuse-swiglu, and a biased
// matmul to rlx-fuse-matmul-bias-act (with all families, they fuse so).

// CHECK-LABEL: func.func @left_to_others(
// CHECK-NOT: rlx.concat
// CHECK: return
// ALL-LABEL: func.func @left_to_others(
// ALL-NOT: rlx.concat
// ALL-DAG: rlx.fused_swiglu
// ALL-DAG: rlx.fused_matmul_bias_act
// ALL: return
func.func @left_to_others(%x: tensor<4x8xf32>, %wg: tensor<8x16xf32>, %wu: tensor<8x16xf32>, %wb: tensor<8x4xf32>, %bias: tensor<4xf32>)
    -> (tensor<4x16xf32>, tensor<4x4xf32>) {
  %g = rlx.matmul %x, %wg : tensor<4x8xf32>, tensor<8x16xf32>
  %u = rlx.matmul %x, %wu : tensor<4x8xf32>, tensor<8x16xf32>
  %s = rlx.silu %g : tensor<4x16xf32>
  %h = rlx.mul %s, %u : tensor<4x16xf32>
  %m = rlx.matmul %x, %wb : tensor<4x8xf32>, tensor<8x4xf32>
  %y = rlx.add %m, %bias : tensor<4x4xf32>, tensor<4xf32>
  return %h, %y : tensor<4x16xf32>, tensor<4x4xf32>
}
