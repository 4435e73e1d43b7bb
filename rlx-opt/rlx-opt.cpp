//===- rlx-opt.cpp - RLX optimizer driver ---------------------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// MLIR's opt driver with the RLX dialects and passes registered, next to the
// upstream dialects, extensions and passes that RLX's pipelines build on.
//
//===----------------------------------------------------------------------===//

#include "RLX/InitAllPasses.h"
#include "RLX/Tools/ToolSupport.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::rlx::registerAllPasses();

  mlir::DialectRegistry registry;
  mlir::rlx::registerToolDialects(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "RLX optimizer driver\n", registry));
}
