// RUN: rlx-opt %s --rlx-gpu-map-linalg --split-input-file -verify-diagnostics | FileCheck %s

// An elementwise generic: one thread per 4 consecutive f32 (16 bytes), one
// vector load per operand that reads the innermost loop, a scalar load for
// the broadcast one.
// CHECK-LABEL: func.func @scale
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %[[C64]], {{.*}}) threads({{.*}}) in ({{.*}} = %[[C256]],
// CHECK:           vector.load %{{.*}} {alignment = 16 : i64} : memref<64x1024xf32>, vector<4xf32>
// CHECK:           memref.load %{{.*}} : memref<64xf32>
// CHECK-COUNT-4:   arith.mulf
// CHECK:           vector.store %{{.*}} {alignment = 16 : i64} : memref<64x1024xf32>, vector<4xf32>
// CHECK-NOT:     linalg.generic
func.func @scale(%x: memref<64x1024xf32>, %s: memref<64xf32>,
                 %y: memref<64x1024xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0)>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<64x1024xf32>, memref<64xf32>)
      outs(%y : memref<64x1024xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A row sum: one block of 256 threads per row, each thread folding 4
// columns at a time, then butterfly shuffles within each warp and one
// workgroup word per warp.
// CHECK-LABEL: func.func @row_sum
// CHECK:         gpu.launch {{.*}} workgroup(%[[SMEM:.*]] : memref<8xf32, #gpu.address_space<workgroup>>)
// CHECK:           scf.for
// CHECK:             vector.load
// CHECK-COUNT-4:     arith.addf
// CHECK:           gpu.shuffle  xor %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK:           memref.store %{{.*}}, %[[SMEM]]
// CHECK:           gpu.barrier
// CHECK:           memref.load %[[SMEM]]
// CHECK:           gpu.shuffle  xor
func.func @row_sum(%x: memref<128x4096xf32>, %y: memref<128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<128x4096xf32>) outs(%y : memref<128xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A row group (RMS norm on buffers): the initial value, the row sum and
// the normalization run as one kernel; the last two read the sum of their
// own row only. A row of 256 f32 fits in one warp's registers (2 steps of
// 32 threads x 4 lanes): one warp per row, 8 rows per block of 256
// threads. x is loaded once, by the sum, and the normalization reuses it.
// Every thread holds the initial value and the row's total (the shuffles
// leave it in every lane), so the sum buffer is neither stored nor read
// and its allocation goes; a warp needs no workgroup memory or barrier.
// CHECK-LABEL: func.func @row_group
// CHECK-NOT:     memref.alloc
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : index
// CHECK:         gpu.launch blocks(%[[B:.*]], %{{.*}}, %{{.*}}) in ({{.*}} = %[[C2]], {{.*}}) threads(%[[T:.*]], %{{.*}}, %{{.*}}) in ({{.*}} = %[[C256]], {{.*}}) {
// CHECK-DAG:       %[[WARP:.*]] = arith.divui %[[T]], %c32
// CHECK-DAG:       %[[FIRST:.*]] = arith.muli %[[B]], %c8
// CHECK-DAG:       %[[ROW:.*]] = arith.addi %[[FIRST]], %[[WARP]]
// CHECK-DAG:       arith.remui %[[T]], %c32
// CHECK-COUNT-2:   vector.load %{{.*}}[%[[ROW]], %{{.*}}] {alignment = 16 : i64} : memref<16x256xf32>, vector<4xf32>
// CHECK-NOT:       vector.load
// CHECK:           gpu.shuffle  xor
// CHECK-NOT:       gpu.barrier
// CHECK-NOT:       vector.load
// CHECK:           math.rsqrt
// CHECK-COUNT-2:   vector.store
// CHECK-NOT:       gpu.barrier
// CHECK:           gpu.terminator
// CHECK-NOT:     memref.dealloc
func.func @row_group(%x: memref<16x256xf32>, %y: memref<16x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %sum = memref.alloc() : memref<16xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<16xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<16x256xf32>) outs(%sum : memref<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0)>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : memref<16x256xf32>, memref<16xf32>)
      outs(%y : memref<16x256xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %r = math.rsqrt %s : f32
    %n = arith.mulf %a, %r : f32
    linalg.yield %n : f32
  }
  memref.dealloc %sum : memref<16xf32>
  return
}

