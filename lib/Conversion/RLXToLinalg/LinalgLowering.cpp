//===- LinalgLowering.cpp - rlx to linalg, planned or not -----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Conversion/Passes.h"
#include "RLX/Dialect/LIR/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

void mlir::rlx::addRLXToLinalgPipeline(OpPassManager &pm, bool arena) {
  if (arena) {
    pm.addPass(createPlanMemoryPass());
    pm.addPass(createLowerLIRPass());
  }
  pm.addPass(createConvertRLXToLinalgPass());
  // Each kernel's result computes straight into its planned buffer. This
  // runs before CSE: CSE would merge the identical tensor.empty inits of two
  // kernels, and elimination would then give both one kernel's buffer.
  if (arena)
    pm.addPass(bufferization::createEmptyTensorEliminationPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}
