// The C API's wrapped devices: vkscan_external_device read into
// vkscan::ExternalDevice.
#include "c_api/descriptors.hpp"
#include "c_api/errors.hpp"
#include "c_api/handles.hpp"

using namespace vkscan::detail::c_api;

extern "C" {

vkscan_result vkscan_device_wrap(const vkscan_external_device* external, vkscan_device* device) {
  return guard([&] {
    requireNonNull(external, "external");
    requireNonNull(device, "device");
    requireStructSize(external->struct_size, sizeof(vkscan_external_device),
                      "external.struct_size");
    vkscan::ExternalDevice cpp;
    cpp.instance = external->instance;
    cpp.physicalDevice = external->physical_device;
    cpp.device = external->device;
    cpp.getInstanceProcAddr = external->get_instance_proc_addr;
    cpp.enabledFeatures = external->enabled_features;
    cpp.enabledExtensionCount = external->enabled_extension_count;
    cpp.enabledExtensionNames = external->enabled_extension_names;
    cpp.pipelineCache = external->pipeline_cache;
    cpp.queue = external->queue;
    cpp.queueFamilyIndex = external->queue_family_index;
    cpp.operatorCacheCapacity = operatorCacheCapacity(external->operator_cache_capacity);
    *device = new vkscan_device_T{vkscan::Device(cpp)};
  });
}

void vkscan_device_destroy(vkscan_device device) {
  delete device;
}

VkBool32 vkscan_device_supports(vkscan_device device, vkscan_data_type type) {
  if (device == nullptr) return VK_FALSE;
  auto value = static_cast<uint32_t>(type);
  if (value > static_cast<uint32_t>(vkscan::DataType::BFloat16)) return VK_FALSE;
  return device->device.supports(static_cast<vkscan::DataType>(value)) ? VK_TRUE : VK_FALSE;
}

}  // extern "C"
