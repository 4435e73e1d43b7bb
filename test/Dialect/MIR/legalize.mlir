// RUN: %if target-metal %{ rlx-opt %s --rlx-legalize="target=metal" | FileCheck %s %}
// RUN: rlx-opt %s --rlx-legalize="target=cpu" | FileCheck %s --check-prefix=CPU

// Each rewrite of rlx-legalize for an op that metal lacks; cpu claims them
// all, so it keeps every op as written.

// A batched contraction whose lhs contracts its middle dim.
// CHECK-LABEL: func.func @dot_general_batch(
// CHECK-SAME: %[[A:[^:]*]]: tensor<4x16x8xf32>, %[[B:[^:]*]]: tensor<4x16x32xf32>
// CHECK-NEXT: %[[T:.+]] = rlx.transpose %[[A]] [0, 2, 1] : tensor<4x16x8xf32>
// CHECK-NEXT: %[[M:.+]] = rlx.matmul %[[T]], %[[B]] : tensor<4x8x16xf32>, tensor<4x16x32xf32>
// CHECK-NEXT: return %[[M]] : tensor<4x8x32xf32>
// CPU-LABEL: func.func @dot_general_batch(
// CPU-NEXT: rlx.dot_general
func.func @dot_general_batch(%a: tensor<4x16x8xf32>, %b: tensor<4x16x32xf32>) -> tensor<4x8x32xf32> {
  %y = rlx.dot_general %a, %b batch [0] x [0] contracting [1] x [1] : tensor<4x16x8xf32>, tensor<4x16x32xf32>
  return %y : tensor<4x8x32xf32>
}

// The same with dims counted from the end: batch [-3] is dim 0,
// contracting [-2] is dim 1 (the rewrite crashed on negative dims).
// CHECK-LABEL: func.func @dot_general_negative_dims(
// CHECK-SAME: %[[A:[^:]*]]: tensor<4x16x8xf32>, %[[B:[^:]*]]: tensor<4x16x32xf32>
// CHECK-NEXT: %[[T:.+]] = rlx.transpose %[[A]] [0, 2, 1] : tensor<4x16x8xf32>
// CHECK-NEXT: %[[M:.+]] = rlx.matmul %[[T]], %[[B]] : tensor<4x8x16xf32>, tensor<4x16x32xf32>
// CHECK-NEXT: return %[[M]] : tensor<4x8x32xf32>
func.func @dot_general_negative_dims(%a: tensor<4x16x8xf32>, %b: tensor<4x16x32xf32>) -> tensor<4x8x32xf32> {
  %y = rlx.dot_general %a, %b batch [-3] x [0] contracting [-2] x [-2] : tensor<4x16x8xf32>, tensor<4x16x32xf32>
  return %y : tensor<4x8x32xf32>
}

// Two contracting dims in different orders, no batch: 2-D matmul.
// CHECK-LABEL: func.func @dot_general_two_contracting(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x3x5xf32>, %[[B:[^:]*]]: tensor<3x2x7xf32>
// CHECK-NEXT: %[[TA:.+]] = rlx.transpose %[[A]] [2, 0, 1] : tensor<2x3x5xf32>
// CHECK-NEXT: %[[RA:.+]] = rlx.reshape %[[TA]] : tensor<5x2x3xf32> -> tensor<5x6xf32>
// CHECK-NEXT: %[[TB:.+]] = rlx.transpose %[[B]] [1, 0, 2] : tensor<3x2x7xf32>
// CHECK-NEXT: %[[RB:.+]] = rlx.reshape %[[TB]] : tensor<2x3x7xf32> -> tensor<6x7xf32>
// CHECK-NEXT: %[[M:.+]] = rlx.matmul %[[RA]], %[[RB]] : tensor<5x6xf32>, tensor<6x7xf32>
// CHECK-NEXT: return %[[M]] : tensor<5x7xf32>
func.func @dot_general_two_contracting(%a: tensor<2x3x5xf32>, %b: tensor<3x2x7xf32>) -> tensor<5x7xf32> {
  %y = rlx.dot_general %a, %b batch [] x [] contracting [0, 1] x [1, 0] : tensor<2x3x5xf32>, tensor<3x2x7xf32>
  return %y : tensor<5x7xf32>
}

// Free dims on both sides merge into M and N and are split after.
// CHECK-LABEL: func.func @dot_general_free_dims(
// CHECK: %[[M:.+]] = rlx.matmul %{{.*}} : tensor<6x4xi32>, tensor<4x10xi32>
// CHECK-NEXT: %[[R:.+]] = rlx.reshape %[[M]] : tensor<6x10xi32> -> tensor<2x3x5x2xi32>
// CHECK-NEXT: return %[[R]]
func.func @dot_general_free_dims(%a: tensor<2x4x3xi32>, %b: tensor<5x4x2xi32>) -> tensor<2x3x5x2xi32> {
  %y = rlx.dot_general %a, %b batch [] x [] contracting [1] x [1] : tensor<2x4x3xi32>, tensor<5x4x2xi32>
  return %y : tensor<2x3x5x2xi32>
}

