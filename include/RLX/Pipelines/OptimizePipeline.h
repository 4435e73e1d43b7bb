//===- OptimizePipeline.h - the rlx-optimize pipeline -----------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_PIPELINES_OPTIMIZEPIPELINE_H
#define RLX_PIPELINES_OPTIMIZEPIPELINE_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace rlx {

/// Options of `--rlx-optimize`.
struct OptimizePipelineOptions
    : public PassPipelineOptions<OptimizePipelineOptions> {
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("Target whose claimed ops fusion may emit and "
                     "legalization must reach: cpu, cuda, rocm, vulkan, "
                     "metal"),
      llvm::cl::init("cpu")};
};

/// The optimizer in the seeds' order: rlx_hir lowered to MIR, constant
/// folding and simplification (canonicalize, CSE), fusion for `target`,
/// legalization for `target`, then dead-code removal (canonicalize, CSE).
void buildOptimizePipeline(OpPassManager &pm,
                           const OptimizePipelineOptions &options);

/// Registers `--rlx-optimize`.
void registerOptimizePipeline();

} // namespace rlx
} // namespace mlir

#endif // RLX_PIPELINES_OPTIMIZEPIPELINE_H
