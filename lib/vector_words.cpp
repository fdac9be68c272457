#include "vector_words.hpp"

#include <vkscan_kernels.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

#include "device_buffer.hpp"
#include "recording.hpp"
#include "submission.hpp"

namespace vkscan {

const char* vectorWordsName(VectorWords words) noexcept {
  switch (words) {
    case VectorWords::Automatic:
      return "Automatic";
    case VectorWords::Bits32:
      return "Bits32";
    case VectorWords::Bits64:
      return "Bits64";
  }
  return "UNKNOWN";
}

namespace detail {
namespace {

// 16 MiB: long enough that each copy takes milliseconds on lavapipe, short
// enough that the whole timing stays near 0.1 s.
constexpr VkDeviceSize kCopyBytes = VkDeviceSize{16} << 20;
// word_copy.comp: 64 invocations of 64 bytes each.
constexpr VkDeviceSize kBytesPerWorkgroup = 64 * 64;
// Rounds per width after one warm-up round; each keeps its fastest.
constexpr int kTimedRounds = 5;
// Bits32 must copy this much faster to be chosen, so that hosts where the
// widths tie do not flip between runs.
constexpr double kRequiredSpeedup = 1.1;

class CopyPipeline {
 public:
  CopyPipeline(const Device::Impl& device, const uint32_t* code, size_t words)
      : device_(device),
        pipeline_(createComputePipeline(device.vk, device.device, device.vkPipelineCache, code,
                                        words, device.pipelineLayout)) {}
  ~CopyPipeline() {
    if (pipeline_ != VK_NULL_HANDLE)
      device_.vk.vkDestroyPipeline(device_.device, pipeline_, nullptr);
  }
  CopyPipeline(const CopyPipeline&) = delete;
  CopyPipeline& operator=(const CopyPipeline&) = delete;

  VkPipeline handle() const noexcept { return pipeline_; }

 private:
  const Device::Impl& device_;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
};

// Wall time of one copy of `source` to `destination`, submitted and waited.
double copySeconds(Device::Impl& device, VkPipeline pipeline, const DeviceBuffer& source,
                   const DeviceBuffer& destination) {
  Submission submission(device);
  submission.begin();
  recordWordCopy(device.vk, submission.commandBuffer(), device.pipelineLayout, pipeline,
                 source.buffer(), destination.buffer(), source.size(),
                 static_cast<uint32_t>(source.size() / kBytesPerWorkgroup));
  auto start = std::chrono::steady_clock::now();
  // A copy of 16 MiB cannot hang; an unbounded wait keeps the buffers alive
  // for as long as the device uses them.
  submission.submitAndWait(device, UINT64_MAX);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// True when 32-bit words copy at least kRequiredSpeedup faster than 64-bit ones.
bool narrowWordsFaster(Device::Impl& device) {
  const DeviceCapabilities& caps = device.capabilities;
  VkDeviceSize bytes = std::min<VkDeviceSize>(kCopyBytes, caps.maxStorageBufferRange);
  bytes -= bytes % kBytesPerWorkgroup;
  bytes = std::min<VkDeviceSize>(
      bytes, VkDeviceSize{caps.maxComputeWorkGroupCount[0]} * kBytesPerWorkgroup);
  if (bytes == 0) return false;
  DeviceBuffer source(device, bytes);
  DeviceBuffer destination(device, bytes);
  std::memset(source.mapped(), 0x5A, bytes);
  CopyPipeline narrow(device, spirv::spv_word_copy_32, spirv::spv_word_copy_32_words);
  CopyPipeline wide(device, spirv::spv_word_copy_64, spirv::spv_word_copy_64_words);
  double best[2] = {1e30, 1e30};
  // Alternating rounds, so that a change of the host's speed hits both.
  for (int round = 0; round <= kTimedRounds; ++round) {
    double narrowSeconds = copySeconds(device, narrow.handle(), source, destination);
    double wideSeconds = copySeconds(device, wide.handle(), source, destination);
    if (round == 0) continue;  // first touches of the pages, pipeline warm-up
    best[0] = std::min(best[0], narrowSeconds);
    best[1] = std::min(best[1], wideSeconds);
  }
  return best[1] >= kRequiredSpeedup * best[0];
}

std::string physicalDeviceKey(const DeviceCapabilities& caps) {
  return caps.deviceName + '\n' + caps.driverName + '\n' + caps.driverInfo + '\n' +
         std::to_string(caps.vendorID) + ':' + std::to_string(caps.deviceID) + ':' +
         std::to_string(caps.driverVersion);
}

}  // namespace

void validateVectorWords(VectorWords words) {
  switch (words) {
    case VectorWords::Automatic:
    case VectorWords::Bits32:
    case VectorWords::Bits64:
      return;
  }
  throw InvalidArgument("options.vectorWords", "is " + std::to_string(static_cast<int>(words)) +
                                                   ", not one of Automatic, Bits32, Bits64");
}

VectorWords resolveVectorWords(Device::Impl& device) {
  const DeviceCapabilities& caps = device.capabilities;
  VectorWords requested = device.options.vectorWords;
  if (!caps.shaderInt64) return VectorWords::Bits32;
  if (requested != VectorWords::Automatic) return requested;
  if (!device.ownsDevice || caps.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU ||
      !caps.pushDescriptor) {
    return VectorWords::Bits64;
  }
  // Held while timing, so that Devices made at once neither time the same
  // device twice nor slow down each other's copies.
  static std::mutex mutex;
  static std::map<std::string, bool> narrowFaster;
  std::lock_guard<std::mutex> lock(mutex);
  std::string key = physicalDeviceKey(caps);
  auto known = narrowFaster.find(key);
  if (known == narrowFaster.end()) {
    known = narrowFaster.emplace(key, narrowWordsFaster(device)).first;
  }
  return known->second ? VectorWords::Bits32 : VectorWords::Bits64;
}

}  // namespace detail
}  // namespace vkscan
