// VKSCAN_TUNING (lib/tuning/tuning_override.hpp): the entries it reads, those
// it refuses, and the plans and scans of planFor() and of a device made
// while it is set.
#include "tuning/tuning_override.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>
#include <vkscan/plans.hpp>

#include "descriptors.hpp"
#include "reference.hpp"
#include "test_device.hpp"

using namespace vkscan;
using detail::DeviceClass;
using detail::parseTuningOverride;
using detail::tunedFor;
using detail::Tuning;
using detail::tuningFor;

namespace {

// Sets VKSCAN_TUNING for one scope and puts back what the run had.
struct TuningVariable : test::ScopedEnvironment {
  explicit TuningVariable(const char* value) : ScopedEnvironment("VKSCAN_TUNING", value) {}
};

// The InvalidArgument `text` gives, as "field: reason" ("" if none).
std::string refusal(const std::string& text) {
  try {
    parseTuningOverride(text);
  } catch (const InvalidArgument& error) {
    CHECK(error.field() == "VKSCAN_TUNING");
    return error.what();
  }
  return "";
}

std::vector<std::string> kernels(const PlanReport& report) {
  std::vector<std::string> names;
  for (const PlannedDispatch& d : report.dispatches) names.push_back(d.kernel);
  return names;
}

}  // namespace

TEST_CASE("tuning override: each entry replaces the knob it names, and nothing else") {
  const Tuning gpu = tuningFor(DeviceClass::Gpu, 32, 1024, {});
  CHECK(tunedFor(DeviceClass::Gpu, 32, 1024, {}, parseTuningOverride("")) == gpu);

  Tuning polls = gpu;
  polls.lookbackPolls = 16;
  CHECK(tunedFor(DeviceClass::Gpu, 32, 1024, {}, parseTuningOverride("lookbackPolls=16")) == polls);

  Tuning several = gpu;
  several.rowsWorkgroupSize = 16;
  several.rowsStagedNodes = false;
  several.rowsLinesFastest = true;
  several.columnsScalarLines = 3;
  several.columnsOneTile = false;
  several.columnsWorkgroupSize = 64;
  several.chunkTargetInvocations = 4096;
  several.wholeLineInvocations = 100;
  several.chunkSmallProblem = 0;
  CHECK(tunedFor(DeviceClass::Gpu, 32, 1024, {},
                 parseTuningOverride("rowsWorkgroupSize=16,rowsStagedNodes=0,"
                                     "rowsLinesFastest=1,columnsScalarLines=3,columnsOneTile=0,"
                                     "columnsWorkgroupSize=64,chunkTargetInvocations=4096,"
                                     "wholeLineInvocations=100,chunkSmallProblem=0")) == several);

  // The planner's class brings its own table, then the other entries apply.
  Tuning cpu = tuningFor(DeviceClass::Cpu, 32, 1024, {});
  cpu.lookbackPolls = 0;
  CHECK(tunedFor(DeviceClass::Gpu, 32, 1024, {},
                 parseTuningOverride("lookbackPolls=0,planner=cpu")) == cpu);
  const detail::CpuThreads threads{2, 2};
  CHECK(tunedFor(DeviceClass::Cpu, 8, 1024, threads, parseTuningOverride("planner=gpu")) ==
        tuningFor(DeviceClass::Gpu, 8, 1024, threads));
}

