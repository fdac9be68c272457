// The headless helpers that read a Device (host.hpp).
#include <string>

#include "device/device_impl.hpp"

namespace vkscan {

const DeviceCapabilities& capabilities(const Device& device) noexcept {
  return Device::Access::impl(device).capabilities;
}

std::string describe(const Device& device) {
  const Device::Impl& impl = Device::Access::impl(device);
  const DeviceCapabilities& caps = impl.capabilities;
  bool cpu = impl.tuning.deviceClass == detail::DeviceClass::Cpu;
  std::string text = caps.deviceName + ": " + (cpu ? "CPU-implementation" : "GPU") +
                     " plans, subgroup size " + std::to_string(caps.subgroupSize) + ", kernels ";
  if (!caps.shaderInt64) {
    text += "without Int64 (32-bit words)";
  } else {
    text += std::string("on ") + detail::vectorWordsName(impl.vectorWords) + " words";
  }
  text += caps.pushDescriptor ? ", storage buffers where tensors fit" : ", device addresses";
  if (impl.cpuThreads.workers != 0) {
    text += ", worker threads expected: " + std::to_string(impl.cpuThreads.workers) + " (" +
            std::to_string(impl.cpuThreads.busy) + " at once)";
  }
  if (!impl.tuningOverride.empty()) text += ", VKSCAN_TUNING=" + impl.tuningOverride;
  return text;
}

std::vector<uint8_t> pipelineCacheData(const Device& device) {
  const Device::Impl& impl = Device::Access::impl(device);
  if (!impl.ownsPipelineCache) return {};
  size_t size = 0;
  detail::check(impl.vk.vkGetPipelineCacheData(impl.device, impl.vkPipelineCache, &size, nullptr),
                "vkGetPipelineCacheData");
  std::vector<uint8_t> data(size);
  detail::check(
      impl.vk.vkGetPipelineCacheData(impl.device, impl.vkPipelineCache, &size, data.data()),
      "vkGetPipelineCacheData");
  data.resize(size);
  return data;
}

uint64_t validationMessageCount(const Device& device) noexcept {
  return Device::Access::impl(device).validationMessages.load();
}

bool validationEnabled(const Device& device) noexcept {
  return Device::Access::impl(device).validationEnabled;
}

}  // namespace vkscan
