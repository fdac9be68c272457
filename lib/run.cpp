// Device::run(): the synchronous convenience, built only on the public
// record() contract plus staging buffers, a command buffer and a fence.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

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
      auto pool =
          detail::vkStruct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
      pool.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
      pool.queueFamilyIndex = device.queueFamilyIndex;
      detail::check(vk.vkCreateCommandPool(device.device, &pool, nullptr, &pool_),
                    "vkCreateCommandPool");
      auto allocate = detail::vkStruct<VkCommandBufferAllocateInfo>(
          VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
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
    auto begin =
        detail::vkStruct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    detail::check(device_.vk.vkBeginCommandBuffer(commandBuffer_, &begin), "vkBeginCommandBuffer");
  }

  // Ends, submits and waits at most `timeoutNs`. Returns false on timeout.
  bool submitAndWait(Device::Impl& device, uint64_t timeoutNs) {
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
    if (waited == VK_TIMEOUT) return false;
    detail::check(waited, "vkWaitForFences");
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

// Everything a run whose wait timed out may still have in use on the GPU.
struct AbandonedRun : detail::AbandonedWork {
  std::unique_ptr<Submission> submission;
  std::vector<std::unique_ptr<detail::DeviceBuffer>> buffers;

  bool finished(bool wait) noexcept override { return submission->finished(wait); }
};

// Frees the objects of earlier timed-out runs that the GPU has finished with.
void releaseFinishedRuns(Device::Impl& device) {
  std::vector<std::unique_ptr<detail::AbandonedWork>> done;
  {
    std::lock_guard<std::mutex> lock(device.abandonedMutex);
    auto& works = device.abandoned;
    for (auto it = works.begin(); it != works.end();) {
      if ((*it)->finished(false)) {
        done.push_back(std::move(*it));
        it = works.erase(it);
      } else {
        ++it;
      }
    }
  }
}

}  // namespace

void Device::run(const CumulativeSummationDesc& desc, const void* input, void* output) const {
  Operator op = createOperator(desc);
  if (op.dispatchCount() == 0) return;
  if (impl_->queue == VK_NULL_HANDLE) {
    throw InvalidArgument("external.queue", "is null, so Device::run() cannot submit");
  }
  releaseFinishedRuns(*impl_);
  bool inPlace = input == output;
  uint64_t inBytes = desc.input.totalBytes();
  uint64_t outBytes = desc.output.totalBytes();

  auto in = std::make_unique<detail::DeviceBuffer>(*impl_, inBytes);
  std::memcpy(in->mapped(), input, inBytes);
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
  if (op.scratchSize() > 0)
    scratch = std::make_unique<detail::DeviceBuffer>(*impl_, op.scratchSize());

  auto submission = std::make_unique<Submission>(*impl_);
  submission->begin();
  BufferBinding outBinding = inPlace ? in->binding() : out->binding();
  op.record(submission->commandBuffer(), in->binding(), outBinding,
            scratch ? scratch->binding() : BufferBinding{});
  detail::barrierComputeToHost(impl_->vk, submission->commandBuffer());
  if (!submission->submitAndWait(*impl_, impl_->options.timeoutNs)) {
    // The GPU may still read and write these objects: the Device keeps them
    // until the fence signals instead of destroying them now.
    auto work = std::make_unique<AbandonedRun>();
    work->submission = std::move(submission);
    for (auto* buffer : {&in, &out, &scratch}) {
      if (*buffer) work->buffers.push_back(std::move(*buffer));
    }
    {
      std::lock_guard<std::mutex> lock(impl_->abandonedMutex);
      impl_->abandoned.push_back(std::move(work));
    }
    throw VulkanError(
        VK_TIMEOUT, "vkWaitForFences",
        "the scan did not finish within " + std::to_string(impl_->options.timeoutNs) + " ns");
  }
  std::memcpy(output, inPlace ? in->mapped() : out->mapped(), outBytes);
}

}  // namespace vkscan
