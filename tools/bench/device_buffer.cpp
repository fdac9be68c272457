#include "device_buffer.hpp"

namespace vkscan::bench {
namespace {

uint32_t hostVisibleMemoryType(const VkPhysicalDeviceMemoryProperties& memory, uint32_t allowed) {
  // Coherent and cached first: the host both writes and reads these buffers.
  const VkMemoryPropertyFlags preferences[] = {
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
          VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT};
  for (VkMemoryPropertyFlags wanted : preferences) {
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
      if ((allowed & (1u << i)) && (memory.memoryTypes[i].propertyFlags & wanted) == wanted)
        return i;
    }
  }
  throw Unsupported("no host-visible, coherent memory type can hold a storage buffer");
}

uint32_t deviceLocalMemoryType(const VkPhysicalDeviceMemoryProperties& memory, uint32_t allowed) {
  // A type the host cannot see first: on a discrete GPU that is its own
  // memory, where a host-visible device-local type may be a small BAR window.
  for (bool hostVisibleToo : {false, true}) {
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
      const VkMemoryPropertyFlags flags = memory.memoryTypes[i].propertyFlags;
      if ((allowed & (1u << i)) && (flags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) &&
          (hostVisibleToo || !(flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)))
        return i;
    }
  }
  throw Unsupported("no device-local memory type can hold a storage buffer");
}

}  // namespace

DeviceBuffer::DeviceBuffer(const Gpu& gpu, VkDeviceSize size, VkBufferUsageFlags extraUsage,
                           Placement placement)
    : gpu_(gpu), size_(size == 0 ? 16 : size) {
  const VolkDeviceTable& vk = gpu.vk();
  VkDevice device = gpu.device();
  auto info = vkStruct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  info.size = size_;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
               VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | extraUsage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  try {
    check(vk.vkCreateBuffer(device, &info, nullptr, &buffer_), "vkCreateBuffer");
    VkMemoryRequirements requirements;
    vk.vkGetBufferMemoryRequirements(device, buffer_, &requirements);
    auto flags = vkStruct<VkMemoryAllocateFlagsInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO);
    flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    auto allocate = vkStruct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &flags);
    allocate.allocationSize = requirements.size;
    const bool hostVisible = placement == Placement::HostVisible;
    allocate.memoryTypeIndex =
        hostVisible ? hostVisibleMemoryType(gpu.memoryProperties(), requirements.memoryTypeBits)
                    : deviceLocalMemoryType(gpu.memoryProperties(), requirements.memoryTypeBits);
    check(vk.vkAllocateMemory(device, &allocate, nullptr, &memory_), "vkAllocateMemory");
    check(vk.vkBindBufferMemory(device, buffer_, memory_, 0), "vkBindBufferMemory");
    if (hostVisible) {
      check(vk.vkMapMemory(device, memory_, 0, VK_WHOLE_SIZE, 0, &mapped_), "vkMapMemory");
    }
    uint64_t texels = size_ / 16;
    if ((extraUsage & VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT) != 0 && texels > 0 &&
        texels <= gpu.capabilities().maxTexelBufferElements) {
      auto view = vkStruct<VkBufferViewCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO);
      view.buffer = buffer_;
      view.format = VK_FORMAT_R32G32B32A32_UINT;
      view.range = texels * 16;
      check(vk.vkCreateBufferView(device, &view, nullptr, &texelView_), "vkCreateBufferView");
    }
  } catch (...) {
    release();
    throw;
  }
}

DeviceBuffer::~DeviceBuffer() {
  release();
}

void DeviceBuffer::release() noexcept {
  const VolkDeviceTable& vk = gpu_.vk();
  VkDevice device = gpu_.device();
  if (texelView_ != VK_NULL_HANDLE) vk.vkDestroyBufferView(device, texelView_, nullptr);
  if (mapped_ != nullptr) vk.vkUnmapMemory(device, memory_);
  if (buffer_ != VK_NULL_HANDLE) vk.vkDestroyBuffer(device, buffer_, nullptr);
  if (memory_ != VK_NULL_HANDLE) vk.vkFreeMemory(device, memory_, nullptr);
  texelView_ = VK_NULL_HANDLE;
  mapped_ = nullptr;
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
}

}  // namespace vkscan::bench
