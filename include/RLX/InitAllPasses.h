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
#include "RLX/InitAllTargets.h" // and each target's <T>Pipeline.h
#include "RLX/Pipelines/OptimizePipeline.h"
#include "RLX/Target/TargetRegistry.h"

namespace mlir {
namespace rlx {

/// Registers every pass and named pipeline of RLX, with the passes and
/// pipelines of the targets this build registers (InitAllTargets.h).
inline void registerAllPasses() {
  // Passes with a target option (rlx-legalize, rlx-fuse, the pipelines)
  // look their target up in the registry.
  registerAllTargets();
  registerRLXHIRPasses();
  registerRLXLIRPasses();
  registerRLXMIRPasses();
  registerRLXConversionPasses();
  registerOptimizePipeline();
  registerRLXToGPUPipeline();
  // Each target's passes and pipelines (TargetInfo::registerPasses).
  registerTargetPasses();
}

} // namespace rlx
} // namespace mlir

#endif // RLX_INITALLPASSES_H
