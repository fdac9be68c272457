// The C API's wrapped devices: vkscan_external_device read into
// vkscan::ExternalDevice; and any device's capabilities.
#include <vkscan/host.hpp>

#include "c_api/descriptors.hpp"
#include "c_api/errors.hpp"
#include "c_api/handles.hpp"
#include "c_api/out_fields.hpp"

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
  return vkBool(device->device.supports(static_cast<vkscan::DataType>(value)));
}

vkscan_result vkscan_device_get_capabilities(vkscan_device device,
                                             vkscan_device_capabilities* capabilities) {
  return guard([&] {
    requireNonNull(device, "device");
    requireNonNull(capabilities, "capabilities");
    requireStructSize(capabilities->struct_size, sizeof(vkscan_device_capabilities),
                      "capabilities.struct_size");
    const vkscan::DeviceCapabilities& c = vkscan::capabilities(device->device);
    vkscan_device_capabilities& out = *capabilities;
    copyText(out.device_name, c.deviceName);
    copyText(out.driver_name, c.driverName);
    copyText(out.driver_info, c.driverInfo);
    out.vendor_id = c.vendorID;
    out.device_id = c.deviceID;
    out.api_version = c.apiVersion;
    out.driver_version = c.driverVersion;
    out.driver_id = c.driverID;
    out.device_type = c.deviceType;
    out.subgroup_size = c.subgroupSize;
    out.subgroup_operations = c.subgroupOperations;
    out.subgroup_size_control = vkBool(c.subgroupSizeControl);
    out.compute_full_subgroups = vkBool(c.computeFullSubgroups);
    out.shader_int64 = vkBool(c.shaderInt64);
    out.shader_float64 = vkBool(c.shaderFloat64);
    out.shader_float16 = vkBool(c.shaderFloat16);
    out.storage_buffer_16bit_access = vkBool(c.storageBuffer16BitAccess);
    out.buffer_device_address = vkBool(c.bufferDeviceAddress);
    out.push_descriptor = vkBool(c.pushDescriptor);
    out.max_storage_buffer_range = c.maxStorageBufferRange;
    out.max_texel_buffer_elements = c.maxTexelBufferElements;
    out.max_compute_shared_memory_size = c.maxComputeSharedMemorySize;
    out.max_compute_work_group_invocations = c.maxComputeWorkGroupInvocations;
    for (int i = 0; i < 3; ++i) out.max_compute_work_group_count[i] = c.maxComputeWorkGroupCount[i];
    out.max_push_constants_size = c.maxPushConstantsSize;
    out.min_storage_buffer_offset_alignment = c.minStorageBufferOffsetAlignment;
    out.timestamp_period = c.timestampPeriod;
    out.timestamp_compute_and_graphics = vkBool(c.timestampComputeAndGraphics);
  });
}

}  // extern "C"
