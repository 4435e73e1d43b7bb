//===- VulkanPipeline.cpp - the rlx-vulkan-pipeline -----------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// --rlx-vulkan-pipeline: the GPU front (--rlx-to-gpu) for a Vulkan
// device's description, then upstream's SPIR-V path: spirv-attach-target
// (client_api=Vulkan), the entry point ABI and device limits that
// convert-gpu-to-spirv needs (rlx-vulkan-kernel-abi), convert-math-to-spirv
// before convert-gpu-to-spirv (so that math ops become GLSL.std.450 ones
// rather than failing to legalize), ABI lowering and the minimal
// version/capabilities/extensions (spirv-lower-abi-attrs,
// spirv-update-vce), the SPIR-V modules moved into their gpu.modules
// (rlx-vulkan-nest-spirv-modules) and serialized by gpu-module-to-binary.
// The host side goes through gpu-to-llvm with bare kernel pointers: the
// runtime binds each pointer as one storage buffer, from the pointer to the
// end of its allocation. (Upstream's interspersed sizes,
// intersperse-sizes-for-kernels, would give the bytes too, but reject i1
// buffers: a comparison's result.)
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/Vulkan/VulkanPipeline.h"

#include "RLX/Conversion/Passes.h"
#include "RLX/Target/Vulkan/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

rlx::GPUTargetDescription rlx::getVulkanTargetDescription(int64_t subgroupSize) {
  GPUTargetDescription target;
  target.name = "vulkan";
  target.subgroupSize = subgroupSize;
  target.maxThreadsPerBlock = 1024;
  // maxComputeSharedMemorySize: 32 KiB on lavapipe, 48 KiB on NVIDIA.
  target.sharedMemoryBytes = 32 * 1024;
  target.vectorBytes = 16;
  // maxComputeWorkGroupCount: Vulkan guarantees 65535 along each dim.
  target.maxGridSize = {65535, 65535, 65535};
  // No vendor matmul or attention library exists for Vulkan here.
  target.runtimeMatmul = false;
  target.runtimeFlashAttention = false;
  target.runtimeDecodeAttention = false;
  return target;
}

