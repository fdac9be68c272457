// Compute pipelines of a device, created on first use of a key and shared
// by every operator afterwards. Thread-safe.
#pragma once

#include <mutex>
#include <unordered_map>
#include <vector>

#include "kernel_binaries.hpp"
#include "plan.hpp"
#include "vulkan_api.hpp"

namespace vkscan::detail {

class PipelineCache {
 public:
  // `layout` and `cache` must outlive this object; it does not own them.
  // `variant` is the device's: keys need not carry it, as one device never
  // mixes variants.
  PipelineCache(const VolkDeviceTable& vk, VkDevice device, VkPipelineCache cache,
                VkPipelineLayout layout, KernelVariant variant);
  ~PipelineCache();
  PipelineCache(const PipelineCache&) = delete;
  PipelineCache& operator=(const PipelineCache&) = delete;

  // The pipeline of each dispatch's key, in order; with `inPlace`, the
  // in-place variants of the look-back stages (PipelineKey::inPlace). Missing
  // ones are created in one batched vkCreateComputePipelines call; on failure
  // nothing is kept and VulkanError is thrown.
  std::vector<VkPipeline> get(const std::vector<Dispatch>& dispatches, bool inPlace);

  size_t size() const;

 private:
  const VolkDeviceTable& vk_;
  VkDevice device_;
  VkPipelineCache cache_;
  VkPipelineLayout layout_;
  KernelVariant variant_;
  mutable std::mutex mutex_;
  std::unordered_map<PipelineKey, VkPipeline, PipelineKeyHash> pipelines_;
};

}  // namespace vkscan::detail
