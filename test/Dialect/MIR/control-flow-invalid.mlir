// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// rlx.yield only ends an RLX region op.
func.func @yield_in_func(%x: tensor<f32>) {
  // expected-error @+1 {{'rlx.yield' op expects parent op to be one of 'rlx.elementwise_region, rlx.scan, rlx.if, rlx.while, rlx.custom_fn'}}
  rlx.yield %x : tensor<f32>
}

// -----

// rlx.yield is not accepted in another dialect's region.
func.func @yield_in_scf(%p: i1, %x: tensor<f32>) {
  scf.if %p {
    // expected-error @+1 {{'rlx.yield' op expects parent op to be one of 'rlx.elementwise_region, rlx.scan, rlx.if, rlx.while, rlx.custom_fn'}}
    rlx.yield %x : tensor<f32>
  }
  return
}

// -----

// rlx.scan: each xs needs a leading axis.
func.func @scan_xs_rank0(%s: tensor<f32>) {
  // expected-error @+1 {{'rlx.scan' op xs #0 must have a leading axis to scan}}
  %0 = rlx.scan xs(%s : tensor<f32>) -> (tensor<f32>) {
  ^bb0(%xt: tensor<f32>):
    rlx.yield %xt : tensor<f32>
  }
  return
}

// -----

// rlx.scan: all xs share the leading dim.
func.func @scan_xs_length_mismatch(%x: tensor<10x4xf32>, %y: tensor<5x4xf32>) {
  // expected-error @+1 {{'rlx.scan' op xs #1 has leading dim 5 but the scan length is 10}}
  %0:2 = rlx.scan xs(%x, %y : tensor<10x4xf32>, tensor<5x4xf32>) -> (tensor<10x4xf32>, tensor<10x4xf32>) {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    rlx.yield %a, %b : tensor<4xf32>, tensor<4xf32>
  }
  return
}

// -----

// rlx.scan: length must agree with the xs.
func.func @scan_length_mismatch(%x: tensor<10x4xf32>) {
  // expected-error @+1 {{'rlx.scan' op xs #0 has leading dim 10 but the scan length is 3}}
  %0 = rlx.scan xs(%x : tensor<10x4xf32>) {length = 3} -> (tensor<10x4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    rlx.yield %a : tensor<4xf32>
  }
  return
}

// -----

// rlx.scan: without xs, length is required.
func.func @scan_missing_length(%h: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.scan' op needs 'length' when it has no xs}}
  %0 = rlx.scan init(%h : tensor<4xf32>) -> (tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    rlx.yield %a : tensor<4xf32>
  }
  return
}

// -----

// rlx.scan: one result per carried value at least.
func.func @scan_too_few_results(%h: tensor<4xf32>, %g: tensor<f32>) {
  // expected-error @+1 {{'rlx.scan' op has 1 results but 2 carried values}}
  %0 = "rlx.scan"(%h, %g) <{length = 2 : i64, operandSegmentSizes = array<i32: 2, 0>}> ({
  ^bb0(%a: tensor<4xf32>, %b: tensor<f32>):
    rlx.yield %a, %b : tensor<4xf32>, tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

// rlx.scan: a final carry has its init's type.
func.func @scan_carry_type(%h: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.scan' op result #0 has type 'tensor<4xf16>' but carry #0 has type 'tensor<4xf32>'}}
  %0 = rlx.scan init(%h : tensor<4xf32>) {length = 2} -> (tensor<4xf16>) {
  ^bb0(%a: tensor<4xf32>):
    rlx.yield %a : tensor<4xf32>
  }
  return
}

// -----

// rlx.scan: a stacked output's leading dim is the length.
func.func @scan_stacked_length(%x: tensor<10x4xf32>) {
  // expected-error @+1 {{'rlx.scan' op stacked output #0 ('tensor<9x4xf32>') must have leading dim 10}}
  %0 = rlx.scan xs(%x : tensor<10x4xf32>) -> (tensor<9x4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    rlx.yield %a : tensor<4xf32>
  }
  return
}

// -----

// rlx.scan: a stacked output has a leading dim.
func.func @scan_stacked_rank0(%h: tensor<f32>) {
  // expected-error @+1 {{'rlx.scan' op stacked output #0 ('tensor<f32>') must have leading dim 4}}
  %0:2 = rlx.scan init(%h : tensor<f32>) {length = 4} -> (tensor<f32>, tensor<f32>) {
  ^bb0(%a: tensor<f32>):
    rlx.yield %a, %a : tensor<f32>, tensor<f32>
  }
  return
}

// -----

// rlx.scan: the body takes the carry, then the xs slices.
func.func @scan_body_arguments(%h: tensor<4xf32>, %x: tensor<10x4xf32>) {
  // expected-error @+1 {{'rlx.scan' op region 'body' must take ('tensor<4xf32>', 'tensor<4xf32>') but takes ('tensor<4xf32>', 'tensor<10x4xf32>')}}
  %0 = rlx.scan init(%h : tensor<4xf32>) xs(%x : tensor<10x4xf32>) -> (tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>, %b: tensor<10x4xf32>):
    rlx.yield %a : tensor<4xf32>
  }
  return
}

// -----

// rlx.scan: the body yields the carry, then one slice per stacked output.
func.func @scan_body_yield(%x: tensor<10x4xf32>) {
  // expected-error @+1 {{'rlx.scan' op region 'body' must yield ('tensor<4xf32>') but yields ('tensor<f32>')}}
  %0 = rlx.scan xs(%x : tensor<10x4xf32>) -> (tensor<10x4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    %s = rlx.reduce sum %a axes = [0] : tensor<4xf32>
    rlx.yield %s : tensor<f32>
  }
  return
}

// -----

// rlx.scan: the body ends in rlx.yield.
func.func @scan_body_terminator(%x: tensor<10x4xf32>) {
  // expected-error @+1 {{'rlx.scan' op region 'body' must end in rlx.yield}}
  %0 = rlx.scan xs(%x : tensor<10x4xf32>) -> (tensor<10x4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    llvm.unreachable
  }
  return
}

// -----

// rlx.scan: the body has one block.
func.func @scan_body_empty(%x: tensor<10x4xf32>) {
  // expected-error @+1 {{'rlx.scan' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
  %0 = "rlx.scan"(%x) <{operandSegmentSizes = array<i32: 0, 1>}> ({
  }) : (tensor<10x4xf32>) -> tensor<10x4xf32>
  return
}

// -----

// rlx.scan: operandSegmentSizes must add up to the operands.
func.func @scan_segment_sizes(%x: tensor<10x4xf32>) {
  // expected-error @+1 {{'rlx.scan' op operand count (1) does not match with the total size (2) specified in attribute 'operandSegmentSizes'}}
  %0 = "rlx.scan"(%x) <{operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%a: tensor<4xf32>):
    rlx.yield %a : tensor<4xf32>
  }) : (tensor<10x4xf32>) -> tensor<10x4xf32>
  return
}

