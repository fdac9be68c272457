// A buffer with a device address: what the benchmark fills, binds to vkscan
// and to its own kernels, and reads back, in host-visible memory (mapped) or
// in device-local memory (reached by Gpu::upload() and Gpu::download()).
#pragma once

#include <vkscan/vkscan.hpp>

#include "gpu.hpp"

namespace vkscan::bench {

class DeviceBuffer {
 public:
  // Usable as a storage buffer, through its device address and by
  // transfers, and in the ways `extraUsage` adds; with
  // VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT it also owns a
  // R32G32B32A32_UINT view of its whole 16-byte texels (for
  // recordWithInputTexels() and the roof's texel family), where the device's
  // maxTexelBufferElements allows. Memory is allocated with
  // VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT, as vkscan requires. Throws
  // VulkanError on a failed call (nothing is left allocated) and Unsupported
  // when no memory type of `placement` fits. `gpu` must outlive the buffer.
  DeviceBuffer(const Gpu& gpu, VkDeviceSize size, VkBufferUsageFlags extraUsage = 0,
               Placement placement = Placement::HostVisible);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  VkBuffer buffer() const noexcept { return buffer_; }
  VkDeviceSize size() const noexcept { return size_; }
  // Null for Placement::DeviceLocal.
  void* mapped() const noexcept { return mapped_; }
  VkBufferView texelView() const noexcept { return texelView_; }
  BufferBinding binding() const noexcept { return {buffer_, 0, size_}; }

 private:
  void release() noexcept;

  const Gpu& gpu_;
  VkDeviceSize size_;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  void* mapped_ = nullptr;
  VkBufferView texelView_ = VK_NULL_HANDLE;
};

}  // namespace vkscan::bench
