//===- rlx-plugin.cpp - RLX as a dialect and pass plugin --------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// librlx-plugin.so: RLX's dialects, passes and pipelines for any MLIR 22
// tool that loads plugins, such as Debian's stock mlir-opt-22:
//
//   mlir-opt-22 --load-dialect-plugin=librlx-plugin.so \
//               --load-pass-plugin=librlx-plugin.so \
//               --pass-pipeline='builtin.module(rlx-optimize)' in.mlir
//
// The plugin links the same libMLIR.so as the tool, so the TypeIDs of the
// upstream dialects and interfaces it uses are the tool's.
//
//===----------------------------------------------------------------------===//

#include "RLX/InitAllDialects.h"
#include "RLX/InitAllPasses.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

using namespace mlir;

/// Registers every RLX pass and pipeline once, whichever of the two plugin
/// entry points a tool calls first (mlir-opt may call both).
static void registerRLXPassesOnce() {
  static bool registered = [] {
    rlx::registerAllPasses();
    return true;
  }();
  (void)registered;
}

/// The dialect plugin: rlx_hir, rlx and rlx_lir with their interfaces, and
/// the passes, so that a tool that loads only the dialect plugin can run
/// them too.
extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "RLX", LLVM_VERSION_STRING,
          [](DialectRegistry *registry) {
            rlx::registerAllDialects(*registry);
            registerRLXPassesOnce();
          }};
}

/// The pass plugin: every RLX pass and pipeline.
extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "RLXPasses", LLVM_VERSION_STRING,
          []() { registerRLXPassesOnce(); }};
}
