// The dispatch plan, without a device: a pure function of the descriptor
// and the device's limits, checked for every subgroup size and limit class
// vkscan may meet, on shapes up to 2^33 elements.
#include "plan/plan.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

#include "descriptors.hpp"
#include "plan_invariants.hpp"
#include "problem.hpp"

using namespace vkscan;
using namespace vkscan::detail;

namespace {

struct DeviceModel {
  const char* name;
  bool cpuLike;
  uint32_t subgroupSize;
  uint32_t maxInvocations;
  CpuThreads cpuThreads;  // zeros for GPUs
};

const DeviceModel kDevices[] = {
    {"lavapipe", true, 8, 1024, {2, 2}},   {"lavapipe-4", true, 4, 1024, {2, 2}},
    {"single-lane", true, 1, 128, {1, 1}}, {"mobile", false, 16, 128, {}},
    {"nvidia", false, 32, 1024, {}},       {"amd", false, 64, 1024, {}},
    {"wide", false, 128, 1024, {}},        {"tiny-gpu", false, 4, 128, {}},
};

Tuning tuningOf(const DeviceModel& device) {
  return tuningFor(device.cpuLike ? DeviceClass::Cpu : DeviceClass::Gpu, device.subgroupSize,
                   device.maxInvocations, device.cpuThreads);
}

// Invariants every plan must hold, whatever the device.
void checkInvariants(const CumulativeSummationDesc& desc, const Plan& plan,
                     const PlanLimits& limits) {
  std::vector<std::string> broken = vkscan::test::planViolations(desc, plan, limits);
  std::string lines;
  for (const std::string& line : broken) lines += line + "\n";
  CHECK_MESSAGE(broken.empty(), lines);
}

Plan planFor(const CumulativeSummationDesc& desc, const DeviceModel& device, const Tuning& tuning) {
  PlanLimits limits{device.subgroupSize, device.maxInvocations, 65535, 65535};
  return makePlan(normalize(desc), limits, tuning);
}

Plan planFor(const CumulativeSummationDesc& desc, const DeviceModel& device) {
  return planFor(desc, device, tuningOf(device));
}

}  // namespace

TEST_CASE("plan: invariants for every device class, up to 2^33 elements") {
  const std::vector<std::pair<std::vector<uint32_t>, uint32_t>> shapes = {
      {{1, 1, 3, 4}, 3},
      {{1u << 24}, 0},
      {{0xffffffffu}, 0},
      {{2, 0x7fffffffu}, 1},
      {{2, 0x7fffffffu}, 0},
      {{1u << 17, 1u << 16}, 1},
      {{1u << 17, 1u << 16}, 0},
      {{1u << 16, 1u << 17}, 0},
      {{1u << 30, 8}, 1},
      {{8, 1u << 30}, 0},
      {{64, 1u << 16, 4}, 1},
      {{1u << 14, 8, 128}, 1},
      {{2, 3, 5, 7, 11, 13, 17, 19}, 4},
      {{4096, 4096}, 0},
      {{33, 65537}, 1},
      {{1, 1}, 1},
      {{40000}, 0},
      {{5, 6000}, 1},
      {{3, 20000, 2}, 1},
      {{16, 65536}, 1},
  };
  for (const DeviceModel& device : kDevices) {
    for (const auto& [sizes, axis] : shapes) {
      for (DataType type :
           {DataType::Float32, DataType::Float16, DataType::BFloat16, DataType::UInt64}) {
        for (bool reverse : {false, true}) {
          CumulativeSummationDesc desc = vkscan::test::packedDesc(type, sizes, axis);
          desc.axisDirection = reverse ? AxisDirection::Decreasing : AxisDirection::Increasing;
          std::string shape;
          for (uint32_t s : sizes) shape += std::to_string(s) + " ";
          std::string deviceName = device.name;
          CAPTURE(deviceName);
          CAPTURE(shape);
          CAPTURE(axis);
          std::string typeName = dataTypeName(type);
          CAPTURE(typeName);
          PlanLimits limits{device.subgroupSize, device.maxInvocations, 65535, 65535};
          checkInvariants(desc, planFor(desc, device), limits);
        }
      }
    }
  }
}

// Exclusivity is a flag of the dispatch, so an exclusive scan binds the
// inclusive scan's pipelines; only CPU devices' chunk scans compile it in
// (Tuning::chunkExclusivityCompiled).
TEST_CASE("plan: an exclusive scan differs from the inclusive one in flags only") {
  const std::vector<std::pair<std::vector<uint32_t>, uint32_t>> shapes = {
      {{1u << 24}, 0},    {{40000}, 0},        {{5, 6000}, 1},         {{16384, 16384}, 0},
      {{1u << 20, 3}, 1}, {{1u << 20, 16}, 1}, {{64, 1u << 16, 4}, 1}, {{4096, 4096}, 1},
  };
  const uint32_t kModeFlags = VKSCAN_FLAG_EXCLUSIVE | VKSCAN_FLAG_FIRST_IS_POSITIVE_ZERO;
  size_t compiledIn = 0;
  for (const DeviceModel& device : kDevices) {
    for (const auto& [sizes, axis] : shapes) {
      CumulativeSummationDesc desc = vkscan::test::packedDesc(DataType::Float32, sizes, axis);
      std::string deviceName = device.name;
      CAPTURE(deviceName);
      CAPTURE(vkscan::test::describe(desc));
      Plan inclusive = planFor(desc, device);
      desc.hasExclusiveSum = true;
      Plan exclusive = planFor(desc, device);
      REQUIRE(inclusive.dispatches.size() == exclusive.dispatches.size());
      size_t exclusiveFlags = 0;
      for (size_t i = 0; i < inclusive.dispatches.size(); ++i) {
        Dispatch a = inclusive.dispatches[i];
        Dispatch b = exclusive.dispatches[i];
        CHECK((a.params.flags & ~kModeFlags) == (b.params.flags & ~kModeFlags));
        bool becameExclusive = (b.params.flags & ~a.params.flags & VKSCAN_FLAG_EXCLUSIVE) != 0u;
        exclusiveFlags += becameExclusive ? 1 : 0;
        Stage stage = a.pipeline.stage;
        bool chunkScan = stage == Stage::ChunkScan || stage == Stage::ChunkScanInterleaved;
        if (chunkScan && device.cpuLike && becameExclusive) {
          ++compiledIn;
          CHECK(a.pipeline.exclusive == Exclusivity::Inclusive);
          CHECK(b.pipeline.exclusive == Exclusivity::Exclusive);
          b.pipeline.exclusive = a.pipeline.exclusive;
        }
        CHECK(a.pipeline == b.pipeline);
      }
      CHECK(exclusiveFlags > 0);
    }
  }
  CHECK(compiledIn > 0);
}

TEST_CASE("plan: [1,1,3,4] is one dispatch without scratch on every device") {
  CumulativeSummationDesc desc = vkscan::test::packedDesc(DataType::Float32, {1, 1, 3, 4}, 3);
  for (const DeviceModel& device : kDevices) {
    std::string deviceName = device.name;
    CAPTURE(deviceName);
    Plan plan = planFor(desc, device);
    CHECK(plan.dispatches.size() == 1);
    CHECK(plan.scratchBytes == 0);
  }
}

TEST_CASE("plan: long lines take several passes on CPU devices, one on GPUs, small scratch") {
  CumulativeSummationDesc desc = vkscan::test::packedDesc(DataType::Float32, {1u << 24}, 0);
  for (const DeviceModel& device : kDevices) {
    std::string deviceName = device.name;
    CAPTURE(deviceName);
    Plan plan = planFor(desc, device);
    if (device.cpuLike) {
      CHECK(plan.dispatches.size() >= 3);
    } else {
      REQUIRE(plan.dispatches.size() == 1);
      CHECK(plan.dispatches[0].pipeline.stage == Stage::RowsOnePass);
    }
    CHECK(plan.scratchBytes <= (1u << 24) * 4 / 16 + 1024);
  }
  // Without subgroup shuffles, GPUs walk chunks, in several passes.
  const DeviceModel& nvidia = kDevices[4];
  PlanLimits limits{nvidia.subgroupSize, nvidia.maxInvocations, 65535, 65535};
  limits.subgroupShuffles = false;
  Plan chunks = makePlan(normalize(desc), limits, tuningOf(nvidia));
  CHECK(chunks.dispatches.size() >= 3);
  for (const Dispatch& d : chunks.dispatches) CHECK(detail::isChunkStage(d.pipeline.stage));
}

TEST_CASE("plan: chunks of lines contiguous along the axis go to neighbouring invocations") {
  const DeviceModel& lavapipe = kDevices[0];
  auto lineMajor = [](const Dispatch& d) {
    return (d.params.flags & VKSCAN_FLAG_LINE_MAJOR_CHUNKS) != 0u;
  };
  // Few long rows (too few to walk whole), either direction: reduce and
  // scan walk the chunks of a line side by side; the carry pass, whose
  // lines are neighbouring totals, does not.
  for (bool decreasing : {false, true}) {
    CAPTURE(decreasing);
    CumulativeSummationDesc rows = vkscan::test::packedDesc(
        DataType::Float32, {8, 1u << 20}, 1, false,
        decreasing ? AxisDirection::Decreasing : AxisDirection::Increasing);
    Plan plan = planFor(rows, lavapipe);
    REQUIRE(plan.dispatches.size() == 3);
    CHECK(plan.dispatches.front().params.chunksPerLine > 1);
    CHECK(lineMajor(plan.dispatches.front()));
    CHECK_FALSE(lineMajor(plan.dispatches[1]));
    CHECK(lineMajor(plan.dispatches.back()));
  }
  // Columns: interleaved on a CPU device, a line per invocation on GPUs;
  // neighbouring lines stay side by side in both.
  for (const DeviceModel& device : kDevices) {
    std::string deviceName = device.name;
    CAPTURE(deviceName);
    Plan columns = planFor(vkscan::test::packedDesc(DataType::Float32, {1u << 16, 256}, 0), device);
    for (const Dispatch& d : columns.dispatches) CHECK_FALSE(lineMajor(d));
  }
}

