// RUN: rlx-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(rlx-vulkan-kernel-abi{subgroup-size=8 max-workgroup-invocations=256}))' -verify-diagnostics | FileCheck %s

// The entry point ABI from the front's block size, the subgroup size and
// workgroup limit in the target's resource limits, and the same target
// as the module's spirv.target_env attribute.
// CHECK-LABEL: gpu.module @rows
// CHECK-SAME: #spirv.resource_limits<max_compute_workgroup_invocations = 256, max_compute_workgroup_size = [256 : i32, 256 : i32, 64 : i32], subgroup_size = 8>
// CHECK-SAME: spirv.target_env = #spirv.target_env<{{.*}}subgroup_size = 8
// CHECK: gpu.func @rows
// CHECK-SAME: spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>
gpu.module @rows [#spirv.target_env<#spirv.vce<v1.5, [Shader], []>, api=Vulkan, #spirv.resource_limits<>>] {
  gpu.func @rows(%x: memref<4x16xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    gpu.return
  }
}

// -----

// A scalar argument (a dynamic size) has no storage buffer.
gpu.module @scalar [#spirv.target_env<#spirv.vce<v1.5, [Shader], []>, api=Vulkan, #spirv.resource_limits<>>] {
  // expected-error @+1 {{'gpu.func' op takes a 'index' argument: Vulkan kernels take storage buffers only}}
  gpu.func @scalar(%x: memref<?xf32>, %n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    gpu.return
  }
}

// -----

// The workgroup size is fixed in the module.
gpu.module @unknown [#spirv.target_env<#spirv.vce<v1.5, [Shader], []>, api=Vulkan, #spirv.resource_limits<>>] {
  // expected-error @+1 {{'gpu.func' op has no known_block_size: a Vulkan compute shader fixes its workgroup size}}
  gpu.func @unknown(%x: memref<4xf32>) kernel {
    gpu.return
  }
}

// -----

// spirv-attach-target runs first.
// expected-error @+1 {{'gpu.module' op has no target: run spirv-attach-target first}}
gpu.module @untargeted {
  gpu.func @k(%x: memref<4xf32>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
    gpu.return
  }
}

// -----

// A constant array the front sank into the kernel's module.
gpu.module @constant [#spirv.target_env<#spirv.vce<v1.5, [Shader], []>, api=Vulkan, #spirv.resource_limits<>>] {
  memref.global "private" constant @table : memref<3xf32> = dense<[1.0, 2.0, 3.0]>
  gpu.func @constant(%x: memref<3xf32>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
    // expected-error @+1 {{'memref.get_global' op reads the constant array @table, which the vulkan target cannot place in a SPIR-V module yet}}
    %t = memref.get_global @table : memref<3xf32>
    gpu.return
  }
}

// -----

// GLSL.std.450's exp takes 16- and 32-bit floats; f64 sqrt is fine.
gpu.module @f64 [#spirv.target_env<#spirv.vce<v1.5, [Shader], []>, api=Vulkan, #spirv.resource_limits<>>] {
  gpu.func @f64(%x: memref<4xf64>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
    %i = gpu.thread_id x
    %v = memref.load %x[%i] : memref<4xf64>
    %s = math.sqrt %v : f64
    // expected-error @+1 {{'math.exp' op on f64: GLSL.std.450 has this function for 16- and 32-bit floats only}}
    %e = math.exp %s : f64
    memref.store %e, %x[%i] : memref<4xf64>
    gpu.return
  }
}
