#include "recording.hpp"

namespace vkscan::detail {
namespace {

VkDeviceAddress resolve(BufferRole role, uint64_t offset, const ResolvedAddresses& addresses) {
  switch (role) {
    case BufferRole::Input:
      return addresses.input + offset;
    case BufferRole::Output:
      return addresses.output + offset;
    case BufferRole::Scratch:
      return addresses.scratch + offset;
    case BufferRole::None:
      break;
  }
  return 0;
}

// Each pass reads what the previous one wrote (totals, carries, or in place
// the output), and may overwrite what an earlier one read (scratch reused by
// the next piece): read-after-write and write-after-read on compute, which a
// compute-to-compute memory barrier covers. Nothing wider is needed.
void barrierBetweenPasses(const VolkDeviceTable& vk, VkCommandBuffer commandBuffer) {
  auto barrier = vkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  vk.vkCmdPipelineBarrier(commandBuffer, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0, nullptr, 0,
                          nullptr);
}

}  // namespace

void barrierComputeToHost(const VolkDeviceTable& vk, VkCommandBuffer commandBuffer) {
  auto barrier = vkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vk.vkCmdPipelineBarrier(commandBuffer, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                          VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

void recordPlan(const VolkDeviceTable& vk, VkCommandBuffer commandBuffer, VkPipelineLayout layout,
                const Plan& plan, const std::vector<VkPipeline>& pipelines,
                const ResolvedAddresses& addresses) {
  VkPipeline bound = VK_NULL_HANDLE;
  for (size_t i = 0; i < plan.dispatches.size(); ++i) {
    const Dispatch& dispatch = plan.dispatches[i];
    if (i > 0) barrierBetweenPasses(vk, commandBuffer);
    if (pipelines[i] != bound) {
      vk.vkCmdBindPipeline(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines[i]);
      bound = pipelines[i];
    }
    ScanParams params = dispatch.params;
    params.inAddr = resolve(dispatch.in, dispatch.inByteOffset, addresses);
    params.outAddr = resolve(dispatch.out, dispatch.outByteOffset, addresses);
    params.auxAddr = dispatch.hasAux ? addresses.scratch + dispatch.auxByteOffset : 0;
    vk.vkCmdPushConstants(commandBuffer, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(params),
                          &params);
    vk.vkCmdDispatch(commandBuffer, dispatch.groupsX, dispatch.groupsY, 1);
  }
}

}  // namespace vkscan::detail
