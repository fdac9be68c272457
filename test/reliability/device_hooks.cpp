#include "device_hooks.hpp"

#include <atomic>
#include <map>
#include <mutex>

#include "device/device_impl.hpp"

namespace vkscan::test {
namespace {

struct HookState {
  Device::Impl* impl = nullptr;    // patched, until restore()
  Device::Impl* device = nullptr;  // the last device hooked
  VolkDeviceTable original{};
  std::mutex mutex;
  std::map<std::string, uint64_t> calls;
  std::string faultFunction;
  uint64_t faultAtCall = 0;
  VkResult faultResult = VK_SUCCESS;
  bool fired = false;
  bool dropFences = false;
  std::vector<VkFence> dropped;
};

HookState state;
std::array<std::atomic<int64_t>, kObjectKinds> live{};

void count(ObjectKind kind, int64_t delta) {
  live[static_cast<size_t>(kind)] += delta;
}

// Counts the call; true (with the result to return) when it is the one to fail.
bool injectFault(const char* function, VkResult& result) {
  std::lock_guard<std::mutex> lock(state.mutex);
  uint64_t n = ++state.calls[function];
  if (state.fired || state.faultFunction != function || n != state.faultAtCall) return false;
  state.fired = true;
  result = state.faultResult;
  return true;
}

VKAPI_ATTR VkResult VKAPI_CALL hookCreateBuffer(VkDevice device, const VkBufferCreateInfo* info,
                                                const VkAllocationCallbacks* allocator,
                                                VkBuffer* buffer) {
  VkResult result;
  if (injectFault("vkCreateBuffer", result)) return result;
  result = state.original.vkCreateBuffer(device, info, allocator, buffer);
  if (result == VK_SUCCESS) count(ObjectKind::Buffer, 1);
  return result;
}

VKAPI_ATTR void VKAPI_CALL hookDestroyBuffer(VkDevice device, VkBuffer buffer,
                                             const VkAllocationCallbacks* allocator) {
  if (buffer != VK_NULL_HANDLE) count(ObjectKind::Buffer, -1);
  state.original.vkDestroyBuffer(device, buffer, allocator);
}

VKAPI_ATTR VkResult VKAPI_CALL hookAllocateMemory(VkDevice device, const VkMemoryAllocateInfo* info,
                                                  const VkAllocationCallbacks* allocator,
                                                  VkDeviceMemory* memory) {
  VkResult result;
  if (injectFault("vkAllocateMemory", result)) return result;
  result = state.original.vkAllocateMemory(device, info, allocator, memory);
  if (result == VK_SUCCESS) count(ObjectKind::Memory, 1);
  return result;
}

VKAPI_ATTR void VKAPI_CALL hookFreeMemory(VkDevice device, VkDeviceMemory memory,
                                          const VkAllocationCallbacks* allocator) {
  if (memory != VK_NULL_HANDLE) count(ObjectKind::Memory, -1);
  state.original.vkFreeMemory(device, memory, allocator);
}

VKAPI_ATTR VkResult VKAPI_CALL hookBindBufferMemory(VkDevice device, VkBuffer buffer,
                                                    VkDeviceMemory memory, VkDeviceSize offset) {
  VkResult result;
  if (injectFault("vkBindBufferMemory", result)) return result;
  return state.original.vkBindBufferMemory(device, buffer, memory, offset);
}

VKAPI_ATTR VkResult VKAPI_CALL hookMapMemory(VkDevice device, VkDeviceMemory memory,
                                             VkDeviceSize offset, VkDeviceSize size,
                                             VkMemoryMapFlags flags, void** data) {
  VkResult result;
  if (injectFault("vkMapMemory", result)) return result;
  result = state.original.vkMapMemory(device, memory, offset, size, flags, data);
  if (result == VK_SUCCESS) count(ObjectKind::Mapping, 1);
  return result;
}

VKAPI_ATTR void VKAPI_CALL hookUnmapMemory(VkDevice device, VkDeviceMemory memory) {
  count(ObjectKind::Mapping, -1);
  state.original.vkUnmapMemory(device, memory);
}

VKAPI_ATTR VkResult VKAPI_CALL hookCreateShaderModule(VkDevice device,
                                                      const VkShaderModuleCreateInfo* info,
                                                      const VkAllocationCallbacks* allocator,
                                                      VkShaderModule* module) {
  VkResult result;
  if (injectFault("vkCreateShaderModule", result)) return result;
  result = state.original.vkCreateShaderModule(device, info, allocator, module);
  if (result == VK_SUCCESS) count(ObjectKind::ShaderModule, 1);
  return result;
}

VKAPI_ATTR void VKAPI_CALL hookDestroyShaderModule(VkDevice device, VkShaderModule module,
                                                   const VkAllocationCallbacks* allocator) {
  if (module != VK_NULL_HANDLE) count(ObjectKind::ShaderModule, -1);
  state.original.vkDestroyShaderModule(device, module, allocator);
}

VKAPI_ATTR VkResult VKAPI_CALL hookCreateComputePipelines(VkDevice device, VkPipelineCache cache,
                                                          uint32_t count_,
                                                          const VkComputePipelineCreateInfo* infos,
                                                          const VkAllocationCallbacks* allocator,
                                                          VkPipeline* pipelines) {
  VkResult fault;
  bool failing = injectFault("vkCreateComputePipelines", fault);
  if (failing && count_ <= 1) {
    for (uint32_t i = 0; i < count_; ++i) pipelines[i] = VK_NULL_HANDLE;
    return fault;
  }
  VkResult result =
      state.original.vkCreateComputePipelines(device, cache, count_, infos, allocator, pipelines);
  for (uint32_t i = 0; i < count_; ++i) {
    if (pipelines[i] != VK_NULL_HANDLE) count(ObjectKind::Pipeline, 1);
  }
  if (failing) {
    // A partial failure: every pipeline but the last was created.
    VkPipeline& last = pipelines[count_ - 1];
    if (last != VK_NULL_HANDLE) {
      state.original.vkDestroyPipeline(device, last, allocator);
      count(ObjectKind::Pipeline, -1);
      last = VK_NULL_HANDLE;
    }
    return fault;
  }
  return result;
}

VKAPI_ATTR void VKAPI_CALL hookDestroyPipeline(VkDevice device, VkPipeline pipeline,
                                               const VkAllocationCallbacks* allocator) {
  if (pipeline != VK_NULL_HANDLE) count(ObjectKind::Pipeline, -1);
  state.original.vkDestroyPipeline(device, pipeline, allocator);
}

VKAPI_ATTR VkResult VKAPI_CALL hookCreateCommandPool(VkDevice device,
                                                     const VkCommandPoolCreateInfo* info,
                                                     const VkAllocationCallbacks* allocator,
                                                     VkCommandPool* pool) {
  VkResult result;
  if (injectFault("vkCreateCommandPool", result)) return result;
  result = state.original.vkCreateCommandPool(device, info, allocator, pool);
  if (result == VK_SUCCESS) count(ObjectKind::CommandPool, 1);
  return result;
}

VKAPI_ATTR void VKAPI_CALL hookDestroyCommandPool(VkDevice device, VkCommandPool pool,
                                                  const VkAllocationCallbacks* allocator) {
  if (pool != VK_NULL_HANDLE) count(ObjectKind::CommandPool, -1);
  state.original.vkDestroyCommandPool(device, pool, allocator);
}

VKAPI_ATTR VkResult VKAPI_CALL hookAllocateCommandBuffers(VkDevice device,
                                                          const VkCommandBufferAllocateInfo* info,
                                                          VkCommandBuffer* buffers) {
  VkResult result;
  if (injectFault("vkAllocateCommandBuffers", result)) return result;
  return state.original.vkAllocateCommandBuffers(device, info, buffers);
}

VKAPI_ATTR VkResult VKAPI_CALL hookBeginCommandBuffer(VkCommandBuffer buffer,
                                                      const VkCommandBufferBeginInfo* info) {
  VkResult result;
  if (injectFault("vkBeginCommandBuffer", result)) return result;
  return state.original.vkBeginCommandBuffer(buffer, info);
}

VKAPI_ATTR VkResult VKAPI_CALL hookEndCommandBuffer(VkCommandBuffer buffer) {
  VkResult result;
  if (injectFault("vkEndCommandBuffer", result)) return result;
  return state.original.vkEndCommandBuffer(buffer);
}

VKAPI_ATTR VkResult VKAPI_CALL hookCreateFence(VkDevice device, const VkFenceCreateInfo* info,
                                               const VkAllocationCallbacks* allocator,
                                               VkFence* fence) {
  VkResult result;
  if (injectFault("vkCreateFence", result)) return result;
  result = state.original.vkCreateFence(device, info, allocator, fence);
  if (result == VK_SUCCESS) count(ObjectKind::Fence, 1);
  return result;
}

VKAPI_ATTR void VKAPI_CALL hookDestroyFence(VkDevice device, VkFence fence,
                                            const VkAllocationCallbacks* allocator) {
  if (fence != VK_NULL_HANDLE) count(ObjectKind::Fence, -1);
  state.original.vkDestroyFence(device, fence, allocator);
}

VKAPI_ATTR VkResult VKAPI_CALL hookQueueSubmit(VkQueue queue, uint32_t submitCount,
                                               const VkSubmitInfo* submits, VkFence fence) {
  VkResult result;
  if (injectFault("vkQueueSubmit", result)) return result;
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    if (state.dropFences && fence != VK_NULL_HANDLE) {
      state.dropped.push_back(fence);
      fence = VK_NULL_HANDLE;
    }
  }
  return state.original.vkQueueSubmit(queue, submitCount, submits, fence);
}

VKAPI_ATTR VkResult VKAPI_CALL hookWaitForFences(VkDevice device, uint32_t fenceCount,
                                                 const VkFence* fences, VkBool32 waitAll,
                                                 uint64_t timeout) {
  VkResult fault;
  bool failing = injectFault("vkWaitForFences", fault);
  // A failing wait still waits, so that nothing the test then destroys is
  // in use by the (real) device.
  VkResult result = state.original.vkWaitForFences(device, fenceCount, fences, waitAll,
                                                   failing ? UINT64_MAX : timeout);
  return failing ? fault : result;
}

}  // namespace