// -----

// rlx.scan: length is an integer.
func.func @scan_length_not_int(%h: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.scan' op attribute 'length' failed to satisfy constraint: 64-bit signless integer attribute}}
  %0 = rlx.scan init(%h : tensor<4xf32>) {length = 2.0 : f32} -> (tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    rlx.yield %a : tensor<4xf32>
  }
  return
}

// -----

// rlx.scan: reverse is a bool.
func.func @scan_reverse_not_bool(%h: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.scan' op attribute 'reverse' failed to satisfy constraint: bool attribute}}
  %0 = rlx.scan init(%h : tensor<4xf32>) {length = 2, reverse = 1 : i64} -> (tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    rlx.yield %a : tensor<4xf32>
  }
  return
}

// -----

// rlx.selective_scan: all operands share an element type.
func.func @selective_scan_element_type(%u: tensor<2x8x16xf32>, %dt: tensor<2x8x16xf16>, %a: tensor<8x4xf32>, %b: tensor<2x4x16xf32>, %c: tensor<2x4x16xf32>, %d: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.selective_scan' op operand 'delta' has element type 'f16' but 'u' has 'f32'}}
  %0 = rlx.selective_scan %u, %dt, %a, %b, %c, %d : tensor<2x8x16xf32>, tensor<2x8x16xf16>, tensor<8x4xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<8xf32>
  return
}

// -----

// rlx.selective_scan: D has u's element type too.
func.func @selective_scan_d_element_type(%u: tensor<2x8x16xf32>, %dt: tensor<2x8x16xf32>, %a: tensor<8x4xf32>, %b: tensor<2x4x16xf32>, %c: tensor<2x4x16xf32>, %d: tensor<8xbf16>) {
  // expected-error @+1 {{'rlx.selective_scan' op operand 'D' has element type 'bf16' but 'u' has 'f32'}}
  %0 = rlx.selective_scan %u, %dt, %a, %b, %c, %d : tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8x4xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<8xbf16>
  return
}

// -----

// rlx.selective_scan: u has rank 3.
func.func @selective_scan_u_rank(%u: tensor<8x16xf32>, %dt: tensor<2x8x16xf32>, %a: tensor<8x4xf32>, %b: tensor<2x4x16xf32>, %c: tensor<2x4x16xf32>, %d: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.selective_scan' op operand 'u' must have rank 3, got 2}}
  %0 = rlx.selective_scan %u, %dt, %a, %b, %c, %d : tensor<8x16xf32>, tensor<2x8x16xf32>, tensor<8x4xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<8xf32>
  return
}

// -----

// rlx.selective_scan: delta has rank 3.
func.func @selective_scan_delta_rank(%u: tensor<2x8x16xf32>, %dt: tensor<8x16xf32>, %a: tensor<8x4xf32>, %b: tensor<2x4x16xf32>, %c: tensor<2x4x16xf32>, %d: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.selective_scan' op operand 'delta' must have rank 3, got 2}}
  %0 = rlx.selective_scan %u, %dt, %a, %b, %c, %d : tensor<2x8x16xf32>, tensor<8x16xf32>, tensor<8x4xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<8xf32>
  return
}

