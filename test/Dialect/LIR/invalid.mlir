// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// Two buffers live at kernel 1 share bytes [64, 128).
func.func @overlap() {
  // expected-error @+1 {{buffers 0 and 1 overlap while both live: bytes [0, 128) and [64, 192), kernels [0, 1] and [1, 2]}}
  %arena = rlx_lir.arena {plan = #rlx_lir.plan<arena_size = 256, alignment = 64, buffers = [#rlx_lir.buffer<id = 0, offset = 0, size = 128, start = 0, end = 1>, #rlx_lir.buffer<id = 1, offset = 64, size = 128, start = 1, end = 2>]>} : memref<256xi8>
  return
}

// -----

// The same bytes for two buffers that are never live together are fine;
// a buffer ending past the arena is not.
func.func @past_arena() {
  // expected-error @+1 {{buffer 1 ends at byte 320, past the arena of 256 bytes}}
  %arena = rlx_lir.arena {plan = #rlx_lir.plan<arena_size = 256, alignment = 64, buffers = [#rlx_lir.buffer<id = 0, offset = 0, size = 128, start = 0, end = 1>, #rlx_lir.buffer<id = 1, offset = 192, size = 128, start = 2, end = 3>]>} : memref<256xi8>
  return
}

// -----

// Root buffers start at multiples of the alignment.
func.func @misaligned() {
  // expected-error @+1 {{buffer 0 at offset 32 is not aligned to 64 bytes}}
  %arena = rlx_lir.arena {plan = #rlx_lir.plan<arena_size = 256, alignment = 64, buffers = [#rlx_lir.buffer<id = 0, offset = 32, size = 128, start = 0, end = 1>]>} : memref<256xi8>
  return
}

// -----

// The alignment is a power of two.
func.func @alignment() {
  // expected-error @+1 {{alignment 48 is not a positive power of two}}
  %arena = rlx_lir.arena {plan = #rlx_lir.plan<arena_size = 256, alignment = 48, buffers = []>} : memref<256xi8>
  return
}

// -----

// An alias lies within its root's bytes.
func.func @alias_outside() {
  // expected-error @+1 {{alias 1 (bytes [64, 192)) is not within its root 0 (bytes [0, 128))}}
  %arena = rlx_lir.arena {plan = #rlx_lir.plan<arena_size = 256, alignment = 64, buffers = [#rlx_lir.buffer<id = 0, offset = 0, size = 128, start = 0, end = 1>, #rlx_lir.buffer<id = 1, offset = 64, size = 128, start = 0, end = 1, root = 0>]>} : memref<256xi8>
  return
}

// -----

// An alias lies within its root's lifetime.
func.func @alias_lifetime() {
  // expected-error @+1 {{alias 1 is live over kernels [0, 3], outside its root 0 ([0, 1])}}
  %arena = rlx_lir.arena {plan = #rlx_lir.plan<arena_size = 256, alignment = 64, buffers = [#rlx_lir.buffer<id = 0, offset = 0, size = 128, start = 0, end = 1>, #rlx_lir.buffer<id = 1, offset = 0, size = 128, start = 0, end = 3, root = 0>]>} : memref<256xi8>
  return
}

// -----

// An alias's root is a root buffer.
func.func @alias_of_alias() {
  // expected-error @+1 {{alias 2 names 1 as its root, which is not a root buffer}}
  %arena = rlx_lir.arena {plan = #rlx_lir.plan<arena_size = 256, alignment = 64, buffers = [#rlx_lir.buffer<id = 0, offset = 0, size = 128, start = 0, end = 1>, #rlx_lir.buffer<id = 1, offset = 0, size = 128, start = 0, end = 1, root = 0>, #rlx_lir.buffer<id = 2, offset = 0, size = 128, start = 0, end = 1, root = 1>]>} : memref<256xi8>
  return
}

// -----

// Buffer ids are unique.
func.func @duplicate_id() {
  // expected-error @+1 {{buffer id 0 appears twice}}
  %arena = rlx_lir.arena {plan = #rlx_lir.plan<arena_size = 256, alignment = 64, buffers = [#rlx_lir.buffer<id = 0, offset = 0, size = 128, start = 0, end = 1>, #rlx_lir.buffer<id = 0, offset = 128, size = 128, start = 0, end = 1>]>} : memref<256xi8>
  return
}

// -----

// A lifetime is a range of kernels.
func.func @empty_lifetime() {
  // expected-error @+1 {{buffer 0 is live over kernels [2, 1], which is not a range}}
  %arena = rlx_lir.arena {plan = #rlx_lir.plan<arena_size = 256, alignment = 64, buffers = [#rlx_lir.buffer<id = 0, offset = 0, size = 128, start = 2, end = 1>]>} : memref<256xi8>
  return
}

// -----

// The arena's memref has the plan's size.
func.func @arena_type() {
  // expected-error @+1 {{'rlx_lir.arena' op has type 'memref<128xi8>' but the plan's arena is 256 bytes}}
  %arena = rlx_lir.arena {plan = #rlx_lir.plan<arena_size = 256, alignment = 64, buffers = []>} : memref<128xi8>
  return
}

// -----

// A buffer op sits where its plan entry says.
func.func @buffer_offset() {
  %arena = rlx_lir.arena {plan = #rlx_lir.plan<arena_size = 256, alignment = 64, buffers = [#rlx_lir.buffer<id = 0, offset = 0, size = 128, start = 0, end = 1>]>} : memref<256xi8>
  // expected-error @+1 {{'rlx_lir.buffer' op is bytes [128, 256) of the arena but the plan gives buffer 0 bytes [0, 128)}}
  %b = rlx_lir.buffer %arena[128] id 0 : memref<256xi8> -> memref<32xf32>
  return
}

// -----

// A buffer op names a planned buffer.
func.func @buffer_unplanned() {
  %arena = rlx_lir.arena {plan = #rlx_lir.plan<arena_size = 256, alignment = 64, buffers = []>} : memref<256xi8>
  // expected-error @+1 {{'rlx_lir.buffer' op names buffer 3, which the arena's plan does not list}}
  %b = rlx_lir.buffer %arena[0] id 3 : memref<256xi8> -> memref<32xf32>
  return
}

// -----

// A buffer op stays within its arena.
func.func @buffer_bounds(%arena: memref<256xi8>) {
  // expected-error @+1 {{'rlx_lir.buffer' op reads bytes [192, 320) of a 256-byte source}}
  %b = rlx_lir.buffer %arena[192] id 0 : memref<256xi8> -> memref<32xf32>
  return
}

// -----

// An alias op matches its plan entry: the plan says buffer 1 is a root.
func.func @alias_vs_plan() {
  %arena = rlx_lir.arena {plan = #rlx_lir.plan<arena_size = 256, alignment = 64, buffers = [#rlx_lir.buffer<id = 0, offset = 0, size = 128, start = 0, end = 1>, #rlx_lir.buffer<id = 1, offset = 128, size = 128, start = 0, end = 1>]>} : memref<256xi8>
  %b = rlx_lir.buffer %arena[0] id 0 : memref<256xi8> -> memref<32xf32>
  // expected-error @+1 {{'rlx_lir.alias' op is a view of buffer 0 but the plan lists 1 as a root}}
  %a = rlx_lir.alias %b[0] id 1 : memref<32xf32> -> memref<4x8xf32>
  return
}

// -----

// A kernel runs within the lifetime of every buffer it reads: the plan
// claims buffer 0 dead after kernel 0, but kernel 1 reads it.
func.func @use_after_end(%x: tensor<32xf32>) -> tensor<32xf32> {
  %arena = rlx_lir.arena {plan = #rlx_lir.plan<arena_size = 256, alignment = 64, buffers = [#rlx_lir.buffer<id = 0, offset = 0, size = 128, start = 0, end = 0>]>} : memref<256xi8>
  %b = rlx_lir.buffer %arena[0] id 0 : memref<256xi8> -> memref<32xf32>
  rlx_lir.kernel "rlx.neg" ins(%x : tensor<32xf32>) outs(%b : memref<32xf32>) {
  ^bb0(%a: tensor<32xf32>):
    %n = rlx.neg %a : tensor<32xf32>
    rlx_lir.yield %n : tensor<32xf32>
  }
  // expected-error @+1 {{'rlx_lir.kernel' op (kernel 1) uses buffer 0, which the plan has live over kernels [0, 0] only}}
  %y = rlx_lir.kernel "rlx.neg" ins(%b : memref<32xf32>) {
  ^bb0(%a: tensor<32xf32>):
    %n = rlx.neg %a : tensor<32xf32>
    rlx_lir.yield %n : tensor<32xf32>
  } -> tensor<32xf32>
  return %y : tensor<32xf32>
}

// -----

// A kernel's body sees its memref inputs as tensors of the same shape.
func.func @kernel_arg(%m: memref<32xf32>) {
  // expected-error @+1 {{'rlx_lir.kernel' op input #0 of type 'memref<32xf32>' reaches the body as 'tensor<16xf32>', expected 'tensor<32xf32>'}}
  rlx_lir.kernel "rlx.neg" ins(%m : memref<32xf32>) {
  ^bb0(%a: tensor<16xf32>):
    rlx_lir.yield
  }
  return
}

// -----

// A kernel yields one value per output buffer and result.
func.func @kernel_yield(%x: tensor<32xf32>, %m: memref<32xf32>) {
  // expected-error @+1 {{'rlx_lir.kernel' op yields 0 values for 1 outputs and 0 results}}
  rlx_lir.kernel "rlx.neg" ins(%x : tensor<32xf32>) outs(%m : memref<32xf32>) {
  ^bb0(%a: tensor<32xf32>):
    rlx_lir.yield
  }
  return
}

// -----

// A weight needs the module's weight layout.
func.func @weight_no_layout() {
  // expected-error @+1 {{'rlx_lir.weight' op needs a 'rlx_lir.weights' layout on the enclosing module}}
  %w = rlx_lir.weight "w" : memref<8xf32>
  return
}

// -----

// A weight has a slot of its size.
module attributes {rlx_lir.weights = #rlx_lir.weights<size = 64, alignment = 64, slots = [#rlx_lir.slot<name = "w", offset = 0, size = 64>]>} {
  func.func @weight_size() {
    // expected-error @+1 {{'rlx_lir.weight' op is 32 bytes but the slot of 'w' is 64 bytes}}
    %w = rlx_lir.weight "w" : memref<8xf32>
    return
  }
}

// -----

// Weight slots do not overlap.
// expected-error @+1 {{weights 'w' and 'b' overlap}}
module attributes {rlx_lir.weights = #rlx_lir.weights<size = 128, alignment = 64, slots = [#rlx_lir.slot<name = "w", offset = 0, size = 128>, #rlx_lir.slot<name = "b", offset = 64, size = 64>]>} {
}
