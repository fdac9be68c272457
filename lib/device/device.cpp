// Wrapping a VkDevice: what every vkscan::Device shares, whether an engine's
// (ExternalDevice) or vkscan's own (lib/host/headless_device.cpp).
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "device/device_impl.hpp"
#include "host/device_selection.hpp"
#include "plan/limits.hpp"
#include "scan_params.h"
#include "tuning/tuning_override.hpp"

namespace vkscan {
namespace {

void initializeLoader(PFN_vkGetInstanceProcAddr getInstanceProcAddr) {
  if (getInstanceProcAddr != nullptr) {
    volkInitializeCustom(getInstanceProcAddr);
    return;
  }
  if (volkInitialize() != VK_SUCCESS) {
    throw Unsupported("the Vulkan loader (libvulkan.so.1) could not be loaded");
  }
}

std::string versionText(uint32_t version) {
  return std::to_string(VK_API_VERSION_MAJOR(version)) + "." +
         std::to_string(VK_API_VERSION_MINOR(version));
}

// What ExternalDevice requires and vkscan can see, checked before anything
// queries the device's Vulkan 1.2 features or makes an object.
void checkExternalDevice(const ExternalDevice& external) {
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(external.physicalDevice, &properties);
  if (properties.apiVersion < VK_API_VERSION_1_2) {
    throw Unsupported(std::string("device ") + properties.deviceName + " reports Vulkan " +
                      versionText(properties.apiVersion) + "; vkscan needs 1.2 or later");
  }
  if (external.enabledExtensionCount != 0 && external.enabledExtensionNames == nullptr) {
    throw InvalidArgument(
        "external.enabledExtensionNames",
        "is null, but enabledExtensionCount is " + std::to_string(external.enabledExtensionCount));
  }
  if (external.queue == VK_NULL_HANDLE) return;
  const std::vector<VkQueueFamilyProperties> families =
      detail::queueFamilies(external.physicalDevice);
  if (external.queueFamilyIndex >= families.size()) {
    throw InvalidArgument("external.queueFamilyIndex",
                          std::to_string(external.queueFamilyIndex) + " is past the " +
                              std::to_string(families.size()) + " queue families of " +
                              properties.deviceName);
  }
  if (!(families[external.queueFamilyIndex].queueFlags & VK_QUEUE_COMPUTE_BIT)) {
    throw InvalidArgument("external.queueFamilyIndex",
                          "queue family " + std::to_string(external.queueFamilyIndex) +
                              " has no compute, which run() submits");
  }
}

// The optional features the engine says it enabled, read from the chain it
// passed to vkCreateDevice.
struct EnabledFeatures {
  bool shaderInt64 = false;
  bool shaderFloat64 = false;
  bool shaderFloat16 = false;
  bool storageBuffer16BitAccess = false;
  bool bufferDeviceAddress = false;
  bool computeFullSubgroups = false;
};

EnabledFeatures enabledFeatures(const VkPhysicalDeviceFeatures2* chain) {
  EnabledFeatures enabled;
  if (chain == nullptr) {
    enabled.bufferDeviceAddress = true;  // required, so the engine enabled it
    return enabled;
  }
  for (auto* node = reinterpret_cast<const VkBaseInStructure*>(chain); node != nullptr;
       node = node->pNext) {
    switch (node->sType) {
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2: {
        auto* features = reinterpret_cast<const VkPhysicalDeviceFeatures2*>(node);
        enabled.shaderInt64 |= features->features.shaderInt64 == VK_TRUE;
        enabled.shaderFloat64 |= features->features.shaderFloat64 == VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES: {
        auto* features = reinterpret_cast<const VkPhysicalDeviceVulkan11Features*>(node);
        enabled.storageBuffer16BitAccess |= features->storageBuffer16BitAccess == VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES: {
        auto* features = reinterpret_cast<const VkPhysicalDevice16BitStorageFeatures*>(node);
        enabled.storageBuffer16BitAccess |= features->storageBuffer16BitAccess == VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES: {
        auto* features = reinterpret_cast<const VkPhysicalDeviceVulkan12Features*>(node);
        enabled.bufferDeviceAddress |= features->bufferDeviceAddress == VK_TRUE;
        enabled.shaderFloat16 |= features->shaderFloat16 == VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES: {
        auto* features = reinterpret_cast<const VkPhysicalDeviceVulkan13Features*>(node);
        enabled.computeFullSubgroups |= features->computeFullSubgroups == VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES: {
        auto* features = reinterpret_cast<const VkPhysicalDeviceSubgroupSizeControlFeatures*>(node);
        enabled.computeFullSubgroups |= features->computeFullSubgroups == VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES: {
        auto* features = reinterpret_cast<const VkPhysicalDeviceBufferDeviceAddressFeatures*>(node);
        enabled.bufferDeviceAddress |= features->bufferDeviceAddress == VK_TRUE;
        break;
      }
      default:
        break;
    }
  }
  return enabled;
}

bool claimsExtension(const ExternalDevice& external, const char* name) {
  for (uint32_t i = 0; i < external.enabledExtensionCount; ++i) {
    const char* enabled = external.enabledExtensionNames[i];
    if (enabled != nullptr && std::strcmp(enabled, name) == 0) return true;
  }
  return false;
}

// The kept operators hold the Impl; without this it would outlive every
// handle to it.
void forgetOperators(Device::Impl* impl) noexcept {
  if (impl != nullptr && impl->operators) impl->operators->clear();
}

}  // namespace

namespace detail {

DeviceCapabilities queryCapabilities(VkPhysicalDevice physical) {
  auto sizeControl = vkStruct<VkPhysicalDeviceSubgroupSizeControlFeatures>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES);
  auto features12 = vkStruct<VkPhysicalDeviceVulkan12Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &sizeControl);
  auto features11 = vkStruct<VkPhysicalDeviceVulkan11Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &features12);
  auto features = vkStruct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                                      &features11);
  vkGetPhysicalDeviceFeatures2(physical, &features);

  auto driver = vkStruct<VkPhysicalDeviceDriverProperties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES);
  auto subgroup = vkStruct<VkPhysicalDeviceSubgroupProperties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES, &driver);
  auto properties = vkStruct<VkPhysicalDeviceProperties2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup);
  // Subgroup sizes where the device reports them (Vulkan 1.3, or the extension).
  auto sizes = vkStruct<VkPhysicalDeviceSubgroupSizeControlProperties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES);
  VkPhysicalDeviceProperties plain{};
  vkGetPhysicalDeviceProperties(physical, &plain);
  if (plain.apiVersion >= VK_API_VERSION_1_3 ||
      hasDeviceExtension(physical, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME)) {
    driver.pNext = &sizes;
  }
  vkGetPhysicalDeviceProperties2(physical, &properties);
  const VkPhysicalDeviceLimits& limits = properties.properties.limits;

