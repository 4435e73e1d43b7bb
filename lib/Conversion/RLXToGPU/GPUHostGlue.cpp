//===- GPUHostGlue.cpp - host functions compiled unoptimized --------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Conversion/Passes.h"
#include "RLX/Transforms/HostGlue.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_GPUHOSTGLUEPASS
#include "RLX/Conversion/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {

/// Below this many ops LLVM optimizes a host function in milliseconds, and
/// an optimized one launches its kernels a little sooner.
constexpr int64_t kLargeHostFunction = 500;

struct GPUHostGluePass : rlx::impl::GPUHostGluePassBase<GPUHostGluePass> {
  void runOnOperation() override {
    // Only the host module's own functions: kernels live in gpu.modules.
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      if (fn.isExternal())
        continue;
      int64_t ops = 0;
      fn.walk([&](Operation *) { ++ops; });
      if (ops > kLargeHostFunction)
        rlx::compileUnoptimized(fn);
    }
  }
};

} // namespace