TEST_CASE("tuning override: an entry it cannot read is refused, and named") {
  CHECK(refusal("lookbackPolls=4096") == "");
  CHECK(refusal("lookbackPolls") == "VKSCAN_TUNING: 'lookbackPolls': expected NAME=VALUE");
  CHECK(refusal("lookbackPolls=many") == "VKSCAN_TUNING: 'lookbackPolls=many': not a count");
  CHECK(refusal("lookbackPolls=-1") == "VKSCAN_TUNING: 'lookbackPolls=-1': not a count");
  CHECK(refusal("lookbackPolls=16x") == "VKSCAN_TUNING: 'lookbackPolls=16x': not a count");
  CHECK(refusal("lookbackPolls=4294967296") ==
        "VKSCAN_TUNING: 'lookbackPolls=4294967296': out of range (0 to 4294967295)");
  CHECK(refusal("rowsWorkgroupSize=128") ==
        "VKSCAN_TUNING: 'rowsWorkgroupSize=128': expected 16 or 256");
  CHECK(refusal("rowsStagedNodes=2") ==
        "VKSCAN_TUNING: 'rowsStagedNodes=2': out of range (0 to 1)");
  CHECK(refusal("rowsLinesFastest=2") ==
        "VKSCAN_TUNING: 'rowsLinesFastest=2': out of range (0 to 1)");
  CHECK(refusal("columnsOneTile=2") == "VKSCAN_TUNING: 'columnsOneTile=2': out of range (0 to 1)");
  CHECK(refusal("columnsWorkgroupSize=32") ==
        "VKSCAN_TUNING: 'columnsWorkgroupSize=32': expected 64, 128 or 256");
  CHECK(refusal("columnsWorkgroupSize=0128") ==
        "VKSCAN_TUNING: 'columnsWorkgroupSize=0128': expected 64, 128 or 256");
  CHECK(refusal("columnsScalarLines=0") ==
        "VKSCAN_TUNING: 'columnsScalarLines=0': out of range (1 to 4294967295)");
  CHECK(refusal("chunkTargetInvocations=0") ==
        "VKSCAN_TUNING: 'chunkTargetInvocations=0': out of range (1 to 4294967295)");
  CHECK(refusal("planner=fpga") == "VKSCAN_TUNING: 'planner=fpga': expected gpu or cpu");
  CHECK(refusal("lookbackPolls=1,lookbackPolls=2") ==
        "VKSCAN_TUNING: 'lookbackPolls=2': named twice");
  CHECK(refusal("lookbackPolls=1,") == "VKSCAN_TUNING: '': expected NAME=VALUE");
  CHECK(refusal("lookbackPolls=1, rowsStagedNodes=0").find("' rowsStagedNodes=0': no such knob") !=
        std::string::npos);
  CHECK(refusal("lookbackpolls=1").find("'lookbackpolls=1': no such knob (planner,") !=
        std::string::npos);

  CHECK_THROWS_WITH_AS(
      tunedFor(DeviceClass::Gpu, 32, 128, {}, parseTuningOverride("rowsWorkgroupSize=256")),
      "VKSCAN_TUNING: rowsWorkgroupSize=256: the device allows workgroups of 128", InvalidArgument);
  CHECK_THROWS_WITH_AS(
      tunedFor(DeviceClass::Gpu, 32, 128, {}, parseTuningOverride("columnsWorkgroupSize=256")),
      "VKSCAN_TUNING: columnsWorkgroupSize=256: the device allows workgroups of 128",
      InvalidArgument);
}

