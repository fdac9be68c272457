#include "pipeline_cache.hpp"

#include <algorithm>
#include <array>

#include "kernel_binaries.hpp"

namespace vkscan::detail {
namespace {

struct SpecializationData {
  uint32_t workgroupSize;
  VkBool32 exclusive;
  VkBool32 vectorLoads;
  VkBool32 reverse;
  VkBool32 partialNodes;
  uint32_t lineDims;
  VkBool32 chunked;
  uint32_t laneVectors;
  VkBool32 fullNodes;
  uint32_t lookbackPolls;
  VkBool32 inPlace;
  VkBool32 touchAhead;
  uint32_t rowsPerIteration;
  uint32_t segmentLength;
  VkBool32 wideVectors;
  VkBool32 scalarLanes;
  VkBool32 nodeBarrier;
};

const std::array<VkSpecializationMapEntry, 17> kSpecializationEntries = {{
    {0, offsetof(SpecializationData, workgroupSize), sizeof(uint32_t)},
    {1, offsetof(SpecializationData, exclusive), sizeof(VkBool32)},
    {2, offsetof(SpecializationData, vectorLoads), sizeof(VkBool32)},
    {3, offsetof(SpecializationData, reverse), sizeof(VkBool32)},
    {4, offsetof(SpecializationData, partialNodes), sizeof(VkBool32)},
    {5, offsetof(SpecializationData, lineDims), sizeof(uint32_t)},
    {6, offsetof(SpecializationData, chunked), sizeof(VkBool32)},
    {7, offsetof(SpecializationData, laneVectors), sizeof(uint32_t)},
    {8, offsetof(SpecializationData, fullNodes), sizeof(VkBool32)},
    {9, offsetof(SpecializationData, lookbackPolls), sizeof(uint32_t)},
    {10, offsetof(SpecializationData, inPlace), sizeof(VkBool32)},
    {11, offsetof(SpecializationData, touchAhead), sizeof(VkBool32)},
    {12, offsetof(SpecializationData, rowsPerIteration), sizeof(uint32_t)},
    {13, offsetof(SpecializationData, segmentLength), sizeof(uint32_t)},
    {14, offsetof(SpecializationData, wideVectors), sizeof(VkBool32)},
    {15, offsetof(SpecializationData, scalarLanes), sizeof(VkBool32)},
    {16, offsetof(SpecializationData, nodeBarrier), sizeof(VkBool32)},
}};

VkBool32 vkBool(bool value) {
  return value ? VK_TRUE : VK_FALSE;
}

}  // namespace

PipelineCache::PipelineCache(const VolkDeviceTable& vk, VkDevice device, VkPipelineCache cache,
                             VkPipelineLayout layout, KernelVariant variant)
    : vk_(vk), device_(device), cache_(cache), layout_(layout), variant_(variant) {}

PipelineCache::~PipelineCache() {
  for (auto& [key, pipeline] : pipelines_) vk_.vkDestroyPipeline(device_, pipeline, nullptr);
}

size_t PipelineCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return pipelines_.size();
}

std::vector<VkPipeline> PipelineCache::get(const std::vector<Dispatch>& dispatches,
                                           PipelineVariant variant,
                                           const std::vector<VkPipeline>* plain) {
  auto keyOf = [this, variant](const Dispatch& dispatch) {
    PipelineKey key = dispatch.pipeline;
    key.inPlace = variant.inPlace && isLookback(key.stage);
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
      data[i] = {missing[i].workgroupSize,        vkBool(missing[i].exclusive),
                 vkBool(missing[i].vectorLoads),  vkBool(missing[i].reverse),
                 vkBool(missing[i].partialNodes), missing[i].lineDims,
                 vkBool(missing[i].chunked),      missing[i].laneVectors,
                 vkBool(missing[i].fullNodes),    missing[i].lookbackPolls,
                 vkBool(missing[i].inPlace),      vkBool(missing[i].touchAhead),
                 missing[i].rowsPerIteration,     missing[i].segmentLength,
                 vkBool(missing[i].wideVectors),  vkBool(missing[i].scalarLanes),
                 vkBool(missing[i].nodeBarrier)};
      specializations[i] = {static_cast<uint32_t>(kSpecializationEntries.size()),
                            kSpecializationEntries.data(), sizeof(SpecializationData), &data[i]};
      infos[i] = computePipelineInfo(modules[i], layout_, &specializations[i]);
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
  for (size_t i = 0; i < dispatches.size(); ++i) {
    if (result[i] == VK_NULL_HANDLE) result[i] = pipelines_.at(keyOf(dispatches[i]));
  }
  return result;
}

}  // namespace vkscan::detail