TEST_CASE("plan: lines of 2 to 16 tiles are one look-back pass on a CPU device") {
  const DeviceModel& lavapipe = kDevices[0];
  for (uint32_t length : {4097u, 40000u, 65536u}) {
    CAPTURE(length);
    Plan plan = planFor(vkscan::test::packedDesc(DataType::Float32, {length}, 0), lavapipe);
    REQUIRE(plan.dispatches.size() == 1);
    CHECK(plan.dispatches[0].pipeline.stage == Stage::ChunkLookback);
    uint64_t tiles = (length + 4095) / 4096;
    CHECK(plan.dispatches[0].params.chunksPerLine == tiles);
    // Two accumulators per tile (each its own status) and a two-word
    // collision record, in 16-byte units.
    CHECK(plan.scratchBytes == (tiles * 16 + 15) / 16 * 16);
  }
  // Strided axes without an inner dimension to interleave take it too.
  Plan strided = planFor(vkscan::test::packedDesc(DataType::Float32, {2, 20000, 2}, 1), lavapipe);
  REQUIRE(strided.dispatches.size() == 1);
  CHECK(strided.dispatches[0].pipeline.stage == Stage::ChunkLookback);
  CHECK(!strided.dispatches[0].pipeline.vectorLoads);
  // Few lines of one tile: one pass without look-back, in workgroups of a
  // subgroup so that they spread over the device's workers.
  Plan few = planFor(vkscan::test::packedDesc(DataType::Float32, {16, 4096}, 1), lavapipe);
  REQUIRE(few.dispatches.size() == 1);
  CHECK(few.dispatches[0].pipeline.stage == Stage::ChunkScan);
  CHECK(few.dispatches[0].pipeline.workgroupSize == lavapipe.subgroupSize);
  CHECK(few.scratchBytes == 0);
  // The look-back pass runs a subgroup per workgroup (see lib/plan/cpu.cpp), also
  // with many lines (which whole-line walks would take by default).
  for (const DeviceModel& device : {kDevices[0], kDevices[1], kDevices[2]}) {
    Tuning tuning = tuningOf(device);
    tuning.wholeLineInvocations = UINT64_MAX;
    Plan many = planFor(vkscan::test::packedDesc(DataType::Float32, {32, 8192}, 1), device, tuning);
    REQUIRE(many.dispatches.size() == 1);
    CHECK(many.dispatches[0].pipeline.stage == Stage::ChunkLookback);
    CHECK(many.dispatches[0].pipeline.workgroupSize == std::max(1u, device.subgroupSize));
  }
  // Several lines, in blocks of the workgroups that each worker takes
  // (Tuning::cpuWorkers; the class has two), whose lines the pass walks last
  // first: 128 tiles in 16 workgroups of 8, blocks of 8; 80 tiles in 10,
  // blocks of 5; 104 tiles in 13, blocks of 6, where the second worker's
  // block starts after 9 tiles of a line. Unknown workers: no blocks.
  Tuning unknownWorkers = tuningOf(lavapipe);
  unknownWorkers.cpuWorkers = 0;
  for (const auto& [length, block] :
       {std::pair<uint32_t, uint32_t>{65536, 64}, {40960, 40}, {50256, 48}}) {
    CAPTURE(length);
    CumulativeSummationDesc desc = vkscan::test::packedDesc(DataType::Float32, {8, length}, 1);
    Plan plan = planFor(desc, lavapipe);
    REQUIRE(plan.dispatches.size() == 1);
    CHECK(plan.dispatches[0].pipeline.stage == Stage::ChunkLookback);
    CHECK(plan.dispatches[0].params.lookbackBlock == block);
    Plan unknown = planFor(desc, lavapipe, unknownWorkers);
    REQUIRE(unknown.dispatches.size() == 1);
    CHECK(unknown.dispatches[0].params.lookbackBlock == 0);
  }
  // Blocks of one workgroup (2 lines of 8 tiles in 2) run side by side.
  Plan small = planFor(vkscan::test::packedDesc(DataType::Float32, {2, 32768}, 1), lavapipe);
  REQUIRE(small.dispatches.size() == 1);
  CHECK(small.dispatches[0].params.lookbackBlock == 0);
  // One line: three passes' dispatches cost more.
  Plan one = planFor(vkscan::test::packedDesc(DataType::Float32, {13 * 4096}, 0), lavapipe);
  CHECK(one.dispatches.size() == 1);
  // Lines off vectors: the look-back pass walks them realigned, one line or
  // several, forwards and backwards.
  for (const auto& [sizes, axis, direction] :
       {std::tuple<std::vector<uint32_t>, uint32_t, AxisDirection>{
            {8, 50257}, 1, AxisDirection::Increasing},
        {{2, 50257}, 1, AxisDirection::Decreasing},
        {{50257}, 0, AxisDirection::Decreasing}}) {
    CumulativeSummationDesc desc = vkscan::test::packedDesc(DataType::Float32, sizes, axis);
    desc.axisDirection = direction;
    Plan plan = planFor(desc, lavapipe);
    REQUIRE(plan.dispatches.size() == 1);
    CHECK(plan.dispatches[0].pipeline.stage == Stage::ChunkLookbackRealigned);
    CHECK(plan.dispatches[0].pipeline.reverse == (direction == AxisDirection::Decreasing));
  }
  // 1-D increasing starts on vectors.
  Plan forwards = planFor(vkscan::test::packedDesc(DataType::Float32, {50257}, 0), lavapipe);
  CHECK(forwards.dispatches[0].pipeline.stage == Stage::ChunkLookback);
  // In three passes (beyond the look-back pass's reach), realigned chunks
  // stay level-3 while those give two subgroups per worker (104 of them
  // here), where chunks on vectors shrink to 256 invocations.
  Tuning threePasses = tuningOf(lavapipe);
  threePasses.chunkLookbackMaxElements = 0;
  Plan offVectors =
      planFor(vkscan::test::packedDesc(DataType::Float32, {8, 50257}, 1), lavapipe, threePasses);
  REQUIRE(offVectors.dispatches.size() >= 3);
  CHECK(offVectors.dispatches.front().pipeline.stage == Stage::ChunkReduceRealigned);
  CHECK(offVectors.dispatches.back().pipeline.stage == Stage::ChunkScanRealigned);
  CHECK(offVectors.dispatches.front().params.shape == 3);
  Plan onVectors =
      planFor(vkscan::test::packedDesc(DataType::Float32, {8, 50256}, 1), lavapipe, threePasses);
  REQUIRE(onVectors.dispatches.size() >= 3);
  CHECK(onVectors.dispatches.front().params.shape == 2);
  Plan twoOffVectors =
      planFor(vkscan::test::packedDesc(DataType::Float32, {2, 50257}, 1), lavapipe, threePasses);
  CHECK(twoOffVectors.dispatches.front().params.shape == 2);
  // Beyond 16 tiles, beyond 2^24 elements and interleaved lines: three
  // passes.
  for (const auto& [sizes, axis, device] :
       {std::tuple<std::vector<uint32_t>, uint32_t, DeviceModel>{{65537}, 0, lavapipe},
        {{16, 65537}, 1, lavapipe},
        {{3, 9000, 16}, 1, lavapipe}}) {
    Plan plan = planFor(vkscan::test::packedDesc(DataType::Float32, sizes, axis), device);
    CHECK(plan.dispatches.size() >= 3);
    for (const Dispatch& d : plan.dispatches) CHECK(!isLookback(d.pipeline.stage));
  }
}

TEST_CASE("plan: CPU devices walk contiguous lines off vectors realigned, from three full nodes") {
  const DeviceModel& lavapipe = kDevices[0];
  auto stagesOf = [&](const CumulativeSummationDesc& desc, const DeviceModel& device) {
    std::vector<Stage> stages;
    for (const Dispatch& d : planFor(desc, device).dispatches) stages.push_back(d.pipeline.stage);
    return stages;
  };
  CumulativeSummationDesc odd = vkscan::test::packedDesc(DataType::Float32, {64, 53}, 1);
  CHECK(stagesOf(odd, lavapipe) == std::vector<Stage>{Stage::ChunkScanRealigned});
  odd.axisDirection = AxisDirection::Decreasing;
  CHECK(planFor(odd, lavapipe).dispatches[0].pipeline.reverse);
  // Lines of several chunks: the reduce walks realigned too, the carries
  // (on scratch, on vectors) plainly.
  std::vector<Stage> chunked =
      stagesOf(vkscan::test::packedDesc(DataType::Float32, {2, 70001}, 1), lavapipe);
  CHECK(chunked.front() == Stage::ChunkReduceRealigned);
  CHECK(chunked.back() == Stage::ChunkScanRealigned);
  for (size_t i = 1; i + 1 < chunked.size(); ++i) CHECK(chunked[i] == Stage::ChunkScan);
  // Two full nodes, lines on vectors, a strided axis: plain walks. GPUs:
  // rows kernels.
  CHECK(stagesOf(vkscan::test::packedDesc(DataType::Float32, {64, 47}, 1), lavapipe) ==
        std::vector<Stage>{Stage::ChunkScan});
  CHECK(stagesOf(vkscan::test::packedDesc(DataType::Float32, {64, 52}, 1), lavapipe) ==
        std::vector<Stage>{Stage::ChunkScan});
  for (Stage stage : stagesOf(vkscan::test::packedDesc(DataType::Float32, {53, 3}, 0), lavapipe)) {
    CHECK(stage != Stage::ChunkScanRealigned);
  }
  for (Stage stage :
       stagesOf(vkscan::test::packedDesc(DataType::Float32, {64, 53}, 1), kDevices[4])) {
    CHECK(stage == Stage::RowsScan);
  }
}

