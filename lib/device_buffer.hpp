// A host-visible device buffer with a device address: what Device::run()
// stages data through, and what tests and tools bind.
#pragma once

#include "device_impl.hpp"

namespace vkscan::detail {

class DeviceBuffer {
 public:
  // Throws VulkanError on a failed call (nothing is left allocated) and
  // Unsupported when no host-visible memory type fits.
  DeviceBuffer(const Device::Impl& device, VkDeviceSize size);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  VkBuffer buffer() const noexcept { return buffer_; }
  VkDeviceSize size() const noexcept { return size_; }
  void* mapped() const noexcept { return mapped_; }
  BufferBinding binding() const noexcept { return {buffer_, 0, size_}; }

 private:
  void release() noexcept;

  const Device::Impl& device_;
  VkDeviceSize size_;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  void* mapped_ = nullptr;
};

}  // namespace vkscan::detail
