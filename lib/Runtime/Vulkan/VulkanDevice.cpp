//===- VulkanDevice.cpp - instance, device, buffers -----------------------===//
//
// Part of the RLX-MLIR project, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "VulkanDevice.h"

#include "DynamicLibrary.h"

#include <cstdlib>
#include <cstring>
#include <vector>

using namespace rlx::vulkan;

// VK_KHR_cooperative_matrix came with Vulkan headers 1.3.255; Debian 12's
// are 1.3.239. The few values the runtime uses, from the registry (vk.xml).
namespace {
constexpr const char *kCooperativeMatrixExtension = "VK_KHR_cooperative_matrix";
constexpr auto kCooperativeMatrixFeaturesType =
    static_cast<VkStructureType>(1000506000);
constexpr auto kCooperativeMatrixPropertiesType =
    static_cast<VkStructureType>(1000506001);
/// VkComponentTypeKHR's values 0-10 (FLOAT16 ... UINT64), and BFLOAT16's
/// (VK_KHR_shader_bfloat16).
constexpr const char *kComponentTypes[] = {
    "f16", "f32", "f64", "s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64"};
constexpr uint32_t kComponentTypeBFloat16 = 1000141000;
/// VkScopeKHR's subgroup scope (device 1, workgroup 2, queue family 5).
constexpr uint32_t kScopeSubgroup = 3;

// VK_KHR_shader_bfloat16 (headers 1.4.311): bf16 in shaders and as
// cooperative matrix components (--vulkan-options=cooperative-matrix=bf16).
constexpr const char *kBFloat16Extension = "VK_KHR_shader_bfloat16";
constexpr auto kBFloat16FeaturesType = static_cast<VkStructureType>(1000141000);

struct BFloat16Features {
  VkStructureType sType = kBFloat16FeaturesType;
  void *pNext = nullptr;
  VkBool32 shaderBFloat16Type = VK_FALSE;
  VkBool32 shaderBFloat16DotProduct = VK_FALSE;
  VkBool32 shaderBFloat16CooperativeMatrix = VK_FALSE;
};

struct CooperativeMatrixFeatures {
  VkStructureType sType = kCooperativeMatrixFeaturesType;
  void *pNext = nullptr;
  VkBool32 cooperativeMatrix = VK_FALSE;
  VkBool32 cooperativeMatrixRobustBufferAccess = VK_FALSE;
};

struct CooperativeMatrixProperties {
  VkStructureType sType = kCooperativeMatrixPropertiesType;
  void *pNext = nullptr;
  uint32_t MSize = 0, NSize = 0, KSize = 0;
  uint32_t AType = 0, BType = 0, CType = 0, ResultType = 0;
  VkBool32 saturatingAccumulation = VK_FALSE;
  uint32_t scope = 0;
};

using GetCooperativeMatrixProperties = VkResult(VKAPI_PTR *)(
    VkPhysicalDevice, uint32_t *, CooperativeMatrixProperties *);
} // namespace

namespace {
PFN_vkGetInstanceProcAddr getInstanceProcAddr = nullptr;

/// The loader: $RLX_VULKAN_LOADER, else libvulkan.so.1.
bool openLoader() {
  void *lib = rlx::runtime::openLibrary("the Vulkan loader",
                                        "RLX_VULKAN_LOADER",
                                        {"libvulkan.so.1"}, errors());
  if (!lib)
    return false;
  rlx::runtime::SymbolBinder bind(lib, "the Vulkan loader", errors());
  bind(getInstanceProcAddr, "vkGetInstanceProcAddr");
  return bind.ok();
}

template <typename Fn> Fn instanceFn(VkInstance instance, const char *name) {
  auto fn = reinterpret_cast<Fn>(getInstanceProcAddr(instance, name));
  if (!fn)
    errors().record(std::string("the Vulkan loader lacks ") + name);
  return fn;
}

/// The index of a memory type of `typeBits` with all `flags`, or -1.
int findMemoryType(const VkPhysicalDeviceMemoryProperties &memory,
                   uint32_t typeBits, VkMemoryPropertyFlags flags) {
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i)
    if ((typeBits & (1u << i)) &&
        (memory.memoryTypes[i].propertyFlags & flags) == flags)
      return static_cast<int>(i);
  return -1;
}

