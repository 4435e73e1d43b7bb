// RUN: rlx-opt %s -convert-rlx-to-linalg -split-input-file | FileCheck %s
// RUN: rlx-opt %s -convert-rlx-to-linalg -split-input-file -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops" | FileCheck %s --check-prefix=BUF
// The checks follow the order in which the lowering creates index and
// element ops (see nn.mlir).
// The BUF run bufferizes as rlx-cpu-pipeline does and checks that the
// caches are written in place: no buffer of a cache's size is allocated
// or copied when the written cache replaces the old one.

// kv_cache_write is one insert_slice of the new rows into the cache at the
// run-time position (read from the rank-0 tensor as an index); the sizes
// are the update's. Bufferized, the rows are copied into a subview of the
// cache's own buffer, which the function returns: no cache copy.
// CHECK-LABEL: func.func @kv_cache_write(
// CHECK-SAME:    %[[C:[^:]+]]: tensor<2x64x4x16xf32>, %[[N:[^:]+]]: tensor<2x1x4x16xf32>, %[[P:[^:]+]]: tensor<i64>
// CHECK:         %[[E:.+]] = tensor.extract %[[P]][] : tensor<i64>
// CHECK:         %[[I:.+]] = arith.index_cast %[[E]] : i64 to index
// CHECK:         %[[R:.+]] = tensor.insert_slice %[[N]] into %[[C]][0, %[[I]], 0, 0] [2, 1, 4, 16] [1, 1, 1, 1] : tensor<2x1x4x16xf32> into tensor<2x64x4x16xf32>
// CHECK:         return %[[R]]
// BUF-LABEL: func.func @kv_cache_write(
// BUF-SAME:    %[[C:[^:]+]]: memref<2x64x4x16xf32>, %[[N:[^:]+]]: memref<2x1x4x16xf32>
// BUF-NOT:     memref.alloc
// BUF:         %[[S:.+]] = memref.subview %[[C]][0, %{{.+}}, 0, 0] [2, 1, 4, 16] [1, 1, 1, 1]
// BUF-NEXT:    memref.copy %[[N]], %[[S]] : memref<2x1x4x16xf32> to memref<2x1x4x16xf32, strided<[4096, 64, 16, 1], offset: ?>>
// BUF-NOT:     memref.alloc
// BUF:         return %[[C]] : memref<2x64x4x16xf32>
func.func @kv_cache_write(%cache: tensor<2x64x4x16xf32>, %new: tensor<2x1x4x16xf32>, %pos: tensor<i64>)
    -> tensor<2x64x4x16xf32> {
  %r = rlx.kv_cache_write %cache, %new, %pos : tensor<2x64x4x16xf32>, tensor<2x1x4x16xf32>, tensor<i64>
  return %r : tensor<2x64x4x16xf32>
}

// -----

// A prompt of a dynamic number of rows into a rank-3 cache (no batch): the
// slice's sizes are the update's dims.
// CHECK-LABEL: func.func @kv_cache_write_prompt(
// CHECK-SAME:    %[[C:[^:]+]]: tensor<?x2x8xbf16>, %[[N:[^:]+]]: tensor<?x2x8xbf16>, %[[P:[^:]+]]: tensor<i64>
// CHECK:         %[[C0:.+]] = arith.constant 0 : index
// CHECK:         %[[LEN:.+]] = tensor.dim %[[N]], %[[C0]] : tensor<?x2x8xbf16>
// CHECK:         %[[E:.+]] = tensor.extract %[[P]][] : tensor<i64>
// CHECK:         %[[I:.+]] = arith.index_cast %[[E]] : i64 to index
// CHECK:         %[[R:.+]] = tensor.insert_slice %[[N]] into %[[C]][%[[I]], 0, 0] [%[[LEN]], 2, 8] [1, 1, 1] : tensor<?x2x8xbf16> into tensor<?x2x8xbf16>
// CHECK:         return %[[R]]
func.func @kv_cache_write_prompt(%cache: tensor<?x2x8xbf16>, %new: tensor<?x2x8xbf16>, %pos: tensor<i64>)
    -> tensor<?x2x8xbf16> {
  %r = rlx.kv_cache_write %cache, %new, %pos : tensor<?x2x8xbf16>, tensor<?x2x8xbf16>, tensor<i64>
  return %r : tensor<?x2x8xbf16>
}

