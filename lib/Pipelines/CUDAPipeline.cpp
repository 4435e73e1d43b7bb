//===- CUDAPipeline.cpp - rlx-to-gpu and the rlx-cuda-pipeline ------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// --rlx-to-gpu: the front of the CPU pipeline (HIR lowering, legalization
// for the cuda target, attention that the runtime's flash kernel computes
// outlined for it unless attention=decomposed, matmuls that cuBLASLt
// computes outlined for it unless matmul=generated, linalg, elementwise
// fusion, one-shot bufferization), then results turned into out-parameters so
// that the caller owns every device buffer it sees, one kernel per row group or
// linalg op (rlx-gpu-map-linalg) after the outlined ops became
// rlxFlashAttention and rlxCublasLtMatmul calls, and upstream's kernel
// outlining. --rlx-cuda-pipeline goes on through upstream's GPU path: one
// stream per function (gpu-async-region), NVVM, gpu-to-llvm for the host
// side (calls to the mgpu* functions of librlx_cuda_runtime) and
// gpu-module-to-binary, which runs ptxas from the CUDA toolkit.
//
//===----------------------------------------------------------------------===//

#include "RLX/Pipelines/Pipelines.h"

#include "LinalgLowering.h"

#include "RLX/Dialect/HIR/Transforms/Passes.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"
#include "RLX/Transforms/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

template <typename Derived>
void rlx::buildRLXToGPUPipeline(OpPassManager &pm,
                                const GPUKernelOptions<Derived> &options) {
  pm.addPass(createLowerHIRPass());
  pm.addPass(createExpandAutodiffPass());
  // What the target does not claim is rewritten (rlx.if into rlx.where, a
  // bounded rlx.while unrolled) or an error at the op, before any of it
  // reaches a pass that cannot compile it.
  LegalizePassOptions legalize;
  legalize.target = "cuda";
  pm.addPass(createLegalizePass(legalize));
  bool flash = options.attention == GPUAttention::Flash;
  if (flash) {
    // Attention that the runtime's fused kernel takes is one call of it,
    // masks included; the rest goes on as below.
    GPUDispatchAttentionPassOptions dispatch;
    dispatch.report = options.dispatchReport;
    dispatch.chip = options.chip;
    pm.addPass(createGPUDispatchAttentionPass(dispatch));
  }
  if (options.matmul == GPUMatmul::CuBLASLt) {
    // The seeds' kernel-dispatch policy: matmul → bias → activation chains
    // become one cuBLASLt call with the epilogue, and so do the two
    // products of an attention that has no fused kernel here and no mask
    // or bias tensor (rlx-decompose-attention).
    pm.addPass(createDecomposeAttentionPass());
    pm.addNestedPass<func::FuncOp>(createFuseMatmulBiasActPass());
    GPUDispatchMatmulPassOptions dispatch;
    dispatch.report = options.dispatchReport;
    pm.addPass(createGPUDispatchMatmulPass(dispatch));
  }
  addLinalgLowering(pm, options.arena);
  // A producer that another kernel reads too is stored anyway; a kernel
  // that recomputed it would read the producer's inputs instead of it
  // (BERT's second layer norm recomputing the first from two tensors).
  if (!options.arena) {
    CPUFuseElementwisePassOptions fuse;
    fuse.maxBodyOps = 0;
    pm.addNestedPass<func::FuncOp>(createCPUFuseElementwisePass(fuse));
  }

  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createCopyRepeatedResultsPass());
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  bufferization::BufferDeallocationPipelineOptions dealloc;
  bufferization::buildBufferDeallocationPipeline(pm, dealloc);
  pm.addPass(createConvertBufferizationToMemRefPass());
  if (flash || options.matmul == GPUMatmul::CuBLASLt)
    pm.addPass(createGPUCallRuntimeKernelsPass());

  pm.addNestedPass<func::FuncOp>(createGPUInlineSplatConstantsPass());
  GPUMapLinalgPassOptions map;
  map.blockSize = options.blockSize;
  map.warpRows = options.warpRows;
  pm.addNestedPass<func::FuncOp>(createGPUMapLinalgPass(map));
  pm.addNestedPass<func::FuncOp>(createGPUSinkConstantsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createLowerAffinePass());
  // Canonicalization hoisted the kernels' constants (shuffle offsets, loop
  // bounds, the warp size) to the host function; outlining alone would pass
  // them as kernel arguments, unknown to the device compiler.
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  // Outlining copied the constant globals the kernels read into their
  // modules (rlx-gpu-sink-constants); the host's copies go.
  pm.addPass(createSymbolDCEPass());
  if (options.fastMath)
    pm.addNestedPass<gpu::GPUModuleOp>(createGPUFastMathPass());
}

template void
rlx::buildRLXToGPUPipeline(OpPassManager &,
                           const GPUKernelOptions<RLXToGPUOptions> &);
template void
rlx::buildRLXToGPUPipeline(OpPassManager &,
                           const GPUKernelOptions<CUDAPipelineOptions> &);

void rlx::buildCUDAPipeline(OpPassManager &pm,
                            const CUDAPipelineOptions &options) {
  buildRLXToGPUPipeline(pm, options);
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());

  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(target));
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createSCFToControlFlowPass());
  // Complex comparisons, division, exp and log expand into arith and math
  // ops; the NVVM conversion takes complex values and arithmetic alone.
  kernels.addPass(createConvertComplexToStandardPass());
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());

  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binary;
  binary.toolkitPath = options.toolkit;
  binary.compilationTarget = options.format;
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createCanonicalizerPass());
}

void rlx::registerCUDAPipeline() {
  PassPipelineRegistration<RLXToGPUOptions>(
      "rlx-to-gpu",
      "Lower rlx_hir and rlx (MIR) through linalg and bufferization to GPU "
      "kernels (one gpu.func per fused group or linalg op, in a gpu.module), "
      "runtime kernel calls (cuBLASLt, flash attention) and host functions "
      "that launch them",
      [](OpPassManager &pm, const RLXToGPUOptions &options) {
        buildRLXToGPUPipeline(pm, options);
      });
  PassPipelineRegistration<CUDAPipelineOptions>(
      "rlx-cuda-pipeline",
      "Lower rlx_hir and rlx (MIR) through linalg, bufferization and GPU "
      "kernels to the LLVM dialect with an embedded CUDA binary",
      buildCUDAPipeline);
}