/// The physical device $RLX_VULKAN_DEVICE names (an index or part of the
/// name), else the first discrete GPU, else the first device.
VkPhysicalDevice choosePhysical(VkInstance instance) {
  auto enumerate = instanceFn<PFN_vkEnumeratePhysicalDevices>(
      instance, "vkEnumeratePhysicalDevices");
  auto properties = instanceFn<PFN_vkGetPhysicalDeviceProperties>(
      instance, "vkGetPhysicalDeviceProperties");
  if (!enumerate || !properties)
    return VK_NULL_HANDLE;
  uint32_t count = 0;
  if (!check(enumerate(instance, &count, nullptr),
             "vkEnumeratePhysicalDevices"))
    return VK_NULL_HANDLE;
  std::vector<VkPhysicalDevice> devices(count);
  if (!count || !check(enumerate(instance, &count, devices.data()),
                       "vkEnumeratePhysicalDevices")) {
    errors().record("no Vulkan device");
    return VK_NULL_HANDLE;
  }
  const char *wanted = std::getenv("RLX_VULKAN_DEVICE");
  std::string names;
  VkPhysicalDevice discrete = VK_NULL_HANDLE;
  for (uint32_t i = 0; i < count; ++i) {
    VkPhysicalDeviceProperties p;
    properties(devices[i], &p);
    names += (i ? ", " : "") + std::to_string(i) + ": " + p.deviceName;
    if (wanted && *wanted &&
        (std::to_string(i) == wanted || std::strstr(p.deviceName, wanted)))
      return devices[i];
    if (!discrete && p.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU)
      discrete = devices[i];
  }
  if (wanted && *wanted) {
    errors().record(std::string("no Vulkan device matches RLX_VULKAN_DEVICE=") +
                    wanted + " (" + names + ")");
    return VK_NULL_HANDLE;
  }
  return discrete ? discrete : devices[0];
}

bool hasExtension(VkInstance instance, VkPhysicalDevice physical,
                  const char *name) {
  auto enumerate = instanceFn<PFN_vkEnumerateDeviceExtensionProperties>(
      instance, "vkEnumerateDeviceExtensionProperties");
  uint32_t count = 0;
  if (!enumerate || enumerate(physical, nullptr, &count, nullptr))
    return false;
  std::vector<VkExtensionProperties> all(count);
  enumerate(physical, nullptr, &count, all.data());
  for (const VkExtensionProperties &e : all)
    if (!std::strcmp(e.extensionName, name))
      return true;
  return false;
}

std::string componentType(uint32_t type) {
  if (type < std::size(kComponentTypes))
    return kComponentTypes[type];
  return type == kComponentTypeBFloat16 ? "bf16" : std::to_string(type);
}

