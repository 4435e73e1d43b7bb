//===- Passes.td - RLX Vulkan target passes ----------------*- tablegen -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TARGET_VULKAN_PASSES_TD
#define RLX_TARGET_VULKAN_PASSES_TD

include "mlir/Pass/PassBase.td"

def VulkanKernelABIPass : Pass<"rlx-vulkan-kernel-abi",
                               "::mlir::gpu::GPUModuleOp"> {
  let summary = "Give each kernel the SPIR-V entry point ABI and the "
                "module's target environment the device's limits";
  let description = [{
    Run by `--rlx-vulkan-pipeline` after `spirv-attach-target` and before
    `convert-gpu-to-spirv`, which needs both and which upstream's
    `spirv-attach-target` does not provide:

    - every `gpu.func` kernel gets `spirv.entry_point_abi` with the
      workgroup size of its `known_block_size` (the GPU front sets one on
      every kernel it makes; SPIR-V compute shaders fix their workgroup
      size in the module);
    - the module's `#spirv.target_env` gets `#spirv.resource_limits` with
      the subgroup size the row kernels' shuffles were built for (the
      lowering of `gpu.shuffle` checks its width against it) and the most
      invocations a workgroup may have; the same environment becomes the
      module's `spirv.target_env` attribute, where the conversions other
      than `convert-gpu-to-spirv` (`convert-math-to-spirv`) look for it
      (without it they assume the default one and emulate f16 and i8);
    - with `cooperative-matrix` (the operand types the device runs on
      cooperative matrices, as `rlx-gpu-tile-matmul` takes them), the
      resource limits list the configuration the kernels use,
      `#spirv.coop_matrix_props_khr` 16 x 16 x 16 f16 x f16 -> f32 at
      subgroup scope, and the environment must be SPIR-V 1.6 with the
      `CooperativeMatrixKHR` capability (MLIR's SPIR-V dialect puts the
      cooperative matrix ops at 1.6).

    A kernel without `known_block_size`, or one with an argument other
    than a memref (Vulkan kernels here take storage buffers only: scalars
    come from dynamic shapes, which the vulkan target does not claim), is
    an error at the kernel; a kernel that reads a constant array (a
    non-splat constant the GPU front sank into its module) is an error at
    the read, as upstream lowers `memref.get_global` to SPIR-V for OpenCL
    only; a math function on f64 other than sqrt, rsqrt, abs, fma and the
    roundings is an error at the op (GLSL.std.450 has the others for 16-
    and 32-bit floats only). An unknown `cooperative-matrix` entry, or
    cooperative matrices in an environment before SPIR-V 1.6 or without
    `CooperativeMatrixKHR`, is an error at the module.
  }];
  let options = [
    Option<"subgroupSize", "subgroup-size", "int64_t", "32",
           "Lanes of the device's subgroup the kernels were built for">,
    Option<"maxWorkgroupInvocations", "max-workgroup-invocations",
           "int64_t", "1024", "The most invocations of one workgroup">,
    ListOption<"cooperativeMatrix", "cooperative-matrix", "std::string",
               "Operand types the device runs on 16x16x16 cooperative "
               "matrices: f16, bf16, bf16-as-f16; none by default">,
  ];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect"];
}