// -----

// The same with rows of 4096 f32 (32 steps of a warp, too many registers):
// one block of 256 threads per row, 4 steps of 4 lanes each; the only
// barrier is the one between the warps' words of the sum.
// CHECK-LABEL: func.func @row_group_block
// CHECK-NOT:     memref.alloc
// CHECK:         gpu.launch
// CHECK-SAME:      workgroup(%[[W:.*]] : memref<8xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT:       gpu.barrier
// CHECK-COUNT-4:   vector.load %{{.*}} {alignment = 16 : i64} : memref<16x4096xf32>, vector<4xf32>
// CHECK:           gpu.shuffle  xor
// CHECK:           memref.store %{{.*}}, %[[W]]
// CHECK:           gpu.barrier
// CHECK:           memref.load %[[W]]
// CHECK:           gpu.shuffle  xor
// CHECK-NOT:       gpu.barrier
// CHECK-NOT:       vector.load
// CHECK:           math.rsqrt
// CHECK-NOT:       gpu.barrier
// CHECK-COUNT-4:   vector.store
// CHECK-NOT:       gpu.barrier
// CHECK:           gpu.terminator
// CHECK-NOT:     memref.dealloc
func.func @row_group_block(%x: memref<16x4096xf32>, %y: memref<16x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  %sum = memref.alloc() : memref<16xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<16xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<16x4096xf32>) outs(%sum : memref<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0)>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : memref<16x4096xf32>, memref<16xf32>)
      outs(%y : memref<16x4096xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %r = math.rsqrt %s : f32
    %n = arith.mulf %a, %r : f32
    linalg.yield %n : f32
  }
  memref.dealloc %sum : memref<16xf32>
  return
}

// -----

// The row sums are also a result: every thread holds its row's sum for
// the normalization (no load of it), and thread 0 stores it.
// CHECK-LABEL: func.func @row_group_stats_out
// CHECK:         gpu.launch
// CHECK:           gpu.shuffle  xor
// CHECK-NOT:       memref<16xf32>
// CHECK:           scf.if %{{[0-9]+}} {{{$}}
// CHECK-NEXT:        memref.store %{{.*}}, %arg1[%{{.*}}] : memref<16xf32>
// CHECK-NOT:       memref<16xf32>
// CHECK:           vector.store
// CHECK-NOT:       memref<16xf32>
// CHECK:           gpu.terminator
func.func @row_group_stats_out(%x: memref<16x256xf32>, %sum: memref<16xf32>,
                               %y: memref<16x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%sum : memref<16xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<16x256xf32>) outs(%sum : memref<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0)>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : memref<16x256xf32>, memref<16xf32>)
      outs(%y : memref<16x256xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %n = arith.subf %a, %s : f32
    linalg.yield %n : f32
  }
  return
}

// -----

// Long rows (loops over memory): t = 2x goes to memory and the sum reads
// it there, written by other threads: a barrier between them. The
// normalization reads t and the sum from registers (loaded before its
// loop), and nothing it touches was written since that barrier: none
// before it. The sum is never stored.
// CHECK-LABEL: func.func @row_group_through_memory
// CHECK:         gpu.launch
// CHECK:           scf.for
// CHECK:             vector.store %{{.*}}, %[[T:.*]][
// CHECK:           gpu.barrier
// CHECK:           scf.for
// CHECK:             vector.load %[[T]]
// CHECK:           gpu.barrier
// CHECK:           gpu.shuffle  xor
// CHECK-NOT:       gpu.barrier
// CHECK-NOT:       memref<4xf32>
// CHECK:           scf.for
// CHECK:             vector.load %[[T]]
// CHECK-NOT:         memref<4xf32>
// CHECK:             vector.store
// CHECK-NOT:       gpu.barrier
// CHECK:           gpu.terminator
func.func @row_group_through_memory(%x: memref<4x65536xf32>,
                                    %y: memref<4x65536xf32>) {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<4x65536xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x65536xf32>) outs(%t : memref<4x65536xf32>) {
  ^bb0(%a: f32, %o: f32):
    %d = arith.addf %a, %a : f32
    linalg.yield %d : f32
  }
  %sum = memref.alloc() : memref<4xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<4xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%t : memref<4x65536xf32>) outs(%sum : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0)>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%t, %sum : memref<4x65536xf32>, memref<4xf32>)
      outs(%y : memref<4x65536xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %n = arith.subf %a, %s : f32
    linalg.yield %n : f32
  }
  memref.dealloc %sum : memref<4xf32>
  memref.dealloc %t : memref<4x65536xf32>
  return
}

