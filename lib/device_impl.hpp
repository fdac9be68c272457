// Device internals shared by the layers above it (operators, run()).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>

#include "pipeline_cache.hpp"
#include "plan.hpp"
#include "vulkan_api.hpp"

namespace vkscan {

struct Device::Impl {
  ~Impl();

  // Owned only when vkscan made them (headless); an engine's are borrowed.
  bool ownsInstance = false;
  bool ownsDevice = false;
  bool ownsPipelineCache = false;
  VkInstance instance = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queueFamilyIndex = 0;
  VolkDeviceTable vk{};
  VkPhysicalDeviceMemoryProperties memoryProperties{};
  VkPipelineCache vkPipelineCache = VK_NULL_HANDLE;
  VkPipelineLayout pipelineLayout = VK_NULL_HANDLE;
  std::unique_ptr<detail::PipelineCache> pipelines;
  DeviceCapabilities capabilities;
  // Derived from the capabilities; vkscan's tests override it to run every
  // kernel family on one device.
  detail::Tuning tuning{};
  DeviceOptions options;
  std::atomic<uint64_t> validationMessages{0};
  std::mutex queueMutex;  // vkQueueSubmit needs external synchronisation

  detail::PlanLimits planLimits() const;
};

namespace detail {

// The internals of a Device, for vkscan's own tests (fault injection patches
// impl.vk) and tools (buffers, timestamps). Not part of the public API.
struct DeviceAccess {
  static Device::Impl& impl(const Device& device) { return *device.impl_; }
};

}  // namespace detail
}  // namespace vkscan