// -----

// A cache that is still read after the write (here: returned too) is
// copied once before the write; the written copy is the result.
// BUF-LABEL: func.func @kv_cache_write_old_cache_read(
// BUF-SAME:    %[[C:[^:]+]]: memref<1x32x2x8xf32>, %[[N:[^:]+]]: memref<1x1x2x8xf32>
// BUF:         %[[A:.+]] = memref.alloc() {{.*}} : memref<1x32x2x8xf32>
// BUF-NEXT:    memref.copy %[[C]], %[[A]]
// BUF:         %[[S:.+]] = memref.subview %[[A]]
// BUF-NEXT:    memref.copy %[[N]], %[[S]]
// BUF:         return %[[A]], %[[C]]
func.func @kv_cache_write_old_cache_read(%cache: tensor<1x32x2x8xf32>, %new: tensor<1x1x2x8xf32>, %pos: tensor<i64>)
    -> (tensor<1x32x2x8xf32>, tensor<1x32x2x8xf32>) {
  %r = rlx.kv_cache_write %cache, %new, %pos : tensor<1x32x2x8xf32>, tensor<1x1x2x8xf32>, tensor<i64>
  return %r, %cache : tensor<1x32x2x8xf32>, tensor<1x32x2x8xf32>
}

// -----

// decode_attention without a window reads cache[:, 0:end] with end =
// clamp(length, 0, max_seq) (a slice: a subview, no copy); query i sits at
// slice index i + (length - S). 8 query heads over 2 kv heads read kv head
// h floordiv 4 of the [B, max_seq, Hkv, D] caches: the key map is (b, j,
// h floordiv 4, d), the value map (b, j, h floordiv 4, e). The score rows
// are max_seq long (static): the scores of [0, end) are computed into a
// slice of them, and the mask sends j >= end to -inf too.
// CHECK-DAG: #[[$Q:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG: #[[$K:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1 floordiv 4, d4)>
// CHECK-DAG: #[[$S:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$V:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d1 floordiv 4, d3)>
// CHECK-DAG: #[[$ID4:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$ROW:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @decode_attention_gqa(
// CHECK-SAME:    %[[Qa:[^:]+]]: tensor<2x8x1x16xf32>, %[[Ka:[^:]+]]: tensor<2x64x2x16xf32>, %[[Va:[^:]+]]: tensor<2x64x2x32xf32>, %[[La:[^:]+]]: tensor<i64>
// CHECK:         %[[LE:.+]] = tensor.extract %[[La]][] : tensor<i64>
// CHECK:         %[[L:.+]] = arith.index_cast %[[LE]] : i64 to index
// CHECK:         %[[ZERO:.+]] = arith.constant 0 : index
// CHECK:         %[[NQ:.+]] = arith.constant 1 : index
// CHECK:         %[[MAXSEQ:.+]] = arith.constant 64 : index
// CHECK:         %[[NONNEG:.+]] = arith.maxsi %[[L]], %[[ZERO]] : index
// CHECK:         %[[END:.+]] = arith.minsi %[[NONNEG]], %[[MAXSEQ]] : index
// CHECK:         %[[DIAG:.+]] = arith.subi %[[L]], %[[NQ]] : index
// CHECK:         %[[KS:.+]] = tensor.extract_slice %[[Ka]][0, 0, 0, 0] [2, %[[END]], 2, 16] [1, 1, 1, 1] : tensor<2x64x2x16xf32> to tensor<2x?x2x16xf32>
// CHECK:         %[[VS:.+]] = tensor.extract_slice %[[Va]][0, 0, 0, 0] [2, %[[END]], 2, 32] [1, 1, 1, 1] : tensor<2x64x2x32xf32> to tensor<2x?x2x32xf32>
// CHECK:         %[[ROWS:.+]] = tensor.empty() : tensor<2x8x1x64xf32>
// CHECK:         %[[PART:.+]] = tensor.extract_slice %[[ROWS]][0, 0, 0, 0] [2, 8, 1, %[[END]]] [1, 1, 1, 1] : tensor<2x8x1x64xf32> to tensor<2x8x1x?xf32>
// CHECK:         %[[PINIT:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[PART]] : tensor<2x8x1x?xf32>)
// CHECK:         %[[PSCORES:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$Q]], #[[$K]], #[[$S]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[Qa]], %[[KS]] : tensor<2x8x1x16xf32>, tensor<2x?x2x16xf32>)
// CHECK-SAME:      outs(%[[PINIT]] : tensor<2x8x1x?xf32>)
// CHECK:         %[[SCORES:.+]] = tensor.insert_slice %[[PSCORES]] into %[[ROWS]][0, 0, 0, 0] [2, 8, 1, %[[END]]] [1, 1, 1, 1]
// CHECK:         %[[MASKED:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID4]], #[[$ID4]]]
// CHECK-SAME:      ins(%[[SCORES]] : tensor<2x8x1x64xf32>)
// CHECK:           %[[SCALE:.+]] = arith.constant 2.500000e-01 : f32
// CHECK:           %[[SC:.+]] = arith.mulf %{{.+}}, %[[SCALE]] : f32
// CHECK:           %[[I:.+]] = linalg.index 2 : index
// CHECK:           %[[AT:.+]] = arith.addi %[[I]], %[[DIAG]] : index
// CHECK:           %[[J:.+]] = linalg.index 3 : index
// CHECK:           %[[INPART:.+]] = arith.cmpi slt, %[[J]], %[[END]] : index
// CHECK:           %[[CAUSAL:.+]] = arith.cmpi sle, %[[J]], %[[AT]] : index
// CHECK:           %[[VIS:.+]] = arith.andi %[[INPART]], %[[CAUSAL]] : i1
// CHECK:           %[[NINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK:           %[[SEL:.+]] = arith.select %[[VIS]], %[[SC]], %[[NINF]] : f32
// CHECK:           linalg.yield %[[SEL]] : f32
// CHECK:         %[[MAX:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$ID4]], #[[$ROW]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK:         %[[SUM:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[MASKED]], %[[MAX]] :
// CHECK:         %[[PROBS:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[MASKED]], %[[MAX]], %[[SUM]] :
// CHECK:           math.exp
// CHECK:           arith.divf
// CHECK:           arith.cmpf oeq
// CHECK:           arith.select
// CHECK:         %[[PPROBS:.+]] = tensor.extract_slice %[[PROBS]][0, 0, 0, 0] [2, 8, 1, %[[END]]] [1, 1, 1, 1] : tensor<2x8x1x64xf32> to tensor<2x8x1x?xf32>
// CHECK:         %[[OUT:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[$Q]], #[[$V]], #[[$S]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[PPROBS]], %[[VS]] :
// CHECK:         return %[[OUT]] : tensor<2x8x1x32xf32>
func.func @decode_attention_gqa(%q: tensor<2x8x1x16xf32>, %k: tensor<2x64x2x16xf32>,
                                %v: tensor<2x64x2x32xf32>, %len: tensor<i64>) -> tensor<2x8x1x32xf32> {
  %o = rlx.decode_attention %q, %k, %v, %len {num_kv_heads = 2 : i64}
      : tensor<2x8x1x16xf32>, tensor<2x64x2x16xf32>, tensor<2x64x2x32xf32>, tensor<i64>
  return %o : tensor<2x8x1x32xf32>
}

