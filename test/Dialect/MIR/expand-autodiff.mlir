// RUN: rlx-opt %s --rlx-expand-autodiff --split-input-file | FileCheck %s

// The gradient of a matmul loss: a private function with the forward
// program and the reverse sweep (matmul's VJP as a transposed matmul, the
// sum's as an expand of the seed, folded to a constant), called in place
// of rlx.grad.
// CHECK-LABEL: func.func @loss(
// CHECK-LABEL: func.func private @loss_grad_0(
// CHECK-SAME:    %[[W:.+]]: tensor<4x3xf32>, %[[X:.+]]: tensor<8x4xf32>) -> (tensor<f32>, tensor<4x3xf32>)
// CHECK:         %[[DY:.+]] = rlx.constant dense<1.000000e+00> : tensor<8x3xf32>
// CHECK:         %[[Y:.+]] = rlx.matmul %[[X]], %[[W]]
// CHECK:         %[[L:.+]] = rlx.reduce sum %[[Y]]
// CHECK:         %[[DW:.+]] = rlx.matmul %[[X]], %[[DY]] transpose_a true
// CHECK:         return %[[L]], %[[DW]]
// CHECK-LABEL: func.func @main(
// CHECK:         %{{.+}}:2 = call @loss_grad_0(
// CHECK-NOT:     rlx.grad
func.func @loss(%w: tensor<4x3xf32>, %x: tensor<8x4xf32>) -> tensor<f32> {
  %y = rlx.matmul %x, %w : tensor<8x4xf32>, tensor<4x3xf32>
  %s = rlx.reduce sum %y axes = [0, 1] : tensor<8x3xf32>
  return %s : tensor<f32>
}

func.func @main(%w: tensor<4x3xf32>, %x: tensor<8x4xf32>) -> (tensor<f32>, tensor<4x3xf32>) {
  %l, %dw = rlx.grad @loss(%w, %x) wrt [0]
      : (tensor<4x3xf32>, tensor<8x4xf32>) -> (tensor<f32>, tensor<4x3xf32>)
  return %l, %dw : tensor<f32>, tensor<4x3xf32>
}

// -----

// Broadcasting: the bias's cotangent is summed over the broadcast dim; an
// argument that does not reach the loss gets zeros; stop_gradient blocks.
// CHECK-LABEL: func.func private @f_grad_0_1_2(
// CHECK:         %[[Z:.+]] = rlx.constant dense<0.000000e+00> : tensor<5xf64>
// CHECK:         %[[SG:.+]] = rlx.stop_gradient
// CHECK:         %[[L:.+]] = rlx.reduce sum
// CHECK:         %[[DB:.+]] = rlx.reduce sum %[[SG]] axes = [0] : tensor<2x3xf64>
// CHECK:         return %[[L]], %[[SG]], %[[DB]], %[[Z]]
func.func @f(%x: tensor<2x3xf64>, %b: tensor<3xf64>, %unused: tensor<5xf64>) -> tensor<f64> {
  %y = rlx.add %x, %b : tensor<2x3xf64>, tensor<3xf64>
  %z = rlx.stop_gradient %x : tensor<2x3xf64>
  %p = rlx.mul %y, %z : tensor<2x3xf64>
  %s = rlx.reduce sum %p axes = [0, 1] : tensor<2x3xf64>
  return %s : tensor<f64>
}

func.func @main(%x: tensor<2x3xf64>, %b: tensor<3xf64>, %u: tensor<5xf64>) -> (tensor<f64>, tensor<2x3xf64>, tensor<3xf64>, tensor<5xf64>) {
  %l, %dx, %db, %du = rlx.grad @f(%x, %b, %u) wrt [0, 1, -1]
      : (tensor<2x3xf64>, tensor<3xf64>, tensor<5xf64>) -> (tensor<f64>, tensor<2x3xf64>, tensor<3xf64>, tensor<5xf64>)
  return %l, %dx, %db, %du : tensor<f64>, tensor<2x3xf64>, tensor<3xf64>, tensor<5xf64>
}

// -----

// Forward mode: the tangents are new trailing arguments and results; the
// tangent of exp is t * exp(x).
// CHECK-LABEL: func.func private @g_jvp(
// CHECK-SAME:    %[[X:.+]]: tensor<4xf32>, %[[T:.+]]: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK:         %[[E:.+]] = rlx.exp %[[X]]
// CHECK:         %[[DE:.+]] = rlx.mul %[[T]], %[[E]]
// CHECK:         return %[[E]], %[[DE]]
func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = rlx.exp %x : tensor<4xf32>
  return %e : tensor<4xf32>
}