  DeviceCapabilities caps;
  caps.deviceName = properties.properties.deviceName;
  caps.driverName = driver.driverName;
  caps.driverInfo = driver.driverInfo;
  caps.vendorID = properties.properties.vendorID;
  caps.deviceID = properties.properties.deviceID;
  caps.apiVersion = properties.properties.apiVersion;
  caps.driverVersion = properties.properties.driverVersion;
  caps.driverID = driver.driverID;
  caps.deviceType = properties.properties.deviceType;
  caps.subgroupSize = subgroup.subgroupSize;
  caps.subgroupOperations = subgroup.supportedOperations;
  caps.subgroupSizeControl = sizeControl.subgroupSizeControl;
  caps.minSubgroupSize = sizes.minSubgroupSize;
  caps.maxSubgroupSize = sizes.maxSubgroupSize;
  caps.computeFullSubgroups = sizeControl.computeFullSubgroups;
  caps.shaderInt64 = features.features.shaderInt64;
  caps.shaderFloat64 = features.features.shaderFloat64;
  caps.shaderFloat16 = features12.shaderFloat16;
  caps.storageBuffer16BitAccess = features11.storageBuffer16BitAccess;
  caps.bufferDeviceAddress = features12.bufferDeviceAddress;
  caps.maxStorageBufferRange = limits.maxStorageBufferRange;
  caps.maxTexelBufferElements = limits.maxTexelBufferElements;
  caps.maxComputeSharedMemorySize = limits.maxComputeSharedMemorySize;
  caps.maxComputeWorkGroupInvocations = limits.maxComputeWorkGroupInvocations;
  for (int i = 0; i < 3; ++i) caps.maxComputeWorkGroupCount[i] = limits.maxComputeWorkGroupCount[i];
  caps.maxPushConstantsSize = limits.maxPushConstantsSize;
  caps.minStorageBufferOffsetAlignment = limits.minStorageBufferOffsetAlignment;
  caps.timestampPeriod = limits.timestampPeriod;
  caps.timestampComputeAndGraphics = limits.timestampComputeAndGraphics;
  return caps;
}

