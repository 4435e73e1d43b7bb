//===- ROCmTarget.cpp - the rocm target's registration --------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `rocm` claims what `rlx-rocm-pipeline` compiles: the cuda target's GPU
// front, so what cuda claims but rlx.int8_matmul; static shapes only.
// rlx.scatter_add's atomic adds are LLVM atomicrmw instructions there too.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/Transforms/Targets.h"
#include "RLX/Target/ROCm/ROCmPipeline.h"
#include "RLX/Target/TargetRegistry.h"

using namespace mlir;
using namespace mlir::rlx;

void rlx::registerROCmTarget() {
  TargetInfo info;
  info.ops.name = "rocm";
  SmallVector<OpGroup> groups = kernelOpGroups();
  groups.push_back(OpGroup::Scatter);
  info.ops.ops = opsOfGroups(groups);
  info.ops.staticShapes = true;
  info.summary = "AMD GPUs: ROCDL kernels as an HSA code object in a host "
                 "object (rlx-rocm-pipeline), run by librlx_rocm_runtime";
  if (const ROCmChip *chip = lookupROCmChip(ROCmPipelineOptions().chip))
    info.gpu = getROCmTargetDescription(*chip);
  info.buildPipeline = [](OpPassManager &pm, const TargetCompileFlags &flags,
                          llvm::function_ref<void(const Twine &)> error) {
    ROCmPipelineOptions options;
    if (failed(parseGPUCompileFlags(options, flags, error)))
      return failure();
    if (flags.chip)
      options.chip = *flags.chip;
    if (flags.toolkit)
      options.toolkit = *flags.toolkit;
    if (failed(buildROCmPipeline(pm, options))) {
      error(unknownROCmChipMessage(options.chip));
      return failure();
    }
    return success();
  };
  info.deviceEntryPoints = true;
  info.binaryExtension = "hsaco";
  info.registerPasses = [] { registerROCmPipeline(); };
  registerTarget(std::move(info));
}