// -----

// With window = 8 and S = 2 queries the slice starts at clamp(length - S -
// 7, 0, end): the positions no query sees are never read. Query i's
// position is i + diag in the slice (diag = length - S - start), and a key
// is visible when it is <= that and > that - 8. bf16 scores accumulate in
// f32 and the result is truncated; the explicit scale replaces 1/sqrt(D).
// CHECK-LABEL: func.func @decode_attention_window_bf16(
// CHECK-SAME:    %[[Qa:[^:]+]]: tensor<1x8x2x16xbf16>, %[[Ka:[^:]+]]: tensor<1x64x2x16xbf16>
// CHECK:         %[[L:.+]] = arith.index_cast %{{.+}} : i64 to index
// CHECK:         %[[ZERO:.+]] = arith.constant 0 : index
// CHECK:         %[[NONNEG:.+]] = arith.maxsi %[[L]], %[[ZERO]] : index
// CHECK:         %[[END:.+]] = arith.minsi %[[NONNEG]], %{{.+}} : index
// CHECK:         %[[FIRST:.+]] = arith.subi %[[L]], %{{.+}} : index
// CHECK:         %[[REACH:.+]] = arith.constant 7 : index
// CHECK:         %[[LO:.+]] = arith.subi %[[FIRST]], %[[REACH]] : index
// CHECK:         %[[LO0:.+]] = arith.maxsi %[[LO]], %[[ZERO]] : index
// CHECK:         %[[START:.+]] = arith.minsi %[[LO0]], %[[END]] : index
// CHECK:         %[[SIZE:.+]] = arith.subi %[[END]], %[[START]] : index
// CHECK:         %[[DIAG:.+]] = arith.subi %[[FIRST]], %[[START]] : index
// CHECK:         %[[KS:.+]] = tensor.extract_slice %[[Ka]][0, %[[START]], 0, 0] [1, %[[SIZE]], 2, 16] [1, 1, 1, 1]
// CHECK:         tensor.extract_slice %{{.+}}[0, %[[START]], 0, 0] [1, %[[SIZE]], 2, 16] [1, 1, 1, 1]
// CHECK:         tensor.empty() : tensor<1x8x2x64xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[Qa]], %[[KS]] : tensor<1x8x2x16xbf16>, tensor<1x?x2x16xbf16>)
// CHECK-SAME:      outs(%{{.+}} : tensor<1x8x2x?xf32>)
// CHECK:           arith.extf %{{.+}} : bf16 to f32
// CHECK:         linalg.generic
// CHECK:           %[[SCALE:.+]] = arith.constant 5.000000e-01 : f32
// CHECK:           %[[SC:.+]] = arith.mulf %{{.+}}, %[[SCALE]] : f32
// CHECK:           %[[I:.+]] = linalg.index 2 : index
// CHECK:           %[[AT:.+]] = arith.addi %[[I]], %[[DIAG]] : index
// CHECK:           %[[J:.+]] = linalg.index 3 : index
// CHECK:           %[[INPART:.+]] = arith.cmpi slt, %[[J]], %[[SIZE]] : index
// CHECK:           %[[CAUSAL:.+]] = arith.cmpi sle, %[[J]], %[[AT]] : index
// CHECK:           %[[VIS0:.+]] = arith.andi %[[INPART]], %[[CAUSAL]] : i1
// CHECK:           %[[W:.+]] = arith.constant 8 : index
// CHECK:           %[[EDGE:.+]] = arith.subi %[[AT]], %[[W]] : index
// CHECK:           %[[INWIN:.+]] = arith.cmpi sgt, %[[J]], %[[EDGE]] : index
// CHECK:           %[[VIS:.+]] = arith.andi %[[VIS0]], %[[INWIN]] : i1
// CHECK:           arith.select %[[VIS]], %[[SC]], %{{.+}} : f32
// CHECK:         arith.truncf %{{.+}} : f32 to bf16
// CHECK:         return %{{.+}} : tensor<1x8x2x16xbf16>
func.func @decode_attention_window_bf16(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x64x2x16xbf16>,
                                        %v: tensor<1x64x2x16xbf16>, %len: tensor<i64>) -> tensor<1x8x2x16xbf16> {
  %o = rlx.decode_attention %q, %k, %v, %len {num_kv_heads = 2 : i64, window = 8 : i64, scale = 0.5 : f32}
      : tensor<1x8x2x16xbf16>, tensor<1x64x2x16xbf16>, tensor<1x64x2x16xbf16>, tensor<i64>
  return %o : tensor<1x8x2x16xbf16>
}

