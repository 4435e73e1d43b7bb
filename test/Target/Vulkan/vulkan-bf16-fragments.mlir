// RUN: rlx-opt %s --split-input-file --pass-pipeline='builtin.module(spirv.module(rlx-vulkan-bf16-fragments))' -verify-diagnostics | FileCheck %s

// A and B fragments loaded from 32-bit words (rlx-gpu-tile-matmul's bf16
// pairs) become bf16 ones, the MulAdd takes them as they are, and the
// module requires BFloat16TypeKHR, BFloat16CooperativeMatrixKHR and
// SPV_KHR_bfloat16 besides what it did; an f16 fragment loaded from f16
// memory and the accumulator loaded from f32 memory keep their types.
// CHECK-LABEL: spirv.module @pairs
// CHECK-SAME:    requires #spirv.vce<v1.6, [Shader, CooperativeMatrixKHR, Float16, BFloat16TypeKHR, BFloat16CooperativeMatrixKHR], [SPV_KHR_cooperative_matrix, SPV_KHR_bfloat16]>
// CHECK:         %[[A:.+]] = spirv.KHR.CooperativeMatrixLoad %{{.+}}, %{{.+}}, <RowMajor> : !spirv.ptr<i32, Workgroup>, i32 -> !spirv.coopmatrix<16x16xbf16, Subgroup, MatrixA>
// CHECK:         %[[B:.+]] = spirv.KHR.CooperativeMatrixLoad %{{.+}}, %{{.+}}, <ColumnMajor> : !spirv.ptr<i32, Workgroup>, i32 -> !spirv.coopmatrix<16x16xbf16, Subgroup, MatrixB>
// CHECK:         %[[C:.+]] = spirv.KHR.CooperativeMatrixLoad %{{.+}}, %{{.+}}, <RowMajor> : !spirv.ptr<f32, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
// CHECK:         spirv.KHR.CooperativeMatrixMulAdd %[[A]], %[[B]], %[[C]] : !spirv.coopmatrix<16x16xbf16, Subgroup, MatrixA>, !spirv.coopmatrix<16x16xbf16, Subgroup, MatrixB> -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
// CHECK:         spirv.KHR.CooperativeMatrixLoad %{{.+}}, %{{.+}}, <RowMajor> : !spirv.ptr<f16, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>
spirv.module @pairs Logical GLSL450 requires #spirv.vce<v1.6, [Shader, CooperativeMatrixKHR, Float16], [SPV_KHR_cooperative_matrix]>
    attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.6, [Shader, CooperativeMatrixKHR, Float16, BFloat16TypeKHR, BFloat16CooperativeMatrixKHR], [SPV_KHR_cooperative_matrix, SPV_KHR_bfloat16]>, #spirv.resource_limits<>>} {
  spirv.func @f(%w: !spirv.ptr<i32, Workgroup>, %acc: !spirv.ptr<f32, Workgroup>, %h: !spirv.ptr<f16, Workgroup>) "None" {
    %s = spirv.Constant 12 : i32
    %a = spirv.KHR.CooperativeMatrixLoad %w, %s, <RowMajor> : !spirv.ptr<i32, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>
    %b = spirv.KHR.CooperativeMatrixLoad %w, %s, <ColumnMajor> : !spirv.ptr<i32, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB>
    %c = spirv.KHR.CooperativeMatrixLoad %acc, %s, <RowMajor> : !spirv.ptr<f32, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
    %d = spirv.KHR.CooperativeMatrixMulAdd %a, %b, %c : !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>, !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB> -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
    %e = spirv.KHR.CooperativeMatrixLoad %h, %s, <RowMajor> : !spirv.ptr<f16, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>
    spirv.Return
  }
}

// -----

// Without fragments from words the module is left alone.
// CHECK-LABEL: spirv.module @halves
// CHECK-SAME:    requires #spirv.vce<v1.6, [Shader, CooperativeMatrixKHR, Float16], [SPV_KHR_cooperative_matrix]>
// CHECK:         -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>
spirv.module @halves Logical GLSL450 requires #spirv.vce<v1.6, [Shader, CooperativeMatrixKHR, Float16], [SPV_KHR_cooperative_matrix]> {
  spirv.func @f(%h: !spirv.ptr<f16, Workgroup>) "None" {
    %s = spirv.Constant 12 : i32
    %a = spirv.KHR.CooperativeMatrixLoad %h, %s, <RowMajor> : !spirv.ptr<f16, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>
    spirv.Return
  }
}

// -----

// bf16 fragments need the target environment's capability and extension
// (the Vulkan pipeline adds them with cooperative-matrix=bf16).
// expected-error @below {{'spirv.module' op has bf16 cooperative matrix fragments, which need the BFloat16CooperativeMatrixKHR capability and SPV_KHR_bfloat16 of its target environment}}
spirv.module @no_bf16 Logical GLSL450 requires #spirv.vce<v1.6, [Shader, CooperativeMatrixKHR, Float16], [SPV_KHR_cooperative_matrix]>
    attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.6, [Shader, CooperativeMatrixKHR, Float16], [SPV_KHR_cooperative_matrix]>, #spirv.resource_limits<>>} {
  spirv.func @f(%w: !spirv.ptr<i32, Workgroup>) "None" {
    %s = spirv.Constant 12 : i32
    %a = spirv.KHR.CooperativeMatrixLoad %w, %s, <RowMajor> : !spirv.ptr<i32, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>
    spirv.Return
  }
}

// -----

// A fragment from words used otherwise than as a MulAdd factor (here
// stored back) would change meaning with its type: an error at the use.
spirv.module @stored Logical GLSL450 requires #spirv.vce<v1.6, [Shader, CooperativeMatrixKHR, Float16], [SPV_KHR_cooperative_matrix]>
    attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.6, [Shader, CooperativeMatrixKHR, Float16, BFloat16TypeKHR, BFloat16CooperativeMatrixKHR], [SPV_KHR_cooperative_matrix, SPV_KHR_bfloat16]>, #spirv.resource_limits<>>} {
  spirv.func @f(%w: !spirv.ptr<i32, Workgroup>, %h: !spirv.ptr<f16, Workgroup>) "None" {
    %s = spirv.Constant 12 : i32
    %a = spirv.KHR.CooperativeMatrixLoad %w, %s, <RowMajor> : !spirv.ptr<i32, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>
    // expected-error @below {{'spirv.KHR.CooperativeMatrixStore' op uses a bf16 fragment (loaded from 32-bit words) otherwise than as a factor of spirv.KHR.CooperativeMatrixMulAdd}}
    spirv.KHR.CooperativeMatrixStore %h, %a, %s, <RowMajor> : !spirv.ptr<f16, Workgroup>, !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>, i32
    spirv.Return
  }
}
