// Device profiles for planFor() (include/vkscan/plans.hpp): the limits and
// features the vendors' drivers report, as published (vulkan.gpuinfo.org,
// the drivers' sources). Only what the planner reads matters to a plan; the
// rest is there to be printed.
#include <vkscan/plans.hpp>

namespace vkscan {
namespace {

DeviceProfile gpu(const char* name, const char* description, uint32_t subgroup,
                  uint32_t invocations, uint32_t countX, uint32_t countYZ, uint64_t range,
                  uint64_t alignment, uint32_t sharedMemory, bool float64, bool forwardProgress) {
  DeviceProfile profile;
  profile.name = name;
  profile.description = description;
  profile.subgroupSize = subgroup;
  profile.maxComputeWorkGroupInvocations = invocations;
  profile.maxComputeWorkGroupCount[0] = countX;
  profile.maxComputeWorkGroupCount[1] = countYZ;
  profile.maxComputeWorkGroupCount[2] = countYZ;
  profile.maxStorageBufferRange = range;
  profile.minStorageBufferOffsetAlignment = alignment;
  profile.maxComputeSharedMemorySize = sharedMemory;
  profile.pushDescriptor = true;
  profile.shaderInt64 = true;
  profile.shaderFloat64 = float64;
  // What every profiled driver reports for compute shaders.
  profile.subgroupOperations = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT |
                               VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT |
                               VK_SUBGROUP_FEATURE_SHUFFLE_BIT |
                               VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT;
  profile.forwardProgress = forwardProgress;
  profile.minSubgroupSize = profile.maxSubgroupSize = subgroup;
  profile.computeFullSubgroups = true;
  return profile;
}

// Hardware that compiles each pipeline at one of several subgroup sizes.
DeviceProfile varying(DeviceProfile profile, uint32_t minSize, uint32_t maxSize) {
  profile.minSubgroupSize = minSize;
  profile.maxSubgroupSize = maxSize;
  return profile;
}

std::vector<DeviceProfile> makeProfiles() {
  constexpr uint32_t k16Bits = 65535;
  constexpr uint64_t k32Bits = 0xFFFFFFFFu;
  constexpr uint32_t k32KiB = 32768;
  constexpr uint32_t k48KiB = 49152;
  constexpr uint32_t k64KiB = 65536;
  std::vector<DeviceProfile> profiles = {
      gpu("nvidia", "NVIDIA Turing to Hopper, proprietary driver (warp of 32)", 32, 1024,
          0x7FFFFFFFu, k16Bits, k32Bits, 16, k48KiB, true, true),
      varying(gpu("amd", "AMD GCN and RDNA, RADV or AMDVLK (wave64, the reported default)", 64,
                  1024, 0xFFFFFFFFu, k16Bits, k32Bits, 4, k64KiB, true, true),
              32, 64),
      varying(gpu("amd-wave32", "AMD RDNA with VK_EXT_subgroup_size_control asking for wave32", 32,
                  1024, 0xFFFFFFFFu, k16Bits, k32Bits, 4, k64KiB, true, true),
              32, 64),
      varying(gpu("intel", "Intel Xe (Arc, Xe-LP), ANV, planning at its SIMD32 subgroup", 32, 1024,
                  k16Bits, k16Bits, uint64_t{1} << 30, 4, k64KiB, false, true),
              8, 32),
      varying(gpu("intel-simd16", "Intel Xe, ANV, compiled at SIMD16", 16, 1024, k16Bits, k16Bits,
                  uint64_t{1} << 30, 4, k64KiB, false, true),
              8, 32),
      gpu("mali", "Arm Mali Valhall, Arm's driver (no forward-progress promise)", 16, 512, k16Bits,
          k16Bits, uint64_t{1} << 27, 16, k32KiB, false, false),
      gpu("apple", "Apple M-series through MoltenVK (no forward-progress promise)", 32, 1024,
          0x3FFFFFFFu, 0x3FFFFFFFu, 0x3FFFFFFFu, 16, k32KiB, false, false),
  };
  DeviceProfile lavapipe = gpu("lavapipe", "Mesa 22.3 lavapipe (llvmpipe, 256-bit), 2 workers", 8,
                               1024, k16Bits, k16Bits, uint64_t{1} << 27, 16, k32KiB, true, false);
  lavapipe.cpuDevice = true;
  lavapipe.cpuWorkers = 2;
  profiles.push_back(lavapipe);
  return profiles;
}

}  // namespace

const std::vector<DeviceProfile>& deviceProfiles() {
  static const std::vector<DeviceProfile> profiles = makeProfiles();
  return profiles;
}

std::vector<std::string> profileNames() {
  std::vector<std::string> names;
  for (const DeviceProfile& profile : deviceProfiles()) names.push_back(profile.name);
  return names;
}

}  // namespace vkscan
