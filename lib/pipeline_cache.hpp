// Compute pipelines of a device, created on first use of a key and shared
// by every operator afterwards. Thread-safe.
#pragma once

#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>
#include <vkscan/host.hpp>

#include "kernel_binaries.hpp"
#include "plan/common.hpp"
#include "vulkan_api.hpp"

namespace vkscan::detail {

// The pipelines an Operator keeps beside its plain ones, chosen at record
// time from the bindings: in place, the look-back stages' in-place variants
// (PipelineKey::inPlace); with the input's texel view, the variants of the
// stages that read the input through it (PipelineKey::texelInput).
struct PipelineVariant {
  bool inPlace = false;
  bool texelInput = false;
};

// Whether `key`'s pipeline requires full subgroups
// (VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT): on a device
// with computeFullSubgroups enabled, for the stages with subgroup operations
// whose workgroup width is a multiple of the subgroup size, as Vulkan asks.
bool requiresFullSubgroups(const PipelineKey& key, const DeviceCapabilities& caps);

class PipelineCache {
 public:
  // `layout` and `cache` must outlive this object; it does not own them.
  // `variant` is the device's: keys need not carry it, as one device never
  // mixes variants. `caps` are the device's (requiresFullSubgroups()).
  PipelineCache(const VolkDeviceTable& vk, VkDevice device, VkPipelineCache cache,
                VkPipelineLayout layout, KernelVariant variant, const DeviceCapabilities& caps);
  ~PipelineCache();
  PipelineCache(const PipelineCache&) = delete;
  PipelineCache& operator=(const PipelineCache&) = delete;

  // The pipeline of each dispatch's key, in order, in `variant`; `plain`, if
  // given, holds the plain variant's, which dispatches the variant leaves
  // unchanged take without a lookup. Missing ones are created in one batched
  // vkCreateComputePipelines call; on failure nothing is kept and
  // VulkanError is thrown.
  std::vector<VkPipeline> get(const std::vector<Dispatch>& dispatches, PipelineVariant variant,
                              const std::vector<VkPipeline>* plain = nullptr);

  size_t size() const;
  // How many of them require full subgroups.
  size_t fullSubgroupPipelines() const;

  // From now on, pipelines are created capturing the driver's statistics,
  // which are written to stderr and kept (pipeline_statistics.hpp). Only on
  // a device with pipelineExecutableInfo enabled.
  void captureStatistics();
  // The statistics lines written so far.
  std::vector<std::string> statistics() const;

 private:
  const VolkDeviceTable& vk_;
  VkDevice device_;
  VkPipelineCache cache_;
  VkPipelineLayout layout_;
  KernelVariant variant_;
  DeviceCapabilities caps_;
  bool captureStatistics_ = false;
  std::vector<std::string> statistics_;
  mutable std::mutex mutex_;
  std::unordered_map<PipelineKey, VkPipeline, PipelineKeyHash> pipelines_;
};

}  // namespace vkscan::detail
