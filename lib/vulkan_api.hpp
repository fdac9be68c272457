// How the library reaches Vulkan: through volk, with instance-level functions
// in volk's globals and device-level functions in a per-device table, so that
// several devices (and an engine's own loader) can coexist.
#pragma once

#include <volk.h>

#include <vkscan/vkscan.hpp>

namespace vkscan::detail {

// A Vulkan struct with sType and pNext set and every other member zero.
template <typename T>
T vkStruct(VkStructureType type, const void* next = nullptr) {
  T value{};
  value.sType = type;
  value.pNext = const_cast<void*>(next);
  return value;
}

// A write of one storage-buffer descriptor, for vkCmdPushDescriptorSetKHR.
inline VkWriteDescriptorSet storageBufferWrite(uint32_t binding,
                                               const VkDescriptorBufferInfo* info) {
  auto write = vkStruct<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
  write.dstBinding = binding;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = info;
  return write;
}

// Throws VulkanError naming `call` when `result` is an error code.
inline void check(VkResult result, const char* call) {
  if (result < 0) throw VulkanError(result, call);
}

}  // namespace vkscan::detail
