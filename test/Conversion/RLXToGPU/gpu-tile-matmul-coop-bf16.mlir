// RUN: rlx-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(rlx-gpu-tile-matmul{cooperative-matrix=bf16 coop-tile-m=32 coop-tile-n=32 coop-tile-k=16 coop-subgroups-m=2 coop-subgroups-n=1 subgroup-size=32}),canonicalize,cse)' \
// RUN:   | FileCheck %s
// RUN: rlx-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(rlx-gpu-tile-matmul{cooperative-matrix=bf16,bf16-as-f16 coop-tile-m=32 coop-tile-n=32 coop-tile-k=16 coop-subgroups-m=2 coop-subgroups-n=1 subgroup-size=32}),canonicalize,cse)' \
// RUN:   | FileCheck %s --check-prefix=BOTH

// cooperative-matrix=bf16: the operands stay bf16 and are staged as pairs
// in 32-bit words (gpu.subgroup_mma_load_matrix takes no bf16 or i16
// memref): each thread's 4 loaded elements are bitcast to 2 words and
// stored at the word of the first; the blocks (A [m][k], rows of 16 + 8
// elements; B [k][n], rows of 32 + 8) take half as many words, and the
// fragments are loaded at word offsets with word strides, typed f16
// (gpu.mma_matrix has no bf16) for rlx-vulkan-bf16-fragments to retype.
// CHECK-LABEL: func.func @pairs
// CHECK:       gpu.launch
// CHECK-SAME:    workgroup(%[[AS:[a-z0-9_]+]] : memref<384xi32, #gpu.address_space<workgroup>>, %[[BS:[a-z0-9_]+]] : memref<320xi32, #gpu.address_space<workgroup>>)
// CHECK:         %[[A:.+]] = vector.load %arg0[%{{.+}}, %{{.+}}] : memref<64x48xbf16>, vector<4xbf16>
// CHECK-NOT:     arith.extf
// CHECK:         %[[A0:.+]] = vector.bitcast %[[A]] : vector<4xbf16> to vector<2xi32>
// CHECK:         scf.for %{{.+}} = %c0 to %c48 step %c16 iter_args({{.*}}%[[AR:[a-z0-9_]+]] = %[[A0]],
// CHECK-SAME:      -> (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">, vector<2xi32>,
// CHECK:           vector.store %[[AR]], %[[AS]][%{{.+}}] : memref<384xi32, #gpu.address_space<workgroup>>, vector<2xi32>
// CHECK:           gpu.barrier
// CHECK:           scf.if %{{.+}} -> (vector<2xi32>,
// CHECK:           %[[FA:.+]] = gpu.subgroup_mma_load_matrix %[[AS]][%{{.+}}] {leadDimension = 12 : index} : memref<384xi32, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
// CHECK:           %[[FB:.+]] = gpu.subgroup_mma_load_matrix %[[BS]][%c0] {leadDimension = 20 : index} : memref<320xi32, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "BOp">
// CHECK:           %[[FB1:.+]] = gpu.subgroup_mma_load_matrix %[[BS]][%c8] {leadDimension = 20 : index}
// CHECK:           gpu.subgroup_mma_compute %[[FA]], %[[FB]], %{{.+}} : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
// CHECK-NOT:   linalg.matmul
// BOTH-LABEL:  func.func @pairs
// BOTH:          memref<384xi32, #gpu.address_space<workgroup>>
func.func @pairs(%a: memref<64x48xbf16>, %b: memref<48x64xbf16>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x48xbf16>, memref<48x64xbf16>)
                outs(%c : memref<64x64xf32>)
  return
}

// -----

// An f32 operand beside a bf16 one is rounded to bf16 before it is paired.
// CHECK-LABEL: func.func @f32_times_bf16
// CHECK:         %[[P:.+]] = vector.load %arg0[%{{.+}}, %{{.+}}] : memref<32x32xf32>, vector<4xf32>
// CHECK:         %[[R:.+]] = arith.truncf %[[P]] : vector<4xf32> to vector<4xbf16>
// CHECK:         vector.bitcast %[[R]] : vector<4xbf16> to vector<2xi32>
// CHECK:         vector.load %arg1[%{{.+}}, %{{.+}}] : memref<32x32xbf16>, vector<4xbf16>
func.func @f32_times_bf16(%p: memref<32x32xf32>, %v: memref<32x32xbf16>, %c: memref<32x32xf32>) {
  linalg.matmul ins(%p, %v : memref<32x32xf32>, memref<32x32xbf16>)
                outs(%c : memref<32x32xf32>)
  return
}

// -----

// A k of 33 leaves single elements to load, which pairs cannot hold: the
// matmul is not put on bf16 fragments. With bf16 alone it goes to the
// tiled kernel with a remark saying why; with bf16-as-f16 offered too, it
// runs on f16 fragments (its operands rounded to f16).
// CHECK-LABEL: func.func @odd
// CHECK:         gpu.launch
// CHECK-SAME:      workgroup(%{{.+}} : memref<1056xf32, #gpu.address_space<workgroup>>
// CHECK-NOT:     gpu.subgroup_mma_compute
// BOTH-LABEL:  func.func @odd
// BOTH:          workgroup(%{{.+}} : memref<768xf16, #gpu.address_space<workgroup>>
// BOTH:          arith.extf %{{.+}} : bf16 to f32
// BOTH:          arith.truncf %{{.+}} : f32 to f16
// BOTH:          gpu.subgroup_mma_compute
func.func @odd(%a: memref<32x33xbf16>, %b: memref<33x32xbf16>, %c: memref<32x32xf32>) {
  // expected-remark @below {{rlx-gpu-tile-matmul: not on cooperative matrices: bf16 fragments are staged in pairs of elements, which an operand not row-major along its contiguous dim or of odd extent along it does not allow (bf16-as-f16 takes it)}}
  linalg.matmul ins(%a, %b : memref<32x33xbf16>, memref<33x32xbf16>)
                outs(%c : memref<32x32xf32>)
  return
}
