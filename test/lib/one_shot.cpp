#include "one_shot.hpp"

#include <mutex>

namespace vkscan::test {

OneShot::OneShot(Device::Impl& device) : device_(device) {
  auto pool = detail::vkStruct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  pool.queueFamilyIndex = device.queueFamilyIndex;
  detail::check(device.vk.vkCreateCommandPool(device.device, &pool, nullptr, &pool_), "pool");
  auto allocate =
      detail::vkStruct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  allocate.commandPool = pool_;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  detail::check(device.vk.vkAllocateCommandBuffers(device.device, &allocate, &commandBuffer_),
                "allocate");
  auto begin =
      detail::vkStruct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  detail::check(device.vk.vkBeginCommandBuffer(commandBuffer_, &begin), "begin");
}

OneShot::~OneShot() {
  device_.vk.vkDestroyCommandPool(device_.device, pool_, nullptr);
}

void OneShot::computeToCompute() {
  auto barrier = detail::vkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  device_.vk.vkCmdPipelineBarrier(commandBuffer_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0, nullptr,
                                  0, nullptr);
}

void OneShot::submitAndWait() {
  auto barrier = detail::vkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  device_.vk.vkCmdPipelineBarrier(commandBuffer_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                  VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr, 0,
                                  nullptr);
  detail::check(device_.vk.vkEndCommandBuffer(commandBuffer_), "end");
  auto submit = detail::vkStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commandBuffer_;
  std::lock_guard<std::mutex> lock(device_.queueMutex);
  detail::check(device_.vk.vkQueueSubmit(device_.queue, 1, &submit, VK_NULL_HANDLE), "submit");
  detail::check(device_.vk.vkQueueWaitIdle(device_.queue), "wait");
}

}  // namespace vkscan::test