// Both regions run, the predicate picks.
// CHECK-LABEL: func.func @if(
// CHECK-SAME: %[[P:[^:]*]]: tensor<i1>, %[[X:[^:]*]]: tensor<4xf32>
// CHECK-NEXT: %[[E:.+]] = rlx.exp %[[X]] : tensor<4xf32>
// CHECK-NEXT: %[[N:.+]] = rlx.neg %[[X]] : tensor<4xf32>
// CHECK-NEXT: %[[W:.+]] = rlx.where %[[P]], %[[E]], %[[N]] : tensor<i1>, tensor<4xf32>
// CHECK-NEXT: return %[[W]]
// CPU-LABEL: func.func @if(
// CPU-NEXT: rlx.if
func.func @if(%p: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = rlx.if %p : tensor<i1> -> tensor<4xf32> {
    %e = rlx.exp %x : tensor<4xf32>
    rlx.yield %e : tensor<4xf32>
  } else {
    %n = rlx.neg %x : tensor<4xf32>
    rlx.yield %n : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// Two results, one yielded from above.
// CHECK-LABEL: func.func @if_two_results(
// CHECK-SAME: %[[P:[^:]*]]: tensor<i1>, %[[X:[^:]*]]: tensor<2x4xf32>, %[[I:[^:]*]]: tensor<i64>
// CHECK-NEXT: %[[S:.+]] = rlx.add %[[I]], %[[I]] : tensor<i64>
// CHECK-NEXT: %[[W0:.+]] = rlx.where %[[P]], %[[X]], %[[X]]
// CHECK-NEXT: %[[W1:.+]] = rlx.where %[[P]], %[[I]], %[[S]]
// CHECK-NEXT: return %[[W0]], %[[W1]]
func.func @if_two_results(%p: tensor<i1>, %x: tensor<2x4xf32>, %i: tensor<i64>) -> (tensor<2x4xf32>, tensor<i64>) {
  %r:2 = rlx.if %p : tensor<i1> -> tensor<2x4xf32>, tensor<i64> {
    rlx.yield %x, %i : tensor<2x4xf32>, tensor<i64>
  } else {
    %s = rlx.add %i, %i : tensor<i64>
    rlx.yield %x, %s : tensor<2x4xf32>, tensor<i64>
  }
  return %r#0, %r#1 : tensor<2x4xf32>, tensor<i64>
}

// Unrolled twice: each step keeps the body's value while every condition
// so far held.
// CHECK-LABEL: func.func @while(
// CHECK-SAME: %[[X:[^:]*]]: tensor<f32>, %[[L:[^:]*]]: tensor<f32>
// CHECK-NEXT: %[[P1:.+]] = rlx.cmp lt, %[[X]], %[[L]] : tensor<f32>
// CHECK-NEXT: %[[N1:.+]] = rlx.add %[[X]], %[[X]] : tensor<f32>
// CHECK-NEXT: %[[C1:.+]] = rlx.where %[[P1]], %[[N1]], %[[X]]
// CHECK-NEXT: %[[P2:.+]] = rlx.cmp lt, %[[C1]], %[[L]] : tensor<f32>
// CHECK-NEXT: %[[A2:.+]] = rlx.where %[[P1]], %[[P2]], %[[P1]]
// CHECK-NEXT: %[[N2:.+]] = rlx.add %[[C1]], %[[C1]] : tensor<f32>
// CHECK-NEXT: %[[C2:.+]] = rlx.where %[[A2]], %[[N2]], %[[C1]]
// CHECK-NEXT: return %[[C2]]
// CPU-LABEL: func.func @while(
// CPU-NEXT: rlx.while
func.func @while(%x: tensor<f32>, %limit: tensor<f32>) -> tensor<f32> {
  %r = rlx.while (%x) : (tensor<f32>) {max_iterations = 2} cond {
  ^bb0(%a: tensor<f32>):
    %p = rlx.cmp lt, %a, %limit : tensor<f32>
    rlx.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<f32>):
    %n = rlx.add %a, %a : tensor<f32>
    rlx.yield %n : tensor<f32>
  }
  return %r : tensor<f32>
}

// metal lacks the attention block (unfused) but claims the fused
// matmul-bias-act (kept).
// CHECK-LABEL: func.func @fused(
// CHECK-NOT: rlx.fused_attention_block
// CHECK: rlx.attention
// CHECK: rlx.fused_matmul_bias_act
// CHECK-NEXT: return
// CPU-LABEL: func.func @fused(
// CPU-NEXT: rlx.fused_attention_block
// CPU-NEXT: rlx.fused_matmul_bias_act
func.func @fused(%x: tensor<2x4x8xf32>, %wqkv: tensor<8x24xf32>, %wout: tensor<8x8xf32>, %b: tensor<8xf32>) -> tensor<2x4x8xf32> {
  %a = rlx.fused_attention_block %x, %wqkv, %wout heads = 2 mask = causal : (tensor<2x4x8xf32>, tensor<8x24xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
  %y = rlx.fused_matmul_bias_act %a, %wout, %b activation = gelu : tensor<2x4x8xf32>, tensor<8x8xf32>, tensor<8xf32>
  return %y : tensor<2x4x8xf32>
}

// Broadcasts on a target that takes only trailing ones: a column (8x1) or
// a middle unit dim is expanded to the result's shape; a bias of the
// trailing dims (16, 1x16) and same-shape operands stay. cpu keeps all.
// CHECK-LABEL: func.func @broadcasts(
// CHECK-SAME: %[[X:[^:]*]]: tensor<8x16xf32>, %[[C:[^:]*]]: tensor<8x1xf32>, %[[B:[^:]*]]: tensor<16xf32>, %[[R:[^:]*]]: tensor<1x16xf32>, %[[M:[^:]*]]: tensor<2x1x16xf32>, %[[P:[^:]*]]: tensor<8x1xi1>
// CHECK-NEXT: %[[EC:.+]] = rlx.expand %[[C]] : tensor<8x1xf32> -> tensor<8x16xf32>
// CHECK-NEXT: %[[S:.+]] = rlx.sub %[[X]], %[[EC]] : tensor<8x16xf32>
// CHECK-NEXT: %[[A:.+]] = rlx.add %[[S]], %[[B]] : tensor<8x16xf32>, tensor<16xf32>
// CHECK-NEXT: %[[MU:.+]] = rlx.mul %[[A]], %[[R]] : tensor<8x16xf32>, tensor<1x16xf32>
// CHECK-NEXT: %[[EM:.+]] = rlx.expand %[[M]] : tensor<2x1x16xf32> -> tensor<2x8x16xf32>
// CHECK-NEXT: %[[D:.+]] = rlx.div %[[EM]], %[[MU]] : tensor<2x8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT: %[[EP:.+]] = rlx.expand %[[P]] : tensor<8x1xi1> -> tensor<8x16xi1>
// CHECK-NEXT: %[[W:.+]] = rlx.where %[[EP]], %[[X]], %[[MU]] : tensor<8x16xi1>, tensor<8x16xf32>
// CHECK-NEXT: return %[[D]], %[[W]]
// CPU-LABEL: func.func @broadcasts(
// CPU-NOT: rlx.expand
// CPU: return
func.func @broadcasts(%x: tensor<8x16xf32>, %c: tensor<8x1xf32>, %b: tensor<16xf32>, %r: tensor<1x16xf32>, %m: tensor<2x1x16xf32>, %p: tensor<8x1xi1>) -> (tensor<2x8x16xf32>, tensor<8x16xf32>) {
  %s = rlx.sub %x, %c : tensor<8x16xf32>, tensor<8x1xf32>
  %a = rlx.add %s, %b : tensor<8x16xf32>, tensor<16xf32>
  %mu = rlx.mul %a, %r : tensor<8x16xf32>, tensor<1x16xf32>
  %d = rlx.div %m, %mu : tensor<2x1x16xf32>, tensor<8x16xf32>
  %w = rlx.where %p, %x, %mu : tensor<8x1xi1>, tensor<8x16xf32>, tensor<8x16xf32>
  return %d, %w : tensor<2x8x16xf32>, tensor<8x16xf32>
}

// A LoRA product (no GPU target claims rlx.lora_matmul): the matmul plus
// the scaled low-rank path, scaled at the [.., r] intermediate.
// CHECK-LABEL: func.func @lora_matmul(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x5x37xf32>, %[[W:[^:]*]]: tensor<37x12xf32>, %[[A:[^:]*]]: tensor<37x4xf32>, %[[B:[^:]*]]: tensor<4x12xf32>
// CHECK-DAG: %[[S:.+]] = rlx.constant dense<2.500000e-01> : tensor<f32>
// CHECK-DAG: %[[XW:.+]] = rlx.matmul %[[X]], %[[W]] : tensor<2x5x37xf32>, tensor<37x12xf32>
// CHECK-DAG: %[[XA:.+]] = rlx.matmul %[[X]], %[[A]] : tensor<2x5x37xf32>, tensor<37x4xf32>
// CHECK: %[[XAS:.+]] = rlx.mul %[[XA]], %[[S]] : tensor<2x5x4xf32>, tensor<f32>
// CHECK-NEXT: %[[UP:.+]] = rlx.matmul %[[XAS]], %[[B]] : tensor<2x5x4xf32>, tensor<4x12xf32>
// CHECK-NEXT: %[[Y:.+]] = rlx.add %[[XW]], %[[UP]] : tensor<2x5x12xf32>
// CHECK-NEXT: return %[[Y]]
// CPU-LABEL: func.func @lora_matmul(
// CPU-NEXT: rlx.lora_matmul
func.func @lora_matmul(%x: tensor<2x5x37xf32>, %w: tensor<37x12xf32>, %a: tensor<37x4xf32>, %b: tensor<4x12xf32>) -> tensor<2x5x12xf32> {
  %y = rlx.lora_matmul %x, %w, %a, %b {scale = 0.25 : f32} : tensor<2x5x37xf32>, tensor<37x12xf32>, tensor<37x4xf32>, tensor<4x12xf32>
  return %y : tensor<2x5x12xf32>
}
