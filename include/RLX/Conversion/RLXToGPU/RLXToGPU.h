//===- RLXToGPU.h - the GPU front shared by every GPU target ----*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `--rlx-to-gpu`: rlx_hir / rlx (MIR) to gpu.func kernels in a gpu.module,
// host functions that launch them with results as out-parameters, and
// calls of the runtime's library kernels (GPURuntime.h). What differs
// between GPU targets reaches it as a GPUTargetDescription; each target's
// pipeline (lib/Target/<T>/) fills one in, runs this front, then lowers
// the kernels to its own IR and binary.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_CONVERSION_RLXTOGPU_RLXTOGPU_H
#define RLX_CONVERSION_RLXTOGPU_RLXTOGPU_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <array>
#include <string>
#include <vector>

namespace mlir {
class RewritePatternSet;

namespace rlx {

/// What the GPU front needs to know of a target: the shape of its
/// subgroups and blocks, and which library kernels its runtime offers.
/// The defaults are those of NVIDIA's GPUs with RLX's CUDA runtime on
/// sm_90.
struct GPUTargetDescription {
  /// The target whose claimed ops (`--rlx-print-target-ops`) programs are
  /// legalized for (`rlx-legalize`).
  std::string name = "cuda";
  /// Lanes of one subgroup (an NVIDIA warp, an AMD wavefront, an Apple
  /// SIMD group): the width of the shuffle reductions of row kernels, the
  /// unit of their block sizes, and the threads of a one-subgroup row.
  int64_t subgroupSize = 32;
  /// The most threads one block (workgroup) may have.
  int64_t maxThreadsPerBlock = 1024;
  /// The bytes of workgroup (shared) memory one block may allocate
  /// statically.
  int64_t sharedMemoryBytes = 48 * 1024;
  /// The bytes one thread loads or stores at once along a contiguous dim.
  int64_t vectorBytes = 16;
  /// Whether the target's runtime offers rlxGpuMatmul.
  bool runtimeMatmul = true;
  /// Whether the target's runtime offers rlxFlashAttention.
  bool runtimeFlashAttention = true;
  /// Whether the target's runtime offers rlxDecodeAttention.
  bool runtimeDecodeAttention = true;
  /// Whether the target's runtime carries collectives (Collectives.h), so
  /// that a partitioned program runs on it.
  bool runtimeCollectives = false;
  /// Whether its rlxGpuMatmul takes int8 operands (RLX_GPU_MATMUL_S8).
  bool runtimeInt8Matmul = false;
  /// Whether it offers rlxGpuMatmulFp8.
  bool runtimeFp8Matmul = false;
  /// What the runtime's library needs of an int8 matmul's reduction: K a
  /// multiple of this (its int8 kernels read K in groups of 4 bytes).
  int64_t int8MatmulKMultiple = 4;
  /// What rlxGpuMatmulFp8 needs of its problem: K a multiple of
  /// `fp8MatmulKMultiple` and N of `fp8MatmulNMultiple` (its fp8 kernels
  /// read 16-byte aligned rows of the fp8 operands and of the result).
  int64_t fp8MatmulKMultiple = 16;
  int64_t fp8MatmulNMultiple = 8;
  /// The most blocks (workgroups) a grid may have along x, y and z.
  std::array<int64_t, 3> maxGridSize = {2147483647, 65535, 65535};
  /// The operand types whose matmuls run on the target's 16 x 16 x 16
  /// cooperative matrices (subgroup-scope fragments, f32 sums), as
  /// rlx-gpu-tile-matmul's `cooperative-matrix` lists them: `f16`; `bf16`,
  /// staged as pairs in 32-bit words and loaded as f16-typed fragments that
  /// the target's kernel lowering retypes to bf16 (gpu.mma_matrix has no
  /// bf16); `bf16-as-f16`, bf16 operands rounded to f16 (the fallback for
  /// bf16 without bf16 fragments, or where the pairs do not divide among
  /// the threads). None by default.
  std::vector<std::string> cooperativeMatrix;
};

/// Where --rlx-to-gpu runs matmuls (the seeds' kernel-dispatch policy).
enum class GPUMatmul { Library, Generated };

/// Where --rlx-to-gpu runs attention.
enum class GPUAttention { Flash, Decomposed };

/// The user's choices of how RLX programs become kernels and runtime calls,
/// whatever the target.
struct GPUKernelChoices {
  int64_t blockSize = 256;
  GPUMatmul matmul = GPUMatmul::Library;
  GPUAttention attention = GPUAttention::Flash;
  bool dispatchReport = false;
  bool fp8Activations = false;
  bool subgroupRows = true;
  bool fastMath = true;
  bool arena = false;
  bool overlapCollectives = false;
};

/// The options of GPUKernelChoices, shared by `--rlx-to-gpu` and every GPU
/// target's pipeline. A template over the options struct that derives from
/// it, as PassPipelineOptions needs.
template <typename Derived>
struct GPUKernelOptions : public PassPipelineOptions<Derived> {
  // The base is dependent here: its Option template is not found by name.
  template <typename T> using Option = ::mlir::detail::PassOptions::Option<T>;