func.func @main(%x: tensor<4xf32>, %t: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %y, %dy = rlx.jvp @g(%x) tangents(%t)
      : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %y, %dy : tensor<4xf32>, tensor<4xf32>
}

// -----

// A Hessian-vector product: jvp of a function returning a gradient. The
// inner rlx.grad is expanded first, then inlined into the jvp's copy.
// CHECK-LABEL: func.func private @h_grad_0(
// CHECK-LABEL: func.func private @gh_jvp(
// CHECK-NOT:     call
// CHECK:         return
// CHECK-LABEL: func.func @main(
// CHECK:         call @gh_jvp(
func.func @h(%x: tensor<3xf64>) -> tensor<f64> {
  %c = rlx.mul %x, %x : tensor<3xf64>
  %d = rlx.mul %c, %x : tensor<3xf64>
  %s = rlx.reduce sum %d axes = [0] : tensor<3xf64>
  return %s : tensor<f64>
}

func.func @gh(%x: tensor<3xf64>) -> tensor<3xf64> {
  %l, %g = rlx.grad @h(%x) wrt [0] : (tensor<3xf64>) -> (tensor<f64>, tensor<3xf64>)
  return %g : tensor<3xf64>
}

func.func @main(%x: tensor<3xf64>, %v: tensor<3xf64>) -> tensor<3xf64> {
  %g, %hv = rlx.jvp @gh(%x) tangents(%v)
      : (tensor<3xf64>, tensor<3xf64>) -> (tensor<3xf64>, tensor<3xf64>)
  return %hv : tensor<3xf64>
}

// -----