TEST_CASE("plan: enough lines of up to 65536 elements are walked whole, in one pass") {
  const DeviceModel& lavapipe = kDevices[0];
  auto wholeLines = [](const Plan& plan, Stage stage, uint32_t shape) {
    REQUIRE(plan.dispatches.size() == 1);
    const Dispatch& d = plan.dispatches[0];
    CHECK(d.pipeline.stage == stage);
    CHECK(d.params.shape == shape);
    CHECK(d.params.chunksPerLine == 1);
    CHECK(plan.scratchBytes == 0);
  };
  // Contiguous lines from 16 invocations: a subgroup for each of the class's
  // two worker threads (Tuning::wholeLineInvocations). Lines of odd length
  // are off vectors, and walk realigned.
  wholeLines(planFor(vkscan::test::packedDesc(DataType::Float32, {16, 8192}, 1), lavapipe),
             Stage::ChunkScan, 4);
  wholeLines(planFor(vkscan::test::packedDesc(DataType::Float32, {31, 4097}, 1), lavapipe),
             Stage::ChunkScanRealigned, 4);
  wholeLines(planFor(vkscan::test::packedDesc(DataType::Float32, {64, 50257}, 1), lavapipe),
             Stage::ChunkScanRealigned, 4);
  // Lines interleaved in groups: 256 groups of 4 lines, 32 groups of 16.
  wholeLines(planFor(vkscan::test::packedDesc(DataType::Float32, {64, 65536, 4}, 1), lavapipe),
             Stage::ChunkScanInterleaved, 4);
  wholeLines(planFor(vkscan::test::packedDesc(DataType::Float32, {4096, 512}, 0), lavapipe),
             Stage::ChunkScanInterleaved, 3);
  wholeLines(planFor(vkscan::test::packedDesc(DataType::Float32, {257, 65536}, 1), lavapipe),
             Stage::ChunkScan, 4);
  wholeLines(planFor(vkscan::test::packedDesc(DataType::UInt64, {300, 4096}, 1), lavapipe),
             Stage::ChunkScan, 3);
  wholeLines(planFor(vkscan::test::packedDesc(DataType::Float32, {5000, 4096}, 0), lavapipe),
             Stage::ChunkScanInterleaved, 4);
  // Lines that would take the look-back pass, and groups of interleaved
  // lines, are walked whole from 9: a subgroup for the first worker thread
  // and at least one line for the second (Tuning::wholeLineShortfall), in
  // two workgroups.
  for (const CumulativeSummationDesc& desc :
       {vkscan::test::packedDesc(DataType::Float32, {9, 65536}, 1),
        vkscan::test::packedDesc(DataType::Float32, {15, 8192}, 1)}) {
    Plan partial = planFor(desc, lavapipe);
    wholeLines(partial, Stage::ChunkScan, 4);
    CHECK(partial.dispatches[0].groupsX == 2);
  }
  wholeLines(planFor(vkscan::test::packedDesc(DataType::Float32, {12, 50257}, 1), lavapipe),
             Stage::ChunkScanRealigned, 4);
  for (uint32_t columns : {144u, 256u, 496u}) {
    CAPTURE(columns);
    Plan groups =
        planFor(vkscan::test::packedDesc(DataType::Float32, {65536, columns}, 0), lavapipe);
    wholeLines(groups, Stage::ChunkScanInterleaved, 4);
    CHECK(groups.dispatches[0].pipeline.workgroupSize == lavapipe.subgroupSize);
  }
  // Fewer lines take the look-back pass (lines off vectors realigned), 8
  // groups of interleaved lines three passes; longer lines chunks, also
  // from 9 to 15 lines.
  Plan few = planFor(vkscan::test::packedDesc(DataType::Float32, {8, 8192}, 1), lavapipe);
  REQUIRE(few.dispatches.size() == 1);
  CHECK(few.dispatches[0].pipeline.stage == Stage::ChunkLookback);
  Plan fewOffVectors = planFor(vkscan::test::packedDesc(DataType::Float32, {8, 4097}, 1), lavapipe);
  REQUIRE(fewOffVectors.dispatches.size() == 1);
  CHECK(fewOffVectors.dispatches[0].pipeline.stage == Stage::ChunkLookbackRealigned);
  CHECK(planFor(vkscan::test::packedDesc(DataType::Float32, {12, 1u << 20}, 1), lavapipe)
            .dispatches.size() >= 3);
  CHECK(planFor(vkscan::test::packedDesc(DataType::Float32, {4096, 128}, 0), lavapipe)
            .dispatches.size() >= 3);
  Plan longer = planFor(vkscan::test::packedDesc(DataType::Float32, {256, 65537}, 1), lavapipe);
  CHECK(longer.dispatches.size() >= 3);
  // The threshold follows the worker threads, up to chunkTargetInvocations.
  CHECK(tuningFor(DeviceClass::Cpu, 8, 1024, {2, 2}).wholeLineInvocations == 16);
  CHECK(tuningFor(DeviceClass::Cpu, 8, 1024, {64, 64}).wholeLineInvocations == 256);
  CHECK(tuningFor(DeviceClass::Cpu, 8, 1024, {}).wholeLineInvocations == 256);
  CHECK(tuningFor(DeviceClass::Cpu, 1, 128, {1, 1}).wholeLineInvocations == 1);
  CHECK(tuningFor(DeviceClass::Gpu, 32, 1024, {2, 2}).wholeLineInvocations == uint64_t{1} << 16);
  // The last busy thread's subgroup may run short, never a lone thread's.
  CHECK(tuningFor(DeviceClass::Cpu, 8, 1024, {2, 2}).wholeLineShortfall == 7);
  CHECK(tuningFor(DeviceClass::Cpu, 4, 1024, {4, 4}).wholeLineShortfall == 3);
  CHECK(tuningFor(DeviceClass::Cpu, 8, 1024, {4, 1}).wholeLineShortfall == 0);
  CHECK(tuningFor(DeviceClass::Cpu, 8, 1024, {}).wholeLineShortfall == 0);
  CHECK(tuningFor(DeviceClass::Gpu, 32, 1024, {2, 2}).wholeLineShortfall == 0);
  // A wholeLineInvocations of UINT64_MAX walks no line whole, whatever the
  // shortfall (256 groups of 16 columns, interleaved).
  Tuning never = tuningOf(lavapipe);
  never.wholeLineInvocations = UINT64_MAX;
  CHECK(planFor(vkscan::test::packedDesc(DataType::Float32, {8192, 4096}, 0), lavapipe, never)
            .dispatches.size() >= 3);
}

TEST_CASE(
    "plan: few long rows on vectors are walked whole up to 2^20 elements, spread over the "
    "workers") {
  const DeviceModel& lavapipe = kDevices[0];
  // [16, 2^20] in three passes was 16 invocations of 2^16 elements reading
  // every element twice. Walked whole it is one level-5 walk per line, in
  // workgroups of a subgroup, so that both workers of the class get one.
  for (DataType type : {DataType::Float32, DataType::UInt64, DataType::Float16}) {
    CAPTURE(type);
    Plan plan = planFor(vkscan::test::packedDesc(type, {16, 1u << 20}, 1), lavapipe);
    REQUIRE(plan.dispatches.size() == 1);
    const Dispatch& d = plan.dispatches[0];
    CHECK(d.pipeline.stage == Stage::ChunkScan);
    CHECK(d.params.shape == 5);
    CHECK(d.params.chunksPerLine == 1);
    CHECK(d.pipeline.workgroupSize == lavapipe.subgroupSize);
    CHECK(uint64_t{d.groupsX} * d.groupsY == 16 / lavapipe.subgroupSize);
    CHECK(plan.scratchBytes == 0);
  }
  // Past level 5, fewer lines than the workers' subgroups, and lines off
  // vectors (a realigned walk takes a node per loop iteration, so its
  // whole lines end at level 4) keep chunks.
  for (std::vector<uint32_t> sizes :
       std::vector<std::vector<uint32_t>>{{16, (1u << 20) + 16}, {15, 1u << 20}, {16, 70001}}) {
    CAPTURE(sizes[1]);
    Plan plan = planFor(vkscan::test::packedDesc(DataType::Float32, sizes, 1), lavapipe);
    CHECK(plan.dispatches.size() >= 3);
    CHECK(plan.scratchBytes > 0);
  }
}

