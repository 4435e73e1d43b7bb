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
// RUN: rlx-compile --target=vulkan --vulkan-options="cooperative-matrix=f16,bf16,bf16-as-f16" %s -o %t/pairs.o --gpu-binaries=%t/pairs
// RUN: mlir-translate --deserialize-spirv %t/pairs/bf16_pairs_kernel.spv | FileCheck %s --check-prefix=PAIRS
// RUN: mlir-translate --deserialize-spirv %t/pairs/bf16_kernel.spv | FileCheck %s --check-prefix=ODD
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

// With cooperative-matrix=bf16 too (VK_KHR_shader_bfloat16's bf16
// fragments), a bf16 matmul whose operands' contiguous extents are even
// is staged as pairs of bf16 in 32-bit words and multiplied on bf16
// fragments: no conversion, and the module requires the bf16
// capabilities and extension. The odd one above (k = 33) is on bf16
// fragments too, its pairs gathered from 2-byte loads.
// PAIRS: spirv.module Logical GLSL450 requires #spirv.vce<v1.6, [{{.*}}CooperativeMatrixKHR{{.*}}BFloat16TypeKHR, BFloat16CooperativeMatrixKHR{{.*}}], [{{.*}}SPV_KHR_cooperative_matrix, SPV_KHR_bfloat16]>
// PAIRS-NOT: spirv.FConvert %{{.+}} : f32 to f16
// PAIRS: spirv.Load "StorageBuffer" %{{.+}} : vector<2xi16>
// PAIRS: spirv.Bitcast %{{.+}} : vector<2xi16> to i32
// PAIRS: spirv.KHR.CooperativeMatrixLoad %{{.+}}, %{{.+}}, <RowMajor> : !spirv.ptr<i32, Workgroup>, i32 -> !spirv.coopmatrix<16x16xbf16, Subgroup, MatrixA>
// PAIRS: spirv.KHR.CooperativeMatrixLoad %{{.+}}, %{{.+}}, <ColumnMajor> : !spirv.ptr<i32, Workgroup>, i32 -> !spirv.coopmatrix<16x16xbf16, Subgroup, MatrixB>
// PAIRS: spirv.KHR.CooperativeMatrixMulAdd %{{.+}}, %{{.+}}, %{{.+}} : !spirv.coopmatrix<16x16xbf16, Subgroup, MatrixA>, !spirv.coopmatrix<16x16xbf16, Subgroup, MatrixB> -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
// ODD: spirv.module Logical GLSL450 requires #spirv.vce<v1.6, [{{.*}}BFloat16CooperativeMatrixKHR
// ODD-NOT: spirv.FConvert %{{.+}} : f32 to f16
// ODD: spirv.Load "StorageBuffer" %{{.+}} : i16
// ODD: spirv.KHR.CooperativeMatrixLoad %{{.+}}, %{{.+}}, <RowMajor> : !spirv.ptr<i32, Workgroup>, i32 -> !spirv.coopmatrix<16x16xbf16, Subgroup, MatrixA>
func.func @bf16_pairs(%a: tensor<130x34xbf16>, %b: tensor<66x34xbf16>) -> tensor<130x66xbf16> {
  %c = rlx.matmul %a, %b transpose_b true : tensor<130x34xbf16>, tensor<66x34xbf16>
  return %c : tensor<130x66xbf16>
}

// PLAIN: spirv.module Logical GLSL450 requires #spirv.vce<v1.5,
// PLAIN-NOT: Cooperative
