// RUN: rlx-opt %s --rlx-partition --split-input-file | FileCheck %s

// Megatron's MLP: the first weight split by columns, the second by rows.
// The hidden activation stays split (gelu is elementwise), the second
// product sums partial results: one all-reduce, before the residual add.
shard.grid @tp(shape = 2)
// CHECK-LABEL: func.func @ffn
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf32>, %[[W1:.*]]: tensor<16x16xf32>, %[[W2:.*]]: tensor<16x16xf32>) -> tensor<8x16xf32>
// CHECK: %[[H:.*]] = rlx.matmul %[[X]], %[[W1]] : tensor<8x16xf32>, tensor<16x16xf32>
// CHECK: %[[G:.*]] = rlx.gelu %[[H]] : tensor<8x16xf32>
// CHECK: %[[P:.*]] = rlx.matmul %[[G]], %[[W2]] : tensor<8x16xf32>, tensor<16x16xf32>
// CHECK: %[[R:.*]] = shard.all_reduce %[[P]] on @tp grid_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
// CHECK-NOT: shard.all_gather
// CHECK: rlx.add %[[R]], %[[X]]
func.func @ffn(%x: tensor<8x16xf32>, %w1: tensor<16x32xf32>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %col = shard.sharding @tp split_axes = [[], [0]] : !shard.sharding
  %w1s = shard.shard %w1 to %col annotate_for_users : tensor<16x32xf32>
  %row = shard.sharding @tp split_axes = [[0]] : !shard.sharding
  %w2s = shard.shard %w2 to %row annotate_for_users : tensor<32x16xf32>
  %h = rlx.matmul %x, %w1s : tensor<8x16xf32>, tensor<16x32xf32>
  %g = rlx.gelu %h : tensor<8x32xf32>
  %y = rlx.matmul %g, %w2s : tensor<8x32xf32>, tensor<32x16xf32>
  %r = rlx.add %y, %x : tensor<8x16xf32>, tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

// Attention split over heads: the query projection's columns are 8 heads
// of 16, the key/value projections' 2 heads (GQA); through the reshape and
// transpose each device keeps 4 query heads and 1 key/value head, and the
// output projection's rows sum the heads' parts.
shard.grid @tp(shape = 2)
// CHECK-LABEL: func.func @attention_heads
// CHECK: rlx.reshape %{{.*}} : tensor<1x4x64xf32> -> tensor<1x4x4x16xf32>
// CHECK: rlx.reshape %{{.*}} : tensor<1x4x16xf32> -> tensor<1x4x1x16xf32>
// CHECK: rlx.attention %{{.*}} mask = causal : tensor<1x4x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>
// CHECK: rlx.reshape %{{.*}} : tensor<1x4x4x16xf32> -> tensor<1x4x64xf32>
// CHECK: %[[O:.*]] = rlx.matmul %{{.*}} : tensor<1x4x64xf32>, tensor<64x32xf32>
// CHECK: shard.all_reduce %[[O]] on @tp grid_axes = [0] : tensor<1x4x32xf32>
// CHECK-NOT: shard.all_gather
func.func @attention_heads(%x: tensor<1x4x32xf32>, %wq: tensor<32x128xf32>,
    %wk: tensor<32x32xf32>, %wv: tensor<32x32xf32>, %wo: tensor<128x32xf32>)
    -> tensor<1x4x32xf32> {
  %col = shard.sharding @tp split_axes = [[], [0]] : !shard.sharding
  %row = shard.sharding @tp split_axes = [[0]] : !shard.sharding
  %wqs = shard.shard %wq to %col annotate_for_users : tensor<32x128xf32>
  %wks = shard.shard %wk to %col annotate_for_users : tensor<32x32xf32>
  %wvs = shard.shard %wv to %col annotate_for_users : tensor<32x32xf32>
  %wos = shard.shard %wo to %row annotate_for_users : tensor<128x32xf32>
  %q = rlx.matmul %x, %wqs : tensor<1x4x32xf32>, tensor<32x128xf32>
  %k = rlx.matmul %x, %wks : tensor<1x4x32xf32>, tensor<32x32xf32>
  %v = rlx.matmul %x, %wvs : tensor<1x4x32xf32>, tensor<32x32xf32>
  %q4 = rlx.reshape %q : tensor<1x4x128xf32> -> tensor<1x4x8x16xf32>
  %qt = rlx.transpose %q4 [0, 2, 1, 3] : tensor<1x4x8x16xf32>
  %k4 = rlx.reshape %k : tensor<1x4x32xf32> -> tensor<1x4x2x16xf32>
  %kt = rlx.transpose %k4 [0, 2, 1, 3] : tensor<1x4x2x16xf32>
  %v4 = rlx.reshape %v : tensor<1x4x32xf32> -> tensor<1x4x2x16xf32>
  %vt = rlx.transpose %v4 [0, 2, 1, 3] : tensor<1x4x2x16xf32>
  %a = rlx.attention %qt, %kt, %vt mask = causal : tensor<1x8x4x16xf32>, tensor<1x2x4x16xf32>, tensor<1x2x4x16xf32>
  %at = rlx.transpose %a [0, 2, 1, 3] : tensor<1x8x4x16xf32>
  %a3 = rlx.reshape %at : tensor<1x4x8x16xf32> -> tensor<1x4x128xf32>
  %o = rlx.matmul %a3, %wos : tensor<1x4x128xf32>, tensor<128x32xf32>
  return %o : tensor<1x4x32xf32>
}

// -----

// Data parallel: the batch split, the weight replicated. Rows need no
// collective; a sum over the batch (a weight's gradient) is all-reduced.
shard.grid @dp(shape = 4)
// CHECK-LABEL: func.func @data_parallel
// CHECK-SAME: (%[[X:.*]]: tensor<2x16xf32>, %[[W:.*]]: tensor<16x8xf32>) -> (tensor<2x8xf32>, tensor<8xf32>)
// CHECK: %[[Y:.*]] = rlx.matmul %[[X]], %[[W]] : tensor<2x16xf32>, tensor<16x8xf32>
// CHECK: %[[S:.*]] = rlx.reduce sum %[[Y]] axes = [0] : tensor<2x8xf32>
// CHECK: %[[R:.*]] = shard.all_reduce %[[S]] on @dp grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
// CHECK: return %[[Y]], %[[R]]
func.func @data_parallel(%x: tensor<8x16xf32>, %w: tensor<16x8xf32>) -> (tensor<8x8xf32>, tensor<8xf32>) {
  %batch = shard.sharding @dp split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %batch annotate_for_users : tensor<8x16xf32>
  %y = rlx.matmul %xs, %w : tensor<8x16xf32>, tensor<16x8xf32>
  %s = rlx.reduce sum %y axes = [0] : tensor<8x8xf32>
  return %y, %s : tensor<8x8xf32>, tensor<8xf32>
}

// -----

// Loops an op needs whole: a norm over a split last dim gathers it first;
// a softmax over a split axis likewise; a mean over a split axis is
// gathered too (the mean of means is no shard reduction), a max is
// all-reduced.
shard.grid @tp(shape = 2)
// CHECK-LABEL: func.func @whole_loops
// CHECK-DAG: %[[M:.*]] = shard.all_gather %{{.*}} on @tp grid_axes = [0] gather_axis = 1 : tensor<4x8xf32> -> tensor<4x16xf32>
// CHECK-DAG: %[[T:.*]] = shard.all_gather %{{.*}} on @tp grid_axes = [0] gather_axis = 1 : tensor<4x8xf32> -> tensor<4x16xf32>
// CHECK-DAG: %[[G:.*]] = shard.all_gather %{{.*}} on @tp grid_axes = [0] gather_axis = 1 : tensor<4x8xf32> -> tensor<4x16xf32>
// CHECK: rlx.rms_norm %[[G]], %{{.*}} : tensor<4x16xf32>, tensor<16xf32>
// CHECK: rlx.softmax %[[T]] axis = 1 : tensor<4x16xf32>
// CHECK: rlx.reduce mean %[[M]] axes = [1] : tensor<4x16xf32>
// CHECK: %[[X:.*]] = rlx.reduce max %{{.*}} axes = [1] : tensor<4x8xf32>
// CHECK: shard.all_reduce %[[X]] on @tp grid_axes = [0] reduction = max : tensor<4xf32> -> tensor<4xf32>
func.func @whole_loops(%x: tensor<4x16xf32>, %g: tensor<16xf32>)
    -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4xf32>, tensor<4xf32>) {
  %cols = shard.sharding @tp split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %cols annotate_for_users : tensor<4x16xf32>
  %e = rlx.exp %xs : tensor<4x16xf32>
  %n = rlx.rms_norm %e, %g : tensor<4x16xf32>, tensor<16xf32>
  %p = rlx.softmax %e axis = 1 : tensor<4x16xf32>
  %m = rlx.reduce mean %e axes = [1] : tensor<4x16xf32>
  %mx = rlx.reduce max %e axes = [1] : tensor<4x16xf32>
  return %n, %p, %m, %mx : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// A 2 x 2 grid: rows over axis 0, columns over axis 1; a broadcast bias
// keeps its size-1 dim whole.
shard.grid @g(shape = 2x2)
// CHECK-LABEL: func.func @two_axes
// CHECK-SAME: (%{{.*}}: tensor<4x4xf32>, %{{.*}}: tensor<1x4xf32>) -> tensor<4x4xf32>
// CHECK: rlx.add %{{.*}}, %{{.*}} : tensor<4x4xf32>, tensor<1x4xf32>
// CHECK-NOT: shard.all
func.func @two_axes(%x: tensor<8x8xf32>, %b: tensor<1x8xf32>) -> tensor<8x8xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %bs = shard.sharding @g split_axes = [[], [1]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<8x8xf32>
  %bb = shard.shard %b to %bs annotate_for_users : tensor<1x8xf32>
  %y = rlx.add %xs, %bb : tensor<8x8xf32>, tensor<1x8xf32>
  %ys = shard.shard %y to %s : tensor<8x8xf32>
  return %ys : tensor<8x8xf32>
}

// -----

// A split that a dim along the same loop does not divide (the reshape's
// 3 of the split 6) is not taken: the reshape gathers its operand first.
shard.grid @tp(shape = 2)
// CHECK-LABEL: func.func @uneven_reshape
// CHECK-SAME: (%[[X:.*]]: tensor<4x3xf32>) -> tensor<4x3x2xf32>
// CHECK: %[[E:.*]] = rlx.exp %[[X]] : tensor<4x3xf32>
// CHECK: %[[G:.*]] = shard.all_gather %[[E]] on @tp grid_axes = [0] gather_axis = 1 : tensor<4x3xf32> -> tensor<4x6xf32>
// CHECK: rlx.reshape %[[G]] : tensor<4x6xf32> -> tensor<4x3x2xf32>
func.func @uneven_reshape(%x: tensor<4x6xf32>) -> tensor<4x3x2xf32> {
  %cols = shard.sharding @tp split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %cols annotate_for_users : tensor<4x6xf32>
  %e = rlx.exp %xs : tensor<4x6xf32>
  %r = rlx.reshape %e : tensor<4x6xf32> -> tensor<4x3x2xf32>
  return %r : tensor<4x3x2xf32>
}

// -----

// Without a grid nothing changes.
// CHECK-LABEL: func.func @plain
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf32>)
// CHECK-NEXT: rlx.exp %[[X]]
func.func @plain(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = rlx.exp %x : tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// Slices and joins along a whole axis (micro-batches of the rows) keep
// the other axes' splits: the products and their join stay split by
// columns, with no collective.
shard.grid @tp(shape = 2)
// CHECK-LABEL: func.func @micro_batches
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK-NOT: shard.
// CHECK: %[[A:.*]] = rlx.narrow %[[X]] axis = 0 start = 0 length = 2 : tensor<4x8xf32>
// CHECK: %[[B:.*]] = rlx.narrow %[[X]] axis = 0 start = 2 length = 2 : tensor<4x8xf32>
// CHECK: %[[PA:.*]] = rlx.matmul %[[A]], %[[W]] : tensor<2x8xf32>, tensor<8x8xf32>
// CHECK: %[[PB:.*]] = rlx.matmul %[[B]], %[[W]] : tensor<2x8xf32>, tensor<8x8xf32>
// CHECK: rlx.concat %[[PA]], %[[PB]] axis = 0 : tensor<2x8xf32>, tensor<2x8xf32>
func.func @micro_batches(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %col = shard.sharding @tp split_axes = [[], [0]] : !shard.sharding
  %ws = shard.shard %w to %col annotate_for_users : tensor<8x16xf32>
  %a = rlx.narrow %x axis = 0 start = 0 length = 2 : tensor<4x8xf32>
  %b = rlx.narrow %x axis = 0 start = 2 length = 2 : tensor<4x8xf32>
  %pa = rlx.matmul %a, %ws : tensor<2x8xf32>, tensor<8x16xf32>
  %pb = rlx.matmul %b, %ws : tensor<2x8xf32>, tensor<8x16xf32>
  %y = rlx.concat %pa, %pb axis = 0 : tensor<2x16xf32>, tensor<2x16xf32>
  %r = shard.shard %y to %col : tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// A split of the joined axis itself is gathered first (the axis is whole
// for rlx.concat).
shard.grid @tp(shape = 2)
// CHECK-LABEL: func.func @join_split_axis
// CHECK: shard.all_gather
// CHECK: rlx.concat
func.func @join_split_axis(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<8x8xf32> {
  %rows = shard.sharding @tp split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %rows annotate_for_users : tensor<4x8xf32>
  %c = rlx.concat %xs, %y axis = 0 : tensor<4x8xf32>, tensor<4x8xf32>
  return %c : tensor<8x8xf32>
}