// -----

// Softmax as the linalg lowering writes it: e = exp(x - max) into the
// output, its row sum, then out *= 1 / sum. With the row in registers
// (256 threads x 4 lanes x 2 steps) x is loaded once per step, exp runs
// once per point, the sum and the scaling read e from registers, and the
// store of e, overwritten by the same thread before any read from memory,
// is dropped: one vector load and one vector store per step.
// CHECK-LABEL: func.func @softmax_held
// CHECK:         gpu.launch
// CHECK-COUNT-2:   vector.load %{{.*}} : memref<8x2048xf32>, vector<4xf32>
// CHECK-NOT:       vector.load
// CHECK-COUNT-8:   math.exp
// CHECK-NOT:       math.exp
// CHECK-NOT:       vector.store
// CHECK:           gpu.barrier
// CHECK-NOT:       vector.load
// CHECK-COUNT-2:   vector.store %{{.*}} : memref<8x2048xf32>, vector<4xf32>
// CHECK-NOT:       vector.store
// CHECK:           gpu.terminator
func.func @softmax_held(%x: memref<8x2048xf32>, %y: memref<8x2048xf32>) {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %t = memref.alloc() : memref<8xf32>
  linalg.fill ins(%ninf : f32) outs(%t : memref<8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x2048xf32>) outs(%t : memref<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %acc, %a : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0)>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %t : memref<8x2048xf32>, memref<8xf32>)
      outs(%y : memref<8x2048xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  }
  linalg.fill ins(%zero : f32) outs(%t : memref<8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%y : memref<8x2048xf32>) outs(%t : memref<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<8xf32>) outs(%y : memref<8x2048xf32>) {
  ^bb0(%s: f32, %o: f32):
    %r = arith.divf %one, %s : f32
    %n = arith.mulf %o, %r : f32
    linalg.yield %n : f32
  }
  memref.dealloc %t : memref<8xf32>
  return
}

// -----

// A row longer than registers hold (65536 f32: 64 steps of 256 threads x
// 4 lanes) keeps the loops over memory: x is read by the sum's loop and
// again by the normalization's.
// CHECK-LABEL: func.func @row_group_long
// CHECK:         gpu.launch
// CHECK:           scf.for
// CHECK:             vector.load %{{.*}} : memref<4x65536xf32>, vector<4xf32>
// CHECK:           gpu.shuffle  xor
// CHECK:           scf.for
// CHECK:             vector.load %{{.*}} : memref<4x65536xf32>, vector<4xf32>
// CHECK:             vector.store
func.func @row_group_long(%x: memref<4x65536xf32>, %y: memref<4x65536xf32>) {
  %zero = arith.constant 0.0 : f32
  %sum = memref.alloc() : memref<4xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<4xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x65536xf32>) outs(%sum : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0)>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : memref<4x65536xf32>, memref<4xf32>)
      outs(%y : memref<4x65536xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %n = arith.subf %a, %s : f32
    linalg.yield %n : f32
  }
  memref.dealloc %sum : memref<4xf32>
  return
}

// -----

