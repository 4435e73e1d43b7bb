//===- CUDAPipeline.h - the rlx-cuda-pipeline -------------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TARGET_CUDA_CUDAPIPELINE_H
#define RLX_TARGET_CUDA_CUDAPIPELINE_H

#include "RLX/Conversion/RLXToGPU/RLXToGPU.h"

namespace mlir {
namespace rlx {

/// Options of `--rlx-cuda-pipeline`: the GPU front's kernel choices, the
/// chip (which gives the target description) and what the kernels are
/// compiled to.
struct CUDAPipelineOptions : public GPUKernelOptions<CUDAPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("GPU architecture, e.g. sm_90"),
      llvm::cl::init("sm_90")};
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

/// The GPU front's description of NVIDIA chip `chip` (sm_XX) with
/// librlx_cuda_runtime: 32-lane warps, 1024 threads and 48 KiB of static
/// shared memory per block, 16-byte accesses, cuBLASLt matmuls, and the
/// flash-attention kernel on sm_90 / sm_90a only (the runtime holds it as
/// sm_90a code).
GPUTargetDescription getCUDATargetDescription(StringRef chip);

/// `--rlx-to-gpu` for the chip's description with the CUDA target's
/// tensor-core matmuls (rlx-cuda-mma-matmul), then the kernels through NVVM
/// to a binary for `chip` embedded as a gpu.binary, and the host side to
/// the LLVM dialect. Every function's results become trailing
/// out-parameters (device buffers the caller allocates); the host code
/// calls librlx_cuda_runtime (RLX/Runtime/CUDA/CUDARuntime.h).
void buildCUDAPipeline(OpPassManager &pm, const CUDAPipelineOptions &options);

/// Registers `--rlx-cuda-pipeline`.
void registerCUDAPipeline();

/// Registers the `cuda` target (its claims, pipeline and output) with the
/// target registry (RLX/Target/TargetRegistry.h); idempotent.
void registerCUDATarget();

} // namespace rlx
} // namespace mlir

#endif // RLX_TARGET_CUDA_CUDAPIPELINE_H