// Interleaved lines walked whole, few enough that workgroups of 32 would
// leave a worker idle, spread in workgroups of a subgroup; more keep 32,
// and GPUs, whose workers are unknown, keep their size.
TEST_CASE("plan: few interleaved lines walked whole spread over the workers") {
  auto scanOf = [](const Plan& plan) {
    REQUIRE(plan.dispatches.size() == 1);
    const Dispatch& d = plan.dispatches[0];
    CHECK(d.pipeline.stage == Stage::ChunkScanInterleaved);
    CHECK(d.params.chunksPerLine == 1);
    return d;
  };
  // 512 columns in lanes of 16: 32 invocations, one workgroup of 32.
  CumulativeSummationDesc few = vkscan::test::packedDesc(DataType::Float32, {65536, 512}, 0);
  CumulativeSummationDesc more = vkscan::test::packedDesc(DataType::Float32, {4096, 1024}, 0);
  for (const DeviceModel& cpu : {kDevices[0], kDevices[1]}) {
    CAPTURE(cpu.name);
    Dispatch spread = scanOf(planFor(few, cpu));
    CHECK(spread.pipeline.workgroupSize == cpu.subgroupSize);
    CHECK(uint64_t{spread.groupsX} * spread.groupsY == 32 / cpu.subgroupSize);
    CHECK(scanOf(planFor(more, cpu)).pipeline.workgroupSize == tuningOf(cpu).chunkWorkgroupSize);
  }
  // GPUs: columns in one pass, 16 vectors of lines a workgroup.
  const DeviceModel& gpu = kDevices[4];
  Plan onGpu = planFor(few, gpu);
  REQUIRE(onGpu.dispatches.size() == 1);
  CHECK(onGpu.dispatches[0].pipeline.stage == Stage::ColumnsOnePass);
  CHECK(onGpu.dispatches[0].pipeline.workgroupSize == 256);
}

TEST_CASE("plan: contiguous short rows are one pass on a CPU device") {
  Plan plan = planFor(vkscan::test::packedDesc(DataType::Float32, {4096, 4096}, 1), kDevices[0]);
  CHECK(plan.dispatches.size() == 1);
  CHECK(plan.dispatches[0].pipeline.stage == Stage::ChunkScan);
  CHECK(plan.dispatches[0].pipeline.vectorLoads);
}

TEST_CASE("plan: contiguous chunk walks move 32-byte units where every node starts on one") {
  const DeviceModel& lavapipe = kDevices[0];
  auto walk = [&](DataType type, uint32_t rowLength, uint64_t bindingAlignment) {
    PlanLimits limits{lavapipe.subgroupSize, lavapipe.maxInvocations, 65535, 65535};
    limits.minStorageBufferOffsetAlignment = bindingAlignment;
    CumulativeSummationDesc desc = vkscan::test::packedDesc(type, {4096, rowLength}, 1);
    Plan plan = makePlan(normalize(desc), limits, tuningOf(lavapipe));
    checkInvariants(desc, plan, limits);
    REQUIRE(plan.dispatches.size() == 1);
    CHECK(plan.dispatches[0].pipeline.vectorLoads);
    return plan.dispatches[0].pipeline.wideVectors;
  };
  for (DataType type : {DataType::Float32, DataType::Float16, DataType::UInt64}) {
    CAPTURE(dataTypeName(type));
    uint32_t unit = static_cast<uint32_t>(32 / dataTypeSize(type));
    CHECK(walk(type, 64 * unit, 16));
    // Every other row starts mid-unit.
    CHECK(!walk(type, 64 * unit + unit / 2, 16));
    // Storage buffers bound from offsets rounded down to 64 bytes.
    CHECK(!walk(type, 64 * unit, 64));
  }
}

// Interleaved lanes of one vector whose rows lie back to back (an inner
// extent of one vector, nothing between rows) move a unit's worth of rows
// per access, lowest address first: backwards that is a group's last row.
TEST_CASE("plan: interleaved rows of one vector, back to back, move in 32-byte units") {
  const DeviceModel& lavapipe = kDevices[0];
  PlanLimits limits{lavapipe.subgroupSize, lavapipe.maxInvocations, 65535, 65535};
  limits.minStorageBufferOffsetAlignment = 16;
  auto walk = [&](const CumulativeSummationDesc& desc) {
    Plan plan = makePlan(normalize(desc), limits, tuningOf(lavapipe));
    checkInvariants(desc, plan, limits);
    REQUIRE(!plan.dispatches.empty());
    const Dispatch& scan = plan.dispatches.back();
    CHECK(scan.pipeline.stage == Stage::ChunkScanInterleaved);
    CHECK(scan.pipeline.laneVectors == 1);
    CHECK(scan.pipeline.reverse == (scan.pipeline.wideVectors && scan.params.inAxisStride < 0));
    return scan.pipeline.wideVectors;
  };
  for (DataType type : {DataType::Float32, DataType::Float16, DataType::UInt64}) {
    CAPTURE(dataTypeName(type));
    uint32_t vector = vkscan::test::vectorElements(type);
    CumulativeSummationDesc desc = vkscan::test::packedDesc(type, {64, 4096, vector}, 1);
    CHECK(walk(desc));
    desc.axisDirection = AxisDirection::Decreasing;
    CHECK(walk(desc));
    // Lines a vector longer than a whole number of units: every other line
    // group starts mid-unit, forwards and backwards.
    desc.input.strides = {4097 * vector, vector, 1};
    desc.output.strides = desc.input.strides;
    CHECK(!walk(desc));
    desc.axisDirection = AxisDirection::Increasing;
    CHECK(!walk(desc));
    // Rows two vectors apart hold other lines between them.
    CumulativeSummationDesc wider = vkscan::test::packedDesc(type, {64, 4096, 2 * vector}, 1);
    CHECK(!walk(wider));
    // An axis of one element merges the 63 outer lines into the inner
    // extent: 63 line groups a vector apart (fuzz_plan found INT64 {2, 1, 2}).
    CumulativeSummationDesc single = vkscan::test::packedDesc(type, {63, 1, vector}, 1);
    CHECK(!walk(single));
  }
}

// Lines contiguous in the innermost dimension but off vectors walk, on CPU
// devices, four vectors' lines per invocation from scalar accesses, and the
// lines left over one per invocation after them; GPUs take the columns one
// pass, its lanes built from scalar accesses.
TEST_CASE("plan: lines off vectors walk in scalar lanes on CPU devices, the rest one by one") {
  const DeviceModel& lavapipe = kDevices[0];
  auto stages = [](const Plan& plan) {
    std::vector<std::pair<Stage, bool>> result;
    for (const Dispatch& d : plan.dispatches) {
      result.emplace_back(d.pipeline.stage, d.pipeline.scalarLanes);
    }
    return result;
  };
  using Walk = std::vector<std::pair<Stage, bool>>;
  // 4095 columns: 255 groups of 16 lines, then 15 lines.
  Plan odd = planFor(vkscan::test::packedDesc(DataType::Float32, {4096, 4095}, 0), lavapipe);
  CHECK(stages(odd) == Walk{{Stage::ChunkScanInterleaved, true}, {Stage::ChunkScan, false}});
  CHECK(odd.dispatches[0].params.lineCount == 255);
  CHECK(odd.dispatches[1].params.lineCount == 15);
  CHECK(odd.dispatches[1].inByteOffset == 4080 * 4);
  // Rows an odd number of elements apart, every line in a group.
  CumulativeSummationDesc padded = vkscan::test::packedDesc(DataType::UInt64, {300, 64}, 0);
  padded.input.strides = {65, 1};
  padded.output.strides = padded.input.strides;
  CHECK(stages(planFor(padded, lavapipe)) == Walk{{Stage::ChunkScanInterleaved, true}});
  // Fewer lines than a group, and lines on vectors, as before.
  CHECK(stages(planFor(vkscan::test::packedDesc(DataType::Float32, {4096, 15}, 0), lavapipe)) ==
        Walk{{Stage::ChunkScan, false}});
  CHECK(stages(planFor(vkscan::test::packedDesc(DataType::Float32, {4096, 4096}, 0), lavapipe)) ==
        Walk{{Stage::ChunkScanInterleaved, false}});
  for (const DeviceModel& device : kDevices) {
    if (device.cpuLike) continue;
    CAPTURE(device.name);
    Plan plan = planFor(vkscan::test::packedDesc(DataType::Float32, {4096, 4095}, 0), device);
    CHECK(stages(plan) == Walk{{Stage::ColumnsOnePass, true}});
    // Vulkan's least workgroup limit (128) takes tiles of 8 lanes.
    uint32_t workgroup = device.maxInvocations >= 256 ? 256 : 128;
    CHECK(plan.dispatches[0].pipeline.workgroupSize == workgroup);
    CHECK(plan.dispatches[0].groupsX * plan.dispatches[0].groupsY ==
          (4095 + workgroup / 4 - 1) / (workgroup / 4) * 16);
  }
}

