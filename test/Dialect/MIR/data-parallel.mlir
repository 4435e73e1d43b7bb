// RUN: rlx-opt %s --rlx-data-parallel="grid-size=4 bucket-bytes=64" --split-input-file | FileCheck %s
// RUN: rlx-opt %s --rlx-data-parallel="grid-size=4 bucket-bytes=0" --split-input-file | FileCheck %s --check-prefix=EACH
// RUN: rlx-opt %s --rlx-data-parallel="grid-size=1" --split-input-file | FileCheck %s --check-prefix=ONE
// RUN: rlx-opt %s --rlx-data-parallel="grid-size=4 batch-args=2" --split-input-file | FileCheck %s --check-prefix=BATCH

// The loss and gradients of rlx.grad averaged over 4 processes: the loss
// and the 4-element gradient (20 bytes) fill one bucket of 64 bytes, the
// 32-element one (128 bytes) is a bucket of its own; each bucket is one
// all-reduce scaled by 1/4, read back by rlx.narrow and rlx.reshape.
// CHECK: shard.grid @rlx_data_parallel(shape = 4)
// CHECK-LABEL: func.func @step
// CHECK: %[[G:.*]]:3 = rlx.grad @loss
// CHECK: %[[L:.*]] = rlx.reshape %[[G]]#0 : tensor<f32> -> tensor<1xf32>
// CHECK: %[[B:.*]] = rlx.reshape %[[G]]#1 : tensor<4xf32> -> tensor<4xf32>
// CHECK: %[[C:.*]] = rlx.concat %[[L]], %[[B]] axis = 0
// CHECK: %[[S:.*]] = shard.all_reduce %[[C]] on @rlx_data_parallel grid_axes = [0] : tensor<5xf32> -> tensor<5xf32>
// CHECK: %[[Q:.*]] = rlx.constant dense<2.500000e-01> : tensor<f32>
// CHECK: %[[M:.*]] = rlx.mul %[[S]], %[[Q]] : tensor<5xf32>, tensor<f32>
// CHECK: %[[N0:.*]] = rlx.narrow %[[M]] axis = 0 start = 0 length = 1
// CHECK: %[[LOSS:.*]] = rlx.reshape %[[N0]] : tensor<1xf32> -> tensor<f32>
// CHECK: %[[N1:.*]] = rlx.narrow %[[M]] axis = 0 start = 1 length = 4
// CHECK: %[[GB:.*]] = rlx.reshape %[[N1]] : tensor<4xf32> -> tensor<4xf32>
// CHECK: %[[S2:.*]] = shard.all_reduce %[[G]]#2 on @rlx_data_parallel grid_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
// CHECK: %[[GW:.*]] = rlx.mul %[[S2]], %{{.*}} : tensor<8x4xf32>, tensor<f32>
// CHECK: return %[[LOSS]], %[[GB]], %[[GW]]
// EACH-LABEL: func.func @step
// EACH-COUNT-3: shard.all_reduce
// EACH-NOT: shard.all_reduce
// EACH-LABEL: func.func @step_x
// ONE-NOT: shard.
// The gradient with respect to the batch (argument 2) is scaled by 1/4,
// not all-reduced.
// BATCH-LABEL: func.func @step_x
// BATCH: %[[G:.*]]:3 = rlx.grad @loss(%{{.*}}) wrt [0, 2]
// BATCH-COUNT-1: shard.all_reduce
// BATCH: rlx.reshape %{{.*}} : tensor<4xf32> -> tensor<4xf32>
// BATCH: %[[Q:.*]] = rlx.constant dense<2.500000e-01> : tensor<f32>
// BATCH-NEXT: %[[DX:.*]] = rlx.mul %[[G]]#2, %[[Q]] : tensor<2x8xf32>, tensor<f32>
// BATCH: return %{{.*}}, %{{.*}}, %[[DX]]
func.func @loss(%b: tensor<4xf32>, %w: tensor<8x4xf32>, %x: tensor<2x8xf32>) -> tensor<f32> {
  %y = rlx.matmul %x, %w : tensor<2x8xf32>, tensor<8x4xf32>
  %z = rlx.add %y, %b : tensor<2x4xf32>, tensor<4xf32>
  %s = rlx.reduce mean %z axes = [0, 1] : tensor<2x4xf32>
  return %s : tensor<f32>
}
func.func @step(%b: tensor<4xf32>, %w: tensor<8x4xf32>, %x: tensor<2x8xf32>)
    -> (tensor<f32>, tensor<4xf32>, tensor<8x4xf32>) {
  %l, %gb, %gw = rlx.grad @loss(%b, %w, %x) wrt [0, 1]
      : (tensor<4xf32>, tensor<8x4xf32>, tensor<2x8xf32>)
      -> (tensor<f32>, tensor<4xf32>, tensor<8x4xf32>)
  return %l, %gb, %gw : tensor<f32>, tensor<4xf32>, tensor<8x4xf32>
}
func.func @step_x(%b: tensor<4xf32>, %w: tensor<8x4xf32>, %x: tensor<2x8xf32>)
    -> (tensor<f32>, tensor<4xf32>, tensor<2x8xf32>) {
  %l, %gb, %gx = rlx.grad @loss(%b, %w, %x) wrt [0, 2]
      : (tensor<4xf32>, tensor<8x4xf32>, tensor<2x8xf32>)
      -> (tensor<f32>, tensor<4xf32>, tensor<2x8xf32>)
  return %l, %gb, %gx : tensor<f32>, tensor<4xf32>, tensor<2x8xf32>
}
