// RUN: rlx-opt %s --rlx-lower-collectives --split-input-file --verify-diagnostics
// RUN: not rlx-opt %s --rlx-lower-collectives="target=vulkan carried=false" --split-input-file 2>&1 | FileCheck %s --check-prefix=VULKAN

// A target whose runtime has no collectives: an error at each program's
// first collective.
// VULKAN: error: 'shard.all_reduce' op needs collectives, which the runtime of target 'vulkan' does not carry (the CPU's and CUDA's do)

shard.grid @tp(shape = 2)
func.func @int8(%x: tensor<8xi8>) -> tensor<8xi8> {
  // expected-error @+1 {{'shard.all_reduce' op has element type 'i8', which RLX's collectives do not carry (f32, f64, bf16, f16, i32 and i64 are)}}
  %r = shard.all_reduce %x on @tp grid_axes = [0] : tensor<8xi8> -> tensor<8xi8>
  return %r : tensor<8xi8>
}

// -----

shard.grid @tp(shape = 2)
func.func @generic(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'shard.all_reduce' op reduces with generic, which RLX's collectives do not (sum, product, max and min)}}
  %r = shard.all_reduce %x on @tp grid_axes = [0] reduction = generic : tensor<8xf32> -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

shard.grid @tp(shape = 2)
func.func @broadcast(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'shard.broadcast' op has no lowering to RLX's runtimes: only all_reduce, all_gather, reduce_scatter, all_to_all and process_linear_index do}}
  %r = shard.broadcast %x on @tp grid_axes = [0] root = [0] : (tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}
