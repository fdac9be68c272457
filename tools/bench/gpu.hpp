// The benchmark's own Vulkan plumbing on a vkscan::Device, through the
// public API only: a function table of its own for the device's handles, its
// pipelines (copy roof, naive scan), reusable command buffers bracketed by
// timestamps, and synchronous submission with a fence.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <tuple>
#include <utility>
#include <vkscan/host.hpp>

#include "bench_params.h"
#include "copy_grid.hpp"
#include "vulkan.hpp"

namespace vkscan::bench {

class DeviceBuffer;

// Where a buffer's memory lives. On a discrete GPU a host-visible type may be
// system memory read over PCIe, which would make every figure a bus figure.
enum class Placement {
  HostVisible,  // mapped; coherent, cached where offered
  DeviceLocal,  // not mapped; device-local, not host-visible where offered
};

// The longest the benchmark waits for one submission.
inline constexpr uint64_t kSubmitTimeoutNs = 60ull * 1000 * 1000 * 1000;

// One timed run: GPU time between the timestamps and host time around
// vkQueueSubmit + vkWaitForFences.
struct Sample {
  double gpuNs = 0;
  double wallNs = 0;
};

class Gpu;

// A command buffer recorded once and submitted many times:
//   [prologue] timestamp body timestamp, then a barrier to host reads.
// The prologue (e.g. restoring an in-place input) is outside the GPU time.
class TimedCommands {
 public:
  ~TimedCommands();
  TimedCommands(const TimedCommands&) = delete;
  TimedCommands& operator=(const TimedCommands&) = delete;

 private:
  friend class Gpu;
  explicit TimedCommands(Gpu& gpu) : gpu_(gpu) {}
  Gpu& gpu_;
  VkCommandBuffer commandBuffer_ = VK_NULL_HANDLE;
  VkQueryPool queries_ = VK_NULL_HANDLE;
};

class Gpu {
 public:
  // Loads a function table for device.handle() and makes the benchmark's
  // objects. Throws Unsupported when the Vulkan loader cannot be loaded, and
  // VulkanError if one of the objects (command pool, fence, layouts,
  // descriptor pool) cannot be made, after destroying those it did make.
  explicit Gpu(const Device& device);
  // The same calling `vk` instead, which must hold the device's functions
  // (tests wrap some of them to inject faults).
  Gpu(const Device& device, const VolkDeviceTable& vk);
  ~Gpu();
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  const VolkDeviceTable& vk() const { return vk_; }
  VkDevice device() const { return device_; }
  const DeviceCapabilities& capabilities() const { return capabilities_; }
  const VkPhysicalDeviceMemoryProperties& memoryProperties() const { return memory_; }
  VkDeviceAddress address(const DeviceBuffer& buffer) const;

  // Where the benchmark's tensors, copies and scratch live: device-local on
  // a discrete or integrated GPU or where device-local memory is hidden from
  // the host, host-visible elsewhere (lavapipe's one memory type is both, and
  // its figures stay those of mapped buffers); set() overrides the choice.
  Placement tensorPlacement() const { return placement_; }
  void setTensorPlacement(Placement placement) { placement_ = placement; }
  // Copies `bytes` from `data` to the start of `buffer` (download(): from
  // `buffer` to `data`): a memcpy where the buffer is mapped, else through a
  // host-visible staging buffer and vkCmdCopyBuffer, in chunks, each waited
  // for. Ordered after every earlier submission and before every later one.
  // Throws VulkanError on a failed call.
  void upload(const DeviceBuffer& buffer, const void* data, VkDeviceSize bytes);
  void download(const DeviceBuffer& buffer, void* data, VkDeviceSize bytes);

