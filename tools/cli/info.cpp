// vkscan info: what the devices are and what vkscan can do on them.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "commands.hpp"
#include "failure.hpp"

namespace vkscan::cli {

const char* const kInfoHelp =
    "usage: vkscan info\n"
    "\n"
    "Lists the Vulkan devices with the index --device takes, then describes the\n"
    "selected device: driver, API version, subgroups, the types vkscan can scan\n"
    "on it, the limits that bound its work and how vkscan plans for it (on a\n"
    "CPU device, with the worker threads its plans expect).\n";

namespace {

const char* deviceTypeName(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return "CPU";
    default:
      return "other";
  }
}

std::string versionText(uint32_t version) {
  return std::to_string(VK_API_VERSION_MAJOR(version)) + "." +
         std::to_string(VK_API_VERSION_MINOR(version)) + "." +
         std::to_string(VK_API_VERSION_PATCH(version));
}

std::string subgroupOperations(VkSubgroupFeatureFlags flags) {
  static const std::pair<VkSubgroupFeatureFlagBits, const char*> kNames[] = {
      {VK_SUBGROUP_FEATURE_BASIC_BIT, "basic"},
      {VK_SUBGROUP_FEATURE_VOTE_BIT, "vote"},
      {VK_SUBGROUP_FEATURE_ARITHMETIC_BIT, "arithmetic"},
      {VK_SUBGROUP_FEATURE_BALLOT_BIT, "ballot"},
      {VK_SUBGROUP_FEATURE_SHUFFLE_BIT, "shuffle"},
      {VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT, "shuffle_relative"},
      {VK_SUBGROUP_FEATURE_CLUSTERED_BIT, "clustered"},
      {VK_SUBGROUP_FEATURE_QUAD_BIT, "quad"},
  };
  std::string text;
  for (const auto& [bit, name] : kNames) {
    if ((flags & bit) != 0) text += (text.empty() ? "" : " ") + std::string(name);
  }
  return text.empty() ? "none" : text;
}

const char* yesNo(bool value) {
  return value ? "yes" : "no";
}

void printLimit(const char* name, uint64_t value, const char* unit) {
  std::printf("    %-37s %llu %s\n", name, static_cast<unsigned long long>(value), unit);
}

}  // namespace

int infoCommand(const std::vector<std::string>& args, const GlobalOptions& global) {
  if (!args.empty()) {
    throw Failure(kExitUsage, "info takes no arguments, got '" + args[0] + "'");
  }
  std::printf("Devices:\n");
  for (const PhysicalDeviceSummary& d : enumerateDevices()) {
    std::printf("  %u: %s (%s, Vulkan %s)%s\n", d.index, d.name.c_str(), deviceTypeName(d.type),
                versionText(d.apiVersion).c_str(), d.usable ? "" : " - not usable by vkscan");
  }

  const Device device = openDevice(global);
  const DeviceCapabilities& caps = capabilities(device);
  std::printf("\nSelected device: %s\n", caps.deviceName.c_str());
  std::printf("  type:                 %s\n", deviceTypeName(caps.deviceType));
  std::printf("  vendor / device ID:   0x%04x / 0x%04x\n", caps.vendorID, caps.deviceID);
  std::printf("  driver:               %s (%s)\n", caps.driverName.c_str(),
              caps.driverInfo.c_str());
  std::printf("  Vulkan API version:   %s\n", versionText(caps.apiVersion).c_str());
  std::printf("  subgroup size:        %u%s\n", caps.subgroupSize,
              caps.computeFullSubgroups  ? " (full subgroups required by the subgroup kernels)"
              : caps.subgroupSizeControl ? " (size control available)"
                                         : "");
  if (caps.maxSubgroupSize != 0) {
    std::printf("  subgroup sizes:       %u to %u\n", caps.minSubgroupSize, caps.maxSubgroupSize);
  }
  std::printf("  subgroup operations:  %s\n", subgroupOperations(caps.subgroupOperations).c_str());

  std::printf("  scans:               ");
  for (DataType type : {DataType::Float16, DataType::BFloat16, DataType::Float32, DataType::Float64,
                        DataType::Int32, DataType::UInt32, DataType::Int64, DataType::UInt64}) {
    std::printf(" %s %s", dataTypeName(type), yesNo(device.supports(type)));
    std::printf(type == DataType::UInt64 ? "\n" : ",");
  }

  std::printf(
      "  features:             int64 %s, float64 %s, float16 %s, 16-bit storage %s, "
      "buffer device address %s, push descriptor %s\n",
      yesNo(caps.shaderInt64), yesNo(caps.shaderFloat64), yesNo(caps.shaderFloat16),
      yesNo(caps.storageBuffer16BitAccess), yesNo(caps.bufferDeviceAddress),
      yesNo(caps.pushDescriptor));
  // The fallbacks give the same results; what they cost is worth knowing.
  std::string int64Kernels = caps.shaderInt64
                                 ? "native 64-bit integers"
                                 : "emulated 64-bit integers (tensors up to " +
                                       std::to_string(kMaxTensorBytesWithoutInt64) + " bytes)";
  std::printf("  kernels:              %s, %s\n", int64Kernels.c_str(),
              caps.storageBuffer16BitAccess ? "16-bit storage" : "halves packed in 32-bit words");
  // What shapes vkscan's plans here; on lavapipe, the variable that changes
  // its worker threads: a host whose speed surprises starts here.
  std::string lpNumThreads;
  if (caps.driverID == VK_DRIVER_ID_MESA_LLVMPIPE) {
    const char* value = std::getenv("LP_NUM_THREADS");
    lpNumThreads = value ? std::string(" (LP_NUM_THREADS=") + value + ")"
                         : std::string(" (LP_NUM_THREADS unset)");
  }
  std::printf("  plans:                %s%s\n", describe(device).c_str(), lpNumThreads.c_str());
  std::printf("  limits:\n");
  printLimit("max storage buffer range", caps.maxStorageBufferRange, "bytes");
  printLimit("max compute shared memory", caps.maxComputeSharedMemorySize, "bytes");
  printLimit("max workgroup invocations", caps.maxComputeWorkGroupInvocations, "");
  printLimit("max workgroup count (x)", caps.maxComputeWorkGroupCount[0], "");
  printLimit("max push constants", caps.maxPushConstantsSize, "bytes");
  printLimit("min storage buffer offset alignment", caps.minStorageBufferOffsetAlignment, "bytes");
  checkValidation(device, global);
  return kExitSuccess;
}

}  // namespace vkscan::cli
