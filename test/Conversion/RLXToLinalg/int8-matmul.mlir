// RUN: rlx-opt %s -convert-rlx-to-linalg | FileCheck %s

// rlx.int8_matmul is one contraction accumulating in i32: each i8 element
// is sign-extended, and the zero-filled accumulator is the result.
// CHECK-LABEL: func.func @int8_matmul
// CHECK: %[[Z:.+]] = arith.constant 0 : i32
// CHECK: %[[INIT:.+]] = linalg.fill ins(%[[Z]] : i32) outs(%{{.+}} : tensor<4x2xi32>)
// CHECK: %[[R:.+]] = linalg.generic {{.+}} ins(%arg0, %arg1 : tensor<4x8xi8>, tensor<8x2xi8>) outs(%[[INIT]] : tensor<4x2xi32>)
// CHECK: ^bb0(%[[A:.+]]: i8, %[[B:.+]]: i8, %[[ACC:.+]]: i32):
// CHECK-DAG: %[[AW:.+]] = arith.extsi %[[A]] : i8 to i32
// CHECK-DAG: %[[BW:.+]] = arith.extsi %[[B]] : i8 to i32
// CHECK: %[[P:.+]] = arith.muli %[[AW]], %[[BW]] : i32
// CHECK: %[[S:.+]] = arith.addi %[[ACC]], %[[P]] : i32
// CHECK: linalg.yield %[[S]] : i32
// CHECK: return %[[R]]
func.func @int8_matmul(%a: tensor<4x8xi8>, %b: tensor<8x2xi8>) -> tensor<4x2xi32> {
  %0 = rlx.int8_matmul %a, %b : tensor<4x8xi8>, tensor<8x2xi8>
  return %0 : tensor<4x2xi32>
}
