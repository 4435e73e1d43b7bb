// REQUIRES: cuda-toolkit
// RUN: rlx-opt %s --rlx-cuda-pipeline="chip=sm_90 format=isa" | FileCheck %s --check-prefix=SYNC
// RUN: rlx-opt %s --rlx-cuda-pipeline="chip=sm_90 format=isa overlap-collectives=true" | FileCheck %s
// RUN: rlx-opt %s --rlx-cpu-pipeline | FileCheck %s --check-prefix=CPU
// RUN: not rlx-compile --target=vulkan %s -o %t.o 2>&1 | FileCheck %s --check-prefix=VULKAN

// Megatron's MLP on 2 devices compiled whole by a target pipeline: the
// pipeline partitions (rlx-partition), so the entry takes its device's
// shards, and the all-reduce after the row-split product calls the
// runtime's collective (NCCL in the CUDA runtime) between the library
// matmuls. With overlap-collectives on CUDA it is started (on the
// runtime's communication stream) and waited for before its reader, and
// the product it reads is freed only after the wait; otherwise (and on
// the CPU) it completes in the call.
// SYNC-LABEL: llvm.func @ffn
// SYNC: llvm.call @rlxCollectiveAllReduce(
// SYNC-NOT: rlxCollectiveWait
// CHECK-LABEL: llvm.func @ffn
// CHECK: llvm.call @rlxGpuMatmul
// CHECK: %[[P:.*]] = llvm.call @mgpuMemAlloc
// CHECK: llvm.call @rlxGpuMatmul
// CHECK: llvm.call @rlxCollectiveRank
// CHECK: llvm.call @rlxCollectiveAllReduceAsync
// CHECK-NOT: llvm.call @mgpuMemFree(%[[P]],
// CHECK: llvm.call @rlxCollectiveWait
// CHECK: llvm.call @mgpuMemFree(%[[P]],
// CHECK-NOT: shard.
// CPU-LABEL: llvm.func @ffn
// CPU: llvm.call @rlxCollectiveAllReduce(
// CPU-NOT: rlxCollectiveWait
// A target whose runtime carries no collectives stops at the first one.
// VULKAN: error: 'shard.all_reduce' op needs collectives, which the runtime of target 'vulkan' does not carry (the CPU's and CUDA's do)
shard.grid @tp(shape = 2)
func.func @ffn(%x: tensor<64x128xf32>, %w1: tensor<128x256xf32>,
               %w2: tensor<256x128xf32>) -> tensor<64x128xf32> {
  %col = shard.sharding @tp split_axes = [[], [0]] : !shard.sharding
  %w1s = shard.shard %w1 to %col annotate_for_users : tensor<128x256xf32>
  %row = shard.sharding @tp split_axes = [[0]] : !shard.sharding
  %w2s = shard.shard %w2 to %row annotate_for_users : tensor<256x128xf32>
  %h = rlx.matmul %x, %w1s : tensor<64x128xf32>, tensor<128x256xf32>
  %g = rlx.gelu %h : tensor<64x256xf32>
  %y = rlx.matmul %g, %w2s : tensor<64x256xf32>, tensor<256x128xf32>
  %r = rlx.add %y, %x : tensor<64x128xf32>, tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
