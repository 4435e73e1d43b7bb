//===- GPUOutlineScatterAdd.cpp - rlx.scatter_add out for its kernels -----===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// rlx.scatter_add accumulates into places that its indices choose, which no
// linalg op (so no kernel of rlx-gpu-map-linalg) expresses; the CPU's loop
// over the indices would read device memory on the host. So the op moves
// into a function that bufferizes like any other, and after bufferization
// rlx-gpu-expand-scatter-add writes its kernels (RuntimeKernels.h).
//
//===----------------------------------------------------------------------===//

#include "RLX/Conversion/Passes.h"
#include "RLX/Conversion/RLXToGPU/RuntimeKernels.h"
#include "RLX/Dialect/MIR/IR/RLXOps.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_GPUOUTLINESCATTERADDPASS
#include "RLX/Conversion/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

namespace {

struct GPUOutlineScatterAddPass
    : rlx::impl::GPUOutlineScatterAddPassBase<GPUOutlineScatterAddPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<ScatterAddOp> ops;
    module.walk([&](ScatterAddOp op) {
      if (!isInRuntimeKernelFunction(op))
        ops.push_back(op);
    });
    SymbolTable symbols(module);
    for (ScatterAddOp op : ops) {
      if (isa<ComplexType>(op.getType().getElementType())) {
        op.emitOpError("adds complex values, which GPU atomics cannot");
        return signalPassFailure();
      }
      OpBuilder b(op);
      IRMapping map;
      int64_t axis = static_cast<int64_t>(op.getAxis());
      if (axis < 0)
        axis += op.getType().getRank();
      DictionaryAttr problem = b.getDictionaryAttr(
          b.getNamedAttr("axis", b.getI64IntegerAttr(axis)));
      func::CallOp call = outlineForRuntimeKernel(
          {op}, op->getOperands(), op.getResult(), "scatter_add",
          kScatterAddTag, problem, symbols, map);
      // The body (the CPU's loop, accumulating in place into its first
      // operand) must not write the caller's buffers: with read-only
      // arguments it accumulates into a copy and returns it, so the call
      // keeps its result, an out-parameter after bufferization.
      auto fn = cast<func::FuncOp>(symbols.lookup(call.getCallee()));
      for (unsigned i = 0; i < fn.getNumArguments(); ++i)
        fn.setArgAttr(i, "bufferization.writable", b.getBoolAttr(false));
      op.replaceAllUsesWith(call.getResult(0));
      op.erase();
    }
  }
};

} // namespace
