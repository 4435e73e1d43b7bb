//===- InitAllPasses.h - register every RLX pass ----------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One call to register the RLX passes and pipelines with the global pass
// registry.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_INITALLPASSES_H
#define RLX_INITALLPASSES_H

#include "RLX/Conversion/Passes.h"
#include "RLX/Dialect/HIR/Transforms/Passes.h"
#include "RLX/Dialect/LIR/Transforms/Passes.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"
#include "RLX/Pipelines/Pipelines.h"
#include "RLX/Transforms/Passes.h"

namespace mlir {
namespace rlx {

inline void registerAllPasses() {
  registerRLXHIRPasses();
  registerRLXLIRPasses();
  registerRLXMIRPasses();
  registerRLXConversionPasses();
  registerRLXTransformsPasses();
  registerCPUPipeline();
  registerCUDAPipeline();
  registerOptimizePipeline();
}

} // namespace rlx
} // namespace mlir

#endif // RLX_INITALLPASSES_H