// Inner extents a multiple of a vector but not of four: on CPU devices the
// whole groups of four vectors' lines walk in lanes of four vectors, and the
// lines left over in lanes of one after them, where they are few; GPUs, and
// inner extents with many lines left over, keep lanes of one vector.
TEST_CASE("plan: whole groups of lines on vectors walk apart from a few lines left over") {
  const DeviceModel& lavapipe = kDevices[0];
  // Lane vectors of the scans that write the output (carry passes left out).
  auto laneVectors = [](const Plan& plan) {
    std::vector<uint32_t> result;
    for (const Dispatch& d : plan.dispatches) {
      CHECK(!d.pipeline.scalarLanes);
      if (d.out == BufferRole::Output) {
        CHECK(d.pipeline.stage == Stage::ChunkScanInterleaved);
        result.push_back(d.pipeline.laneVectors);
      }
    }
    return result;
  };
  // 4100 columns: 256 groups of 16 lines, then 4 lines in one lane.
  Plan columns = planFor(vkscan::test::packedDesc(DataType::Float32, {4096, 4100}, 0), lavapipe);
  CHECK(laneVectors(columns) == std::vector<uint32_t>{4, 1});
  CHECK(columns.dispatches.front().params.lineCount == 256);
  CHECK(columns.dispatches.back().params.lineCount == 1);
  CHECK(columns.dispatches.back().inByteOffset == 4096 * 4);
  CHECK(columns.dispatches.back().outByteOffset == 4096 * 4);
  // UINT64: groups of 8 lines, then 2.
  Plan wide = planFor(vkscan::test::packedDesc(DataType::UInt64, {4096, 2050}, 0), lavapipe);
  CHECK(laneVectors(wide) == std::vector<uint32_t>{4, 1});
  CHECK(wide.dispatches.back().inByteOffset == 2048 * 8);
  // A small problem, 12 of 76 lines left over, 4 of 52, and fewer lines than
  // a group: one walk.
  CHECK(laneVectors(planFor(vkscan::test::packedDesc(DataType::Float32, {3, 4100}, 0), lavapipe)) ==
        std::vector<uint32_t>{1});
  for (uint32_t inner : {76u, 52u, 12u}) {
    CAPTURE(inner);
    Plan narrow =
        planFor(vkscan::test::packedDesc(DataType::Float32, {8, 4096, inner}, 1), lavapipe);
    CHECK(laneVectors(narrow) == std::vector<uint32_t>{1});
  }
  // GPUs: one pass over whole vectors of lines, where the device allows
  // 256 invocations.
  for (const DeviceModel& device : kDevices) {
    if (device.cpuLike || device.maxInvocations < 256) continue;
    CAPTURE(device.name);
    Plan onGpu = planFor(vkscan::test::packedDesc(DataType::Float32, {4096, 4100}, 0), device);
    REQUIRE(onGpu.dispatches.size() == 1);
    CHECK(onGpu.dispatches[0].pipeline.stage == Stage::ColumnsOnePass);
  }
}

TEST_CASE("plan: chunk dispatches of many invocations run in wide workgroups on a CPU device") {
  const DeviceModel& lavapipe = kDevices[0];
  auto workgroupOf = [](const Plan& plan) {
    REQUIRE(plan.dispatches.size() == 1);
    return plan.dispatches[0].pipeline.workgroupSize;
  };
  // 2^20 invocations of one node each, and 2^14 of one interleaved group.
  CHECK(workgroupOf(planFor(vkscan::test::packedDesc(DataType::Float32, {1u << 20, 16}, 1),
                            lavapipe)) == 256);
  CHECK(workgroupOf(planFor(vkscan::test::packedDesc(DataType::Float32, {1024, 8, 256}, 1),
                            lavapipe)) == 256);
  // Fewer keep the narrow ones that spread over every worker.
  CHECK(workgroupOf(
            planFor(vkscan::test::packedDesc(DataType::Float32, {4096, 4096}, 1), lavapipe)) == 32);
  CHECK(workgroupOf(planFor(vkscan::test::packedDesc(DataType::Float32, {64, 65536, 4}, 1),
                            lavapipe)) == 32);
  // Within the device's limit; GPUs keep their size.
  CHECK(tuningFor(DeviceClass::Cpu, 8, 128, {2, 2}).chunkWideWorkgroupSize == 128);
  for (const DeviceModel& gpu : {kDevices[3], kDevices[4], kDevices[5]}) {
    Tuning tuning = tuningOf(gpu);
    CHECK(tuning.chunkWideWorkgroupSize == tuning.chunkWorkgroupSize);
  }
}

TEST_CASE("plan: contiguous lines of at most 16 elements are one flat walk on a CPU device") {
  const DeviceModel& lavapipe = kDevices[0];
  auto segmentOf = [&](const CumulativeSummationDesc& desc) {
    Plan plan = planFor(desc, lavapipe);
    REQUIRE(plan.dispatches.size() == 1);
    CHECK(plan.scratchBytes == 0);
    return plan.dispatches[0].pipeline.segmentLength;
  };
  CHECK(segmentOf(vkscan::test::packedDesc(DataType::Float32, {1u << 20, 16}, 1)) == 16);
  CHECK(segmentOf(vkscan::test::packedDesc(DataType::Float16, {5, 7, 3}, 2)) == 3);
  CumulativeSummationDesc decreasing = vkscan::test::packedDesc(DataType::UInt64, {1000, 1}, 1);
  decreasing.axisDirection = AxisDirection::Decreasing;
  CHECK(segmentOf(decreasing) == 1);
  CHECK(segmentOf(vkscan::test::packedDesc(DataType::Float32, {1, 1, 3, 4}, 3)) == 4);
  // Longer lines, gaps between lines, a strided axis, a misaligned flat line,
  // or a single line: walked as before.
  CHECK(segmentOf(vkscan::test::packedDesc(DataType::Float32, {1000, 17}, 1)) == 0);
  CumulativeSummationDesc padded = vkscan::test::packedDesc(DataType::Float32, {1000, 3}, 1);
  padded.output.strides = {4, 1};
  CHECK(segmentOf(padded) == 0);
  CHECK(segmentOf(vkscan::test::packedDesc(DataType::Float32, {3, 1000}, 0)) == 0);
  CHECK(segmentOf(vkscan::test::packedDesc(DataType::Float32, {12}, 0)) == 0);
  Problem misaligned = normalize(vkscan::test::packedDesc(DataType::Float32, {1000, 3}, 1));
  misaligned.inBase = 1;
  misaligned.outBase = 1;
  PlanLimits limits{lavapipe.subgroupSize, lavapipe.maxInvocations, 65535, 65535};
  Plan plan = makePlan(misaligned, limits, tuningOf(lavapipe));
  REQUIRE(!plan.dispatches.empty());
  CHECK(plan.dispatches[0].pipeline.segmentLength == 0);
  // GPUs scan contiguous axes with the rows kernels.
  Plan gpu = planFor(vkscan::test::packedDesc(DataType::Float32, {1000, 3}, 1), kDevices[4]);
  CHECK(gpu.dispatches[0].pipeline.segmentLength == 0);
}

TEST_CASE("plan: a strided axis with a contiguous inner dimension interleaves lines") {
  Plan plan = planFor(vkscan::test::packedDesc(DataType::Float32, {4096, 4096}, 0), kDevices[0]);
  CHECK(plan.dispatches.back().pipeline.stage == Stage::ChunkScanInterleaved);
  CHECK(plan.dispatches.back().params.lineCount == 4096 / 16);  // 16 FLOAT32 lines each
  CHECK(plan.dispatches.back().pipeline.laneVectors == 4);
  // An inner extent of 4 (not a multiple of 16): one vector of 4 lines each.
  Plan narrow = planFor(vkscan::test::packedDesc(DataType::Float32, {64, 4096, 4}, 1), kDevices[0]);
  CHECK(narrow.dispatches.back().pipeline.stage == Stage::ChunkScanInterleaved);
  CHECK(narrow.dispatches.back().pipeline.laneVectors == 1);
  CHECK(narrow.dispatches.back().params.lineCount == 64);
}

TEST_CASE("plan: every type interleaves four vectors of lines where they divide the inner extent") {
  for (DataType type : {DataType::Float32, DataType::Float16, DataType::Int32, DataType::UInt32,
                        DataType::Int64, DataType::UInt64, DataType::Float64, DataType::BFloat16}) {
    CAPTURE(dataTypeName(type));
    uint32_t vector = vkscan::test::vectorElements(type);
    Plan wide = planFor(vkscan::test::packedDesc(type, {300, 8 * vector}, 0), kDevices[0]);
    CHECK(wide.dispatches.back().pipeline.stage == Stage::ChunkScanInterleaved);
    CHECK(wide.dispatches.back().pipeline.laneVectors == 4);
    CHECK(wide.dispatches.back().params.lineCount == 2);
    Plan narrow = planFor(vkscan::test::packedDesc(type, {300, 3 * vector}, 0), kDevices[0]);
    CHECK(narrow.dispatches.back().pipeline.stage == Stage::ChunkScanInterleaved);
    CHECK(narrow.dispatches.back().pipeline.laneVectors == 1);
    CHECK(narrow.dispatches.back().params.lineCount == 3);
  }
}