// -----

// Dynamic batch, query length, max_seq and value head dim: the sizes come
// from tensor.dim (the score rows are max_seq long); without grouping
// (H = Hkv) no floordiv.
// CHECK-DAG: #[[$K:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d4)>
// CHECK-LABEL: func.func @decode_attention_dynamic(
// CHECK-SAME:    %[[Qa:[^:]+]]: tensor<?x4x?x8xf32>, %[[Ka:[^:]+]]: tensor<?x?x4x8xf32>
// CHECK:         %[[NQ:.+]] = tensor.dim %[[Qa]], %{{.+}} : tensor<?x4x?x8xf32>
// CHECK:         %[[MAXSEQ:.+]] = tensor.dim %[[Ka]], %{{.+}} : tensor<?x?x4x8xf32>
// CHECK:         %[[END:.+]] = arith.minsi %{{.+}}, %[[MAXSEQ]] : index
// CHECK:         %[[KS:.+]] = tensor.extract_slice %[[Ka]][0, 0, 0, 0] [%{{.+}}, %[[END]], 4, 8] [1, 1, 1, 1] : tensor<?x?x4x8xf32> to tensor<?x?x4x8xf32>
// CHECK:         %[[ROWS:.+]] = tensor.empty(%{{.+}}, %[[NQ]], %[[MAXSEQ]]) : tensor<?x4x?x?xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [#{{.+}}, #[[$K]], #{{.+}}]
// CHECK-SAME:      ins(%[[Qa]], %[[KS]] :
// CHECK:         return %{{.+}} : tensor<?x4x?x?xf32>
func.func @decode_attention_dynamic(%q: tensor<?x4x?x8xf32>, %k: tensor<?x?x4x8xf32>,
                                    %v: tensor<?x?x4x?xf32>, %len: tensor<i64>) -> tensor<?x4x?x?xf32> {
  %o = rlx.decode_attention %q, %k, %v, %len {num_kv_heads = 4 : i64}
      : tensor<?x4x?x8xf32>, tensor<?x?x4x8xf32>, tensor<?x?x4x?xf32>, tensor<i64>
  return %o : tensor<?x4x?x?xf32>
}

