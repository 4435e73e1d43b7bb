//===- VulkanTarget.cpp - the vulkan target's registration ----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `vulkan` claims what `rlx-vulkan-pipeline` compiles and runs
// (test/Integration/Vulkan): the GPU front's kernels as SPIR-V, static
// shapes only, but no host loops over kernels that pass views at dynamic
// offsets (rlx.cumsum: a bare kernel pointer has no offset), no rlx.topk or
// rlx.scatter_add (the front does not take them), no complex values (so no
// fft family) and no rlx.dot_general (legalized to transpose, reshape and
// matmul).
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/Transforms/Targets.h"
#include "RLX/Target/TargetRegistry.h"
#include "RLX/Target/Vulkan/Passes.h"
#include "RLX/Target/Vulkan/VulkanPipeline.h"

using namespace mlir;
using namespace mlir::rlx;

void rlx::registerVulkanTarget() {
  TargetInfo info;
  info.ops.name = "vulkan";
  info.ops.ops = opsOfGroups(
      {OpGroup::Elementwise, OpGroup::Shape, OpGroup::Reduction, OpGroup::NN,
       OpGroup::Matmul, OpGroup::Quant, OpGroup::Backward,
       OpGroup::FusedKernels, OpGroup::FusedAttention});
  info.ops.staticShapes = true;
  info.summary = "Vulkan devices: SPIR-V kernels in a host object "
                 "(rlx-vulkan-pipeline), run by librlx_vulkan_runtime";
  info.gpu = getVulkanTargetDescription(VulkanPipelineOptions().subgroupSize);
  info.buildPipeline = [](OpPassManager &pm, const TargetCompileFlags &flags,
                          llvm::function_ref<void(const Twine &)> error) {
    VulkanPipelineOptions options;
    if (failed(parseGPUCompileFlags(options, flags, error)))
      return failure();
    buildVulkanPipeline(pm, options);
    return success();
  };
  info.deviceEntryPoints = true;
  info.binaryExtension = "spv";
  info.registerPasses = [] {
    registerRLXVulkanPasses();
    registerVulkanPipeline();
  };
  registerTarget(std::move(info));
}
