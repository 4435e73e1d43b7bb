//===- PrintTargetOps.cpp - the rlx-print-target-ops pass -----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/Transforms/Passes.h"
#include "RLX/Dialect/MIR/Transforms/Targets.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace rlx {
#define GEN_PASS_DEF_PRINTTARGETOPSPASS
#include "RLX/Dialect/MIR/Transforms/Passes.h.inc"
} // namespace rlx
} // namespace mlir

using namespace mlir;
using namespace mlir::rlx;

namespace {
struct PrintTargetOpsPass
    : rlx::impl::PrintTargetOpsPassBase<PrintTargetOpsPass> {
  using Base::Base;
  void runOnOperation() override {
    FailureOr<const TargetOps *> claims =
        lookupTarget(target, getOperation()->getLoc());
    if (failed(claims))
      return signalPassFailure();
    llvm::raw_ostream &os = llvm::outs();
    os << "// target '" << target << "' claims " << (*claims)->ops.size()
       << " ops\n";
    os << "// broadcasts: "
       << ((*claims)->generalBroadcast ? "general" : "trailing only") << "\n";
    if ((*claims)->staticShapes)
      os << "// shapes: static only\n";
    for (StringRef op : (*claims)->ops)
      os << op << "\n";
    os.flush();
    markAllAnalysesPreserved();
  }
};
} // namespace
