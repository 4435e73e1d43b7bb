//===- CPUOutlineKernels.cpp - one function per kernel --------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The outlining itself is upstream's (scf::outlineSingleBlockRegion, on an
// scf.execute_region wrapped around the nest); what is RLX's is which nests
// are kernels and what moves into them with the nest.
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/CPU/Passes.h"
#include "RLX/Transforms/HostGlue.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_CPUOUTLINEKERNELSPASS
#include "RLX/Target/CPU/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {

/// A kernel: a loop nest, or a linalg op (on buffers) that becomes one.
bool isKernel(Operation *op) {
  return isa<scf::ForOp, scf::ParallelOp, linalg::LinalgOp>(op);
}

/// The outermost kernels of `fn`: kernels that no other kernel encloses.
SmallVector<Operation *> outermostKernels(func::FuncOp fn) {
  SmallVector<Operation *> kernels;
  fn.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!isKernel(op))
      return WalkResult::advance();
    kernels.push_back(op);
    return WalkResult::skip();
  });
  return kernels;
}

/// Whether `fn` computes nothing on data: no vector or math op and no float
/// arithmetic (what is left of a function once its kernels are outlined,
/// unless a computation too small for a loop stayed in it).
bool isGlue(func::FuncOp fn) {
  WalkResult result = fn.walk([](Operation *op) {
    if (op->hasTrait<OpTrait::ConstantLike>())
      return WalkResult::advance();
    StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
    bool floats = llvm::any_of(op->getResultTypes(), [](Type type) {
      return isa<FloatType>(getElementTypeOrSelf(type));
    });
    if (dialect == "vector" || dialect == "math" ||
        (dialect == "arith" && floats))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

/// Makes `region` self-contained where that keeps the kernel fast: the
/// constants it reads are cloned into it (an argument would hide their
/// value from LLVM), and the buffers that only it uses move into it (behind
/// a call boundary LLVM could no longer keep stack buffers in registers).
void sinkIntoRegion(RewriterBase &rewriter, Region &region) {
  Block &entry = region.front();
  auto inside = [&](Operation *user) {
    return region.isAncestor(user->getParentRegion());
  };
  llvm::SetVector<Value> above;
  getUsedValuesDefinedAbove(region, above);
  for (Value value : above) {
    Operation *def = value.getDefiningOp();
    if (!isa_and_nonnull<memref::AllocaOp, memref::AllocOp>(def))
      continue;
    SmallVector<Operation *> deallocs;
    for (Operation *user : value.getUsers())
      if (isa<memref::DeallocOp>(user) &&
          user->getBlock() == region.getParentOp()->getBlock())
        deallocs.push_back(user);
    if (!llvm::all_of(value.getUsers(), [&](Operation *user) {
          return inside(user) || llvm::is_contained(deallocs, user);
        }))
      continue;
    // A heap buffer moves with its deallocation: the scratch of a kernel
    // (a packed panel of B, a row's temporary hoisted out of the row loop)
    // is then each call's own, and each thread's once the kernel runs in
    // chunks (rlx-cpu-chunk-kernels). That holds for a buffer of dynamic
    // size too: its sizes are computed above the region and reach the
    // kernel as arguments (left outside, one buffer would be shared by
    // every thread of a chunked kernel).
    if (isa<memref::AllocOp>(def) && deallocs.size() != 1)
      continue;
    rewriter.moveOpBefore(def, &entry, entry.begin());
    for (Operation *dealloc : deallocs)
      rewriter.moveOpBefore(dealloc, entry.getTerminator());
  }
  // After the buffers, whose sizes may be constants.
  above.clear();
  getUsedValuesDefinedAbove(region, above);
  for (Value value : above) {
    Operation *def = value.getDefiningOp();
    if (!def || !matchPattern(def, m_Constant()))
      continue;
    rewriter.setInsertionPointToStart(&entry);
    Operation *copy = rewriter.clone(*def);
    rewriter.replaceUsesWithIf(value, copy->getResult(0), [&](OpOperand &use) {
      return inside(use.getOwner());
    });
  }
}

struct CPUOutlineKernelsPass
    : rlx::impl::CPUOutlineKernelsPassBase<CPUOutlineKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    IRRewriter rewriter(&getContext());
    SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
    for (func::FuncOp fn : functions) {
      if (fn.isExternal())
        continue;
      unsigned count = 0;
      for (Operation *loop : outermostKernels(fn)) {
        // The nest inside an scf.execute_region yielding its results: the
        // single-block region upstream's outlining takes.
        rewriter.setInsertionPoint(loop);
        auto region = scf::ExecuteRegionOp::create(rewriter, loop->getLoc(),
                                                   loop->getResultTypes());
        Block *body = rewriter.createBlock(&region.getRegion());
        rewriter.replaceAllUsesWith(loop->getResults(), region.getResults());
        rewriter.moveOpBefore(loop, body, body->end());
        rewriter.setInsertionPointToEnd(body);
        scf::YieldOp::create(rewriter, loop->getLoc(), loop->getResults());
        sinkIntoRegion(rewriter, region.getRegion());

        std::string name;
        do
          name = (fn.getName() + "_kernel" + Twine(count++)).str();
        while (symbols.lookup(name));
        func::CallOp call;
        FailureOr<func::FuncOp> kernel = outlineSingleBlockRegion(
            rewriter, loop->getLoc(), region.getRegion(), name, &call);
        if (failed(kernel)) {
          region.emitError("rlx-cpu-outline-kernels: cannot outline this "
                           "loop nest");
          return signalPassFailure();
        }
        kernel->setPrivate();
        // LLVM would inline a private function called once straight back;
        // func-to-llvm carries `passthrough` over to the llvm.func.
        (*kernel)->setAttr("passthrough", rewriter.getStrArrayAttr({"noinline"}));
        symbols.insert(*kernel);
        // The execute_region now only calls the kernel: the call replaces it.
        rewriter.moveOpBefore(call, region);
        rewriter.replaceOp(region, call->getResults());
      }
      // What is left is glue (allocations, views, calls): LLVM's optimizer
      // and instruction selection take time quadratic in one block of it
      // (DAG combining over a 24-layer model's calls: 4 s of the 8 s of
      // code generation; a gradient's 289 results in one aggregate: 15 s),
      // for code whose speed does not matter.
      if (isGlue(fn))
        rlx::compileUnoptimized(fn);
    }
  }
};

} // namespace
