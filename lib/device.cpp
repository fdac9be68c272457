#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cpu_threads.hpp"
#include "device_impl.hpp"
#include "device_selection.hpp"
#include "scan_params.h"
#include "vector_words.hpp"

namespace vkscan {
namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

std::atomic<uint64_t> processValidationMessages{0};

void initializeLoader(PFN_vkGetInstanceProcAddr getInstanceProcAddr) {
  if (getInstanceProcAddr != nullptr) {
    volkInitializeCustom(getInstanceProcAddr);
    return;
  }
  if (volkInitialize() != VK_SUCCESS) {
    throw Unsupported("the Vulkan loader (libvulkan.so.1) could not be loaded");
  }
}

bool hasLayer(const char* name) {
  uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  for (const VkLayerProperties& layer : layers) {
    if (std::strcmp(layer.layerName, name) == 0) return true;
  }
  return false;
}

bool hasInstanceExtension(const char* layer, const char* name) {
  uint32_t count = 0;
  vkEnumerateInstanceExtensionProperties(layer, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateInstanceExtensionProperties(layer, &count, extensions.data());
  for (const VkExtensionProperties& extension : extensions) {
    if (std::strcmp(extension.extensionName, name) == 0) return true;
  }
  return false;
}

VKAPI_ATTR VkBool32 VKAPI_CALL onValidationMessage(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                   VkDebugUtilsMessageTypeFlagsEXT,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                   void* user) {
  auto* impl = static_cast<Device::Impl*>(user);
  impl->validationMessages.fetch_add(1);
  processValidationMessages.fetch_add(1);
  std::fprintf(stderr, "vkscan: validation: %s\n", data->pMessage);
  return VK_FALSE;
}

VkInstance createInstance(bool validation, Device::Impl& impl) {
  auto app = detail::vkStruct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "vkscan";
  app.pEngineName = "vkscan";
  app.apiVersion = VK_API_VERSION_1_2;

  std::vector<const char*> layers;
  std::vector<const char*> extensions;
  auto info = detail::vkStruct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  if (hasInstanceExtension(nullptr, VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
    extensions.push_back(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
    info.flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
  }

  // Synchronization validation is off unless asked for; vkscan's barriers are
  // exactly what it must prove, so turn it on whenever validation is.
  const VkValidationFeatureEnableEXT enables[] = {
      VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  auto features =
      detail::vkStruct<VkValidationFeaturesEXT>(VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT);
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = enables;
  auto messenger = detail::vkStruct<VkDebugUtilsMessengerCreateInfoEXT>(
      VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
  messenger.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                              VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger.pfnUserCallback = onValidationMessage;
  messenger.pUserData = &impl;

  bool validating = validation && hasLayer(kValidationLayer) &&
                    hasInstanceExtension(nullptr, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  if (validating) {
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    impl.validationEnabled = true;
    if (hasInstanceExtension(kValidationLayer, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME)) {
      extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
      features.pNext = &messenger;
      info.pNext = &features;
      impl.synchronizationValidation = true;
    } else {
      info.pNext = &messenger;
    }
  }
  info.pApplicationInfo = &app;
  info.enabledLayerCount = static_cast<uint32_t>(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();

  VkInstance instance = VK_NULL_HANDLE;
  const VkResult created = vkCreateInstance(&info, nullptr, &instance);
  if (created == VK_ERROR_INCOMPATIBLE_DRIVER) {
    // What the loader returns when it finds no driver at all, which the bare
    // result name does not tell a user.
    throw VulkanError(created, "vkCreateInstance",
                      "no Vulkan driver is installed, or none supports Vulkan 1.2");
  }
  detail::check(created, "vkCreateInstance");
  volkLoadInstanceOnly(instance);
  if (validating) {
    // The chained messenger covers instance creation only; this one the rest.
    impl.destroyMessenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
    VkResult result =
        vkCreateDebugUtilsMessengerEXT(instance, &messenger, nullptr, &impl.messenger);
    if (result != VK_SUCCESS) {
      vkDestroyInstance(instance, nullptr);
      detail::check(result, "vkCreateDebugUtilsMessengerEXT");
    }
  }
  return instance;
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
                              " has no compute, which Device::run() submits");
  }
}

DeviceCapabilities queryCapabilities(VkPhysicalDevice physical) {
  auto sizeControl = detail::vkStruct<VkPhysicalDeviceSubgroupSizeControlFeatures>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES);
  auto features12 = detail::vkStruct<VkPhysicalDeviceVulkan12Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &sizeControl);
  auto features11 = detail::vkStruct<VkPhysicalDeviceVulkan11Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &features12);
  auto features = detail::vkStruct<VkPhysicalDeviceFeatures2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features11);
  vkGetPhysicalDeviceFeatures2(physical, &features);

  auto driver = detail::vkStruct<VkPhysicalDeviceDriverProperties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES);
  auto subgroup = detail::vkStruct<VkPhysicalDeviceSubgroupProperties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES, &driver);
  auto properties = detail::vkStruct<VkPhysicalDeviceProperties2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup);
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