// -----

// rlx.selective_scan: A has rank 2.
func.func @selective_scan_a_rank(%u: tensor<2x8x16xf32>, %dt: tensor<2x8x16xf32>, %a: tensor<8xf32>, %b: tensor<2x4x16xf32>, %c: tensor<2x4x16xf32>, %d: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.selective_scan' op operand 'A' must have rank 2, got 1}}
  %0 = rlx.selective_scan %u, %dt, %a, %b, %c, %d : tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<8xf32>
  return
}

// -----

// rlx.selective_scan: B has rank 3.
func.func @selective_scan_b_rank(%u: tensor<2x8x16xf32>, %dt: tensor<2x8x16xf32>, %a: tensor<8x4xf32>, %b: tensor<4x16xf32>, %c: tensor<2x4x16xf32>, %d: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.selective_scan' op operand 'B' must have rank 3, got 2}}
  %0 = rlx.selective_scan %u, %dt, %a, %b, %c, %d : tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8x4xf32>, tensor<4x16xf32>, tensor<2x4x16xf32>, tensor<8xf32>
  return
}

// -----

// rlx.selective_scan: C has rank 3.
func.func @selective_scan_c_rank(%u: tensor<2x8x16xf32>, %dt: tensor<2x8x16xf32>, %a: tensor<8x4xf32>, %b: tensor<2x4x16xf32>, %c: tensor<2x4x16x1xf32>, %d: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.selective_scan' op operand 'C' must have rank 3, got 4}}
  %0 = rlx.selective_scan %u, %dt, %a, %b, %c, %d : tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8x4xf32>, tensor<2x4x16xf32>, tensor<2x4x16x1xf32>, tensor<8xf32>
  return
}

// -----

// rlx.selective_scan: D has rank 1.
func.func @selective_scan_d_rank(%u: tensor<2x8x16xf32>, %dt: tensor<2x8x16xf32>, %a: tensor<8x4xf32>, %b: tensor<2x4x16xf32>, %c: tensor<2x4x16xf32>, %d: tensor<8x1xf32>) {
  // expected-error @+1 {{'rlx.selective_scan' op operand 'D' must have rank 1, got 2}}
  %0 = rlx.selective_scan %u, %dt, %a, %b, %c, %d : tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8x4xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<8x1xf32>
  return
}

// -----

// rlx.selective_scan: delta has u's batch.
func.func @selective_scan_delta_batch(%u: tensor<2x8x16xf32>, %dt: tensor<3x8x16xf32>, %a: tensor<8x4xf32>, %b: tensor<2x4x16xf32>, %c: tensor<2x4x16xf32>, %d: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.selective_scan' op operand 'delta' dim 0 (3) must match the batch of 'u' (2)}}
  %0 = rlx.selective_scan %u, %dt, %a, %b, %c, %d : tensor<2x8x16xf32>, tensor<3x8x16xf32>, tensor<8x4xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<8xf32>
  return
}

// -----

// rlx.selective_scan: delta has u's channels.
func.func @selective_scan_delta_channels(%u: tensor<2x8x16xf32>, %dt: tensor<2x7x16xf32>, %a: tensor<8x4xf32>, %b: tensor<2x4x16xf32>, %c: tensor<2x4x16xf32>, %d: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.selective_scan' op operand 'delta' dim 1 (7) must match the channels of 'u' (8)}}
  %0 = rlx.selective_scan %u, %dt, %a, %b, %c, %d : tensor<2x8x16xf32>, tensor<2x7x16xf32>, tensor<8x4xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<8xf32>
  return
}

// -----

// rlx.selective_scan: delta has u's length.
func.func @selective_scan_delta_length(%u: tensor<2x8x16xf32>, %dt: tensor<2x8x15xf32>, %a: tensor<8x4xf32>, %b: tensor<2x4x16xf32>, %c: tensor<2x4x16xf32>, %d: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.selective_scan' op operand 'delta' dim 2 (15) must match the length of 'u' (16)}}
  %0 = rlx.selective_scan %u, %dt, %a, %b, %c, %d : tensor<2x8x16xf32>, tensor<2x8x15xf32>, tensor<8x4xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<8xf32>
  return
}

// -----

// rlx.selective_scan: A has one row per channel of u.
func.func @selective_scan_a_channels(%u: tensor<2x8x16xf32>, %dt: tensor<2x8x16xf32>, %a: tensor<7x4xf32>, %b: tensor<2x4x16xf32>, %c: tensor<2x4x16xf32>, %d: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.selective_scan' op operand 'A' dim 0 (7) must match the channels of 'u' (8)}}
  %0 = rlx.selective_scan %u, %dt, %a, %b, %c, %d : tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<7x4xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<8xf32>
  return
}

// -----

