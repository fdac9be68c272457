// vkscan::run() (host.hpp): the synchronous convenience, built on the public
// record() contract plus host-visible buffers, a command buffer and a fence.
#include <cstring>
#include <memory>
#include <string>
#include <vector>
#include <vkscan/cpu_hints.hpp>

#include "device/device_impl.hpp"
#include "host/device_buffer.hpp"
#include "host/submission.hpp"
#include "operator/operator_impl.hpp"
#include "problem.hpp"
#include "recording.hpp"

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

void run(const Device& device, const CumulativeSummationDesc& desc, const void* input,
         void* output) {
  run(device, scanDesc(desc), input, output);
}

void run(const Device& device, const ScanDesc& desc, const void* input, void* output) {
  run(device, desc, input, output, nullptr);
}

void run(const Device& device, const ScanDesc& desc, const void* input, void* output,
         void* indices) {
  RunData data;
  data.input = input;
  data.output = output;
  data.indices = indices;
  run(device, desc, data);
}

void run(const Device& device, const ScanDesc& desc, const RunData& data) {
  const void* input = data.input;
  void* output = data.output;
  void* indices = data.indices;
  Device::Impl& impl = Device::Access::impl(device);
  Operator op = device.createOperator(desc);
  if (op.dispatchCount() == 0) return;
  if (impl.queue == VK_NULL_HANDLE) {
    throw InvalidArgument("external.queue", "is null, so run() cannot submit");
  }
  if (input == nullptr) throw InvalidArgument("input", "is a null pointer");
  if (output == nullptr) throw InvalidArgument("output", "is a null pointer");
  bool hasIndices = !desc.indices.sizes.empty();
  if (hasIndices && indices == nullptr) throw InvalidArgument("indices", "is a null pointer");
  if (!hasIndices && indices != nullptr) {
    throw InvalidArgument("indices", "is not null, but the descriptor has no indices");
  }
  bool hasCarryIn = !desc.carryIn.sizes.empty();
  if (hasCarryIn && data.carryIn == nullptr) throw InvalidArgument("carryIn", "is a null pointer");
  if (!hasCarryIn && data.carryIn != nullptr) {
    throw InvalidArgument("carryIn", "is not null, but the descriptor has no carryIn");
  }
  bool hasTotals = !desc.totals.sizes.empty();
  if (hasTotals && data.totals == nullptr) throw InvalidArgument("totals", "is a null pointer");
  if (!hasTotals && data.totals != nullptr) {
    throw InvalidArgument("totals", "is not null, but the descriptor has no totals");
  }
  bool inPlace = input == output;
  if (inPlace && hasIndices) {
    throw InvalidArgument("output",
                          "is the input pointer (in place), but the indices are found "
                          "from the input after the output is written");
  }
  if (inPlace && desc.input.dataType != desc.output.dataType) {
    throw InvalidArgument("output", std::string("is the input pointer (in place), but ") +
                                        dataTypeName(desc.output.dataType) +
                                        " is wider than the input's " +
                                        dataTypeName(desc.input.dataType));
  }
  if (inPlace && !detail::sameLayout(desc.input, desc.output)) {
    throw InvalidArgument("output",
                          "is the input pointer (in place), but output.strides differ from "
                          "input.strides");
  }
  releaseFinishedRuns(impl);
  // The caller's memory ends with the last element; the device buffers are
  // padded to totalBytes(), and the padding is zeroed so that no kernel reads
  // stale bytes.
  uint64_t inBytes = desc.input.spanBytes();
  uint64_t outBytes = desc.output.spanBytes();

  // Where the device reads faster through texels, the input comes with a
  // texel view (cpu_hints.hpp).
  VkBufferUsageFlags inUsage =
      impl.tuning.texelInput ? VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT : 0;
  auto in = std::make_unique<detail::DeviceBuffer>(impl, desc.input.totalBytes(), inUsage);
  std::memcpy(in->mapped(), input, inBytes);
  std::memset(static_cast<char*>(in->mapped()) + inBytes, 0, in->size() - inBytes);
  std::unique_ptr<detail::DeviceBuffer> out;
  if (!inPlace) {
    out = std::make_unique<detail::DeviceBuffer>(impl, desc.output.totalBytes());
    // Bytes between strided elements, which the scan does not write, must
    // come back as the caller had them.
    if (desc.output.elementCount() * dataTypeSize(desc.output.dataType) != outBytes) {
      std::memcpy(out->mapped(), output, outBytes);
    }
  }
  std::unique_ptr<detail::DeviceBuffer> scratch;
  if (op.scratchSize() > 0)
    scratch = std::make_unique<detail::DeviceBuffer>(impl, op.scratchSize());
  std::unique_ptr<detail::DeviceBuffer> indexBuffer;
  uint64_t indexBytes = hasIndices ? desc.indices.spanBytes() : 0;
  if (hasIndices) {
    indexBuffer = std::make_unique<detail::DeviceBuffer>(impl, desc.indices.totalBytes());
    // Strided indices: the bytes between them come back as given.
    std::memcpy(indexBuffer->mapped(), indices, indexBytes);
  }
  std::unique_ptr<detail::DeviceBuffer> carryBuffer;
  if (hasCarryIn) {
    carryBuffer = std::make_unique<detail::DeviceBuffer>(impl, desc.carryIn.totalBytes());
    uint64_t carryBytes = desc.carryIn.spanBytes();
    std::memcpy(carryBuffer->mapped(), data.carryIn, carryBytes);
    std::memset(static_cast<char*>(carryBuffer->mapped()) + carryBytes, 0,
                carryBuffer->size() - carryBytes);
  }
  std::unique_ptr<detail::DeviceBuffer> totalsBuffer;
  uint64_t totalsBytes = hasTotals ? desc.totals.spanBytes() : 0;
  if (hasTotals) {
    totalsBuffer = std::make_unique<detail::DeviceBuffer>(impl, desc.totals.totalBytes());
    // Strided totals: the bytes between them come back as given.
    std::memcpy(totalsBuffer->mapped(), data.totals, totalsBytes);
  }

  auto submission = std::make_unique<detail::Submission>(impl);
  submission->begin();
  BufferBinding outBinding = inPlace ? in->binding() : out->binding();
  Bindings bindings;
  bindings.input = in->binding();
  bindings.output = outBinding;
  bindings.scratch = scratch ? scratch->binding() : BufferBinding{};
  bindings.indices = indexBuffer ? indexBuffer->binding() : BufferBinding{};
  bindings.carryIn = carryBuffer ? carryBuffer->binding() : BufferBinding{};
  bindings.totals = totalsBuffer ? totalsBuffer->binding() : BufferBinding{};
  detail::recordAll(op, submission->commandBuffer(), in->texelView(), bindings);
  detail::barrierComputeToHost(impl.vk, submission->commandBuffer());
  if (!submission->submitAndWait(impl, impl.timeoutNs)) {
    // The GPU may still read and write these objects: the Device keeps them
    // until the fence signals instead of destroying them now.
    auto work = std::make_unique<AbandonedRun>();
    work->submission = std::move(submission);
    for (auto* buffer : {&in, &out, &scratch, &indexBuffer, &carryBuffer, &totalsBuffer}) {
      if (*buffer) work->buffers.push_back(std::move(*buffer));
    }
    {
      std::lock_guard<std::mutex> lock(impl.abandonedMutex);
      impl.abandoned.push_back(std::move(work));
    }
    throw VulkanError(VK_TIMEOUT, "vkWaitForFences",
                      "the scan did not finish within " + std::to_string(impl.timeoutNs) + " ns");
  }
  std::memcpy(output, inPlace ? in->mapped() : out->mapped(), outBytes);
  if (hasIndices) std::memcpy(indices, indexBuffer->mapped(), indexBytes);
  if (hasTotals) std::memcpy(data.totals, totalsBuffer->mapped(), totalsBytes);
}

}  // namespace vkscan
