//===- VulkanRuntime.cpp - the mgpu* functions over Vulkan ----------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See VulkanRuntime.h. A module is a VkShaderModule; a function its entry
// point, whose compute pipeline (storage buffers bound by push
// descriptors, one per pointer the launch passes) is created
// at its first launch and kept. A stream is a command buffer being
// recorded: launches append a dispatch and a barrier, synchronizing
// submits it and waits on its fence. Freed buffers are pooled for reuse
// (VulkanDevice.h's BufferPool): one freed on a stream serves later
// allocations on that stream at once, since every dispatch ends in an
// execution barrier, and any allocation once the stream has run.
//
//===----------------------------------------------------------------------===//

#include "RLX/Runtime/Vulkan/VulkanRuntime.h"
#include "ConstantCache.h"
#include "VulkanDevice.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace rlx::vulkan;

namespace {
struct Module;

struct Function {
  Module *module;
  std::string name;
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  size_t bindings = 0;
};

struct Module {
  VkShaderModule shader = VK_NULL_HANDLE;
  /// The subgroup size the kernels were built for, or 0 if the module
  /// does not say.
  uint32_t subgroupSize = 0;
  /// The host code looks its kernels up at every launch: one Function,
  /// and so one pipeline, per entry point.
  std::map<std::string, std::unique_ptr<Function>> functions;
};

struct Stream {
  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  bool recording = false;
  /// Buffers freed while the stream's work may still read them.
  BufferPool released;
};

Stream *theUserStream = nullptr;

/// The name of the unused variable by which rlx-vulkan-nest-spirv-modules
/// records the subgroup size a module was built for.
constexpr char kSubgroupSizeMark[] = "__rlx_subgroup_size_";

/// The subgroup size a SPIR-V module's OpName of its mark names, or 0.
uint32_t markedSubgroupSize(const std::vector<uint32_t> &words) {
  const uint32_t opName = 5;
  for (size_t i = 5; i < words.size();) {
    uint32_t count = words[i] >> 16;
    if (count == 0 || i + count > words.size())
      return 0;
    if ((words[i] & 0xFFFF) == opName && count > 2) {
      const char *name = reinterpret_cast<const char *>(&words[i + 2]);
      size_t room = (count - 2) * 4;
      size_t prefix = sizeof(kSubgroupSizeMark) - 1;
      if (strnlen(name, room) < room &&
          std::strncmp(name, kSubgroupSizeMark, prefix) == 0)
        return static_cast<uint32_t>(std::strtoul(name + prefix, nullptr, 10));
    }
    i += count;
  }
  return 0;
}

/// Ends the allocation at `address`, its buffer kept in `pool`.
void releaseAllocation(Device &d, uintptr_t address, BufferPool &pool) {
  auto it = d.allocations.find(address);
  if (it == d.allocations.end()) {
    errors().record("free of " + std::to_string(address) +
                    ", which is no allocation");
    return;
  }
  pool.emplace(it->second.capacity, it->second);
  d.allocations.erase(it);
}

/// Whether $RLX_VULKAN_TRACE asks for the pipelines and buffers the
/// runtime creates (read once: allocations ask at every call).
bool tracing() {
  static const bool on = [] {
    const char *trace = std::getenv("RLX_VULKAN_TRACE");
    return trace && *trace;
  }();
  return on;
}

/// Starts recording into `s` if it is not recording yet.
bool beginStream(Device &d, Stream &s) {
  if (s.recording)
    return true;
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  s.recording =
      check(d.vkResetCommandBuffer(s.commands, 0), "vkResetCommandBuffer") &&
      check(d.vkBeginCommandBuffer(s.commands, &begin),
            "vkBeginCommandBuffer");
  return s.recording;
}

Stream *createStream() {
  Device *d = device();
  if (!d)
    return nullptr;
  auto s = std::make_unique<Stream>();
  VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  poolInfo.queueFamilyIndex = d->queueFamily;
  VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if (!check(d->vkCreateCommandPool(d->device, &poolInfo, nullptr, &s->pool),
             "vkCreateCommandPool"))
    return nullptr;
  VkCommandBufferAllocateInfo bufferInfo{
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  bufferInfo.commandPool = s->pool;
  bufferInfo.commandBufferCount = 1;
  if (!check(d->vkAllocateCommandBuffers(d->device, &bufferInfo,
                                         &s->commands),
             "vkAllocateCommandBuffers") ||
      !check(d->vkCreateFence(d->device, &fenceInfo, nullptr, &s->fence),
             "vkCreateFence")) {
    d->vkDestroyCommandPool(d->device, s->pool, nullptr);
    return nullptr;
  }
  return s.release();
}

/// Submits what `s` recorded, waits for it, and makes the buffers freed on
/// it idle.
void synchronize(Stream &s) {
  Device *d = device();
  if (!d)
    return;
  std::lock_guard<std::mutex> lock(d->mutex);
  if (s.recording) {
    s.recording = false;
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &s.commands;
    if (check(d->vkEndCommandBuffer(s.commands), "vkEndCommandBuffer") &&
        check(d->vkQueueSubmit(d->queue, 1, &submit, s.fence),
              "vkQueueSubmit"))
      check(d->vkWaitForFences(d->device, 1, &s.fence, VK_TRUE, UINT64_MAX),
            "vkWaitForFences") &&
          check(d->vkResetFences(d->device, 1, &s.fence), "vkResetFences");
  }
  d->idle.merge(s.released);
}

/// Creates `f`'s pipeline for `bindings` storage buffers.
bool createPipeline(Device &d, Function &f, size_t bindings,
                    uint32_t workgroupSize) {
  std::vector<VkDescriptorSetLayoutBinding> slots(bindings);
  for (size_t i = 0; i < bindings; ++i) {
    slots[i].binding = static_cast<uint32_t>(i);
    slots[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    slots[i].descriptorCount = 1;
    slots[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo setInfo{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  setInfo.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  setInfo.bindingCount = static_cast<uint32_t>(bindings);
  setInfo.pBindings = slots.data();
  if (!check(d.vkCreateDescriptorSetLayout(d.device, &setInfo, nullptr,
                                           &f.setLayout),
             "vkCreateDescriptorSetLayout"))
    return false;
  VkPipelineLayoutCreateInfo layoutInfo{
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layoutInfo.setLayoutCount = 1;
  layoutInfo.pSetLayouts = &f.setLayout;
  if (!check(d.vkCreatePipelineLayout(d.device, &layoutInfo, nullptr,
                                      &f.layout),
             "vkCreatePipelineLayout"))
    return false;
  VkComputePipelineCreateInfo info{
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = f.module->shader;
  info.stage.pName = f.name.c_str();
  // Row kernels reduce across whole subgroups: where the workgroup is a
  // multiple of them, ask for them full.
  if (d.fullSubgroups && d.subgroupSize &&
      workgroupSize % d.subgroupSize == 0)
    info.stage.flags =
        VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
  // The row kernels' shuffles are built for the module's subgroup size:
  // the device's, or one it can be made to use.
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required{
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
  if (uint32_t size = f.module->subgroupSize; size && size != d.subgroupSize) {
    if (size < d.minSubgroupSize || size > d.maxSubgroupSize) {
      errors().record(f.name + " was compiled for subgroups of " +
                      std::to_string(size) + " lanes, " + d.name +
                      " has " + std::to_string(d.subgroupSize) +
                      " (compile with --vulkan-options=subgroup-size=" +
                      std::to_string(d.subgroupSize) + ")");
      return false;
    }
    required.requiredSubgroupSize = size;
    info.stage.pNext = &required;
  }
  info.layout = f.layout;
  if (!check(d.vkCreateComputePipelines(d.device, VK_NULL_HANDLE, 1, &info,
                                        nullptr, &f.pipeline),
             ("vkCreateComputePipelines for " + f.name).c_str()))
    return false;
  f.bindings = bindings;
  // $RLX_VULKAN_TRACE shows that each kernel's pipeline is made once.
  if (tracing())
    std::fprintf(stderr,
                 "rlx-vulkan: created the pipeline of %s (%zu buffers)\n",
                 f.name.c_str(), bindings);
  return true;
}

/// Copies `bytes` between host memory and the device allocation holding
/// `device` (toDevice: host to device).
int copy(void *deviceAddress, void *host, uint64_t bytes, bool toDevice) {
  Device *d = device();
  if (!d)
    return 1;
  std::lock_guard<std::mutex> lock(d->mutex);
  auto address = reinterpret_cast<uintptr_t>(deviceAddress);
  Allocation *a = d->find(address);
  if (!a || address + bytes > a->address + a->size) {
    errors().record("copy of " + std::to_string(bytes) +
                    " bytes at a device address outside any allocation");
    return 1;
  }
  uint64_t offset = address - a->address;
  if (a->mapped) {
    char *mapped = static_cast<char *>(a->mapped) + offset;
    if (toDevice)
      std::memcpy(mapped, host, bytes);
    else
      std::memcpy(host, mapped, bytes);
    return 0;
  }
  Allocation staging;
  if (!d->createBuffer(bytes, d->stagingMemoryType, /*map=*/true, staging))
    return 1;
  if (toDevice)
    std::memcpy(staging.mapped, host, bytes);
  VkBufferCopy region{toDevice ? 0 : offset, toDevice ? offset : 0, bytes};
  bool ok = d->runNow([&](VkCommandBuffer commands) {
    d->vkCmdCopyBuffer(commands, toDevice ? staging.buffer : a->buffer,
                       toDevice ? a->buffer : staging.buffer, 1, &region);
  });
  if (ok && !toDevice)
    std::memcpy(host, staging.mapped, bytes);
  d->destroyBuffer(staging);
  return ok ? 0 : 1;
}

void *copyConstant(const void *host, int64_t bytes) {
  void *copyOnDevice = rlxVulkanAlloc(uint64_t(bytes));
  if (copyOnDevice &&
      copy(copyOnDevice, const_cast<void *>(host), uint64_t(bytes), true)) {
    rlxVulkanFree(copyOnDevice);
    return nullptr;
  }
  return copyOnDevice;
}
} // namespace

extern "C" {

void *rlxVulkanAlloc(uint64_t bytes) { return mgpuMemAlloc(bytes, nullptr, false); }

void rlxVulkanFree(void *ptr) { mgpuMemFree(ptr, nullptr); }

int rlxVulkanCopyToDevice(void *device, const void *host, uint64_t bytes) {
  return copy(device, const_cast<void *>(host), bytes, true);
}

int rlxVulkanCopyToHost(void *host, const void *device, uint64_t bytes) {
  return copy(const_cast<void *>(device), host, bytes, false);
}

void *rlxVulkanStreamCreate(void) { return createStream(); }

void rlxVulkanStreamSynchronize(void *stream) {
  if (stream)
    synchronize(*static_cast<Stream *>(stream));
}

void rlxVulkanStreamDestroy(void *stream) {
  Device *d = device();
  auto *s = static_cast<Stream *>(stream);
  if (!d || !s)
    return;
  synchronize(*s);
  if (theUserStream == s)
    theUserStream = nullptr;
  d->vkDestroyFence(d->device, s->fence, nullptr);
  d->vkDestroyCommandPool(d->device, s->pool, nullptr);
  delete s;
}

void rlxVulkanSetStream(void *stream) {
  theUserStream = static_cast<Stream *>(stream);
}

const char *rlxVulkanDeviceName(void) {
  Device *d = device();
  return d ? d->name.c_str() : nullptr;
}

int rlxVulkanSubgroupSize(void) {
  Device *d = device();
  return d ? static_cast<int>(d->subgroupSize) : 0;
}

const char *rlxVulkanCooperativeMatrices(void) {
  Device *d = device();
  return d ? d->cooperativeMatrices.c_str() : nullptr;
}

const char *rlxVulkanGetLastError(void) { return errors().first(); }

void rlxVulkanClearError(void) { errors().clear(); }

void *mgpuModuleLoad(void *data, size_t size) {
  Device *d = device();
  if (!d)
    return nullptr;
  if (size % 4) {
    errors().record("a SPIR-V module of " + std::to_string(size) +
                    " bytes (not whole words)");
    return nullptr;
  }
  // The embedded bytes need not be 4-byte aligned; shader code must be.
  std::vector<uint32_t> words(size / 4);
  std::memcpy(words.data(), data, size);
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = size;
  info.pCode = words.data();
  auto module = std::make_unique<Module>();
  module->subgroupSize = markedSubgroupSize(words);
  if (!check(d->vkCreateShaderModule(d->device, &info, nullptr,
                                     &module->shader),
             "vkCreateShaderModule"))
    return nullptr;
  return module.release();
}

// The vulkan pipeline embeds SPIR-V binaries, never text.
void *mgpuModuleLoadJIT(void *data, int) {
  errors().record("mgpuModuleLoadJIT: SPIR-V modules have no JIT form");
  return nullptr;
}

void mgpuModuleUnload(void *module) {
  // Runs from a global destructor, after the program's last call.
  Device *d = device();
  auto *m = static_cast<Module *>(module);
  if (!d || !m)
    return;
  for (auto &[name, f] : m->functions) {
    if (f->pipeline)
      d->vkDestroyPipeline(d->device, f->pipeline, nullptr);
    if (f->layout)
      d->vkDestroyPipelineLayout(d->device, f->layout, nullptr);
    if (f->setLayout)
      d->vkDestroyDescriptorSetLayout(d->device, f->setLayout, nullptr);
  }
  d->vkDestroyShaderModule(d->device, m->shader, nullptr);
  delete m;
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  Device *d = device();
  if (!d)
    return nullptr;
  if (!module) {
    errors().record(std::string("no module for kernel ") + name);
    return nullptr;
  }
  auto *m = static_cast<Module *>(module);
  std::lock_guard<std::mutex> lock(d->mutex);
  std::unique_ptr<Function> &f = m->functions[name];
  if (!f)
    f.reset(new Function{m, name});
  return f.get();
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount) {
  Device *d = device();
  if (!d)
    return;
  auto *f = static_cast<Function *>(function);
  auto *s = static_cast<Stream *>(stream);
  if (!f || !s) {
    errors().record(!f ? "launch of a kernel that was not loaded"
                       : "launch on no stream");
    return;
  }
  // gpu-to-llvm with bare pointers: each parameter is a buffer's address.
  size_t bindings = paramsCount;
  std::lock_guard<std::mutex> lock(d->mutex);
  if (!f->pipeline &&
      !createPipeline(*d, *f, bindings, uint32_t(blockX * blockY * blockZ)))
    return;
  if (bindings != f->bindings) {
    errors().record(f->name + " launched with " + std::to_string(bindings) +
                    " buffers, its pipeline has " +
                    std::to_string(f->bindings));
    return;
  }
  std::vector<VkDescriptorBufferInfo> buffers(bindings);
  for (size_t i = 0; i < bindings; ++i) {
    auto address = *static_cast<uintptr_t *>(params[i]);
    Allocation *a = d->find(address);
    if (!a) {
      errors().record(f->name + ": buffer " + std::to_string(i) +
                      " is not within a device allocation");
      return;
    }
    uint64_t offset = address - a->address;
    if (offset % d->offsetAlignment) {
      errors().record(f->name + ": buffer " + std::to_string(i) +
                      " starts at offset " + std::to_string(offset) +
                      ", not a multiple of the device's " +
                      std::to_string(d->offsetAlignment) + " bytes");
      return;
    }
    buffers[i] = {a->buffer, offset, VK_WHOLE_SIZE};
  }
  std::vector<VkWriteDescriptorSet> writes(bindings);
  for (size_t i = 0; i < bindings; ++i) {
    writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[i].dstBinding = static_cast<uint32_t>(i);
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[i].pBufferInfo = &buffers[i];
  }
  if (!beginStream(*d, *s))
    return;
  d->vkCmdBindPipeline(s->commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                       f->pipeline);
  d->vkCmdPushDescriptorSetKHR(s->commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                               f->layout, 0, uint32_t(bindings),
                               writes.data());
  d->vkCmdDispatch(s->commands, uint32_t(gridX), uint32_t(gridY),
                   uint32_t(gridZ));
  // The next kernel may read what this one wrote.
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  d->vkCmdPipelineBarrier(s->commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier,
                          0, nullptr, 0, nullptr);
}

void *mgpuStreamCreate(void) {
  return theUserStream ? theUserStream : createStream();
}

void mgpuStreamDestroy(void *stream) {
  if (stream != theUserStream)
    rlxVulkanStreamDestroy(stream);
}

void mgpuStreamSynchronize(void *stream) {
  if (stream && stream != theUserStream)
    synchronize(*static_cast<Stream *>(stream));
}

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared) {
  Device *d = device();
  if (!d)
    return nullptr;
  if (isHostShared) {
    errors().record("host-shared allocations are not supported");
    return nullptr;
  }
  uint64_t bytes = sizeBytes ? sizeBytes : 1;
  auto *s = static_cast<Stream *>(stream);
  std::lock_guard<std::mutex> lock(d->mutex);
  Allocation a;
  if ((s && takeFromPool(s->released, bytes, a)) ||
      takeFromPool(d->idle, bytes, a)) {
    if (tracing())
      std::fprintf(stderr,
                   "rlx-vulkan: reused a buffer of %llu bytes for %llu\n",
                   static_cast<unsigned long long>(a.capacity),
                   static_cast<unsigned long long>(bytes));
  } else {
    // Out of memory with buffers idle: free them and try once more.
    bool pooled = !d->idle.empty();
    if (!d->createBuffer(bytes, d->bufferMemoryType, d->bufferMemoryMapped, a,
                         /*reportErrors=*/!pooled)) {
      if (!pooled)
        return nullptr;
      d->trimPool();
      if (!d->createBuffer(bytes, d->bufferMemoryType, d->bufferMemoryMapped,
                           a))
        return nullptr;
    }
    if (tracing())
      std::fprintf(stderr, "rlx-vulkan: created a buffer of %llu bytes\n",
                   static_cast<unsigned long long>(bytes));
  }
  a.size = bytes;
  // Address ranges never touch, so that a pointer one past an allocation's
  // end is not the next one's start.
  const uintptr_t align = 256;
  a.address = d->nextAddress;
  d->nextAddress += (a.size + 2 * align - 1) / align * align;
  d->allocations[a.address] = a;
  return reinterpret_cast<void *>(a.address);
}

void mgpuMemFree(void *ptr, void *stream) {
  Device *d = device();
  if (!d || !ptr)
    return;
  auto address = reinterpret_cast<uintptr_t>(ptr);
  auto *s = static_cast<Stream *>(stream);
  std::lock_guard<std::mutex> lock(d->mutex);
  releaseAllocation(*d, address, s && s->recording ? s->released : d->idle);
}

void *rlxGpuConstant(const void *host, int64_t bytes) {
  return rlx::runtime::deviceConstant(host, bytes, copyConstant, errors());
}

// The vulkan target's description offers no library kernels, so compiled
// code never calls these; a caller of the ABI learns why.
void rlxGpuMatmul(int32_t, int32_t, int32_t, int32_t, int64_t, int64_t,
                  int64_t, int64_t, const void *, const void *, const void *,
                  void *) {
  errors().record("rlxGpuMatmul: librlx_vulkan_runtime has no library "
                  "matmul (matmuls are generated kernels)");
}

void rlxFlashAttention(int32_t, int32_t, int64_t, int64_t, int64_t, int64_t,
                       int64_t, int64_t, int64_t, float, const void *, int64_t,
                       int64_t, int64_t, const void *, int64_t, int64_t,
                       int64_t, const void *, int64_t, int64_t, int64_t, void *,
                       int64_t, int64_t, int64_t) {
  errors().record("rlxFlashAttention: librlx_vulkan_runtime has no "
                  "flash-attention kernel");
}

} // extern "C"
