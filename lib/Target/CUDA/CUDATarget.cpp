//===- CUDATarget.cpp - the cuda target's registration --------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `cuda` claims what `rlx-cuda-pipeline` compiles: what cpu claims but the
// ops that carry buffers through host loops or read a value back to choose
// what runs (rlx.if, rlx.while, rlx.scan, rlx.selective_scan, rlx.topk,
// rlx.dense_solve; rlx-legalize rewrites rlx.if into rlx.where and unrolls
// a bounded rlx.while, the rest is an error), with int8 products
// (cuBLASLt's int8 kernels or generated ones) and rlx.scatter_add (atomic
// kernels, rlx-gpu-expand-scatter-add). Static shapes
// only (the GPU front's kernels have static sizes), so that a dynamic shape
// is an error at its op rather than in rlx-gpu-map-linalg.
//
//===----------------------------------------------------------------------===//

#include "RLX/Dialect/MIR/Transforms/Targets.h"
#include "RLX/Target/CUDA/CUDAPipeline.h"
#include "RLX/Target/CUDA/Passes.h"
#include "RLX/Target/TargetRegistry.h"

using namespace mlir;
using namespace mlir::rlx;

void rlx::registerCUDATarget() {
  TargetInfo info;
  info.ops.name = "cuda";
  SmallVector<OpGroup> groups = kernelOpGroups();
  groups.push_back(OpGroup::Int8Matmul);
  groups.push_back(OpGroup::Scatter);
  groups.push_back(OpGroup::KVCache);
  info.ops.ops = opsOfGroups(groups);
  info.ops.staticShapes = true;
  info.summary = "NVIDIA GPUs: NVVM kernels as a cubin in a host object "
                 "(rlx-cuda-pipeline), run by librlx_cuda_runtime";
  info.gpu = getCUDATargetDescription(CUDAPipelineOptions().chip);
  info.buildPipeline = [](OpPassManager &pm, const TargetCompileFlags &flags,
                          llvm::function_ref<void(const Twine &)> error) {
    CUDAPipelineOptions options;
    if (failed(parseGPUCompileFlags(options, flags, error)))
      return failure();
    if (flags.chip)
      options.chip = *flags.chip;
    if (flags.toolkit)
      options.toolkit = *flags.toolkit;
    buildCUDAPipeline(pm, options);
    return success();
  };
  info.deviceEntryPoints = true;
  info.binaryExtension = "cubin";
  info.registerPasses = [] {
    registerRLXCUDAPasses();
    registerCUDAPipeline();
  };
  registerTarget(std::move(info));
}
