//===- ToolContext.cpp - the context of the compiling tools ---------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Apart from ToolSupport.cpp so that a tool that only reads programs
// (rlx-lsp-server, rlx-opt) does not link every target.
//
//===----------------------------------------------------------------------===//

#include "RLX/Tools/ToolSupport.h"

#include "RLX/InitAllTargets.h"

using namespace mlir;

std::unique_ptr<MLIRContext> rlx::createToolContext() {
  registerAllTargets();
  DialectRegistry registry;
  registerToolDialects(registry);
  auto context = std::make_unique<MLIRContext>(registry);
  context->loadAllAvailableDialects();
  return context;
}
