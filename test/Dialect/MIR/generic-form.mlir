// RUN: rlx-opt %s | FileCheck %s
// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Every op written in the generic form only, with the attribute names of the
// op catalogue (OPS.md); each must be accepted and print in its custom form.

// CHECK-LABEL: func.func @leaf
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>
func.func @leaf(%x: tensor<4x8xf32>) -> (tensor<2xf32>, tensor<8xf16>, tensor<4x8xbf16>, tensor<4x8xf32>) {
  // CHECK: %[[C:.+]] = rlx.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %c = "rlx.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  // CHECK: %[[P:.+]] = rlx.param "decoder.bias" : tensor<8xf16>
  %p = "rlx.param"() {name = "decoder.bias"} : () -> tensor<8xf16>
  // CHECK: %[[H:.+]] = rlx.cast %[[X]] : tensor<4x8xf32> -> tensor<4x8xbf16>
  %h = "rlx.cast"(%x) : (tensor<4x8xf32>) -> tensor<4x8xbf16>
  // CHECK: %[[S:.+]] = rlx.stop_gradient %[[X]] : tensor<4x8xf32>
  %s = "rlx.stop_gradient"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: return %[[C]], %[[P]], %[[H]], %[[S]]
  return %c, %p, %h, %s : tensor<2xf32>, tensor<8xf16>, tensor<4x8xbf16>, tensor<4x8xf32>
}