// rlx.selective_scan: D has one entry per channel of u.
func.func @selective_scan_d_channels(%u: tensor<2x8x16xf32>, %dt: tensor<2x8x16xf32>, %a: tensor<8x4xf32>, %b: tensor<2x4x16xf32>, %c: tensor<2x4x16xf32>, %d: tensor<7xf32>) {
  // expected-error @+1 {{'rlx.selective_scan' op operand 'D' dim 0 (7) must match the channels of 'u' (8)}}
  %0 = rlx.selective_scan %u, %dt, %a, %b, %c, %d : tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8x4xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<7xf32>
  return
}

// -----

// rlx.selective_scan: B has u's batch.
func.func @selective_scan_b_batch(%u: tensor<2x8x16xf32>, %dt: tensor<2x8x16xf32>, %a: tensor<8x4xf32>, %b: tensor<3x4x16xf32>, %c: tensor<2x4x16xf32>, %d: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.selective_scan' op operand 'B' dim 0 (3) must match the batch of 'u' (2)}}
  %0 = rlx.selective_scan %u, %dt, %a, %b, %c, %d : tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8x4xf32>, tensor<3x4x16xf32>, tensor<2x4x16xf32>, tensor<8xf32>
  return
}

// -----

// rlx.selective_scan: B has A's state size.
func.func @selective_scan_b_state(%u: tensor<2x8x16xf32>, %dt: tensor<2x8x16xf32>, %a: tensor<8x4xf32>, %b: tensor<2x5x16xf32>, %c: tensor<2x4x16xf32>, %d: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.selective_scan' op operand 'B' dim 1 (5) must match the state size of 'A' (4)}}
  %0 = rlx.selective_scan %u, %dt, %a, %b, %c, %d : tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8x4xf32>, tensor<2x5x16xf32>, tensor<2x4x16xf32>, tensor<8xf32>
  return
}

// -----

// rlx.selective_scan: B has u's length.
func.func @selective_scan_b_length(%u: tensor<2x8x16xf32>, %dt: tensor<2x8x16xf32>, %a: tensor<8x4xf32>, %b: tensor<2x4x15xf32>, %c: tensor<2x4x16xf32>, %d: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.selective_scan' op operand 'B' dim 2 (15) must match the length of 'u' (16)}}
  %0 = rlx.selective_scan %u, %dt, %a, %b, %c, %d : tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8x4xf32>, tensor<2x4x15xf32>, tensor<2x4x16xf32>, tensor<8xf32>
  return
}

// -----

// rlx.selective_scan: C has u's batch.
func.func @selective_scan_c_batch(%u: tensor<2x8x16xf32>, %dt: tensor<2x8x16xf32>, %a: tensor<8x4xf32>, %b: tensor<2x4x16xf32>, %c: tensor<3x4x16xf32>, %d: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.selective_scan' op operand 'C' dim 0 (3) must match the batch of 'u' (2)}}
  %0 = rlx.selective_scan %u, %dt, %a, %b, %c, %d : tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8x4xf32>, tensor<2x4x16xf32>, tensor<3x4x16xf32>, tensor<8xf32>
  return
}

// -----

// rlx.selective_scan: C has A's state size.
func.func @selective_scan_c_state(%u: tensor<2x8x16xf32>, %dt: tensor<2x8x16xf32>, %a: tensor<8x4xf32>, %b: tensor<2x4x16xf32>, %c: tensor<2x5x16xf32>, %d: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.selective_scan' op operand 'C' dim 1 (5) must match the state size of 'A' (4)}}
  %0 = rlx.selective_scan %u, %dt, %a, %b, %c, %d : tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8x4xf32>, tensor<2x4x16xf32>, tensor<2x5x16xf32>, tensor<8xf32>
  return
}

// -----

// rlx.selective_scan: C has u's length.
func.func @selective_scan_c_length(%u: tensor<2x8x16xf32>, %dt: tensor<2x8x16xf32>, %a: tensor<8x4xf32>, %b: tensor<2x4x16xf32>, %c: tensor<2x4x15xf32>, %d: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.selective_scan' op operand 'C' dim 2 (15) must match the length of 'u' (16)}}
  %0 = rlx.selective_scan %u, %dt, %a, %b, %c, %d : tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8x4xf32>, tensor<2x4x16xf32>, tensor<2x4x15xf32>, tensor<8xf32>
  return
}

// -----

// rlx.selective_scan takes floats only.
func.func @selective_scan_int(%u: tensor<2x8x16xi32>, %dt: tensor<2x8x16xi32>, %a: tensor<8x4xi32>, %b: tensor<2x4x16xi32>, %c: tensor<2x4x16xi32>, %d: tensor<8xi32>) {
  // expected-error @+1 {{'rlx.selective_scan' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<2x8x16xi32>'}}
  %0 = rlx.selective_scan %u, %dt, %a, %b, %c, %d : tensor<2x8x16xi32>, tensor<2x8x16xi32>, tensor<8x4xi32>, tensor<2x4x16xi32>, tensor<2x4x16xi32>, tensor<8xi32>
  return
}

// -----

