// RUN: rlx-opt %s --pass-pipeline="builtin.module(func.func(rlx-cuda-mma-matmul,rlx-gpu-map-linalg))" | FileCheck %s

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>

// A bf16 matmul accumulating in f32 (128 x 64 x 32): one launch of
// (128 / 64) * (64 / 32) = 4 blocks of 4 warps; each lane loads its C
// fragment, steps k by 16 with four mma.sync 16x8x16 (bf16 pairs as i32,
// A row-major, B column-major) and stores the fragment back.
// CHECK-LABEL: func.func @mma_bf16(
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : index
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %[[C4]], {{.*}}) threads({{.*}}) in ({{.*}} = %[[C128]],
// CHECK-COUNT-8: vector.load %arg2{{.*}} : memref<128x64xf32>, vector<2xf32>
// CHECK:         scf.for {{.*}} iter_args
// CHECK-COUNT-4:   vector.load %arg0{{.*}} : memref<128x32xbf16>, vector<2xbf16>
// CHECK:           nvvm.mma.sync {{.*}} {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-COUNT-3:   nvvm.mma.sync
// CHECK:           scf.yield
// CHECK-COUNT-8: vector.store {{.*}}, %arg2{{.*}} : memref<128x64xf32>, vector<2xf32>
// CHECK-NOT:     linalg.generic
func.func @mma_bf16(%a: memref<128x32xbf16>, %b: memref<32x64xbf16>, %c: memref<128x64xf32>) {
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<128x32xbf16>, memref<32x64xbf16>) outs(%c : memref<128x64xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %0 = arith.extf %x : bf16 to f32
    %1 = arith.extf %y : bf16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  }
  return
}


// f16 operands go in as vector<2xf16> (their PTX type inferred).
// CHECK-LABEL: func.func @mma_f16(
// CHECK:         nvvm.mma.sync {{.*}} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
func.func @mma_f16(%a: memref<64x16xf16>, %b: memref<16x32xf16>, %c: memref<64x32xf32>) {
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x16xf16>, memref<16x32xf16>) outs(%c : memref<64x32xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %0 = arith.extf %x : f16 to f32
    %1 = arith.extf %y : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  }
  return
}


// Sizes the tiles do not divide (m = 48), and f32 operands: no mma.
// CHECK-LABEL: func.func @no_mma(
// CHECK-NOT:     nvvm.mma.sync
func.func @no_mma(%a: memref<48x16xbf16>, %b: memref<16x32xbf16>, %c: memref<48x32xf32>,
                  %d: memref<64x16xf32>, %e: memref<16x32xf32>, %f: memref<64x32xf32>) {
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<48x16xbf16>, memref<16x32xbf16>) outs(%c : memref<48x32xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %0 = arith.extf %x : bf16 to f32
    %1 = arith.extf %y : bf16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  }
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%d, %e : memref<64x16xf32>, memref<16x32xf32>) outs(%f : memref<64x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %2 = arith.mulf %x, %y : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  }
  return
}
