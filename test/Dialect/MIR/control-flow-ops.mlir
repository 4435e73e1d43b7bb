// RUN: rlx-opt %s | FileCheck %s
// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

//===----------------------------------------------------------------------===//
// rlx.scan
//===----------------------------------------------------------------------===//

// A carry and one xs: the body takes the carry and a slice, and yields the
// next carry and a per-step output that is stacked along the leading axis.
// CHECK-LABEL: func.func @scan
// CHECK-SAME:    %[[H0:[^:]+]]: tensor<4xf32>
// CHECK-SAME:    %[[X:[^:]+]]: tensor<10x4xf32>
func.func @scan(%h0: tensor<4xf32>, %x: tensor<10x4xf32>) -> (tensor<4xf32>, tensor<10x4xf32>) {
  // CHECK:      %[[R:.+]]:2 = rlx.scan init(%[[H0]] : tensor<4xf32>) xs(%[[X]] : tensor<10x4xf32>) -> (tensor<4xf32>, tensor<10x4xf32>) {
  // CHECK-NEXT: ^bb0(%[[C:.+]]: tensor<4xf32>, %[[XT:.+]]: tensor<4xf32>):
  // CHECK-NEXT:   %[[N:.+]] = rlx.add %[[C]], %[[XT]] : tensor<4xf32>
  // CHECK-NEXT:   rlx.yield %[[N]], %[[N]] : tensor<4xf32>, tensor<4xf32>
  // CHECK-NEXT: }
  %h, %ys = rlx.scan init(%h0 : tensor<4xf32>) xs(%x : tensor<10x4xf32>)
      -> (tensor<4xf32>, tensor<10x4xf32>) {
  ^bb0(%c: tensor<4xf32>, %xt: tensor<4xf32>):
    %n = rlx.add %c, %xt : tensor<4xf32>
    rlx.yield %n, %n : tensor<4xf32>, tensor<4xf32>
  }
  // CHECK: return %[[R]]#0, %[[R]]#1
  return %h, %ys : tensor<4xf32>, tensor<10x4xf32>
}

// reverse runs the steps from the end.
// CHECK-LABEL: func.func @scan_reverse
// CHECK-SAME:    %[[H0:[^:]+]]: tensor<f32>
// CHECK-SAME:    %[[X:[^:]+]]: tensor<6xf32>
func.func @scan_reverse(%h0: tensor<f32>, %x: tensor<6xf32>) -> tensor<f32> {
  // CHECK:      %[[R:.+]] = rlx.scan init(%[[H0]] : tensor<f32>) xs(%[[X]] : tensor<6xf32>) {reverse = true} -> (tensor<f32>) {
  // CHECK-NEXT: ^bb0(%[[C:.+]]: tensor<f32>, %[[XT:.+]]: tensor<f32>):
  // CHECK-NEXT:   %[[M:.+]] = rlx.max %[[C]], %[[XT]] : tensor<f32>
  // CHECK-NEXT:   rlx.yield %[[M]] : tensor<f32>
  %r = rlx.scan init(%h0 : tensor<f32>) xs(%x : tensor<6xf32>) {reverse = true} -> (tensor<f32>) {
  ^bb0(%c: tensor<f32>, %xt: tensor<f32>):
    %m = rlx.max %c, %xt : tensor<f32>
    rlx.yield %m : tensor<f32>
  }
  // CHECK: return %[[R]] : tensor<f32>
  return %r : tensor<f32>
}

