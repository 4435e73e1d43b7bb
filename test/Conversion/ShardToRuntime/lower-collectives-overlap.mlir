// RUN: rlx-opt %s --rlx-lower-collectives=overlap=true --split-input-file | FileCheck %s

// Two micro-batches written one after the other, each a row-parallel
// product and its all-reduce: the second's product runs while the first's
// all-reduce does, each wait comes right before its result's reader, and
// the wait reads the input buffer (kept alive until then).
shard.grid @tp(shape = 2)
// CHECK-LABEL: func.func @micro_batches
// CHECK: %[[PA:.*]] = rlx.matmul %arg0, %arg2
// CHECK: %[[INA:.*]] = bufferization.to_buffer %[[PA]] read_only
// CHECK: %[[OUTA:.*]] = memref.alloc()
// CHECK: call @rlxCollectiveAllReduceAsync(
// CHECK: %[[PB:.*]] = rlx.matmul %arg1, %arg2
// CHECK: %[[INB:.*]] = bufferization.to_buffer %[[PB]] read_only
// CHECK: %[[OUTB:.*]] = memref.alloc()
// CHECK: call @rlxCollectiveAllReduceAsync(
// CHECK: memref.extract_aligned_pointer_as_index %[[OUTA]]
// CHECK: memref.extract_aligned_pointer_as_index %[[INA]]
// CHECK: call @rlxCollectiveWait(
// CHECK: %[[RA:.*]] = bufferization.to_tensor %[[OUTA]]
// CHECK: %[[YA:.*]] = rlx.exp %[[RA]]
// CHECK: memref.extract_aligned_pointer_as_index %[[OUTB]]
// CHECK: memref.extract_aligned_pointer_as_index %[[INB]]
// CHECK: call @rlxCollectiveWait(
// CHECK: %[[RB:.*]] = bufferization.to_tensor %[[OUTB]]
// CHECK: %[[YB:.*]] = rlx.exp %[[RB]]
// CHECK: return %[[YA]], %[[YB]]
func.func @micro_batches(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>,
                         %w: tensor<8x8xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %pa = rlx.matmul %a, %w : tensor<4x8xf32>, tensor<8x8xf32>
  %ra = shard.all_reduce %pa on @tp grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  %ya = rlx.exp %ra : tensor<4x8xf32>
  %pb = rlx.matmul %b, %w : tensor<4x8xf32>, tensor<8x8xf32>
  %rb = shard.all_reduce %pb on @tp grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  %yb = rlx.exp %rb : tensor<4x8xf32>
  return %ya, %yb : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A backward written as data parallelism leaves it: the gradients first,
// their all-reduces after. Each all-reduce starts once its gradient
// exists (the gradient computed first goes first), before the rest of the
// backward; the updates wait.
shard.grid @dp(shape = 2)
// CHECK-LABEL: func.func @gradients
// CHECK: %[[G2:.*]] = rlx.exp %arg0
// CHECK: call @rlxCollectiveAllReduceAsync(
// CHECK: %[[T:.*]] = rlx.matmul %arg0, %arg1
// CHECK: %[[G1:.*]] = rlx.exp %[[T]]
// CHECK: call @rlxCollectiveAllReduceAsync(
// CHECK: call @rlxCollectiveWait(
// CHECK: rlx.sub
// CHECK: call @rlxCollectiveWait(
// CHECK: rlx.sub
func.func @gradients(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>)
    -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %g2 = rlx.exp %x : tensor<4x4xf32>
  %t = rlx.matmul %x, %w : tensor<4x4xf32>, tensor<4x4xf32>
  %g1 = rlx.exp %t : tensor<4x4xf32>
  %s2 = shard.all_reduce %g2 on @dp grid_axes = [0] : tensor<4x4xf32> -> tensor<4x4xf32>
  %s1 = shard.all_reduce %g1 on @dp grid_axes = [0] : tensor<4x4xf32> -> tensor<4x4xf32>
  %u2 = rlx.sub %x, %s2 : tensor<4x4xf32>
  %u1 = rlx.sub %w, %s1 : tensor<4x4xf32>
  return %u2, %u1 : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// Ops with memory effects keep their order (the collective, pure, starts
// first); a collective whose result is never read is waited for before
// the return.
shard.grid @tp(shape = 2)
// CHECK-LABEL: func.func @effects
// CHECK: call @rlxCollectiveAllGatherAsync(
// CHECK: memref.store %{{.*}}, %arg1[]
// CHECK: memref.load %arg1[]
// CHECK: call @rlxCollectiveWait(
// CHECK: return
func.func @effects(%x: tensor<4xf32>, %m: memref<f32>, %v: f32) -> f32 {
  memref.store %v, %m[] : memref<f32>
  %g = shard.all_gather %x on @tp grid_axes = [0] gather_axis = 0 : tensor<4xf32> -> tensor<8xf32>
  %l = memref.load %m[] : memref<f32>
  return %l : f32
}

// -----

// An input read again after the collective stays synchronous: the later
// reader could otherwise be given its buffer to write in place.
shard.grid @tp(shape = 2)
// CHECK-LABEL: func.func @input_read_again
// CHECK: call @rlxCollectiveAllReduce(
// CHECK-NOT: rlxCollectiveWait
// CHECK: return
func.func @input_read_again(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %p = rlx.exp %x : tensor<4xf32>
  %r = shard.all_reduce %p on @tp grid_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  %q = rlx.neg %p : tensor<4xf32>
  return %r, %q : tensor<4xf32>, tensor<4xf32>
}
