//===- GPUMergeKernelModules.cpp - one module of each set of equal ones ---===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Conversion/Passes.h"
#include "RLX/Transforms/MergeEqualSymbols.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_GPUMERGEKERNELMODULESPASS
#include "RLX/Conversion/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {

struct GPUMergeKernelModulesPass
    : rlx::impl::GPUMergeKernelModulesPassBase<GPUMergeKernelModulesPass> {
  void runOnOperation() override {
    rlx::mergeEqualSymbols(getOperation(), [](Operation *op) {
      return isa<gpu::GPUModuleOp>(op);
    });
  }
};

} // namespace
