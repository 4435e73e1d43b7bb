//===- CPUReassociateReductions.cpp - let reductions be reordered ---------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// LLVM's loop vectorizer keeps a float sum sequential (one lane, one add
// per cycle of latency) unless the adds may be reassociated. Marking the
// float arithmetic of each reduction `reassoc` lets it keep one partial sum
// per lane and combine them at the end: the sum of softmax's exponentials
// or of a norm's squares then runs at vector speed. The result differs
// from the sequential order by rounding only, and a tree of partial sums is
// usually closer to the exact sum than one long chain.
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/CPU/Passes.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_CPUREASSOCIATEREDUCTIONSPASS
#include "RLX/Target/CPU/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;

namespace {
struct CPUReassociateReductionsPass
    : rlx::impl::CPUReassociateReductionsPassBase<
          CPUReassociateReductionsPass> {
  void runOnOperation() override {
    getOperation().walk([](linalg::GenericOp op) {
      if (op.getNumReductionLoops() == 0)
        return;
      op.getBody()->walk([](arith::ArithFastMathInterface math) {
        arith::FastMathFlags flags = arith::FastMathFlags::reassoc;
        if (arith::FastMathFlagsAttr old = math.getFastMathFlagsAttr())
          flags = flags | old.getValue();
        math->setAttr(math.getFastMathAttrName(),
                      arith::FastMathFlagsAttr::get(math->getContext(), flags));
      });
    });
  }
};
} // namespace
