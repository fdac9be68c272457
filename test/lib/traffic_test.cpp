// The plan diagnostics (vkscan/plans.hpp): the traffic model on plans whose
// bytes are counted by hand, every profile planning the 1-D lengths vkscan
// accepts, and on lavapipe the bytes each recorded dispatch writes against
// the bytes the model says it writes.
#include "plan/traffic.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>
#include <vkscan/plans.hpp>

#include "descriptors.hpp"
#include "device/device_impl.hpp"
#include "host/device_buffer.hpp"
#include "one_shot.hpp"
#include "operator/operator_impl.hpp"
#include "plan/limits.hpp"
#include "problem.hpp"
#include "recording.hpp"
#include "test_device.hpp"

using namespace vkscan;

namespace {

std::vector<std::string> kernelsOf(const PlanReport& report) {
  std::vector<std::string> kernels;
  for (const PlannedDispatch& d : report.dispatches) kernels.push_back(d.kernel);
  return kernels;
}

void checkSums(const PlanReport& report) {
  uint64_t moved = 0;
  for (const PlannedDispatch& d : report.dispatches) {
    CHECK(d.bytesRead == d.inputBytesRead + d.outputBytesRead + d.indicesBytesRead +
                             d.carryInBytesRead + d.scratchBytesRead);
    CHECK(d.bytesWritten == d.outputBytesWritten + d.indicesBytesWritten + d.totalsBytesWritten +
                                d.scratchBytesWritten);
    moved += d.bytesRead + d.bytesWritten;
  }
  CHECK(report.bytesMoved == moved);
  CHECK(report.trafficRatio == doctest::Approx(double(moved) / (2.0 * double(report.tensorBytes))));
}

// The look-back values a line of `tiles` rows tiles reads, tile by tile
// (kernels/lookback_workgroup.glsl): at each level below the root where the
// tile's ancestor is sibling c > 0 of its group, the V of the c siblings
// before it and the nearest one's I.
uint64_t rowsLookbackReads(uint64_t tiles) {
  uint64_t reads = 0;
  for (uint64_t tile = 0; tile < tiles; ++tile) {
    unsigned level = 0;
    for (uint64_t nodes = tiles; nodes > 1; nodes = (nodes + 15) / 16, ++level) {
      uint64_t c = (tile >> (4 * level)) & 15;
      reads += c == 0 ? 0 : c + 1;
    }
  }
  return reads;
}

}  // namespace

TEST_CASE("traffic: 1-D in one pass reads and writes the tensor once") {
  const PlanReport report =
      planFor(test::packedDesc(DataType::Float32, {1000}, 0, false), "nvidia");
  REQUIRE(kernelsOf(report) == std::vector<std::string>{"rows_scan"});
  CHECK(report.dispatches[0].inputBytesRead == 4000);
  CHECK(report.dispatches[0].outputBytesWritten == 4000);
  CHECK(report.dispatches[0].bytesRead == 4000);
  CHECK(report.dispatches[0].bytesWritten == 4000);
  CHECK(report.tensorBytes == 4000);
  CHECK(report.trafficRatio == 1.0);
  checkSums(report);
}

TEST_CASE("traffic: one pass on GPUs reads the input once and publishes per tile") {
  // 2^20 elements in 256 tiles of 4096, and 16 level-4 nodes above them:
  // two values per node, the counter and a collision record per tile.
  const uint64_t n = uint64_t{1} << 20;
  const PlanReport report =
      planFor(test::packedDesc(DataType::Float32, {1u << 20}, 0, false), "nvidia");
  REQUIRE(kernelsOf(report) == std::vector<std::string>{"rows_onepass"});
  const PlannedDispatch& pass = report.dispatches[0];
  const uint64_t nodes = 256 + 16;
  const uint64_t fill = 4 * (2 * nodes + 2 * 256 + 1);
  CHECK(pass.inputBytesRead == 4 * n);
  CHECK(pass.outputBytesWritten == 4 * n);
  CHECK(pass.fillBytes == fill);
  CHECK(pass.scratchBytesWritten == fill + 2 * nodes * 4 + 4 * 256);
  // At both levels, per group of 16 siblings, 0 + 2 + 3 + ... + 16 = 135
  // values (the V before each and the nearest I): 16 groups of tiles, and
  // one of groups of 16 tiles, 16 tiles each.
  CHECK(rowsLookbackReads(256) == 2160 + 2160);
  CHECK(pass.scratchBytesRead == 4 * (2160 + 2160) + 4 * 256);
  CHECK(report.bytesMoved == 8 * n + pass.scratchBytesWritten + pass.scratchBytesRead);
  checkSums(report);
  // 37 tiles, partial groups at both levels: 135 + 135 + (2 + 3 + 4 + 5)
  // at the first, 16 tiles reading 2 and 5 reading 3 at the second.
  CHECK(rowsLookbackReads(37) == 284 + 47);
  for (uint32_t tiles : {37u, 17u, 255u, 257u, 4097u}) {
    CAPTURE(tiles);
    const PlanReport partial =
        planFor(test::packedDesc(DataType::Float32, {tiles * 4096}, 0, false), "nvidia");
    REQUIRE(kernelsOf(partial) == std::vector<std::string>{"rows_onepass"});
    CHECK(partial.dispatches[0].scratchBytesRead == 4 * rowsLookbackReads(tiles) + 4 * tiles);
  }
  // Issue 47's bars: 1-D 2^28 and rows [16384, 16384] in one dispatch
  // moving at most 1.02 times the tensor twice.
  for (const auto& [sizes, axis] :
       {std::pair<std::vector<uint32_t>, uint32_t>{{1u << 28}, 0}, {{16384, 16384}, 1}}) {
    CAPTURE(sizes);
    const PlanReport big =
        planFor(test::packedDesc(DataType::Float32, sizes, axis, false), "nvidia");
    CHECK(big.dispatches.size() == 1);
    CHECK(big.trafficRatio <= 1.02);
  }
}

