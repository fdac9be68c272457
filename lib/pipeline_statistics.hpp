// The driver's statistics of each pipeline's executables
// (VK_KHR_pipeline_executable_properties: registers, spills, shared memory,
// as the driver names them), for a GPU check that cannot run a profiler.
// A headless Device captures them where VKSCAN_PIPELINE_STATISTICS is set
// and the device has the extension; each pipeline created then writes a
// line per executable to stderr (docs/gpu-check.md).
#pragma once

#include <string>
#include <vector>

#include "plan/common.hpp"
#include "vulkan_api.hpp"

namespace vkscan::detail {

// Whether VKSCAN_PIPELINE_STATISTICS asks for statistics (set, not empty, not "0").
bool pipelineStatisticsRequested();

// The pipeline as a line names it: stage, type, workgroup and the key's
// choices that change the code (in place, staged, scalar lanes...).
std::string pipelineName(const PipelineKey& key);

// "vkscan: pipeline NAME: EXECUTABLE: Stat=value, ..." for one executable.
std::string statisticsLine(const std::string& pipeline, const std::string& executable,
                           const std::vector<VkPipelineExecutableStatisticKHR>& statistics);

// A line per executable of `pipeline`, from the driver; a failing query gives
// a line that says so instead.
std::vector<std::string> queryStatistics(const VolkDeviceTable& vk, VkDevice device,
                                         VkPipeline pipeline, const std::string& name);

}  // namespace vkscan::detail
