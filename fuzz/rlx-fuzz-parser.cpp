//===- rlx-fuzz-parser.cpp - fuzz the parser, verifiers and printers ------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// libFuzzer target: each input is MLIR text parsed and verified with every
// dialect rlx-opt knows (the custom parsers, type inference and verifiers of
// rlx, rlx_hir and rlx_lir). A module that verifies is printed in the custom
// and in the generic form, and each printed form must parse again into a
// module that verifies: a failure there is a printer or parser bug, and the
// target aborts on it.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>

using namespace mlir;

/// Prints `module` (generic form if `generic`) and parses the text again in
/// a fresh context; aborts, printing both, if that fails.
static void checkRoundTrip(ModuleOp module, bool generic,
                           const std::string &input) {
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  if (generic)
    flags.printGenericOpForm();
  module.print(os, flags);
  MLIRContext again(rlx::fuzz::getRegistry(), MLIRContext::Threading::DISABLED);
  if (rlx::fuzz::parseQuietly(again,
                              reinterpret_cast<const uint8_t *>(text.data()),
                              text.size()))
    return;
  llvm::errs() << "rlx-fuzz-parser: the " << (generic ? "generic" : "custom")
               << " form of a valid module does not parse again.\ninput:\n"
               << input << "\nprinted:\n"
               << text << "\n";
  std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext context(rlx::fuzz::getRegistry(),
                      MLIRContext::Threading::DISABLED);
  OwningOpRef<ModuleOp> module = rlx::fuzz::parseQuietly(context, data, size);
  if (!module)
    return 0;
  std::string input(reinterpret_cast<const char *>(data), size);
  checkRoundTrip(*module, /*generic=*/false, input);
  checkRoundTrip(*module, /*generic=*/true, input);
  return 0;
}