TEST_CASE("traffic: strided columns on GPUs in one pass read and write the tensor once") {
  // 64 columns of 65536: 16 vectors of 4 columns, 256 tiles of 256 along
  // the axis, and the look-back's values per column in scratch.
  const uint64_t bytes = uint64_t{65536} * 64 * 4;
  const PlanReport report =
      planFor(test::packedDesc(DataType::Float32, {65536, 64}, 0, false), "nvidia");
  REQUIRE(kernelsOf(report) == std::vector<std::string>{"columns_onepass"});
  CHECK(report.dispatches[0].workgroups[0] == 256);
  CHECK(report.dispatches[0].inputBytesRead == bytes);
  CHECK(report.dispatches[0].outputBytesWritten == bytes);
  checkSums(report);
  // Issue 47's bar: columns [16384, 16384] axis 0 at most 1.05.
  const PlanReport big =
      planFor(test::packedDesc(DataType::Float32, {16384, 16384}, 0, false), "nvidia");
  CHECK(kernelsOf(big) == std::vector<std::string>{"columns_onepass"});
  CHECK(big.trafficRatio <= 1.05);
  // Lines off vectors (16383 columns) in one pass too, lanes built element
  // by element: the same bytes per line.
  const PlanReport odd =
      planFor(test::packedDesc(DataType::Float32, {16384, 16383}, 0, false), "nvidia");
  CHECK(kernelsOf(odd) == std::vector<std::string>{"columns_onepass"});
  CHECK(odd.trafficRatio <= 1.05);
  checkSums(odd);
}

TEST_CASE("traffic: short strided columns on GPUs take one pass, no scratch") {
  // Lines of 17 to 256 elements, too few to be walked whole: the chunk walks
  // took three passes (1.6 of the tensor's bytes), the columns one pass
  // takes them as one tile, with more lanes a workgroup where lines are
  // shorter, and no look-back.
  struct Case {
    std::vector<uint32_t> sizes;
    uint32_t axis;
    uint64_t workgroups;  // of 256 >> shape lanes of 4 lines
  };
  const Case cases[] = {{{128, 8, 4096}, 0, 32768 / 4 / 32},
                        {{64, 1000000}, 0, 3907},
                        {{17, 4100}, 0, 9},
                        {{256, 65536}, 0, 65536 / 4 / 16},
                        {{16, 32, 4096}, 1, 65536 / 4 / 128}};
  for (const Case& c : cases) {
    CAPTURE(c.sizes);
    const PlanReport report =
        planFor(test::packedDesc(DataType::Float32, c.sizes, c.axis, false), "nvidia");
    REQUIRE(kernelsOf(report) == std::vector<std::string>{"columns_onepass"});
    CHECK(report.dispatches[0].workgroups[0] == c.workgroups);
    CHECK(report.scratchBytes == 0);
    CHECK(report.trafficRatio == 1.0);
    checkSums(report);
  }
}

TEST_CASE("traffic: look-back reads each tile twice and fills its status words") {
  // lavapipe: 65536 elements, 16 tiles of 4096, one pass with look-back.
  // Scratch per tile: a total, an inclusive value, a two-word collision
  // record, all filled; the pass writes a total and an inclusive value a
  // tile and reads the inclusive value of each tile's predecessor.
  const uint64_t bytes = uint64_t{65536} * 4;
  // In place (output bound to the input) changes the pipeline, chosen at
  // record time, not the plan: its bytes are these too.
  for (bool exclusive : {false, true}) {
    CAPTURE(exclusive);
    CumulativeSummationDesc desc = test::packedDesc(DataType::Float32, {65536}, 0, exclusive);
    const PlanReport report = planFor(desc, "lavapipe");
    REQUIRE(kernelsOf(report) == std::vector<std::string>{"chunk_lookback"});
    const PlannedDispatch& pass = report.dispatches[0];
    CHECK(pass.inputBytesRead == 2 * bytes);
    CHECK(pass.outputBytesWritten == bytes);
    CHECK(pass.fillBytes == 16 * 16);
    CHECK(pass.scratchBytesWritten == 16 * 16 + 2 * 16 * 4);
    CHECK(pass.scratchBytesRead == 15 * 4);
    CHECK(report.scratchBytes == 16 * 16);
    checkSums(report);
  }
}