// A row sum read across rows by the next op (a transpose of the sums) is
// no row group: two kernels.
// CHECK-LABEL: func.func @cross_row
// CHECK-COUNT-2: gpu.launch
func.func @cross_row(%x: memref<16x256xf32>, %t: memref<16xf32>,
                     %y: memref<16x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<16x256xf32>) outs(%t : memref<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<16xf32>) outs(%y : memref<16x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// A copy into the interior of a padded buffer (a subview) and a windowed
// sum over the whole buffer, which reads the copy at the neighbouring rows
// (a padded pool): no row group, since no workgroup could wait for the
// rows others copy. Two kernels: the copy, then the sum. (Grouped, the
// padded convs and pools of test/Integration/{Vulkan,Metal}/conv_pool.py
// read rows not yet written.)
// CHECK-LABEL: func.func @padded_window
// CHECK:       gpu.launch
// CHECK:         memref.store %{{.+}}, %[[SUB:.+]][
// CHECK:         gpu.terminator
// CHECK:       gpu.launch
// CHECK-NOT:     memref.store %{{.+}}, %[[SUB]]
// CHECK:         memref.load %[[PAD:[a-z0-9_]+]][
// CHECK:         gpu.terminator
func.func @padded_window(%x: memref<8x64xf32>, %y: memref<8x64xf32>, %win: memref<3x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %pad = memref.alloc() : memref<10x66xf32>
  %sub = memref.subview %pad[1, 1] [8, 64] [1, 1] : memref<10x66xf32> to memref<8x64xf32, strided<[66, 1], offset: 67>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x64xf32>) outs(%sub : memref<8x64xf32, strided<[66, 1], offset: 67>>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0 + d2, d1 + d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d2, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%pad, %win : memref<10x66xf32>, memref<3x3xf32>) outs(%y : memref<8x64xf32>) {
  ^bb0(%a: f32, %w: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  memref.dealloc %pad : memref<10x66xf32>
  return
}

// -----

// A column sum (reduction not innermost): one thread per column looping
// over the rows, no shuffles; host allocations become device ones.
// CHECK-LABEL: func.func @col_sum
// CHECK:         %[[T:.*]] = gpu.alloc () : memref<64xf32>
// CHECK:         gpu.launch
// CHECK:           scf.for
// CHECK-NOT:       gpu.shuffle
// CHECK:         gpu.launch
// CHECK:         gpu.dealloc %[[T]]
func.func @col_sum(%x: memref<128x64xf32>, %y: memref<64xf32>) {
  %t = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d1)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<128x64xf32>) outs(%t : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  memref.copy %t, %y : memref<64xf32> to memref<64xf32>
  memref.dealloc %t : memref<64xf32>
  return
}

// -----

// A column reduction of few points and many rows (a bias gradient and the
// sum of squares beside it): blocks of 32 points x 8 slices of the rows,
// each block one of 22 chunks of 187 rows (768 points in 24 blocks of 32,
// 22 chunks to reach 512 blocks); the slices combine through workgroup
// memory, and a second kernel of one thread per point folds each result's
// [chunk, point] partial values into the outputs.
// CHECK-LABEL: func.func @col_sums_split
// CHECK:         %[[P0:.*]] = gpu.alloc () : memref<22x768xf32>
// CHECK:         %[[P1:.*]] = gpu.alloc () : memref<22x768xf32>
// CHECK:         %[[G:.*]] = arith.constant 528 : index
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %[[G]], {{.*}}) threads({{.*}}) in ({{.*}} = %c256, {{.*}}) workgroup(%[[S0:.*]] : memref<8x32xf32, #gpu.address_space<workgroup>>, %[[S1:.*]] : memref<8x32xf32, #gpu.address_space<workgroup>>)
// CHECK:           %[[END:.*]] = arith.minui
// CHECK:           scf.for {{.*}} to %[[END]] step %c8 iter_args
// CHECK:           memref.store {{.*}}, %[[S0]]
// CHECK:           memref.store {{.*}}, %[[S1]]
// CHECK:           gpu.barrier
// CHECK-COUNT-8:   memref.load %[[S0]]
// CHECK-COUNT-8:   memref.load %[[S1]]
// CHECK:           memref.store {{.*}}, %[[P0]]
// CHECK:           memref.store {{.*}}, %[[P1]]
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c3, {{.*}}) threads({{.*}}) in ({{.*}} = %c256
// CHECK:           scf.for {{.*}} = %c0 to %c22
// CHECK:             memref.load %[[P0]]
// CHECK:             memref.load %[[P1]]
// CHECK:           memref.load %arg1
// CHECK:           memref.store {{.*}}, %arg1
// CHECK:           memref.load %arg2
// CHECK:           memref.store {{.*}}, %arg2
// CHECK:         gpu.dealloc %[[P0]]
// CHECK:         gpu.dealloc %[[P1]]
func.func @col_sums_split(%x: memref<4096x768xf32>, %s: memref<768xf32>,
                          %q: memref<768xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d1)>,
                                   affine_map<(d0, d1) -> (d1)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<4096x768xf32>)
      outs(%s, %q : memref<768xf32>, memref<768xf32>) {
  ^bb0(%a: f32, %acc: f32, %acc2: f32):
    %t = arith.addf %acc, %a : f32
    %a2 = arith.mulf %a, %a : f32
    %t2 = arith.addf %a2, %acc2 : f32
    linalg.yield %t, %t2 : f32, f32
  }
  return
}

