// RUN: rlx-opt %s --rlx-fuse | FileCheck %s
// RUN: rlx-opt %s --rlx-fuse=patterns=swiglu,residual-norm | FileCheck %s --check-prefix=ONLY
// RUN: rlx-opt %s --rlx-fuse --rlx-unfuse | FileCheck %s --check-prefix=ROUND
// RUN: not rlx-opt %s --rlx-fuse=patterns=swiglu,gemm 2>&1 | FileCheck %s --check-prefix=ERR

// A pre-norm block: rms_norm(x + r), a SwiGLU feed-forward whose down
// projection has a bias, then a BERT-style output layer. Every family
// fuses with all patterns; `patterns` restricts them.

// CHECK-LABEL: func.func @block(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x8xf32>, %[[R:[^:]*]]: tensor<4x8xf32>, %[[G:[^:]*]]: tensor<8xf32>,
// CHECK-SAME: %[[WG:[^:]*]]: tensor<8x16xf32>, %[[WU:[^:]*]]: tensor<8x16xf32>, %[[WD:[^:]*]]: tensor<16x8xf32>, %[[BD:[^:]*]]: tensor<8xf32>,
// CHECK-SAME: %[[LG:[^:]*]]: tensor<8xf32>, %[[LB:[^:]*]]: tensor<8xf32>)
// CHECK-NEXT: %[[N:.+]], %[[S:.+]] = rlx.fused_residual_rms_norm %[[X]], %[[R]], %[[G]]
// CHECK-NEXT: %[[H:.+]] = rlx.fused_swiglu %[[N]], %[[WG]], %[[WU]]
// CHECK-NEXT: %[[D:.+]] = rlx.fused_matmul_bias_act %[[H]], %[[WD]], %[[BD]] activation = none
// CHECK-NEXT: %[[Y:.+]], %{{.+}} = rlx.fused_residual_layer_norm %[[S]], %[[D]], %[[LG]], %[[LB]]
// CHECK-NEXT: return %[[Y]]
// ONLY-LABEL: func.func @block(
// ONLY: rlx.fused_residual_rms_norm
// ONLY-NEXT: rlx.fused_swiglu
// ONLY-NEXT: rlx.matmul
// ONLY-NEXT: rlx.add
// ONLY-NEXT: rlx.fused_residual_layer_norm
// ROUND-LABEL: func.func @block(
// ROUND-NEXT: rlx.add
// ROUND-NEXT: rlx.rms_norm
// ROUND-NEXT: rlx.matmul
// ROUND-NEXT: rlx.silu
// ROUND-NEXT: rlx.matmul
// ROUND-NEXT: rlx.mul
// ROUND-NEXT: rlx.matmul
// ROUND-NEXT: rlx.add
// ROUND-NEXT: rlx.add
// ROUND-NEXT: rlx.layer_norm
// ROUND-NEXT: return
// ERR: 'patterns' names an unknown fusion pattern family
func.func @block(%x: tensor<4x8xf32>, %r: tensor<4x8xf32>, %g: tensor<8xf32>,
                 %wg: tensor<8x16xf32>, %wu: tensor<8x16xf32>, %wd: tensor<16x8xf32>, %bd: tensor<8xf32>,
                 %lg: tensor<8xf32>, %lb: tensor<8xf32>) -> tensor<4x8xf32> {
  %s = rlx.add %x, %r : tensor<4x8xf32>
  %n = rlx.rms_norm %s, %g : tensor<4x8xf32>, tensor<8xf32>
  %gate = rlx.matmul %n, %wg : tensor<4x8xf32>, tensor<8x16xf32>
  %up = rlx.matmul %n, %wu : tensor<4x8xf32>, tensor<8x16xf32>
  %a = rlx.silu %gate : tensor<4x16xf32>
  %h = rlx.mul %a, %up : tensor<4x16xf32>
  %dm = rlx.matmul %h, %wd : tensor<4x16xf32>, tensor<16x8xf32>
  %d = rlx.add %dm, %bd : tensor<4x8xf32>, tensor<8xf32>
  %s2 = rlx.add %s, %d : tensor<4x8xf32>
  %y = rlx.layer_norm %s2, %lg, %lb : tensor<4x8xf32>, tensor<8xf32>
  return %y : tensor<4x8xf32>
}