// rlx.selective_scan: the result has u's type.
func.func @selective_scan_result_type(%u: tensor<2x8x16xf32>, %a: tensor<8x4xf32>, %b: tensor<2x4x16xf32>, %d: tensor<8xf32>) {
  // expected-error @+2 {{'rlx.selective_scan' op inferred type(s) 'tensor<2x8x16xf32>' are incompatible with return type(s) of operation 'tensor<2x8x16xf16>'}}
  // expected-error @+1 {{'rlx.selective_scan' op failed to infer returned types}}
  %0 = "rlx.selective_scan"(%u, %u, %a, %b, %b, %d) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8x4xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<8xf32>) -> tensor<2x8x16xf16>
  return
}

// -----

// rlx.if: the condition is a rank-0 tensor.
func.func @if_condition_rank(%p: tensor<4xi1>) {
  // expected-error @+1 {{'rlx.if' op 'condition' must be a rank-0 tensor<i1>, got 'tensor<4xi1>'}}
  rlx.if %p : tensor<4xi1> {
    rlx.yield
  } else {
    rlx.yield
  }
  return
}

// -----

// rlx.if: the condition is i1.
func.func @if_condition_type(%p: tensor<f32>) {
  // expected-error @+1 {{'rlx.if' op operand #0 must be ranked tensor of 1-bit signless integer values, but got 'tensor<f32>'}}
  rlx.if %p : tensor<f32> {
    rlx.yield
  } else {
    rlx.yield
  }
  return
}

// -----

// rlx.if: then yields the results.
func.func @if_then_yield(%p: tensor<i1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.if' op region 'then' must yield ('tensor<4xf32>') but yields ()}}
  %0 = rlx.if %p : tensor<i1> -> tensor<4xf32> {
    rlx.yield
  } else {
    rlx.yield %x : tensor<4xf32>
  }
  return
}

// -----

// rlx.if: else yields the results.
func.func @if_else_yield(%p: tensor<i1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.if' op region 'else' must yield ('tensor<4xf32>') but yields ('tensor<f32>')}}
  %0 = rlx.if %p : tensor<i1> -> tensor<4xf32> {
    rlx.yield %x : tensor<4xf32>
  } else {
    %s = rlx.reduce sum %x axes = [0] : tensor<4xf32>
    rlx.yield %s : tensor<f32>
  }
  return
}

// -----

// rlx.if: an if without results yields nothing.
func.func @if_no_results_yield(%p: tensor<i1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.if' op region 'then' must yield () but yields ('tensor<4xf32>')}}
  rlx.if %p : tensor<i1> {
    rlx.yield %x : tensor<4xf32>
  } else {
    rlx.yield
  }
  return
}

// -----

// rlx.if: the regions take no arguments.
func.func @if_region_arguments(%p: tensor<i1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.if' op region #0 should have no arguments}}
  %0 = rlx.if %p : tensor<i1> -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    rlx.yield %a : tensor<4xf32>
  } else {
    rlx.yield %x : tensor<4xf32>
  }
  return
}

// -----

// rlx.if: then ends in rlx.yield.
func.func @if_then_terminator(%p: tensor<i1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.if' op region 'then' must end in rlx.yield}}
  %0 = rlx.if %p : tensor<i1> -> tensor<4xf32> {
    llvm.unreachable
  } else {
    rlx.yield %x : tensor<4xf32>
  }
  return
}

// -----

// rlx.if: else ends in rlx.yield.
func.func @if_else_terminator(%p: tensor<i1>) {
  // expected-error @+1 {{'rlx.if' op region 'else' must end in rlx.yield}}
  rlx.if %p : tensor<i1> {
    rlx.yield
  } else {
    llvm.unreachable
  }
  return
}

// -----

// rlx.if: a region may not be empty.
func.func @if_empty_block(%p: tensor<i1>) {
  // expected-error @+1 {{empty block: expect at least a terminator}}
  "rlx.if"(%p) ({
  ^bb0:
  }, {
    rlx.yield
  }) : (tensor<i1>) -> ()
  return
}

// -----

// rlx.while: max_iterations is non-negative.
func.func @while_negative_bound(%x: tensor<f32>) {
  // expected-error @+1 {{'rlx.while' op 'max_iterations' must be non-negative, got -1}}
  %0 = rlx.while (%x) : (tensor<f32>) {max_iterations = -1} cond {
  ^bb0(%a: tensor<f32>):
    %p = rlx.cmp lt, %a, %a : tensor<f32>
    rlx.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<f32>):
    rlx.yield %a : tensor<f32>
  }
  return
}

// -----

// rlx.while: max_iterations is an i64.
func.func @while_bound_type(%x: tensor<f32>) {
  // expected-error @+1 {{'rlx.while' op attribute 'max_iterations' failed to satisfy constraint: 64-bit signless integer attribute}}
  %0 = rlx.while (%x) : (tensor<f32>) {max_iterations = 5 : i32} cond {
  ^bb0(%a: tensor<f32>):
    %p = rlx.cmp lt, %a, %a : tensor<f32>
    rlx.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<f32>):
    rlx.yield %a : tensor<f32>
  }
  return
}

