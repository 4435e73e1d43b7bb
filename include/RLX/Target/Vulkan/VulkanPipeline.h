//===- VulkanPipeline.h - the rlx-vulkan-pipeline ---------------*- C++ -*-===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef RLX_TARGET_VULKAN_VULKANPIPELINE_H
#define RLX_TARGET_VULKAN_VULKANPIPELINE_H

#include "RLX/Conversion/RLXToGPU/RLXToGPU.h"

namespace mlir {
namespace rlx {

/// Options of `--rlx-vulkan-pipeline`: the GPU front's kernel choices and
/// what the kernels may assume of the Vulkan device.
struct VulkanPipelineOptions
    : public GPUKernelOptions<VulkanPipelineOptions> {
  PassOptions::Option<int64_t> subgroupSize{
      *this, "subgroup-size",
      llvm::cl::desc("Lanes of the device's subgroup, which the row "
                     "kernels' shuffle reductions are built for: 32 on "
                     "NVIDIA, 8 on lavapipe (rlx-vulkan-run "
                     "--print-subgroup-size queries a device)"),
      llvm::cl::init(32)};
  PassOptions::Option<int64_t> sharedMemoryBytes{
      *this, "shared-memory-bytes",
      llvm::cl::desc("Workgroup memory a kernel may use, in bytes: the "
                     "device's maxComputeSharedMemorySize (32768 on "
                     "lavapipe, 49152 on NVIDIA's driver; default 32768, "
                     "49152 with cooperative-matrix)"),
      llvm::cl::init(32 * 1024)};
  PassOptions::Option<bool> tiledMatmul{
      *this, "tiled-matmul",
      llvm::cl::desc("Run matmuls as kernels tiled through workgroup memory "
                     "(rlx-gpu-tile-matmul); without it, the front's "
                     "generic kernels (rlx-gpu-map-linalg)"),
      llvm::cl::init(true)};
  // The tiled matmul's shape (rlx-gpu-tile-matmul's options). 8 x 8 sums
  // per thread make 4 products per value read from workgroup memory (4 x 4
  // make 2): what keeps an NVIDIA SM's FMA units busy if its shared memory
  // delivers 128 bytes per clock against 4 warp FMAs (an estimate from
  // the figures, to be measured: docs/Vulkan.md).
  PassOptions::Option<int64_t> matmulTileM{
      *this, "matmul-tile-m",
      llvm::cl::desc("Output rows per workgroup of the tiled matmul"),
      llvm::cl::init(128)};
  PassOptions::Option<int64_t> matmulTileN{
      *this, "matmul-tile-n",
      llvm::cl::desc("Output columns per workgroup of the tiled matmul"),
      llvm::cl::init(128)};
  PassOptions::Option<int64_t> matmulTileK{
      *this, "matmul-tile-k",
      llvm::cl::desc("Reduction steps staged at once by the tiled matmul"),
      llvm::cl::init(8)};
  PassOptions::Option<int64_t> matmulThreadM{
      *this, "matmul-thread-m",
      llvm::cl::desc("Output rows per thread of the tiled matmul"),
      llvm::cl::init(8)};
  PassOptions::Option<int64_t> matmulThreadN{
      *this, "matmul-thread-n",
      llvm::cl::desc("Output columns per thread of the tiled matmul"),
      llvm::cl::init(8)};
  PassOptions::Option<std::string> spirvVersion{
      *this, "spirv-version",
      llvm::cl::desc("The SPIR-V version of the modules (v1.5 is Vulkan "
                     "1.2's, which every Vulkan 1.2 driver takes; v1.6 "
                     "where cooperative-matrix is set)"),
      llvm::cl::init("v1.5")};
  // What the device offers of VK_KHR_cooperative_matrix: none by default,
  // as lavapipe; rlx-vulkan-run --print-device lists a device's
  // configurations.
  PassOptions::ListOption<std::string> cooperativeMatrix{
      *this, "cooperative-matrix",
      llvm::cl::desc("Operand types the device runs on 16x16x16 cooperative "
                     "matrices with f32 sums at subgroup scope "
                     "(VK_KHR_cooperative_matrix), whose matmuls are "
                     "generated on them: f16, bf16 (VK_KHR_shader_bfloat16's "
                     "bf16 fragments), bf16-as-f16 (bf16 operands rounded to "
                     "f16, for devices without them); none by default")};
  // The cooperative schedule's shape (rlx-gpu-tile-matmul's coop-*
  // options): 8 subgroups of 64 x 64 outputs, 4 x 4 fragments each, so
  // that each fragment loaded serves 4 products. On the H100 it was the
  // fastest of the shapes tried (docs/Vulkan.md); its 38 KiB of workgroup
  // memory are why cooperative-matrix raises shared-memory-bytes.
  PassOptions::Option<int64_t> coopTileM{
      *this, "coop-tile-m",
      llvm::cl::desc("Output rows per workgroup on cooperative matrices"),
      llvm::cl::init(128)};
  PassOptions::Option<int64_t> coopTileN{
      *this, "coop-tile-n",
      llvm::cl::desc("Output columns per workgroup on cooperative matrices"),
      llvm::cl::init(256)};
  PassOptions::Option<int64_t> coopTileK{
      *this, "coop-tile-k",
      llvm::cl::desc("Reduction steps staged at once on cooperative "
                     "matrices"),
      llvm::cl::init(32)};
  PassOptions::Option<int64_t> coopSubgroupsM{
      *this, "coop-subgroups-m",
      llvm::cl::desc("Subgroups along a cooperative block's rows"),
      llvm::cl::init(2)};
  PassOptions::Option<int64_t> coopSubgroupsN{
      *this, "coop-subgroups-n",
      llvm::cl::desc("Subgroups along a cooperative block's columns"),
      llvm::cl::init(4)};
};

/// The GPU front's description of a Vulkan device with
/// librlx_vulkan_runtime: `subgroupSize` lanes, 1024 invocations and
/// 32 KiB of workgroup memory per workgroup (what lavapipe and NVIDIA's
/// driver offer), 16-byte accesses, and no library kernels: every matmul
/// and attention is a generated kernel (no vendor library here).
GPUTargetDescription getVulkanTargetDescription(int64_t subgroupSize);

/// `--rlx-to-gpu` for the Vulkan description, then the kernels through
/// upstream's SPIR-V conversions to SPIR-V modules embedded as gpu.binary
/// ops, and the host side to the LLVM dialect. Every function's results
/// become trailing out-parameters (device buffers the caller allocates,
/// rlxVulkanAlloc); the host code calls librlx_vulkan_runtime
/// (RLX/Runtime/Vulkan/VulkanRuntime.h), passing each kernel's buffers as
/// bare pointers.
void buildVulkanPipeline(OpPassManager &pm,
                         const VulkanPipelineOptions &options);

/// Registers `--rlx-vulkan-pipeline`.
void registerVulkanPipeline();

/// Registers the `vulkan` target (its claims, pipeline and output) with the
/// target registry (RLX/Target/TargetRegistry.h); idempotent.
void registerVulkanTarget();

} // namespace rlx
} // namespace mlir

#endif // RLX_TARGET_VULKAN_VULKANPIPELINE_H
