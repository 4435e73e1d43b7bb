//===- rlx-fuzz-pipeline.cpp - fuzz an RLX pass pipeline ------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// libFuzzer target: each input that parses and verifies as a module runs
// through the pass pipeline named by $RLX_FUZZ_PIPELINE, written as for
// rlx-opt's --pass-pipeline inside `builtin.module(...)`, e.g.
// `rlx-optimize{target=cuda}` or `rlx-cpu-pipeline`. With
// $RLX_FUZZ_TO_LLVMIR=1 a module that the pipeline took to the LLVM dialect
// is translated to LLVM IR too. Failing passes are expected (diagnostics are
// swallowed); crashes, sanitizer findings and a pipeline that succeeds with
// a module that no longer verifies are bugs (the target aborts on the
// latter).
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "RLX/InitAllPasses.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>

using namespace mlir;

static std::string pipeline;
static bool toLLVMIR = false;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  mlir::registerAllPasses();
  rlx::registerAllPasses();
  const char *env = std::getenv("RLX_FUZZ_PIPELINE");
  if (!env || !*env) {
    llvm::errs() << "rlx-fuzz-pipeline: set RLX_FUZZ_PIPELINE to a pass "
                    "pipeline, e.g. 'rlx-optimize{target=cpu}'\n";
    std::exit(2);
  }
  pipeline = std::string("builtin.module(") + env + ")";
  const char *llvmir = std::getenv("RLX_FUZZ_TO_LLVMIR");
  toLLVMIR = llvmir && std::string(llvmir) == "1";
  // Check the pipeline once, loudly.
  MLIRContext context(rlx::fuzz::getRegistry());
  PassManager pm(&context);
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs()))) {
    llvm::errs() << "rlx-fuzz-pipeline: bad RLX_FUZZ_PIPELINE\n";
    std::exit(2);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext context(rlx::fuzz::getRegistry(),
                      MLIRContext::Threading::DISABLED);
  OwningOpRef<ModuleOp> module = rlx::fuzz::parseQuietly(context, data, size);
  if (!module)
    return 0;
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });
  PassManager pm(&context);
  if (failed(parsePassPipeline(pipeline, pm, llvm::nulls())))
    std::abort();
  // The pipeline's result is verified once, at the end: a pass manager that
  // verified between passes would report invalid IR as an ordinary failure.
  pm.enableVerifier(false);
  bool ok = succeeded(pm.run(*module));
  if (ok && failed(verify(*module))) {
    llvm::errs() << "rlx-fuzz-pipeline: the pipeline succeeded on IR that "
                    "no longer verifies; input:\n"
                 << StringRef(reinterpret_cast<const char *>(data), size)
                 << "\n";
    std::abort();
  }
  if (ok && toLLVMIR) {
    llvm::LLVMContext llvmContext;
    (void)translateModuleToLLVMIR(*module, llvmContext);
  }
  return 0;
}
