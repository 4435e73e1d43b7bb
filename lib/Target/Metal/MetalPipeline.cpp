//===- MetalPipeline.cpp - the rlx-metal-pipeline -------------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// --rlx-metal-pipeline: the GPU front (--rlx-to-gpu) for an Apple GPU's
// description, then the kernels' math that MSL lacks expanded
// (rlx-gpu-expand-math). Unlike the CUDA pipeline it stops at the GPU
// dialect: the MSL emitter (rlx-translate --rlx-to-msl) reads the kernels as
// they are.
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/Metal/MetalPipeline.h"

#include "RLX/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

rlx::GPUTargetDescription rlx::getMetalTargetDescription() {
  GPUTargetDescription target;
  target.name = "metal";
  target.subgroupSize = 32;
  target.maxThreadsPerBlock = 1024;
  target.sharedMemoryBytes = 32 * 1024;
  // MSL vectors have 2, 3 or 4 lanes: 8 bytes are a float2 or a half4.
  target.vectorBytes = 8;
  // Threadgroups per grid dim: kept at the least any GPU target guarantees.
  target.maxGridSize = {65535, 65535, 65535};
  // No Metal runtime library kernels (MPS) are called yet.
  target.runtimeMatmul = false;
  target.runtimeFlashAttention = false;
  target.runtimeDecodeAttention = false;
  return target;
}

void rlx::buildMetalPipeline(OpPassManager &pm,
                             const MetalPipelineOptions &options) {
  // rlx-legalize, inside the GPU front, looks the target up.
  registerMetalTarget();
  buildRLXToGPUPipeline(pm, options.choices(), getMetalTargetDescription());
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createGPUExpandMathPass());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
}

void rlx::registerMetalPipeline() {
  PassPipelineRegistration<MetalPipelineOptions>(
      "rlx-metal-pipeline",
      "Lower rlx_hir and rlx (MIR) through linalg, bufferization and the GPU "
      "front to gpu.module kernels for an Apple GPU, which "
      "rlx-translate --rlx-to-msl writes as Metal Shading Language",
      buildMetalPipeline);
}
