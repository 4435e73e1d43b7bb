// RUN: rlx-opt %s --rlx-lower-collectives --canonicalize --split-input-file | FileCheck %s

// An all-reduce: the operand's buffer read in place, the result a fresh
// buffer; the group of axis 0 of a 1-D grid: id 1 (axis 0 as digit 1),
// color 0, key = the rank, 2 processes.
shard.grid @tp(shape = 2)
// CHECK-LABEL: func.func @all_reduce
// CHECK-NOT: shard.
// CHECK-DAG: %[[SUM:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[N:.*]] = arith.constant 128 : i64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[RANK:.*]] = call @rlxCollectiveRank() : () -> i64
// CHECK: %[[KEY:.*]] = arith.remui %[[RANK]], %[[TWO]] : i64
// CHECK: %[[IN:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<8x16xf32> to memref<8x16xf32>
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8x16xf32>
// CHECK: call @rlxCollectiveAllReduce(%[[SUM]], %[[SUM]], %{{.*}}, %{{.*}}, %[[N]], %[[ONE]], %[[ZERO]], %[[KEY]], %[[TWO]])
// CHECK: bufferization.to_tensor %[[OUT]] restrict writable : memref<8x16xf32> to tensor<8x16xf32>
func.func @all_reduce(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %r = shard.all_reduce %x on @tp grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

// Along an inner axis, the runtime's key-ordered blocks [2, 4, 3] are
// moved into place: transpose to [4, 2, 3], then [4, 6]. On axis 1 of a
// 2 x 2 grid: group id 2, color the row (rank / 2), key the column.
shard.grid @g(shape = 2x2)
// CHECK-LABEL: func.func @all_gather
// CHECK-DAG: %[[F32:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[N:.*]] = arith.constant 12 : i64
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2 : i64
// CHECK: %[[RANK:.*]] = call @rlxCollectiveRank() : () -> i64
// CHECK: %[[KEY:.*]] = arith.remui %[[RANK]], %[[TWO]] : i64
// CHECK: %[[ROW:.*]] = arith.divui %[[RANK]], %[[TWO]] : i64
// CHECK: %[[COLOR:.*]] = arith.remui %[[ROW]], %[[TWO]] : i64
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x4x3xf32>
// CHECK: call @rlxCollectiveAllGather(%[[F32]], %{{.*}}, %{{.*}}, %[[N]], %[[TWO]], %[[COLOR]], %[[KEY]], %[[TWO]])
// CHECK: %[[BLOCKS:.*]] = bufferization.to_tensor %[[OUT]]
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[BLOCKS]] : tensor<2x4x3xf32>) outs(%{{.*}} : tensor<4x2x3xf32>) permutation = [1, 0, 2]
// CHECK: tensor.collapse_shape %[[T]] {{\[}}[0], [1, 2]] : tensor<4x2x3xf32> into tensor<4x6xf32>
func.func @all_gather(%x: tensor<4x3xf32>) -> tensor<4x6xf32> {
  %r = shard.all_gather %x on @g grid_axes = [1] gather_axis = 1 : tensor<4x3xf32> -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

// -----

// Reduce-scatter along dim 1: the operand's two blocks moved to the front
// first, so that each process's block is contiguous; max reduces (code 2).
shard.grid @tp(shape = 2)
// CHECK-LABEL: func.func @reduce_scatter
// CHECK: %[[E:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [4, 2, 3] : tensor<4x6xf32> into tensor<4x2x3xf32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[E]] : tensor<4x2x3xf32>) outs(%{{.*}} : tensor<2x4x3xf32>) permutation = [1, 0, 2]
// CHECK: bufferization.to_buffer %[[T]] read_only : tensor<2x4x3xf32> to memref<2x4x3xf32>
// CHECK: call @rlxCollectiveReduceScatter(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i32, i32, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64) -> ()
func.func @reduce_scatter(%x: tensor<4x6xf32>) -> tensor<4x3xf32> {
  %r = shard.reduce_scatter %x on @tp grid_axes = [0] reduction = max scatter_axis = 1 : tensor<4x6xf32> -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

// All-to-all, split along dim 1 and concatenated along dim 0; the process
// index becomes the rank.
shard.grid @tp(shape = 2)
// CHECK-LABEL: func.func @all_to_all
// CHECK: linalg.transpose {{.*}} permutation = [1, 0, 2]
// CHECK: call @rlxCollectiveAllToAll(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i32, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64) -> ()
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<2x4x3xf32> into tensor<8x3xf32>
// CHECK: %[[RANK:.*]] = call @rlxCollectiveRank() : () -> i64
// CHECK: arith.index_cast %[[RANK]] : i64 to index
func.func @all_to_all(%x: tensor<4x6xf32>) -> (tensor<8x3xf32>, index) {
  %r = shard.all_to_all %x on @tp grid_axes = [0] split_axis = 1 concat_axis = 0 : tensor<4x6xf32> -> tensor<8x3xf32>
  %i = shard.process_linear_index on @tp : index
  return %r, %i : tensor<8x3xf32>, index
}
