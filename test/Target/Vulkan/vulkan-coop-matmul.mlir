// Matmuls on cooperative matrices through rlx-compile --target=vulkan with
// cooperative-matrix set: each function is one kernel (the accumulator's
// zero fill is gone, and its rounding to the 16-bit result is computed as
// the sums are stored), a SPIR-V 1.6 module with
// CooperativeMatrixKHR and SPV_KHR_cooperative_matrix, the GroupNonUniform
// their SubgroupId needs, and the subgroup-size mark the runtime requires;
// the operands are staged in 8-byte loads where their extents allow
// (the f16 one; the bf16 one's k of 33 does not), the fragments are loaded
// from workgroup memory (row-major or, for a transposed B, column-major,
// rows of 32 + 8 halves), and each fragment of sums goes through the
// subgroup's f32 scratch to the rounded 16-bit stores. Debian's
// spirv-val (SPIRV-Tools 2023.1) predates SPV_KHR_cooperative_matrix
// ("Invalid capability operand: 6022"), so the modules are checked by
// deserializing them with mlir-translate, which verifies them, and
// FileCheck; spirv-val accepts the other modules (fill, rounding), now
// SPIR-V 1.6, under Vulkan 1.3 and rejects the matmuls' only for the
// capability it does not know. Without cooperative-matrix the same
// program's modules are SPIR-V 1.5 and use no cooperative matrix.
// RUN: rm -rf %t && mkdir %t
// RUN: rlx-compile --target=vulkan --vulkan-options="cooperative-matrix=f16,bf16-as-f16" %s -o %t/coop.o --gpu-binaries=%t/coop
// RUN: mlir-translate --deserialize-spirv %t/coop/f16_kernel.spv | FileCheck %s --check-prefix=F16
// RUN: mlir-translate --deserialize-spirv %t/coop/bf16_kernel.spv | FileCheck %s --check-prefix=BF16
// RUN: %if spirv-val %{ for m in %t/coop/*.spv; do spirv-val --target-env vulkan1.3 $m 2>&1 | grep -v "Invalid capability operand: 6022$" || true; done | count 0 %}
// RUN: rlx-compile --target=vulkan %s -o %t/plain.o --gpu-binaries=%t/plain
// RUN: mlir-translate --deserialize-spirv %t/plain/f16_kernel_0.spv | FileCheck %s --check-prefix=PLAIN
// RUN: %if spirv-val %{ for m in %t/plain/*.spv; do spirv-val --target-env vulkan1.2 $m || echo "INVALID $m"; done | count 0 %}

// F16: spirv.module Logical GLSL450 requires #spirv.vce<v1.6, [{{.*}}CooperativeMatrixKHR{{.*}}GroupNonUniform{{.*}}], [{{.*}}SPV_KHR_cooperative_matrix{{.*}}]>
// F16-DAG: spirv.GlobalVariable @__rlx_subgroup_size_32
// F16-DAG: built_in("SubgroupId")
// F16-NOT: !spirv.ptr<f32, StorageBuffer>, i32 -> !spirv.coopmatrix
// F16: spirv.Load "StorageBuffer" %{{.+}} : vector<4xf16>
// F16: spirv.KHR.CooperativeMatrixLoad %{{.+}}, %{{.+}}, <RowMajor> : !spirv.ptr<f16, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>
// F16: spirv.KHR.CooperativeMatrixLoad %{{.+}}, %{{.+}}, <RowMajor> : !spirv.ptr<f16, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB>
// F16: spirv.KHR.CooperativeMatrixMulAdd
// F16: spirv.ControlBarrier
// F16: spirv.KHR.CooperativeMatrixStore %{{.+}}, %{{.+}}, %{{.+}}, <RowMajor> : !spirv.ptr<f32, Workgroup>, !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, i32
// F16: spirv.FConvert %{{.+}} : f32 to f16
// F16: spirv.Store "StorageBuffer" %{{.+}}, %{{.+}} : f16
// F16: spirv.ExecutionMode @{{.+}} "LocalSize", 256, 1, 1
func.func @f16(%a: tensor<256x64xf16>, %b: tensor<64x256xf16>) -> tensor<256x256xf16> {
  %c = rlx.matmul %a, %b : tensor<256x64xf16>, tensor<64x256xf16>
  return %c : tensor<256x256xf16>
}

// BF16: spirv.module Logical GLSL450 requires #spirv.vce<v1.6, [{{.*}}CooperativeMatrixKHR
// BF16-DAG: built_in("SubgroupLocalInvocationId")
// BF16-DAG: spirv.GlobalVariable @__workgroup_mem__2 : !spirv.ptr<!spirv.struct<(!spirv.array<2048 x f32>)>, Workgroup>
// BF16: spirv.FConvert %{{.+}} : f32 to f16
// BF16: spirv.KHR.CooperativeMatrixLoad %{{.+}}, %{{.+}}, <ColumnMajor> : !spirv.ptr<f16, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB>
// BF16: spirv.KHR.CooperativeMatrixMulAdd
// BF16: spirv.KHR.CooperativeMatrixStore %{{.+}}, %{{.+}}, %{{.+}}, <RowMajor> : !spirv.ptr<f32, Workgroup>, !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, i32
func.func @bf16(%a: tensor<129x33xbf16>, %b: tensor<65x33xbf16>) -> tensor<129x65xbf16> {
  %c = rlx.matmul %a, %b transpose_b true : tensor<129x33xbf16>, tensor<65x33xbf16>
  return %c : tensor<129x65xbf16>
}

// PLAIN: spirv.module Logical GLSL450 requires #spirv.vce<v1.5,
// PLAIN-NOT: Cooperative
