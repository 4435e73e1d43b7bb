//===- OptimizePipeline.cpp - the rlx-optimize pipeline -------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The seeds' optimizer order: constant folding, then fusion, then
// legalization, then dead-code elimination. Folding comes from the rlx
// ops' folders under upstream canonicalize; CSE and canonicalize also
// remove what fusion and legalization leave dead.
//
//===----------------------------------------------------------------------===//

#include "RLX/Pipelines/OptimizePipeline.h"

#include "RLX/Dialect/HIR/Transforms/Passes.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void rlx::buildOptimizePipeline(OpPassManager &pm,
                                const OptimizePipelineOptions &options) {
  pm.addPass(createLowerHIRPass());
  // rlx.grad, rlx.jvp and rlx.vmap become the ops they stand for, which
  // then fuse and legalize with the rest (no target claims the transforms).
  pm.addPass(createExpandAutodiffPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // A program annotated with shardings becomes one device's program before
  // fusion, which then fuses the local ops (a collective stays between the
  // ops it separates).
  pm.addPass(createPartitionPass());
  FusePassOptions fuse;
  fuse.target = options.target;
  pm.addPass(createFusePass(fuse));
  LegalizePassOptions legalize;
  legalize.target = options.target;
  pm.addPass(createLegalizePass(legalize));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void rlx::registerOptimizePipeline() {
  PassPipelineRegistration<OptimizePipelineOptions>(
      "rlx-optimize",
      "Optimize rlx_hir/rlx for a target: lower rlx_hir, expand autodiff "
      "transforms, fold constants, fuse, legalize, remove dead code",
      buildOptimizePipeline);
}
