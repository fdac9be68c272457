// Device::run(): the synchronous convenience, built only on the public
// record() contract plus staging buffers, a command buffer and a fence.
#include <cstring>

#include "device_buffer.hpp"
#include "device_impl.hpp"
#include "recording.hpp"

namespace vkscan {
namespace {

// Owns the transient command pool, its one command buffer and a fence.
class Submission {
 public:
  explicit Submission(const Device::Impl& device) : device_(device) {
    const VolkDeviceTable& vk = device.vk;
    try {
      auto pool = detail::vkStruct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
      pool.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
      pool.queueFamilyIndex = device.queueFamilyIndex;
      detail::check(vk.vkCreateCommandPool(device.device, &pool, nullptr, &pool_),
                    "vkCreateCommandPool");
      auto allocate = detail::vkStruct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
      allocate.commandPool = pool_;
      allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      allocate.commandBufferCount = 1;
      detail::check(vk.vkAllocateCommandBuffers(device.device, &allocate, &commandBuffer_),
                    "vkAllocateCommandBuffers");
      auto fence = detail::vkStruct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
      detail::check(vk.vkCreateFence(device.device, &fence, nullptr, &fence_), "vkCreateFence");
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
    auto begin = detail::vkStruct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    detail::check(device_.vk.vkBeginCommandBuffer(commandBuffer_, &begin), "vkBeginCommandBuffer");
  }

  // Ends, submits and waits at most `timeoutNs`.
  void submitAndWait(Device::Impl& device, uint64_t timeoutNs) {
    const VolkDeviceTable& vk = device.vk;
    detail::check(vk.vkEndCommandBuffer(commandBuffer_), "vkEndCommandBuffer");
    auto submit = detail::vkStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commandBuffer_;
    {
      std::lock_guard<std::mutex> lock(device.queueMutex);
      detail::check(vk.vkQueueSubmit(device.queue, 1, &submit, fence_), "vkQueueSubmit");
    }
    VkResult waited = vk.vkWaitForFences(device.device, 1, &fence_, VK_TRUE, timeoutNs);
    if (waited == VK_TIMEOUT) {
      // The GPU may still use this pool and the caller's buffers; destroying
      // them now would be a use-after-free on the device, so they are leaked.
      pool_ = VK_NULL_HANDLE;
      fence_ = VK_NULL_HANDLE;
      throw VulkanError(VK_TIMEOUT, "vkWaitForFences",
                        "the scan did not finish within " + std::to_string(timeoutNs) + " ns");
    }
    detail::check(waited, "vkWaitForFences");
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

}  // namespace

void Device::run(const CumulativeSummationDesc& desc, const void* input, void* output) const {
  Operator op = createOperator(desc);
  if (op.dispatchCount() == 0) return;
  if (impl_->queue == VK_NULL_HANDLE) {
    throw InvalidArgument("external.queue", "is null, so Device::run() cannot submit");
  }
  bool inPlace = input == output;
  uint64_t inBytes = desc.input.totalBytes();
  uint64_t outBytes = desc.output.totalBytes();

  detail::DeviceBuffer in(*impl_, inBytes);
  std::memcpy(in.mapped(), input, inBytes);
  std::unique_ptr<detail::DeviceBuffer> out;
  if (!inPlace) {
    out = std::make_unique<detail::DeviceBuffer>(*impl_, outBytes);
    // Bytes the scan does not write (gaps between strided elements, padding
    // to 4 bytes) must come back as the caller had them.
    if (desc.output.elementCount() * dataTypeSize(desc.output.dataType) != outBytes) {
      std::memcpy(out->mapped(), output, outBytes);
    }
  }
  std::unique_ptr<detail::DeviceBuffer> scratch;
  if (op.scratchSize() > 0) scratch = std::make_unique<detail::DeviceBuffer>(*impl_, op.scratchSize());

  Submission submission(*impl_);
  submission.begin();
  BufferBinding outBinding = inPlace ? in.binding() : out->binding();
  op.record(submission.commandBuffer(), in.binding(), outBinding,
            scratch ? scratch->binding() : BufferBinding{});
  detail::barrierComputeToHost(impl_->vk, submission.commandBuffer());
  submission.submitAndWait(*impl_, impl_->options.timeoutNs);
  std::memcpy(output, inPlace ? in.mapped() : out->mapped(), outBytes);
}

}  // namespace vkscan
