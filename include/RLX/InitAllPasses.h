//===- InitAllPasses.h - register every RLX pass and pipeline ---*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_INITALLPASSES_H
#define RLX_INITALLPASSES_H

#include "RLX/Conversion/Passes.h"
#include "RLX/Conversion/RLXToGPU/RLXToGPU.h"
#include "RLX/Dialect/HIR/Transforms/Passes.h"
#include "RLX/Dialect/LIR/Transforms/Passes.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"
#include "RLX/InitAllTargets.h"
#include "RLX/Pipelines/OptimizePipeline.h"
#include "RLX/Target/CPU/CPUPipeline.h"
#include "RLX/Target/CPU/Passes.h"
#include "RLX/Target/CUDA/CUDAPipeline.h"
#include "RLX/Target/CUDA/Passes.h"
#include "RLX/Target/Metal/MetalPipeline.h"
#include "RLX/Target/Metal/Passes.h"
#include "RLX/Target/ROCm/ROCmPipeline.h"
#include "RLX/Target/Vulkan/Passes.h"
#include "RLX/Target/Vulkan/VulkanPipeline.h"

namespace mlir {
namespace rlx {

inline void registerAllPasses() {
  // Passes with a target option (rlx-legalize, rlx-fuse, the pipelines)
  // look their target up in the registry.
  registerAllTargets();
  registerRLXHIRPasses();
  registerRLXLIRPasses();
  registerRLXMIRPasses();
  registerRLXConversionPasses();
  registerRLXCPUPasses();
  registerRLXCUDAPasses();
  registerRLXMetalPasses();
  registerRLXVulkanPasses();
  registerOptimizePipeline();
  registerRLXToGPUPipeline();
  registerCPUPipeline();
  registerCUDAPipeline();
  registerMetalPipeline();
  registerROCmPipeline();
  registerVulkanPipeline();
}

} // namespace rlx
} // namespace mlir

#endif // RLX_INITALLPASSES_H
