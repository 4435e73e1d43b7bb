//===- CPUOrderLoops.cpp - contiguous innermost loops ---------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The interchange itself is upstream (linalg::interchangeGenericOp); this
// pass only picks, per op, the loop to put innermost from the operands'
// access patterns.
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_CPUORDERLOOPSPASS
#include "RLX/Target/CPU/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

/// True when every operand that reads loop `loop` reads it as its last dim
/// (a contiguous access); operands that do not read it are broadcast along
/// it, which is contiguous too.
static bool isContiguousLoop(linalg::GenericOp op, unsigned loop) {
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (unsigned r = 0; r < map.getNumResults(); ++r) {
      AffineExpr expr = map.getResult(r);
      if (!expr.isFunctionOfDim(loop))
        continue;
      // A compound index (e.g. h floordiv g) or a non-last dim is strided.
      if (!isa<AffineDimExpr>(expr) || r + 1 != map.getNumResults())
        return false;
    }
  }
  return true;
}

/// The loop to run innermost: the last contiguous parallel loop, else the
/// last reduction loop if it is contiguous. Only parallel loops move past
/// it, so every result element still accumulates in the same order.
static std::optional<unsigned> chooseInnermost(linalg::GenericOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (int l = iterators.size() - 1; l >= 0; --l)
    if (iterators[l] == utils::IteratorType::parallel &&
        isContiguousLoop(op, l))
      return l;
  for (int l = iterators.size() - 1; l >= 0; --l)
    if (iterators[l] == utils::IteratorType::reduction)
      return isContiguousLoop(op, l) ? std::optional<unsigned>(l)
                                     : std::nullopt;
  return std::nullopt;
}

namespace {
struct CPUOrderLoopsPass : rlx::impl::CPUOrderLoopsPassBase<CPUOrderLoopsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> ops;
    getOperation().walk([&](linalg::GenericOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : ops) {
      unsigned numLoops = op.getNumLoops();
      std::optional<unsigned> inner = chooseInnermost(op);
      if (!inner || *inner == numLoops - 1)
        continue;
      // interchangeVector[i] names the old loop that becomes loop i.
      SmallVector<unsigned> order;
      for (unsigned l = 0; l < numLoops; ++l)
        if (l != *inner)
          order.push_back(l);
      order.push_back(*inner);
      rewriter.setInsertionPoint(op);
      (void)linalg::interchangeGenericOp(rewriter, op, order);
    }
  }
};
} // namespace
