// RUN: not rlx-opt %s --rlx-gpu-tile-matmul="thread-m=3" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIVIDE
// RUN: not rlx-opt %s --rlx-gpu-tile-matmul="tile-m=128 tile-n=128 thread-m=2 thread-n=2" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=THREADS
// RUN: not rlx-opt %s --rlx-gpu-tile-matmul="tile-k=4 thread-m=4 thread-n=4" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STAGE
// RUN: not rlx-opt %s --rlx-gpu-tile-matmul="tile-k=0" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=POSITIVE
// RUN: not rlx-opt %s --rlx-gpu-tile-matmul="tile-k=64 shared-memory-bytes=16384" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SHARED
// RUN: not rlx-opt %s --rlx-gpu-tile-matmul="cooperative-matrix=f16,fp8" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COOP-ENTRY
// RUN: not rlx-opt %s --rlx-gpu-tile-matmul="cooperative-matrix=f16 coop-tile-k=24" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COOP-FRAGMENT
// RUN: not rlx-opt %s --rlx-gpu-tile-matmul="cooperative-matrix=f16 coop-subgroups-m=8 coop-subgroups-n=8" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COOP-THREADS
// RUN: not rlx-opt %s --rlx-gpu-tile-matmul="cooperative-matrix=f16 coop-tile-k=128" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COOP-SHARED

// Tiles that do not fit the target or do not divide are errors, at the
// function before any kernel is made, or at the matmul whose accumulator
// type makes the staged blocks too large for workgroup memory.
// DIVIDE: error: rlx-gpu-tile-matmul: thread-m 3 / thread-n 8 do not divide tile-m 128 / tile-n 128
// THREADS: error: rlx-gpu-tile-matmul: 4096 threads per block exceed the target's max-threads-per-block 1024
// STAGE: error: rlx-gpu-tile-matmul: the 1024 threads do not divide the 128 x 4 and 4 x 128 blocks they stage
// POSITIVE: error: rlx-gpu-tile-matmul: tile sizes must be positive
// SHARED: error: rlx-gpu-tile-matmul: the tiles need 66048 bytes of workgroup memory, more than the target's shared-memory-bytes 16384
// Cooperative matrices: an entry the pass does not know,
// tiles that do not split into 16 x 16 x 16 fragments per subgroup, too
// many subgroups, too much workgroup memory.
// COOP-ENTRY: error: rlx-gpu-tile-matmul: unknown cooperative-matrix entry 'fp8' (expected f16, bf16 or bf16-as-f16)
// COOP-FRAGMENT: error: rlx-gpu-tile-matmul: coop-tile-m 128 / coop-tile-n 128 / coop-tile-k 24 are not multiples of 16 x coop-subgroups-m 2 / 16 x coop-subgroups-n 4 / 16
// COOP-THREADS: error: rlx-gpu-tile-matmul: 2048 threads per cooperative block exceed the target's max-threads-per-block 1024
// COOP-SHARED: error: rlx-gpu-tile-matmul: the cooperative tiles need 77824 bytes of workgroup memory, more than the target's shared-memory-bytes 49152
func.func @f(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>)
                outs(%c : memref<64x64xf32>)
  return
}