def VulkanVectorBuffersPass : Pass<"rlx-vulkan-vector-buffers",
                                   "::mlir::ModuleOp"> {
  let summary = "Type kernel buffers read only in whole vectors as arrays "
                "of vectors";
  let description = [{
    SPIR-V's logical addressing reads a buffer of scalars one scalar at a
    time (see `rlx-vulkan-scalarize-vector-accesses`), so a row kernel's
    16-byte accesses would be four 4-byte ones. Where every access of a
    kernel's buffer argument is a `vector.load` or `vector.store` of the
    same N lanes of 32- or 16-bit elements (N = 2 or 4, or 8 of 16-bit
    ones) along its static, N-divisible
    innermost dim (the GPU front aligns them to N elements), the argument
    becomes a buffer of `vector<N x T>` and each access one load or store
    of an element at the innermost index divided by N: a 16-byte access in
    SPIR-V. SPIR-V vectors have at most 4 lanes, so 8 lanes of 16 bits
    become a buffer of `vector<4xi32>` and each access one 16-byte access
    of 4 words, the lanes unpacked from them (lane 2i the low half of word
    i, lane 2i + 1 the high half, as in memory: `arith.shrui`,
    `arith.trunci`, `arith.bitcast`) or packed into them (`arith.extui`,
    `arith.shli`, `arith.ori`), gathered with `vector.extract` /
    `vector.from_elements` (which canonicalization folds into the lanes'
    uses). (Two 8-byte accesses per 16 bytes took the H100's bf16
    softmax to 0.85-0.91 of our CUDA path's bandwidth.) The host passes
    the same buffer, cast to the new type (both are the same LLVM
    descriptor).

    ```mlir
    gpu.func @k(%m: memref<4x16xf32>, ...) kernel {
      %v = vector.load %m[%i, %j] : memref<4x16xf32>, vector<4xf32>
    // becomes
    gpu.func @k(%m: memref<4x4xvector<4xf32>>, ...) kernel {
      %j4 = arith.divui %j, %c4 : index
      %v = memref.load %m[%i, %j4] : memref<4x4xvector<4xf32>>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect"];
}

def VulkanScalarizeVectorAccessesPass
    : Pass<"rlx-vulkan-scalarize-vector-accesses",
           "::mlir::gpu::GPUModuleOp"> {
  let summary = "Split the kernels' vector loads and stores of buffers into "
                "scalar ones";
  let description = [{
    Upstream's SPIR-V lowering of a `vector.load` from a memref of scalars
    bitcasts the element pointer to a vector pointer, which SPIR-V's
    logical addressing (the Shader capability, Vulkan) forbids (`spirv-val`:
    "OpLoad Pointer is not a logical pointer"). So each 1-D `vector.load`
    and `vector.store` of a buffer becomes one `memref.load` or
    `memref.store` per lane at consecutive innermost indices; the lanes
    stay in registers as a vector.

    ```mlir
    %v = vector.load %m[%i, %j] : memref<4x16xf32>, vector<2xf32>
    // becomes
    %a = memref.load %m[%i, %j] : memref<4x16xf32>
    %j1 = arith.addi %j, %c1 : index
    %b = memref.load %m[%i, %j1] : memref<4x16xf32>
    %v = vector.from_elements %a, %b : vector<2xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect"];
}

def VulkanGuardEmptyLoopsPass : Pass<"rlx-vulkan-guard-empty-loops",
                                     "::mlir::gpu::GPUModuleOp"> {
  let summary = "Give loops with results an explicit zero-trip path";
  let description = [{
    Upstream's `scf.for` lowering to SPIR-V carries the loop's results in
    function variables that only the loop body stores: where the loop runs
    no iteration (a row kernel's lanes past the end of a short row), the
    result is the variable's undefined initial value instead of the
    `iter_args` init (lavapipe gives 0.0, so a row maximum of negative
    values came out 0). Each `scf.for` with results whose trip count may be
    zero is wrapped in an `scf.if` on `lb < ub` whose else branch yields
    the inits; `scf.if` stores its results on both branches.

    ```mlir
    %r = scf.for %i = %tid to %n step %c8 iter_args(%a = %init) -> (f32) {...}
    // becomes
    %c = arith.cmpi slt, %tid, %n : index
    %r = scf.if %c -> (f32) {
      %l = scf.for %i = %tid to %n step %c8 iter_args(%a = %init) -> (f32) {...}
      scf.yield %l : f32
    } else {
      scf.yield %init : f32
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def VulkanWorkgroupAllocsPass : Pass<"rlx-vulkan-workgroup-allocs",
                                     "::mlir::gpu::GPUModuleOp"> {
  let summary = "Turn kernels' workgroup attributions into workgroup "
                "allocations";
  let description = [{
    Upstream's `convert-gpu-to-spirv` does not lower a `gpu.func`'s
    workgroup attributions (the row kernels' partial values of each
    subgroup), but MemRef-to-SPIR-V lowers a `memref.alloc` in the
    Workgroup storage class to a Workgroup variable. Each attribution
    becomes such an allocation at the kernel's entry, in the
    `#spirv.storage_class<Workgroup>` memory space itself
    (`map-memref-spirv-storage-class` maps numeric memory spaces, not
    `#gpu.address_space`, and would retype the kernels' arguments, which
    the host's launches are verified against); an attribution used
    otherwise than by loads and stores (scalar, or of cooperative matrix
    fragments: `gpu.subgroup_mma_load_matrix` / `_store_matrix`) is an
    error.

    ```mlir
    gpu.func @k() workgroup(%w : memref<8xf32, #gpu.address_space<workgroup>>) kernel {...}
    // becomes
    gpu.func @k() kernel {
      %w = memref.alloc() : memref<8xf32, #spirv.storage_class<Workgroup>>
      ...
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::spirv::SPIRVDialect"];
}

def VulkanConstantArraysPass : Pass<"rlx-vulkan-constant-arrays",
                                     "::mlir::gpu::GPUModuleOp"> {
  let summary = "Build the kernels' small constant arrays in private memory";
  let description = [{
    The GPU front moves a non-splat constant that a kernel reads into the
    kernel's module as a `memref.global` (rlx-gpu-sink-constants), which
    upstream lowers to SPIR-V only for OpenCL. Here each read of a constant
    global of at most `max-elements` elements becomes a `memref.alloca` in
    the Function storage class, filled at the kernel's entry with one
    store per element (per-channel quantization scales, small tables);
    the global goes once nothing reads it. Larger constants are left for
    `rlx-vulkan-kernel-abi` to diagnose.

    ```mlir
    memref.global "private" constant @c : memref<2xf32> = dense<[1.0, 2.0]>
    gpu.func @k(...) kernel {
      %g = memref.get_global @c : memref<2xf32>
    // becomes
    gpu.func @k(...) kernel {
      %g = memref.alloca() : memref<2xf32, #spirv.storage_class<Function>>
      memref.store %cst1, %g[%c0] : ...
      memref.store %cst2, %g[%c1] : ...
    ```
  }];
  let options = [
    Option<"maxElements", "max-elements", "int64_t", "256",
           "The most elements of a constant built in private memory">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::spirv::SPIRVDialect"];
}

def VulkanBF16BuffersPass : Pass<"rlx-vulkan-bf16-buffers",
                                 "::mlir::ModuleOp"> {
  let summary = "Make the kernels' bf16 buffers 16-bit integer ones";
  let description = [{
    Vulkan devices without `VK_KHR_shader_bfloat16` (lavapipe, NVIDIA's
    driver here) have no bf16 type, and upstream's SPIR-V type conversion
    does not store a bf16 buffer as 16-bit words. So, once the kernels
    compute in f32 (`arith-emulate-unsupported-floats`) and convert with
    integer ops (`arith-expand{include-bf16}`), every `memref<...xbf16>`
    argument of a kernel becomes `memref<...xi16>`: its loads and stores
    go through `arith.bitcast` (which those conversions' bitcasts cancel),
    and the host passes the same buffer, cast to the new type, to the
    launch. Private bf16 tables (`memref.alloca`, from
    `rlx-vulkan-constant-arrays`) hold words the same way, and so do the
    bf16 values left (loop-carried, selected, constant): the SPIR-V
    conversion would take them for f32 values. A `arith.select` of bf16 values selects their words instead
    (the SPIR-V conversion takes bf16 scalars for f32 ones). A bf16 buffer
    used otherwise than by loads and stores is an error at the use.

    ```mlir
    gpu.func @k(%m: memref<8xbf16>) kernel {
      %v = memref.load %m[%i] : memref<8xbf16>
    // becomes
    gpu.func @k(%m: memref<8xi16>) kernel {
      %w = memref.load %m[%i] : memref<8xi16>
      %v = arith.bitcast %w : i16 to bf16
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def VulkanBF16FragmentsPass : Pass<"rlx-vulkan-bf16-fragments",
                                   "::mlir::spirv::ModuleOp"> {
  let summary = "Type the cooperative matrix fragments loaded from bf16 "
                "words as bf16";
  let description = [{
    `gpu.mma_matrix` has no bf16 (and `gpu.subgroup_mma_load_matrix` no
    i16 memref), so `rlx-gpu-tile-matmul`'s `cooperative-matrix=bf16`
    stages bf16 operands in workgroup memory as pairs in 32-bit words
    (i32) and loads f16-typed A and B fragments from them;
    `convert-gpu-to-spirv` makes those `spirv.KHR.CooperativeMatrixLoad`
    ops of f16 matrices through pointers to i32. This pass, after the
    conversion and `spirv-update-vce`, types every A or B fragment loaded
    from 32-bit integer memory as bf16 (SPV_KHR_bfloat16's type: the load
    reinterprets the words, as a cooperative load may), and adds the
    requirements `spirv-update-vce` cannot see: the `BFloat16TypeKHR` and
    `BFloat16CooperativeMatrixKHR` capabilities and the `SPV_KHR_bfloat16`
    extension. No other op of our kernels loads f16 fragments from integer
    memory. The device then multiplies bf16 x bf16 into f32 sums, without
    the rounding to f16 of `bf16-as-f16` (whose range ends at 65504).

    Such a fragment used otherwise than as a factor of
    `spirv.KHR.CooperativeMatrixMulAdd` is an error at the use; bf16
    fragments in a module whose target environment lacks the capability or
    extension (the Vulkan pipeline adds them with `cooperative-matrix=bf16`)
    are an error at the module.

    ```mlir
    %a = spirv.KHR.CooperativeMatrixLoad %p, %s, <RowMajor>
        : !spirv.ptr<i32, Workgroup>, i32
          -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>
    // becomes
    %a = spirv.KHR.CooperativeMatrixLoad %p, %s, <RowMajor>
        : !spirv.ptr<i32, Workgroup>, i32
          -> !spirv.coopmatrix<16x16xbf16, Subgroup, MatrixA>
    ```
  }];
}

def VulkanNestSPIRVModulesPass : Pass<"rlx-vulkan-nest-spirv-modules",
                                      "::mlir::ModuleOp"> {
  let summary = "Move each kernel's spirv.module into its gpu.module";
  let description = [{
    With the Shader capability (Vulkan), `convert-gpu-to-spirv` places the
    `spirv.module @__spv__<name>` it makes beside the `gpu.module @<name>`
    it came from, where `gpu-module-to-binary` (which serializes the first
    `spirv.module` inside a `gpu.module`) does not see it. This pass moves
    each one into its `gpu.module` (whose `gpu.func` kernels stay: the
    host's `gpu.launch_func` ops are verified against them until
    `gpu-module-to-binary` replaces the module). Each that uses subgroup
    operations gets an unused Private variable `@__rlx_subgroup_size_<N>`
    naming the subgroup size of its target environment, whose `OpName` librlx_vulkan_runtime reads to
    require that size of the device (or refuse the kernel). A module that
    reads a subgroup builtin (`SubgroupId`, from `gpu.subgroup_id`) gets
    the `GroupNonUniform` capability SPIR-V requires for it, which
    `spirv-update-vce` does not deduce from decorations. A `gpu.module`
    without its `spirv.module` is an error.

    ```mlir
    spirv.module @__spv__k Logical GLSL450 { ... }
    gpu.module @k [#spirv.target_env<...>] { gpu.func @k(...) kernel {...} }
    // becomes
    gpu.module @k [#spirv.target_env<...>] {
      gpu.func @k(...) kernel {...}
      spirv.module @__spv__k Logical GLSL450 { ... }
    }
    ```
  }];
}

#endif // RLX_TARGET_VULKAN_PASSES_TD
