// The only place vkscan writes commands: dispatches and the barriers
// between them.
#pragma once

#include <vector>

#include "plan/common.hpp"
#include "vulkan_api.hpp"

namespace vkscan::detail {

// One tensor binding as the dispatches reach it: its device address, and
// for storage-buffer kernels the binding itself with the bytes they touch.
struct ResolvedBinding {
  VkDeviceAddress address = 0;
  BufferBinding binding;
  uint64_t bytes = 0;
};

struct ResolvedBindings {
  ResolvedBinding input;
  ResolvedBinding output;
  ResolvedBinding scratch;  // binding.buffer null when the plan needs none
  ResolvedBinding indices;  // binding.buffer null without indices
  ResolvedBinding carryIn;  // binding.buffer null without a carry-in
  ResolvedBinding totals;   // binding.buffer null without totals
  // VkPhysicalDeviceLimits::minStorageBufferOffsetAlignment.
  uint64_t storageBufferAlignment = 16;
  // The input's texel view when `pipelines` are the texel variants
  // (PipelineVariant::texelInput); else null.
  VkBufferView inputTexelView = VK_NULL_HANDLE;
};

// Records `plan`'s dispatches with `pipelines[i]` for dispatch i. Dispatches
// whose pipeline uses storage buffers get their bindings pushed to set 0 of
// `layout` (VK_KHR_push_descriptor), with the input's texel view as binding
// 3 where they read the input through it.
void recordPlan(const VolkDeviceTable& vk, VkCommandBuffer commandBuffer, VkPipelineLayout layout,
                const Plan& plan, const std::vector<VkPipeline>& pipelines,
                const ResolvedBindings& bindings);

// Makes compute writes visible to host reads after a fence wait.
void barrierComputeToHost(const VolkDeviceTable& vk, VkCommandBuffer commandBuffer);

}  // namespace vkscan::detail