bool hasDeviceExtension(VkPhysicalDevice physical, const char* name) {
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, extensions.data());
  for (const VkExtensionProperties& extension : extensions) {
    if (std::strcmp(extension.extensionName, name) == 0) return true;
  }
  return false;
}

void finishDeviceSetup(Device::Impl& impl, VkPipelineCache external,
                       const std::vector<uint8_t>& cacheData, size_t operatorCacheCapacity,
                       const VectorWords* vectorWords) {
  volkLoadDeviceTable(&impl.vk, impl.device);
  DeviceCapabilities& caps = impl.capabilities;
  if (caps.pushDescriptor && impl.vk.vkCmdPushDescriptorSetKHR == nullptr) {
    throw Unsupported("VK_KHR_push_descriptor is said to be enabled on " + caps.deviceName +
                      ", but vkGetDeviceProcAddr finds no vkCmdPushDescriptorSetKHR");
  }
  if (caps.maxPushConstantsSize < sizeof(ScanParams)) {
    throw Unsupported("the device allows " + std::to_string(caps.maxPushConstantsSize) +
                      " bytes of push constants; vkscan needs " +
                      std::to_string(sizeof(ScanParams)));
  }
  // A CPU device runs workgroups on the host's cores.
  bool cpuLike = caps.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  if (cpuLike) {
    impl.cpuThreads = cpuThreadsFor(caps.driverID == VK_DRIVER_ID_MESA_LLVMPIPE,
                                    std::getenv("LP_NUM_THREADS"), usableCpus());
  }
  TuningOverride tuningOverride = tuningOverrideFromEnvironment();
  impl.tuning = tunedFor(cpuLike ? DeviceClass::Cpu : DeviceClass::Gpu, caps.subgroupSize,
                         caps.maxComputeWorkGroupInvocations, impl.cpuThreads, tuningOverride);
  impl.tuningOverride = tuningOverride.text;
  impl.vectorWords = vectorWords != nullptr ? *vectorWords : vectorWordsFor(caps);
  vkGetPhysicalDeviceMemoryProperties(impl.physicalDevice, &impl.memoryProperties);
  if (external != VK_NULL_HANDLE) {
    impl.vkPipelineCache = external;
  } else {
    auto info = vkStruct<VkPipelineCacheCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO);
    info.initialDataSize = cacheData.size();
    info.pInitialData = cacheData.data();
    check(impl.vk.vkCreatePipelineCache(impl.device, &info, nullptr, &impl.vkPipelineCache),
          "vkCreatePipelineCache");
    impl.ownsPipelineCache = true;
  }
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(ScanParams)};
  auto layout = vkStruct<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  layout.pushConstantRangeCount = 1;
  layout.pPushConstantRanges = &range;
  if (caps.pushDescriptor) {
    // One layout for every pipeline: kernels that use device addresses
    // ignore set 0, and the layouts stay compatible. Binding 3: the input's
    // texel view, for the texel variants (PipelineKey::texelInput).
    VkDescriptorSetLayoutBinding bindings[4];
    for (uint32_t i = 0; i < 3; ++i) {
      bindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    }
    bindings[3] = {3, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT,
                   nullptr};
    auto setInfo = vkStruct<VkDescriptorSetLayoutCreateInfo>(
        VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
    setInfo.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    setInfo.bindingCount = 4;
    setInfo.pBindings = bindings;
    check(impl.vk.vkCreateDescriptorSetLayout(impl.device, &setInfo, nullptr, &impl.setLayout),
          "vkCreateDescriptorSetLayout");
    layout.setLayoutCount = 1;
    layout.pSetLayouts = &impl.setLayout;
  }
  check(impl.vk.vkCreatePipelineLayout(impl.device, &layout, nullptr, &impl.pipelineLayout),
        "vkCreatePipelineLayout");

  KernelVariant variant;
  variant.emulatedInt64 = !caps.shaderInt64;
  variant.packedHalves = !caps.storageBuffer16BitAccess;
  variant.wordStores = impl.vectorWords == VectorWords::Load64Store32;
  impl.pipelines = std::make_unique<PipelineCache>(impl.vk, impl.device, impl.vkPipelineCache,
                                                   impl.pipelineLayout, variant, caps);
  impl.operators = std::make_unique<OperatorCache>(operatorCacheCapacity);
}

}  // namespace detail

