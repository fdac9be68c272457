// The C API's headless devices: the physical devices listed, and a device of
// vkscan's own from vkscan_device_options read into vkscan::DeviceOptions.
#include <algorithm>
#include <climits>
#include <string>
#include <vkscan/host.hpp>

#include "c_api/descriptors.hpp"
#include "c_api/errors.hpp"
#include "c_api/handles.hpp"
#include "c_api/out_fields.hpp"

using namespace vkscan::detail::c_api;

namespace {

vkscan::DeviceOptions toCpp(const vkscan_device_options& options) {
  requireStructSize(options.struct_size, sizeof(vkscan_device_options), "options.struct_size");
  vkscan::DeviceOptions cpp;
  if (options.use_device_index) {
    if (options.device_index > INT_MAX) {
      throw vkscan::InvalidArgument(
          "options.device_index",
          "device index " + std::to_string(options.device_index) + " is out of range");
    }
    cpp.deviceIndex = static_cast<int>(options.device_index);
  }
  if (options.device_name != nullptr) cpp.deviceName = options.device_name;
  cpp.enableValidation = options.enable_validation != VK_FALSE;
  if (options.pipeline_cache_data_size != 0) {
    requireNonNull(options.pipeline_cache_data, "options.pipeline_cache_data");
    auto* data = static_cast<const uint8_t*>(options.pipeline_cache_data);
    cpp.pipelineCacheData.assign(data, data + options.pipeline_cache_data_size);
  }
  if (options.timeout_ns != 0) cpp.timeoutNs = options.timeout_ns;
  cpp.disableInt64 = options.disable_int64 != VK_FALSE;
  cpp.disableFloat64 = options.disable_float64 != VK_FALSE;
  cpp.disableFloat16 = options.disable_float16 != VK_FALSE;
  cpp.disablePushDescriptor = options.disable_push_descriptor != VK_FALSE;
  cpp.operatorCacheCapacity = operatorCacheCapacity(options.operator_cache_capacity);
  return cpp;
}

}  // namespace

extern "C" {

vkscan_result vkscan_enumerate_devices(uint32_t* count, vkscan_physical_device_summary* summaries) {
  bool incomplete = false;
  vkscan_result result = guard([&] {
    requireNonNull(count, "count");
    const std::vector<vkscan::PhysicalDeviceSummary> devices = vkscan::enumerateDevices();
    if (summaries == nullptr) {
      *count = static_cast<uint32_t>(devices.size());
      return;
    }
    uint32_t filled = std::min(*count, static_cast<uint32_t>(devices.size()));
    for (uint32_t i = 0; i < filled; ++i) {
      requireStructSize(summaries[i].struct_size, sizeof(vkscan_physical_device_summary),
                        "summaries[" + std::to_string(i) + "].struct_size");
    }
    for (uint32_t i = 0; i < filled; ++i) {
      vkscan_physical_device_summary& out = summaries[i];
      out.index = devices[i].index;
      copyText(out.name, devices[i].name);
      out.type = devices[i].type;
      out.api_version = devices[i].apiVersion;
      out.usable = vkBool(devices[i].usable);
    }
    *count = filled;
    incomplete = filled < devices.size();
  });
  return result == VKSCAN_SUCCESS && incomplete ? VKSCAN_INCOMPLETE : result;
}

vkscan_result vkscan_device_create(const vkscan_device_options* options, vkscan_device* device) {
  return guard([&] {
    requireNonNull(device, "device");
    vkscan::DeviceOptions cpp = options != nullptr ? toCpp(*options) : vkscan::DeviceOptions{};
    *device = new vkscan_device_T{vkscan::createDevice(cpp)};
  });
}

}  // extern "C"