  // How a kernel of the benchmark reaches its buffers: device addresses in
  // the push constants, two storage buffers in set 0 (bufferPair()), or a
  // uniform texel buffer source and a storage buffer destination in set 0
  // (texelSourcePair()).
  enum class Bindings { Addresses, StorageBuffers, TexelSource };
  // A pipeline of one of the benchmark's kernels, created on first use.
  // `wholeTiles`: specialization constant 1 of copy.comp (every workgroup
  // has a full tile).
  VkPipeline pipeline(const uint32_t* words, size_t wordCount, uint32_t workgroupSize,
                      Bindings bindings = Bindings::Addresses, bool wholeTiles = false);
  // A descriptor set binding `source` (binding 0) and `destination` (1) as
  // storage buffers, valid until releaseDescriptorSets().
  VkDescriptorSet bufferPair(const DeviceBuffer& source, const DeviceBuffer& destination);
  // The same with `source` seen as R32G32B32A32_UINT texels through its own
  // texel view (DeviceBuffer::texelView(), which must not be null).
  VkDescriptorSet texelSourcePair(const DeviceBuffer& source, const DeviceBuffer& destination);
  // Frees every set of bufferPair() and texelSourcePair(); no pending
  // command buffer may use them.
  void releaseDescriptorSets();
  // Records one dispatch of the copy of `params.count` elements (copy.comp,
  // see copyDispatches()); `set` for the descriptor kernels, made for
  // `bindings`.
  void recordCopy(VkCommandBuffer commandBuffer, VkPipeline pipeline, const CopyParams& params,
                  const CopyDispatch& dispatch, VkDescriptorSet set = VK_NULL_HANDLE,
                  Bindings bindings = Bindings::Addresses) const;
  // Records the naive scan, one invocation per line.
  void recordNaive(VkCommandBuffer commandBuffer, VkPipeline pipeline, const NaiveParams& params,
                   uint32_t workgroupSize) const;
  // Orders every earlier compute and transfer access in the command buffer
  // before every later one (a full memory barrier between those stages).
  void recordBarrier(VkCommandBuffer commandBuffer) const;
  // Copies `source` over `destination` and makes it visible to compute.
  void recordRestore(VkCommandBuffer commandBuffer, const DeviceBuffer& source,
                     const DeviceBuffer& destination, VkDeviceSize bytes) const;

  using Recorder = std::function<void(VkCommandBuffer)>;
  std::unique_ptr<TimedCommands> record(const Recorder& body, const Recorder& prologue = {});
  Sample submit(TimedCommands& commands);

  // A command buffer for untimed use (e.g. measuring record() on the CPU).
  VkCommandBuffer scratchCommandBuffer() const { return scratch_; }

 private:
  friend class TimedCommands;
  static VolkDeviceTable loadTable(const Device& device);
  void createObjects();
  VkPipelineLayout layoutFor(Bindings bindings) const;
  VkDescriptorSet allocateSet(VkDescriptorSetLayout layout);
  void destroyObjects() noexcept;
  // Runs `copy(staging, offset, chunkBytes)` for each staging-sized chunk.
  using ChunkCopy = std::function<void(const DeviceBuffer&, VkDeviceSize, VkDeviceSize)>;
  void stage(VkDeviceSize bytes, const ChunkCopy& copy);

  VolkDeviceTable vk_;
  VkDevice device_;
  VkQueue queue_;
  uint32_t queueFamilyIndex_;
  DeviceCapabilities capabilities_;
  VkPhysicalDeviceMemoryProperties memory_{};
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer scratch_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;  // push constants only
  VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
  VkPipelineLayout descriptorLayout_ = VK_NULL_HANDLE;  // set 0 + push constants
  VkDescriptorSetLayout texelSetLayout_ = VK_NULL_HANDLE;
  VkPipelineLayout texelLayout_ = VK_NULL_HANDLE;  // set 0 (texel source) + push constants
  VkDescriptorPool descriptorPool_ = VK_NULL_HANDLE;
  std::map<std::tuple<const uint32_t*, uint32_t, bool>, VkPipeline> pipelines_;
  Placement placement_ = Placement::HostVisible;
  std::unique_ptr<DeviceBuffer> staging_;  // made at the first staged transfer
};

}  // namespace vkscan::bench
