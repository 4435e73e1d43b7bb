// RUN: rlx-opt %s -convert-rlx-to-linalg -split-input-file -verify-diagnostics

// rlx.param is bound by the runtime (or specialized away) before lowering.
func.func @param() -> tensor<4xf32> {
  // expected-error @+1 {{failed to legalize operation 'rlx.param' that was explicitly marked illegal}}
  %w = rlx.param "w" : tensor<4xf32>
  return %w : tensor<4xf32>
}

// -----

// A reshape to two dynamic dims does not say how to split the elements.
func.func @reshape_two_dynamic(%x: tensor<?x4xf32>) -> tensor<?x?xf32> {
  // expected-error @+1 {{failed to legalize operation 'rlx.reshape' that was explicitly marked illegal}}
  %0 = rlx.reshape %x : tensor<?x4xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// An expand whose dynamic result dim has no dynamic input dim to size it.
func.func @expand_dynamic_from_static(%x: tensor<1x8xf32>) -> tensor<?x8xf32> {
  // expected-error @+1 {{failed to legalize operation 'rlx.expand' that was explicitly marked illegal}}
  %0 = rlx.expand %x : tensor<1x8xf32> -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}


// -----

// The scalar body of an elementwise region over unsigned types is not
// rewritten to signless types.
func.func @elementwise_region_unsigned(%x: tensor<4xui8>) -> tensor<4xui8> {
  // expected-error @+1 {{failed to legalize operation 'rlx.elementwise_region' that was explicitly marked illegal}}
  %r = rlx.elementwise_region ins(%x : tensor<4xui8>) -> tensor<4xui8> {
  ^bb0(%a: ui8):
    rlx.yield %a : ui8
  }
  return %r : tensor<4xui8>
}

// -----

// Attention needs static head counts (for the grouped-query map).
func.func @attention_dynamic_heads(%q: tensor<1x?x8x16xf32>) -> tensor<1x?x8x16xf32> {
  // expected-error @+1 {{failed to legalize operation 'rlx.attention' that was explicitly marked illegal}}
  %0 = rlx.attention %q, %q, %q mask = none : tensor<1x?x8x16xf32>, tensor<1x?x8x16xf32>, tensor<1x?x8x16xf32>
  return %0 : tensor<1x?x8x16xf32>
}

// -----

// So does its backward op.
func.func @attention_backward_dynamic_heads(%q: tensor<1x?x8x16xf32>) -> tensor<1x?x8x16xf32> {
  // expected-error @+1 {{failed to legalize operation 'rlx.attention_backward' that was explicitly marked illegal}}
  %0:3 = rlx.attention_backward %q, %q, %q, %q, %q mask = none : tensor<1x?x8x16xf32>, tensor<1x?x8x16xf32>, tensor<1x?x8x16xf32>, tensor<1x?x8x16xf32>
  return %0#0 : tensor<1x?x8x16xf32>
}

// -----

// The transposed convolution behind conv2d_backward_input needs static
// shapes.
func.func @conv2d_backward_input_dynamic(%dy: tensor<?x4x6x6xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<?x2x8x8xf32> {
  // expected-error @+1 {{failed to legalize operation 'rlx.conv2d_backward_input' that was explicitly marked illegal}}
  %0 = rlx.conv2d_backward_input %dy, %w : tensor<?x4x6x6xf32>, tensor<4x2x3x3xf32> -> tensor<?x2x8x8xf32>
  return %0 : tensor<?x2x8x8xf32>
}

// -----

// group_norm splits the channels into groups: their count must be static.
func.func @group_norm_dynamic_channels(%x: tensor<2x?x4xf32>, %g: tensor<?xf32>) -> tensor<2x?x4xf32> {
  // expected-error @+1 {{failed to legalize operation 'rlx.group_norm' that was explicitly marked illegal}}
  %0 = rlx.group_norm %x, %g, %g {num_groups = 2 : i64} : tensor<2x?x4xf32>, tensor<?xf32>
  return %0 : tensor<2x?x4xf32>
}