// CHECK-LABEL: func.func @elementwise
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>
// CHECK-SAME:    %[[B:[^:]+]]: tensor<8xf32>
// CHECK-SAME:    %[[M:[^:]+]]: tensor<4x8xi1>
func.func @elementwise(%x: tensor<4x8xf32>, %b: tensor<8xf32>, %m: tensor<4x8xi1>) {
  // CHECK: rlx.gelu %[[X]] {approximate = "tanh"} : tensor<4x8xf32>
  %0 = "rlx.gelu"(%x) {approximate = "tanh"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.gelu %[[X]] : tensor<4x8xf32>
  %1 = "rlx.gelu"(%x) {approximate = "none"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.silu %[[X]] : tensor<4x8xf32>
  %2 = "rlx.silu"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.relu %[[X]] : tensor<4x8xf32>
  %3 = "rlx.relu"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.sigmoid %[[X]] : tensor<4x8xf32>
  %4 = "rlx.sigmoid"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.tanh %[[X]] : tensor<4x8xf32>
  %5 = "rlx.tanh"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.exp %[[X]] : tensor<4x8xf32>
  %6 = "rlx.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.log %[[X]] : tensor<4x8xf32>
  %7 = "rlx.log"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.sqrt %[[X]] : tensor<4x8xf32>
  %8 = "rlx.sqrt"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.rsqrt %[[X]] : tensor<4x8xf32>
  %9 = "rlx.rsqrt"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.neg %[[X]] : tensor<4x8xf32>
  %10 = "rlx.neg"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.abs %[[X]] : tensor<4x8xf32>
  %11 = "rlx.abs"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.sin %[[X]] : tensor<4x8xf32>
  %12 = "rlx.sin"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.cos %[[X]] : tensor<4x8xf32>
  %13 = "rlx.cos"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.tan %[[X]] : tensor<4x8xf32>
  %14 = "rlx.tan"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.atan %[[X]] : tensor<4x8xf32>
  %15 = "rlx.atan"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.round %[[X]] : tensor<4x8xf32>
  %16 = "rlx.round"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.add %[[X]], %[[B]] : tensor<4x8xf32>, tensor<8xf32>
  %17 = "rlx.add"(%x, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.sub %[[X]], %[[X]] : tensor<4x8xf32>
  %18 = "rlx.sub"(%x, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.mul %[[B]], %[[X]] : tensor<8xf32>, tensor<4x8xf32>
  %19 = "rlx.mul"(%b, %x) : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.div %[[X]], %[[X]] : tensor<4x8xf32>
  %20 = "rlx.div"(%x, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.max %[[X]], %[[X]] : tensor<4x8xf32>
  %21 = "rlx.max"(%x, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.min %[[X]], %[[X]] : tensor<4x8xf32>
  %22 = "rlx.min"(%x, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.pow %[[X]], %[[B]] : tensor<4x8xf32>, tensor<8xf32>
  %23 = "rlx.pow"(%x, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.cmp le, %[[X]], %[[B]] : tensor<4x8xf32>, tensor<8xf32>
  %24 = "rlx.cmp"(%x, %b) {predicate = "le"} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xi1>
  // CHECK: rlx.where %[[M]], %[[X]], %[[B]] : tensor<4x8xi1>, tensor<4x8xf32>, tensor<8xf32>
  %25 = "rlx.where"(%m, %x, %b) : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.fma %[[X]], %[[B]], %[[X]] : tensor<4x8xf32>, tensor<8xf32>, tensor<4x8xf32>
  %26 = "rlx.fma"(%x, %b, %x) : (tensor<4x8xf32>, tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK:      rlx.elementwise_region ins(%[[X]], %[[B]] : tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
  // CHECK-NEXT: ^bb0(%[[A:.+]]: f32, %[[C:.+]]: f32):
  // CHECK-NEXT:   %[[S:.+]] = arith.addf %[[A]], %[[C]] : f32
  // CHECK-NEXT:   rlx.yield %[[S]] : f32
  %27 = "rlx.elementwise_region"(%x, %b) ({
  ^bb0(%a: f32, %c: f32):
    %s = "arith.addf"(%a, %c) : (f32, f32) -> f32
    "rlx.yield"(%s) : (f32) -> ()
  }) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @reduction
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x8xf32>
// CHECK-SAME:    %[[Y:[^:]+]]: tensor<4xi64>
func.func @reduction(%x: tensor<4x8xf32>, %y: tensor<4xi64>) {
  // CHECK: rlx.reduce sum %[[X]] axes = [1] : tensor<4x8xf32>
  %0 = "rlx.reduce"(%x) {kind = "sum", axes = array<i64: 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  // CHECK: rlx.reduce mean %[[X]] axes = [-1] keepdim true : tensor<4x8xf32>
  %1 = "rlx.reduce"(%x) {kind = "mean", axes = array<i64: -1>, keepdim = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  // CHECK: rlx.reduce max %[[X]] axes = [0, 1] : tensor<4x8xf32>
  %2 = "rlx.reduce"(%x) {kind = "max", axes = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<f32>
  // CHECK: rlx.reduce min %[[X]] axes = [0] : tensor<4x8xf32>
  %3 = "rlx.reduce"(%x) {kind = "min", axes = array<i64: 0>} : (tensor<4x8xf32>) -> tensor<8xf32>
  // CHECK: rlx.reduce prod %[[X]] axes = [1] : tensor<4x8xf32>
  %4 = "rlx.reduce"(%x) {kind = "prod", axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  // CHECK: rlx.argmax %[[X]] axis = 1 : tensor<4x8xf32>
  %5 = "rlx.argmax"(%x) {axis = 1 : i64, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xi64>
  // CHECK: rlx.argmin %[[X]] axis = -1 : tensor<4x8xf32>
  %6 = "rlx.argmin"(%x) {axis = -1 : i64} : (tensor<4x8xf32>) -> tensor<4xi64>
  // CHECK: rlx.softmax %[[X]] axis = -1 : tensor<4x8xf32>
  %7 = "rlx.softmax"(%x) {axis = -1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.log_softmax %[[X]] axis = 1 : tensor<4x8xf32>
  %8 = "rlx.log_softmax"(%x) {axis = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.cumsum %[[X]] axis = 0 : tensor<4x8xf32>
  %9 = "rlx.cumsum"(%x) {axis = 0 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: rlx.topk %[[X]] k = 3 axis = -1 : tensor<4x8xf32>
  %10:2 = "rlx.topk"(%x) {k = 3 : i64, axis = -1 : i64} : (tensor<4x8xf32>) -> (tensor<4x3xf32>, tensor<4x3xi64>)
  // CHECK: rlx.softmax_cross_entropy %[[X]], %[[Y]] : tensor<4x8xf32>, tensor<4xi64>
  %11 = "rlx.softmax_cross_entropy"(%x, %y) : (tensor<4x8xf32>, tensor<4xi64>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @control_flow
// CHECK-SAME:    %[[P:[^:]+]]: tensor<i1>
// CHECK-SAME:    %[[H:[^:]+]]: tensor<4xf32>
// CHECK-SAME:    %[[XS:[^:]+]]: tensor<10x4xf32>
func.func @control_flow(%p: tensor<i1>, %h: tensor<4xf32>, %xs: tensor<10x4xf32>) {
  // CHECK:      rlx.scan init(%[[H]] : tensor<4xf32>) xs(%[[XS]] : tensor<10x4xf32>) {length = 10 : i64, reverse = true} -> (tensor<4xf32>, tensor<10x4xf32>) {
  // CHECK-NEXT: ^bb0(%[[C:.+]]: tensor<4xf32>, %[[XT:.+]]: tensor<4xf32>):
  // CHECK-NEXT:   %[[N:.+]] = rlx.add %[[C]], %[[XT]] : tensor<4xf32>
  // CHECK-NEXT:   rlx.yield %[[N]], %[[N]] : tensor<4xf32>, tensor<4xf32>
  %0:2 = "rlx.scan"(%h, %xs) ({
  ^bb0(%c: tensor<4xf32>, %xt: tensor<4xf32>):
    %n = "rlx.add"(%c, %xt) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "rlx.yield"(%n, %n) : (tensor<4xf32>, tensor<4xf32>) -> ()
  }) {length = 10 : i64, reverse = true, operandSegmentSizes = array<i32: 1, 1>}
      : (tensor<4xf32>, tensor<10x4xf32>) -> (tensor<4xf32>, tensor<10x4xf32>)
  // CHECK:      rlx.if %[[P]] : tensor<i1> -> tensor<4xf32> {
  // CHECK-NEXT:   rlx.yield %[[H]] : tensor<4xf32>
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   %[[NEG:.+]] = rlx.neg %[[H]] : tensor<4xf32>
  // CHECK-NEXT:   rlx.yield %[[NEG]] : tensor<4xf32>
  %1 = "rlx.if"(%p) ({
    "rlx.yield"(%h) : (tensor<4xf32>) -> ()
  }, {
    %n = "rlx.neg"(%h) : (tensor<4xf32>) -> tensor<4xf32>
    "rlx.yield"(%n) : (tensor<4xf32>) -> ()
  }) : (tensor<i1>) -> tensor<4xf32>
  // CHECK:      rlx.while(%[[H]]) : (tensor<4xf32>) {max_iterations = 8 : i64} cond {
  // CHECK-NEXT: ^bb0(%{{.+}}: tensor<4xf32>):
  // CHECK-NEXT:   rlx.yield %[[P]] : tensor<i1>
  // CHECK-NEXT: } do {
  // CHECK-NEXT: ^bb0(%[[A:.+]]: tensor<4xf32>):
  // CHECK-NEXT:   %[[E:.+]] = rlx.exp %[[A]] : tensor<4xf32>
  // CHECK-NEXT:   rlx.yield %[[E]] : tensor<4xf32>
  %2 = "rlx.while"(%h) ({
  ^bb0(%a: tensor<4xf32>):
    "rlx.yield"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<4xf32>):
    %e = "rlx.exp"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    "rlx.yield"(%e) : (tensor<4xf32>) -> ()
  }) {max_iterations = 8 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK:      rlx.custom_fn(%[[H]]) : (tensor<4xf32>) -> tensor<4xf32> fwd {
  // CHECK-NEXT: ^bb0(%[[FA:.+]]: tensor<4xf32>):
  // CHECK-NEXT:   rlx.yield %[[FA]] : tensor<4xf32>
  // CHECK-NEXT: } vjp {
  // CHECK-NEXT: ^bb0(%{{.+}}: tensor<4xf32>, %{{.+}}: tensor<4xf32>, %[[G:.+]]: tensor<4xf32>):
  // CHECK-NEXT:   rlx.yield %[[G]] : tensor<4xf32>
  // CHECK-NEXT: } jvp {
  // CHECK-NEXT: ^bb0(%[[JA:.+]]: tensor<4xf32>, %[[JD:.+]]: tensor<4xf32>):
  // CHECK-NEXT:   rlx.yield %[[JA]], %[[JD]] : tensor<4xf32>, tensor<4xf32>
  %3 = "rlx.custom_fn"(%h) ({
  ^bb0(%a: tensor<4xf32>):
    "rlx.yield"(%a) : (tensor<4xf32>) -> ()
  }, {
  ^bb0(%a: tensor<4xf32>, %y: tensor<4xf32>, %g: tensor<4xf32>):
    "rlx.yield"(%g) : (tensor<4xf32>) -> ()
  }, {
  ^bb0(%a: tensor<4xf32>, %da: tensor<4xf32>):
    "rlx.yield"(%a, %da) : (tensor<4xf32>, tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @selective_scan
// CHECK-SAME:    %[[U:[^:]+]]: tensor<2x8x16xf32>
// CHECK-SAME:    %[[A:[^:]+]]: tensor<8x4xf32>
// CHECK-SAME:    %[[B:[^:]+]]: tensor<2x4x16xf32>
// CHECK-SAME:    %[[D:[^:]+]]: tensor<8xf32>
func.func @selective_scan(%u: tensor<2x8x16xf32>, %a: tensor<8x4xf32>, %b: tensor<2x4x16xf32>, %d: tensor<8xf32>) -> tensor<2x8x16xf32> {
  // CHECK: %[[Y:.+]] = rlx.selective_scan %[[U]], %[[U]], %[[A]], %[[B]], %[[B]], %[[D]] {delta_softplus = true} : tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8x4xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<8xf32>
  %y = "rlx.selective_scan"(%u, %u, %a, %b, %b, %d) {delta_softplus = true}
      : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8x4xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<8xf32>) -> tensor<2x8x16xf32>
  // CHECK: return %[[Y]] : tensor<2x8x16xf32>
  return %y : tensor<2x8x16xf32>
}