// Each tensor's bytes are a part of their own: the carry-in read and the
// totals written by a carried plan (its copies, or its one pass), the indices the records
// and index-scan passes write (and the values they read back).
TEST_CASE("traffic: the parts add up on carried plans and with indices") {
  ScanDesc carried = scanDesc(test::packedDesc(DataType::Float32, {300, 5000}, 1, false));
  TensorDesc lines{DataType::Float32, {300, 1}, {}};
  carried.carryIn = lines;
  carried.totals = lines;
  ScanDesc indexed = scanDesc(test::packedDesc(DataType::Float32, {300, 5000}, 1, false));
  indexed.operation = ScanOperation::Maximum;
  indexed.indices = {DataType::Int64, {300, 5000}, {}};
  for (const std::string& profile : {std::string("nvidia"), std::string("lavapipe")}) {
    CAPTURE(profile);
    PlanReport report = planFor(carried, profile);
    checkSums(report);
    // Copies around the scan on lavapipe; on GPUs the one pass reads and
    // writes them itself.
    if (profile == "nvidia") REQUIRE(report.dispatches.size() == 1);
    if (profile == "lavapipe") REQUIRE(report.dispatches.size() >= 3);
    CHECK(report.dispatches.front().carryInBytesRead == 300 * 4);
    CHECK(report.dispatches.back().totalsBytesWritten == 300 * 4);
    uint64_t carryIn = 0;
    uint64_t totals = 0;
    for (const PlannedDispatch& d : report.dispatches) {
      carryIn += d.carryInBytesRead;
      totals += d.totalsBytesWritten;
    }
    CHECK(carryIn == 300 * 4);
    CHECK(totals == 300 * 4);

    report = planFor(indexed, profile);
    checkSums(report);
    uint64_t indicesWritten = 0;
    uint64_t outputRead = 0;
    for (const PlannedDispatch& d : report.dispatches) {
      indicesWritten += d.indicesBytesWritten;
      outputRead += d.outputBytesRead;
    }
    // The records and the index scan each write every index once.
    CHECK(indicesWritten >= 2 * 300 * 5000 * 8);
    CHECK(outputRead == 300 * 5000 * 4);
  }
}

TEST_CASE("traffic: unknown profiles and bad descriptors are refused as createOperator does") {
  CumulativeSummationDesc desc = test::packedDesc(DataType::Float32, {16}, 0, false);
  try {
    planFor(desc, "voodoo");
    FAIL("planned for an unknown profile");
  } catch (const InvalidArgument& e) {
    CHECK(e.field() == "profile");
    CHECK(std::string(e.reason()).find("nvidia") != std::string::npos);
  }
  desc.axis = 1;
  CHECK_THROWS_AS(planFor(desc, "nvidia"), InvalidArgument);
  CHECK_THROWS_AS(planFor(test::packedDesc(DataType::Float64, {16}, 0, false), "apple"),
                  Unsupported);
  CHECK(planFor(test::packedDesc(DataType::Float32, {0}, 0, false), "nvidia").dispatches.empty());
  CHECK(profileNames() == std::vector<std::string>{"nvidia", "amd", "amd-wave32", "intel",
                                                   "intel-simd16", "mali", "apple", "lavapipe"});
}

// Profiles plan as an engine that enabled computeFullSubgroups: the rows
// kernels everywhere. Without it, those whose subgroup size varies (AMD's 32
// or 64, Intel's 8 to 32) would run partial subgroups, and plan without them.
TEST_CASE("traffic: profiles take the rows kernels without full subgroups only at one size") {
  const CumulativeSummationDesc rows = test::packedDesc(DataType::Float32, {16384, 16384}, 1);
  const std::vector<std::string> varying = {"amd", "amd-wave32", "intel", "intel-simd16"};
  for (const DeviceProfile& profile : deviceProfiles()) {
    CAPTURE(profile.name);
    CHECK(profile.computeFullSubgroups);
    CHECK(profile.minSubgroupSize <= profile.subgroupSize);
    CHECK(profile.subgroupSize <= profile.maxSubgroupSize);
    CHECK(detail::planLimitsOf(profile).subgroupShuffles);
    DeviceProfile withoutFull = profile;
    withoutFull.computeFullSubgroups = false;
    const bool varies = std::find(varying.begin(), varying.end(), profile.name) != varying.end();
    CHECK((profile.minSubgroupSize < profile.maxSubgroupSize) == varies);
    CHECK(detail::planLimitsOf(withoutFull).subgroupShuffles == !varies);
    if (!profile.cpuDevice)
      CHECK(planFor(rows, profile.name).dispatches[0].kernel == "rows_onepass");
  }
}