// -----

// Enough points for 512 blocks of 32: one chunk, and the block stores the
// result itself.
// CHECK-LABEL: func.func @col_max_one_chunk
// CHECK-NOT:     gpu.alloc
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c512, {{.*}}) threads({{.*}}) in ({{.*}} = %c256, {{.*}}) workgroup(%[[S:.*]] : memref<8x32xf32, #gpu.address_space<workgroup>>)
// CHECK:           scf.for
// CHECK:             arith.maximumf
// CHECK:           gpu.barrier
// CHECK:           memref.load %arg1
// CHECK:           arith.maximumf
// CHECK:           memref.store {{.*}}, %arg1
// CHECK-NOT:     gpu.launch
func.func @col_max_one_chunk(%x: memref<256x16384xf32>,
                             %y: memref<16384xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d1)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<256x16384xf32>) outs(%y : memref<16384xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %acc, %a : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A row reduction of two results (a norm backward's row sums) is split into
// one generic per result, each with the part of the body it needs; both
// are then row reductions of one row group: one subgroup per row (768 f32
// are 6 steps of 32 lanes x 4), the row read once.
// CHECK-LABEL: func.func @row_sums_split
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c8, {{.*}}) threads({{.*}}) in ({{.*}} = %c256,
// CHECK-COUNT-6:   vector.load %arg0
// CHECK:           arith.mulf
// CHECK:           gpu.shuffle  xor
// CHECK:           memref.store {{.*}}, %arg2
// CHECK-NOT:       vector.load %arg0
// CHECK:           gpu.shuffle  xor
// CHECK:           memref.store {{.*}}, %arg3
// CHECK-NOT:     gpu.launch
func.func @row_sums_split(%x: memref<64x768xf32>, %g: memref<768xf32>,
                          %s: memref<64xf32>, %q: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d1)>,
                                   affine_map<(d0, d1) -> (d0)>,
                                   affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x, %g : memref<64x768xf32>, memref<768xf32>)
      outs(%s, %q : memref<64xf32>, memref<64xf32>) {
  ^bb0(%a: f32, %w: f32, %acc: f32, %acc2: f32):
    %p = arith.mulf %a, %w : f32
    %t = arith.addf %acc, %p : f32
    %t2 = arith.addf %a, %acc2 : f32
    linalg.yield %t, %t2 : f32, f32
  }
  return
}

// -----

