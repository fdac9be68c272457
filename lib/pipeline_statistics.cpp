#include "pipeline_statistics.hpp"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vkscan/vkscan.hpp>

namespace vkscan::detail {
namespace {

std::string valueText(const VkPipelineExecutableStatisticKHR& statistic) {
  char text[64];
  switch (statistic.format) {
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
      return statistic.value.b32 ? "true" : "false";
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
      std::snprintf(text, sizeof text, "%" PRId64, statistic.value.i64);
      return text;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
      std::snprintf(text, sizeof text, "%" PRIu64, statistic.value.u64);
      return text;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR:
      std::snprintf(text, sizeof text, "%g", statistic.value.f64);
      return text;
    default:
      return "?";
  }
}

// A driver's fixed-size string, which need not end in a NUL at its size.
std::string fixedText(const char* text, size_t size) {
  return std::string(text, strnlen(text, size));
}

}  // namespace

bool pipelineStatisticsRequested() {
  const char* value = std::getenv("VKSCAN_PIPELINE_STATISTICS");
  return value != nullptr && *value != '\0' && std::strcmp(value, "0") != 0;
}

std::string pipelineName(const PipelineKey& key) {
  std::string name = std::string(stageName(key.stage)) + " " + dataTypeName(key.type) + " wg " +
                     std::to_string(key.workgroupSize);
  if (key.operation != VKSCAN_OPERATION_SUM) name += " operation " + std::to_string(key.operation);
  if (key.inPlace) name += " in-place";
  if (key.vectorLoads) name += " vector-loads";
  if (key.stagedNodes) name += " staged";
  if (key.scalarLanes) name += " scalar-lanes";
  if (key.lineCarryIn || key.lineTotals) name += " line-carries";
  if (key.storageBuffers) name += " storage-buffers";
  return name;
}

std::string statisticsLine(const std::string& pipeline, const std::string& executable,
                           const std::vector<VkPipelineExecutableStatisticKHR>& statistics) {
  std::string line = "vkscan: pipeline " + pipeline + ": " + executable + ":";
  for (size_t i = 0; i < statistics.size(); ++i) {
    line += (i == 0 ? " " : ", ") + fixedText(statistics[i].name, sizeof statistics[i].name) + "=" +
            valueText(statistics[i]);
  }
  return line;
}

std::vector<std::string> queryStatistics(const VolkDeviceTable& vk, VkDevice device,
                                         VkPipeline pipeline, const std::string& name) {
  auto failed = [&](const char* call, VkResult result) {
    return std::vector<std::string>{"vkscan: pipeline " + name + ": " + call + " returned " +
                                    std::to_string(static_cast<int>(result))};
  };
  auto info = vkStruct<VkPipelineInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR);
  info.pipeline = pipeline;
  uint32_t count = 0;
  VkResult result = vk.vkGetPipelineExecutablePropertiesKHR(device, &info, &count, nullptr);
  if (result != VK_SUCCESS) return failed("vkGetPipelineExecutablePropertiesKHR", result);
  std::vector<VkPipelineExecutablePropertiesKHR> executables(
      count, vkStruct<VkPipelineExecutablePropertiesKHR>(
                 VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR));
  result = vk.vkGetPipelineExecutablePropertiesKHR(device, &info, &count, executables.data());
  if (result != VK_SUCCESS && result != VK_INCOMPLETE) {
    return failed("vkGetPipelineExecutablePropertiesKHR", result);
  }
  executables.resize(count);
  std::vector<std::string> lines;
  for (uint32_t i = 0; i < count; ++i) {
    auto executable =
        vkStruct<VkPipelineExecutableInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR);
    executable.pipeline = pipeline;
    executable.executableIndex = i;
    uint32_t statisticCount = 0;
    result = vk.vkGetPipelineExecutableStatisticsKHR(device, &executable, &statisticCount, nullptr);
    if (result != VK_SUCCESS) return failed("vkGetPipelineExecutableStatisticsKHR", result);
    std::vector<VkPipelineExecutableStatisticKHR> statistics(
        statisticCount, vkStruct<VkPipelineExecutableStatisticKHR>(
                            VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR));
    result = vk.vkGetPipelineExecutableStatisticsKHR(device, &executable, &statisticCount,
                                                     statistics.data());
    if (result != VK_SUCCESS && result != VK_INCOMPLETE) {
      return failed("vkGetPipelineExecutableStatisticsKHR", result);
    }
    statistics.resize(statisticCount);
    lines.push_back(statisticsLine(name, fixedText(executables[i].name, sizeof executables[i].name),
                                   statistics));
  }
  return lines;
}

}  // namespace vkscan::detail
