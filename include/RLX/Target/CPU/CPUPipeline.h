//===- CPUPipeline.h - the rlx-cpu-pipeline ---------------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TARGET_CPU_CPUPIPELINE_H
#define RLX_TARGET_CPU_CPUPIPELINE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace rlx {

/// Options of `--rlx-cpu-pipeline`.
struct CPUPipelineOptions : public PassPipelineOptions<CPUPipelineOptions> {
  PassOptions::Option<bool> fuseElementwise{
      *this, "fuse-elementwise",
      llvm::cl::desc("Fuse producer/consumer linalg.generic ops before "
                     "bufferization"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> tileRows{
      *this, "tile-rows",
      llvm::cl::desc("Run each group of row-wise ops (softmax, norms) as one "
                     "loop over rows"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> outlineKernels{
      *this, "outline-kernels",
      llvm::cl::desc("Compile each outermost loop nest as a function of its "
                     "own (rlx-cpu-outline-kernels): compile time linear in "
                     "the model's depth"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> threads{
      *this, "threads",
      llvm::cl::desc("Threads per kernel: 0 (default) for the runtime's "
                     "count (RLX_NUM_THREADS, else every CPU), 1 for code "
                     "with no threads, N for at most N (needs "
                     "outline-kernels)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> reassociateReductions{
      *this, "reassociate-reductions",
      llvm::cl::desc("Let float reductions be reordered so that they "
                     "vectorize (results change by rounding only)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> vectorizeMatmul{
      *this, "vectorize-matmul",
      llvm::cl::desc("Register-tile and vectorize f32/f64 matmuls whose "
                     "shapes fit the tiles (without blas)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> packPanels{
      *this, "pack-panels",
      llvm::cl::desc("With vectorize-matmul, copy each column panel of B "
                     "into a contiguous buffer before the row blocks that "
                     "read it (rlx-cpu-vectorize-matmul pack-panels; not "
                     "with arena, which allocates nothing else)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> arena{
      *this, "arena",
      llvm::cl::desc("Plan every intermediate into one arena "
                     "(--rlx-plan-memory) and run from it: one allocation "
                     "for the intermediates (parameters must be arguments)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> streamStores{
      *this, "stream-stores",
      llvm::cl::desc("Write the results of row groups (norms) larger than "
                     "the caches with non-temporal stores "
                     "(rlx-cpu-stream-stores)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> streamStageRows{
      *this, "stream-stage-rows",
      llvm::cl::desc("With stream-stores, stage on the stack a row that its "
                     "group reads back and scales in place (softmax), so "
                     "that its final write streams"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> streamPrefetch{
      *this, "stream-prefetch",
      llvm::cl::desc("With stream-stores, prefetch the next row of a "
                     "row group's inputs while writing this one (streamed "
                     "norms) or computing its exp (softmax)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> streamElementwise{
      *this, "stream-elementwise",
      llvm::cl::desc("With stream-stores, stream the large results of lone "
                     "elementwise ops (gelu) too"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> checkBounds{
      *this, "check-bounds",
      llvm::cl::desc("Insert runtime checks of memory accesses (upstream "
                     "generate-runtime-verification on the memref and linalg "
                     "ops): an out-of-bounds access aborts with the op's "
                     "location"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> blas{
      *this, "blas",
      llvm::cl::desc("Call the BLAS gemm found at run time for f32/f64 "
                     "matmuls instead of generated loops"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> overlapCollectives{
      *this, "overlap-collectives",
      llvm::cl::desc("Order a partitioned program for collectives that "
                     "overlap computation (rlx-lower-collectives' overlap; "
                     "the CPU runtime completes them at once, so only the "
                     "order changes)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> dequantKernels{
      *this, "dequant-kernels",
      llvm::cl::desc("Compute f32 dequant_matmuls of GGUF schemes with the "
                     "runtime's kernel, which decodes the weight in the "
                     "cache (rlx-cpu-outline-dequant-matmul)"),
      llvm::cl::init(true)};
};

/// rlx (MIR) -> linalg -> bufferized loops -> the LLVM dialect, ready for
/// the ExecutionEngine or for translation to an object file. Allocations
/// call `_mlir_memref_to_llvm_alloc` / `_mlir_memref_to_llvm_free`, which
/// the runtime provides.
void buildCPUPipeline(OpPassManager &pm, const CPUPipelineOptions &options);

/// Prepares `fn` to be called from outside: a C interface wrapper
/// (`_mlir_ciface_NAME`, see rlx-compile) and read-only arguments, so that
/// bufferization copies rather than writes into the caller's inputs.
void markCPUEntryPoint(func::FuncOp fn);

/// Registers `--rlx-cpu-pipeline`.
void registerCPUPipeline();

/// Registers the `cpu` target (its claims, pipeline and output) with the
/// target registry (RLX/Target/TargetRegistry.h); idempotent.
void registerCPUTarget();

} // namespace rlx
} // namespace mlir

#endif // RLX_TARGET_CPU_CPUPIPELINE_H
