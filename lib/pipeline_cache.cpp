#include "pipeline_cache.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

#include "kernel_binaries.hpp"
#include "pipeline_statistics.hpp"
#include "spec_constants.h"

namespace vkscan::detail {
namespace {

// Map entries of the constants kernels/shared/spec_constants.h defines.
constexpr std::array<VkSpecializationMapEntry, VKSCAN_SPEC_COUNT> specializationMap() {
  std::array<VkSpecializationMapEntry, VKSCAN_SPEC_COUNT> map{};
  for (size_t i = 0; i < map.size(); ++i) {
    map[i] = {kSpecializationEntries[i].id, kSpecializationEntries[i].offset, sizeof(uint32_t)};
  }
  return map;
}
constexpr std::array<VkSpecializationMapEntry, VKSCAN_SPEC_COUNT> kSpecializationMap =
    specializationMap();

// Each constant from the PipelineKey field of its name (a bool becomes
// VK_TRUE or VK_FALSE).
SpecializationData specializationData(const PipelineKey& key) {
  SpecializationData data{};
#define VKSCAN_SPEC_FROM_KEY(id, field) data.field = static_cast<uint32_t>(key.field);
  VKSCAN_SPEC_CONSTANTS(VKSCAN_SPEC_FROM_KEY)
#undef VKSCAN_SPEC_FROM_KEY
  return data;
}

}  // namespace

bool requiresFullSubgroups(const PipelineKey& key, const DeviceCapabilities& caps) {
  return caps.computeFullSubgroups && usesSubgroupOperations(key.stage) && caps.subgroupSize != 0 &&
         key.workgroupSize % caps.subgroupSize == 0;
}

PipelineCache::PipelineCache(const VolkDeviceTable& vk, VkDevice device, VkPipelineCache cache,
                             VkPipelineLayout layout, KernelVariant variant,
                             const DeviceCapabilities& caps)
    : vk_(vk), device_(device), cache_(cache), layout_(layout), variant_(variant), caps_(caps) {}

PipelineCache::~PipelineCache() {
  for (auto& [key, pipeline] : pipelines_) vk_.vkDestroyPipeline(device_, pipeline, nullptr);
}

void PipelineCache::captureStatistics() {
  std::lock_guard<std::mutex> lock(mutex_);
  captureStatistics_ = true;
}

std::vector<std::string> PipelineCache::statistics() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return statistics_;
}

size_t PipelineCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return pipelines_.size();
}

size_t PipelineCache::fullSubgroupPipelines() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<size_t>(std::count_if(
      pipelines_.begin(), pipelines_.end(),
      [this](const auto& entry) { return requiresFullSubgroups(entry.first, caps_); }));
}

std::vector<VkPipeline> PipelineCache::get(const std::vector<Dispatch>& dispatches,
                                           PipelineVariant variant,
                                           const std::vector<VkPipeline>* plain) {
  auto keyOf = [this, variant](const Dispatch& dispatch) {
    PipelineKey key = dispatch.pipeline;
    key.inPlace = variant.inPlace && looksBack(key.stage);
    key.texelInput = variant.texelInput && readsInputTexels(dispatch) &&
                     hasTexelInputKernels(key.type, variant_);
    return key;
  };
  std::lock_guard<std::mutex> lock(mutex_);
  // One lookup per key; a miss leaves a null slot, and its key is queued once.
  std::vector<VkPipeline> result;
  result.reserve(dispatches.size());
  std::vector<PipelineKey> missing;
  for (size_t i = 0; i < dispatches.size(); ++i) {
    PipelineKey key = keyOf(dispatches[i]);
    // A dispatch the variant leaves as it is has its plain pipeline.
    if (plain != nullptr && !key.inPlace && !key.texelInput) {
      result.push_back((*plain)[i]);
      continue;
    }
    auto found = pipelines_.find(key);
    result.push_back(found == pipelines_.end() ? VK_NULL_HANDLE : found->second);
    if (found == pipelines_.end() &&
        std::find(missing.begin(), missing.end(), key) == missing.end()) {
      missing.push_back(key);
    }
  }
  if (missing.empty()) return result;

  std::vector<VkShaderModule> modules(missing.size(), VK_NULL_HANDLE);
  std::vector<SpecializationData> data(missing.size());
  std::vector<VkSpecializationInfo> specializations(missing.size());
  std::vector<VkComputePipelineCreateInfo> infos(missing.size());
  std::vector<VkPipeline> created(missing.size(), VK_NULL_HANDLE);
  auto releaseModules = [&] {
    for (VkShaderModule module : modules) {
      if (module != VK_NULL_HANDLE) vk_.vkDestroyShaderModule(device_, module, nullptr);
    }
  };
  try {
    for (size_t i = 0; i < missing.size(); ++i) {
      std::vector<uint32_t> code = kernelBinary(missing[i].stage, missing[i].type, variant_,
                                                missing[i].storageBuffers, missing[i].texelInput);
      modules[i] = createShaderModule(vk_, device_, code.data(), code.size());
      data[i] = specializationData(missing[i]);
      specializations[i] = {static_cast<uint32_t>(kSpecializationMap.size()),
                            kSpecializationMap.data(), sizeof(SpecializationData), &data[i]};
      infos[i] = computePipelineInfo(modules[i], layout_, &specializations[i]);
      if (requiresFullSubgroups(missing[i], caps_)) {
        infos[i].stage.flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
      }
      if (captureStatistics_) infos[i].flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    }
    VkResult status =
        vk_.vkCreateComputePipelines(device_, cache_, static_cast<uint32_t>(infos.size()),
                                     infos.data(), nullptr, created.data());
    if (status != VK_SUCCESS) {
      // The call may have created some pipelines before failing.
      for (VkPipeline pipeline : created) {
        if (pipeline != VK_NULL_HANDLE) vk_.vkDestroyPipeline(device_, pipeline, nullptr);
      }
      check(status < 0 ? status : VK_ERROR_UNKNOWN, "vkCreateComputePipelines");
    }
  } catch (...) {
    releaseModules();
    throw;
  }
  releaseModules();
  for (size_t i = 0; i < missing.size(); ++i) pipelines_[missing[i]] = created[i];
  if (captureStatistics_) {
    for (size_t i = 0; i < missing.size(); ++i) {
      for (const std::string& line :
           queryStatistics(vk_, device_, created[i], pipelineName(missing[i]))) {
        std::fprintf(stderr, "%s\n", line.c_str());
        statistics_.push_back(line);
      }
    }
  }
  for (size_t i = 0; i < dispatches.size(); ++i) {
    if (result[i] == VK_NULL_HANDLE) result[i] = pipelines_.at(keyOf(dispatches[i]));
  }
  return result;
}

}  // namespace vkscan::detail