std::string LiveObjects::describe() const {
  const char* names[kObjectKinds] = {"buffers", "memory",         "mappings", "command pools",
                                     "fences",  "shader modules", "pipelines"};
  std::string text;
  for (size_t i = 0; i < kObjectKinds; ++i) {
    text += (i ? ", " : "") + std::string(names[i]) + " " + std::to_string(count[i]);
  }
  return text;
}

LiveObjects liveObjects() {
  LiveObjects objects;
  for (size_t i = 0; i < kObjectKinds; ++i) objects.count[i] = live[i].load();
  return objects;
}

const std::vector<std::string>& faultableFunctions() {
  static const std::vector<std::string> names = {"vkCreateBuffer",       "vkAllocateMemory",
                                                 "vkBindBufferMemory",   "vkMapMemory",
                                                 "vkCreateShaderModule", "vkCreateComputePipelines",
                                                 "vkCreateCommandPool",  "vkAllocateCommandBuffers",
                                                 "vkBeginCommandBuffer", "vkEndCommandBuffer",
                                                 "vkCreateFence",        "vkQueueSubmit",
                                                 "vkWaitForFences"};
  return names;
}

DeviceHooks::DeviceHooks(const Device& device) {
  Device::Impl& impl = Device::Access::impl(device);
  std::lock_guard<std::mutex> lock(state.mutex);
  state.impl = &impl;
  state.device = &impl;
  state.original = impl.vk;
  state.calls.clear();
  state.faultFunction.clear();
  state.fired = false;
  state.dropFences = false;
  state.dropped.clear();
  for (std::atomic<int64_t>& objects : live) objects = 0;
  VolkDeviceTable& vk = impl.vk;
  vk.vkCreateBuffer = hookCreateBuffer;
  vk.vkDestroyBuffer = hookDestroyBuffer;
  vk.vkAllocateMemory = hookAllocateMemory;
  vk.vkFreeMemory = hookFreeMemory;
  vk.vkBindBufferMemory = hookBindBufferMemory;
  vk.vkMapMemory = hookMapMemory;
  vk.vkUnmapMemory = hookUnmapMemory;
  vk.vkCreateShaderModule = hookCreateShaderModule;
  vk.vkDestroyShaderModule = hookDestroyShaderModule;
  vk.vkCreateComputePipelines = hookCreateComputePipelines;
  vk.vkDestroyPipeline = hookDestroyPipeline;
  vk.vkCreateCommandPool = hookCreateCommandPool;
  vk.vkDestroyCommandPool = hookDestroyCommandPool;
  vk.vkAllocateCommandBuffers = hookAllocateCommandBuffers;
  vk.vkBeginCommandBuffer = hookBeginCommandBuffer;
  vk.vkEndCommandBuffer = hookEndCommandBuffer;
  vk.vkCreateFence = hookCreateFence;
  vk.vkDestroyFence = hookDestroyFence;
  vk.vkQueueSubmit = hookQueueSubmit;
  vk.vkWaitForFences = hookWaitForFences;
}