// -----

// A decode step: both caches written at the position, then attention over
// the written caches. Bufferized, each write copies one row into its
// cache's buffer, the attention reads subviews of those buffers, and the
// function returns the argument buffers: no cache-sized buffer anywhere.
// BUF-LABEL: func.func @decode_step(
// BUF-SAME:    %[[Q:[^:]+]]: memref<1x4x1x8xf32>, %[[KC:[^:]+]]: memref<1x32x2x8xf32>, %[[VC:[^:]+]]: memref<1x32x2x8xf32>, %[[KN:[^:]+]]: memref<1x1x2x8xf32>, %[[VN:[^:]+]]: memref<1x1x2x8xf32>
// BUF-NOT:     memref.alloc() {{.*}} : memref<1x32x2x8xf32>
// BUF:         %[[KROW:.+]] = memref.subview %[[KC]][0, %{{.+}}, 0, 0] [1, 1, 2, 8]
// BUF-NEXT:    memref.copy %[[KN]], %[[KROW]]
// BUF:         %[[VROW:.+]] = memref.subview %[[VC]][0, %{{.+}}, 0, 0] [1, 1, 2, 8]
// BUF-NEXT:    memref.copy %[[VN]], %[[VROW]]
// BUF:         %[[KS:.+]] = memref.subview %[[KC]][0, 0, 0, 0] [1, %{{.+}}, 2, 8]
// BUF:         %[[VS:.+]] = memref.subview %[[VC]][0, 0, 0, 0] [1, %{{.+}}, 2, 8]
// BUF-NOT:     memref.alloc() {{.*}} : memref<1x32x2x8xf32>
// BUF-NOT:     memref.copy %[[KC]]
// BUF-NOT:     memref.copy %[[VC]]
// BUF:         return %{{.+}}, %[[KC]], %[[VC]] :
func.func @decode_step(%q: tensor<1x4x1x8xf32>, %kc: tensor<1x32x2x8xf32>,
                       %vc: tensor<1x32x2x8xf32>, %kn: tensor<1x1x2x8xf32>,
                       %vn: tensor<1x1x2x8xf32>, %pos: tensor<i64>,
                       %len: tensor<i64>)
    -> (tensor<1x4x1x8xf32>, tensor<1x32x2x8xf32>, tensor<1x32x2x8xf32>) {
  %k2 = rlx.kv_cache_write %kc, %kn, %pos : tensor<1x32x2x8xf32>, tensor<1x1x2x8xf32>, tensor<i64>
  %v2 = rlx.kv_cache_write %vc, %vn, %pos : tensor<1x32x2x8xf32>, tensor<1x1x2x8xf32>, tensor<i64>
  %o = rlx.decode_attention %q, %k2, %v2, %len {num_kv_heads = 2 : i64}
      : tensor<1x4x1x8xf32>, tensor<1x32x2x8xf32>, tensor<1x32x2x8xf32>, tensor<i64>
  return %o, %k2, %v2 : tensor<1x4x1x8xf32>, tensor<1x32x2x8xf32>, tensor<1x32x2x8xf32>
}

