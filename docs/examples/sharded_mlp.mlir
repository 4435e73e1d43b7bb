// Megatron's MLP split over 2 devices: the first weight by columns, the
// second by rows (docs/Distributed.md).
//
//   rlx-opt docs/examples/sharded_mlp.mlir --rlx-partition
shard.grid @tp(shape = 2)
func.func @mlp(%x: tensor<8x64xf32>, %w1: tensor<64x256xf32>,
               %w2: tensor<256x64xf32>) -> tensor<8x64xf32> {
  %col = shard.sharding @tp split_axes = [[], [0]] : !shard.sharding
  %w1s = shard.shard %w1 to %col annotate_for_users : tensor<64x256xf32>
  %row = shard.sharding @tp split_axes = [[0]] : !shard.sharding
  %w2s = shard.shard %w2 to %row annotate_for_users : tensor<256x64xf32>
  %h = rlx.matmul %x, %w1s : tensor<8x64xf32>, tensor<64x256xf32>
  %g = rlx.gelu %h : tensor<8x256xf32>
  %y = rlx.matmul %g, %w2s : tensor<8x256xf32>, tensor<256x64xf32>
  return %y : tensor<8x64xf32>
}