// -----

// rlx.while: cond takes the carried values.
func.func @while_cond_arguments(%x: tensor<f32>) {
  // expected-error @+1 {{'rlx.while' op region 'cond' must take ('tensor<f32>') but takes ('tensor<f16>')}}
  %0 = rlx.while (%x) : (tensor<f32>) cond {
  ^bb0(%a: tensor<f16>):
    %p = rlx.cmp lt, %a, %a : tensor<f16>
    rlx.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<f32>):
    rlx.yield %a : tensor<f32>
  }
  return
}

// -----

// rlx.while: cond yields a tensor<i1>.
func.func @while_cond_yield(%x: tensor<f32>) {
  // expected-error @+1 {{'rlx.while' op region 'cond' must yield ('tensor<i1>') but yields ('tensor<f32>')}}
  %0 = rlx.while (%x) : (tensor<f32>) cond {
  ^bb0(%a: tensor<f32>):
    rlx.yield %a : tensor<f32>
  } do {
  ^bb0(%a: tensor<f32>):
    rlx.yield %a : tensor<f32>
  }
  return
}

// -----

// rlx.while: cond yields a rank-0 predicate.
func.func @while_cond_yield_rank(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.while' op region 'cond' must yield ('tensor<i1>') but yields ('tensor<4xi1>')}}
  %0 = rlx.while (%x) : (tensor<4xf32>) cond {
  ^bb0(%a: tensor<4xf32>):
    %p = rlx.cmp lt, %a, %a : tensor<4xf32>
    rlx.yield %p : tensor<4xi1>
  } do {
  ^bb0(%a: tensor<4xf32>):
    rlx.yield %a : tensor<4xf32>
  }
  return
}

// -----

// rlx.while: body takes the carried values.
func.func @while_body_arguments(%x: tensor<f32>) {
  // expected-error @+1 {{'rlx.while' op region 'body' must take ('tensor<f32>') but takes ('tensor<f32>', 'tensor<f32>')}}
  %0 = rlx.while (%x) : (tensor<f32>) cond {
  ^bb0(%a: tensor<f32>):
    %p = rlx.cmp lt, %a, %a : tensor<f32>
    rlx.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    rlx.yield %a : tensor<f32>
  }
  return
}

// -----

// rlx.while: body yields the next carried values.
func.func @while_body_yield(%x: tensor<f32>) {
  // expected-error @+1 {{'rlx.while' op region 'body' must yield ('tensor<f32>') but yields ('tensor<f32>', 'tensor<f32>')}}
  %0 = rlx.while (%x) : (tensor<f32>) cond {
  ^bb0(%a: tensor<f32>):
    %p = rlx.cmp lt, %a, %a : tensor<f32>
    rlx.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<f32>):
    rlx.yield %a, %a : tensor<f32>, tensor<f32>
  }
  return
}

// -----

// rlx.while: cond ends in rlx.yield.
func.func @while_cond_terminator(%x: tensor<f32>) {
  // expected-error @+1 {{'rlx.while' op region 'cond' must end in rlx.yield}}
  %0 = rlx.while (%x) : (tensor<f32>) cond {
  ^bb0(%a: tensor<f32>):
    llvm.unreachable
  } do {
  ^bb0(%a: tensor<f32>):
    rlx.yield %a : tensor<f32>
  }
  return
}

// -----

// rlx.while: body ends in rlx.yield.
func.func @while_body_terminator(%x: tensor<f32>) {
  // expected-error @+1 {{'rlx.while' op region 'body' must end in rlx.yield}}
  %0 = rlx.while (%x) : (tensor<f32>) cond {
  ^bb0(%a: tensor<f32>):
    %p = rlx.cmp lt, %a, %a : tensor<f32>
    rlx.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<f32>):
    llvm.unreachable
  }
  return
}

// -----

// rlx.while: cond has one block.
func.func @while_cond_two_blocks(%x: tensor<f32>) {
  // expected-error @+1 {{'rlx.while' op region #0 ('cond') failed to verify constraint: region with 1 blocks}}
  %0 = rlx.while (%x) : (tensor<f32>) cond {
  ^bb0(%a: tensor<f32>):
    %p = rlx.cmp lt, %a, %a : tensor<f32>
    cf.br ^bb1
  ^bb1:
    rlx.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<f32>):
    rlx.yield %a : tensor<f32>
  }
  return
}

// -----

// rlx.while: the results are the carried values.
func.func @while_result_type(%x: tensor<f32>) {
  // expected-error @+2 {{'rlx.while' op inferred type(s) 'tensor<f32>' are incompatible with return type(s) of operation 'tensor<f16>'}}
  // expected-error @+1 {{'rlx.while' op failed to infer returned types}}
  %0 = "rlx.while"(%x) ({
  ^bb0(%a: tensor<f32>):
    %p = rlx.cmp lt, %a, %a : tensor<f32>
    rlx.yield %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>):
    rlx.yield %a : tensor<f32>
  }) : (tensor<f32>) -> tensor<f16>
  return
}