// Without xs, `length` gives the trip count; reverse = false is the default
// and is not printed.
// CHECK-LABEL: func.func @scan_length
// CHECK-SAME:    %[[H0:[^:]+]]: tensor<4xf32>
func.func @scan_length(%h0: tensor<4xf32>) -> (tensor<4xf32>, tensor<5x4xf32>) {
  // CHECK:      %[[R:.+]]:2 = rlx.scan init(%[[H0]] : tensor<4xf32>) {length = 5 : i64} -> (tensor<4xf32>, tensor<5x4xf32>) {
  // CHECK-NEXT: ^bb0(%[[C:.+]]: tensor<4xf32>):
  // CHECK-NEXT:   %[[E:.+]] = rlx.exp %[[C]] : tensor<4xf32>
  // CHECK-NEXT:   rlx.yield %[[E]], %[[C]] : tensor<4xf32>, tensor<4xf32>
  %h, %hs = rlx.scan init(%h0 : tensor<4xf32>) {length = 5, reverse = false} -> (tensor<4xf32>, tensor<5x4xf32>) {
  ^bb0(%c: tensor<4xf32>):
    %e = rlx.exp %c : tensor<4xf32>
    rlx.yield %e, %c : tensor<4xf32>, tensor<4xf32>
  }
  // CHECK: return %[[R]]#0, %[[R]]#1
  return %h, %hs : tensor<4xf32>, tensor<5x4xf32>
}

// No carry: only per-step outputs over xs. Several xs share the length.
// CHECK-LABEL: func.func @scan_no_init
// CHECK-SAME:    %[[X:[^:]+]]: tensor<10x4xf32>
// CHECK-SAME:    %[[Y:[^:]+]]: tensor<10xi32>
func.func @scan_no_init(%x: tensor<10x4xf32>, %y: tensor<10xi32>) -> (tensor<10xf32>, tensor<10xi32>) {
  // CHECK:      %[[R:.+]]:2 = rlx.scan xs(%[[X]], %[[Y]] : tensor<10x4xf32>, tensor<10xi32>) -> (tensor<10xf32>, tensor<10xi32>) {
  // CHECK-NEXT: ^bb0(%[[XT:.+]]: tensor<4xf32>, %[[YT:.+]]: tensor<i32>):
  // CHECK-NEXT:   %[[S:.+]] = rlx.reduce sum %[[XT]] axes = [0] : tensor<4xf32>
  // CHECK-NEXT:   rlx.yield %[[S]], %[[YT]] : tensor<f32>, tensor<i32>
  %r:2 = rlx.scan xs(%x, %y : tensor<10x4xf32>, tensor<10xi32>) -> (tensor<10xf32>, tensor<10xi32>) {
  ^bb0(%xt: tensor<4xf32>, %yt: tensor<i32>):
    %s = rlx.reduce sum %xt axes = [0] : tensor<4xf32>
    rlx.yield %s, %yt : tensor<f32>, tensor<i32>
  }
  // CHECK: return %[[R]]#0, %[[R]]#1
  return %r#0, %r#1 : tensor<10xf32>, tensor<10xi32>
}

