// RUN: rlx-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(rlx-gpu-tile-matmul{cooperative-matrix=bf16 coop-tile-m=32 coop-tile-n=32 coop-tile-k=16 coop-subgroups-m=2 coop-subgroups-n=1 subgroup-size=32}),canonicalize,cse)' \
// RUN:   | FileCheck %s
// RUN: rlx-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(rlx-gpu-tile-matmul{cooperative-matrix=bf16,bf16-as-f16 coop-tile-m=32 coop-tile-n=32 coop-tile-k=16 coop-subgroups-m=2 coop-subgroups-n=1 subgroup-size=32}),canonicalize,cse)' \
// RUN:   | FileCheck %s --check-prefix=BOTH
// RUN: rlx-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(rlx-gpu-tile-matmul{cooperative-matrix=bf16 coop-tile-m=32 coop-tile-n=32 coop-tile-k=16 coop-subgroups-m=2 coop-subgroups-n=2 subgroup-size=128}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FEW

// With 512 threads for a 32 x 16 block of A there are fewer pairs than
// threads: no matmul goes on bf16 fragments; each gets a remark and the
// tiled kernel.
// FEW: remark: rlx-gpu-tile-matmul: not on cooperative matrices: bf16 fragments are staged in pairs of elements, which the threads do not divide the blocks into (bf16-as-f16 takes it)
// FEW-NOT: gpu.subgroup_mma_compute

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

// A k of 33 leaves no aligned vector loads: each thread gathers its pair
// element by element, each under its own guard (the second one past k's
// end at the last step reads zero), into a vector that becomes one word.
// Both RUNs put it on bf16 fragments (bf16-as-f16 is not needed).
// CHECK-LABEL: func.func @odd
// CHECK:         gpu.launch
// CHECK-SAME:      workgroup(%{{.+}} : memref<384xi32, #gpu.address_space<workgroup>>
// CHECK:         %[[E0:.+]] = scf.if %{{.+}} -> (bf16) {
// CHECK:           memref.load %arg0[%{{.+}}, %{{.+}}] : memref<32x33xbf16>
// CHECK:         %[[E1:.+]] = scf.if %{{.+}} -> (bf16) {
// CHECK:           memref.load %arg0[%{{.+}}, %{{.+}}] : memref<32x33xbf16>
// CHECK:         %[[P:.+]] = vector.from_elements %[[E0]], %[[E1]] : vector<2xbf16>
// CHECK:         vector.bitcast %[[P]] : vector<2xbf16> to vector<1xi32>
// CHECK:         gpu.subgroup_mma_compute
// BOTH-LABEL:  func.func @odd
// BOTH:          workgroup(%{{.+}} : memref<384xi32, #gpu.address_space<workgroup>>
// BOTH-NOT:      arith.truncf
// BOTH:          gpu.subgroup_mma_compute
func.func @odd(%a: memref<32x33xbf16>, %b: memref<33x32xbf16>, %c: memref<32x32xf32>) {
  linalg.matmul ins(%a, %b : memref<32x33xbf16>, memref<33x32xbf16>)
                outs(%c : memref<32x32xf32>)
  return
}