VkDevice createLogicalDevice(VkPhysicalDevice physical, uint32_t family,
                             const DeviceCapabilities& caps) {
  float priority = 1.0f;
  auto queue =
      detail::vkStruct<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  queue.queueFamilyIndex = family;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;

  auto features12 = detail::vkStruct<VkPhysicalDeviceVulkan12Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  features12.bufferDeviceAddress = VK_TRUE;
  auto features11 = detail::vkStruct<VkPhysicalDeviceVulkan11Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &features12);
  features11.storageBuffer16BitAccess = caps.storageBuffer16BitAccess;
  auto features = detail::vkStruct<VkPhysicalDeviceFeatures2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features11);
  features.features.shaderInt64 = caps.shaderInt64;
  features.features.shaderFloat64 = caps.shaderFloat64;

  auto info = detail::vkStruct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features);
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue;
  const char* extension = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
  if (caps.pushDescriptor) {
    info.enabledExtensionCount = 1;
    info.ppEnabledExtensionNames = &extension;
  }
  VkDevice device = VK_NULL_HANDLE;
  detail::check(vkCreateDevice(physical, &info, nullptr, &device), "vkCreateDevice");
  return device;
}

// Creates what every Device needs beyond the handles: the function table,
// the tuning, the pipeline cache and layout.
void finishSetup(Device::Impl& impl, VkPipelineCache external) {
  volkLoadDeviceTable(&impl.vk, impl.device);
  const DeviceCapabilities& caps = impl.capabilities;
  // A CPU device runs workgroups on the host's cores.
  bool cpuLike = caps.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  if (cpuLike) {
    impl.cpuThreads = detail::cpuThreadsFor(caps.driverID == VK_DRIVER_ID_MESA_LLVMPIPE,
                                            std::getenv("LP_NUM_THREADS"), detail::usableCpus());
  }
  impl.tuning = detail::tuningFor(cpuLike, caps.subgroupSize, caps.maxComputeWorkGroupInvocations,
                                  impl.cpuThreads);
  vkGetPhysicalDeviceMemoryProperties(impl.physicalDevice, &impl.memoryProperties);
  if (impl.capabilities.maxPushConstantsSize < sizeof(detail::ScanParams)) {
    throw Unsupported(
        "the device allows " + std::to_string(impl.capabilities.maxPushConstantsSize) +
        " bytes of push constants; vkscan needs " + std::to_string(sizeof(detail::ScanParams)));
  }
  if (external != VK_NULL_HANDLE) {
    impl.vkPipelineCache = external;
  } else {
    auto info =
        detail::vkStruct<VkPipelineCacheCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO);
    info.initialDataSize = impl.options.pipelineCacheData.size();
    info.pInitialData = impl.options.pipelineCacheData.data();
    detail::check(impl.vk.vkCreatePipelineCache(impl.device, &info, nullptr, &impl.vkPipelineCache),
                  "vkCreatePipelineCache");
    impl.ownsPipelineCache = true;
  }
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(detail::ScanParams)};
  auto layout =
      detail::vkStruct<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  layout.pushConstantRangeCount = 1;
  layout.pPushConstantRanges = &range;
  if (impl.capabilities.pushDescriptor) {
    // One layout for every pipeline: kernels that use device addresses
    // ignore set 0, and the layouts stay compatible.
    // Binding 3: the input's texel view, for the texel variants
    // (PipelineKey::texelInput).
    VkDescriptorSetLayoutBinding bindings[4];
    for (uint32_t i = 0; i < 3; ++i) {
      bindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    }
    bindings[3] = {3, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT,
                   nullptr};
    auto setInfo = detail::vkStruct<VkDescriptorSetLayoutCreateInfo>(
        VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
    setInfo.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    setInfo.bindingCount = 4;
    setInfo.pBindings = bindings;
    detail::check(
        impl.vk.vkCreateDescriptorSetLayout(impl.device, &setInfo, nullptr, &impl.setLayout),
        "vkCreateDescriptorSetLayout");
    layout.setLayoutCount = 1;
    layout.pSetLayouts = &impl.setLayout;
  }
  detail::check(impl.vk.vkCreatePipelineLayout(impl.device, &layout, nullptr, &impl.pipelineLayout),
                "vkCreatePipelineLayout");
}

