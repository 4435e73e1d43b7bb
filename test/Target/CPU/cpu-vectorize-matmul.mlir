// RUN: rlx-opt %s --rlx-cpu-vectorize-matmul --split-input-file | FileCheck %s
// RUN: rlx-opt %s --rlx-cpu-pipeline --split-input-file | FileCheck %s --check-prefix=LLVM
// RUN: rlx-opt %s --rlx-cpu-vectorize-matmul=pack-panels=false --split-input-file | FileCheck %s --check-prefix=NOPACK
// RUN: rlx-opt %s --rlx-cpu-vectorize-matmul=k-block=0 --split-input-file | FileCheck %s --check-prefix=KBLOCK0

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>

// A 2-D f32 matmul whose M and N the tiles divide: column blocks of 32
// outside row blocks of 8, a k loop of single steps carrying the 8x32 C
// block, and one vector.contract per step reading A as [8, 1] and B as
// [1, 32] (no broadcast to the whole block).
// CHECK-LABEL: func.func @tiled
// CHECK:         scf.for %{{.+}} = %c0 to %c64 step %c32
// CHECK:           scf.for %{{.+}} = %c0 to %c16 step %c8
// CHECK:             scf.for %{{.+}} = %c0 to %c24 step %c1 iter_args(%{{.+}} = %{{.+}}) -> (tensor<8x32xf32>)
// CHECK:               vector.transfer_read {{.+}} : tensor<8x1xf32>, vector<8x1xf32>
// CHECK:               vector.transfer_read {{.+}} : tensor<1x32xf32>, vector<32xf32>
// CHECK:               vector.contract {{.+}} : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// CHECK-NOT:         linalg.generic
// After bufferization the C block stays in registers through the k loop
// (a block argument of the loop, not a load and store per step), updated
// by one FMA of a row of B per row of the block.
// LLVM-LABEL: llvm.func @tiled
// LLVM:         llvm.br ^bb{{[0-9]+}}(%{{.+}}, %{{.+}} : i64, !llvm.array<8 x vector<32xf32>>)
// LLVM-COUNT-8: llvm.intr.fmuladd({{.+}}) : (vector<32xf32>, vector<32xf32>, vector<32xf32>) -> vector<32xf32>
// LLVM:       llvm.func @batched
func.func @tiled(%x: tensor<16x24xf32>, %y: tensor<24x64xf32>,
                 %acc: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = linalg.generic {indexing_maps = [#a, #b, #c],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<16x24xf32>, tensor<24x64xf32>)
      outs(%acc : tensor<16x64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

#a = affine_map<(b, m, n, k) -> (b, m, k)>
#b = affine_map<(b, m, n, k) -> (k, n)>
#c = affine_map<(b, m, n, k) -> (b, m, n)>

// A batch dim (here only in A and C, as x @ W in a transformer) is tiled
// by one and dropped before vectorization: the contract is still 2-D.
// CHECK-LABEL: func.func @batched
// CHECK:         scf.for %{{.+}} = %c0 to %c2 step %c1
// CHECK:           vector.contract {{.+}} : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// CHECK-NOT:       vector<1x8x32xf32>
func.func @batched(%x: tensor<2x8x4xf32>, %w: tensor<4x32xf32>,
                   %acc: tensor<2x8x32xf32>) -> tensor<2x8x32xf32> {
  %r = linalg.generic {indexing_maps = [#a, #b, #c],
                       iterator_types = ["parallel", "parallel", "parallel",
                                         "reduction"]}
      ins(%x, %w : tensor<2x8x4xf32>, tensor<4x32xf32>)
      outs(%acc : tensor<2x8x32xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x8x32xf32>
  return %r : tensor<2x8x32xf32>
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>

// f64 tiles are 8 x 16 (two 512-bit registers of f64 per row).
// CHECK-LABEL: func.func @f64
// CHECK:         vector.contract {{.+}} : vector<8x1xf64>, vector<1x16xf64> into vector<8x16xf64>
func.func @f64(%x: tensor<8x3xf64>, %y: tensor<3x16xf64>,
               %acc: tensor<8x16xf64>) -> tensor<8x16xf64> {
  %r = linalg.generic {indexing_maps = [#a, #b, #c],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<8x3xf64>, tensor<3x16xf64>)
      outs(%acc : tensor<8x16xf64>) {
  ^bb0(%p: f64, %q: f64, %o: f64):
    %m = arith.mulf %p, %q : f64
    %s = arith.addf %o, %m : f64
    linalg.yield %s : f64
  } -> tensor<8x16xf64>
  return %r : tensor<8x16xf64>
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>

// M = 12 is not a multiple of 8, N = 20 not of 32, a dynamic M has no
// static tile count, and i32 is not a float: all keep the loop lowering.
// CHECK-LABEL: func.func @untiled
// CHECK-NOT:     vector.contract
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT:     vector.contract
func.func @untiled(%x: tensor<12x4xf32>, %y: tensor<4x32xf32>, %acc: tensor<12x32xf32>,
                   %x2: tensor<8x4xf32>, %y2: tensor<4x20xf32>, %acc2: tensor<8x20xf32>,
                   %x3: tensor<?x4xf32>, %acc3: tensor<?x32xf32>,
                   %x4: tensor<8x4xi32>, %y4: tensor<4x32xi32>, %acc4: tensor<8x32xi32>)
    -> (tensor<12x32xf32>, tensor<8x20xf32>, tensor<?x32xf32>, tensor<8x32xi32>) {
  %r = linalg.generic {indexing_maps = [#a, #b, #c],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<12x4xf32>, tensor<4x32xf32>) outs(%acc : tensor<12x32xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<12x32xf32>
  %r2 = linalg.generic {indexing_maps = [#a, #b, #c],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x2, %y2 : tensor<8x4xf32>, tensor<4x20xf32>) outs(%acc2 : tensor<8x20xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x20xf32>
  %r3 = linalg.generic {indexing_maps = [#a, #b, #c],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x3, %y : tensor<?x4xf32>, tensor<4x32xf32>) outs(%acc3 : tensor<?x32xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<?x32xf32>
  %r4 = linalg.generic {indexing_maps = [#a, #b, #c],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x4, %y4 : tensor<8x4xi32>, tensor<4x32xi32>) outs(%acc4 : tensor<8x32xi32>) {
  ^bb0(%p: i32, %q: i32, %o: i32):
    %m = arith.muli %p, %q : i32
    %s = arith.addi %o, %m : i32
    linalg.yield %s : i32
  } -> tensor<8x32xi32>
  return %r, %r2, %r3, %r4 : tensor<12x32xf32>, tensor<8x20xf32>, tensor<?x32xf32>, tensor<8x32xi32>
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>

// Four row blocks or more reuse each column panel of B, whose rows are
// 4 KiB apart (1024 f32): the [24, 32] panel is copied into a contiguous
// tensor in the column-block loop, once, and the row blocks' k steps read
// rows of the copy. (@tiled has two row blocks and 256-byte rows: no copy.)
// CHECK-LABEL: func.func @packed(
// CHECK-SAME:      %{{.+}}: tensor<32x24xf32>, %[[Y:.+]]: tensor<24x1024xf32>
// CHECK:         scf.for %[[N:.+]] = %c0 to %c1024 step %c32
// CHECK:           %[[PANEL:.+]] = tensor.extract_slice %[[Y]][0, %[[N]]] [24, 32] [1, 1]
// CHECK:           %[[EMPTY:.+]] = tensor.empty() : tensor<24x32xf32>
// CHECK:           %[[PACKED:.+]] = linalg.copy ins(%[[PANEL]] : tensor<24x32xf32>) outs(%[[EMPTY]] : tensor<24x32xf32>)
// CHECK:           scf.for %{{.+}} = %c0 to %c32 step %c8
// CHECK:             scf.for %[[K:.+]] = %c0 to %c24 step %c1
// CHECK:               tensor.extract_slice %[[PACKED]][%[[K]], 0] [1, 32] [1, 1]
// CHECK:               vector.contract
// NOPACK-LABEL: func.func @packed(
// NOPACK-NOT:     linalg.copy
// NOPACK:         vector.contract
func.func @packed(%x: tensor<32x24xf32>, %y: tensor<24x1024xf32>,
                  %acc: tensor<32x1024xf32>) -> tensor<32x1024xf32> {
  %r = linalg.generic {indexing_maps = [#a, #b, #c],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<32x24xf32>, tensor<24x1024xf32>)
      outs(%acc : tensor<32x1024xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<32x1024xf32>
  return %r : tensor<32x1024xf32>
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>

// Rows 3 KiB apart (768 f32) fall in different L1 sets: not packed, as
// with fewer than four row blocks (16 rows here, 4 KiB rows).
// CHECK-LABEL: func.func @unpacked(
// CHECK-NOT:     linalg.copy
// CHECK:         vector.contract
// CHECK-NOT:     linalg.copy
// CHECK:         return
func.func @unpacked(%x: tensor<32x24xf32>, %y: tensor<24x768xf32>,
                    %acc: tensor<32x768xf32>, %x2: tensor<16x24xf32>,
                    %y2: tensor<24x1024xf32>, %acc2: tensor<16x1024xf32>)
    -> (tensor<32x768xf32>, tensor<16x1024xf32>) {
  %r = linalg.generic {indexing_maps = [#a, #b, #c],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<32x24xf32>, tensor<24x768xf32>)
      outs(%acc : tensor<32x768xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<32x768xf32>
  %r2 = linalg.generic {indexing_maps = [#a, #b, #c],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x2, %y2 : tensor<16x24xf32>, tensor<24x1024xf32>)
      outs(%acc2 : tensor<16x1024xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x1024xf32>
  return %r, %r2 : tensor<32x768xf32>, tensor<16x1024xf32>
}

// -----

#a = affine_map<(b, m, n, k) -> (b, m, k)>
#b = affine_map<(b, m, n, k) -> (b, k, n)>
#c = affine_map<(b, m, n, k) -> (b, m, n)>

// A batched B: one panel per batch and column block.
// CHECK-LABEL: func.func @packed_batched(
// CHECK:         scf.for %{{.+}} = %c0 to %c2 step %c1
// CHECK:           scf.for %{{.+}} = %c0 to %c1024 step %c32
// CHECK:             tensor.extract_slice %{{.+}} [1, 16, 32] [1, 1, 1]
// CHECK:             linalg.copy ins(%{{.+}} : tensor<1x16x32xf32>)
// CHECK:             scf.for %{{.+}} = %c0 to %c32 step %c8
func.func @packed_batched(%x: tensor<2x32x16xf32>, %y: tensor<2x16x1024xf32>,
                          %acc: tensor<2x32x1024xf32>) -> tensor<2x32x1024xf32> {
  %r = linalg.generic {indexing_maps = [#a, #b, #c],
                       iterator_types = ["parallel", "parallel", "parallel",
                                         "reduction"]}
      ins(%x, %y : tensor<2x32x16xf32>, tensor<2x16x1024xf32>)
      outs(%acc : tensor<2x32x1024xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x32x1024xf32>
  return %r : tensor<2x32x1024xf32>
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>

// B read transposed ([n, k]): a copy of its panel would keep the layout
// that the k steps read across, so it is not packed.
// CHECK-LABEL: func.func @transposed_b_unpacked(
// CHECK-NOT:     linalg.copy
// CHECK:         vector.contract
func.func @transposed_b_unpacked(%x: tensor<32x1024xf32>, %y: tensor<64x1024xf32>,
                                 %acc: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %r = linalg.generic {indexing_maps = [#a, #bt, #c],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<32x1024xf32>, tensor<64x1024xf32>)
      outs(%acc : tensor<32x64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  return %r : tensor<32x64xf32>
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>

// A reduction of 512 steps: two blocks of 256 (k-block) between the
// column blocks and the row blocks, each row block's C tile carried through
// its block's single steps. With k-block=0, one block.
// CHECK-LABEL: func.func @k_blocks(
// CHECK:         scf.for %{{.+}} = %c0 to %c64 step %c32
// CHECK:           scf.for %{{.+}} = %c0 to %c512 step %c256
// CHECK:             scf.for %{{.+}} = %c0 to %c16 step %c8
// CHECK:               scf.for %{{.+}} = %c0 to %c256 step %c1 iter_args(%{{.+}} = %{{.+}}) -> (tensor<8x32xf32>)
// CHECK:                 vector.contract
// KBLOCK0-LABEL: func.func @k_blocks(
// KBLOCK0:         scf.for %{{.+}} = %c0 to %c64 step %c32
// KBLOCK0-NEXT:      scf.for %{{.+}} = %c0 to %c16 step %c8
// KBLOCK0:             scf.for %{{.+}} = %c0 to %c512 step %c1
func.func @k_blocks(%x: tensor<16x512xf32>, %y: tensor<512x64xf32>,
                    %acc: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = linalg.generic {indexing_maps = [#a, #b, #c],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<16x512xf32>, tensor<512x64xf32>)
      outs(%acc : tensor<16x64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}
