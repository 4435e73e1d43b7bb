//===- ROCmPipeline.h - the rlx-rocm-pipeline -------------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TARGET_ROCM_ROCMPIPELINE_H
#define RLX_TARGET_ROCM_ROCMPIPELINE_H

#include "RLX/Conversion/RLXToGPU/RLXToGPU.h"

#include "llvm/ADT/ArrayRef.h"

namespace mlir {
namespace rlx {

/// An AMD GPU the rocm target compiles for.
struct ROCmChip {
  /// The LLVM processor name (gfxNNN).
  StringRef name;
  /// Lanes of a wavefront the kernels are compiled for: 64 on CDNA, 32 on
  /// RDNA (which runs wave32 natively, as HIP compiles for it by default).
  int64_t wavefrontSize;
  /// Bytes of LDS one workgroup may allocate.
  int64_t ldsBytes;
};

/// The chips the rocm target knows (gfx90a, gfx942, gfx1100).
ArrayRef<ROCmChip> getROCmChips();

/// The chip named `name`, or null if the rocm target does not know it.
const ROCmChip *lookupROCmChip(StringRef name);

/// The GPU front's description of `chip` with librlx_rocm_runtime: its
/// wavefront size as the subgroup, 1024 threads and its LDS per block,
/// 16-byte accesses, library matmuls (hipBLASLt / rocBLAS) and no
/// flash-attention kernel (attention is generated or decomposed).
GPUTargetDescription getROCmTargetDescription(const ROCmChip &chip);

/// The toolkit folder the build arranged (lld-22's ld.lld as llvm/bin/ld.lld,
/// Debian's rocm-device-libs as amdgcn/bitcode), the default `toolkit`.
std::string getDefaultROCmToolkit();

/// Options of `--rlx-rocm-pipeline`: the GPU front's kernel choices, the
/// chip and what the kernels are compiled to.
struct ROCmPipelineOptions : public GPUKernelOptions<ROCmPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("AMD GPU architecture: gfx90a, gfx942 (CDNA, 64-lane "
                     "wavefronts) or gfx1100 (RDNA3, 32-lane wavefronts)"),
      llvm::cl::init("gfx942")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What the kernels become: isa (AMDGPU assembly text) "
                     "or bin (an HSA code object, linked by ld.lld)"),
      llvm::cl::init("bin")};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("ROCm toolkit folder holding llvm/bin/ld.lld and "
                     "amdgcn/bitcode (the device libraries); the default is "
                     "the one the build arranged from Debian's lld-22 and "
                     "rocm-device-libs"),
      llvm::cl::init(getDefaultROCmToolkit())};
};

/// `--rlx-to-gpu` for the chip's description, then the kernels through
/// ROCDL to an HSA code object for the chip embedded as a gpu.binary, and
/// the host side to the LLVM dialect. Every function's results become
/// trailing out-parameters (device buffers the caller allocates); the host
/// code calls librlx_rocm_runtime (RLX/Runtime/ROCm/ROCmRuntime.h). Fails,
/// adding nothing, if the chip is unknown.
LogicalResult buildROCmPipeline(OpPassManager &pm,
                                const ROCmPipelineOptions &options);

/// The error message for an unknown chip `name`, naming the known ones.
std::string unknownROCmChipMessage(StringRef name);

/// Registers `--rlx-rocm-pipeline`.
void registerROCmPipeline();

/// Registers the `rocm` target (its claims, pipeline and output) with the
/// target registry (RLX/Target/TargetRegistry.h); idempotent.
void registerROCmTarget();

} // namespace rlx
} // namespace mlir

#endif // RLX_TARGET_ROCM_ROCMPIPELINE_H