void rlx::buildVulkanPipeline(OpPassManager &pm,
                              const VulkanPipelineOptions &options) {
  // rlx-legalize, inside the GPU front, looks the target up.
  registerVulkanTarget();
  GPUKernelChoices choices = options.choices();
  // The front reduces a block's subgroups' partial values in one subgroup,
  // so a block has at most subgroupSize subgroups: 64 threads on lavapipe's
  // 8 lanes. An explicit block-size is kept (and checked by the front).
  if (!options.blockSize.hasValue())
    choices.blockSize =
        std::min<int64_t>(choices.blockSize, options.subgroupSize *
                                                 options.subgroupSize);
  GPUTargetDescription description =
      getVulkanTargetDescription(options.subgroupSize);
  // Every device known to offer VK_KHR_cooperative_matrix has at least
  // 48 KiB of workgroup memory (NVIDIA 48, AMD and Intel 64), which the
  // cooperative tiles' default shape needs.
  description.sharedMemoryBytes =
      options.cooperativeMatrix.empty() || options.sharedMemoryBytes.hasValue()
          ? options.sharedMemoryBytes
          : 48 * 1024;
  // bf16 fragments are f16-typed in the front until rlx-vulkan-bf16-fragments
  // retypes them in SPIR-V.
  description.cooperativeMatrix.assign(options.cooperativeMatrix.begin(),
                                       options.cooperativeMatrix.end());
  // No library computes matmuls here: they are tiled through workgroup
  // memory before the front maps what is left.
  auto tileMatmuls = [&](OpPassManager &pm) {
    if (!options.tiledMatmul)
      return;
    GPUTileMatmulPassOptions tile;
    tile.tileM = options.matmulTileM;
    tile.tileN = options.matmulTileN;
    tile.tileK = options.matmulTileK;
    tile.threadM = options.matmulThreadM;
    tile.threadN = options.matmulThreadN;
    tile.maxThreadsPerBlock = description.maxThreadsPerBlock;
    tile.sharedMemoryBytes = description.sharedMemoryBytes;
    tile.maxGridX = description.maxGridSize[0];
    tile.maxGridY = description.maxGridSize[1];
    tile.maxGridZ = description.maxGridSize[2];
    tile.cooperativeMatrix.assign(description.cooperativeMatrix.begin(),
                                  description.cooperativeMatrix.end());
    tile.coopTileM = options.coopTileM;
    tile.coopTileN = options.coopTileN;
    tile.coopTileK = options.coopTileK;
    tile.coopSubgroupsM = options.coopSubgroupsM;
    tile.coopSubgroupsN = options.coopSubgroupsN;
    tile.subgroupSize = description.subgroupSize;
    pm.addNestedPass<func::FuncOp>(createGPUTileMatmulPass(tile));
  };
  buildRLXToGPUPipeline(pm, choices, description, tileMatmuls);
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());

  // GLSL.std.450 has no erf: the same polynomial as for Metal.
  pm.addNestedPass<gpu::GPUModuleOp>(createGPUExpandMathPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertComplexToStandardPass());
  // 16-byte accesses where a buffer is only read in whole vectors; the
  // other vector accesses element by element.
  pm.addPass(createVulkanVectorBuffersPass());
  pm.addNestedPass<gpu::GPUModuleOp>(
      createVulkanScalarizeVectorAccessesPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createVulkanGuardEmptyLoopsPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createVulkanWorkgroupAllocsPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createVulkanConstantArraysPass());
  // bf16: computed in f32, converted with integer ops, stored as 16-bit
  // words (no bf16 type without VK_KHR_shader_bfloat16).
  arith::ArithEmulateUnsupportedFloatsOptions bf16;
  bf16.sourceTypeStrs = {"bf16"};
  bf16.targetTypeStr = "f32";
  pm.addNestedPass<gpu::GPUModuleOp>(
      arith::createArithEmulateUnsupportedFloats(bf16));
  math::MathExtendToSupportedTypesOptions bf16Math;
  bf16Math.extraTypeStrs = {"f16"};
  bf16Math.targetTypeStr = "f32";
  pm.addNestedPass<gpu::GPUModuleOp>(
      math::createMathExtendToSupportedTypes(bf16Math));
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addNestedPass<gpu::GPUModuleOp>(arith::createArithExpandOpsPass(expand));
  pm.addPass(createVulkanBF16BuffersPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());

  GpuSPIRVAttachTargetOptions target;
  bool cooperative = !options.cooperativeMatrix.empty();
  // MLIR's SPIR-V dialect puts the cooperative matrix ops at SPIR-V 1.6
  // (Vulkan 1.3's, which the runtime requires anyway); an explicit lower
  // version is refused by rlx-vulkan-kernel-abi.
  target.spirvVersion = cooperative && !options.spirvVersion.hasValue()
                            ? std::string("v1.6")
                            : std::string(options.spirvVersion);
  // Case-sensitive: "vulkan" is not a client API and fails silently.
  target.clientApi = "Vulkan";
  // What the kernels may use; spirv-update-vce keeps the subset a module
  // needs, which the runtime checks against the device's features.
  target.spirvCapabilities = {"Shader",
                              "GroupNonUniform",
                              "GroupNonUniformShuffle",
                              "GroupNonUniformArithmetic",
                              "Float16",
                              "Float64",
                              "Int8",
                              "Int16",
                              "Int64",
                              "StorageBuffer16BitAccess",
                              "StorageBuffer8BitAccess"};
  target.spirvExtensions = {"SPV_KHR_storage_buffer_storage_class",
                            "SPV_KHR_16bit_storage", "SPV_KHR_8bit_storage"};
  if (cooperative) {
    target.spirvCapabilities.push_back("CooperativeMatrixKHR");
    target.spirvExtensions.push_back("SPV_KHR_cooperative_matrix");
  }
  if (llvm::is_contained(options.cooperativeMatrix, "bf16")) {
    target.spirvCapabilities.push_back("BFloat16TypeKHR");
    target.spirvCapabilities.push_back("BFloat16CooperativeMatrixKHR");
    target.spirvExtensions.push_back("SPV_KHR_bfloat16");
  }
  pm.addPass(createGpuSPIRVAttachTarget(target));
  VulkanKernelABIPassOptions abi;
  abi.subgroupSize = options.subgroupSize;
  abi.cooperativeMatrix.assign(options.cooperativeMatrix.begin(),
                               options.cooperativeMatrix.end());
  pm.addNestedPass<gpu::GPUModuleOp>(createVulkanKernelABIPass(abi));
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertMathToSPIRVPass());
  pm.addPass(createConvertGPUToSPIRVPass());
  OpPassManager &spirvModules = pm.nest<spirv::ModuleOp>();
  spirvModules.addPass(spirv::createSPIRVLowerABIAttributesPass());
  spirvModules.addPass(createCanonicalizerPass());
  spirvModules.addPass(spirv::createSPIRVUpdateVCEPass());
  spirvModules.addPass(createVulkanBF16FragmentsPass());
  pm.addPass(createVulkanNestSPIRVModulesPass());

  // Serialized before the host side is lowered: gpu.launch_func's verifier
  // checks operands against a gpu.func's signature, which the interspersed
  // sizes no longer match, but not against a gpu.binary.
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "bin";
  pm.addPass(createGpuModuleToBinaryPass(binary));
  buildGPUHostToLLVMPipeline(pm, /*barePointerKernelArguments=*/true);
  pm.addPass(createCanonicalizerPass());
}

void rlx::registerVulkanPipeline() {
  PassPipelineRegistration<VulkanPipelineOptions>(
      "rlx-vulkan-pipeline",
      "Lower rlx_hir and rlx (MIR) through linalg, bufferization and the GPU "
      "front to SPIR-V compute shaders for Vulkan, embedded in host code "
      "lowered to the LLVM dialect that calls librlx_vulkan_runtime",
      buildVulkanPipeline);
}