TEST_CASE("plan: whole interleaved lines on CPU devices, a workgroup per worker, node barriers") {
  auto scanOf = [](std::vector<uint32_t> sizes, const DeviceModel& device) {
    Plan plan = planFor(vkscan::test::packedDesc(DataType::Float32, sizes, 0), device);
    REQUIRE(!plan.dispatches.empty());
    return plan.dispatches.back();
  };
  const DeviceModel& lavapipe = kDevices[0];
  // 256 groups of 16 columns: two workgroups of 128.
  Dispatch square = scanOf({4096, 4096}, lavapipe);
  CHECK(square.pipeline.stage == Stage::ChunkScanInterleaved);
  CHECK(square.pipeline.nodeBarrier);
  CHECK(square.pipeline.workgroupSize == 128);
  CHECK(square.groupsX * square.groupsY == 2);
  // 96 groups: two of 48.
  Dispatch partial = scanOf({40, 1536}, lavapipe);
  CHECK(partial.pipeline.nodeBarrier);
  CHECK(partial.pipeline.workgroupSize == 48);
  CHECK(partial.groupsX * partial.groupsY == 2);
  // 1024 groups: past 256 a workgroup, four of 256.
  Dispatch many = scanOf({4096, 16 * 1024}, lavapipe);
  CHECK(many.pipeline.nodeBarrier);
  CHECK(many.pipeline.workgroupSize == 256);
  CHECK(many.groupsX * many.groupsY == 4);
  // 100 groups make no full workgroups of whole subgroups in a multiple of
  // the workers: no barriers, the usual workgroups.
  Dispatch uneven = scanOf({40, 1600}, lavapipe);
  CHECK(!uneven.pipeline.nodeBarrier);
  CHECK(uneven.pipeline.workgroupSize == 32);
  // Chunked lines (past a whole line's reach; their carry pass may walk
  // whole lines) and few groups spread over the workers in subgroups keep
  // their walks apart.
  Plan chunked = planFor(vkscan::test::packedDesc(DataType::Float32, {65537, 1024}, 0), lavapipe);
  REQUIRE(chunked.dispatches.size() >= 3);
  CHECK(chunked.dispatches.front().pipeline.stage == Stage::ChunkReduceInterleaved);
  CHECK(!chunked.dispatches.front().pipeline.nodeBarrier);
  CHECK(!chunked.dispatches.back().pipeline.nodeBarrier);
  CHECK(!scanOf({65536, 512}, lavapipe).pipeline.nodeBarrier);
  // Rows close together (16 and 512 bytes apart) walk without them.
  for (auto [sizes, axis] : std::vector<std::pair<std::vector<uint32_t>, uint32_t>>{
           {{64, 65536, 4}, 1}, {{16384, 8, 128}, 1}, {{100, 128}, 0}}) {
    Plan plan = planFor(vkscan::test::packedDesc(DataType::Float32, sizes, axis), lavapipe);
    CHECK(plan.dispatches.back().pipeline.stage == Stage::ChunkScanInterleaved);
    CHECK(!plan.dispatches.back().pipeline.nodeBarrier);
  }
  for (const DeviceModel& device : kDevices) {
    if (!device.cpuLike) CHECK(!scanOf({4096, 4096}, device).pipeline.nodeBarrier);
  }
}

TEST_CASE("plan: interleaved walks touch ahead on CPU devices where rows lie 2 KiB apart or more") {
  auto touches = [](DataType type, std::vector<uint32_t> sizes, uint32_t axis,
                    const DeviceModel& device) {
    Plan plan = planFor(vkscan::test::packedDesc(type, sizes, axis), device);
    bool any = false;
    for (const Dispatch& d : plan.dispatches) any = any || d.pipeline.touchAhead;
    return any;
  };
  const DeviceModel& lavapipe = kDevices[0];
  CHECK(touches(DataType::Float32, {4096, 4096}, 0, lavapipe));  // 16 KiB
  CHECK(touches(DataType::Float32, {100, 512}, 0, lavapipe));    // 2 KiB
  CHECK(touches(DataType::Float16, {100, 1024}, 0, lavapipe));   // 2 KiB
  CHECK(touches(DataType::UInt64, {100, 256}, 0, lavapipe));     // 2 KiB
  CHECK(!touches(DataType::Float32, {100, 256}, 0, lavapipe));   // 1 KiB
  CHECK(!touches(DataType::Float32, {1u << 14, 8, 128}, 1, lavapipe));
  CHECK(!touches(DataType::Float32, {64, 1u << 16, 4}, 1, lavapipe));
  // Lines off vectors walk in scalar lanes, which touch too.
  CHECK(touches(DataType::Float32, {4096, 4095}, 0, lavapipe));
  // Reduce and scan passes both touch.
  Plan chunked = planFor(vkscan::test::packedDesc(DataType::Float32, {65537, 1024}, 0), lavapipe);
  REQUIRE(chunked.dispatches.size() >= 3);
  CHECK(chunked.dispatches.front().pipeline.stage == Stage::ChunkReduceInterleaved);
  CHECK(chunked.dispatches.front().pipeline.touchAhead);
  CHECK(chunked.dispatches.back().pipeline.touchAhead);
  for (const DeviceModel& device : kDevices) {
    if (!device.cpuLike) CHECK(!touches(DataType::Float32, {4096, 4096}, 0, device));
  }
}

TEST_CASE("plan: GPU devices use the rows kernels for contiguous axes") {
  Plan plan = planFor(vkscan::test::packedDesc(DataType::Float32, {4096, 4096}, 1), kDevices[4]);
  CHECK(plan.dispatches.back().pipeline.stage == Stage::RowsScan);
  CHECK(plan.dispatches.back().pipeline.workgroupSize == 256);
  Plan small = planFor(vkscan::test::packedDesc(DataType::Float32, {4096, 4096}, 1), kDevices[3]);
  CHECK(small.dispatches.back().pipeline.workgroupSize == 16);
}

// Tuning::rowsLinesFastest flags the rows one pass of several lines only:
// one line has one order, and lines of one tile take rows_scan. Several
// lines of a strided axis take tiles across lines first untuned.
TEST_CASE("plan: rows one pass hands out tiles across lines first where tuned or strided") {
  PlanLimits limits{32, 1024, 65535, 65535};
  limits.maxSharedMemoryBytes = 49152;
  auto acrossLines = [&](const CumulativeSummationDesc& desc, bool tuned) {
    Tuning tuning = tuningFor(DeviceClass::Gpu, 32, 1024, {});
    CHECK_FALSE(tuning.rowsLinesFastest);
    tuning.rowsLinesFastest = tuned;
    Plan plan = makePlan(normalize(desc), limits, tuning);
    checkInvariants(desc, plan, limits);
    bool flagged = false;
    for (const Dispatch& d : plan.dispatches) {
      flagged = flagged || (d.params.flags & VKSCAN_FLAG_LINES_FASTEST) != 0u;
    }
    return flagged;
  };
  const CumulativeSummationDesc rows =
      vkscan::test::packedDesc(DataType::Float32, {16384, 16384}, 1);
  CHECK(acrossLines(rows, true));
  CHECK_FALSE(acrossLines(rows, false));
  CHECK_FALSE(acrossLines(vkscan::test::packedDesc(DataType::Float32, {1u << 20}, 0), true));
  CHECK_FALSE(acrossLines(vkscan::test::packedDesc(DataType::Float32, {16384, 4096}, 1), true));
  CHECK_FALSE(acrossLines(vkscan::test::packedDesc(DataType::Float32, {16384, 16384}, 0), true));
  CumulativeSummationDesc channels = vkscan::test::packedDesc(DataType::Float32, {3, 1u << 20}, 1);
  channels.input.strides = channels.output.strides = {1, 3};
  CHECK(acrossLines(channels, false));
  CumulativeSummationDesc strided = vkscan::test::packedDesc(DataType::Float32, {1u << 20}, 0);
  strided.input.strides = {2};
  CHECK_FALSE(acrossLines(strided, false));
}

// Fewer lines of a strided axis than fill a columns tile take the rows
// kernels on GPUs, in one dispatch, their tiles staged along the axis, small
// problems too; more lines and lines of a node keep their plans; devices
// without shuffles and shared memory that holds no tile take the columns
// one pass.
TEST_CASE("plan: few lines of a strided axis take the rows kernels, staged along the axis") {
  auto plan = [](std::vector<uint32_t> sizes, uint32_t axis, std::vector<uint32_t> strides,
                 uint32_t sharedBytes = 49152, bool shuffles = true) {
    PlanLimits limits{32, 1024, 65535, 65535};
    limits.maxSharedMemoryBytes = sharedBytes;
    limits.subgroupShuffles = shuffles;
    CumulativeSummationDesc desc = vkscan::test::packedDesc(DataType::Float32, sizes, axis);
    desc.input.strides = std::move(strides);
    Plan result = makePlan(normalize(desc), limits, tuningFor(DeviceClass::Gpu, 32, 1024, {}));
    checkInvariants(desc, result, limits);
    return result;
  };
  auto alongAxis = [](const Plan& p, Stage stage) {
    return p.dispatches.size() == 1 && p.dispatches[0].pipeline.stage == stage &&
           p.dispatches[0].pipeline.stagedNodes &&
           (p.dispatches[0].params.flags & VKSCAN_FLAG_STAGED_ALONG_AXIS) != 0u;
  };
  CHECK(alongAxis(plan({1u << 28}, 0, {2}), Stage::RowsOnePass));
  CHECK(alongAxis(plan({5000}, 0, {5}), Stage::RowsOnePass));
  CHECK(alongAxis(plan({15, 1u << 20}, 1, {1, 15}), Stage::RowsOnePass));
  CHECK(alongAxis(plan({10, 4000}, 1, {1, 10}), Stage::RowsScan));
  CHECK(alongAxis(plan({3, 1u << 20}, 1, {(2u << 20) + 1, 2}), Stage::RowsOnePass));
  // A reversed strided axis keeps traversal order: no memory-order reverse.
  CumulativeSummationDesc reversed = vkscan::test::packedDesc(DataType::Float32, {1u << 20}, 0);
  reversed.input.strides = {3};
  reversed.axisDirection = AxisDirection::Decreasing;
  PlanLimits limits{32, 1024, 65535, 65535};
  limits.maxSharedMemoryBytes = 49152;
  Plan backwards = makePlan(normalize(reversed), limits, tuningFor(DeviceClass::Gpu, 32, 1024, {}));
  REQUIRE(alongAxis(backwards, Stage::RowsOnePass));
  CHECK_FALSE(backwards.dispatches[0].pipeline.reverse);
  checkInvariants(reversed, backwards, limits);
  // A small problem, which one invocation used to walk (walksPreferred()).
  CHECK(alongAxis(plan({4000}, 0, {5}), Stage::RowsScan));
  // 16 lines fill a columns tile; lines of a node.
  CHECK(plan({16, 1u << 20}, 1, {1, 16}).dispatches[0].pipeline.stage == Stage::ColumnsOnePass);
  CHECK(plan({16, 3}, 0, {5, 1}).dispatches[0].pipeline.stage == Stage::ChunkScan);
  // No shuffles, or no room for a tile: the columns one pass, its lanes
  // built element by element, where the chunk walks read the input twice.
  for (const Plan& other : {plan({1u << 20}, 0, {2}, 49152, false), plan({1u << 20}, 0, {2}, 16384),
                            plan({3, 1u << 20}, 1, {1, 3}, 16384)}) {
    REQUIRE(other.dispatches.size() == 1);
    CHECK(other.dispatches[0].pipeline.stage == Stage::ColumnsOnePass);
    CHECK(other.dispatches[0].pipeline.scalarLanes);
  }
  // Nor a contiguous axis, whose lines the chunk walks take on vectors.
  CHECK(plan({1u << 20}, 0, {1}, 49152, false).dispatches[0].pipeline.stage !=
        Stage::ColumnsOnePass);
}

