#include "host/device_selection.hpp"

#include <cstdlib>

namespace vkscan::detail {
namespace {

std::string nameOf(VkPhysicalDevice device) {
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(device, &properties);
  return properties.deviceName;
}

size_t byName(const std::vector<VkPhysicalDevice>& devices, const std::string& name,
              const char* field) {
  for (size_t i = 0; i < devices.size(); ++i) {
    if (isUsable(devices[i]) && nameOf(devices[i]).find(name) != std::string::npos) return i;
  }
  throw InvalidArgument(field, "no usable Vulkan device's name contains \"" + name + "\"");
}

size_t byIndex(const std::vector<VkPhysicalDevice>& devices, long index, const char* field) {
  if (index < 0 || static_cast<size_t>(index) >= devices.size()) {
    const std::string count =
        std::to_string(devices.size()) + (devices.size() == 1 ? " device" : " devices");
    throw InvalidArgument(
        field, "device index " + std::to_string(index) + " is out of range (" + count + ")");
  }
  if (!isUsable(devices[index])) {
    throw Unsupported("device " + std::to_string(index) + " (" + nameOf(devices[index]) +
                      ") lacks Vulkan 1.2, a compute queue or bufferDeviceAddress");
  }
  return static_cast<size_t>(index);
}

}  // namespace

std::vector<VkQueueFamilyProperties> queueFamilies(VkPhysicalDevice device) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
  families.resize(count);
  return families;
}

uint32_t computeQueueFamily(VkPhysicalDevice device) {
  const std::vector<VkQueueFamilyProperties> families = queueFamilies(device);
  for (uint32_t i = 0; i < families.size(); ++i) {
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) return i;
  }
  return UINT32_MAX;
}

bool isUsable(VkPhysicalDevice device) {
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(device, &properties);
  if (properties.apiVersion < VK_API_VERSION_1_2) return false;
  if (computeQueueFamily(device) == UINT32_MAX) return false;
  auto features12 = vkStruct<VkPhysicalDeviceVulkan12Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  auto features = vkStruct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                                      &features12);
  vkGetPhysicalDeviceFeatures2(device, &features);
  return features12.bufferDeviceAddress;
}

size_t selectPhysicalDevice(const std::vector<VkPhysicalDevice>& devices, int index,
                            const std::string& name) {
  if (devices.empty()) throw Unsupported("no Vulkan physical device is available");
  if (index != -1) return byIndex(devices, index, "options.deviceIndex");
  if (!name.empty()) return byName(devices, name, "options.deviceName");
  if (const char* env = std::getenv("VKSCAN_DEVICE"); env != nullptr && *env != '\0') {
    char* end = nullptr;
    long value = std::strtol(env, &end, 10);
    if (*end == '\0') return byIndex(devices, value, "VKSCAN_DEVICE");
    return byName(devices, env, "VKSCAN_DEVICE");
  }
  for (size_t i = 0; i < devices.size(); ++i) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(devices[i], &properties);
    if (properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU && isUsable(devices[i])) {
      return i;
    }
  }
  for (size_t i = 0; i < devices.size(); ++i) {
    if (isUsable(devices[i])) return i;
  }
  throw Unsupported("no Vulkan device has Vulkan 1.2, a compute queue and bufferDeviceAddress");
}

}  // namespace vkscan::detail