TEST_CASE("traffic: JSON keys") {
  const std::string json =
      toJson(planFor(test::packedDesc(DataType::Float32, {1u << 20}, 0, false), "nvidia"));
  for (const char* key :
       {"{\"profile\":\"nvidia\",\"operation\":\"SUM\",",
        "\"dispatches\":[{\"kernel\":\"rows_onepass\"", "\"workgroups\":[256,1,1]",
        "\"workgroup_size\":256,\"staged_tiles\":true,\"scalar_lanes\":false,", "\"bytes_read\":",
        "\"bytes_written\":", "\"scratch_bytes\":4240", "\"bytes_moved\":8414340",
        "\"tensor_bytes\":4194304", "\"traffic_ratio\":1.0030674934387207}"}) {
    CAPTURE(key);
    CHECK(json.find(key) != std::string::npos);
  }
}

// Few lines of a strided axis (a strided view of a vector, a few
// interleaved channels) on GPUs in one rows dispatch, reading the input
// once where chunk walks took three passes and read it twice; 16 lines or
// more keep the columns one pass, CPU devices their chunk walks.
TEST_CASE("traffic: few lines of a strided axis on GPUs in one pass read the input once") {
  auto strided = [](std::vector<uint32_t> sizes, uint32_t axis, std::vector<uint32_t> strides) {
    CumulativeSummationDesc desc = test::packedDesc(DataType::Float32, sizes, axis, false);
    desc.input.strides = std::move(strides);
    return desc;
  };
  const CumulativeSummationDesc vector = strided({1u << 28}, 0, {2});
  const CumulativeSummationDesc channels = strided({3, 1u << 24}, 1, {1, 3});
  for (const char* profile :
       {"nvidia", "amd", "amd-wave32", "intel", "intel-simd16", "mali", "apple"}) {
    CAPTURE(profile);
    for (const CumulativeSummationDesc& desc : {vector, channels}) {
      CAPTURE(desc.input.sizes);
      const PlanReport report = planFor(desc, profile);
      REQUIRE(kernelsOf(report) == std::vector<std::string>{"rows_onepass"});
      CHECK(report.dispatches[0].stagedTiles);
      CHECK(report.dispatches[0].inputBytesRead == report.tensorBytes);
      CHECK(report.trafficRatio <= 1.02);
      checkSums(report);
    }
  }
  CHECK(kernelsOf(planFor(strided({16, 1u << 20}, 1, {1, 16}), "nvidia")) ==
        std::vector<std::string>{"columns_onepass"});
  CHECK(planFor(vector, "lavapipe").trafficRatio > 1.4);
}

// Small problems of strided lines longer than a node on GPUs: the chunk
// walks took them in one pass of very few invocations, each walking its
// lines whole in sequence ([4096, 32] along axis 0: two invocations of 4096
// steps, a load's latency per node); the columns one pass and the rows
// kernels spread each line over a workgroup, in one dispatch. Lines of a
// node keep their walk of one step; CPU devices keep their walks.
TEST_CASE("traffic: small strided problems on GPUs spread their lines, in one dispatch") {
  struct Small {
    std::vector<uint32_t> sizes;
    std::vector<uint32_t> strides;  // empty: packed
    const char* kernel;
  };
  const Small cases[] = {
      {{4096, 32}, {}, "columns_onepass"}, {{4096, 8}, {}, "columns_onepass"},
      {{1000, 16}, {}, "columns_onepass"}, {{2000, 20}, {}, "columns_onepass"},
      {{200, 48}, {}, "columns_onepass"},  {{300, 3}, {}, "rows_scan"},
      {{4096, 2}, {}, "rows_scan"},        {{40, 6}, {}, "rows_scan"},
      {{4000}, {5}, "rows_scan"},
  };
  auto descOf = [](DataType type, const Small& c) {
    CumulativeSummationDesc desc = test::packedDesc(type, c.sizes, 0, false);
    if (!c.strides.empty()) desc.input.strides = desc.output.strides = c.strides;
    return desc;
  };
  for (const char* profile :
       {"nvidia", "amd", "amd-wave32", "intel", "intel-simd16", "mali", "apple"}) {
    CAPTURE(profile);
    for (DataType type : {DataType::Float32, DataType::Int32, DataType::Float16}) {
      CAPTURE(type);
      for (const Small& c : cases) {
        const CumulativeSummationDesc desc = descOf(type, c);
        CAPTURE(desc.input.sizes);
        const PlanReport report = planFor(desc, profile);
        CHECK(kernelsOf(report) == std::vector<std::string>{c.kernel});
        CHECK(report.trafficRatio <= 1.04);
        checkSums(report);
      }
    }
  }
  // 64-bit rows tiles do not fit 32 KiB of shared memory (Mali, Apple): the
  // columns one pass, lanes built element by element, in one dispatch too.
  for (const char* profile : {"mali", "apple"}) {
    CAPTURE(profile);
    for (const Small& c : cases) {
      const CumulativeSummationDesc desc = descOf(DataType::UInt64, c);
      CAPTURE(desc.input.sizes);
      const PlanReport report = planFor(desc, profile);
      CHECK(kernelsOf(report) == std::vector<std::string>{"columns_onepass"});
      CHECK(report.trafficRatio <= 1.04);
    }
  }
  const CumulativeSummationDesc node = test::packedDesc(DataType::Float32, {16, 40}, 0, false);
  CHECK(kernelsOf(planFor(node, "nvidia")) == std::vector<std::string>{"chunk_scan_interleaved"});
  const CumulativeSummationDesc small = test::packedDesc(DataType::Float32, {4096, 32}, 0, false);
  CHECK(kernelsOf(planFor(small, "lavapipe")) ==
        std::vector<std::string>{"chunk_scan_interleaved"});
}

