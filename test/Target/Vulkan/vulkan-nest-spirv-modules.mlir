// RUN: rlx-opt %s --split-input-file --rlx-vulkan-nest-spirv-modules -verify-diagnostics | FileCheck %s

// The kernel's spirv.module moves into its gpu.module, its version raised
// to the target's (1.5: storage buffers are entry point interfaces) and
// its subgroup size marked for the runtime; the gpu.func stays for the
// host's launch.
// CHECK-LABEL: gpu.module @k
// CHECK: gpu.func @k
// CHECK: spirv.module @__spv__k Logical GLSL450 requires #spirv.vce<v1.5, [Shader, GroupNonUniform], []>
// CHECK: spirv.GlobalVariable @__rlx_subgroup_size_8 : !spirv.ptr<i32, Private>
// CHECK-NOT: spirv.module
module attributes {gpu.container_module} {
  spirv.module @__spv__k Logical GLSL450 requires #spirv.vce<v1.0, [Shader, GroupNonUniform], []> attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.5, [Shader], []>, api=Vulkan, #spirv.resource_limits<subgroup_size = 8>>} {
  }
  gpu.module @k {
    gpu.func @k(%x: memref<4xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// Kernels without subgroup operations run at any subgroup size: no mark.
// CHECK-LABEL: gpu.module @elementwise
// CHECK: spirv.module @__spv__elementwise
// CHECK-NOT: __rlx_subgroup_size
module attributes {gpu.container_module} {
  spirv.module @__spv__elementwise Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.5, [Shader], []>, api=Vulkan, #spirv.resource_limits<subgroup_size = 8>>} {
  }
  gpu.module @elementwise {
    gpu.func @elementwise(%x: memref<4xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// convert-gpu-to-spirv runs first.
module attributes {gpu.container_module} {
  // expected-error @+1 {{'gpu.module' op has no SPIR-V module (@__spv__k): run convert-gpu-to-spirv first}}
  gpu.module @k {
    gpu.func @k(%x: memref<4xf32>) kernel {
      gpu.return
    }
  }
}
