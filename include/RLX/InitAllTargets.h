//===- InitAllTargets.h - register every compilation target -----*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one list of the targets this build has: each registers itself with
// the target registry (RLX/Target/TargetRegistry.h) from its own folder.
// A new target adds its line here.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_INITALLTARGETS_H
#define RLX_INITALLTARGETS_H

#include "RLX/Target/CPU/CPUPipeline.h"
#include "RLX/Target/CUDA/CUDAPipeline.h"
#include "RLX/Target/Metal/MetalPipeline.h"
#include "RLX/Target/ROCm/ROCmPipeline.h"
#include "RLX/Target/Vulkan/VulkanPipeline.h"

namespace mlir {
namespace rlx {

/// Registers every target of this build, in the order `--target` lists
/// them; idempotent.
inline void registerAllTargets() {
  registerCPUTarget();
  registerCUDATarget();
  registerROCmTarget();
  registerVulkanTarget();
  registerMetalTarget();
}

} // namespace rlx
} // namespace mlir

#endif // RLX_INITALLTARGETS_H