  Option<int64_t> blockSize{*this, "block-size",
                            llvm::cl::desc("Threads per block of each kernel"),
                            llvm::cl::init(256)};
  Option<GPUMatmul> matmul{
      *this, "matmul", llvm::cl::desc("Where matmuls run on the GPU"),
      llvm::cl::init(GPUMatmul::Library),
      llvm::cl::values(
          clEnumValN(GPUMatmul::Library, "library",
                     "the runtime's library matmul (rlxGpuMatmul) with its "
                     "bias/activation epilogue where it takes the matmul, a "
                     "generated kernel elsewhere"),
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
                     "unmasked attention as library matmuls around a "
                     "softmax (with matmul=library), the rest a generated "
                     "kernel"))};
  Option<bool> dispatchReport{
      *this, "dispatch-report",
      llvm::cl::desc("Remark on each matmul and attention: a runtime kernel "
                     "(library matmul, flash attention) or a generated one, "
                     "and why"),
      llvm::cl::init(false)};
  Option<bool> fp8Activations{
      *this, "fp8-activations",
      llvm::cl::desc("Compute dequant_matmuls with fp8 weights in fp8 "
                     "(matmul=library), the activations quantized to e4m3 "
                     "at each call; the target's runtime must have fp8 "
                     "matmuls"),
      llvm::cl::init(false)};
  Option<bool> subgroupRows{
      *this, "warp-rows",
      llvm::cl::desc("One subgroup per row for row groups whose rows fit in "
                     "a subgroup's registers (rlx-gpu-map-linalg warp-rows)"),
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
  Option<bool> overlapCollectives{
      *this, "overlap-collectives",
      llvm::cl::desc("Where the runtime carries collectives, start each as "
                     "soon as its operand is computed and wait for it "
                     "before its result's first reader, the program "
                     "ordered so that independent work runs in between "
                     "(rlx-lower-collectives' overlap; off by default: on 2 "
                     "H200s it slowed the measured programs)"),
      llvm::cl::init(false)};

  GPUKernelChoices choices() const {
    GPUKernelChoices c;
    c.blockSize = blockSize;
    c.matmul = matmul;
    c.attention = attention;
    c.dispatchReport = dispatchReport;
    c.fp8Activations = fp8Activations;
    c.subgroupRows = subgroupRows;
    c.fastMath = fastMath;
    c.arena = arena;
    c.overlapCollectives = overlapCollectives;
    return c;
  }
};

/// Options of `--rlx-to-gpu`: the kernel choices and the target
/// description, spelled out.
struct RLXToGPUOptions : public GPUKernelOptions<RLXToGPUOptions> {
  Option<std::string> target{
      *this, "target",
      llvm::cl::desc("The target whose claimed ops programs are legalized "
                     "for (cuda, rocm, vulkan, metal)"),
      llvm::cl::init("cuda")};
  Option<int64_t> subgroupSize{
      *this, "subgroup-size",
      llvm::cl::desc("Lanes of the target's subgroup (warp, wavefront)"),
      llvm::cl::init(32)};
  Option<int64_t> maxThreadsPerBlock{
      *this, "max-threads-per-block",
      llvm::cl::desc("The most threads one block may have"),
      llvm::cl::init(1024)};
  Option<int64_t> sharedMemoryBytes{
      *this, "shared-memory-bytes",
      llvm::cl::desc("Workgroup memory one block may allocate statically"),
      llvm::cl::init(48 * 1024)};
  Option<int64_t> vectorBytes{
      *this, "vector-bytes",
      llvm::cl::desc("Bytes one thread loads or stores at once"),
      llvm::cl::init(16)};
  Option<bool> runtimeMatmul{
      *this, "runtime-matmul",
      llvm::cl::desc("The target's runtime offers a library matmul "
                     "(rlxGpuMatmul)"),
      llvm::cl::init(true)};
  Option<bool> runtimeFlashAttention{
      *this, "runtime-flash-attention",
      llvm::cl::desc("The target's runtime offers a flash-attention kernel "
                     "(rlxFlashAttention)"),
      llvm::cl::init(true)};
  Option<bool> runtimeDecodeAttention{
      *this, "runtime-decode-attention",
      llvm::cl::desc("The target's runtime offers a decode-attention kernel "
                     "(rlxDecodeAttention)"),
      llvm::cl::init(true)};