// Issue 47: where the rows kernels coalesce, inspectable without a GPU.
TEST_CASE("traffic: the report says which rows kernels stage their tiles") {
  auto stagedTiles = [](std::vector<uint32_t> sizes, const char* profile,
                        DataType type = DataType::Float32) {
    PlanReport report =
        planFor(test::packedDesc(type, sizes, static_cast<uint32_t>(sizes.size() - 1)), profile);
    REQUIRE(!report.dispatches.empty());
    bool staged = false;
    for (const PlannedDispatch& d : report.dispatches) staged = staged || d.stagedTiles;
    return staged;
  };
  CHECK(stagedTiles({1u << 28}, "nvidia"));
  CHECK(stagedTiles({16384, 16384}, "nvidia"));
  CHECK(stagedTiles({65536, 1000}, "nvidia"));
  CHECK(stagedTiles({1u << 24, 16}, "amd"));
  CHECK(stagedTiles({4096, 12}, "mali", DataType::Float16));
  // Lines off whole vectors, element by element.
  CHECK(stagedTiles({65536, 1001}, "nvidia"));
  CHECK(stagedTiles({65536, 999}, "nvidia", DataType::Float64));
  // Lines off vectors shorter than a node, a CPU device's chunk walks, the
  // columns kernel.
  CHECK_FALSE(stagedTiles({65536, 15}, "nvidia"));
  CHECK_FALSE(stagedTiles({1u << 20}, "lavapipe"));
  CHECK(toJson(planFor(test::packedDesc(DataType::Float32, {4096, 4096}, 0, false), "nvidia"))
            .find("\"staged_tiles\":false") != std::string::npos);
}

// Which columns plans build their lanes element by element (lines off
// vectors), inspectable without a GPU.
TEST_CASE("traffic: the report says which columns plans build lanes element by element") {
  auto columns = [](std::vector<uint32_t> sizes, const char* profile,
                    DataType type = DataType::Float32) {
    PlanReport report = planFor(test::packedDesc(type, sizes, 0), profile);
    REQUIRE(report.dispatches.size() == 1);
    CHECK(report.dispatches[0].kernel == "columns_onepass");
    CHECK_FALSE(report.dispatches[0].stagedTiles);
    return report.dispatches[0].scalarLanes;
  };
  CHECK(columns({16384, 16383}, "nvidia"));
  CHECK(columns({300000, 30}, "amd"));
  CHECK(columns({4096, 17}, "nvidia", DataType::Float64));
  CHECK_FALSE(columns({16384, 16384}, "nvidia"));
  CHECK_FALSE(columns({4096, 18}, "nvidia", DataType::Float64));
  CHECK(toJson(planFor(test::packedDesc(DataType::Float32, {4096, 4095}, 0), "nvidia"))
            .find("\"staged_tiles\":false,\"scalar_lanes\":true,") != std::string::npos);
  // Chunk walks never report it, though a CPU device's take scalar lanes too.
  for (const PlannedDispatch& d :
       planFor(test::packedDesc(DataType::Float32, {4096, 4095}, 0), "lavapipe").dispatches) {
    CHECK_FALSE(d.scalarLanes);
  }
}

TEST_CASE("traffic: the report names the descriptor's operation") {
  ScanDesc desc = scanDesc(test::packedDesc(DataType::Float32, {4, 100}, 1, false));
  for (ScanOperation operation :
       {ScanOperation::Sum, ScanOperation::Product, ScanOperation::Maximum, ScanOperation::Minimum,
        ScanOperation::LogSumExp}) {
    CAPTURE(scanOperationName(operation));
    desc.operation = operation;
    const PlanReport report = planFor(desc, "amd");
    CHECK(report.operation == operation);
    CHECK(toJson(report).find(std::string("\"operation\":\"") + scanOperationName(operation) +
                              "\",") != std::string::npos);
  }
}

