//===- CPUMergeKernels.cpp - one function of each set of equal ones -------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/CPU/Passes.h"
#include "RLX/Transforms/MergeEqualSymbols.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_CPUMERGEKERNELSPASS
#include "RLX/Target/CPU/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {

struct CPUMergeKernelsPass
    : rlx::impl::CPUMergeKernelsPassBase<CPUMergeKernelsPass> {
  void runOnOperation() override {
    // Private functions only: a public one may be called from outside.
    rlx::mergeEqualSymbols(getOperation(), [](Operation *op) {
      auto fn = dyn_cast<func::FuncOp>(op);
      return fn && fn.isPrivate() && !fn.isExternal();
    });
  }
};

} // namespace
