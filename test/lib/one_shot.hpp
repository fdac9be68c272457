// A command buffer recorded by a test as an engine records its own, then
// submitted once and waited for.
#pragma once
#include "device/device_impl.hpp"

namespace vkscan::test {

class OneShot {
 public:
  explicit OneShot(Device::Impl& device);
  ~OneShot();
  OneShot(const OneShot&) = delete;
  OneShot& operator=(const OneShot&) = delete;

  VkCommandBuffer commandBuffer() const { return commandBuffer_; }

  // The caller's barrier between two vkscan operators that share buffers.
  void computeToCompute();

  // Makes the shader writes visible to the host, submits, and waits.
  void submitAndWait();

 private:
  Device::Impl& device_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer commandBuffer_ = VK_NULL_HANDLE;
};

}  // namespace vkscan::test