DeviceHooks::~DeviceHooks() {
  restore();
}

void DeviceHooks::restore() {
  std::lock_guard<std::mutex> lock(state.mutex);
  if (state.impl == nullptr) return;
  state.impl->vk = state.original;
  state.impl = nullptr;
}

void DeviceHooks::keepThroughTeardown() {
  std::lock_guard<std::mutex> lock(state.mutex);
  state.impl = nullptr;
  state.device = nullptr;
}

void DeviceHooks::failCall(const std::string& function, uint64_t nth, VkResult result) {
  std::lock_guard<std::mutex> lock(state.mutex);
  state.faultFunction = function;
  state.faultAtCall = state.calls[function] + nth;
  state.faultResult = result;
  state.fired = false;
}

void DeviceHooks::clearFaults() {
  std::lock_guard<std::mutex> lock(state.mutex);
  state.faultFunction.clear();
}

bool DeviceHooks::faultFired() const {
  std::lock_guard<std::mutex> lock(state.mutex);
  return state.fired;
}

uint64_t DeviceHooks::calls(const std::string& function) const {
  std::lock_guard<std::mutex> lock(state.mutex);
  auto it = state.calls.find(function);
  return it == state.calls.end() ? 0 : it->second;
}

void DeviceHooks::dropSubmitFences(bool drop) {
  std::lock_guard<std::mutex> lock(state.mutex);
  state.dropFences = drop;
}

void DeviceHooks::signalDroppedFences() {
  std::vector<VkFence> fences;
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    fences.swap(state.dropped);
  }
  Device::Impl& impl = *state.device;
  std::lock_guard<std::mutex> queueLock(impl.queueMutex);
  for (VkFence fence : fences) {
    detail::check(state.original.vkQueueSubmit(impl.queue, 0, nullptr, fence), "vkQueueSubmit");
  }
}

}  // namespace vkscan::test
