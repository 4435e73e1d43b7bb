//===- rlx-reduce.cpp - upstream mlir-reduce with RLX ---------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Upstream's test-case reducer with RLX's dialects and passes registered:
// it cuts a program on which an RLX pass crashes or fails down to a small
// reproducer, keeping what an interestingness script (exit code 1 = still
// interesting) says matters:
//
//   rlx-reduce in.mlir --reduction-tree='traversal-mode=0 test=./check.sh'
//
//===----------------------------------------------------------------------===//

#include "RLX/InitAllPasses.h"
#include "RLX/Tools/ToolSupport.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-reduce/MlirReduceMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::rlx::registerAllPasses();

  mlir::DialectRegistry registry;
  mlir::rlx::registerToolDialects(registry);
  mlir::MLIRContext context(registry);
  return mlir::failed(mlir::mlirReduceMain(argc, argv, context)) ? 1 : 0;
}