// The kernels' build: the variant the features need, on the vector words
// options.vectorWords resolves to (Bits32 has no build of its own: it runs
// the default one).
void createPipelineCache(Device::Impl& impl) {
  impl.vectorWords = detail::resolveVectorWords(impl);
  detail::KernelVariant variant;
  variant.emulatedInt64 = !impl.capabilities.shaderInt64;
  variant.packedHalves = !impl.capabilities.storageBuffer16BitAccess;
  variant.wordStores = impl.vectorWords == VectorWords::Load64Store32;
  impl.pipelines = std::make_unique<detail::PipelineCache>(
      impl.vk, impl.device, impl.vkPipelineCache, impl.pipelineLayout, variant);
  impl.operators = std::make_unique<detail::OperatorCache>(impl.options.operatorCacheCapacity);
}

// The kept operators hold the Impl; without this it would outlive every
// handle to it.
void forgetOperators(Device::Impl* impl) noexcept {
  if (impl != nullptr && impl->operators) impl->operators->clear();
}

// Pretends features are absent (DeviceOptions::disableInt64/Float64/Float16).
void maskCapabilities(DeviceCapabilities& caps, const DeviceOptions& options) {
  if (options.disableInt64) caps.shaderInt64 = false;
  if (options.disableFloat64) caps.shaderFloat64 = false;
  if (options.disableFloat16) {
    caps.shaderFloat16 = false;
    caps.storageBuffer16BitAccess = false;
  }
  if (options.disablePushDescriptor) caps.pushDescriptor = false;
}

}  // namespace

uint64_t detail::processValidationMessageCount() noexcept {
  return processValidationMessages.load();
}

