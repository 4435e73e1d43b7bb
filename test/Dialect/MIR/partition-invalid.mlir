// RUN: rlx-opt %s --rlx-partition --split-input-file --verify-diagnostics

// A split that the devices do not divide: an error at the value.
shard.grid @tp(shape = 4)
// expected-error @+1 {{dim 0 of size 6 of 'tensor<6x16xf32>' does not split over the 4 devices of grid @tp axes [0]}}
func.func @uneven(%x: tensor<6x16xf32>) -> tensor<6x16xf32> {
  %rows = shard.sharding @tp split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %rows annotate_for_users : tensor<6x16xf32>
  %y = rlx.exp %xs : tensor<6x16xf32>
  return %y : tensor<6x16xf32>
}

// -----

// expected-error @+1 {{grid @g needs static sizes to partition over}}
shard.grid @g(shape = ?)
func.func @dynamic_grid(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %rows = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %rows annotate_for_users : tensor<8x16xf32>
  %y = rlx.exp %xs : tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// A shape the op's loop space cannot describe (a dynamic result).
shard.grid @tp(shape = 2)
func.func @dynamic(%x: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %rows = shard.sharding @tp split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %rows annotate_for_users : tensor<?x16xf32>
  // expected-error @+1 {{'rlx.exp' op cannot be sharded: it needs a static result shape}}
  %y = rlx.exp %xs : tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}