// Fused ops are unfused before differentiation; the generated function
// holds only primitives.
// CHECK-LABEL: func.func private @fused_grad_1(
// CHECK-NOT:     rlx.fused_matmul_bias_act
// CHECK:         rlx.gelu
// CHECK:         return
func.func @fused(%x: tensor<2x4xf32>, %w: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<f32> {
  %y = rlx.fused_matmul_bias_act %x, %w, %b activation = gelu
      : tensor<2x4xf32>, tensor<4x8xf32>, tensor<8xf32>
  %s = rlx.reduce sum %y axes = [0, 1] : tensor<2x8xf32>
  return %s : tensor<f32>
}

func.func @main(%x: tensor<2x4xf32>, %w: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %l, %dw = rlx.grad @fused(%x, %w, %b) wrt [1]
      : (tensor<2x4xf32>, tensor<4x8xf32>, tensor<8xf32>) -> (tensor<f32>, tensor<4x8xf32>)
  return %dw : tensor<4x8xf32>
}

// -----

// vmap: one call per batch element on slices, results concatenated.
// CHECK-LABEL: func.func private @per_example_vmap
// CHECK-COUNT-2: call @per_example(
// CHECK:         rlx.concat
func.func @per_example(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> tensor<4xf32> {
  %r = rlx.reshape %x : tensor<4xf32> -> tensor<1x4xf32>
  %y = rlx.matmul %r, %w : tensor<1x4xf32>, tensor<4x4xf32>
  %o = rlx.reshape %y : tensor<1x4xf32> -> tensor<4xf32>
  return %o : tensor<4xf32>
}

func.func @main(%xs: tensor<2x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x2xf32> {
  %y = rlx.vmap @per_example(%xs, %w) in_axes [0, -1] out_axes [1]
      : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// -----

// rlx.while is unrolled to max_iterations before differentiation (each
// step guarded by rlx.where), so the gradient function has no loop left.
// CHECK-LABEL: func.func private @loop_grad_0(
// CHECK-NOT:     rlx.while
// CHECK:         rlx.where
// CHECK:         return
func.func @loop(%x: tensor<4xf64>, %l: tensor<f64>) -> tensor<f64> {
  %y = rlx.while (%x) : (tensor<4xf64>) {max_iterations = 3} cond {
  ^bb0(%c: tensor<4xf64>):
    %m = rlx.reduce max %c axes = [0] : tensor<4xf64>
    %p = rlx.cmp lt, %m, %l : tensor<f64>
    rlx.yield %p : tensor<i1>
  } do {
  ^bb0(%c: tensor<4xf64>):
    %n = rlx.mul %c, %c : tensor<4xf64>
    rlx.yield %n : tensor<4xf64>
  }
  %s = rlx.reduce sum %y axes = [0] : tensor<4xf64>
  return %s : tensor<f64>
}

func.func @main(%x: tensor<4xf64>, %l: tensor<f64>) -> tensor<4xf64> {
  %s, %dx = rlx.grad @loop(%x, %l) wrt [0]
      : (tensor<4xf64>, tensor<f64>) -> (tensor<f64>, tensor<4xf64>)
  return %dx : tensor<4xf64>
}

// -----

// relu's VJP passes the cotangent where the activation is positive: it
// tests relu's result (so the pre-activation can die at the relu) and
// selects the cotangent itself, with no mask tensor multiplied in.
// CHECK-LABEL: func.func private @relu_loss_grad_0(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<6xf32>
// CHECK:         %[[Y:.+]] = rlx.relu %[[X]] : tensor<6xf32>
// CHECK:         %[[P:.+]] = rlx.cmp gt, %[[Y]], %{{.+}} : tensor<6xf32>, tensor<f32>
// CHECK:         %[[D:.+]] = rlx.where %[[P]], %{{.+}}, %{{.+}} : tensor<6xi1>, tensor<6xf32>, tensor<f32>
// CHECK-NOT:     rlx.mul
// CHECK:         return %{{.+}}, %[[D]]
func.func @relu_loss(%x: tensor<6xf32>) -> tensor<f32> {
  %y = rlx.relu %x : tensor<6xf32>
  %s = rlx.reduce sum %y axes = [0] : tensor<6xf32>
  return %s : tensor<f32>
}

func.func @relu_main(%x: tensor<6xf32>) -> (tensor<f32>, tensor<6xf32>) {
  %l, %dx = rlx.grad @relu_loss(%x) wrt [0]
      : (tensor<6xf32>) -> (tensor<f32>, tensor<6xf32>)
  return %l, %dx : tensor<f32>, tensor<6xf32>
}

// -----

// The VJP of an fft is the opposite transform with the same scale (ortho
// stays ortho); complex cotangents reach the real argument through the
// casts (real part).
// CHECK-LABEL: func.func private @spectrum_grad_0(
// CHECK:         %[[ONES:.+]] = rlx.constant dense<1.000000e+00> : tensor<2x8xf32>
// CHECK:         %[[CT:.+]] = rlx.cast %[[ONES]] : tensor<2x8xf32> -> tensor<2x8xcomplex<f32>>
// CHECK:         %[[G:.+]] = rlx.fft %[[CT]] {inverse = true, norm = "ortho"} : tensor<2x8xcomplex<f32>>
// CHECK:         %[[DX:.+]] = rlx.cast %[[G]] : tensor<2x8xcomplex<f32>> -> tensor<2x8xf32>
// CHECK:         return %{{.+}}, %[[DX]]
func.func @spectrum(%x: tensor<2x8xf32>) -> tensor<f32> {
  %c = rlx.cast %x : tensor<2x8xf32> -> tensor<2x8xcomplex<f32>>
  %f = rlx.fft %c {norm = "ortho"} : tensor<2x8xcomplex<f32>>
  %r = rlx.cast %f : tensor<2x8xcomplex<f32>> -> tensor<2x8xf32>
  %s = rlx.reduce sum %r axes = [0, 1] : tensor<2x8xf32>
  return %s : tensor<f32>
}

func.func @main(%x: tensor<2x8xf32>) -> (tensor<f32>, tensor<2x8xf32>) {
  %l, %dx = rlx.grad @spectrum(%x) wrt [0]
      : (tensor<2x8xf32>) -> (tensor<f32>, tensor<2x8xf32>)
  return %l, %dx : tensor<f32>, tensor<2x8xf32>
}

// -----

// rfft / irfft: irfft's VJP is w * rfft(dy) with the dual norm (backward ->
// forward), w = 1 at DC and Nyquist and 2 elsewhere, cropped to the 5 bins
// it read; rfft's is irfft(dY / w) with the dual norm (forward ->
// backward), padded back from n = 8 to the signal's 9 samples.
// CHECK-LABEL: func.func private @power_grad_0(
// CHECK-DAG:     %[[ONES:.+]] = rlx.constant dense<1.000000e+00> : tensor<2x12xf64>
// CHECK-DAG:     %[[PAD:.+]] = rlx.constant dense<0.000000e+00> : tensor<2x1xf64>
// CHECK-DAG:     %[[HALF:.+]] = rlx.constant dense<[1.000000e+00, 5.000000e-01, 5.000000e-01, 5.000000e-01, 1.000000e+00]> : tensor<5xf64>
// CHECK-DAG:     %[[TWICE:.+]] = rlx.constant dense<[1.000000e+00, 2.000000e+00, 2.000000e+00, 2.000000e+00, 2.000000e+00, 2.000000e+00, 1.000000e+00]> : tensor<7xf64>
// CHECK:         %[[S:.+]] = rlx.rfft %[[ONES]] n = 12 {norm = "forward"} : tensor<2x12xf64>
// CHECK:         %[[W:.+]] = rlx.cast %[[TWICE]] : tensor<7xf64> -> tensor<7xcomplex<f64>>
// CHECK:         %[[SW:.+]] = rlx.mul %[[S]], %[[W]]
// CHECK:         %[[DF:.+]] = rlx.narrow %[[SW]] axis = 1 start = 0 length = 5
// CHECK:         %[[H:.+]] = rlx.cast %[[HALF]] : tensor<5xf64> -> tensor<5xcomplex<f64>>
// CHECK:         %[[DH:.+]] = rlx.mul %[[DF]], %[[H]]
// CHECK:         %[[D8:.+]] = rlx.irfft %[[DH]] n = 8 : tensor<2x5xcomplex<f64>>
// CHECK:         %[[DX:.+]] = rlx.concat %[[D8]], %[[PAD]] axis = 1
// CHECK:         return %{{.+}}, %[[DX]]
func.func @power(%x: tensor<2x9xf64>) -> tensor<f64> {
  %f = rlx.rfft %x n = 8 {norm = "forward"} : tensor<2x9xf64>
  %y = rlx.irfft %f n = 12 : tensor<2x5xcomplex<f64>>
  %s = rlx.reduce sum %y axes = [0, 1] : tensor<2x12xf64>
  return %s : tensor<f64>
}

func.func @main(%x: tensor<2x9xf64>) -> (tensor<f64>, tensor<2x9xf64>) {
  %l, %dx = rlx.grad @power(%x) wrt [0]
      : (tensor<2x9xf64>) -> (tensor<f64>, tensor<2x9xf64>)
  return %l, %dx : tensor<f64>, tensor<2x9xf64>
}

// -----

// A scan is differentiated as a loop: the captured %w becomes a carry, a
// second forward scan records the carry each step starts from, and the VJP
// is a reverse scan over (carry, x, dy) carrying the carries' cotangents
// (of h and of w), whose per-step outputs are the cotangents of xs.
// CHECK-LABEL: func.func private @rnn_grad_0_1_2(
// CHECK-SAME:    %[[H0:[^:]+]]: tensor<3xf64>, %[[A:[^:]+]]: tensor<4x3xf64>, %[[W:[^:]+]]: tensor<3xf64>)
// CHECK:         %[[F:.+]]:3 = rlx.scan init(%[[H0]], %[[W]] : tensor<3xf64>, tensor<3xf64>) xs(%[[A]] : tensor<4x3xf64>) -> (tensor<3xf64>, tensor<3xf64>, tensor<4x3xf64>)
// CHECK:         %[[S:.+]]:5 = rlx.scan init(%[[H0]], %[[W]] : tensor<3xf64>, tensor<3xf64>) xs(%[[A]] : tensor<4x3xf64>) -> (tensor<3xf64>, tensor<3xf64>, tensor<4x3xf64>, tensor<4x3xf64>, tensor<4x3xf64>)
// CHECK:           ^bb0(%[[C:[^:]+]]: tensor<3xf64>, %[[CW:[^:]+]]: tensor<3xf64>, %{{.+}}: tensor<3xf64>):
// CHECK:           rlx.yield %{{.+}}, %[[CW]], %{{.+}}, %[[C]], %[[CW]] :
// CHECK:         %[[B:.+]]:3 = rlx.scan init(%{{.+}}, %{{.+}} : tensor<3xf64>, tensor<3xf64>) xs(%[[S]]#3, %[[S]]#4, %[[A]], %{{.+}} : tensor<4x3xf64>, tensor<4x3xf64>, tensor<4x3xf64>, tensor<4x3xf64>) {reverse = true} -> (tensor<3xf64>, tensor<3xf64>, tensor<4x3xf64>)
// CHECK:         return %{{.+}}, %[[B]]#0, %[[B]]#2, %[[B]]#1
func.func @rnn(%h0: tensor<3xf64>, %a: tensor<4x3xf64>, %w: tensor<3xf64>) -> tensor<f64> {
  %h, %ys = rlx.scan init(%h0 : tensor<3xf64>) xs(%a : tensor<4x3xf64>) -> (tensor<3xf64>, tensor<4x3xf64>) {
  ^bb0(%c: tensor<3xf64>, %xt: tensor<3xf64>):
    %m = rlx.mul %c, %w : tensor<3xf64>
    %s = rlx.add %m, %xt : tensor<3xf64>
    %n = rlx.tanh %s : tensor<3xf64>
    rlx.yield %n, %n : tensor<3xf64>, tensor<3xf64>
  }
  %l = rlx.reduce sum %ys axes = [0, 1] : tensor<4x3xf64>
  return %l : tensor<f64>
}

func.func @main(%h0: tensor<3xf64>, %a: tensor<4x3xf64>, %w: tensor<3xf64>) -> (tensor<3xf64>, tensor<4x3xf64>, tensor<3xf64>) {
  %l, %g:3 = rlx.grad @rnn(%h0, %a, %w) wrt [0, 1, 2]
      : (tensor<3xf64>, tensor<4x3xf64>, tensor<3xf64>) -> (tensor<f64>, tensor<3xf64>, tensor<4x3xf64>, tensor<3xf64>)
  return %g#0, %g#1, %g#2 : tensor<3xf64>, tensor<4x3xf64>, tensor<3xf64>
}

// -----

// A gradient with respect to a run of five or more consecutive arguments
// is named by the run's ends (a whole model's gradient names every weight
// otherwise); its name is stable, so a second rlx.grad reuses it.
// CHECK-LABEL: func.func private @sum5_grad_0_to_4(
// CHECK-LABEL: func.func @main(
// CHECK:         call @sum5_grad_0_to_4(
// CHECK:         call @sum5_grad_0_to_4(
func.func @sum5(%a: tensor<2xf32>, %b: tensor<2xf32>, %c: tensor<2xf32>,
                %d: tensor<2xf32>, %e: tensor<2xf32>) -> tensor<f32> {
  %ab = rlx.add %a, %b : tensor<2xf32>, tensor<2xf32>
  %cd = rlx.mul %c, %d : tensor<2xf32>, tensor<2xf32>
  %x = rlx.add %ab, %cd : tensor<2xf32>, tensor<2xf32>
  %y = rlx.mul %x, %e : tensor<2xf32>, tensor<2xf32>
  %s = rlx.reduce sum %y axes = [0] : tensor<2xf32>
  return %s : tensor<f32>
}

func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>, %c: tensor<2xf32>,
                %d: tensor<2xf32>, %e: tensor<2xf32>) -> (tensor<f32>, tensor<f32>) {
  %l, %ga, %gb, %gc, %gd, %ge = rlx.grad @sum5(%a, %b, %c, %d, %e) wrt [0, 1, 2, 3, 4]
      : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
      -> (tensor<f32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  %l2, %ga2, %gb2, %gc2, %gd2, %ge2 = rlx.grad @sum5(%e, %d, %c, %b, %a) wrt [0, 1, 2, 3, 4]
      : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
      -> (tensor<f32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  return %l, %l2 : tensor<f32>, tensor<f32>
}

// -----

// A mean over a dynamic batch: the seed is spread `like` the reduced value
// (its size is known only at run time) and scaled by 1/n, n counted at run
// time in i64 and inverted in f32 before the cast to f16.
// CHECK-LABEL: func.func private @mean_dynamic_grad_0(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<?x3xf16>
// CHECK-DAG:     %[[SEED:.+]] = rlx.constant dense<1.000000e+00> : tensor<1x1xf16>
// CHECK-DAG:     %[[ONE:.+]] = rlx.constant dense<1> : tensor<i64>
// CHECK-DAG:     %[[UNIT:.+]] = rlx.constant dense<1.000000e+00> : tensor<f32>
// CHECK:         %[[SPREAD:.+]] = rlx.expand %[[SEED]] like %[[X]] : tensor<1x1xf16>, tensor<?x3xf16> -> tensor<?x3xf16>
// CHECK:         %[[ONES:.+]] = rlx.expand %[[ONE]] like %[[X]] : tensor<i64>, tensor<?x3xf16> -> tensor<?x3xi64>
// CHECK:         %[[N:.+]] = rlx.reduce sum %[[ONES]] axes = [0, 1] : tensor<?x3xi64>
// CHECK:         %[[NF:.+]] = rlx.cast %[[N]] : tensor<i64> -> tensor<f32>
// CHECK:         %[[INV:.+]] = rlx.div %[[UNIT]], %[[NF]] : tensor<f32>
// CHECK:         %[[INVH:.+]] = rlx.cast %[[INV]] : tensor<f32> -> tensor<f16>
// CHECK:         %[[DX:.+]] = rlx.mul %[[SPREAD]], %[[INVH]] : tensor<?x3xf16>, tensor<f16>
// CHECK:         return %{{.+}}, %[[DX]]
func.func @mean_dynamic(%x: tensor<?x3xf16>) -> tensor<f16> {
  %m = rlx.reduce mean %x axes = [0, 1] : tensor<?x3xf16>
  return %m : tensor<f16>
}

func.func @mean_dynamic_main(%x: tensor<?x3xf16>) -> (tensor<f16>, tensor<?x3xf16>) {
  %l, %dx = rlx.grad @mean_dynamic(%x) wrt [0]
      : (tensor<?x3xf16>) -> (tensor<f16>, tensor<?x3xf16>)
  return %l, %dx : tensor<f16>, tensor<?x3xf16>
}

// -----

// Over the dynamic dim alone: the count is a sum over axis 0, then one
// of its (equal) elements as rank 0.
// CHECK-LABEL: func.func private @mean_rows_grad_0(
// CHECK:         %[[N:.+]] = rlx.reduce sum %{{.+}} axes = [0] : tensor<?x3xi64>
// CHECK:         %[[N0:.+]] = rlx.reduce max %[[N]] axes = [0] : tensor<3xi64>
// CHECK:         rlx.cast %[[N0]] : tensor<i64> -> tensor<f64>
func.func @mean_rows(%x: tensor<?x3xf64>) -> tensor<f64> {
  %m = rlx.reduce mean %x axes = [0] : tensor<?x3xf64>
  %s = rlx.reduce sum %m axes = [0] : tensor<3xf64>
  return %s : tensor<f64>
}

func.func @mean_rows_main(%x: tensor<?x3xf64>) -> (tensor<f64>, tensor<?x3xf64>) {
  %l, %dx = rlx.grad @mean_rows(%x) wrt [0]
      : (tensor<?x3xf64>) -> (tensor<f64>, tensor<?x3xf64>)
  return %l, %dx : tensor<f64>, tensor<?x3xf64>
}

// -----

// A slice of a dynamic-batch value: its cotangent is padded with zeros
// that take the batch size from the sliced value.
// CHECK-LABEL: func.func private @narrow_dynamic_grad_0(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<?x6xf32>
// CHECK:         %[[Z:.+]] = rlx.constant dense<0.000000e+00> : tensor<f32>
// CHECK:         %[[PAD:.+]] = rlx.expand %[[Z]] like %[[X]] : tensor<f32>, tensor<?x6xf32> -> tensor<?x2xf32>
// CHECK:         %[[DX:.+]] = rlx.concat %[[PAD]], %{{.+}} axis = 1 : tensor<?x2xf32>, tensor<?x4xf32>
// CHECK:         return %{{.+}}, %[[DX]]
func.func @narrow_dynamic(%x: tensor<?x6xf32>) -> tensor<f32> {
  %n = rlx.narrow %x axis = 1 start = 2 length = 4 : tensor<?x6xf32>
  %s = rlx.reduce sum %n axes = [0, 1] : tensor<?x4xf32>
  return %s : tensor<f32>
}

func.func @narrow_dynamic_main(%x: tensor<?x6xf32>) -> (tensor<f32>, tensor<?x6xf32>) {
  %l, %dx = rlx.grad @narrow_dynamic(%x) wrt [0]
      : (tensor<?x6xf32>) -> (tensor<f32>, tensor<?x6xf32>)
  return %l, %dx : tensor<f32>, tensor<?x6xf32>
}