// -----

// rlx.custom_fn: fwd takes the inputs.
func.func @custom_fn_fwd_arguments(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.custom_fn' op region 'fwd' must take ('tensor<4xf32>') but takes ('tensor<4xf16>')}}
  %0 = rlx.custom_fn (%x) : (tensor<4xf32>) -> tensor<4xf32> fwd {
  ^bb0(%a: tensor<4xf16>):
    %c = rlx.cast %a : tensor<4xf16> -> tensor<4xf32>
    rlx.yield %c : tensor<4xf32>
  }
  return
}

// -----

// rlx.custom_fn: fwd yields the results.
func.func @custom_fn_fwd_yield(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.custom_fn' op region 'fwd' must yield ('tensor<4xf32>') but yields ()}}
  %0 = rlx.custom_fn (%x) : (tensor<4xf32>) -> tensor<4xf32> fwd {
  ^bb0(%a: tensor<4xf32>):
    rlx.yield
  }
  return
}

// -----

// rlx.custom_fn: fwd ends in rlx.yield.
func.func @custom_fn_fwd_terminator(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.custom_fn' op region 'fwd' must end in rlx.yield}}
  %0 = rlx.custom_fn (%x) : (tensor<4xf32>) -> tensor<4xf32> fwd {
  ^bb0(%a: tensor<4xf32>):
    llvm.unreachable
  }
  return
}

// -----

// rlx.custom_fn: vjp takes (x..., y..., dy...).
func.func @custom_fn_vjp_arguments(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.custom_fn' op region 'vjp' must take ('tensor<4xf32>', 'tensor<4xf32>', 'tensor<4xf32>') but takes ('tensor<4xf32>', 'tensor<4xf32>')}}
  %0 = rlx.custom_fn (%x) : (tensor<4xf32>) -> tensor<4xf32> fwd {
  ^bb0(%a: tensor<4xf32>):
    rlx.yield %a : tensor<4xf32>
  } vjp {
  ^bb0(%a: tensor<4xf32>, %g: tensor<4xf32>):
    rlx.yield %g : tensor<4xf32>
  }
  return
}

// -----

// rlx.custom_fn: vjp yields one cotangent per input, of the input's type.
func.func @custom_fn_vjp_yield(%x: tensor<4xf32>, %s: tensor<f16>) {
  // expected-error @+1 {{'rlx.custom_fn' op region 'vjp' must yield ('tensor<4xf32>', 'tensor<f16>') but yields ('tensor<4xf32>')}}
  %0 = rlx.custom_fn (%x, %s) : (tensor<4xf32>, tensor<f16>) -> tensor<4xf32> fwd {
  ^bb0(%a: tensor<4xf32>, %b: tensor<f16>):
    rlx.yield %a : tensor<4xf32>
  } vjp {
  ^bb0(%a: tensor<4xf32>, %b: tensor<f16>, %y: tensor<4xf32>, %g: tensor<4xf32>):
    rlx.yield %g : tensor<4xf32>
  }
  return
}

// -----

// rlx.custom_fn: vjp has one block.
func.func @custom_fn_vjp_blocks(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.custom_fn' op region 'vjp' must have one block}}
  %0 = rlx.custom_fn (%x) : (tensor<4xf32>) -> tensor<4xf32> fwd {
  ^bb0(%a: tensor<4xf32>):
    rlx.yield %a : tensor<4xf32>
  } vjp {
  ^bb0(%a: tensor<4xf32>, %e: tensor<4xf32>, %g: tensor<4xf32>):
    cf.br ^bb1
  ^bb1:
    rlx.yield %g : tensor<4xf32>
  }
  return
}

// -----

// rlx.custom_fn: vjp ends in rlx.yield.
func.func @custom_fn_vjp_terminator(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.custom_fn' op region 'vjp' must end in rlx.yield}}
  %0 = rlx.custom_fn (%x) : (tensor<4xf32>) -> tensor<4xf32> fwd {
  ^bb0(%a: tensor<4xf32>):
    rlx.yield %a : tensor<4xf32>
  } vjp {
  ^bb0(%a: tensor<4xf32>, %e: tensor<4xf32>, %g: tensor<4xf32>):
    llvm.unreachable
  }
  return
}

// -----

// rlx.custom_fn: jvp takes (x..., dx...).
func.func @custom_fn_jvp_arguments(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.custom_fn' op region 'jvp' must take ('tensor<4xf32>', 'tensor<4xf32>') but takes ('tensor<4xf32>')}}
  %0 = rlx.custom_fn (%x) : (tensor<4xf32>) -> tensor<4xf32> fwd {
  ^bb0(%a: tensor<4xf32>):
    rlx.yield %a : tensor<4xf32>
  } jvp {
  ^bb0(%a: tensor<4xf32>):
    rlx.yield %a, %a : tensor<4xf32>, tensor<4xf32>
  }
  return
}

// -----

