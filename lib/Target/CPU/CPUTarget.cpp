//===- CPUTarget.cpp - the cpu target's registration ----------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `cpu` is the backend of this repository: it claims every op that
// `--convert-rlx-to-linalg` lowers, that is every rlx op but the autodiff
// transforms (rlx.grad, rlx.jvp, rlx.vmap, which autodiff expands before
// lowering) and rlx.param (which `rlx-specialize-params` or
// `rlx-promote-params` removes). Fused ops and rlx.selective_scan lower
// through their primitive chains (the unfuse patterns are part of that
// conversion); linalg indexing maps take any broadcast and any shape.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/Transforms/Targets.h"
#include "RLX/Target/CPU/CPUPipeline.h"
#include "RLX/Target/CPU/Passes.h"
#include "RLX/Target/TargetRegistry.h"

using namespace mlir;
using namespace mlir::rlx;

void rlx::registerCPUTarget() {
  TargetInfo info;
  info.ops.name = "cpu";
  info.ops.ops = opsOfGroups(allOpGroups());
  info.summary = "this machine's CPU: an object with C entry points "
                 "(rlx-cpu-pipeline), or JIT-run by rlx-run";
  info.buildPipeline = [](OpPassManager &pm, const TargetCompileFlags &flags,
                          llvm::function_ref<void(const Twine &)> error) {
    CPUPipelineOptions options;
    if (failed(parsePipelineFlags(options, flags, error)))
      return failure();
    options.blas = flags.blas;
    buildCPUPipeline(pm, options);
    return success();
  };
  info.registerPasses = [] {
    registerRLXCPUPasses();
    registerCPUPipeline();
  };
  registerTarget(std::move(info));
}
