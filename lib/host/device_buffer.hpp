// A host-visible device buffer with a device address: what run()
// stages data through, and what tests and tools bind.
#pragma once

#include "device/device_impl.hpp"

namespace vkscan::detail {

class DeviceBuffer {
 public:
  // Usable as a storage buffer, through its device address and by
  // transfers, and in the ways `extraUsage` adds; with
  // VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT it also owns a texel view of its
  // whole 16-byte texels (recordWithInputTexels()), where the device's
  // maxTexelBufferElements allows. Throws VulkanError on a failed call
  // (nothing is left allocated) and Unsupported when no host-visible memory
  // type fits.
  DeviceBuffer(const Device::Impl& device, VkDeviceSize size, VkBufferUsageFlags extraUsage = 0);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  VkBuffer buffer() const noexcept { return buffer_; }
  VkDeviceSize size() const noexcept { return size_; }
  void* mapped() const noexcept { return mapped_; }
  VkBufferView texelView() const noexcept { return texelView_; }
  BufferBinding binding() const noexcept { return {buffer_, 0, size_}; }

 private:
  void release() noexcept;

  const Device::Impl& device_;
  VkDeviceSize size_;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  void* mapped_ = nullptr;
  VkBufferView texelView_ = VK_NULL_HANDLE;
};

}  // namespace vkscan::detail
