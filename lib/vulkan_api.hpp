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

// A shader module of `words` 32-bit words of SPIR-V. Throws VulkanError.
inline VkShaderModule createShaderModule(const VolkDeviceTable& vk, VkDevice device,
                                         const uint32_t* code, size_t words) {
  auto info = vkStruct<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  info.codeSize = words * sizeof(uint32_t);
  info.pCode = code;
  VkShaderModule module = VK_NULL_HANDLE;
  check(vk.vkCreateShaderModule(device, &info, nullptr, &module), "vkCreateShaderModule");
  return module;
}

// The description of a compute pipeline running `module`'s main() in `layout`.
inline VkComputePipelineCreateInfo computePipelineInfo(
    VkShaderModule module, VkPipelineLayout layout,
    const VkSpecializationInfo* specialization = nullptr) {
  auto info = vkStruct<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  info.stage = vkStruct<VkPipelineShaderStageCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = specialization;
  info.layout = layout;
  return info;
}

// One compute pipeline of the SPIR-V `code` (its module is destroyed again).
// The caller owns the pipeline. Throws VulkanError; nothing is left then.
inline VkPipeline createComputePipeline(const VolkDeviceTable& vk, VkDevice device,
                                        VkPipelineCache cache, const uint32_t* code, size_t words,
                                        VkPipelineLayout layout,
                                        const VkSpecializationInfo* specialization = nullptr) {
  VkShaderModule module = createShaderModule(vk, device, code, words);
  VkComputePipelineCreateInfo info = computePipelineInfo(module, layout, specialization);
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkResult result = vk.vkCreateComputePipelines(device, cache, 1, &info, nullptr, &pipeline);
  vk.vkDestroyShaderModule(device, module, nullptr);
  check(result, "vkCreateComputePipelines");
  return pipeline;
}

}  // namespace vkscan::detail