// Neither init nor xs: the body sees values from above.
// CHECK-LABEL: func.func @scan_no_operands
// CHECK-SAME:    %[[V:[^:]+]]: tensor<4xf32>
func.func @scan_no_operands(%v: tensor<4xf32>) -> tensor<3x4xf32> {
  // CHECK:      %[[R:.+]] = rlx.scan {length = 3 : i64} -> (tensor<3x4xf32>) {
  // CHECK-NEXT:   rlx.yield %[[V]] : tensor<4xf32>
  %r = rlx.scan {length = 3} -> (tensor<3x4xf32>) {
    rlx.yield %v : tensor<4xf32>
  }
  // CHECK: return %[[R]] : tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// A dynamic leading dim is refined by a static one and by `length`.
// CHECK-LABEL: func.func @scan_dynamic
// CHECK-SAME:    %[[H0:[^:]+]]: tensor<?xf32>
// CHECK-SAME:    %[[X:[^:]+]]: tensor<?x8xf32>
// CHECK-SAME:    %[[Y:[^:]+]]: tensor<7x8xf32>
func.func @scan_dynamic(%h0: tensor<?xf32>, %x: tensor<?x8xf32>, %y: tensor<7x8xf32>)
    -> (tensor<?xf32>, tensor<?x8xf32>, tensor<7x8xf32>, tensor<?x8xf32>) {
  // CHECK:      %[[A:.+]]:2 = rlx.scan init(%[[H0]] : tensor<?xf32>) xs(%[[X]] : tensor<?x8xf32>) -> (tensor<?xf32>, tensor<?x8xf32>) {
  // CHECK-NEXT: ^bb0(%{{.+}}: tensor<?xf32>, %{{.+}}: tensor<8xf32>):
  %a:2 = rlx.scan init(%h0 : tensor<?xf32>) xs(%x : tensor<?x8xf32>) -> (tensor<?xf32>, tensor<?x8xf32>) {
  ^bb0(%c: tensor<?xf32>, %xt: tensor<8xf32>):
    rlx.yield %c, %xt : tensor<?xf32>, tensor<8xf32>
  }
  // CHECK:      %[[B:.+]]:2 = rlx.scan xs(%[[X]], %[[Y]] : tensor<?x8xf32>, tensor<7x8xf32>) -> (tensor<7x8xf32>, tensor<?x8xf32>) {
  %b:2 = rlx.scan xs(%x, %y : tensor<?x8xf32>, tensor<7x8xf32>) -> (tensor<7x8xf32>, tensor<?x8xf32>) {
  ^bb0(%xt: tensor<8xf32>, %yt: tensor<8xf32>):
    rlx.yield %xt, %yt : tensor<8xf32>, tensor<8xf32>
  }
  // CHECK: return %[[A]]#0, %[[A]]#1, %[[B]]#0, %[[B]]#1
  return %a#0, %a#1, %b#0, %b#1 : tensor<?xf32>, tensor<?x8xf32>, tensor<7x8xf32>, tensor<?x8xf32>
}

//===----------------------------------------------------------------------===//
// rlx.selective_scan
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @selective_scan
// CHECK-SAME:    %[[U:[^:]+]]: tensor<2x8x16xf32>
// CHECK-SAME:    %[[DT:[^:]+]]: tensor<2x8x16xf32>
// CHECK-SAME:    %[[A:[^:]+]]: tensor<8x4xf32>
// CHECK-SAME:    %[[B:[^:]+]]: tensor<2x4x16xf32>
// CHECK-SAME:    %[[C:[^:]+]]: tensor<2x4x16xf32>
// CHECK-SAME:    %[[D:[^:]+]]: tensor<8xf32>
func.func @selective_scan(%u: tensor<2x8x16xf32>, %dt: tensor<2x8x16xf32>, %a: tensor<8x4xf32>,
                          %b: tensor<2x4x16xf32>, %c: tensor<2x4x16xf32>, %d: tensor<8xf32>)
    -> (tensor<2x8x16xf32>, tensor<2x8x16xf32>) {
  // CHECK: %[[Y:.+]] = rlx.selective_scan %[[U]], %[[DT]], %[[A]], %[[B]], %[[C]], %[[D]] : tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8x4xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<8xf32>
  %y = rlx.selective_scan %u, %dt, %a, %b, %c, %d
      : tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8x4xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<8xf32>
  // CHECK: %[[YS:.+]] = rlx.selective_scan %[[U]], %[[DT]], %[[A]], %[[B]], %[[C]], %[[D]] {delta_softplus = true} : tensor<2x8x16xf32>,
  %ys = rlx.selective_scan %u, %dt, %a, %b, %c, %d {delta_softplus = true}
      : tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8x4xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<8xf32>
  // CHECK: return %[[Y]], %[[YS]]
  return %y, %ys : tensor<2x8x16xf32>, tensor<2x8x16xf32>
}

// Other float types and dynamic dims; the result has u's type.
// CHECK-LABEL: func.func @selective_scan_types
func.func @selective_scan_types(%u: tensor<?x8x?xbf16>, %a: tensor<8x4xbf16>, %b: tensor<?x4x?xbf16>, %d: tensor<8xbf16>,
                                %u16: tensor<1x2x3xf16>, %a16: tensor<2x5xf16>, %b16: tensor<1x5x3xf16>, %d16: tensor<2xf16>,
                                %u64: tensor<1x2x3xf64>, %a64: tensor<2x5xf64>, %b64: tensor<1x5x3xf64>, %d64: tensor<2xf64>)
    -> (tensor<?x8x?xbf16>, tensor<1x2x3xf16>, tensor<1x2x3xf64>) {
  // CHECK: rlx.selective_scan {{.+}} : tensor<?x8x?xbf16>, tensor<?x8x?xbf16>, tensor<8x4xbf16>, tensor<?x4x?xbf16>, tensor<?x4x?xbf16>, tensor<8xbf16>
  %0 = rlx.selective_scan %u, %u, %a, %b, %b, %d
      : tensor<?x8x?xbf16>, tensor<?x8x?xbf16>, tensor<8x4xbf16>, tensor<?x4x?xbf16>, tensor<?x4x?xbf16>, tensor<8xbf16>
  // CHECK: rlx.selective_scan {{.+}} : tensor<1x2x3xf16>, tensor<1x2x3xf16>, tensor<2x5xf16>, tensor<1x5x3xf16>, tensor<1x5x3xf16>, tensor<2xf16>
  %1 = rlx.selective_scan %u16, %u16, %a16, %b16, %b16, %d16
      : tensor<1x2x3xf16>, tensor<1x2x3xf16>, tensor<2x5xf16>, tensor<1x5x3xf16>, tensor<1x5x3xf16>, tensor<2xf16>
  // CHECK: rlx.selective_scan {{.+}} : tensor<1x2x3xf64>, tensor<1x2x3xf64>, tensor<2x5xf64>, tensor<1x5x3xf64>, tensor<1x5x3xf64>, tensor<2xf64>
  %2 = rlx.selective_scan %u64, %u64, %a64, %b64, %b64, %d64
      : tensor<1x2x3xf64>, tensor<1x2x3xf64>, tensor<2x5xf64>, tensor<1x5x3xf64>, tensor<1x5x3xf64>, tensor<2xf64>
  return %0, %1, %2 : tensor<?x8x?xbf16>, tensor<1x2x3xf16>, tensor<1x2x3xf64>
}

//===----------------------------------------------------------------------===//
// rlx.if
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @if
// CHECK-SAME:    %[[P:[^:]+]]: tensor<i1>
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4xf32>
func.func @if(%p: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK:      %[[R:.+]] = rlx.if %[[P]] : tensor<i1> -> tensor<4xf32> {
  // CHECK-NEXT:   rlx.yield %[[X]] : tensor<4xf32>
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   %[[N:.+]] = rlx.neg %[[X]] : tensor<4xf32>
  // CHECK-NEXT:   rlx.yield %[[N]] : tensor<4xf32>
  // CHECK-NEXT: }
  %r = rlx.if %p : tensor<i1> -> tensor<4xf32> {
    rlx.yield %x : tensor<4xf32>
  } else {
    %n = rlx.neg %x : tensor<4xf32>
    rlx.yield %n : tensor<4xf32>
  }
  // CHECK: return %[[R]] : tensor<4xf32>
  return %r : tensor<4xf32>
}

// Several results of different types.
// CHECK-LABEL: func.func @if_multiple_results
// CHECK-SAME:    %[[P:[^:]+]]: tensor<i1>
// CHECK-SAME:    %[[X:[^:]+]]: tensor<?x4xf32>
// CHECK-SAME:    %[[I:[^:]+]]: tensor<i64>
func.func @if_multiple_results(%p: tensor<i1>, %x: tensor<?x4xf32>, %i: tensor<i64>) -> (tensor<?x4xf32>, tensor<i64>) {
  // CHECK:      %[[R:.+]]:2 = rlx.if %[[P]] : tensor<i1> -> tensor<?x4xf32>, tensor<i64> {
  // CHECK-NEXT:   rlx.yield %[[X]], %[[I]] : tensor<?x4xf32>, tensor<i64>
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   %[[S:.+]] = rlx.add %[[I]], %[[I]] : tensor<i64>
  // CHECK-NEXT:   rlx.yield %[[X]], %[[S]] : tensor<?x4xf32>, tensor<i64>
  %r:2 = rlx.if %p : tensor<i1> -> tensor<?x4xf32>, tensor<i64> {
    rlx.yield %x, %i : tensor<?x4xf32>, tensor<i64>
  } else {
    %s = rlx.add %i, %i : tensor<i64>
    rlx.yield %x, %s : tensor<?x4xf32>, tensor<i64>
  }
  // CHECK: return %[[R]]#0, %[[R]]#1
  return %r#0, %r#1 : tensor<?x4xf32>, tensor<i64>
}

// No results: the regions end in an empty rlx.yield.
// CHECK-LABEL: func.func @if_no_results
// CHECK-SAME:    %[[P:[^:]+]]: tensor<i1>
func.func @if_no_results(%p: tensor<i1>) {
  // CHECK:      rlx.if %[[P]] : tensor<i1> {
  // CHECK-NEXT:   rlx.yield{{$}}
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   rlx.yield{{$}}
  // CHECK-NEXT: }
  rlx.if %p : tensor<i1> {
    rlx.yield
  } else {
    rlx.yield
  }
  return
}

//===----------------------------------------------------------------------===//
// rlx.while
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @while
// CHECK-SAME:    %[[X:[^:]+]]: tensor<f32>
// CHECK-SAME:    %[[LIMIT:[^:]+]]: tensor<f32>
func.func @while(%x: tensor<f32>, %limit: tensor<f32>) -> tensor<f32> {
  // CHECK:      %[[R:.+]] = rlx.while(%[[X]]) : (tensor<f32>) {max_iterations = 100 : i64} cond {
  // CHECK-NEXT: ^bb0(%[[A:.+]]: tensor<f32>):
  // CHECK-NEXT:   %[[P:.+]] = rlx.cmp lt, %[[A]], %[[LIMIT]] : tensor<f32>
  // CHECK-NEXT:   rlx.yield %[[P]] : tensor<i1>
  // CHECK-NEXT: } do {
  // CHECK-NEXT: ^bb0(%[[B:.+]]: tensor<f32>):
  // CHECK-NEXT:   %[[N:.+]] = rlx.add %[[B]], %[[B]] : tensor<f32>
  // CHECK-NEXT:   rlx.yield %[[N]] : tensor<f32>
  // CHECK-NEXT: }
  %r = rlx.while (%x) : (tensor<f32>) {max_iterations = 100} cond {
  ^bb0(%a: tensor<f32>):
    %p = rlx.cmp lt, %a, %limit : tensor<f32>
    rlx.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<f32>):
    %n = rlx.add %a, %a : tensor<f32>
    rlx.yield %n : tensor<f32>
  }
  // CHECK: return %[[R]] : tensor<f32>
  return %r : tensor<f32>
}

// Several carried values, no bound; a max_iterations of 0 is allowed.
// CHECK-LABEL: func.func @while_multiple
// CHECK-SAME:    %[[I:[^:]+]]: tensor<i64>
// CHECK-SAME:    %[[X:[^:]+]]: tensor<?x4xf32>
func.func @while_multiple(%i: tensor<i64>, %x: tensor<?x4xf32>) -> (tensor<i64>, tensor<?x4xf32>, tensor<i64>) {
  // CHECK:      %[[R:.+]]:2 = rlx.while(%[[I]], %[[X]]) : (tensor<i64>, tensor<?x4xf32>) cond {
  // CHECK-NEXT: ^bb0(%[[A:.+]]: tensor<i64>, %{{.+}}: tensor<?x4xf32>):
  // CHECK:      } do {
  // CHECK-NEXT: ^bb0(%{{.+}}: tensor<i64>, %{{.+}}: tensor<?x4xf32>):
  %r:2 = rlx.while (%i, %x) : (tensor<i64>, tensor<?x4xf32>) cond {
  ^bb0(%a: tensor<i64>, %b: tensor<?x4xf32>):
    %p = rlx.cmp gt, %a, %a : tensor<i64>
    rlx.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<i64>, %b: tensor<?x4xf32>):
    %n = rlx.add %a, %a : tensor<i64>
    %e = rlx.exp %b : tensor<?x4xf32>
    rlx.yield %n, %e : tensor<i64>, tensor<?x4xf32>
  }
  // CHECK: %[[Z:.+]] = rlx.while(%[[I]]) : (tensor<i64>) {max_iterations = 0 : i64} cond {
  %z = rlx.while (%i) : (tensor<i64>) {max_iterations = 0} cond {
  ^bb0(%a: tensor<i64>):
    %p = rlx.cmp ne, %a, %a : tensor<i64>
    rlx.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<i64>):
    rlx.yield %a : tensor<i64>
  }
  // CHECK: return %[[R]]#0, %[[R]]#1, %[[Z]]
  return %r#0, %r#1, %z : tensor<i64>, tensor<?x4xf32>, tensor<i64>
}

