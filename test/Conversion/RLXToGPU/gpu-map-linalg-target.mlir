// RUN: rlx-opt %s -verify-diagnostics \
// RUN:   --rlx-gpu-map-linalg="subgroup-size=64 block-size=96"
// RUN: not rlx-opt %s --rlx-gpu-map-linalg="block-size=2048" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MAXTHREADS
// RUN: not rlx-opt %s --rlx-gpu-map-linalg="subgroup-size=48" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=POW2
// RUN: not rlx-opt %s 2>&1 \
// RUN:   --rlx-gpu-map-linalg="subgroup-size=4 max-threads-per-block=4096 block-size=128" \
// RUN:   | FileCheck %s --check-prefix=TWOLEVEL

// Kernel shapes the target description does not allow are errors at the
// function, before any kernel is made: a block that is not whole
// subgroups, more threads than the target's blocks have, a subgroup that is
// not a power of two, and more subgroups per block than one subgroup can
// reduce.
// MAXTHREADS: error: rlx-gpu-map-linalg: block-size 2048 exceeds the target's max-threads-per-block 1024
// POW2: error: rlx-gpu-map-linalg: subgroup-size 48 is not a power of two
// TWOLEVEL: error: rlx-gpu-map-linalg: block-size 128 has more than 4 subgroups of 4 lanes
// expected-error @below {{rlx-gpu-map-linalg: block-size 96 is not a multiple of subgroup-size 64}}
func.func @bad_target(%x: memref<8xf32>, %y: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                  iterator_types = ["parallel"]}
      ins(%x : memref<8xf32>) outs(%y : memref<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  }
  return
}