// -----

// A decode loop carrying the cache through rlx.while: each iteration
// writes one row into the carried buffer in place (the loop yields the
// buffer it received) and attends over it; the cache is never copied.
// BUF-LABEL: func.func @decode_loop(
// BUF-SAME:    %{{[^:]+}}: memref<1x4x1x8xf32>, %[[KC:[^:]+]]: memref<1x32x2x8xf32>, %[[KN:[^:]+]]: memref<1x1x2x8xf32>
// BUF-NOT:     memref.alloc() {{.*}} : memref<1x32x2x8xf32>
// BUF:         %[[R:.+]]:3 = scf.while (%[[C:[^ ]+]] = %[[KC]],
// BUF-NOT:     memref.alloc() {{.*}} : memref<1x32x2x8xf32>
// BUF:         } do {
// BUF-NEXT:    ^bb0(%[[CB:[^:]+]]: memref<1x32x2x8xf32>,
// BUF-NOT:     memref.alloc() {{.*}} : memref<1x32x2x8xf32>
// BUF:         %[[ROW:.+]] = memref.subview %[[CB]][0, %{{.+}}, 0, 0] [1, 1, 2, 8]
// BUF-NEXT:    memref.copy %[[KN]], %[[ROW]]
// BUF-NOT:     memref.alloc() {{.*}} : memref<1x32x2x8xf32>
// BUF:         scf.yield %[[CB]],
// BUF:         return %[[R]]#0, %[[R]]#2
func.func @decode_loop(%q: tensor<1x4x1x8xf32>, %kc: tensor<1x32x2x8xf32>, %kn: tensor<1x1x2x8xf32>,
                       %start: tensor<i64>, %stop: tensor<i64>) -> (tensor<1x32x2x8xf32>, tensor<1x4x1x8xf32>) {
  %one = rlx.constant dense<1> : tensor<i64>
  %r:3 = rlx.while (%kc, %start, %q) : (tensor<1x32x2x8xf32>, tensor<i64>, tensor<1x4x1x8xf32>) cond {
  ^bb0(%c: tensor<1x32x2x8xf32>, %p: tensor<i64>, %o: tensor<1x4x1x8xf32>):
    %b = rlx.cmp lt, %p, %stop : tensor<i64>
    rlx.yield %b : tensor<i1>
  } do {
  ^bb0(%c: tensor<1x32x2x8xf32>, %p: tensor<i64>, %o: tensor<1x4x1x8xf32>):
    %c2 = rlx.kv_cache_write %c, %kn, %p : tensor<1x32x2x8xf32>, tensor<1x1x2x8xf32>, tensor<i64>
    %n = rlx.add %p, %one : tensor<i64>
    %a = rlx.decode_attention %o, %c2, %c2, %n {num_kv_heads = 2 : i64}
        : tensor<1x4x1x8xf32>, tensor<1x32x2x8xf32>, tensor<1x32x2x8xf32>, tensor<i64>
    rlx.yield %c2, %n, %a : tensor<1x32x2x8xf32>, tensor<i64>, tensor<1x4x1x8xf32>
  }
  return %r#0, %r#2 : tensor<1x32x2x8xf32>, tensor<1x4x1x8xf32>
}

