//===- MetalTarget.cpp - the metal target's registration ------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `metal` claims what its backend compiles (rlx-metal-pipeline, the MSL
// emitter and the host description; test/Integration/Metal): what the GPU
// front makes kernels of, but host loops (rlx.cumsum, control flow), which
// the host description does not hold, rlx.topk and rlx.scatter_add, which
// the front does not take, and rlx.fused_attention_block (the seeds: "Metal
// may skip FuseAttentionBlock"). Its kernels take any broadcast, but
// legalization still expands non-trailing ones. Element types are not part
// of the claim: the emitter reports f64 at the op.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/Transforms/Targets.h"
#include "RLX/Target/Metal/MSLEmitter.h"
#include "RLX/Target/Metal/MetalPipeline.h"
#include "RLX/Target/TargetRegistry.h"

using namespace mlir;
using namespace mlir::rlx;

void rlx::registerMetalTarget() {
  TargetInfo info;
  info.ops.name = "metal";
  info.ops.ops =
      opsOfGroups({OpGroup::Elementwise, OpGroup::Shape, OpGroup::Reduction,
                   OpGroup::NN, OpGroup::Matmul, OpGroup::Quant,
                   OpGroup::Backward, OpGroup::FusedKernels});
  info.ops.generalBroadcast = false;
  info.summary = "Apple GPUs: Metal Shading Language source and a JSON host "
                 "description (rlx-metal-pipeline, --rlx-to-msl)";
  info.gpu = getMetalTargetDescription();
  info.buildPipeline = [](OpPassManager &pm, const TargetCompileFlags &flags,
                          llvm::function_ref<void(const Twine &)> error) {
    MetalPipelineOptions options;
    if (failed(parseGPUCompileFlags(options, flags, error)))
      return failure();
    buildMetalPipeline(pm, options);
    return success();
  };
  info.deviceEntryPoints = true;
  info.emitSource = [](ModuleOp module, raw_ostream &source,
                       raw_ostream &host) {
    if (failed(translateToMSL(module, source)))
      return failure();
    return translateToMetalHostDescription(module, host);
  };
  info.sourceExtension = "metal";
  info.registerPasses = [] { registerMetalPipeline(); };
  registerTarget(std::move(info));
}