// Issue 47: every profile plans 1-D lengths from 1 to 2^32 - 1.
TEST_CASE("traffic: every profile plans 1-D FLOAT32 of every length up to 2^32 - 1") {
  std::vector<uint32_t> lengths = {1, 2, 15, 16, 17, 0xFFFFFFFFu};
  for (uint32_t bit = 2; bit < 32; ++bit) {
    for (int64_t delta : {-1, 0, 1}) lengths.push_back(uint32_t((int64_t{1} << bit) + delta));
  }
  // Refused today, as (profile, length): none. A change in either direction
  // fails here, so that the list stays the truth.
  const std::vector<std::string> knownRefusals = {};
  std::vector<std::string> refusals;
  for (const std::string& profile : profileNames()) {
    for (uint32_t length : lengths) {
      try {
        PlanReport report =
            planFor(test::packedDesc(DataType::Float32, {length}, 0, false), profile);
        CHECK(report.tensorBytes == uint64_t{length} * 4);
        CHECK(report.trafficRatio >= 1.0);
      } catch (const Error& e) {
        refusals.push_back(profile + " " + std::to_string(length) + ": " + e.what());
      }
    }
  }
  std::string text;
  for (const std::string& line : refusals) text += line + "\n";
  CAPTURE(text);
  CHECK(refusals == knownRefusals);
}