// -----

// Greedy sampling (temperature 0) is argmax: the row maxima of the logits
// (widened to f32), then the least index holding the maximum.
// CHECK-LABEL: func.func @sample_greedy(
// CHECK-SAME:    %[[L:[^:]+]]: tensor<3x7xf16>
// CHECK:         %[[X:.+]] = linalg.generic {{.+}} ins(%[[L]] : tensor<3x7xf16>) outs(%{{.+}} : tensor<3x7xf32>)
// CHECK:           arith.extf
// CHECK:         %[[MAX:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<3x7xf32>) outs(%{{.+}} : tensor<3xf32>)
// CHECK:           arith.maximumf
// CHECK:         %[[ARG:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "reduction"]} ins(%[[X]], %[[MAX]] : tensor<3x7xf32>, tensor<3xf32>) outs(%{{.+}} : tensor<3xi64>)
// CHECK:           %[[J:.+]] = arith.index_cast %{{.+}} : index to i64
// CHECK:           %[[MIN:.+]] = arith.minsi %{{.+}}, %[[J]] : i64
// CHECK:           %[[EQ:.+]] = arith.cmpf oeq
// CHECK:           arith.select %[[EQ]], %[[MIN]]
// CHECK-NOT:     scf.for
// CHECK:         return %[[ARG]] : tensor<3xi64>
func.func @sample_greedy(%logits: tensor<3x7xf16>, %seed: tensor<i64>) -> tensor<3xi64> {
  %0 = rlx.sample %logits, %seed {temperature = 0.0 : f32} : tensor<3x7xf16>, tensor<i64>
  return %0 : tensor<3xi64>
}

// -----

