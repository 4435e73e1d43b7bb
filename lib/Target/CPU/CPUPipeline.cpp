//===- CPUPipeline.cpp - the rlx-cpu-pipeline -----------------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Everything after convert-rlx-to-linalg is upstream MLIR but the choice of
// loop order (rlx-cpu-order-loops) and of what to fuse
// (rlx-linalg-fuse-elementwise): elementwise fusion, one-shot
// bufferization with ownership-based deallocation, linalg to loops, and the
// standard conversions to the LLVM dialect. SIMD comes from LLVM's loop
// vectorizer on the contiguous innermost loops.
//
//===----------------------------------------------------------------------===//

#include "RLX/Target/CPU/CPUPipeline.h"

#include "RLX/Conversion/Passes.h"
#include "RLX/Dialect/HIR/Transforms/Passes.h"
#include "RLX/Dialect/MIR/Transforms/Passes.h"
#include "RLX/Target/CPU/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void rlx::buildCPUPipeline(OpPassManager &pm,
                           const CPUPipelineOptions &options) {
  pm.addPass(createLowerHIRPass());
  pm.addPass(createExpandAutodiffPass());
  pm.addPass(createPartitionPass());
  // The arena path plans every buffer of one function: the outlined
  // products would be calls it cannot plan through.
  bool dequantKernels = options.dequantKernels && !options.arena;
  if (dequantKernels)
    pm.addPass(createCPUOutlineDequantMatmulPass());
  addRLXToLinalgPipeline(pm, options.arena);
  if (options.fuseElementwise && !options.arena)
    pm.addNestedPass<func::FuncOp>(createLinalgFuseElementwisePass());
  // With blas, matmuls stay linalg.generic for rlx-cpu-dispatch-blas.
  if (options.vectorizeMatmul && !options.blas) {
    CPUVectorizeMatmulPassOptions matmul;
    // A packed panel is a heap buffer of its own; the arena path keeps to
    // the arena, the results and the kernels' named temporaries.
    matmul.packPanels = options.packPanels && !options.arena;
    pm.addNestedPass<func::FuncOp>(createCPUVectorizeMatmulPass(matmul));
  }
  pm.addNestedPass<func::FuncOp>(createCPUOrderLoopsPass());
  if (options.tileRows) {
    pm.addNestedPass<func::FuncOp>(createCPUTileRowsPass());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
  }
  if (options.reassociateReductions)
    pm.addNestedPass<func::FuncOp>(createCPUReassociateReductionsPass());

  // Collectives read and write whole buffers: calls on tensors, which
  // bufferization gives contiguous buffers.
  LowerCollectivesPassOptions collectives;
  collectives.overlap = options.overlapCollectives;
  pm.addPass(createLowerCollectivesPass(collectives));
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // Loops (scan, while) carry fresh tensors each iteration.
  bufferize.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(createCanonicalizerPass());
  // Before the deallocation pipeline, which would return a copy of an
  // argument's buffer (the caller owns results).
  pm.addPass(createResultsInPlacePass());
  // Writing into planned buffers leaves copies of a buffer (or row) onto
  // itself through two equal views; CSE makes the views one, and the copy
  // folds away.
  if (options.arena) {
    pm.addPass(createCSEPass());
    pm.addPass(createCanonicalizerPass());
  }
  // Per-row temporaries: allocated once outside the row loop, on the stack,
  // where LLVM keeps them in registers.
  pm.addNestedPass<func::FuncOp>(bufferization::createBufferLoopHoistingPass());
  bufferization::PromoteBuffersToStackPassOptions toStack;
  toStack.maxAllocSizeInBytes = 4096;
  pm.addNestedPass<func::FuncOp>(
      bufferization::createPromoteBuffersToStackPass(toStack));
  bufferization::BufferDeallocationPipelineOptions dealloc;
  bufferization::buildBufferDeallocationPipeline(pm, dealloc);
  pm.addPass(createConvertBufferizationToMemRefPass());
  if (dequantKernels)
    pm.addPass(createCPUCallDequantMatmulPass());

  CPUDispatchBLASPassOptions dispatch;
  dispatch.floatGemms = options.blas;
  pm.addPass(createCPUDispatchBLASPass(dispatch));
  if (options.streamStores) {
    CPUStreamStoresPassOptions stream;
    stream.prefetch = options.streamPrefetch;
    stream.stageRows = options.streamStageRows;
    stream.elementwise = options.streamElementwise;
    pm.addNestedPass<func::FuncOp>(createCPUStreamStoresPass(stream));
  }
  // One function per kernel: the passes below and LLVM take time that
  // grows faster than one function's size, so a whole model as one
  // function compiles in time superlinear in its depth.
  // Threads: the parallel kernels run ranges of their iterations, which
  // the runtime's pool splits (rlx-cpu-call-thread-pool, below).
  bool threads = options.outlineKernels && options.threads != 1;
  if (options.outlineKernels) {
    pm.addPass(createCPUOutlineKernelsPass());
    // Equal layers outline into equal kernels: one of each is compiled.
    pm.addPass(createCPUMergeKernelsPass());
  }
  // Upstream's deallocation frees at the end of the block: a gradient
  // would hold every intermediate until it returns.
  pm.addNestedPass<func::FuncOp>(createDeallocAfterLastUsePass());
  if (threads)
    pm.addPass(createCPUChunkKernelsPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addNestedPass<func::FuncOp>(createCPULowerVectorsPass());
  VectorTransferToSCFOptions vectorToSCF;
  vectorToSCF.enableFullUnroll(true);
  pm.addNestedPass<func::FuncOp>(createConvertVectorToSCFPass(vectorToSCF));
  // Every memref access and view is now explicit (loops of memref.load and
  // memref.store, subviews); upstream's checks cover them. The vector
  // loads and stores of the vectorized matmul and the streamed stores are
  // not checked (vector ops have no runtime verification upstream).
  if (options.checkBounds)
    pm.addPass(createGenerateRuntimeVerificationPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // Complex division, exp and log expand into math ops, which the math
  // conversions after them lower.
  pm.addPass(createConvertComplexToStandardPass());
  pm.addNestedPass<func::FuncOp>(createCPUApproximateMathPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertComplexToLLVMPass());
  pm.addPass(createConvertVectorToLLVMPass());
  FinalizeMemRefToLLVMConversionPassOptions memrefToLLVM;
  memrefToLLVM.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefToLLVM));
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (threads) {
    CPUCallThreadPoolPassOptions pool;
    pool.threads = options.threads;
    pm.addPass(createCPUCallThreadPoolPass(pool));
  }
  pm.addPass(createCanonicalizerPass());
}

void rlx::markCPUEntryPoint(func::FuncOp fn) {
  MLIRContext *ctx = fn.getContext();
  fn->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(), UnitAttr::get(ctx));
  // The caller's tensors are read only, but for those that hold a result in
  // place (rlx-results-in-place).
  for (unsigned i = 0; i < fn.getNumArguments(); ++i)
    if (isa<TensorType>(fn.getArgument(i).getType()))
      fn.setArgAttr(i, bufferization::BufferizationDialect::kWritableAttrName,
                    BoolAttr::get(ctx, !!fn.getArgAttr(i, kInPlaceResultAttrName)));
}

void rlx::registerCPUPipeline() {
  PassPipelineRegistration<CPUPipelineOptions>(
      "rlx-cpu-pipeline",
      "Lower rlx_hir and rlx (MIR) through linalg and bufferization to the "
      "LLVM dialect for the CPU",
      buildCPUPipeline);
}
