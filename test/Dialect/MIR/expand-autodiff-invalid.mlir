// RUN: rlx-opt %s --rlx-expand-autodiff --split-input-file -verify-diagnostics

// An op on the path from the argument to the loss without a rule: a
// selective_scan of dynamic length is not unrolled.
func.func @loss(%u: tensor<1x2x?xf32>, %dt: tensor<1x2x?xf32>, %a: tensor<2x3xf32>, %b: tensor<1x3x?xf32>, %c: tensor<1x3x?xf32>, %d: tensor<2xf32>) -> tensor<f32> {
  // expected-error @+1 {{'rlx.selective_scan' op has no differentiation rule}}
  %y = rlx.selective_scan %u, %dt, %a, %b, %c, %d : tensor<1x2x?xf32>, tensor<1x2x?xf32>, tensor<2x3xf32>, tensor<1x3x?xf32>, tensor<1x3x?xf32>, tensor<2xf32>
  %s = rlx.reduce sum %y axes = [0, 1, 2] : tensor<1x2x?xf32>
  return %s : tensor<f32>
}

func.func @main(%u: tensor<1x2x?xf32>, %dt: tensor<1x2x?xf32>, %a: tensor<2x3xf32>, %b: tensor<1x3x?xf32>, %c: tensor<1x3x?xf32>, %d: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-note @+1 {{needed to differentiate 'loss' here}}
  %l, %da = rlx.grad @loss(%u, %dt, %a, %b, %c, %d) wrt [2]
      : (tensor<1x2x?xf32>, tensor<1x2x?xf32>, tensor<2x3xf32>, tensor<1x3x?xf32>, tensor<1x3x?xf32>, tensor<2xf32>) -> (tensor<f32>, tensor<2x3xf32>)
  return %da : tensor<2x3xf32>
}

// -----

// dequant_matmul's scales have no derivative: one that depends on a
// differentiated argument is an error, not a zero gradient.
func.func @scaled(%x: tensor<4x64xf32>, %w: tensor<16x64xi8>, %s: tensor<16x2xf32>) -> tensor<f32> {
  // expected-error @+1 {{'rlx.dequant_matmul' op has no derivative with respect to operand #2, which depends on a differentiated argument}}
  %y = rlx.dequant_matmul #rlx.quant<int8_block, 32> %x, %w, %s : tensor<4x64xf32>, tensor<16x64xi8>, tensor<16x2xf32>
  %l = rlx.reduce sum %y axes = [0, 1] : tensor<4x16xf32>
  return %l : tensor<f32>
}

func.func @main(%x: tensor<4x64xf32>, %w: tensor<16x64xi8>, %s: tensor<16x2xf32>) -> tensor<16x2xf32> {
  // expected-note @+1 {{needed to differentiate 'scaled' here}}
  %l, %ds = rlx.grad @scaled(%x, %w, %s) wrt [2]
      : (tensor<4x64xf32>, tensor<16x64xi8>, tensor<16x2xf32>) -> (tensor<f32>, tensor<16x2xf32>)
  return %ds : tensor<16x2xf32>
}

// -----

// The same for a tangent of the scale.
func.func @scaled_fwd(%x: tensor<4x64xf32>, %w: tensor<16x64xi8>, %s: tensor<16x2xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'rlx.dequant_matmul' op has no derivative with respect to operand #2, which depends on a differentiated argument}}
  %y = rlx.dequant_matmul #rlx.quant<int8_block, 32> %x, %w, %s : tensor<4x64xf32>, tensor<16x64xi8>, tensor<16x2xf32>
  return %y : tensor<4x16xf32>
}

func.func @main(%x: tensor<4x64xf32>, %w: tensor<16x64xi8>, %s: tensor<16x2xf32>, %tx: tensor<4x64xf32>, %tw: tensor<16x64xi8>, %ts: tensor<16x2xf32>) -> tensor<4x16xf32> {
  // expected-note @+1 {{needed to differentiate 'scaled_fwd' here}}
  %y, %dy = rlx.jvp @scaled_fwd(%x, %w, %s) tangents(%tx, %tw, %ts)
      : (tensor<4x64xf32>, tensor<16x64xi8>, tensor<16x2xf32>, tensor<4x64xf32>, tensor<16x64xi8>, tensor<16x2xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>)
  return %dy : tensor<4x16xf32>
}

// -----

