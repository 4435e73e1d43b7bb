//===- MetalPipeline.h - the rlx-metal-pipeline -----------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TARGET_METAL_METALPIPELINE_H
#define RLX_TARGET_METAL_METALPIPELINE_H

#include "RLX/Conversion/RLXToGPU/RLXToGPU.h"

namespace mlir {
namespace rlx {

/// Options of `--rlx-metal-pipeline`: the GPU front's kernel choices.
struct MetalPipelineOptions
    : public GPUKernelOptions<MetalPipelineOptions> {};

/// The GPU front's description of an Apple GPU: 32-lane SIMD groups, 1024
/// threads and 32 KiB of threadgroup memory per threadgroup, 8-byte
/// accesses (float2, half4: MSL vectors have at most 4 lanes), and no
/// runtime library kernels (every matmul and attention is a generated
/// kernel).
GPUTargetDescription getMetalTargetDescription();

/// `--rlx-to-gpu` for the Metal description, then the kernels' math that
/// MSL lacks expanded (rlx-gpu-expand-math). Leaves the gpu.module
/// kernels and the host functions launching them, which
/// `rlx-translate --rlx-to-msl` and `--rlx-to-metal-host` read.
void buildMetalPipeline(OpPassManager &pm,
                        const MetalPipelineOptions &options);

/// Registers `--rlx-metal-pipeline`.
void registerMetalPipeline();

/// Registers the `metal` target (its claims, pipeline and output) with the
/// target registry (RLX/Target/TargetRegistry.h); idempotent.
void registerMetalTarget();

} // namespace rlx
} // namespace mlir

#endif // RLX_TARGET_METAL_METALPIPELINE_H
