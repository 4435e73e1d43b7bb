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
// A new target adds its line here, under its RLX_ENABLE_<T> (RLX/Config.h);
// cpu, the host target, is always built.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_INITALLTARGETS_H
#define RLX_INITALLTARGETS_H

#include "RLX/Config.h"
#include "RLX/Target/CPU/CPUPipeline.h"
#if RLX_ENABLE_CUDA
#include "RLX/Target/CUDA/CUDAPipeline.h"
#endif
#if RLX_ENABLE_ROCM
#include "RLX/Target/ROCm/ROCmPipeline.h"
#endif
#if RLX_ENABLE_VULKAN
#include "RLX/Target/Vulkan/VulkanPipeline.h"
#endif
#if RLX_ENABLE_METAL
#include "RLX/Target/Metal/MetalPipeline.h"
#endif

namespace mlir {
namespace rlx {

/// Registers every target of this build, in the order `--target` lists
/// them; idempotent.
inline void registerAllTargets() {
  registerCPUTarget();
#if RLX_ENABLE_CUDA
  registerCUDATarget();
#endif
#if RLX_ENABLE_ROCM
  registerROCmTarget();
#endif
#if RLX_ENABLE_VULKAN
  registerVulkanTarget();
#endif
#if RLX_ENABLE_METAL
  registerMetalTarget();
#endif
}

} // namespace rlx
} // namespace mlir

#endif // RLX_INITALLTARGETS_H
