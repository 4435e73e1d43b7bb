//===- VulkanDevice.h - the Vulkan device librlx_vulkan_runtime uses ------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The loader's entry points (looked up at run time: VK_NO_PROTOTYPES), the
// one device the runtime uses, its buffers with their device addresses,
// and synchronous one-off command submission.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_LIB_RUNTIME_VULKAN_VULKANDEVICE_H
#define RLX_LIB_RUNTIME_VULKAN_VULKANDEVICE_H

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include "ErrorRecord.h"

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>

// The device-level entry points the runtime calls.
#define RLX_VULKAN_DEVICE_FUNCTIONS(X)                                         \
  X(vkGetDeviceQueue)                                                          \
  X(vkCreateBuffer)                                                            \
  X(vkDestroyBuffer)                                                           \
  X(vkGetBufferMemoryRequirements)                                             \
  X(vkAllocateMemory)                                                          \
  X(vkFreeMemory)                                                              \
  X(vkBindBufferMemory)                                                        \
  X(vkMapMemory)                                                               \
  X(vkCreateShaderModule)                                                      \
  X(vkDestroyShaderModule)                                                     \
  X(vkCreateDescriptorSetLayout)                                               \
  X(vkDestroyDescriptorSetLayout)                                              \
  X(vkCreatePipelineLayout)                                                    \
  X(vkDestroyPipelineLayout)                                                   \
  X(vkCreateComputePipelines)                                                  \
  X(vkDestroyPipeline)                                                         \
  X(vkCreateCommandPool)                                                       \
  X(vkDestroyCommandPool)                                                      \
  X(vkAllocateCommandBuffers)                                                  \
  X(vkBeginCommandBuffer)                                                      \
  X(vkEndCommandBuffer)                                                        \
  X(vkResetCommandBuffer)                                                      \
  X(vkCmdBindPipeline)                                                         \
  X(vkCmdPushDescriptorSetKHR)                                                 \
  X(vkCmdDispatch)                                                             \
  X(vkCmdPipelineBarrier)                                                      \
  X(vkCmdCopyBuffer)                                                           \
  X(vkQueueSubmit)                                                             \
  X(vkCreateFence)                                                             \
  X(vkDestroyFence)                                                            \
  X(vkWaitForFences)                                                           \
  X(vkResetFences)

namespace rlx::vulkan {

rlx::runtime::ErrorRecord &errors();

/// Records `call` failing with `result` unless it is VK_SUCCESS.
bool check(VkResult result, const char *call);

/// One device buffer and the address range compiled code knows it by.
struct Allocation {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  /// The bytes asked for, and the bytes the buffer holds (more where a
  /// pooled buffer is reused for a smaller request).
  uint64_t size = 0;
  uint64_t capacity = 0;
  uintptr_t address = 0;
  /// The host mapping where the memory is host-visible and coherent
  /// (lavapipe's), else null (copies then go through a staging buffer).
  void *mapped = nullptr;
};

/// Buffers that no allocation uses, by capacity: freeing keeps a buffer
/// here and allocating takes one back, because vkAllocateMemory of a large
/// buffer costs milliseconds (the role of CUDA's stream-ordered pool).
using BufferPool = std::multimap<uint64_t, Allocation>;

/// Takes from `pool` a buffer of at least `bytes` and at most twice that,
/// or returns false.
bool takeFromPool(BufferPool &pool, uint64_t bytes, Allocation &allocation);

struct Device {
#define RLX_VULKAN_DECLARE(fn) PFN_##fn fn = nullptr;
  RLX_VULKAN_DEVICE_FUNCTIONS(RLX_VULKAN_DECLARE)
#undef RLX_VULKAN_DECLARE

  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queueFamily = 0;
  std::string name;
  uint32_t subgroupSize = 0;
  /// The subgroup sizes a compute pipeline may require (subgroup size
  /// control), or 0 and 0.
  uint32_t minSubgroupSize = 0, maxSubgroupSize = 0;
  bool fullSubgroups = false;
  /// The cooperative matrix configurations the device offers
  /// (VK_KHR_cooperative_matrix, enabled where it has the feature), one a
  /// line as "MxNxK A,B->C/Result scope"; empty without the extension.
  std::string cooperativeMatrices;
  VkDeviceSize offsetAlignment = 1;
  /// Memory types for kernel buffers and for staging.
  uint32_t bufferMemoryType = 0;
  uint32_t stagingMemoryType = 0;
  bool bufferMemoryMapped = false;

  /// Guards the queue, the allocations and the one-off command buffer.
  std::mutex mutex;
  std::map<uintptr_t, Allocation> allocations;
  uintptr_t nextAddress = uintptr_t(1) << 44;
  /// Freed buffers no pending work reads (see BufferPool); destroyed when
  /// an allocation would otherwise fail.
  BufferPool idle;

  /// A buffer of `bytes` bytes of `memoryType` (mapped if `map`); a
  /// failure is recorded as an error if `reportErrors`.
  bool createBuffer(uint64_t bytes, uint32_t memoryType, bool map,
                    Allocation &allocation, bool reportErrors = true);
  void destroyBuffer(Allocation &allocation);
  /// Destroys the idle buffers.
  void trimPool();

  /// The allocation holding device address `address`, or null.
  Allocation *find(uintptr_t address);

  /// Records with `record` into a command buffer, submits it and waits.
  bool runNow(const std::function<void(VkCommandBuffer)> &record);
};

/// The device, created at the first call; null (with the error recorded)
/// if there is no loader or no usable device.
Device *device();

} // namespace rlx::vulkan

#endif // RLX_LIB_RUNTIME_VULKAN_VULKANDEVICE_H