namespace {

// What a dispatch leaves in output and scratch, and what scratch held before
// it, after the plan's earlier dispatches ran for real on random input
// (`seed`), with output and scratch first filled with `sentinel` bytes.
struct Written {
  std::vector<uint8_t> output;
  std::vector<uint8_t> scratchBefore;
  std::vector<uint8_t> scratch;
  std::vector<uint8_t> totals;  // empty without ScanDesc::totals
};

void submitPlan(Device::Impl& impl, const detail::Plan& plan,
                const std::vector<VkPipeline>& pipelines,
                const detail::ResolvedBindings& bindings) {
  if (plan.dispatches.empty()) return;
  test::OneShot shot(impl);
  detail::recordPlan(impl.vk, shot.commandBuffer(), impl.pipelineLayout, plan, pipelines, bindings);
  shot.submitAndWait();
}

Written runDispatch(Device& device, const Operator& op, size_t index, uint8_t sentinel,
                    uint64_t seed) {
  Device::Impl& impl = Device::Access::impl(device);
  const Operator::Impl& opImpl = Device::Access::impl(op);
  const ScanDesc& desc = op.desc();
  uint64_t inBytes = desc.input.totalBytes();
  uint64_t outBytes = desc.output.totalBytes();
  uint64_t scratchBytes = std::max<uint64_t>(op.scratchSize(), 16);
  detail::DeviceBuffer in(impl, inBytes);
  detail::DeviceBuffer out(impl, outBytes);
  detail::DeviceBuffer scratch(impl, scratchBytes);
  // Packed line tensors, the carry-in random like the input.
  uint64_t carryBytes = std::max<uint64_t>(desc.carryIn.spanBytes(), 16);
  uint64_t totalsBytes = std::max<uint64_t>(desc.totals.spanBytes(), 16);
  detail::DeviceBuffer carryIn(impl, carryBytes);
  detail::DeviceBuffer totals(impl, totalsBytes);
  // The whole span: a strided input's gaps hold whatever the memory held
  // before, and the kernels read them (a walk sums every element it loads).
  std::vector<uint8_t> input = test::randomElements(
      desc.input.dataType, desc.input.spanBytes() / dataTypeSize(desc.input.dataType), seed);
  std::memcpy(in.mapped(), input.data(), input.size());
  if (!desc.carryIn.sizes.empty()) {
    std::vector<uint8_t> carries =
        test::randomElements(desc.carryIn.dataType, desc.carryIn.elementCount(), seed + 100);
    std::memcpy(carryIn.mapped(), carries.data(), carries.size());
  }
  std::memset(out.mapped(), sentinel, outBytes);
  std::memset(scratch.mapped(), sentinel, scratchBytes);
  std::memset(totals.mapped(), sentinel, totalsBytes);

  auto address = [&](const detail::DeviceBuffer& buffer) {
    auto info =
        detail::vkStruct<VkBufferDeviceAddressInfo>(VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO);
    info.buffer = buffer.buffer();
    return impl.vk.vkGetBufferDeviceAddress(impl.device, &info);
  };
  detail::ResolvedBindings bindings;
  bindings.input = {address(in), {in.buffer(), 0, inBytes}, inBytes};
  bindings.output = {address(out), {out.buffer(), 0, outBytes}, outBytes};
  bindings.scratch = {address(scratch), {scratch.buffer(), 0, scratchBytes}, op.scratchSize()};
  if (!desc.carryIn.sizes.empty()) {
    bindings.carryIn = {address(carryIn), {carryIn.buffer(), 0, carryBytes}, carryBytes};
  }
  if (!desc.totals.sizes.empty()) {
    bindings.totals = {address(totals), {totals.buffer(), 0, totalsBytes}, totalsBytes};
  }
  bindings.storageBufferAlignment =
      std::max<uint64_t>(impl.capabilities.minStorageBufferOffsetAlignment, 1);
  const detail::Plan& plan = opImpl.plan;
  detail::Plan before;
  before.dispatches.assign(plan.dispatches.begin(), plan.dispatches.begin() + index);
  before.scratchBytes = plan.scratchBytes;
  submitPlan(impl, before,
             std::vector<VkPipeline>(opImpl.pipelines.begin(), opImpl.pipelines.begin() + index),
             bindings);
  const auto* scratchPtr = static_cast<const uint8_t*>(scratch.mapped());
  Written written;
  written.scratchBefore.assign(scratchPtr, scratchPtr + op.scratchSize());
  std::memset(out.mapped(), sentinel, outBytes);
  std::memset(totals.mapped(), sentinel, totalsBytes);
  detail::Plan one;
  one.dispatches = {plan.dispatches[index]};
  one.scratchBytes = plan.scratchBytes;
  submitPlan(impl, one, {opImpl.pipelines[index]}, bindings);
  const auto* outPtr = static_cast<const uint8_t*>(out.mapped());
  written.output.assign(outPtr, outPtr + outBytes);
  written.scratch.assign(scratchPtr, scratchPtr + op.scratchSize());
  const auto* totalsPtr = static_cast<const uint8_t*>(totals.mapped());
  written.totals.assign(totalsPtr, totalsPtr + desc.totals.spanBytes());
  return written;
}

// Bytes of the `unit`-byte elements that changed from `before` to `after`
// in either of two runs: a value the dispatch writes rarely equals what was
// there in both.
uint64_t changedBytes(const std::vector<uint8_t>& beforeA, const std::vector<uint8_t>& afterA,
                      const std::vector<uint8_t>& beforeB, const std::vector<uint8_t>& afterB,
                      size_t unit) {
  uint64_t changed = 0;
  for (size_t i = 0; i + unit <= afterA.size(); i += unit) {
    bool a = std::memcmp(&beforeA[i], &afterA[i], unit) != 0;
    bool b = std::memcmp(&beforeB[i], &afterB[i], unit) != 0;
    changed += (a || b) ? unit : 0;
  }
  return changed;
}

// Binds packed line tensors as the descriptor's carry-in and totals.
CumulativeSummationDesc inputStrides(CumulativeSummationDesc desc, std::vector<uint32_t> strides) {
  desc.input.strides = std::move(strides);
  return desc;
}

ScanDesc carried(const CumulativeSummationDesc& summation, bool carryIn, bool totals) {
  ScanDesc desc = scanDesc(summation);
  TensorDesc lines{carryType(desc.output.dataType), desc.output.sizes, {}};
  lines.sizes[desc.axis] = 1;
  if (carryIn) desc.carryIn = lines;
  if (totals) desc.totals = lines;
  return desc;
}

}  // namespace