// rlx.custom_fn: jvp yields (y..., dy...).
func.func @custom_fn_jvp_yield(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.custom_fn' op region 'jvp' must yield ('tensor<4xf32>', 'tensor<4xf32>') but yields ('tensor<4xf32>')}}
  %0 = rlx.custom_fn (%x) : (tensor<4xf32>) -> tensor<4xf32> fwd {
  ^bb0(%a: tensor<4xf32>):
    rlx.yield %a : tensor<4xf32>
  } jvp {
  ^bb0(%a: tensor<4xf32>, %da: tensor<4xf32>):
    rlx.yield %da : tensor<4xf32>
  }
  return
}

// -----

// rlx.custom_fn: jvp has one block.
func.func @custom_fn_jvp_blocks(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.custom_fn' op region 'jvp' must have one block}}
  %0 = rlx.custom_fn (%x) : (tensor<4xf32>) -> tensor<4xf32> fwd {
  ^bb0(%a: tensor<4xf32>):
    rlx.yield %a : tensor<4xf32>
  } jvp {
  ^bb0(%a: tensor<4xf32>, %da: tensor<4xf32>):
    cf.br ^bb1
  ^bb1:
    rlx.yield %a, %da : tensor<4xf32>, tensor<4xf32>
  }
  return
}

// -----

// rlx.custom_fn: jvp ends in rlx.yield.
func.func @custom_fn_jvp_terminator(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.custom_fn' op region 'jvp' must end in rlx.yield}}
  %0 = rlx.custom_fn (%x) : (tensor<4xf32>) -> tensor<4xf32> fwd {
  ^bb0(%a: tensor<4xf32>):
    rlx.yield %a : tensor<4xf32>
  } jvp {
  ^bb0(%a: tensor<4xf32>, %da: tensor<4xf32>):
    llvm.unreachable
  }
  return
}

// -----

// rlx.custom_fn: the regions are isolated from above.
func.func @custom_fn_isolated(%x: tensor<4xf32>) {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = rlx.custom_fn (%x) : (tensor<4xf32>) -> tensor<4xf32> fwd {
  ^bb0(%a: tensor<4xf32>):
    // expected-error @+1 {{'rlx.yield' op using value defined outside the region}}
    rlx.yield %x : tensor<4xf32>
  }
  return
}

// -----

// rlx.custom_fn: the op has three regions.
func.func @custom_fn_region_count(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.custom_fn' op expected 3 regions}}
  %0 = "rlx.custom_fn"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    rlx.yield %a : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// rlx.scan: a negative length is rejected.
func.func @scan_negative_length() {
  // expected-error @+1 {{'rlx.scan' op 'length' must be non-negative, got -4}}
  %r = rlx.scan {length = -4 : i64} -> (tensor<?x4xf32>) {
    %c = rlx.constant dense<1.0> : tensor<4xf32>
    rlx.yield %c : tensor<4xf32>
  }
  return
}

// -----

// rlx.scan: a scan that produces nothing is rejected.
func.func @scan_no_results() {
  // expected-error @+1 {{'rlx.scan' op must have at least one result (a carry or a stacked output)}}
  "rlx.scan"() <{length = 3 : i64, operandSegmentSizes = array<i32: 0, 0>}> ({
    rlx.yield
  }) : () -> ()
  return
}

// -----

// rlx.while: a loop without carried values is rejected.
func.func @while_no_carry() {
  // expected-error @+1 {{'rlx.while' op must carry at least one value}}
  "rlx.while"() ({
    %p = rlx.constant dense<false> : tensor<i1>
    rlx.yield %p : tensor<i1>
  }, {
    rlx.yield
  }) : () -> ()
  return
}

// -----

// rlx.selective_scan: operands are checked against each other, not only
// against 'u', so dynamic dims in 'u' cannot hide a mismatch.
func.func @selective_scan_dynamic_u_mismatch(%u: tensor<?x?x?xf32>, %dt: tensor<2x8x16xf32>, %a: tensor<8x4xf32>, %b: tensor<3x4x16xf32>, %d: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.selective_scan' op operand 'B' dim 0 (3) must match the batch of 'delta' (2)}}
  %y = rlx.selective_scan %u, %dt, %a, %b, %b, %d : tensor<?x?x?xf32>, tensor<2x8x16xf32>, tensor<8x4xf32>, tensor<3x4x16xf32>, tensor<3x4x16xf32>, tensor<8xf32>
  return
}

// -----

// rlx.selective_scan: B and C must agree on the state size when A's is
// dynamic.
func.func @selective_scan_state_mismatch(%u: tensor<2x8x16xf32>, %a: tensor<8x?xf32>, %b: tensor<2x4x16xf32>, %c: tensor<2x5x16xf32>, %d: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.selective_scan' op operand 'C' dim 1 (5) must match the state size of 'B' (4)}}
  %y = rlx.selective_scan %u, %u, %a, %b, %c, %d : tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8x?xf32>, tensor<2x4x16xf32>, tensor<2x5x16xf32>, tensor<8xf32>
  return
}