//===----------------------------------------------------------------------===//
// rlx.custom_fn
//===----------------------------------------------------------------------===//

// fwd only.
// CHECK-LABEL: func.func @custom_fn_fwd
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4xf32>
func.func @custom_fn_fwd(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK:      %[[Y:.+]] = rlx.custom_fn(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32> fwd {
  // CHECK-NEXT: ^bb0(%[[A:.+]]: tensor<4xf32>):
  // CHECK-NEXT:   %[[E:.+]] = rlx.exp %[[A]] : tensor<4xf32>
  // CHECK-NEXT:   rlx.yield %[[E]] : tensor<4xf32>
  // CHECK-NEXT: }
  // CHECK-NEXT: return %[[Y]] : tensor<4xf32>
  %y = rlx.custom_fn (%x) : (tensor<4xf32>) -> tensor<4xf32> fwd {
  ^bb0(%a: tensor<4xf32>):
    %e = rlx.exp %a : tensor<4xf32>
    rlx.yield %e : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// fwd and vjp: vjp takes (x..., y..., dy...) and yields dx....
// CHECK-LABEL: func.func @custom_fn_vjp
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4xf32>
func.func @custom_fn_vjp(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK:      %[[Y:.+]] = rlx.custom_fn(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32> fwd {
  // CHECK-NEXT: ^bb0(%[[A:.+]]: tensor<4xf32>):
  // CHECK-NEXT:   %[[E:.+]] = rlx.exp %[[A]] : tensor<4xf32>
  // CHECK-NEXT:   rlx.yield %[[E]] : tensor<4xf32>
  // CHECK-NEXT: } vjp {
  // CHECK-NEXT: ^bb0(%{{.+}}: tensor<4xf32>, %[[YV:.+]]: tensor<4xf32>, %[[G:.+]]: tensor<4xf32>):
  // CHECK-NEXT:   %[[D:.+]] = rlx.mul %[[YV]], %[[G]] : tensor<4xf32>
  // CHECK-NEXT:   rlx.yield %[[D]] : tensor<4xf32>
  // CHECK-NEXT: }
  %y = rlx.custom_fn (%x) : (tensor<4xf32>) -> tensor<4xf32> fwd {
  ^bb0(%a: tensor<4xf32>):
    %e = rlx.exp %a : tensor<4xf32>
    rlx.yield %e : tensor<4xf32>
  } vjp {
  ^bb0(%a: tensor<4xf32>, %e: tensor<4xf32>, %g: tensor<4xf32>):
    %d = rlx.mul %e, %g : tensor<4xf32>
    rlx.yield %d : tensor<4xf32>
  }
  // CHECK: return %[[Y]] : tensor<4xf32>
  return %y : tensor<4xf32>
}

// fwd and jvp: jvp takes (x..., dx...) and yields (y..., dy...).
// CHECK-LABEL: func.func @custom_fn_jvp
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4xf32>
func.func @custom_fn_jvp(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK:      %[[Y:.+]] = rlx.custom_fn(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32> fwd {
  // CHECK:      } jvp {
  // CHECK-NEXT: ^bb0(%[[A:.+]]: tensor<4xf32>, %[[DA:.+]]: tensor<4xf32>):
  // CHECK-NEXT:   %[[E:.+]] = rlx.exp %[[A]] : tensor<4xf32>
  // CHECK-NEXT:   %[[DE:.+]] = rlx.mul %[[E]], %[[DA]] : tensor<4xf32>
  // CHECK-NEXT:   rlx.yield %[[E]], %[[DE]] : tensor<4xf32>, tensor<4xf32>
  // CHECK-NEXT: }
  %y = rlx.custom_fn (%x) : (tensor<4xf32>) -> tensor<4xf32> fwd {
  ^bb0(%a: tensor<4xf32>):
    %e = rlx.exp %a : tensor<4xf32>
    rlx.yield %e : tensor<4xf32>
  } jvp {
  ^bb0(%a: tensor<4xf32>, %da: tensor<4xf32>):
    %e = rlx.exp %a : tensor<4xf32>
    %de = rlx.mul %e, %da : tensor<4xf32>
    rlx.yield %e, %de : tensor<4xf32>, tensor<4xf32>
  }
  // CHECK: return %[[Y]] : tensor<4xf32>
  return %y : tensor<4xf32>
}

// Two inputs and two results with all three regions.
// CHECK-LABEL: func.func @custom_fn_vjp_jvp
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4xf32>
// CHECK-SAME:    %[[S:[^:]+]]: tensor<f16>
func.func @custom_fn_vjp_jvp(%x: tensor<4xf32>, %s: tensor<f16>) -> (tensor<4xf32>, tensor<f16>) {
  // CHECK:      %[[R:.+]]:2 = rlx.custom_fn(%[[X]], %[[S]]) : (tensor<4xf32>, tensor<f16>) -> (tensor<4xf32>, tensor<f16>) fwd {
  // CHECK-NEXT: ^bb0(%{{.+}}: tensor<4xf32>, %{{.+}}: tensor<f16>):
  // CHECK:      } vjp {
  // CHECK-NEXT: ^bb0(%{{.+}}: tensor<4xf32>, %{{.+}}: tensor<f16>, %{{.+}}: tensor<4xf32>, %{{.+}}: tensor<f16>, %{{.+}}: tensor<4xf32>, %{{.+}}: tensor<f16>):
  // CHECK:      } jvp {
  // CHECK-NEXT: ^bb0(%{{.+}}: tensor<4xf32>, %{{.+}}: tensor<f16>, %{{.+}}: tensor<4xf32>, %{{.+}}: tensor<f16>):
  // CHECK:        rlx.yield %{{.+}} : tensor<4xf32>, tensor<f16>, tensor<4xf32>, tensor<f16>
  // CHECK-NEXT: }
  %r:2 = rlx.custom_fn (%x, %s) : (tensor<4xf32>, tensor<f16>) -> (tensor<4xf32>, tensor<f16>) fwd {
  ^bb0(%a: tensor<4xf32>, %b: tensor<f16>):
    %n = rlx.neg %a : tensor<4xf32>
    rlx.yield %n, %b : tensor<4xf32>, tensor<f16>
  } vjp {
  ^bb0(%a: tensor<4xf32>, %b: tensor<f16>, %ya: tensor<4xf32>, %yb: tensor<f16>, %ga: tensor<4xf32>, %gb: tensor<f16>):
    %n = rlx.neg %ga : tensor<4xf32>
    rlx.yield %n, %gb : tensor<4xf32>, tensor<f16>
  } jvp {
  ^bb0(%a: tensor<4xf32>, %b: tensor<f16>, %da: tensor<4xf32>, %db: tensor<f16>):
    %n = rlx.neg %a : tensor<4xf32>
    %dn = rlx.neg %da : tensor<4xf32>
    rlx.yield %n, %b, %dn, %db : tensor<4xf32>, tensor<f16>, tensor<4xf32>, tensor<f16>
  }
  // CHECK: return %[[R]]#0, %[[R]]#1
  return %r#0, %r#1 : tensor<4xf32>, tensor<f16>
}
