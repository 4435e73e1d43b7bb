//===- Pipelines.h - RLX's named pass pipelines -----------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_PIPELINES_PIPELINES_H
#define RLX_PIPELINES_PIPELINES_H

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
  PassOptions::Option<bool> blas{
      *this, "blas",
      llvm::cl::desc("Call the BLAS gemm found at run time for f32/f64 "
                     "matmuls instead of generated loops"),
      llvm::cl::init(false)};
};

/// rlx (MIR) -> linalg -> bufferized loops -> the LLVM dialect, ready for
/// the ExecutionEngine or for translation to an object file. Allocations
/// call `_mlir_memref_to_llvm_alloc` / `_mlir_memref_to_llvm_free`, which
/// the runtime provides.
void buildCPUPipeline(OpPassManager &pm, const CPUPipelineOptions &options);

/// Where --rlx-to-gpu and --rlx-cuda-pipeline run matmuls (the seeds'
/// kernel-dispatch policy).
enum class GPUMatmul { CuBLASLt, Generated };

/// Where --rlx-to-gpu and --rlx-cuda-pipeline run attention.
enum class GPUAttention { Flash, Decomposed };

/// Options shared by `--rlx-to-gpu` and `--rlx-cuda-pipeline`: how RLX
/// programs become GPU kernels and runtime calls. A template over the
/// options struct that derives from it, as PassPipelineOptions needs.
template <typename Derived>
struct GPUKernelOptions : public PassPipelineOptions<Derived> {
  // The base is dependent here: its Option template is not found by name.
  template <typename T> using Option = ::mlir::detail::PassOptions::Option<T>;

  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("GPU architecture, e.g. sm_90"),
                           llvm::cl::init("sm_90")};
  Option<int64_t> blockSize{*this, "block-size",
                            llvm::cl::desc("Threads per block of each kernel"),
                            llvm::cl::init(256)};
  Option<GPUMatmul> matmul{
      *this, "matmul", llvm::cl::desc("Where matmuls run on the GPU"),
      llvm::cl::init(GPUMatmul::CuBLASLt),
      llvm::cl::values(
          clEnumValN(GPUMatmul::CuBLASLt, "cublaslt",
                     "cuBLASLt with its bias/activation epilogue where it "
                     "takes the matmul, a generated kernel elsewhere"),
          clEnumValN(GPUMatmul::Generated, "generated",
                     "always a generated kernel"))};
  Option<GPUAttention> attention{
      *this, "attention", llvm::cl::desc("Where attention runs on the GPU"),
      llvm::cl::init(GPUAttention::Flash),
      llvm::cl::values(
          clEnumValN(GPUAttention::Flash, "flash",
                     "the runtime's flash-attention kernel where it takes "
                     "the attention, else as with decomposed"),
          clEnumValN(GPUAttention::Decomposed, "decomposed",
                     "unmasked attention as cuBLASLt matmuls around a "
                     "softmax (with matmul=cublaslt), the rest a generated "
                     "kernel"))};
  Option<bool> dispatchReport{
      *this, "dispatch-report",
      llvm::cl::desc("Remark on each matmul and attention: a runtime kernel "
                     "(cuBLASLt, flash attention) or a generated one, and "
                     "why"),
      llvm::cl::init(false)};
  Option<bool> warpRows{
      *this, "warp-rows",
      llvm::cl::desc("One warp per row for row groups whose rows fit in a "
                     "warp's registers (rlx-gpu-map-linalg warp-rows)"),
      llvm::cl::init(true)};
  Option<bool> fastMath{
      *this, "fast-math",
      llvm::cl::desc("Approximate f32 exp and shared divisors in the kernels "
                     "(rlx-gpu-fast-math)"),
      llvm::cl::init(true)};
  Option<bool> arena{
      *this, "arena",
      llvm::cl::desc("Plan every intermediate into one arena "
                     "(--rlx-plan-memory): one device allocation per call "
                     "for the intermediates (parameters must be arguments)"),
      llvm::cl::init(false)};
};

/// Options of `--rlx-to-gpu`.
struct RLXToGPUOptions : public GPUKernelOptions<RLXToGPUOptions> {};

/// Options of `--rlx-cuda-pipeline`: those of `--rlx-to-gpu` and what the
/// kernels are compiled to.
struct CUDAPipelineOptions : public GPUKernelOptions<CUDAPipelineOptions> {
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What the kernels become: isa (PTX text), bin (cubin, "
                     "needs ptxas) or fatbin (needs ptxas and fatbinary)"),
      llvm::cl::init("bin")};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit whose bin/ptxas and libdevice are used"),
      llvm::cl::init("/usr/local/cuda")};
};

/// rlx_hir / rlx (MIR) -> linalg -> buffers -> the GPU dialect: every fused
/// group or linalg op one gpu.func kernel in a gpu.module (RLX's schedules,
/// rlx-gpu-map-linalg), matmuls and attention that a runtime kernel takes
/// as calls of it (rlxCublasLtMatmul, rlxFlashAttention), host functions
/// launching the kernels with results as out-parameters. `--rlx-to-gpu`;
/// also the first half of `--rlx-cuda-pipeline`.
template <typename Derived>
void buildRLXToGPUPipeline(OpPassManager &pm,
                           const GPUKernelOptions<Derived> &options);

/// `--rlx-to-gpu`, then the kernels through NVVM to a binary for `chip`
/// embedded as a gpu.binary, and the host side to the LLVM dialect. Every
/// function's results become trailing out-parameters (device buffers the caller
/// allocates); the host code calls the mgpu* functions of librlx_cuda_runtime
/// (CUDARuntime.h).
void buildCUDAPipeline(OpPassManager &pm, const CUDAPipelineOptions &options);

/// Options of `--rlx-optimize`.
struct OptimizePipelineOptions
    : public PassPipelineOptions<OptimizePipelineOptions> {
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("Target whose claimed ops fusion may emit and "
                     "legalization must reach: cpu, cuda, rocm, vulkan, "
                     "metal"),
      llvm::cl::init("cpu")};
};

/// The optimizer in the seeds' order: rlx_hir lowered to MIR, constant
/// folding and simplification (canonicalize, CSE), fusion for `target`,
/// legalization for `target`, then dead-code removal (canonicalize, CSE).
void buildOptimizePipeline(OpPassManager &pm,
                           const OptimizePipelineOptions &options);

/// Prepares `fn` to be called from outside: a C interface wrapper
/// (`_mlir_ciface_NAME`, see rlx-compile) and read-only arguments, so that
/// bufferization copies rather than writes into the caller's inputs.
void markCPUEntryPoint(func::FuncOp fn);

/// Registers `--rlx-cpu-pipeline`.
void registerCPUPipeline();

/// Registers `--rlx-to-gpu` and `--rlx-cuda-pipeline`.
void registerCUDAPipeline();

/// Registers `--rlx-optimize`.
void registerOptimizePipeline();

} // namespace rlx
} // namespace mlir

#endif // RLX_PIPELINES_PIPELINES_H