// Issue 47: neighbouring invocations access neighbouring vectors. The rows
// kernels move whole tiles through shared memory where it holds one, as
// accumulators, beside 4 KiB of the rest (Vulkan's least, 16 KiB, holds no
// FLOAT32 tile of 4096).
TEST_CASE("plan: GPU rows kernels stage tiles where shared memory holds them") {
  auto staged = [](const CumulativeSummationDesc& desc, uint32_t sharedBytes,
                   uint32_t subgroup = 32, bool tuned = true) {
    PlanLimits limits{subgroup, 1024, 65535, 65535};
    limits.maxSharedMemoryBytes = sharedBytes;
    Tuning tuning = tuningFor(DeviceClass::Gpu, subgroup, 1024, {});
    tuning.rowsStagedNodes = tuned;
    Plan plan = makePlan(normalize(desc), limits, tuning);
    REQUIRE(plan.dispatches.size() == 1);
    Stage stage = plan.dispatches[0].pipeline.stage;
    CHECK((stage == Stage::RowsOnePass || stage == Stage::RowsScan));
    checkInvariants(desc, plan, limits);
    return plan.dispatches[0].pipeline.stagedNodes;
  };
  auto line = [](DataType type, std::vector<uint32_t> sizes) {
    return vkscan::test::packedDesc(type, sizes, static_cast<uint32_t>(sizes.size() - 1));
  };
  // 1-D lines in one pass: a FLOAT32 tile of 4096 is 16 KiB, a FLOAT64 one
  // 32 KiB, a FLOAT16 one 16 KiB (it sums in FP32).
  CHECK(staged(line(DataType::Float32, {1u << 20}), 49152));
  CHECK(staged(line(DataType::Float64, {1u << 20}), 49152));
  CHECK(staged(line(DataType::Float16, {1u << 20}), 32768));
  CHECK_FALSE(staged(line(DataType::UInt64, {1u << 20}), 32768));
  CHECK(staged(line(DataType::UInt64, {1u << 20}), 32768 + 4096));
  CHECK_FALSE(staged(line(DataType::Float32, {1u << 20}), 16384));
  CHECK(staged(line(DataType::Float32, {1u << 20}), 16384 + 4096));
  CHECK_FALSE(staged(line(DataType::Float32, {1u << 20}), 49152, 32, false));
  // Lines of one tile: where each fills its nodes, and a subgroup's or the
  // subgroup's nodes lie back to back (packed lines, flagged).
  CHECK(staged(line(DataType::Float32, {100, 4096}), 49152));
  CHECK(staged(line(DataType::Float32, {100, 512}), 49152));
  CHECK(staged(line(DataType::Float32, {100, 256}), 49152, 16));
  CHECK(staged(line(DataType::Float32, {100, 256}), 49152));
  CHECK(staged(line(DataType::Float32, {1u << 20, 16}), 49152));
  CHECK(staged(line(DataType::Float16, {3, 5, 32}), 32768));
  // Lines of whole vectors short of their nodes, the rest of the nodes the
  // identity (vectors of 4 elements, or 2 of 8 bytes).
  CHECK(staged(line(DataType::Float32, {100, 4000}), 49152));
  CHECK(staged(line(DataType::Float32, {1u << 20, 12}), 49152));
  CHECK(staged(line(DataType::Float16, {1000, 12}), 32768));
  CHECK(staged(line(DataType::Float64, {1000, 10}), 49152));
  // Lines a node long or more that are not whole vectors stage element by
  // element: rows of 77 and 4001, the last of 9 elements, a single line of
  // 1001, lines padded to vectors but ending mid-vector, rows of 50257 in
  // one pass, and lines off vectors.
  CHECK(staged(line(DataType::Float32, {1u << 20, 77}), 49152));
  CHECK(staged(line(DataType::Float32, {100, 4001}), 49152));
  CHECK(staged(line(DataType::Float16, {100, 17}), 32768));
  CHECK_FALSE(staged(line(DataType::Float64, {1000, 9}), 49152));
  CHECK_FALSE(staged(line(DataType::Float32, {1000, 15}), 49152));
  CHECK(staged(line(DataType::Float32, {1001}), 49152));
  CumulativeSummationDesc ragged = line(DataType::Float32, {9, 2002});
  ragged.input.strides = {2004, 1};
  ragged.output.strides = {2004, 1};
  CHECK(staged(ragged, 49152));
  CHECK(staged(line(DataType::Float32, {512, 50257}), 49152));
  CumulativeSummationDesc offVectors = line(DataType::Float32, {100, 4096});
  offVectors.input.strides = {4097, 1};
  offVectors.output.strides = {4097, 1};
  CHECK(staged(offVectors, 49152));
  // Padded lines narrower than a subgroup's nodes move node by node, as do
  // lines whose output is strided along the axis.
  CumulativeSummationDesc padded = line(DataType::Float32, {100, 256});
  padded.input.strides = {260, 1};
  padded.output.strides = {260, 1};
  CHECK_FALSE(staged(padded, 49152));
  padded.input.strides = {256, 1};
  CHECK_FALSE(staged(padded, 49152));
  CHECK(staged(padded, 49152, 16));
  CumulativeSummationDesc strided = line(DataType::Float32, {100, 4096});
  strided.output.strides = {8192, 2};
  CHECK_FALSE(staged(strided, 49152));
}

TEST_CASE("plan: chunk kernels bind storage buffers where push descriptors and the range allow") {
  auto plan = [](const CumulativeSummationDesc& desc, const DeviceModel& device, bool push,
                 uint64_t range, uint64_t alignment = 64) {
    PlanLimits limits{
        device.subgroupSize, device.maxInvocations, 65535, 65535, push, range, alignment};
    return makePlan(normalize(desc), limits, tuningOf(device));
  };
  auto storageBuffers = [](const Plan& p) {
    size_t count = 0;
    for (const Dispatch& d : p.dispatches) count += d.pipeline.storageBuffers ? 1 : 0;
    return count;
  };
  const uint64_t range = uint64_t{1} << 27;
  CumulativeSummationDesc longLine = vkscan::test::packedDesc(DataType::Float32, {1u << 20}, 0);
  Plan fits = plan(longLine, kDevices[0], true, range);
  REQUIRE(fits.dispatches.size() == 3);
  CHECK(storageBuffers(fits) == 3);
  CHECK(storageBuffers(plan(longLine, kDevices[0], false, range)) == 0);
  // Bindings at 16-byte offsets lie up to the alignment less 16 above where
  // they are bound: a tensor of exactly maxStorageBufferRange fits at an
  // alignment of 16 (or less), and needs 48 bytes more at 64.
  CumulativeSummationDesc full = vkscan::test::packedDesc(DataType::Float32, {1u << 25}, 0);
  CHECK(storageBuffers(plan(full, kDevices[0], true, range, 16)) > 0);
  CHECK(storageBuffers(plan(full, kDevices[0], true, range, 4)) > 0);
  CHECK(storageBuffers(plan(full, kDevices[0], true, range - 4, 16)) == 0);
  CHECK(storageBuffers(plan(full, kDevices[0], true, range)) == 0);
  CHECK(storageBuffers(plan(full, kDevices[0], true, range + 44)) == 0);
  CHECK(storageBuffers(plan(full, kDevices[0], true, range + 48)) > 0);
  // One beyond 2^31 bytes overflows the 32-bit offsets.
  CumulativeSummationDesc huge = vkscan::test::packedDesc(DataType::Float32, {1u << 29}, 0);
  CHECK(storageBuffers(plan(huge, kDevices[0], true, UINT64_MAX)) == 0);
  // GPUs: the rows and columns kernels keep device addresses; chunk
  // kernels (a strided axis of fewer lines than the columns one pass takes
  // off vectors, the rows kernels' staging tuned off) take storage buffers.
  Plan rows =
      plan(vkscan::test::packedDesc(DataType::Float32, {4096, 4096}, 1), kDevices[4], true, range);
  CHECK(storageBuffers(rows) == 0);
  Plan columns =
      plan(vkscan::test::packedDesc(DataType::Float32, {4096, 4096}, 0), kDevices[4], true, range);
  CHECK(storageBuffers(columns) == 0);
  PlanLimits gpu{
      kDevices[4].subgroupSize, kDevices[4].maxInvocations, 65535, 65535, true, range, 64};
  gpu.maxSharedMemoryBytes = 49152;
  Tuning unstaged = tuningOf(kDevices[4]);
  unstaged.rowsStagedNodes = false;
  Plan offVectors = makePlan(normalize(vkscan::test::packedDesc(DataType::Float32, {4096, 15}, 0)),
                             gpu, unstaged);
  REQUIRE(offVectors.dispatches.size() > 1);
  CHECK(storageBuffers(offVectors) == offVectors.dispatches.size());
}