// A callee without a body.
func.func private @external(%x: tensor<4xf32>) -> tensor<f32>

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{cannot differentiate 'external': it has no single-block body}}
  %l, %dx = rlx.grad @external(%x) wrt [0]
      : (tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
  return %dx : tensor<4xf32>
}

// -----

// A function that differentiates itself.
func.func @self(%x: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+1 {{differentiates a function that reaches itself through transforms or calls}}
  %l, %dx = rlx.grad @self(%x) wrt [0]
      : (tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
  return %l : tensor<f32>
}

// -----

// rlx.grouped_matmul (MoE expert products) has no rule: a gradient through
// it is an error naming it.
func.func @moe(%x: tensor<5x8xf32>, %w: tensor<3x8x4xf32>, %e: tensor<5xi64>) -> tensor<f32> {
  // expected-error @+1 {{'rlx.grouped_matmul' op has no differentiation rule}}
  %y = rlx.grouped_matmul %x, %w, %e : tensor<5x8xf32>, tensor<3x8x4xf32>, tensor<5xi64>
  %l = rlx.reduce sum %y axes = [0, 1] : tensor<5x4xf32>
  return %l : tensor<f32>
}

func.func @main(%x: tensor<5x8xf32>, %w: tensor<3x8x4xf32>, %e: tensor<5xi64>) -> tensor<3x8x4xf32> {
  // expected-note @+1 {{needed to differentiate 'moe' here}}
  %l, %dw = rlx.grad @moe(%x, %w, %e) wrt [1]
      : (tensor<5x8xf32>, tensor<3x8x4xf32>, tensor<5xi64>) -> (tensor<f32>, tensor<3x8x4xf32>)
  return %dw : tensor<3x8x4xf32>
}

// -----

// rlx.gated_delta_net has no rule either.
func.func @gdn(%q: tensor<1x3x2x4xf32>, %k: tensor<1x3x2x4xf32>, %v: tensor<1x3x2x4xf32>, %g: tensor<1x3x2xf32>, %b: tensor<1x3x2xf32>, %s: tensor<1x2x4x4xf32>) -> tensor<f32> {
  // expected-error @+1 {{'rlx.gated_delta_net' op has no differentiation rule}}
  %o, %f = rlx.gated_delta_net %q, %k, %v, %g, %b, %s : tensor<1x3x2x4xf32>, tensor<1x3x2x4xf32>, tensor<1x3x2x4xf32>, tensor<1x3x2xf32>, tensor<1x3x2xf32>, tensor<1x2x4x4xf32>
  %l = rlx.reduce sum %o axes = [0, 1, 2, 3] : tensor<1x3x2x4xf32>
  return %l : tensor<f32>
}

func.func @main(%q: tensor<1x3x2x4xf32>, %k: tensor<1x3x2x4xf32>, %v: tensor<1x3x2x4xf32>, %g: tensor<1x3x2xf32>, %b: tensor<1x3x2xf32>, %s: tensor<1x2x4x4xf32>) -> tensor<1x3x2x4xf32> {
  // expected-note @+1 {{needed to differentiate 'gdn' here}}
  %l, %dq = rlx.grad @gdn(%q, %k, %v, %g, %b, %s) wrt [0]
      : (tensor<1x3x2x4xf32>, tensor<1x3x2x4xf32>, tensor<1x3x2x4xf32>, tensor<1x3x2xf32>, tensor<1x3x2xf32>, tensor<1x2x4x4xf32>) -> (tensor<f32>, tensor<1x3x2x4xf32>)
  return %dq : tensor<1x3x2x4xf32>
}

// -----

// group_norm differentiates through its decomposition, which takes a
// dynamic batch but not dynamic spatial dims.
func.func @gn(%x: tensor<?x4x?xf32>, %g: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+1 {{'rlx.group_norm' op differentiates with a dynamic batch only; dim 2 of 'tensor<?x4x?xf32>' is dynamic}}
  %y = rlx.group_norm %x, %g, %g {num_groups = 2 : i64} : tensor<?x4x?xf32>, tensor<4xf32>
  %l = rlx.reduce sum %y axes = [0, 1, 2] : tensor<?x4x?xf32>
  return %l : tensor<f32>
}

func.func @main(%x: tensor<?x4x?xf32>, %g: tensor<4xf32>) -> tensor<4xf32> {
  %l, %dg = rlx.grad @gn(%x, %g) wrt [1]
      : (tensor<?x4x?xf32>, tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
  return %dg : tensor<4xf32>
}
