// RUN: rlx-opt %s --split-input-file --rlx-specialize-shapes="function=layer dims=0:0=2,0:1=128" | FileCheck %s

// The bound dims flow through every op that infers its types; the
// function's result takes the type that reaches its return.
// CHECK-LABEL: func.func @layer(
// CHECK-SAME:    %{{.+}}: tensor<2x128x64xf32>, %{{.+}}: tensor<64x64xf32>, %{{.+}}: tensor<64xf32>) -> tensor<2x128x64xf32>
// CHECK:         rlx.matmul %{{.+}}, %{{.+}} : tensor<2x128x64xf32>, tensor<64x64xf32>
// CHECK:         rlx.gelu %{{.+}} : tensor<2x128x64xf32>
// CHECK:         rlx.rms_norm %{{.+}}, %{{.+}} : tensor<2x128x64xf32>, tensor<64xf32>
// CHECK:         %[[S:.+]] = rlx.softmax %{{.+}} axis = -1 : tensor<2x128x64xf32>
// CHECK:         return %[[S]] : tensor<2x128x64xf32>
func.func @layer(%x: tensor<?x?x64xf32>, %w: tensor<64x64xf32>, %g: tensor<64xf32>) -> tensor<?x?x64xf32> {
  %h = rlx.matmul %x, %w : tensor<?x?x64xf32>, tensor<64x64xf32>
  %a = rlx.gelu %h : tensor<?x?x64xf32>
  %n = rlx.rms_norm %a, %g : tensor<?x?x64xf32>, tensor<64xf32>
  %s = rlx.softmax %n axis = -1 : tensor<?x?x64xf32>
  return %s : tensor<?x?x64xf32>
}

// -----

// A call does not infer: it reads the argument through a cast to the
// callee's type, and its result keeps its type. Only the named function
// changes.
// CHECK-LABEL: func.func private @helper(
// CHECK-SAME:    tensor<?x?x64xf32>) -> tensor<?x?x64xf32>
// CHECK-LABEL: func.func @layer(
// CHECK-SAME:    %[[X:.+]]: tensor<2x128x64xf32>) -> tensor<?x?x64xf32>
// CHECK:         %[[E:.+]] = rlx.exp %[[X]] : tensor<2x128x64xf32>
// CHECK:         %[[C:.+]] = tensor.cast %[[E]] : tensor<2x128x64xf32> to tensor<?x?x64xf32>
// CHECK:         %[[R:.+]] = call @helper(%[[C]])
// CHECK:         return %[[R]] : tensor<?x?x64xf32>
func.func private @helper(%x: tensor<?x?x64xf32>) -> tensor<?x?x64xf32> {
  return %x : tensor<?x?x64xf32>
}
func.func @layer(%x: tensor<?x?x64xf32>) -> tensor<?x?x64xf32> {
  %e = rlx.exp %x : tensor<?x?x64xf32>
  %r = call @helper(%e) : (tensor<?x?x64xf32>) -> tensor<?x?x64xf32>
  return %r : tensor<?x?x64xf32>
}
