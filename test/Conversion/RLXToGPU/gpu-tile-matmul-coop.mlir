// RUN: rlx-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(rlx-gpu-tile-matmul{cooperative-matrix=f16,bf16-as-f16 coop-tile-m=32 coop-tile-n=32 coop-tile-k=16 coop-subgroups-m=2 coop-subgroups-n=1 subgroup-size=32}),canonicalize,cse)' \
// RUN:   | FileCheck %s

// An f16 matmul the cooperative tiles divide: a workgroup of 2 x 1
// subgroups (64 threads) per 32 x 32 block; each subgroup (gpu.subgroup_id)
// owns 16 x 32 outputs, 1 x 2 fragments, which start as C's fragments. A
// (k contiguous) is staged [m][k] with rows of 16 + 8 halves, B (n
// contiguous) [k][n] with rows of 32 + 8, both row-major fragments; each
// thread loads its share 4 halves (8 bytes) at a time; each
// step's products are between the two barriers, and the sums are stored
// back whole.
// CHECK-LABEL: func.func @f16
// CHECK:       gpu.launch blocks({{.*}}) in ({{[^)]*}} = %c2, {{[^)]*}} = %c2, {{[^)]*}} = %c1)
// CHECK-SAME:    threads({{.*}}) in ({{[^)]*}} = %c64, {{[^)]*}} = %c1, {{[^)]*}} = %c1)
// CHECK-SAME:    workgroup(%[[AS:[a-z0-9_]+]] : memref<768xf16, #gpu.address_space<workgroup>>, %[[BS:[a-z0-9_]+]] : memref<640xf16, #gpu.address_space<workgroup>>)
// CHECK:         %[[SG:.+]] = gpu.subgroup_id upper_bound 2
// CHECK:         %[[C0:.+]] = gpu.subgroup_mma_load_matrix %arg2[%{{.+}}, %{{.+}}] {leadDimension = 64 : index} : memref<64x64xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
// CHECK:         %[[C1:.+]] = gpu.subgroup_mma_load_matrix %arg2[%{{.+}}, %{{.+}}] {leadDimension = 64 : index} : memref<64x64xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
// CHECK:         %[[A0:.+]] = vector.load %arg0[%{{.+}}, %{{.+}}] : memref<64x48xf16>, vector<4xf16>
// CHECK-NOT:     arith.extf
// CHECK:         %[[LOOP:[0-9]+]]:{{[0-9]+}} = scf.for %{{.+}} = %c0 to %c48 step %c16 iter_args(%{{.+}} = %[[C0]], %{{.+}} = %[[C1]], %[[AR:[a-z0-9_]+]] = %[[A0]],
// CHECK:           vector.store %[[AR]], %[[AS]][%{{.+}}] : memref<768xf16, #gpu.address_space<workgroup>>, vector<4xf16>
// CHECK:           gpu.barrier
// CHECK:           scf.if %{{.+}} -> (vector<4xf16>,
// CHECK:           %[[FA:.+]] = gpu.subgroup_mma_load_matrix %[[AS]][%{{.+}}] {leadDimension = 24 : index} : memref<768xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
// CHECK:           %[[FB:.+]] = gpu.subgroup_mma_load_matrix %[[BS]][%{{.+}}] {leadDimension = 40 : index} : memref<640xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "BOp">
// CHECK:           %[[FB1:.+]] = gpu.subgroup_mma_load_matrix %[[BS]][%c16]
// CHECK:           gpu.subgroup_mma_compute %[[FA]], %[[FB]], %{{.+}} : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
// CHECK:           gpu.subgroup_mma_compute %[[FA]], %[[FB1]], %{{.+}}
// CHECK:           gpu.barrier
// CHECK:           scf.yield
// CHECK:         gpu.subgroup_mma_store_matrix %[[LOOP]]#0, %arg2[%{{.+}}, %{{.+}}] {leadDimension = 64 : index}
// CHECK:         gpu.subgroup_mma_store_matrix %[[LOOP]]#1, %arg2
func.func @f16(%a: memref<64x48xf16>, %b: memref<48x64xf16>, %c: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (k, n)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x48xf16>, memref<48x64xf16>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// bf16 with B transposed, of sizes the tiles do not divide: the staging
// rounds each element to f16 (through f32) and zero-fills beyond the
// edges; B (k contiguous) is staged [n][k] and read as column-major
// fragments. The sums start at zero, and each fragment goes through the
// subgroup's 16 x 16 f32 scratch (a third workgroup buffer) to guarded
// element-wise adds into C (gpu.lane_id picks the lane's elements).
// CHECK-LABEL: func.func @bf16_edges
// CHECK:       workgroup(%[[AS:[a-z0-9_]+]] : memref<768xf16, #gpu.address_space<workgroup>>, %[[BS:[a-z0-9_]+]] : memref<768xf16, #gpu.address_space<workgroup>>, %[[CS:[a-z0-9_]+]] : memref<512xf32, #gpu.address_space<workgroup>>)
// CHECK:         %[[ZERO:.+]] = gpu.subgroup_mma_constant_matrix %{{.+}} : !gpu.mma_matrix<16x16xf32, "COp">
// CHECK:         scf.if %{{.+}} -> (vector<4xf16>) {
// CHECK:           %[[X:.+]] = vector.load %arg0{{.+}} : memref<40x20xbf16>, vector<4xbf16>
// CHECK:           %[[W:.+]] = arith.extf %[[X]] : vector<4xbf16> to vector<4xf32>
// CHECK:           %[[H:.+]] = arith.truncf %[[W]] : vector<4xf32> to vector<4xf16>
// CHECK:           scf.yield %[[H]] : vector<4xf16>
// CHECK:         } else {
// CHECK:           scf.yield %{{.+}} : vector<4xf16>
// CHECK:         scf.for {{.+}} iter_args(%{{.+}} = %[[ZERO]], %{{.+}} = %[[ZERO]],
// CHECK:           gpu.subgroup_mma_load_matrix %[[BS]][%{{.+}}] {leadDimension = 24 : index, transpose} : memref<768xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "BOp">
// CHECK:         %[[LANE:.+]] = gpu.lane_id upper_bound 32
// CHECK:         gpu.subgroup_mma_store_matrix %{{.+}}, %[[CS]][%{{.+}}] {leadDimension = 16 : index}
// CHECK:         gpu.barrier
// CHECK:         scf.if
// CHECK:           memref.load %[[CS]]
// CHECK:           %[[OLD:.+]] = memref.load %arg2
// CHECK:           %[[NEW:.+]] = arith.addf %[[OLD]], %{{.+}} : f32
// CHECK:           memref.store %[[NEW]], %arg2
// CHECK:         gpu.barrier
func.func @bf16_edges(%a: memref<40x20xbf16>, %b: memref<24x20xbf16>, %c: memref<40x24xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (n, k)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<40x20xbf16>, memref<24x20xbf16>) outs(%c : memref<40x24xf32>) {
  ^bb0(%x: bf16, %y: bf16, %o: f32):
    %xe = arith.extf %x : bf16 to f32
    %ye = arith.extf %y : bf16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A batched matmul with A transposed (m contiguous): the batch is grid z
// and A is staged [k][m] and read as column-major fragments.
// CHECK-LABEL: func.func @batched_transpose_a
// CHECK:       gpu.launch blocks({{.*}}) in ({{[^)]*}} = %c1, {{[^)]*}} = %c1, {{[^)]*}} = %c3)
// CHECK-SAME:    workgroup(%[[AS:[a-z0-9_]+]] : memref<640xf16, #gpu.address_space<workgroup>>
// CHECK:         gpu.subgroup_mma_load_matrix %arg2[%{{.+}}, %{{.+}}, %{{.+}}] {leadDimension = 32 : index}
// CHECK:         gpu.subgroup_mma_load_matrix %[[AS]][%{{.+}}] {leadDimension = 40 : index, transpose} : memref<640xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
func.func @batched_transpose_a(%a: memref<3x16x32xf16>, %b: memref<3x16x32xf16>, %c: memref<3x32x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(z, m, n, k) -> (z, k, m)>,
                                   affine_map<(z, m, n, k) -> (z, k, n)>,
                                   affine_map<(z, m, n, k) -> (z, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<3x16x32xf16>, memref<3x16x32xf16>) outs(%c : memref<3x32x32xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// What stays on the tiled kernel: f32 matmuls (silently: they are not
// meant for 16-bit cooperative matrices), and a 16-bit matmul whose
// operand types differ, with a remark saying why.
// CHECK-LABEL: func.func @not_cooperative
// CHECK-NOT:   gpu.subgroup_mma
// CHECK:       return
func.func @not_cooperative(%a: memref<32x32xf32>, %b: memref<32x32xf32>, %c: memref<32x32xf32>,
                           %h: memref<32x32xf16>, %g: memref<32x32xbf16>) {
  linalg.matmul ins(%a, %b : memref<32x32xf32>, memref<32x32xf32>)
                outs(%c : memref<32x32xf32>)
  // expected-remark @+1 {{rlx-gpu-tile-matmul: not on cooperative matrices: its operands are not f16 or bf16 (or one of them f32) with an f32 accumulator}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (k, n)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%h, %g : memref<32x32xf16>, memref<32x32xbf16>) outs(%c : memref<32x32xf32>) {
  ^bb0(%x: f16, %y: bf16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : bf16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// An f32 operand beside a bf16 one (attention's probabilities times V) is
// rounded to f16 in the staging too.
// CHECK-LABEL: func.func @f32_times_bf16
// CHECK:       %[[P:.+]] = vector.load %arg0{{.+}} : memref<32x32xf32>, vector<4xf32>
// CHECK:       arith.truncf %[[P]] : vector<4xf32> to vector<4xf16>
// CHECK:       %[[V:.+]] = vector.load %arg1{{.+}} : memref<32x32xbf16>, vector<4xbf16>
// CHECK:       %[[W:.+]] = arith.extf %[[V]] : vector<4xbf16> to vector<4xf32>
// CHECK:       arith.truncf %[[W]] : vector<4xf32> to vector<4xf16>
// CHECK:       gpu.subgroup_mma_compute
func.func @f32_times_bf16(%p: memref<32x32xf32>, %v: memref<32x32xbf16>, %c: memref<32x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (k, n)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %v : memref<32x32xf32>, memref<32x32xbf16>) outs(%c : memref<32x32xf32>) {
  ^bb0(%x: f32, %y: bf16, %o: f32):
    %ye = arith.extf %y : bf16 to f32
    %q = arith.mulf %x, %ye : f32
    %s = arith.addf %o, %q : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A matmul narrower than the block: the 32 x 32 block is halved along n
// to 32 x 16 (the same 2 x 1 subgroups, one fragment each), which C fills:
// no guards, one fragment stored per subgroup.
// CHECK-LABEL: func.func @fit
// CHECK:       gpu.launch blocks({{.*}}) in ({{[^)]*}} = %c1, {{[^)]*}} = %c1, {{[^)]*}} = %c1)
// CHECK-SAME:    threads({{.*}}) in ({{[^)]*}} = %c64,
// CHECK-SAME:    workgroup(%{{[a-z0-9_]+}} : memref<768xf16, #gpu.address_space<workgroup>>, %{{[a-z0-9_]+}} : memref<384xf16, #gpu.address_space<workgroup>>)
// CHECK-COUNT-1: gpu.subgroup_mma_store_matrix
// CHECK-NOT:     gpu.subgroup_mma_store_matrix
// CHECK:         gpu.terminator
func.func @fit(%a: memref<32x16xf16>, %b: memref<16x16xf16>, %c: memref<32x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (k, n)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<32x16xf16>, memref<16x16xf16>) outs(%c : memref<32x16xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The zero fill of C just before the matmul (the accumulator's init) goes:
// the sums start at zero and are stored over C, which is neither filled
// nor read.
// CHECK-LABEL: func.func @filled
// CHECK-NOT:   linalg.fill
// CHECK:       gpu.launch
// CHECK:         %[[ZERO:.+]] = gpu.subgroup_mma_constant_matrix
// CHECK-NOT:     gpu.subgroup_mma_load_matrix %arg2
// CHECK:         scf.for {{.+}} iter_args(%{{.+}} = %[[ZERO]], %{{.+}} = %[[ZERO]],
// CHECK:         gpu.subgroup_mma_store_matrix %{{.+}}, %arg2
// CHECK:         gpu.subgroup_mma_store_matrix %{{.+}}, %arg2
// CHECK:         gpu.terminator
func.func @filled(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %c: memref<32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<32x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (k, n)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<32x32xf16>, memref<32x32xf16>) outs(%c : memref<32x32xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// An elementwise generic right after the matmul that reads its zero-filled
// C in order (here C's rounding to f16 plus a bias along n) is computed as
// the sums are stored: each fragment goes through the subgroup's scratch,
// and each lane loads the bias at its column, rounds, adds and stores into
// the generic's output. C, its fill, the generic and the deallocation go.
// CHECK-LABEL: func.func @epilogue
// CHECK-NOT:   memref.alloc
// CHECK-NOT:   linalg.
// CHECK:       gpu.launch
// CHECK-SAME:    workgroup({{.+}}, %[[SCRATCH:[a-z0-9_]+]] : memref<512xf32, #gpu.address_space<workgroup>>)
// CHECK:         scf.for
// CHECK:         gpu.subgroup_mma_store_matrix %{{.+}}, %[[SCRATCH]]
// CHECK:         gpu.barrier
// CHECK:         %[[SUM:.+]] = memref.load %[[SCRATCH]]
// CHECK:         %[[BIAS:.+]] = memref.load %arg2[%[[COL:.+]]] : memref<64xf16>
// CHECK:         %[[ROUNDED:.+]] = arith.truncf %[[SUM]] : f32 to f16
// CHECK:         %[[Y:.+]] = arith.addf %[[ROUNDED]], %[[BIAS]] : f16
// CHECK:         memref.store %[[Y]], %arg3[%{{.+}}, %[[COL]]] : memref<64x64xf16>
// CHECK-NOT:   memref.dealloc
// CHECK-NOT:   linalg.
func.func @epilogue(%a: memref<64x48xf16>, %b: memref<48x64xf16>, %bias: memref<64xf16>, %y: memref<64x64xf16>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (k, n)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x48xf16>, memref<48x64xf16>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f16, %w: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %we = arith.extf %w : f16 to f32
    %p = arith.mulf %xe, %we : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>,
                                   affine_map<(m, n) -> (n)>,
                                   affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<64x64xf32>, memref<64xf16>) outs(%y : memref<64x64xf16>) {
  ^bb0(%s: f32, %v: f16, %o: f16):
    %r = arith.truncf %s : f32 to f16
    %t = arith.addf %r, %v : f16
    linalg.yield %t : f16
  }
  memref.dealloc %c : memref<64x64xf32>
  return
}

// -----

// Generics left apart: one with transcendental math (it runs better as its
// own kernel), one reading C transposed, and one after a C that another op
// also reads. Each matmul stores its fragments into C whole.
// CHECK-LABEL: func.func @not_epilogues
// CHECK:         gpu.subgroup_mma_store_matrix %{{.+}}, %[[C1:[a-z0-9_]+]][
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[C1]], %arg2 :
// CHECK:           math.tanh
// CHECK:         gpu.subgroup_mma_store_matrix %{{.+}}, %[[C2:[a-z0-9_]+]][
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[C2]] :
// CHECK:         gpu.subgroup_mma_store_matrix %{{.+}}, %[[C3:[a-z0-9_]+]][
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[C3]] :
// CHECK:         memref.copy %[[C3]], %arg4
#mm = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
       affine_map<(m, n, k) -> (m, n)>]
#ew = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>]
func.func @not_epilogues(%a: memref<64x48xf16>, %b: memref<48x64xf16>, %bias: memref<64xf16>, %y: memref<64x64xf16>, %z: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c1 = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c1 : memref<64x64xf32>)
  linalg.generic {indexing_maps = #mm, iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x48xf16>, memref<48x64xf16>) outs(%c1 : memref<64x64xf32>) {
  ^bb0(%x: f16, %w: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %we = arith.extf %w : f16 to f32
    %p = arith.mulf %xe, %we : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>,
                                   affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c1, %bias : memref<64x64xf32>, memref<64xf16>) outs(%y : memref<64x64xf16>) {
  ^bb0(%s: f32, %v: f16, %o: f16):
    %t = math.tanh %s : f32
    %r = arith.truncf %t : f32 to f16
    %u = arith.addf %r, %v : f16
    linalg.yield %u : f16
  }
  %c2 = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c2 : memref<64x64xf32>)
  linalg.generic {indexing_maps = #mm, iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x48xf16>, memref<48x64xf16>) outs(%c2 : memref<64x64xf32>) {
  ^bb0(%x: f16, %w: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %we = arith.extf %w : f16 to f32
    %p = arith.mulf %xe, %we : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (n, m)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c2 : memref<64x64xf32>) outs(%y : memref<64x64xf16>) {
  ^bb0(%s: f32, %o: f16):
    %r = arith.truncf %s : f32 to f16
    linalg.yield %r : f16
  }
  %c3 = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c3 : memref<64x64xf32>)
  linalg.generic {indexing_maps = #mm, iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x48xf16>, memref<48x64xf16>) outs(%c3 : memref<64x64xf32>) {
  ^bb0(%x: f16, %w: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %we = arith.extf %w : f16 to f32
    %p = arith.mulf %xe, %we : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = #ew, iterator_types = ["parallel", "parallel"]}
      ins(%c3 : memref<64x64xf32>) outs(%y : memref<64x64xf16>) {
  ^bb0(%s: f32, %o: f16):
    %r = arith.truncf %s : f32 to f16
    linalg.yield %r : f16
  }
  memref.copy %c3, %z : memref<64x64xf32> to memref<64x64xf32>
  return
}

// -----

// The lanes of each staging load: 2 where an extent is even but not a
// multiple of 4 (k = 18 for A, n = 30 for B: a load lies wholly inside or
// beyond the edge), 1 where it is odd (k = 17 for A; that matmul's B
// walks n, 32, in 4s), each guarded as a whole.
// CHECK-LABEL: func.func @lanes
// CHECK:       vector.load %arg0{{.+}} : memref<32x18xf16>, vector<2xf16>
// CHECK:       vector.load %arg1{{.+}} : memref<18x30xf16>, vector<2xf16>
// CHECK:       memref.load %arg3{{.+}} : memref<32x17xf16>
// CHECK-NOT:   vector.load %arg3
// CHECK:       vector.load %arg4{{.+}} : memref<17x32xf16>, vector<4xf16>
func.func @lanes(%a: memref<32x18xf16>, %b: memref<18x30xf16>, %c: memref<32x30xf32>,
                 %d: memref<32x17xf16>, %e: memref<17x32xf16>, %f: memref<32x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (k, n)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<32x18xf16>, memref<18x30xf16>) outs(%c : memref<32x30xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (k, n)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%d, %e : memref<32x17xf16>, memref<17x32xf16>) outs(%f : memref<32x32xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}