TEST_CASE("plan: more than three unmergeable dimensions become sequential pieces") {
  CumulativeSummationDesc desc = vkscan::test::packedDesc(DataType::Float32, {2, 3, 2, 3, 5}, 4);
  desc.input.strides = {1000, 300, 100, 30, 1};  // padded at every level
  desc.output.strides = desc.input.strides;
  Plan plan = planFor(desc, kDevices[0]);
  CHECK(plan.dispatches.size() == 2);
}

TEST_CASE("plan: too many pieces is rejected, naming the strides") {
  CumulativeSummationDesc desc =
      vkscan::test::packedDesc(DataType::Float32, {100, 100, 3, 3, 3, 5}, 5);
  desc.input.strides = {1000000, 9000, 80, 20, 6, 1};
  desc.output.strides = desc.input.strides;
  try {
    planFor(desc, kDevices[0]);
    FAIL("planned 10000 pieces");
  } catch (const InvalidArgument& error) {
    CHECK(error.field() == "input.strides");
  }
}

// Regressions found by fuzz_plan (fuzz/regressions/plan/): descriptors far
// larger than any device's memory must be refused cleanly.
TEST_CASE("plan regression: explicit strides never overflow the packed-stride product") {
  CumulativeSummationDesc desc =
      vkscan::test::packedDesc(DataType::Float32, {564986266, 14, 1247020671}, 1);
  desc.input.strides = {0, 1, 0};
  desc.output.strides = {1, 0, 0};
  // Overlapping output: rejected, and computing it must not overflow (UBSan).
  CHECK_THROWS_AS(normalize(desc), InvalidArgument);
}

TEST_CASE("plan regression: splitting into pieces is bounded, not out of memory") {
  CumulativeSummationDesc a =
      vkscan::test::packedDesc(DataType::Float64, {1, 5, 10, 14, 5, 2360, 4294967295u}, 6);
  a.input.strides = {0, 0, 0, 0, 0, 0, 1};
  a.output.strides = {};
  CumulativeSummationDesc b =
      vkscan::test::packedDesc(DataType::Float32, {3, 15, 1048575, 1258251775}, 0);
  for (const CumulativeSummationDesc& desc : {a, b}) {
    try {
      Problem problem = normalize(desc);
      planFor(desc, kDevices[0]);
      FAIL("planned a descriptor that needs millions of dispatches");
    } catch (const InvalidArgument& error) {
      std::string what = error.what();
      CAPTURE(what);
      CHECK(!error.field().empty());
    }
  }
}

// The limits and tuning of the fuzz cases that found these (fuzz/regressions/
// plan/chunk-valid-count-wraps and gid-wrap-32bit, replayed by CI's fuzz
// step), with either device class's defaults under the fuzzed class's planner:
// the devices above plan neither descriptor into the shape that broke. Returns the plans made;
// `refused` gets the field each refusal names.
template <typename Check>
int planWithFuzzTuning(const CumulativeSummationDesc& desc, const PlanLimits& limits,
                       const Tuning& fuzzed, Check holds, std::vector<std::string>& refused) {
  int planned = 0;
  for (bool cpuLike : {false, true}) {
    CAPTURE(cpuLike);
    Tuning tuning = tuningFor(cpuLike ? DeviceClass::Cpu : DeviceClass::Gpu, limits.subgroupSize,
                              limits.maxWorkgroupInvocations, {});
    tuning.deviceClass = fuzzed.deviceClass;
    tuning.chunkTargetInvocations = fuzzed.chunkTargetInvocations;
    tuning.chunkSmallProblem = fuzzed.chunkSmallProblem;
    tuning.wholeLineInvocations = fuzzed.wholeLineInvocations;
    tuning.chunkWideWorkgroupInvocations = fuzzed.chunkWideWorkgroupInvocations;
    try {
      Plan plan = makePlan(normalize(desc), limits, tuning);
      CHECK(vkscan::test::planViolations(desc, plan, limits).empty());
      for (const Dispatch& d : plan.dispatches) holds(d);
      ++planned;
    } catch (const InvalidArgument& error) {
      refused.push_back(error.field());
    }
  }
  return planned;
}

// 8 x 1705022507 x 5 lines of 4955 elements in two chunks each: pieces of
// 2^31 lines once made 2^32 tasks, which wrapped a 32-bit count to 0.
TEST_CASE("plan regression: lines x chunks of exactly 2^32 cannot wrap to 0") {
  CumulativeSummationDesc desc =
      vkscan::test::packedDesc(DataType::Float16, {8, 1705022507, 1, 5, 4955}, 4, true);
  PlanLimits limits{32, 1024, 615781057, 1372116003};
  Tuning fuzzed{};
  fuzzed.deviceClass = DeviceClass::Cpu;
  fuzzed.chunkTargetInvocations = 256;
  fuzzed.chunkSmallProblem = 16384;
  fuzzed.wholeLineInvocations = 256;
  fuzzed.chunkWideWorkgroupInvocations = 16384;
  auto fitsIndex = [](const Dispatch& d) {
    CHECK(uint64_t{d.params.lineCount} * d.params.chunksPerLine <= UINT32_MAX);
  };
  // As the fuzzer had it, the lines are now walked whole, one chunk each.
  std::vector<std::string> refused;
  CHECK(planWithFuzzTuning(desc, limits, fuzzed, fitsIndex, refused) == 2);
  // Chunked, as when it was found: refused by name, not wrapped.
  fuzzed.wholeLineInvocations = UINT64_MAX;
  CHECK(planWithFuzzTuning(desc, limits, fuzzed, fitsIndex, refused) == 0);
  CHECK(refused == std::vector<std::string>{"input.sizes", "input.sizes"});
}

TEST_CASE("plan regression: grid padding cannot wrap the 32-bit invocation index") {
  CumulativeSummationDesc desc =
      vkscan::test::packedDesc(DataType::Int64, {4373, 4194305, 11, 11, 11}, 0);
  desc.input.strides = {16777216, 296, 61, 0, 0};
  PlanLimits limits{1, 128, 65535, 65535};
  Tuning fuzzed{};
  fuzzed.deviceClass = DeviceClass::Gpu;
  fuzzed.chunkTargetInvocations = 65536;
  fuzzed.chunkSmallProblem = 16384;
  fuzzed.wholeLineInvocations = 65536;
  fuzzed.chunkWideWorkgroupInvocations = 16384;
  uint64_t mostInvocations = 0;
  std::vector<std::string> refused;
  auto fitsIndex = [&](const Dispatch& d) {
    uint64_t invocations = uint64_t{d.groupsX} * d.groupsY * d.pipeline.workgroupSize;
    CHECK(invocations <= UINT32_MAX);
    mostInvocations = std::max(mostInvocations, invocations);
  };
  CHECK(planWithFuzzTuning(desc, limits, fuzzed, fitsIndex, refused) == 2);
  // Near the wrap, so the bound is what holds it.
  CHECK(mostInvocations > UINT32_MAX / 2);
}

// fuzz/regressions/plan/columns-onepass-one-tile: the carries of a chunk
// walk (contiguous lines of 168 chunk totals in scratch) went to the columns
// one-pass kernel in lines of one tile, with look-back scratch and nothing
// to look back at. Lines of one tile take that kernel without look-back.
TEST_CASE("plan regression: columns of one tile take no one-pass look-back") {
  CumulativeSummationDesc desc = vkscan::test::packedDesc(DataType::UInt64, {2682, 3720}, 0);
  desc.input.strides = {18, 2431955557};
  desc.output.strides = desc.input.strides;
  PlanLimits limits{1, 1704, 65535, 1885200720};
  Plan plan = makePlan(normalize(desc), limits, tuningFor(DeviceClass::Gpu, 1, 1704, {}));
  checkInvariants(desc, plan, limits);
  for (const Dispatch& d : plan.dispatches) {
    if (d.pipeline.stage != Stage::ColumnsOnePass || d.params.chunksPerLine >= 2) continue;
    CHECK(d.clearBytes == 0);
    CHECK(!d.hasAux);
  }
}

// fuzz/regressions/plan/columns-onepass-words-32bit: the columns one pass
// indexes its look-back words in 32 bits, but pieces of many lines of
// millions of tiles need more (here 448 lines of 2,380,232 tiles, 4.4e9
// words). Such pieces now take the chunk walks.
TEST_CASE("plan regression: columns one pass keeps its look-back words within 2^32") {
  CumulativeSummationDesc desc =
      vkscan::test::packedDesc(DataType::UInt32, {609339163, 8, 8, 8, 2, 10, 7}, 0);
  desc.input.strides = {60, 60, 37, 1767859568, 2340603531, 1031929856, 0};
  PlanLimits limits{64, 1024, 2031845357, 12091951};
  Plan plan = makePlan(normalize(desc), limits, tuningFor(DeviceClass::Gpu, 64, 1024, {}));
  checkInvariants(desc, plan, limits);
  // A piece of few enough lines still takes the one pass.
  desc.input.sizes = desc.output.sizes = {609339163, 8, 2, 1, 1, 1, 1};
  plan = makePlan(normalize(desc), limits, tuningFor(DeviceClass::Gpu, 64, 1024, {}));
  checkInvariants(desc, plan, limits);
  bool onePass = false;
  for (const Dispatch& d : plan.dispatches) onePass |= d.pipeline.stage == Stage::ColumnsOnePass;
  CHECK(onePass);
}
