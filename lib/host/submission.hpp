// A transient command pool, its one command buffer and a fence: what
// run() submits with.
#pragma once

#include "device/device_impl.hpp"

namespace vkscan::detail {

// Owns the transient command pool, its one command buffer and a fence.
class Submission {
 public:
  explicit Submission(const Device::Impl& device) : device_(device) {
    const VolkDeviceTable& vk = device.vk;
    try {
      auto pool = vkStruct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
      pool.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
      pool.queueFamilyIndex = device.queueFamilyIndex;
      check(vk.vkCreateCommandPool(device.device, &pool, nullptr, &pool_), "vkCreateCommandPool");
      auto allocate =
          vkStruct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
      allocate.commandPool = pool_;
      allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      allocate.commandBufferCount = 1;
      check(vk.vkAllocateCommandBuffers(device.device, &allocate, &commandBuffer_),
            "vkAllocateCommandBuffers");
      auto fence = vkStruct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
      check(vk.vkCreateFence(device.device, &fence, nullptr, &fence_), "vkCreateFence");
    } catch (...) {
      release();
      throw;
    }
  }
  ~Submission() { release(); }
  Submission(const Submission&) = delete;
  Submission& operator=(const Submission&) = delete;

  VkCommandBuffer commandBuffer() const { return commandBuffer_; }

  void begin() {
    auto begin = vkStruct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(device_.vk.vkBeginCommandBuffer(commandBuffer_, &begin), "vkBeginCommandBuffer");
  }

  // Ends, submits and waits at most `timeoutNs`. Returns false on timeout.
  bool submitAndWait(Device::Impl& device, uint64_t timeoutNs) {
    const VolkDeviceTable& vk = device.vk;
    check(vk.vkEndCommandBuffer(commandBuffer_), "vkEndCommandBuffer");
    auto submit = vkStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commandBuffer_;
    {
      std::lock_guard<std::mutex> lock(device.queueMutex);
      check(vk.vkQueueSubmit(device.queue, 1, &submit, fence_), "vkQueueSubmit");
    }
    VkResult waited = vk.vkWaitForFences(device.device, 1, &fence_, VK_TRUE, timeoutNs);
    if (waited == VK_TIMEOUT) return false;
    check(waited, "vkWaitForFences");
    return true;
  }

  // After a timeout: true once the fence has signalled or the device is lost
  // (then destroying is allowed again).
  bool finished(bool wait) const noexcept {
    const VolkDeviceTable& vk = device_.vk;
    VkResult status = wait ? vk.vkWaitForFences(device_.device, 1, &fence_, VK_TRUE, UINT64_MAX)
                           : vk.vkGetFenceStatus(device_.device, fence_);
    return status != VK_NOT_READY && status != VK_TIMEOUT;
  }

 private:
  void release() noexcept {
    const VolkDeviceTable& vk = device_.vk;
    if (fence_ != VK_NULL_HANDLE) vk.vkDestroyFence(device_.device, fence_, nullptr);
    if (pool_ != VK_NULL_HANDLE) vk.vkDestroyCommandPool(device_.device, pool_, nullptr);
    fence_ = VK_NULL_HANDLE;
    pool_ = VK_NULL_HANDLE;
  }

  const Device::Impl& device_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer commandBuffer_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
};

}  // namespace vkscan::detail
