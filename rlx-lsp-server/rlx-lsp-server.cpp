//===- rlx-lsp-server.cpp - the MLIR language server with RLX -------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Upstream's MLIR language server (diagnostics, hover, go-to-definition,
// references, document symbols) with RLX's dialects registered beside
// upstream's, so that editors understand .mlir files that hold rlx_hir, rlx
// and rlx_lir ops. Point an editor's MLIR extension at this binary (VS
// Code: "mlir.server_path").
//
//===----------------------------------------------------------------------===//

#include "RLX/Tools/ToolSupport.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::rlx::registerToolDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry)) ? 1 : 0;
}
