// Device internals shared by the layers above it (operators, run()).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "cpu_threads.hpp"
#include "operator_cache.hpp"
#include "pipeline_cache.hpp"
#include "plan/plan.hpp"
#include "vulkan_api.hpp"

namespace vkscan {
namespace detail {

// Work submitted by Device::run() whose wait timed out: the GPU may still
// use its objects, so they live on until the work is finished.
struct AbandonedWork {
  virtual ~AbandonedWork() = default;
  // True once the GPU is done with the work (or the device is lost);
  // `wait` blocks until then.
  virtual bool finished(bool wait) noexcept = 0;
};

// Validation messages reported to every Device of the process, including
// those already destroyed (the layer reports leaks at vkDestroyDevice).
uint64_t processValidationMessageCount() noexcept;

}  // namespace detail

struct Device::Impl {
  ~Impl();

  // Owned only when vkscan made them (headless); an engine's are borrowed.
  bool ownsInstance = false;
  bool ownsDevice = false;
  bool ownsPipelineCache = false;
  VkInstance instance = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  // volk's instance-level pointers are process-wide and reloaded for every
  // new instance; extension functions must come from this instance's own.
  PFN_vkDestroyDebugUtilsMessengerEXT destroyMessenger = nullptr;
  VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queueFamilyIndex = 0;
  VolkDeviceTable vk{};
  VkPhysicalDeviceMemoryProperties memoryProperties{};
  VkPipelineCache vkPipelineCache = VK_NULL_HANDLE;
  VkPipelineLayout pipelineLayout = VK_NULL_HANDLE;
  // Set 0 of pipelineLayout when capabilities.pushDescriptor: the
  // storage-buffer chunk kernels' bindings, pushed with each dispatch.
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  std::unique_ptr<detail::PipelineCache> pipelines;
  // Cleared when the Device is destroyed (OperatorCache::clear()).
  std::unique_ptr<detail::OperatorCache> operators;
  DeviceCapabilities capabilities;
  // Derived from the capabilities; vkscan's tests override it to run every
  // kernel family on one device.
  detail::Tuning tuning{};
  // What the tuning was derived from (zeros on a GPU).
  detail::CpuThreads cpuThreads;
  DeviceOptions options;
  // options.vectorWords resolved (lib/vector_words.hpp): Bits32, Bits64 or
  // Load64Store32.
  VectorWords vectorWords = VectorWords::Bits64;
  std::atomic<uint64_t> validationMessages{0};
  bool validationEnabled = false;  // the layer is loaded and reports here
  bool synchronizationValidation = false;
  std::mutex queueMutex;  // vkQueueSubmit needs external synchronisation
  std::mutex abandonedMutex;
  std::vector<std::unique_ptr<detail::AbandonedWork>> abandoned;

  detail::PlanLimits planLimits() const;
};

namespace detail {

// The internals of a Device, for vkscan's own tests (fault injection patches
// impl.vk) and tools (buffers, timestamps). Not part of the public API.
struct DeviceAccess {
  static Device::Impl& impl(const Device& device) { return *device.impl_; }
  // For tests of its lifetime.
  static std::weak_ptr<Device::Impl> weakImpl(const Device& device) { return device.impl_; }
};

}  // namespace detail
}  // namespace vkscan
