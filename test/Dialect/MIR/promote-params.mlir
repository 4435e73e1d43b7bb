// RUN: rlx-opt %s -split-input-file --rlx-promote-params | FileCheck %s
// RUN: rlx-opt %s --rlx-promote-params=functions=g | FileCheck %s --check-prefix=ONLY

// With functions=g (the file as one module), only @g is promoted.

// Every distinct name becomes a trailing argument, in first-use order;
// every param of that name reads it.

// CHECK-LABEL: func.func @f(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4xf32>,
// CHECK-SAME: %[[W:[^:]*]]: tensor<4xf32> {rlx.param = "w"},
// CHECK-SAME: %[[B:[^:]*]]: tensor<4xf32> {rlx.param = "enc.b"}) -> tensor<4xf32>
// CHECK-NOT: rlx.param "
// CHECK: %[[Y:.*]] = rlx.add %[[X]], %[[W]]
// CHECK: %[[Z:.*]] = rlx.mul %[[Y]], %[[W]]
// CHECK: %[[U:.*]] = rlx.add %[[Z]], %[[B]]
// CHECK: return %[[U]]
// ONLY-LABEL: func.func @f(%{{.*}}: tensor<4xf32>) -> tensor<4xf32>
// ONLY: rlx.param "w"
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = rlx.param "w" : tensor<4xf32>
  %y = rlx.add %x, %w : tensor<4xf32>
  %w2 = rlx.param "w" : tensor<4xf32>
  %z = rlx.mul %y, %w2 : tensor<4xf32>
  %b = rlx.param "enc.b" : tensor<4xf32>
  %u = rlx.add %z, %b : tensor<4xf32>
  return %u : tensor<4xf32>
}

// -----

// Params of other element types and ranks; a function without arguments.

// CHECK-LABEL: func.func @g(
// CHECK-SAME: %[[T:[^:]*]]: tensor<2x3xi32> {rlx.param = "table"},
// CHECK-SAME: %[[S:[^:]*]]: tensor<bf16> {rlx.param = "scale"}) -> (tensor<2x3xi32>, tensor<bf16>)
// CHECK: return %[[T]], %[[S]]
// ONLY-LABEL: func.func @g(
// ONLY-SAME: {rlx.param = "table"}
// ONLY-LABEL: func.func @nested(%{{[^:]*}}: tensor<i1>, %{{[^:]*}}: tensor<4xf32>) -> tensor<4xf32>
// ONLY: rlx.param "w"
func.func @g() -> (tensor<2x3xi32>, tensor<bf16>) {
  %t = rlx.param "table" : tensor<2x3xi32>
  %s = rlx.param "scale" : tensor<bf16>
  return %t, %s : tensor<2x3xi32>, tensor<bf16>
}

// -----

// A param used inside an rlx.if (not isolated from above) reads the argument
// there too.

// CHECK-LABEL: func.func @nested(
// CHECK-SAME: %[[C:[^:]*]]: tensor<i1>, %[[X:[^:]*]]: tensor<4xf32>, %[[W:[^:]*]]: tensor<4xf32> {rlx.param = "w"})
// CHECK: rlx.if
// CHECK: rlx.add %[[X]], %[[W]]
func.func @nested(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = rlx.if %c : tensor<i1> -> tensor<4xf32> {
    %w = rlx.param "w" : tensor<4xf32>
    %y = rlx.add %x, %w : tensor<4xf32>
    rlx.yield %y : tensor<4xf32>
  } else {
    rlx.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Private functions keep their params (a runtime binds only entry points);
// a public function without params and a declaration are unchanged.

// CHECK-LABEL: func.func private @helper(%{{[^:]*}}: tensor<4xf32>) -> tensor<4xf32>
// CHECK: rlx.param "w"
// CHECK-LABEL: func.func @no_params(%{{[^:]*}}: tensor<4xf32>) -> tensor<4xf32>
// CHECK-LABEL: func.func private @decl(tensor<4xf32>) -> tensor<4xf32>
func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = rlx.param "w" : tensor<4xf32>
  %y = rlx.add %x, %w : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @no_params(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = func.call @helper(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func private @decl(tensor<4xf32>) -> tensor<4xf32>