// The kernels keep no counts of their own (kernels/ unchanged): what a
// recorded dispatch can be seen to do is which bytes of output, scratch and
// totals it writes. Reads are not observed.
TEST_CASE("traffic: on lavapipe, each dispatch writes the bytes the model says") {
  const std::vector<ScanDesc> descs = {
      scanDesc(test::packedDesc(DataType::Float32, {65536}, 0, false)),
      scanDesc(test::packedDesc(DataType::Float32, {1u << 18}, 0, false)),
      scanDesc(test::packedDesc(DataType::Float32, {3, 50000}, 1, false)),
      scanDesc(test::packedDesc(DataType::Float32, {4096, 64}, 0, false)),
      scanDesc(test::packedDesc(DataType::Float16, {20000, 12}, 0, true)),
      scanDesc(test::packedDesc(DataType::BFloat16, {7, 3001}, 1, false)),
      scanDesc(test::packedDesc(DataType::UInt64, {100, 33}, 1, false)),
      // Columns off vectors: on GPU plans, lanes built element by element.
      scanDesc(test::packedDesc(DataType::Float32, {4096, 19}, 0, false)),
      // Few strided lines: on GPU plans, tiles staged along the axis.
      scanDesc(inputStrides(test::packedDesc(DataType::Float32, {3, 50000}, 1, false), {1, 3})),
      // Carried: the copy passes, and the one-pass kernels' line carries on
      // GPU plans (a long row, rows of a workgroup, few long columns).
      carried(test::packedDesc(DataType::Float32, {1u << 18}, 0, false), true, true),
      carried(test::packedDesc(DataType::Float32, {3, 50000}, 1, false), true, true),
      carried(test::packedDesc(DataType::Float32, {40, 200}, 1, false), true, false),
      carried(test::packedDesc(DataType::Float32, {20000, 4}, 0, false), true, true),
      carried(test::packedDesc(DataType::Float32, {3000, 19}, 0, false), true, true),
      carried(test::packedDesc(DataType::Float16, {20000, 12}, 0, true), false, true),
      carried(test::packedDesc(DataType::UInt64, {100, 33}, 1, false), true, false),
      carried(inputStrides(test::packedDesc(DataType::Float32, {2, 30000}, 1, false), {1, 2}), true,
              true),
      // Short columns: on GPU plans, the columns one pass in one tile.
      scanDesc(test::packedDesc(DataType::Float32, {100, 700}, 0, false)),
      carried(test::packedDesc(DataType::Float32, {40, 1001}, 0, false), true, true),
      // Carried lines the chunk walks would take whole: on GPU plans, the
      // columns one pass down to a node, and the rows kernels on few lines.
      carried(test::packedDesc(DataType::Float32, {8, 3000}, 0, false), true, true),
      carried(test::packedDesc(DataType::Float32, {1000, 3}, 0, false), true, true),
      // A strided line with gaps: the harness fills the whole span.
      carried(inputStrides(test::packedDesc(DataType::Float32, {20000}, 0, false), {2}), true,
              true),
  };
  for (test::Profile profile : test::testedProfiles(
           {test::Profile::Native, test::Profile::GpuTuning, test::Profile::ManyPasses})) {
    CAPTURE(std::string(test::profileName(profile)));
    Device& device = test::testDevice(profile);
    for (const ScanDesc& desc : descs) {
      CAPTURE(desc.input.sizes);
      CAPTURE(desc.axis);
      CAPTURE(!desc.carryIn.sizes.empty());
      CAPTURE(!desc.totals.sizes.empty());
      Operator op = device.createOperator(desc);
      const detail::Plan& plan = Device::Access::impl(op).plan;
      for (size_t i = 0; i < plan.dispatches.size(); ++i) {
        const detail::Dispatch& dispatch = plan.dispatches[i];
        CAPTURE(i);
        CAPTURE(std::string(detail::stageName(dispatch.pipeline.stage)));
        detail::DispatchTraffic model = detail::dispatchTraffic(dispatch);
        Written a = runDispatch(device, op, i, 0xA5, 7);
        Written b = runDispatch(device, op, i, 0x5A, 8);
        size_t element = dataTypeSize(dispatch.pipeline.type);
        size_t accumulator = dataTypeSize(detail::accumulationType(dispatch.pipeline.type));
        uint64_t output =
            changedBytes(std::vector<uint8_t>(a.output.size(), 0xA5), a.output,
                         std::vector<uint8_t>(b.output.size(), 0x5A), b.output, element);
        uint64_t totals =
            changedBytes(std::vector<uint8_t>(a.totals.size(), 0xA5), a.totals,
                         std::vector<uint8_t>(b.totals.size(), 0x5A), b.totals, accumulator);
        // Scratch within the fill (every status word: the pass writes
        // there) and past it (carries, line carries and totals).
        auto part = [&](const std::vector<uint8_t>& bytes, bool fill) {
          std::vector<uint8_t> kept = bytes;
          auto first = kept.begin() + static_cast<ptrdiff_t>(dispatch.clearByteOffset);
          auto last = first + static_cast<ptrdiff_t>(dispatch.clearBytes);
          if (fill) return std::vector<uint8_t>(first, last);
          std::fill(first, last, uint8_t{0});
          return kept;
        };
        uint64_t filled = changedBytes(part(a.scratchBefore, true), part(a.scratch, true),
                                       part(b.scratchBefore, true), part(b.scratch, true), 4);
        uint64_t scratch =
            changedBytes(part(a.scratchBefore, false), part(a.scratch, false),
                         part(b.scratchBefore, false), part(b.scratch, false), accumulator);
        size_t outputRole = static_cast<size_t>(detail::BufferRole::Output);
        size_t scratchRole = static_cast<size_t>(detail::BufferRole::Scratch);
        size_t totalsRole = static_cast<size_t>(detail::BufferRole::Totals);
        CHECK(output == model.written[outputRole]);
        CHECK(totals == model.written[totalsRole]);
        CHECK(filled == model.fillBytes);
        CHECK(model.statusBytes <= model.fillBytes);
        CHECK(scratch == model.written[scratchRole] - model.fillBytes - model.statusBytes);
      }
      CHECK(validationMessageCount(device) == 0);
    }
  }
}
