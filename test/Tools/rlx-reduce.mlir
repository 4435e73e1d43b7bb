// REQUIRES: target-metal
// rlx-reduce cuts a program down to what still makes the failure happen:
// here, that --rlx-legalize="target=metal" rejects rlx.dense_solve. The
// function that has no part in it goes; @solve's ops stay, as upstream's
// reducer erases only ops whose results have no uses.
// RUN: rlx-reduce %s --reduction-tree='traversal-mode=0 test=%S/Inputs/dense-solve-fails-on-metal.py' | FileCheck %s
// The reproducer still fails the same way.
// RUN: rlx-reduce %s --reduction-tree='traversal-mode=0 test=%S/Inputs/dense-solve-fails-on-metal.py' -o %t.mlir
// RUN: not rlx-opt %t.mlir --rlx-legalize=target=metal 2>&1 | FileCheck %s --check-prefix=STILL

// CHECK-NOT: func.func @unrelated
// CHECK-LABEL: func.func @solve
// CHECK: rlx.dense_solve
// CHECK-NOT: func.func @unrelated
// STILL: error: 'rlx.dense_solve' is not supported by target 'metal'

func.func @unrelated(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = rlx.softmax %x axis = 1 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

func.func @solve(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>, %w: tensor<2x2xf32>) -> tensor<3x2xf32> {
  %0 = rlx.matmul %b, %w : tensor<3x2xf32>, tensor<2x2xf32>
  %1 = rlx.softmax %0 axis = 1 : tensor<3x2xf32>
  %2 = rlx.dense_solve %a, %1 : tensor<3x3xf32>, tensor<3x2xf32>
  %3 = rlx.add %2, %1 : tensor<3x2xf32>, tensor<3x2xf32>
  return %3 : tensor<3x2xf32>
}