  Option<bool> runtimeInt8Matmul{
      *this, "runtime-int8-matmul",
      llvm::cl::desc("The target's library matmul takes int8 operands "
                     "(rlx.int8_matmul)"),
      llvm::cl::init(false)};
  Option<bool> runtimeFp8Matmul{
      *this, "runtime-fp8-matmul",
      llvm::cl::desc("The target's runtime has fp8 matmuls "
                     "(rlxGpuMatmulFp8)"),
      llvm::cl::init(false)};

  Option<int64_t> int8MatmulKMultiple{
      *this, "int8-matmul-k-multiple",
      llvm::cl::desc("The library's int8 matmuls need K a multiple of this"),
      llvm::cl::init(4)};
  Option<int64_t> fp8MatmulKMultiple{
      *this, "fp8-matmul-k-multiple",
      llvm::cl::desc("The runtime's fp8 matmuls need K a multiple of this"),
      llvm::cl::init(16)};
  Option<int64_t> fp8MatmulNMultiple{
      *this, "fp8-matmul-n-multiple",
      llvm::cl::desc("The runtime's fp8 matmuls need N a multiple of this"),
      llvm::cl::init(8)};
  ListOption<int64_t> maxGridSize{
      *this, "max-grid-size",
      llvm::cl::desc("The most blocks a grid may have along x, y and z "
                     "(default 2147483647,65535,65535)")};

  GPUTargetDescription description() const {
    GPUTargetDescription d;
    d.name = target;
    d.subgroupSize = subgroupSize;
    d.maxThreadsPerBlock = maxThreadsPerBlock;
    d.sharedMemoryBytes = sharedMemoryBytes;
    d.vectorBytes = vectorBytes;
    d.runtimeMatmul = runtimeMatmul;
    d.runtimeFlashAttention = runtimeFlashAttention;
    d.runtimeDecodeAttention = runtimeDecodeAttention;
    d.runtimeInt8Matmul = runtimeInt8Matmul;
    d.runtimeFp8Matmul = runtimeFp8Matmul;
    d.int8MatmulKMultiple = int8MatmulKMultiple;
    d.fp8MatmulKMultiple = fp8MatmulKMultiple;
    d.fp8MatmulNMultiple = fp8MatmulNMultiple;
    for (auto [limit, given] : llvm::zip(d.maxGridSize, maxGridSize))
      limit = given;
    return d;
  }
};

/// rlx_hir / rlx (MIR) -> linalg -> buffers -> the GPU dialect for
/// `target`: every fused group or linalg op one gpu.func kernel in a
/// gpu.module (RLX's schedules, rlx-gpu-map-linalg), matmuls and attention
/// that a runtime kernel takes as calls of it (rlxGpuMatmul,
/// rlxFlashAttention), host functions launching the kernels with results as
/// out-parameters. `beforeKernels`, if given, adds a target's own passes on
/// the bufferized host functions just before the front maps the remaining
/// linalg ops to kernels (the CUDA target's tensor-core matmuls).
void buildRLXToGPUPipeline(
    OpPassManager &pm, const GPUKernelChoices &choices,
    const GPUTargetDescription &target,
    llvm::function_ref<void(OpPassManager &)> beforeKernels = nullptr);

/// The host side of a GPU program to the LLVM dialect, once its target has
/// lowered the kernels: upstream's gpu-to-llvm (calls of the runtime's
/// mgpu* functions, GPURuntime.h) and the rest through convert-to-llvm.
/// With `barePointerKernelArguments`, kernels take each memref as its bare
/// pointer (for a runtime that binds each pointer as one buffer) instead of
/// its descriptor's fields.
void buildGPUHostToLLVMPipeline(OpPassManager &pm,
                                bool barePointerKernelArguments = false);

/// The rewrites of `rlx-gpu-expand-math`: f32 `math.erf` and `math.erfc` as
/// polynomials in arith and math ops, for kernel languages without them.
void populateGPUExpandMathPatterns(RewritePatternSet &patterns);

/// Registers `--rlx-to-gpu`.
void registerRLXToGPUPipeline();

} // namespace rlx
} // namespace mlir

#endif // RLX_CONVERSION_RLXTOGPU_RLXTOGPU_H
