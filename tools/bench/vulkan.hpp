// The benchmark's small Vulkan helpers, beside vkscan's public API.
#pragma once

#include <volk.h>

#include <vkscan/vkscan.hpp>

namespace vkscan::bench {

inline void check(VkResult result, const char* call) {
  if (result != VK_SUCCESS) throw VulkanError(result, call);
}

// A zeroed Vulkan struct with its sType (and pNext) set.
template <typename T>
T vkStruct(VkStructureType type, const void* next = nullptr) {
  T value{};
  value.sType = type;
  value.pNext = const_cast<void*>(next);
  return value;
}

}  // namespace vkscan::bench
