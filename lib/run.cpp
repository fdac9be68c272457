// Device::run(): the synchronous convenience, built only on the public
// record() contract plus staging buffers, a command buffer and a fence.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "device_buffer.hpp"
#include "device_impl.hpp"
#include "recording.hpp"
#include "submission.hpp"

namespace vkscan {
namespace {

// Everything a run whose wait timed out may still have in use on the GPU.
struct AbandonedRun : detail::AbandonedWork {
  std::unique_ptr<detail::Submission> submission;
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

  auto submission = std::make_unique<detail::Submission>(*impl_);
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
