// A device's plan limits, from anything that names its limits as Vulkan does:
// a real device's DeviceCapabilities or a named DeviceProfile (plans.hpp).
#pragma once

#include "plan/common.hpp"

namespace vkscan::detail {

template <typename DeviceLimits>
PlanLimits planLimitsOf(const DeviceLimits& device) {
  PlanLimits limits;
  limits.subgroupSize = device.subgroupSize;
  limits.maxWorkgroupInvocations = device.maxComputeWorkGroupInvocations;
  limits.maxWorkgroupCountX = device.maxComputeWorkGroupCount[0];
  limits.maxWorkgroupCountY = device.maxComputeWorkGroupCount[1];
  limits.pushDescriptor = device.pushDescriptor;
  limits.maxStorageBufferRange = device.maxStorageBufferRange;
  limits.minStorageBufferOffsetAlignment = device.minStorageBufferOffsetAlignment;
  // The rows kernels number lanes subgroup by subgroup, which holds in full
  // subgroups only. Without computeFullSubgroups a device that varies its
  // subgroup size may run fewer lanes than gl_SubgroupSize says (Mesa's ANV
  // runs 8 or 16 of 32), so its plans then take no subgroup operation.
  const bool fullSubgroups =
      device.computeFullSubgroups || device.minSubgroupSize == device.maxSubgroupSize;
  limits.subgroupShuffles =
      (device.subgroupOperations & VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT) != 0 && fullSubgroups;
  limits.maxSharedMemoryBytes = device.maxComputeSharedMemorySize;
  return limits;
}

}  // namespace vkscan::detail
