// Device internals shared by the layers above it (operators, the host
// helpers), and the one way vkscan's own code and tests reach them.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>
#include <vkscan/host.hpp>

#include "device/cpu_threads.hpp"
#include "device/vector_words.hpp"
#include "operator/operator_cache.hpp"
#include "pipeline_cache.hpp"
#include "plan/plan.hpp"
#include "vulkan_api.hpp"

namespace vkscan {
namespace detail {

// Work submitted by run() whose wait timed out: the device may still use its
// objects, so they live on until the work is finished.
struct AbandonedWork {
  virtual ~AbandonedWork() = default;
  // True once the device is done with the work (or lost); `wait` blocks
  // until then.
  virtual bool finished(bool wait) noexcept = 0;
};

// Validation messages reported to every Device of the process, including
// those already destroyed (the layer reports leaks at vkDestroyDevice).
uint64_t processValidationMessageCount() noexcept;

}  // namespace detail

struct VKSCAN_HIDDEN Device::Impl {
  ~Impl();

  // Owned only when vkscan made them (createDevice()); an engine's are
  // borrowed.
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
  // VKSCAN_TUNING's text where it changed the tuning (describe() says so).
  std::string tuningOverride;
  detail::VectorWords vectorWords = detail::VectorWords::Bits64;
  // run()'s bound on its wait (DeviceOptions::timeoutNs).
  uint64_t timeoutNs = 60ull * 1000 * 1000 * 1000;
  std::atomic<uint64_t> validationMessages{0};
  bool validationEnabled = false;  // the layer is loaded and reports here
  bool synchronizationValidation = false;
  std::mutex queueMutex;  // vkQueueSubmit needs external synchronisation
  std::mutex abandonedMutex;
  std::vector<std::unique_ptr<detail::AbandonedWork>> abandoned;

  bool supports(DataType type) const noexcept;
  detail::PlanLimits planLimits() const;
};

// vkscan's own code and tests reach a Device's internals through this
// alone; it is not part of the public API.
struct VKSCAN_HIDDEN Device::Access {
  static Device::Impl& impl(const Device& device) { return *device.impl_; }
  static std::weak_ptr<Device::Impl> weakImpl(const Device& device) { return device.impl_; }
  static Device wrap(std::shared_ptr<Device::Impl> impl) { return Device(std::move(impl)); }
  static const Operator::Impl& impl(const Operator& op) { return *op.impl_; }
};

namespace detail {

// What a Device needs beyond its handles and capabilities: the function
// table, the tuning, the vector words (unless `vectorWords` is set: vkscan's
// tests force each form), the pipeline cache and layout, the caches.
// `external`: an engine's pipeline cache, or VK_NULL_HANDLE to create one
// from `cacheData`.
void finishDeviceSetup(Device::Impl& impl, VkPipelineCache external,
                       const std::vector<uint8_t>& cacheData, size_t operatorCacheCapacity,
                       const VectorWords* vectorWords = nullptr);

// The physical device's properties and features as vkscan uses them, with
// every optional feature it has (callers clear what is not enabled).
DeviceCapabilities queryCapabilities(VkPhysicalDevice physical);

bool hasDeviceExtension(VkPhysicalDevice physical, const char* name);

}  // namespace detail
}  // namespace vkscan
