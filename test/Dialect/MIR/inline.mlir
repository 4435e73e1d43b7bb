// RUN: rlx-opt %s --inline --symbol-dce | FileCheck %s

// rlx ops inline into their callers, also into the body of an rlx.scan
// (as rlx-expand-autodiff's generated gradient functions are, when called
// in a training loop).
// CHECK-LABEL: func.func @caller(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4xf32>
// CHECK-NOT:     call
// CHECK:         %[[T:.+]] = rlx.tanh %[[X]] : tensor<4xf32>
// CHECK:         rlx.scan
// CHECK:           %[[E:.+]] = rlx.tanh %{{.+}} : tensor<4xf32>
// CHECK:           rlx.yield %[[E]]
// CHECK-NOT:     func.func private @step
func.func private @step(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = rlx.tanh %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

func.func @caller(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %t = call @step(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %r = rlx.scan init(%t : tensor<4xf32>) {length = 3} -> (tensor<4xf32>) {
  ^bb0(%c: tensor<4xf32>):
    %n = func.call @step(%c) : (tensor<4xf32>) -> tensor<4xf32>
    rlx.yield %n : tensor<4xf32>
  }
  return %t, %r : tensor<4xf32>, tensor<4xf32>
}