// A draw at a temperature: exp((x - max) / T) widened to f64, the kept
// total, u * total from splitmix64 of the seed and the row, then the token
// as the largest J with mass(j < J) <= u * total, searched over the
// ceil(log2(V + 1)) = 10 bits of the index in an scf.for carrying the [B]
// candidates, bounded by the last token of positive mass.
// CHECK-LABEL: func.func @sample_temperature(
// CHECK-SAME:    %[[L:[^:]+]]: tensor<2x1000xf32>, %[[S:[^:]+]]: tensor<i64>
// CHECK:         %[[E:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<2x1000xf64>)
// CHECK:           arith.divf
// CHECK:           math.exp %{{.+}} : f32
// CHECK:           arith.extf %{{.+}} : f32 to f64
// CHECK:         %[[SEED:.+]] = tensor.extract %[[S]][] : tensor<i64>
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK:           %[[ROW:.+]] = linalg.index 0 : index
// CHECK:           arith.constant -7046029254386353131 : i64
// CHECK:           arith.addi %[[SEED]]
// CHECK:           arith.constant -4658895280553007687 : i64
// CHECK:           arith.constant -7723592293110705685 : i64
// CHECK:           arith.uitofp
// CHECK:           arith.constant 5.9604644775390625E-8 : f64
// CHECK:         %[[C10:.+]] = arith.constant 10 : index
// CHECK:         %[[TOK:.+]] = scf.for %{{.+}} = %{{.+}} to %[[C10]] step %{{.+}} iter_args(%{{.+}} = %{{.+}}) -> (tensor<2xi64>)
// CHECK:           linalg.generic {{.+}} iterator_types = ["parallel", "reduction"]} ins(%[[E]], %{{.+}}, %[[R]] : tensor<2x1000xf64>, tensor<2xi64>, tensor<2xf64>)
// CHECK:             arith.cmpi slt
// CHECK:             arith.cmpf ole
// CHECK:           scf.yield
// CHECK:         %[[LAST:.+]] = linalg.generic {{.+}} ins(%[[E]] : tensor<2x1000xf64>) outs(%{{.+}} : tensor<2xi64>)
// CHECK:           arith.maxsi
// CHECK:         %[[OUT:.+]] = linalg.generic {{.+}} ins(%[[TOK]], %[[LAST]] : tensor<2xi64>, tensor<2xi64>)
// CHECK:           arith.minsi
// CHECK:         return %[[OUT]] : tensor<2xi64>
func.func @sample_temperature(%logits: tensor<2x1000xf32>, %seed: tensor<i64>) -> tensor<2xi64> {
  %0 = rlx.sample %logits, %seed {temperature = 0.5 : f32} : tensor<2x1000xf32>, tensor<i64>
  return %0 : tensor<2xi64>
}

// -----

// top_k and top_p on rank-1 logits (expanded to [1, V], the token
// collapsed to rank 0): each filter searches the 32 bits of the f32 order
// key (the logit's bits, negatives inverted, positives with the sign bit
// set), then the 10 bits of the index among its ties; the draw searches
// the index. No sort.
// CHECK-LABEL: func.func @sample_top_k_top_p(
// CHECK:         tensor.expand_shape %{{.+}} {{\[\[}}0, 1]] output_shape [1, 1000] : tensor<1000xf32> into tensor<1x1000xf32>
// CHECK:         %[[KEYS:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<1x1000xi32>)
// CHECK:           arith.bitcast %{{.+}} : f32 to i32
// CHECK:         %[[C32:.+]] = arith.constant 32 : index
// CHECK:         scf.for %{{.+}} = %{{.+}} to %[[C32]]
// CHECK:           arith.cmpi uge
// CHECK:           arith.cmpf oge
// CHECK:         %[[C10:.+]] = arith.constant 10 : index
// CHECK:         scf.for %{{.+}} = %{{.+}} to %[[C10]]
// CHECK:           arith.cmpf olt
// CHECK:         scf.for %{{.+}} = %{{.+}} to %[[C32]]
// CHECK:         scf.for %{{.+}} = %{{.+}} to %[[C10]]
// CHECK:         scf.for %{{.+}} = %{{.+}} to %[[C10]]
// CHECK-NOT:     scf.for
// CHECK:         %[[T:.+]] = tensor.collapse_shape %{{.+}} [] : tensor<1xi64> into tensor<i64>
// CHECK:         return %[[T]] : tensor<i64>
func.func @sample_top_k_top_p(%logits: tensor<1000xf32>, %seed: tensor<i64>) -> tensor<i64> {
  %0 = rlx.sample %logits, %seed {temperature = 0.7 : f32, top_k = 50 : i64, top_p = 0.9 : f32}
      : tensor<1000xf32>, tensor<i64>
  return %0 : tensor<i64>
}