/// The device's cooperative matrix configurations, one a line.
std::string cooperativeMatrices(VkInstance instance,
                                VkPhysicalDevice physical) {
  auto get =
      reinterpret_cast<GetCooperativeMatrixProperties>(getInstanceProcAddr(
          instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR"));
  uint32_t count = 0;
  if (!get || get(physical, &count, nullptr) != VK_SUCCESS)
    return "";
  std::vector<CooperativeMatrixProperties> all(count);
  if (get(physical, &count, all.data()) != VK_SUCCESS)
    return "";
  std::string lines;
  for (const CooperativeMatrixProperties &p : all) {
    lines += std::to_string(p.MSize) + "x" + std::to_string(p.NSize) + "x" +
             std::to_string(p.KSize) + " " + componentType(p.AType) + "," +
             componentType(p.BType) + "->" + componentType(p.CType) + "/" +
             componentType(p.ResultType) +
             (p.saturatingAccumulation ? " saturating" : "") +
             (p.scope == kScopeSubgroup ? " subgroup"
                                        : " scope " + std::to_string(p.scope)) +
             "\n";
  }
  return lines;
}

bool createDevice(Device &d) {
  if (!openLoader())
    return false;
  auto createInstance =
      instanceFn<PFN_vkCreateInstance>(nullptr, "vkCreateInstance");
  if (!createInstance)
    return false;
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "rlx";
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo instanceInfo{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instanceInfo.pApplicationInfo = &app;
  if (!check(createInstance(&instanceInfo, nullptr, &d.instance),
             "vkCreateInstance"))
    return false;
  d.physical = choosePhysical(d.instance);
  if (!d.physical)
    return false;

  // Properties: name, subgroup sizes, buffer offset alignment.
  VkPhysicalDeviceVulkan13Properties p13{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
  VkPhysicalDeviceSubgroupProperties subgroup{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES, &p13};
  VkPhysicalDeviceProperties2 properties{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
  auto getProperties = instanceFn<PFN_vkGetPhysicalDeviceProperties2>(
      d.instance, "vkGetPhysicalDeviceProperties2");
  if (!getProperties)
    return false;
  getProperties(d.physical, &properties);
  d.name = properties.properties.deviceName;
  d.subgroupSize = subgroup.subgroupSize;
  d.offsetAlignment =
      properties.properties.limits.minStorageBufferOffsetAlignment;
  if (properties.properties.apiVersion < VK_API_VERSION_1_3) {
    errors().record(d.name + " offers Vulkan " +
                    std::to_string(VK_API_VERSION_MAJOR(
                        properties.properties.apiVersion)) +
                    "." +
                    std::to_string(VK_API_VERSION_MINOR(
                        properties.properties.apiVersion)) +
                    ", the runtime needs 1.3");
    return false;
  }
  if (!hasExtension(d.instance, d.physical,
                    VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME)) {
    errors().record(d.name + " lacks " VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
    return false;
  }

  // Every optional feature the kernels may use is enabled where the device
  // has it (SPIR-V capabilities the device lacks fail at pipeline
  // creation); robust buffer access stays off (it costs bounds checks).
  // So are cooperative matrices (VK_KHR_cooperative_matrix, the matmuls of
  // --vulkan-options=cooperative-matrix=...), queried only where the
  // device has the extension.
  // bf16 (VK_KHR_shader_bfloat16) likewise.
  bool cooperative =
      hasExtension(d.instance, d.physical, kCooperativeMatrixExtension);
  bool bf16 = hasExtension(d.instance, d.physical, kBFloat16Extension);
  BFloat16Features bf16Features;
  CooperativeMatrixFeatures cooperativeFeatures;
  VkPhysicalDeviceVulkan13Features v13{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  // Chains the optional extensions' features after v13: to query those
  // the device has, then to enable those it offers.
  auto chainOptional = [&] {
    cooperativeFeatures.pNext = bf16 ? &bf16Features : nullptr;
    v13.pNext = cooperative ? static_cast<void *>(&cooperativeFeatures)
                : bf16      ? static_cast<void *>(&bf16Features)
                            : nullptr;
  };
  chainOptional();
  VkPhysicalDeviceVulkan12Features v12{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &v13};
  VkPhysicalDeviceVulkan11Features v11{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &v12};
  VkPhysicalDeviceFeatures2 features{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v11};
  auto getFeatures = instanceFn<PFN_vkGetPhysicalDeviceFeatures2>(
      d.instance, "vkGetPhysicalDeviceFeatures2");
  if (!getFeatures)
    return false;
  getFeatures(d.physical, &features);
  features.features.robustBufferAccess = VK_FALSE;
  v13.robustImageAccess = VK_FALSE;
  cooperativeFeatures.cooperativeMatrixRobustBufferAccess = VK_FALSE;
  // An extension is enabled with its features where it has any.
  bf16 = bf16 && (bf16Features.shaderBFloat16Type ||
                  bf16Features.shaderBFloat16CooperativeMatrix);
  cooperative = cooperativeFeatures.cooperativeMatrix;
  chainOptional();
  if (cooperative)
    d.cooperativeMatrices = cooperativeMatrices(d.instance, d.physical);
  d.fullSubgroups = v13.computeFullSubgroups;
  if (v13.subgroupSizeControl &&
      (p13.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT)) {
    d.minSubgroupSize = p13.minSubgroupSize;
    d.maxSubgroupSize = p13.maxSubgroupSize;
  }

  auto queueFamilies = instanceFn<PFN_vkGetPhysicalDeviceQueueFamilyProperties>(
      d.instance, "vkGetPhysicalDeviceQueueFamilyProperties");
  if (!queueFamilies)
    return false;
  uint32_t familyCount = 0;
  queueFamilies(d.physical, &familyCount, nullptr);
  std::vector<VkQueueFamilyProperties> families(familyCount);
  queueFamilies(d.physical, &familyCount, families.data());
  d.queueFamily = familyCount;
  for (uint32_t i = 0; i < familyCount && d.queueFamily == familyCount; ++i)
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
      d.queueFamily = i;
  if (d.queueFamily == familyCount) {
    errors().record(d.name + " has no compute queue");
    return false;
  }
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queueInfo.queueFamilyIndex = d.queueFamily;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  std::vector<const char *> extensions = {
      VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
  if (cooperative)
    extensions.push_back(kCooperativeMatrixExtension);
  if (bf16)
    extensions.push_back(kBFloat16Extension);
  VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                                &features};
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  deviceInfo.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  deviceInfo.ppEnabledExtensionNames = extensions.data();
  auto create = instanceFn<PFN_vkCreateDevice>(d.instance, "vkCreateDevice");
  auto getDeviceProcAddr =
      instanceFn<PFN_vkGetDeviceProcAddr>(d.instance, "vkGetDeviceProcAddr");
  if (!create || !getDeviceProcAddr ||
      !check(create(d.physical, &deviceInfo, nullptr, &d.device),
             "vkCreateDevice"))
    return false;
  bool ok = true;
#define RLX_VULKAN_BIND(fn)                                                    \
  d.fn = reinterpret_cast<PFN_##fn>(getDeviceProcAddr(d.device, #fn));         \
  if (!d.fn) {                                                                 \
    errors().record(d.name + " lacks " #fn);                                   \
    ok = false;                                                                \
  }
  RLX_VULKAN_DEVICE_FUNCTIONS(RLX_VULKAN_BIND)
#undef RLX_VULKAN_BIND
  if (!ok)
    return false;
  d.vkGetDeviceQueue(d.device, d.queueFamily, 0, &d.queue);

  // Kernel buffers in device-local memory; where it is host-visible and
  // coherent too (a CPU device, or resizable BAR) they are mapped and
  // copies are memcpy. A probe buffer gives the usable memory type bits.
  VkPhysicalDeviceMemoryProperties memory;
  auto memoryProperties = instanceFn<PFN_vkGetPhysicalDeviceMemoryProperties>(
      d.instance, "vkGetPhysicalDeviceMemoryProperties");
  if (!memoryProperties)
    return false;
  memoryProperties(d.physical, &memory);
  VkBufferCreateInfo probeInfo{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  probeInfo.size = 256;
  probeInfo.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                    VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                    VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VkBuffer probe;
  if (!check(d.vkCreateBuffer(d.device, &probeInfo, nullptr, &probe),
             "vkCreateBuffer"))
    return false;
  VkMemoryRequirements requirements;
  d.vkGetBufferMemoryRequirements(d.device, probe, &requirements);
  d.vkDestroyBuffer(d.device, probe, nullptr);
  const VkMemoryPropertyFlags hostFlags = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                          VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  int both = findMemoryType(memory, requirements.memoryTypeBits,
                            VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | hostFlags);
  int local = findMemoryType(memory, requirements.memoryTypeBits,
                             VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  int host = findMemoryType(memory, requirements.memoryTypeBits, hostFlags);
  // A host-visible device-local heap smaller than the device-local one is
  // the 256 MiB BAR window of a discrete GPU: not for kernel buffers.
  if (both >= 0 && local >= 0 &&
      memory.memoryHeaps[memory.memoryTypes[both].heapIndex].size <
          memory.memoryHeaps[memory.memoryTypes[local].heapIndex].size)
    both = -1;
  if ((both < 0 && local < 0) || host < 0) {
    errors().record(d.name + " has no usable memory type for buffers");
    return false;
  }
  d.bufferMemoryMapped = both >= 0;
  d.bufferMemoryType = both >= 0 ? both : local;
  d.stagingMemoryType = host;
  return true;
}
} // namespace

namespace rlx::vulkan {

rlx::runtime::ErrorRecord &errors() {
  static rlx::runtime::ErrorRecord record("rlx-vulkan");
  return record;
}

bool check(VkResult result, const char *call) {
  if (result == VK_SUCCESS)
    return true;
  errors().record(std::string(call) + " failed: VkResult " +
                  std::to_string(result));
  return false;
}

Device *device() {
  // Never destroyed: compiled code unloads its modules from global
  // destructors, in no order relative to this one.
  static Device *d = [] {
    auto *created = new Device;
    if (createDevice(*created))
      return created;
    return static_cast<Device *>(nullptr);
  }();
  return d;
}

bool Device::createBuffer(uint64_t bytes, uint32_t memoryType, bool map,
                          Allocation &allocation, bool reportErrors) {
  auto succeeded = [&](VkResult result, const char *call) {
    return reportErrors ? check(result, call) : result == VK_SUCCESS;
  };
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = bytes;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
               VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  if (!succeeded(vkCreateBuffer(device, &info, nullptr, &allocation.buffer),
                 "vkCreateBuffer"))
    return false;
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(device, allocation.buffer, &requirements);
  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = memoryType;
  allocation.size = bytes;
  allocation.capacity = bytes;
  if (!succeeded(
          vkAllocateMemory(device, &allocate, nullptr, &allocation.memory),
          "vkAllocateMemory") ||
      !succeeded(
          vkBindBufferMemory(device, allocation.buffer, allocation.memory, 0),
          "vkBindBufferMemory") ||
      (map && !succeeded(vkMapMemory(device, allocation.memory, 0,
                                     VK_WHOLE_SIZE, 0, &allocation.mapped),
                         "vkMapMemory"))) {
    destroyBuffer(allocation);
    return false;
  }
  return true;
}

void Device::destroyBuffer(Allocation &allocation) {
  if (allocation.buffer)
    vkDestroyBuffer(device, allocation.buffer, nullptr);
  if (allocation.memory)
    vkFreeMemory(device, allocation.memory, nullptr);
  allocation = Allocation();
}

void Device::trimPool() {
  for (auto &[capacity, allocation] : idle)
    destroyBuffer(allocation);
  idle.clear();
}

bool takeFromPool(BufferPool &pool, uint64_t bytes, Allocation &allocation) {
  auto it = pool.lower_bound(bytes);
  if (it == pool.end() || it->first / 2 > bytes)
    return false;
  allocation = it->second;
  pool.erase(it);
  return true;
}

Allocation *Device::find(uintptr_t address) {
  auto it = allocations.upper_bound(address);
  if (it == allocations.begin())
    return nullptr;
  --it;
  Allocation &a = it->second;
  return address < a.address + a.size ? &a : nullptr;
}

bool Device::runNow(const std::function<void(VkCommandBuffer)> &record) {
  static VkCommandPool pool = VK_NULL_HANDLE;
  static VkCommandBuffer commands = VK_NULL_HANDLE;
  static VkFence fence = VK_NULL_HANDLE;
  if (!pool) {
    VkCommandPoolCreateInfo poolInfo{
        VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    poolInfo.queueFamilyIndex = queueFamily;
    VkCommandBufferAllocateInfo bufferInfo{
        VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    bufferInfo.commandBufferCount = 1;
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if (!check(vkCreateCommandPool(device, &poolInfo, nullptr, &pool),
               "vkCreateCommandPool"))
      return false;
    bufferInfo.commandPool = pool;
    if (!check(vkAllocateCommandBuffers(device, &bufferInfo, &commands),
               "vkAllocateCommandBuffers") ||
        !check(vkCreateFence(device, &fenceInfo, nullptr, &fence),
               "vkCreateFence"))
      return false;
  }
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  if (!check(vkResetCommandBuffer(commands, 0), "vkResetCommandBuffer") ||
      !check(vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer"))
    return false;
  record(commands);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands;
  return check(vkEndCommandBuffer(commands), "vkEndCommandBuffer") &&
         check(vkQueueSubmit(queue, 1, &submit, fence), "vkQueueSubmit") &&
         check(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX),
               "vkWaitForFences") &&
         check(vkResetFences(device, 1, &fence), "vkResetFences");
}

} // namespace rlx::vulkan