TEST_CASE("tuning override: planFor() plans with VKSCAN_TUNING") {
  const CumulativeSummationDesc line = test::packedDesc(DataType::Float32, {1u << 20}, 0);
  const PlanReport plain = planFor(line, "nvidia");
  REQUIRE(kernels(plain) == std::vector<std::string>{"rows_onepass"});
  CHECK(plain.dispatches[0].stagedTiles);
  CHECK(plain.dispatches[0].workgroups[0] == 256);
  {
    TuningVariable unstaged("rowsStagedNodes=0");
    PlanReport report = planFor(line, "nvidia");
    REQUIRE(kernels(report) == std::vector<std::string>{"rows_onepass"});
    CHECK_FALSE(report.dispatches[0].stagedTiles);
  }
  {
    TuningVariable small("rowsWorkgroupSize=16");
    PlanReport report = planFor(line, "nvidia");
    REQUIRE(kernels(report) == std::vector<std::string>{"rows_onepass"});
    CHECK(report.dispatches[0].workgroupSize == 16);
    CHECK(report.dispatches[0].workgroups[0] == 4096);
  }
  {
    // Rows of four tiles: a line's tiles in a row by default, tile 0 of
    // every line first where the tuning says so; one line is the same.
    const CumulativeSummationDesc rows = test::packedDesc(DataType::Float32, {16384, 16384}, 1);
    CHECK_FALSE(planFor(rows, "nvidia").dispatches[0].tilesAcrossLines);
    TuningVariable across("rowsLinesFastest=1");
    PlanReport report = planFor(rows, "nvidia");
    REQUIRE(kernels(report) == std::vector<std::string>{"rows_onepass"});
    CHECK(report.dispatches[0].tilesAcrossLines);
    CHECK(toJson(report).find("\"tiles_across_lines\":true,") != std::string::npos);
    CHECK_FALSE(planFor(line, "nvidia").dispatches[0].tilesAcrossLines);
  }
  {
    // Seven lines off vectors: the rows one pass by default, the chunk walks
    // where tiles are not staged, the columns one pass where the tuning
    // takes that few.
    const CumulativeSummationDesc columns = test::packedDesc(DataType::Float32, {1u << 20, 7}, 0);
    CHECK(kernels(planFor(columns, "nvidia")) == std::vector<std::string>{"rows_onepass"});
    {
      TuningVariable unstaged("rowsStagedNodes=0");
      CHECK(kernels(planFor(columns, "nvidia")).size() == 7);
    }
    TuningVariable few("columnsScalarLines=1");
    PlanReport report = planFor(columns, "nvidia");
    REQUIRE(kernels(report) == std::vector<std::string>{"columns_onepass"});
    CHECK(report.dispatches[0].scalarLanes);
    CHECK(report.trafficRatio < 1.03);
  }
  {
    // Short columns: the columns one pass in one tile by default, the chunk
    // walks' three passes where the tuning keeps it to several tiles.
    const CumulativeSummationDesc columns = test::packedDesc(DataType::Float32, {64, 1000000}, 0);
    CHECK(kernels(planFor(columns, "nvidia")) == std::vector<std::string>{"columns_onepass"});
    TuningVariable tiles("columnsOneTile=0");
    PlanReport report = planFor(columns, "nvidia");
    CHECK(kernels(report).size() == 3);
    CHECK(report.trafficRatio > 1.6);
  }
  {
    // Columns: tiles of 16 lanes by default, of 8 and 4 in smaller
    // workgroups, twice and four times as many; the same bytes.
    const CumulativeSummationDesc columns = test::packedDesc(DataType::Float32, {16384, 16384}, 0);
    const PlanReport wide = planFor(columns, "nvidia");
    REQUIRE(kernels(wide) == std::vector<std::string>{"columns_onepass"});
    CHECK(wide.dispatches[0].workgroupSize == 256);
    CHECK(wide.dispatches[0].workgroups[0] == 16384);
    for (uint32_t size : {128u, 64u}) {
      const std::string entry = "columnsWorkgroupSize=" + std::to_string(size);
      TuningVariable narrow(entry.c_str());
      PlanReport report = planFor(columns, "nvidia");
      REQUIRE(kernels(report) == std::vector<std::string>{"columns_onepass"});
      CHECK(report.dispatches[0].workgroupSize == size);
      CHECK(report.dispatches[0].workgroups[0] == 16384 * 256 / size);
      CHECK(report.bytesMoved == wide.bytesMoved);
    }
  }
  {
    // The CPU planner: no rows kernel, the line read twice.
    TuningVariable cpu("planner=cpu");
    PlanReport report = planFor(line, "nvidia");
    for (const std::string& kernel : kernels(report)) CHECK(kernel.rfind("chunk_", 0) == 0);
    CHECK(report.trafficRatio > 1.4);
  }
  {
    TuningVariable misspelt("planner=CPU");
    CHECK_THROWS_WITH_AS(planFor(line, "nvidia"),
                         "VKSCAN_TUNING: 'planner=CPU': expected gpu or cpu", InvalidArgument);
  }
  CHECK(toJson(planFor(line, "nvidia")) == toJson(plain));
}

TEST_CASE("tuning override: a device made under it says so, and scans with it") {
  const CumulativeSummationDesc desc = test::packedDesc(DataType::Float32, {3, 20000}, 1);
  std::vector<uint8_t> input = test::randomElements(DataType::Float32, 3 * 20000, 47);
  std::vector<uint8_t> expected(desc.output.totalBytes());
  test::referenceCumsum(desc, input, expected);
  {
    // Lavapipe under the GPU planner, every silent value computed at once:
    // the one pass and its fallback.
    TuningVariable gpu("planner=gpu,lookbackPolls=0");
    Device device = createDevice(test::testDeviceOptions());
    const std::string words = describe(device);
    CHECK(words.find(": GPU plans,") != std::string::npos);
    CHECK(words.find(", VKSCAN_TUNING=planner=gpu,lookbackPolls=0") != std::string::npos);
    Operator op = device.createOperator(desc);
    CHECK(kernels(planOf(op)) == std::vector<std::string>{"rows_onepass"});
    CHECK(test::runOnDevice(desc, input, false, {}, device) == expected);
    CHECK(validationMessageCount(device) == 0);
  }
  {
    TuningVariable wrong("lookbackPolls=");
    CHECK_THROWS_WITH_AS(createDevice(test::testDeviceOptions()),
                         "VKSCAN_TUNING: 'lookbackPolls=': not a count", InvalidArgument);
  }
  Device device = createDevice(test::testDeviceOptions());
  CHECK(describe(device).find("VKSCAN_TUNING") == std::string::npos);
}
