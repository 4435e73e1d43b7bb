//===- Passes.cpp - C API of RLX's passes and pipelines -------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "rlx-c/Passes.h"

#include "RLX/InitAllPasses.h"

void rlxRegisterAllPasses(void) {
  // Pass registration is process-wide and may not repeat a name.
  static bool registered = [] {
    mlir::rlx::registerAllPasses();
    return true;
  }();
  (void)registered;
}
