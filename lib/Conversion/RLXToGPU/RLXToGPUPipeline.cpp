//===- RLXToGPUPipeline.cpp - the rlx-to-gpu front ------------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// --rlx-to-gpu: the front of the CPU pipeline (HIR lowering, autodiff,
// legalization for the GPU, KV-cache writes and decode attention outlined
// for their kernels, attention that the runtime's flash kernel
// computes outlined for it unless attention=decomposed, matmuls that the
// runtime's library computes outlined for it unless matmul=generated,
// linalg, elementwise fusion, one-shot bufferization), then results turned
// into out-parameters so that the caller owns every device buffer it sees,
// the outlined ops as rlxFlashAttention and rlxGpuMatmul calls, the
// target's own passes, one kernel per row group or linalg op
// (rlx-gpu-map-linalg) shaped by the target description, and upstream's
// kernel outlining. Each GPU target's pipeline goes on from here to its
// own kernel IR and binary.
//
//===----------------------------------------------------------------------===//

#include "RLX/Conversion/RLXToGPU/RLXToGPU.h"

#include "RLX/Conversion/Passes.h"
#include "RLX/Dialect/HIR/Transforms/Passes.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void rlx::buildRLXToGPUPipeline(
    OpPassManager &pm, const GPUKernelChoices &choices,
    const GPUTargetDescription &target,
    llvm::function_ref<void(OpPassManager &)> beforeKernels) {
  pm.addPass(createLowerHIRPass());
  pm.addPass(createExpandAutodiffPass());
  pm.addPass(createPartitionPass());
  // What the target does not claim is rewritten (rlx.if into rlx.where, a
  // bounded rlx.while unrolled) or an error at the op, before any of it
  // reaches a pass that cannot compile it.
  LegalizePassOptions legalize;
  legalize.target = target.name;
  pm.addPass(createLegalizePass(legalize));
  // No kernel of the linalg mapper scatters: each rlx.scatter_add goes
  // into a function whose call becomes atomic kernels after bufferization.
  if (!choices.arena) {
    pm.addPass(createGPUOutlineScatterAddPass());
    // KV-cache writes and decode attention read a position or length in
    // device memory: each goes into a function whose call becomes a kernel
    // that reads it there.
    GPUDispatchDecodePassOptions decode;
    decode.runtimeKernel = target.runtimeDecodeAttention;
    pm.addPass(createGPUDispatchDecodePass(decode));
  }
  bool flash = choices.attention == GPUAttention::Flash;
  if (flash) {
    // Attention that the runtime's fused kernel takes is one call of it,
    // masks included; the rest goes on as below.
    GPUDispatchAttentionPassOptions dispatch;
    dispatch.report = choices.dispatchReport;
    dispatch.runtimeKernel = target.runtimeFlashAttention;
    pm.addPass(createGPUDispatchAttentionPass(dispatch));
  }
  bool library = choices.matmul == GPUMatmul::Library && target.runtimeMatmul;
  if (library) {
    // The seeds' kernel-dispatch policy: matmul → bias → activation chains
    // become one library call with the epilogue, and so do the two
    // products of an attention that has no fused kernel here and no mask
    // or bias tensor (rlx-decompose-attention).
    pm.addPass(createDecomposeAttentionPass());
    pm.addNestedPass<func::FuncOp>(createFuseMatmulBiasActPass());
    GPUDispatchMatmulPassOptions dispatch;
    dispatch.report = choices.dispatchReport;
    dispatch.int8Library = target.runtimeInt8Matmul;
    dispatch.fp8Activations = choices.fp8Activations;
    dispatch.fp8Library = target.runtimeFp8Matmul;
    dispatch.int8KMultiple = target.int8MatmulKMultiple;
    dispatch.fp8KMultiple = target.fp8MatmulKMultiple;
    dispatch.fp8NMultiple = target.fp8MatmulNMultiple;
    pm.addPass(createGPUDispatchMatmulPass(dispatch));
  }
  addRLXToLinalgPipeline(pm, choices.arena);
  // A producer that another kernel reads too is stored anyway; a kernel
  // that recomputed it would read the producer's inputs instead of it
  // (BERT's second layer norm recomputing the first from two tensors).
  if (!choices.arena) {
    LinalgFuseElementwisePassOptions fuse;
    fuse.maxBodyOps = 0;
    pm.addNestedPass<func::FuncOp>(createLinalgFuseElementwisePass(fuse));
  }

  LowerCollectivesPassOptions collectives;
  collectives.target = target.name;
  collectives.carried = target.runtimeCollectives;
  // A runtime that carries collectives on a GPU can run them on a stream
  // of their own, beside the program's work. Not with an arena, whose plan
  // knows nothing of a buffer read past its last use.
  collectives.overlap =
      choices.overlapCollectives && target.runtimeCollectives && !choices.arena;
  pm.addPass(createLowerCollectivesPass(collectives));
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(createCanonicalizerPass());
  // A function that writes an argument in place and returns it (an
  // outlined KV-cache write) returns nothing: its caller's buffer is the
  // result. Then the entry point's results that arguments hold in place
  // (rlx.in_place_result) leave its signature.
  pm.addPass(bufferization::createDropEquivalentBufferResultsPass());
  pm.addPass(createResultsInPlacePass());
  pm.addNestedPass<func::FuncOp>(createCopyRepeatedResultsPass());
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  bufferization::BufferDeallocationPipelineOptions dealloc;
  bufferization::buildBufferDeallocationPipeline(pm, dealloc);
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(createGPUCallRuntimeKernelsPass());
  if (!choices.arena) {
    pm.addPass(createGPUExpandScatterAddPass());
    pm.addPass(createGPUExpandKVCacheWritePass());
  }

  pm.addNestedPass<func::FuncOp>(createGPUInlineSplatConstantsPass());
  if (beforeKernels)
    beforeKernels(pm);
  GPUMapLinalgPassOptions map;
  map.blockSize = choices.blockSize;
  map.subgroupRows = choices.subgroupRows;
  map.subgroupSize = target.subgroupSize;
  map.maxThreadsPerBlock = target.maxThreadsPerBlock;
  map.sharedMemoryBytes = target.sharedMemoryBytes;
  map.vectorBytes = target.vectorBytes;
  pm.addNestedPass<func::FuncOp>(createGPUMapLinalgPass(map));
  pm.addNestedPass<func::FuncOp>(createDeallocAfterLastUsePass());
  pm.addNestedPass<func::FuncOp>(createGPUSinkConstantsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createLowerAffinePass());
  // Canonicalization hoisted the kernels' constants (shuffle offsets, loop
  // bounds, the subgroup size) to the host function; outlining alone would
  // pass them as kernel arguments, unknown to the device compiler.
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  // Outlining copied the constant globals the kernels read into their
  // modules (rlx-gpu-sink-constants); the host's copies go.
  pm.addPass(createSymbolDCEPass());
  // Equal layers outline into equal kernel modules: one of each is
  // compiled and assembled.
  pm.addPass(createGPUMergeKernelModulesPass());
  pm.addPass(createGPUHostGluePass());
  if (choices.fastMath)
    pm.addNestedPass<gpu::GPUModuleOp>(createGPUFastMathPass());
}

void rlx::buildGPUHostToLLVMPipeline(OpPassManager &pm,
                                     bool barePointerKernelArguments) {
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  GpuToLLVMConversionPassOptions toLLVM;
  toLLVM.kernelBarePtrCallConv = barePointerKernelArguments;
  pm.addPass(createGpuToLLVMConversionPass(toLLVM));
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void rlx::registerRLXToGPUPipeline() {
  PassPipelineRegistration<RLXToGPUOptions>(
      "rlx-to-gpu",
      "Lower rlx_hir and rlx (MIR) through linalg and bufferization to GPU "
      "kernels (one gpu.func per fused group or linalg op, in a gpu.module), "
      "runtime kernel calls (library matmul, flash attention) and host "
      "functions that launch them, for the target the options describe",
      [](OpPassManager &pm, const RLXToGPUOptions &options) {
        buildRLXToGPUPipeline(pm, options.choices(), options.description());
      });
}
