// Choosing the physical device for a headless vkscan::Device.
#pragma once

#include <string>
#include <vector>

#include "vulkan_api.hpp"

namespace vkscan::detail {

// Usable: Vulkan 1.2+, a compute queue and bufferDeviceAddress (the kernels
// have variants for devices without shaderInt64 or 16-bit storage).
bool isUsable(VkPhysicalDevice device);

// Index into `devices` per DeviceOptions' rules (index, name, VKSCAN_DEVICE,
// first discrete, first usable). Throws InvalidArgument or Unsupported.
size_t selectPhysicalDevice(const std::vector<VkPhysicalDevice>& devices, int index,
                            const std::string& name);

// The device's queue families, indexed as Vulkan numbers them.
std::vector<VkQueueFamilyProperties> queueFamilies(VkPhysicalDevice device);

// First queue family with compute; UINT32_MAX if none.
uint32_t computeQueueFamily(VkPhysicalDevice device);

}  // namespace vkscan::detail
