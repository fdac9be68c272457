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
    case VectorWords::Load64Store32:
      return "Load64Store32";
  }
  return "UNKNOWN";
}

namespace detail {
namespace {

// 16 MiB: long enough that each copy takes milliseconds on lavapipe, short
// enough that the whole timing stays near 0.1 s.
constexpr VkDeviceSize kCopyBytes = VkDeviceSize{16} << 20;
// word_copy.comp: 64 invocations of 64 blocks of 64 bytes each.
constexpr VkDeviceSize kBytesPerWorkgroup = 64 * 64 * 64;
// Rounds per form after one warm-up round; each keeps its fastest.
constexpr int kTimedRounds = 5;
// Another form than Bits64 must copy this much faster to be chosen, so that
// hosts where the forms tie do not flip between runs.
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

// The form whose copy is fastest, if it is at least kRequiredSpeedup faster
// than Bits64's; else Bits64.
VectorWords fastestWords(Device::Impl& device) {
  const DeviceCapabilities& caps = device.capabilities;
  VkDeviceSize bytes = std::min<VkDeviceSize>(kCopyBytes, caps.maxStorageBufferRange);
  bytes -= bytes % kBytesPerWorkgroup;
  bytes = std::min<VkDeviceSize>(
      bytes, VkDeviceSize{caps.maxComputeWorkGroupCount[0]} * kBytesPerWorkgroup);
  if (bytes == 0) return VectorWords::Bits64;
  DeviceBuffer source(device, bytes);
  DeviceBuffer destination(device, bytes);
  std::memset(source.mapped(), 0x5A, bytes);
  struct Form {
    VectorWords words;
    CopyPipeline pipeline;
    double seconds;
  };
  Form forms[3] = {
      {VectorWords::Bits64, {device, spirv::spv_word_copy_64, spirv::spv_word_copy_64_words}, 1e30},
      {VectorWords::Bits32, {device, spirv::spv_word_copy_32, spirv::spv_word_copy_32_words}, 1e30},
      {VectorWords::Load64Store32,
       {device, spirv::spv_word_copy_64_32, spirv::spv_word_copy_64_32_words},
       1e30}};
  // Alternating rounds, so that a change of the host's speed hits all alike.
  for (int round = 0; round <= kTimedRounds; ++round) {
    for (Form& form : forms) {
      double seconds = copySeconds(device, form.pipeline.handle(), source, destination);
      // Round 0: first touches of the pages, pipeline warm-up.
      if (round > 0) form.seconds = std::min(form.seconds, seconds);
    }
  }
  const Form* fastest = &forms[0];
  for (const Form& form : forms) {
    if (form.seconds < fastest->seconds) fastest = &form;
  }
  return forms[0].seconds >= kRequiredSpeedup * fastest->seconds ? fastest->words
                                                                 : VectorWords::Bits64;
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
    case VectorWords::Load64Store32:
      return;
  }
  throw InvalidArgument("options.vectorWords",
                        "is " + std::to_string(static_cast<int>(words)) +
                            ", not one of Automatic, Bits32, Bits64, Load64Store32");
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
  static std::map<std::string, VectorWords> fastest;
  std::lock_guard<std::mutex> lock(mutex);
  std::string key = physicalDeviceKey(caps);
  auto known = fastest.find(key);
  if (known == fastest.end()) known = fastest.emplace(key, fastestWords(device)).first;
  return known->second;
}

}  // namespace detail
}  // namespace vkscan
