//===- GPUSinkConstants.cpp - constant buffers in the kernels' modules ----===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Bufferization makes a constant tensor a `memref.get_global` of a host
// global, which a kernel cannot read. Each gpu.launch that reads one gets
// its own `memref.get_global` (and the views of it the kernel reads):
// kernel outlining then copies the global into the kernel's gpu.module, the
// target's lowering makes it a device global with its initializer, and the
// data ships in the binary, loaded with the kernels. Upstream's sinking
// utility (sinkOperationsIntoLaunchOp) does the moving.
//
//===----------------------------------------------------------------------===//

#include "RLX/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_GPUSINKCONSTANTSPASS
#include "RLX/Conversion/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {

/// Whether `v` is a constant global's buffer or a view of one.
bool isConstantBuffer(Value v, SymbolTableCollection &symbols) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  auto get = v.getDefiningOp<memref::GetGlobalOp>();
  if (!get)
    return false;
  auto global =
      symbols.lookupNearestSymbolFrom<memref::GlobalOp>(get, get.getNameAttr());
  return global && global.getConstant();
}

struct GPUSinkConstantsPass
    : rlx::impl::GPUSinkConstantsPassBase<GPUSinkConstantsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SymbolTableCollection symbols;
    // Moved in: the constant buffers and views of them, and the index
    // constants those views take.
    auto sink = [&](Operation *op) {
      if (isa<arith::ConstantOp>(op))
        return true;
      return op->getNumResults() == 1 &&
             isa<MemRefType>(op->getResult(0).getType()) &&
             isConstantBuffer(op->getResult(0), symbols);
    };
    WalkResult result = func.walk([&](gpu::LaunchOp launch) {
      if (failed(sinkOperationsIntoLaunchOp(launch, sink)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();

    // What is still read outside the kernels has no device copy: host code
    // reading a constant (a runtime library call's operand), or a kernel
    // reading a global that is not constant.
    result = func.walk([&](memref::GetGlobalOp get) {
      if (get->getParentOfType<gpu::LaunchOp>())
        return WalkResult::advance();
      SmallVector<Value> buffers = {get.getResult()};
      while (!buffers.empty()) {
        for (Operation *user : buffers.pop_back_val().getUsers()) {
          if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
            buffers.push_back(view->getResult(0));
            continue;
          }
          // Its host address, for rlxGpuConstant's device copy
          // (rlx-gpu-call-runtime-kernels), reads nothing.
          if (isa<memref::ExtractAlignedPointerAsIndexOp>(user))
            continue;
          if (auto launch = user->getParentOfType<gpu::LaunchOp>())
            launch.emitError("rlx-gpu-sink-constants: a kernel reads global ")
                << get.getNameAttr()
                << ", which is not constant and lives in host memory";
          else
            user->emitError("rlx-gpu-sink-constants: host code reads constant ")
                << get.getNameAttr()
                << ", which lives in host memory (generated kernels read "
                   "constants from their module)";
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    // Host views and handles no one reads any more go, users first.
    SmallVector<Operation *> hostOps;
    func.walk([&](Operation *op) {
      if (!op->getParentOfType<gpu::LaunchOp>() &&
          (isa<memref::GetGlobalOp>(op) ||
           (isa<ViewLikeOpInterface>(op) && isMemoryEffectFree(op))))
        hostOps.push_back(op);
    });
    for (Operation *op : llvm::reverse(hostOps))
      if (op->use_empty())
        op->erase();
  }
};

} // namespace
