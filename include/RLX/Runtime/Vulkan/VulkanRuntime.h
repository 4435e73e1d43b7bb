/*===- VulkanRuntime.h - what programs from rlx-compile --target=vulkan call ===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// librlx_vulkan_runtime.so. The host code that --rlx-vulkan-pipeline emits
// (upstream gpu-to-llvm) calls the mgpu* functions of RLX's GPU runtime ABI
// (GPURuntime.h): module load from global constructors (the embedded SPIR-V
// modules), then per entry-point call one stream, allocations of
// temporaries and kernel launches, each kernel buffer as a bare pointer. They are implemented over the Vulkan loader, opened at run time
// (libvulkan.so.1, or $RLX_VULKAN_LOADER), so the library builds without
// it. Upstream's mlir-vulkan-runner and its runtime are gone in MLIR 22.
//
// Device pointers are the runtime's: each allocation is a VkBuffer given
// an address range of its own (not a host address), and a kernel argument
// is bound as the storage buffer holding its pointer at the pointer's
// offset. Only memory from rlxVulkanAlloc / mgpuMemAlloc can be passed to
// compiled code; rlxVulkanCopyToDevice / ToHost move data. A kernel
// argument is bound from its pointer to the end of its allocation.
//
// Device: the first physical device whose name contains $RLX_VULKAN_DEVICE
// or whose index it is, else the first discrete GPU, else the first one.
// Each compute pipeline is created at its kernel's first launch and kept
// ($RLX_VULKAN_TRACE=1 prints each creation), requiring the subgroup size
// the module was compiled for (its __rlx_subgroup_size_N variable); a
// device that cannot run that size gets an error, not wrong reductions.
//
// Streams: by default each entry point records its kernels into a command
// buffer of its own, submits it and waits on one fence before returning.
// After rlxVulkanSetStream(s) (s from rlxVulkanStreamCreate) it records
// into s and returns at once; rlxVulkanStreamSynchronize(s) submits what s
// holds and waits. Errors: a failed Vulkan call or a bad argument is
// printed on stderr and recorded, never an abort; the first since the last
// rlxVulkanClearError() is rlxVulkanGetLastError(), and calls after a
// failed device creation do nothing.
//
//===----------------------------------------------------------------------===*/

#ifndef RLX_RUNTIME_VULKAN_VULKANRUNTIME_H
#define RLX_RUNTIME_VULKAN_VULKANRUNTIME_H

#include "RLX/Runtime/Common/GPURuntime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A device buffer of `bytes` bytes (null, with the error recorded, if it
   cannot be made) and its release. */
void *rlxVulkanAlloc(uint64_t bytes);
void rlxVulkanFree(void *device);

/* Synchronous copies between host memory and a device buffer (a pointer
   into an allocation, `bytes` within it). Return 0 on success. */
int rlxVulkanCopyToDevice(void *device, const void *host, uint64_t bytes);
int rlxVulkanCopyToHost(void *host, const void *device, uint64_t bytes);

/* Streams the caller owns (see above). */
void *rlxVulkanStreamCreate(void);
void rlxVulkanStreamSynchronize(void *stream);
void rlxVulkanStreamDestroy(void *stream);
void rlxVulkanSetStream(void *stream);

/* The chosen device's name and subgroup size (the size the kernels must be
   compiled for: --vulkan-options=subgroup-size=N), or null and 0 without
   a device. */
const char *rlxVulkanDeviceName(void);
int rlxVulkanSubgroupSize(void);

/* The chosen device's cooperative matrix configurations
   (VK_KHR_cooperative_matrix), one a line as "MxNxK A,B->C/Result scope"
   ("16x16x16 f16,f16->f32/f32 subgroup" is what
   --vulkan-options=cooperative-matrix=f16 uses); empty if it has none,
   null without a device. */
const char *rlxVulkanCooperativeMatrices(void);

const char *rlxVulkanGetLastError(void);
void rlxVulkanClearError(void);

#ifdef __cplusplus
}
#endif

#endif /* RLX_RUNTIME_VULKAN_VULKANRUNTIME_H */
