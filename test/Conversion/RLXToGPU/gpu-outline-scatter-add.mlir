// RUN: rlx-opt %s --split-input-file --rlx-gpu-outline-scatter-add | FileCheck %s

// Each scatter_add moves into a private function tagged with its axis (a
// negative one counted from the end) whose arguments bufferization may not
// write; the caller calls it.
// CHECK-LABEL: func.func private @scatter_add(
// CHECK-SAME:    %{{.+}}: tensor<4x50x8xf32> {bufferization.writable = false}, %{{.+}}: tensor<30xi64> {bufferization.writable = false}, %{{.+}}: tensor<4x30x8xf32> {bufferization.writable = false}) -> tensor<4x50x8xf32>
// CHECK-SAME:    attributes {rlx.gpu_scatter_add = {axis = 1 : i64}}
// CHECK:         rlx.scatter_add
// CHECK-LABEL: func.func @rows(
// CHECK-SAME:    %[[B:[^:]+]]: tensor<4x50x8xf32>, %[[I:[^:]+]]: tensor<30xi64>, %[[U:[^:]+]]: tensor<4x30x8xf32>
// CHECK:         %[[R:.+]] = call @scatter_add(%[[B]], %[[I]], %[[U]])
// CHECK-NOT:     rlx.scatter_add
// CHECK:         return %[[R]]
func.func @rows(%b: tensor<4x50x8xf32>, %i: tensor<30xi64>, %u: tensor<4x30x8xf32>) -> tensor<4x50x8xf32> {
  %r = rlx.scatter_add %b, %i, %u axis = -2 : tensor<4x50x8xf32>, tensor<30xi64>, tensor<4x30x8xf32>
  return %r : tensor<4x50x8xf32>
}

// -----

// Two scatter-adds: two functions, named apart.
// CHECK-LABEL: func.func private @scatter_add(
// CHECK-LABEL: func.func private @scatter_add_0(
// CHECK-LABEL: func.func @two(
// CHECK:         %[[A:.+]] = call @scatter_add(
// CHECK:         call @scatter_add_0(%[[A]],
func.func @two(%b: tensor<10xi32>, %i: tensor<3xi64>, %u: tensor<3xi32>) -> tensor<10xi32> {
  %a = rlx.scatter_add %b, %i, %u axis = 0 : tensor<10xi32>, tensor<3xi64>, tensor<3xi32>
  %r = rlx.scatter_add %a, %i, %u axis = 0 : tensor<10xi32>, tensor<3xi64>, tensor<3xi32>
  return %r : tensor<10xi32>
}