Device::Impl::~Impl() {
  // Timed-out runs: destroying their objects while the device may use them
  // would be a use after free on the device.
  for (std::unique_ptr<detail::AbandonedWork>& work : abandoned) {
    work->finished(true);
    work.reset();
  }
  pipelines.reset();
  if (device != VK_NULL_HANDLE) {
    if (pipelineLayout != VK_NULL_HANDLE)
      vk.vkDestroyPipelineLayout(device, pipelineLayout, nullptr);
    if (setLayout != VK_NULL_HANDLE) vk.vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
    if (ownsPipelineCache) vk.vkDestroyPipelineCache(device, vkPipelineCache, nullptr);
    if (ownsDevice) vk.vkDestroyDevice(device, nullptr);
  }
  if (messenger != VK_NULL_HANDLE) destroyMessenger(instance, messenger, nullptr);
  if (ownsInstance && instance != VK_NULL_HANDLE) vkDestroyInstance(instance, nullptr);
}

bool Device::Impl::supports(DataType type) const noexcept {
  if (!capabilities.bufferDeviceAddress || dataTypeSize(type) == 0) return false;
  return type != DataType::Float64 || capabilities.shaderFloat64;
}

detail::PlanLimits Device::Impl::planLimits() const {
  return detail::planLimitsOf(capabilities);
}

Device::Device(std::shared_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}

Device::Device(const ExternalDevice& external) : impl_(std::make_shared<Impl>()) {
  if (external.instance == VK_NULL_HANDLE) throw InvalidArgument("external.instance", "is null");
  if (external.physicalDevice == VK_NULL_HANDLE) {
    throw InvalidArgument("external.physicalDevice", "is null");
  }
  if (external.device == VK_NULL_HANDLE) throw InvalidArgument("external.device", "is null");
  Impl& impl = *impl_;
  initializeLoader(external.getInstanceProcAddr);
  volkLoadInstanceOnly(external.instance);
  checkExternalDevice(external);
  impl.instance = external.instance;
  impl.physicalDevice = external.physicalDevice;
  impl.device = external.device;
  impl.queue = external.queue;
  impl.queueFamilyIndex = external.queueFamilyIndex;
  // What the physical device has and the engine enabled, nothing more.
  DeviceCapabilities& caps = impl.capabilities;
  caps = detail::queryCapabilities(impl.physicalDevice);
  EnabledFeatures enabled = enabledFeatures(external.enabledFeatures);
  caps.shaderInt64 = caps.shaderInt64 && enabled.shaderInt64;
  caps.shaderFloat64 = caps.shaderFloat64 && enabled.shaderFloat64;
  caps.shaderFloat16 = caps.shaderFloat16 && enabled.shaderFloat16;
  caps.storageBuffer16BitAccess = caps.storageBuffer16BitAccess && enabled.storageBuffer16BitAccess;
  caps.bufferDeviceAddress = caps.bufferDeviceAddress && enabled.bufferDeviceAddress;
  caps.computeFullSubgroups = caps.computeFullSubgroups && enabled.computeFullSubgroups;
  caps.pushDescriptor = claimsExtension(external, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  if (!caps.bufferDeviceAddress) {
    throw Unsupported("device " + caps.deviceName +
                      (external.enabledFeatures == nullptr ? " lacks" : " was created without") +
                      " bufferDeviceAddress, which vkscan requires");
  }
  detail::finishDeviceSetup(impl, external.pipelineCache, {}, external.operatorCacheCapacity);
}

Device::~Device() {
  forgetOperators(impl_.get());
}
Device::Device(Device&&) noexcept = default;
Device& Device::operator=(Device&& other) noexcept {
  if (this != &other) {
    forgetOperators(impl_.get());
    impl_ = std::move(other.impl_);
  }
  return *this;
}

VkDevice Device::handle() const noexcept {
  return impl_->device;
}
VkPhysicalDevice Device::physicalDevice() const noexcept {
  return impl_->physicalDevice;
}
VkInstance Device::instance() const noexcept {
  return impl_->instance;
}
VkQueue Device::queue() const noexcept {
  return impl_->queue;
}
uint32_t Device::queueFamilyIndex() const noexcept {
  return impl_->queueFamilyIndex;
}
bool Device::supports(DataType type) const noexcept {
  return impl_->supports(type);
}

}  // namespace vkscan
