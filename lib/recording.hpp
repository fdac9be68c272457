// The only place vkscan writes commands: dispatches and the barriers
// between them.
#pragma once

#include <vector>

#include "plan.hpp"
#include "vulkan_api.hpp"

namespace vkscan::detail {

struct ResolvedAddresses {
  VkDeviceAddress input = 0;
  VkDeviceAddress output = 0;
  VkDeviceAddress scratch = 0;
};

// Records `plan`'s dispatches with `pipelines[i]` for dispatch i.
void recordPlan(const VolkDeviceTable& vk, VkCommandBuffer commandBuffer, VkPipelineLayout layout,
                const Plan& plan, const std::vector<VkPipeline>& pipelines,
                const ResolvedAddresses& addresses);

// Makes compute writes visible to host reads after a fence wait.
void barrierComputeToHost(const VolkDeviceTable& vk, VkCommandBuffer commandBuffer);

}  // namespace vkscan::detail