Device::Impl::~Impl() {
  // Timed-out runs: destroying their objects while the GPU may use them
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

detail::PlanLimits Device::Impl::planLimits() const {
  detail::PlanLimits limits;
  limits.subgroupSize = capabilities.subgroupSize;
  limits.maxWorkgroupInvocations = capabilities.maxComputeWorkGroupInvocations;
  limits.maxWorkgroupCountX = capabilities.maxComputeWorkGroupCount[0];
  limits.maxWorkgroupCountY = capabilities.maxComputeWorkGroupCount[1];
  limits.pushDescriptor = capabilities.pushDescriptor;
  limits.maxStorageBufferRange = capabilities.maxStorageBufferRange;
  limits.minStorageBufferOffsetAlignment = capabilities.minStorageBufferOffsetAlignment;
  return limits;
}

std::vector<PhysicalDeviceSummary> Device::enumerate() {
  initializeLoader(nullptr);
  Impl scratch;
  scratch.instance = createInstance(false, scratch);
  scratch.ownsInstance = true;
  uint32_t count = 0;
  detail::check(vkEnumeratePhysicalDevices(scratch.instance, &count, nullptr),
                "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> devices(count);
  detail::check(vkEnumeratePhysicalDevices(scratch.instance, &count, devices.data()),
                "vkEnumeratePhysicalDevices");
  std::vector<PhysicalDeviceSummary> summaries;
  for (uint32_t i = 0; i < count; ++i) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(devices[i], &properties);
    summaries.push_back({i, properties.deviceName, properties.deviceType, properties.apiVersion,
                         detail::isUsable(devices[i])});
  }
  return summaries;
}

Device::Device(const DeviceOptions& options) : impl_(std::make_shared<Impl>()) {
  detail::validateVectorWords(options.vectorWords);
  Impl& impl = *impl_;
  impl.options = options;
  initializeLoader(nullptr);
  impl.instance = createInstance(options.enableValidation, impl);
  impl.ownsInstance = true;

  uint32_t count = 0;
  detail::check(vkEnumeratePhysicalDevices(impl.instance, &count, nullptr),
                "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> devices(count);
  detail::check(vkEnumeratePhysicalDevices(impl.instance, &count, devices.data()),
                "vkEnumeratePhysicalDevices");
  impl.physicalDevice =
      devices[detail::selectPhysicalDevice(devices, options.deviceIndex, options.deviceName)];
  impl.capabilities = queryCapabilities(impl.physicalDevice);
  // A headless device enables the extension whenever the device has it.
  impl.capabilities.pushDescriptor =
      hasDeviceExtension(impl.physicalDevice, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  maskCapabilities(impl.capabilities, options);
  impl.queueFamilyIndex = detail::computeQueueFamily(impl.physicalDevice);
  impl.device = createLogicalDevice(impl.physicalDevice, impl.queueFamilyIndex, impl.capabilities);
  impl.ownsDevice = true;
  finishSetup(impl, VK_NULL_HANDLE);
  impl.vk.vkGetDeviceQueue(impl.device, impl.queueFamilyIndex, 0, &impl.queue);
  createPipelineCache(impl);
}

Device::Device(const ExternalDevice& external, const DeviceOptions& options)
    : impl_(std::make_shared<Impl>()) {
  if (external.instance == VK_NULL_HANDLE) throw InvalidArgument("external.instance", "is null");
  if (external.physicalDevice == VK_NULL_HANDLE) {
    throw InvalidArgument("external.physicalDevice", "is null");
  }
  if (external.device == VK_NULL_HANDLE) throw InvalidArgument("external.device", "is null");
  detail::validateVectorWords(options.vectorWords);
  Impl& impl = *impl_;
  impl.options = options;
  initializeLoader(external.getInstanceProcAddr);
  volkLoadInstanceOnly(external.instance);
  checkExternalDevice(external);
  impl.instance = external.instance;
  impl.physicalDevice = external.physicalDevice;
  impl.device = external.device;
  impl.queue = external.queue;
  impl.queueFamilyIndex = external.queueFamilyIndex;
  impl.capabilities = queryCapabilities(impl.physicalDevice);
  impl.capabilities.pushDescriptor =
      external.pushDescriptorEnabled &&
      hasDeviceExtension(impl.physicalDevice, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  maskCapabilities(impl.capabilities, options);
  if (!impl.capabilities.bufferDeviceAddress) {
    throw Unsupported("device " + impl.capabilities.deviceName +
                      " lacks bufferDeviceAddress, which vkscan requires");
  }
  finishSetup(impl, external.pipelineCache);
  createPipelineCache(impl);
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

const DeviceCapabilities& Device::capabilities() const noexcept {
  return impl_->capabilities;
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

uint64_t Device::validationMessageCount() const noexcept {
  return impl_->validationMessages.load();
}

bool Device::validationEnabled() const noexcept {
  return impl_->validationEnabled;
}

size_t Device::cachedPipelineCount() const noexcept {
  return impl_->pipelines->size();
}

VectorWords Device::vectorWords() const noexcept {
  return impl_->vectorWords;
}

CpuWorkerThreads Device::cpuWorkerThreads() const noexcept {
  return {impl_->cpuThreads.workers, impl_->cpuThreads.busy};
}

std::vector<uint8_t> Device::pipelineCacheData() const {
  size_t size = 0;
  detail::check(
      impl_->vk.vkGetPipelineCacheData(impl_->device, impl_->vkPipelineCache, &size, nullptr),
      "vkGetPipelineCacheData");
  std::vector<uint8_t> data(size);
  detail::check(
      impl_->vk.vkGetPipelineCacheData(impl_->device, impl_->vkPipelineCache, &size, data.data()),
      "vkGetPipelineCacheData");
  data.resize(size);
  return data;
}

}  // namespace vkscan
