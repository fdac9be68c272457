// Devices vkscan creates itself (host.hpp): the instance with the optional
// validation layer, the physical device chosen by DeviceOptions, a logical
// device with every feature vkscan can use.
#include "host/headless_device.hpp"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "device/device_impl.hpp"
#include "host/device_selection.hpp"
#include "pipeline_statistics.hpp"

namespace vkscan {
namespace detail {
namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

std::atomic<uint64_t> processValidationMessages{0};

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
  auto app = vkStruct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "vkscan";
  app.pEngineName = "vkscan";
  app.apiVersion = VK_API_VERSION_1_2;

  std::vector<const char*> layers;
  std::vector<const char*> extensions;
  auto info = vkStruct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  if (hasInstanceExtension(nullptr, VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
    extensions.push_back(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
    info.flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
  }

  // Synchronization validation is off unless asked for; vkscan's barriers are
  // exactly what it must prove, so turn it on whenever validation is.
  const VkValidationFeatureEnableEXT enables[] = {
      VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  auto features = vkStruct<VkValidationFeaturesEXT>(VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT);
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = enables;
  auto messenger = vkStruct<VkDebugUtilsMessengerCreateInfoEXT>(
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
  check(created, "vkCreateInstance");
  volkLoadInstanceOnly(instance);
  if (validating) {
    // The chained messenger covers instance creation only; this one the rest.
    impl.destroyMessenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
    VkResult result =
        vkCreateDebugUtilsMessengerEXT(instance, &messenger, nullptr, &impl.messenger);
    if (result != VK_SUCCESS) {
      vkDestroyInstance(instance, nullptr);
      check(result, "vkCreateDebugUtilsMessengerEXT");
    }
  }
  return instance;
}

// Whether the device can capture its pipelines' statistics
// (VK_KHR_pipeline_executable_properties with pipelineExecutableInfo).
bool hasPipelineStatistics(VkPhysicalDevice physical) {
  if (!hasDeviceExtension(physical, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME)) {
    return false;
  }
  auto executable = vkStruct<VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR);
  auto features = vkStruct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                                      &executable);
  vkGetPhysicalDeviceFeatures2(physical, &features);
  return executable.pipelineExecutableInfo == VK_TRUE;
}

// `statistics`: enables pipelineExecutableInfo (hasPipelineStatistics()).
VkDevice createLogicalDevice(VkPhysicalDevice physical, uint32_t family,
                             const DeviceCapabilities& caps, bool statistics) {
  float priority = 1.0f;
  auto queue = vkStruct<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  queue.queueFamilyIndex = family;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;

  // Vulkan 1.2 instances reach computeFullSubgroups through the extension.
  auto sizeControl = vkStruct<VkPhysicalDeviceSubgroupSizeControlFeatures>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES);
  sizeControl.computeFullSubgroups = VK_TRUE;
  auto executable = vkStruct<VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR);
  executable.pipelineExecutableInfo = VK_TRUE;
  void* chain = statistics ? &executable : nullptr;
  if (caps.computeFullSubgroups) {
    sizeControl.pNext = chain;
    chain = &sizeControl;
  }
  auto features12 = vkStruct<VkPhysicalDeviceVulkan12Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, chain);
  features12.bufferDeviceAddress = VK_TRUE;
  auto features11 = vkStruct<VkPhysicalDeviceVulkan11Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &features12);
  features11.storageBuffer16BitAccess = caps.storageBuffer16BitAccess;
  auto features = vkStruct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                                      &features11);
  features.features.shaderInt64 = caps.shaderInt64;
  features.features.shaderFloat64 = caps.shaderFloat64;

  auto info = vkStruct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features);
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue;
  std::vector<const char*> extensions;
  if (caps.pushDescriptor) extensions.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  if (caps.computeFullSubgroups) extensions.push_back(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
  if (statistics) extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.empty() ? nullptr : extensions.data();
  VkDevice device = VK_NULL_HANDLE;
  check(vkCreateDevice(physical, &info, nullptr, &device), "vkCreateDevice");
  return device;
}

void initializeSystemLoader() {
  if (volkInitialize() != VK_SUCCESS) {
    throw Unsupported("the Vulkan loader (libvulkan.so.1) could not be loaded");
  }
}

std::vector<VkPhysicalDevice> physicalDevices(VkInstance instance) {
  uint32_t count = 0;
  check(vkEnumeratePhysicalDevices(instance, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> devices(count);
  check(vkEnumeratePhysicalDevices(instance, &count, devices.data()), "vkEnumeratePhysicalDevices");
  devices.resize(count);
  return devices;
}

// Pretends features are absent (DeviceOptions::disableInt64 and the others).
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

uint64_t processValidationMessageCount() noexcept {
  return processValidationMessages.load();
}

Device createDevice(const DeviceOptions& options, const VectorWords* vectorWords) {
  auto owned = std::make_shared<Device::Impl>();
  Device::Impl& impl = *owned;
  initializeSystemLoader();
  impl.instance = createInstance(options.enableValidation, impl);
  impl.ownsInstance = true;
  std::vector<VkPhysicalDevice> devices = physicalDevices(impl.instance);
  impl.physicalDevice =
      devices[selectPhysicalDevice(devices, options.deviceIndex, options.deviceName)];
  impl.capabilities = queryCapabilities(impl.physicalDevice);
  // A headless device enables the extension whenever the device has it.
  impl.capabilities.pushDescriptor =
      hasDeviceExtension(impl.physicalDevice, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  impl.capabilities.computeFullSubgroups =
      impl.capabilities.computeFullSubgroups &&
      hasDeviceExtension(impl.physicalDevice, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
  maskCapabilities(impl.capabilities, options);
  impl.queueFamilyIndex = computeQueueFamily(impl.physicalDevice);
  bool statistics = pipelineStatisticsRequested() && hasPipelineStatistics(impl.physicalDevice);
  impl.device = createLogicalDevice(impl.physicalDevice, impl.queueFamilyIndex, impl.capabilities,
                                    statistics);
  impl.ownsDevice = true;
  impl.timeoutNs = options.timeoutNs;
  finishDeviceSetup(impl, VK_NULL_HANDLE, options.pipelineCacheData, options.operatorCacheCapacity,
                    vectorWords);
  if (statistics) impl.pipelines->captureStatistics();
  impl.vk.vkGetDeviceQueue(impl.device, impl.queueFamilyIndex, 0, &impl.queue);
  return Device::Access::wrap(std::move(owned));
}

}  // namespace detail

std::vector<PhysicalDeviceSummary> enumerateDevices() {
  detail::initializeSystemLoader();
  Device::Impl scratch;
  scratch.instance = detail::createInstance(false, scratch);
  scratch.ownsInstance = true;
  std::vector<VkPhysicalDevice> devices = detail::physicalDevices(scratch.instance);
  std::vector<PhysicalDeviceSummary> summaries;
  for (uint32_t i = 0; i < devices.size(); ++i) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(devices[i], &properties);
    summaries.push_back({i, properties.deviceName, properties.deviceType, properties.apiVersion,
                         detail::isUsable(devices[i])});
  }
  return summaries;
}

Device createDevice(const DeviceOptions& options) {
  return detail::createDevice(options, nullptr);
}

}  // namespace vkscan
