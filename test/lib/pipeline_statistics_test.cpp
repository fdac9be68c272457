// The driver's pipeline statistics (lib/pipeline_statistics.hpp): the line
// each executable gives, the queries once a device captures them (the
// driver's side answered here: lavapipe has no such extension), and
// VKSCAN_PIPELINE_STATISTICS on a device without the extension.
#include "pipeline_statistics.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "descriptors.hpp"
#include "device/device_impl.hpp"
#include "operator/operator_impl.hpp"
#include "reference.hpp"
#include "test_device.hpp"

using namespace vkscan;

namespace {

VkPipelineExecutableStatisticKHR statistic(const char* name,
                                           VkPipelineExecutableStatisticFormatKHR format) {
  auto s = detail::vkStruct<VkPipelineExecutableStatisticKHR>(
      VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR);
  std::snprintf(s.name, sizeof s.name, "%s", name);
  s.format = format;
  return s;
}

// A driver that captures statistics, for the pipelines the real one creates:
// it counts the creations asked to capture them, and answers each query with
// one executable of two statistics.
struct FakeDriver {
  static inline PFN_vkCreateComputePipelines create = nullptr;
  static inline uint32_t capturing = 0;
  static inline std::vector<VkPipeline> queried;
};

VKAPI_ATTR VkResult VKAPI_CALL createCapturing(VkDevice device, VkPipelineCache cache,
                                               uint32_t count,
                                               const VkComputePipelineCreateInfo* infos,
                                               const VkAllocationCallbacks* allocator,
                                               VkPipeline* pipelines) {
  std::vector<VkComputePipelineCreateInfo> real(infos, infos + count);
  for (VkComputePipelineCreateInfo& info : real) {
    if ((info.flags & VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR) != 0) ++FakeDriver::capturing;
    info.flags &= ~VkPipelineCreateFlags{VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR};
  }
  return FakeDriver::create(device, cache, count, real.data(), allocator, pipelines);
}

VKAPI_ATTR VkResult VKAPI_CALL executables(VkDevice, const VkPipelineInfoKHR* info, uint32_t* count,
                                           VkPipelineExecutablePropertiesKHR* properties) {
  if (properties == nullptr) {
    FakeDriver::queried.push_back(info->pipeline);
    *count = 1;
    return VK_SUCCESS;
  }
  std::snprintf(properties[0].name, sizeof properties[0].name, "Compute Shader");
  *count = 1;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL statistics(VkDevice, const VkPipelineExecutableInfoKHR*,
                                          uint32_t* count,
                                          VkPipelineExecutableStatisticKHR* values) {
  if (values == nullptr) {
    *count = 2;
    return VK_SUCCESS;
  }
  values[0] = statistic("Register Count", VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR);
  values[0].value.u64 = 64;
  values[1] = statistic("Local Memory", VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR);
  values[1].value.u64 = 0;
  *count = 2;
  return VK_SUCCESS;
}

// A packed FLOAT32 scan run on `device` equals the reference.
void checkRuns(Device& device, const CumulativeSummationDesc& desc) {
  std::vector<uint8_t> input =
      test::randomElements(DataType::Float32, desc.input.totalBytes() / 4, 91);
  std::vector<uint8_t> expected(desc.output.totalBytes());
  test::referenceCumsum(desc, input, expected);
  CHECK(test::runOnDevice(desc, input, false, {}, device) == expected);
}

}  // namespace

TEST_CASE("pipeline statistics: a line names the pipeline and each statistic") {
  detail::PipelineKey key;
  key.stage = detail::Stage::ColumnsOnePass;
  key.type = DataType::Float16;
  key.workgroupSize = 256;
  key.inPlace = true;
  key.scalarLanes = true;
  CHECK(detail::pipelineName(key) == "columns_onepass FLOAT16 wg 256 in-place scalar-lanes");
  std::vector<VkPipelineExecutableStatisticKHR> values = {
      statistic("Register Count", VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR),
      statistic("Spills", VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR),
      statistic("Occupancy", VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR),
      statistic("Delta", VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR)};
  values[0].value.u64 = 40;
  values[1].value.b32 = VK_FALSE;
  values[2].value.f64 = 0.5;
  values[3].value.i64 = -3;
  CHECK(detail::statisticsLine(detail::pipelineName(key), "Compute Shader", values) ==
        "vkscan: pipeline columns_onepass FLOAT16 wg 256 in-place scalar-lanes: Compute Shader: "
        "Register Count=40, Spills=false, Occupancy=0.5, Delta=-3");
}

TEST_CASE("pipeline statistics: each pipeline created asks for them and reports them") {
  Device device = createDevice(test::testDeviceOptions());
  Device::Impl& impl = Device::Access::impl(device);
  FakeDriver::create = impl.vk.vkCreateComputePipelines;
  FakeDriver::capturing = 0;
  FakeDriver::queried.clear();
  impl.vk.vkCreateComputePipelines = createCapturing;
  impl.vk.vkGetPipelineExecutablePropertiesKHR = executables;
  impl.vk.vkGetPipelineExecutableStatisticsKHR = statistics;
  CumulativeSummationDesc desc = test::packedDesc(DataType::Float32, {300, 70000}, 1);
  // Before: nothing asked, nothing queried.
  checkRuns(device, test::packedDesc(DataType::Float32, {5, 17}, 1));
  size_t before = impl.pipelines->size();
  CHECK(before > 0);
  CHECK(FakeDriver::capturing == 0);
  CHECK(FakeDriver::queried.empty());
  impl.pipelines->captureStatistics();
  Operator op = device.createOperator(desc);
  size_t created = impl.pipelines->size() - before;
  REQUIRE(created > 0);
  CHECK(FakeDriver::capturing == created);
  CHECK(FakeDriver::queried.size() == created);
  std::vector<std::string> lines = impl.pipelines->statistics();
  REQUIRE(lines.size() == created);
  const detail::Plan& plan = Device::Access::impl(op).plan;
  CHECK(lines[0] == "vkscan: pipeline " + detail::pipelineName(plan.dispatches[0].pipeline) +
                        ": Compute Shader: Register Count=64, Local Memory=0");
  checkRuns(device, desc);
  impl.vk.vkCreateComputePipelines = FakeDriver::create;
}

TEST_CASE("pipeline statistics: asked for where the device has none, scans run as before") {
  test::ScopedEnvironment asked("VKSCAN_PIPELINE_STATISTICS", "1");
  Device device = createDevice(test::testDeviceOptions());
  Device::Impl& impl = Device::Access::impl(device);
  checkRuns(device, test::packedDesc(DataType::Float32, {40, 5000}, 1));
  bool has = detail::hasDeviceExtension(impl.physicalDevice,
                                        VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
  MESSAGE("VK_KHR_pipeline_executable_properties: " << std::string(has ? "yes" : "no"));
  if (has) {
    CHECK(impl.pipelines->statistics().size() >= impl.pipelines->size());
  } else {
    CHECK(impl.pipelines->statistics().empty());
  }
  CHECK(validationMessageCount(device) == 0);
}
