//===- HostGlue.cpp - host functions that LLVM need not optimize ----------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RLX/Transforms/HostGlue.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

void rlx::compileUnoptimized(Operation *fn) {
  Builder b(fn->getContext());
  fn->setAttr("passthrough", b.getStrArrayAttr({"noinline", "optnone"}));
}