// One row of 76800 values (a loss over a batch): the outer reduction loop
// becomes 64 rows of 1200 values, reduced into a buffer filled with the
// combiner's neutral value (the fill and the reduction one row group), and
// a second reduction of one row folds the 64 partial values into the
// output.
// CHECK-LABEL: func.func @long_rows_split
// CHECK:         %[[P:.*]] = gpu.alloc () : memref<64xf32>
// CHECK:         %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c64, {{.*}}) threads({{.*}}) in ({{.*}} = %c256,
// CHECK:           memref.load %arg0
// CHECK:           gpu.shuffle  xor
// CHECK:           arith.maximumf %[[NEG]]
// CHECK:           memref.store {{.*}}, %[[P]]
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c32,
// CHECK:           vector.load %[[P]]
// CHECK:           gpu.shuffle  xor
// CHECK:           memref.load %arg1[]
// CHECK:           memref.store {{.*}}, %arg1[]
// CHECK:         gpu.dealloc %[[P]]
func.func @long_rows_split(%x: memref<64x40x30xf32>, %y: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                   affine_map<(d0, d1, d2) -> ()>],
                  iterator_types = ["reduction", "reduction", "reduction"]}
      ins(%x : memref<64x40x30xf32>) outs(%y : memref<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %acc, %a : f32
    linalg.yield %m : f32
  }
  return
}

// -----

func.func @dynamic(%x: memref<?xf32>, %y: memref<?xf32>) {
  // expected-error @below {{rlx-gpu-map-linalg: dynamic shapes are not supported yet}}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
                                   affine_map<(d0) -> (d0)>],
                  iterator_types = ["parallel"]}
      ins(%x : memref<?xf32>) outs(%y : memref<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// A constant buffer is read like any other (rlx-gpu-sink-constants then
// gives the kernel its own handle of the global).
// CHECK-LABEL: func.func @constant(
// CHECK:         %[[W:.*]] = memref.get_global @w
// CHECK:         gpu.launch
// CHECK:           vector.load %[[W]]
memref.global "private" constant @w : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @constant(%y: memref<4xf32>) {
  %w = memref.get_global @w : memref<4xf32>
  memref.copy %w, %y : memref<4xf32> to memref<4xf32>
  return
}

// -----

// A transpose from a column slice (attention's q out of a fused qkv
// matmul): the source is a strided view whose offset and strides are
// multiples of 8 bf16, so both sides move 16-byte vectors.
// CHECK-LABEL: func.func @transpose_from_slice
// CHECK:         gpu.launch
// CHECK:           vector.load %{{.*}} {alignment = 16 : i64} : memref<2x16x4x64xbf16, strided<[12288, 768, 64, 1], offset: 256>>, vector<8xbf16>
// CHECK:           vector.store %{{.*}} {alignment = 16 : i64} : memref<2x4x16x64xbf16>, vector<8xbf16>
func.func @transpose_from_slice(%qkv: memref<2x16x768xbf16>, %out: memref<2x4x16x64xbf16>) {
  %s = memref.subview %qkv[0, 0, 256] [2, 16, 256] [1, 1, 1]
      : memref<2x16x768xbf16> to memref<2x16x256xbf16, strided<[12288, 768, 1], offset: 256>>
  %e = memref.expand_shape %s [[0], [1], [2, 3]] output_shape [2, 16, 4, 64]
      : memref<2x16x256xbf16, strided<[12288, 768, 1], offset: 256>>
        into memref<2x16x4x64xbf16, strided<[12288, 768, 64, 1], offset: 256>>
  linalg.transpose ins(%e : memref<2x16x4x64xbf16, strided<[12288, 768, 64, 1], offset: 256>>)
      outs(%out : memref<2x4x16x64xbf16>) permutation = [0, 2, 1, 3]
  return
}

// -----

// An offset of 4 bf16 (8 bytes) is not 16-byte aligned: scalar accesses.
// CHECK-LABEL: func.func @misaligned_slice
// CHECK:         gpu.launch
// CHECK-NOT:       vector.load
// CHECK:           memref.load
func.func @misaligned_slice(%x: memref<16x72xbf16>, %out: memref<16x64xbf16>) {
  %s = memref.subview %x[0, 4] [16, 64] [1, 1]
      : memref<16x72xbf16> to memref<16x64xbf16, strided<[72, 1], offset: 4>>
  linalg.copy ins(%s : memref<16x64xbf16, strided<[72, 1], offset: 4>>)
      outs(%out : memref<16x64xbf16>)
  return
}
