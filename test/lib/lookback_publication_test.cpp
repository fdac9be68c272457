// What the one-pass kernels' look-back leaves in scratch
// (kernels/lookback_tree.glsl): V and I of every node that a later tile may
// read, published and right, and the pattern where no tile completes a
// node; and the outputs. Out of place and in place, with polls and without,
// and with a first look-back that misses every published value
// (Tuning::lookbackMissesPublished), so that it reduces tiles from memory:
// more than it keeps, and in place after they overwrote their inputs, so
// that its sums are wrong until checked, and it publishes only what holds
// none of them, the rest in its repeat. Integer sums, so that the values are plain sums of the
// nodes' elements in any order.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "descriptors.hpp"
#include "device/device_impl.hpp"
#include "host/device_buffer.hpp"
#include "one_shot.hpp"
#include "operator/operator_impl.hpp"
#include "plan/plan.hpp"
#include "reference.hpp"
#include "test_device.hpp"
#include "tuning/tuning.hpp"

using namespace vkscan;

namespace {

// Element k of line `line` of a packed [lines, axisLen] (rows) or
// [axisLen, lines] (columns) tensor.
uint64_t elementAt(const std::vector<uint64_t>& values, bool columns, uint64_t lines,
                   uint64_t axisLen, uint64_t line, uint64_t k) {
  return columns ? values[k * lines + line] : values[line * axisLen + k];
}

std::vector<uint64_t> valuesOf(DataType type, const std::vector<uint8_t>& bytes) {
  size_t size = dataTypeSize(type);
  std::vector<uint64_t> values(bytes.size() / size, 0);
  for (size_t i = 0; i < values.size(); ++i) std::memcpy(&values[i], &bytes[i * size], size);
  return values;
}

// Runs `desc` once and checks what its one dispatch published: with
// `stopLevel` (Tuning::lookbackStopLevel) S > 0, V of every completed node
// up to level S and I below it, and no outputs.
void checkPublished(Device& device, const CumulativeSummationDesc& desc, bool inPlace,
                    uint64_t seed, uint32_t stopLevel = 0) {
  Device::Impl& impl = Device::Access::impl(device);
  Operator op = device.createOperator(desc);
  const detail::Plan& plan = Device::Access::impl(op).plan;
  REQUIRE(plan.dispatches.size() == 1);
  const detail::Dispatch& dispatch = plan.dispatches[0];
  const bool columns = dispatch.pipeline.stage == detail::Stage::ColumnsOnePass;
  REQUIRE((columns || dispatch.pipeline.stage == detail::Stage::RowsOnePass));
  const uint64_t axisLen = desc.input.sizes[desc.axis];
  const uint64_t lines = desc.input.elementCount() / axisLen;
  const uint64_t tile = columns ? 256 : uint64_t{dispatch.pipeline.workgroupSize} * 16;
  const uint64_t tiles = dispatch.params.chunksPerLine;
  REQUIRE(tiles == (axisLen + tile - 1) / tile);

  const DataType type = desc.input.dataType;
  const uint64_t bytes = desc.input.totalBytes();
  std::vector<uint8_t> input = test::randomElements(type, bytes / dataTypeSize(type), seed);
  detail::DeviceBuffer in(impl, bytes);
  detail::DeviceBuffer out(impl, bytes);
  detail::DeviceBuffer scratch(impl, op.scratchSize());
  std::memcpy(in.mapped(), input.data(), bytes);
  test::OneShot shot(impl);
  op.record(shot.commandBuffer(), in.binding(), inPlace ? in.binding() : out.binding(),
            scratch.binding());
  shot.submitAndWait();
  CHECK(validationMessageCount(device) == 0);
  std::vector<uint8_t> expected = input;
  test::referenceCumsum(desc, input, expected);
  const auto* output = static_cast<const uint8_t*>(inPlace ? in.mapped() : out.mapped());
  if (stopLevel == 0) {
    CHECK(test::describeDifference(std::vector<uint8_t>(output, output + bytes), expected,
                                   dataTypeSize(type)) == "");
  }

  // The line's tree below its root: nodes per level, where each starts.
  std::vector<uint64_t> nodes, start;
  uint64_t lineNodes = 0;
  for (uint64_t n = tiles; n > 1; n = (n + 15) / 16) {
    nodes.push_back(n);
    start.push_back(lineNodes);
    lineNodes += n;
  }
  REQUIRE(!nodes.empty());
  // The reference's integer scan: the line's sums up to each element.
  const std::vector<uint64_t> scanned = valuesOf(type, expected);
  const size_t words = dataTypeSize(type) / 4;
  const uint64_t mask = words == 1 ? 0xFFFFFFFFu : ~uint64_t{0};
  const auto* aux = reinterpret_cast<const uint32_t*>(
      static_cast<const uint8_t*>(scratch.mapped()) + dispatch.clearByteOffset);
  auto accumulator = [&](uint64_t index, bool& silent) {
    uint64_t value = 0;
    silent = false;
    for (size_t w = 0; w < words; ++w) {
      uint32_t word = aux[index * words + w];
      silent = silent || word == detail::kLookbackUnpublished;
      value |= uint64_t{word} << (32 * w);
    }
    return value;
  };
  auto sumBefore = [&](uint64_t line, uint64_t k) {
    k = std::min(k, axisLen);
    return k == 0 ? 0 : elementAt(scanned, columns, lines, axisLen, line, k - 1);
  };
  auto sum = [&](uint64_t line, uint64_t first, uint64_t last) {
    return (sumBefore(line, last) - sumBefore(line, first)) & mask;
  };
  const size_t levels = nodes.size();
  const size_t lastValueLevel = stopLevel == 0 ? levels : stopLevel;
  uint64_t published = 0, wrong = 0, missing = 0, stray = 0;
  for (uint64_t line = 0; line < lines; ++line) {
    uint64_t span = tile;  // elements under a node of level d
    for (size_t d = 0; d < nodes.size(); ++d, span *= 16) {
      for (uint64_t j = 0; j < nodes[d]; ++j) {
        // Its last tile completes it; the line's last, partial node at a
        // level above the tiles has none, and no later sibling to read it.
        bool completed = (j + 1) * (span / tile) <= tiles;
        uint64_t index = 2 * (line * lineNodes + start[d] + j);
        bool silentValue = false, silentInclusive = false;
        uint64_t value = accumulator(index, silentValue);
        uint64_t inclusive = accumulator(index + 1, silentInclusive);
        // A look-back stopped below level S publishes V up to S, I below.
        bool valueDue = completed && d <= lastValueLevel;
        bool inclusiveDue = completed && d < lastValueLevel;
        stray += (!valueDue && !silentValue) + (!inclusiveDue && !silentInclusive);
        missing += (valueDue && silentValue) + (inclusiveDue && silentInclusive);
        if (valueDue && !silentValue) {
          ++published;
          wrong += value != sum(line, j * span, (j + 1) * span);
        }
        if (inclusiveDue && !silentInclusive) {
          ++published;
          wrong += inclusive != sum(line, (j & ~uint64_t{15}) * span, (j + 1) * span);
        }
      }
    }
  }
  CAPTURE(published);
  CHECK(published > 0);
  CHECK(missing == 0);
  CHECK(wrong == 0);
  CHECK(stray == 0);
}

// Calls body(device, tile) on each profile of the GPU plans' two tile
// sizes, `tile` being its rows tile in elements.
template <typename Body>
void onOnePassProfiles(Body&& body) {
  for (test::Profile profile :
       test::testedProfiles({test::Profile::GpuTuning, test::Profile::SmallWorkgroups})) {
    const std::string profileName = test::profileName(profile);
    CAPTURE(profileName);
    Device& device = test::testDevice(profile);
    body(device, Device::Access::impl(device).tuning.rowsWorkgroupSize * 16);
  }
}

}  // namespace

TEST_CASE("look-back: every value a later tile may read is published, and right") {
  onOnePassProfiles([](Device& device, uint32_t tile) {
    Device::Impl& impl = Device::Access::impl(device);
    // 1-D lines of 257 tiles (three levels, partial at each; four in tiles
    // of 256) and of 256 (whole groups), rows of 18 tiles, and 64 columns of
    // 18 tiles of 256; 64-bit values as pairs of words.
    const std::vector<CumulativeSummationDesc> descs = {
        test::packedDesc(DataType::UInt32, {257 * tile - 100}, 0),
        test::packedDesc(DataType::UInt32, {256 * tile}, 0),
        test::packedDesc(DataType::UInt32, {3, 17 * tile + 3}, 1),
        test::packedDesc(DataType::UInt32, {17 * 256 + 7, 64}, 0),
        test::packedDesc(DataType::UInt64, {33 * tile + 1}, 0),
    };
    uint64_t seed = 90;
    for (bool misses : {false, true}) {
      CAPTURE(misses);
      test::ScopedRestore<detail::Tuning> restoreTuning(impl.tuning);
      impl.tuning.lookbackMissesPublished = misses;
      for (const CumulativeSummationDesc& desc : descs) {
        // A look that misses every value reduces up to all of its line's
        // earlier tiles on one invocation: past 48 tiles of 4096 that would
        // pass lavapipe's 65,535 loop iterations of an invocation.
        if (misses && desc.input.sizes[desc.axis] > 48 * 4096) continue;
        CAPTURE(test::describe(desc));
        for (bool inPlace : {false, true}) {
          CAPTURE(inPlace);
          checkPublished(device, desc, inPlace, ++seed);
        }
      }
    }
  });
}

// Tuning::rowsLinesFastest: the rows one pass takes tile 0 of every line,
// then tile 1, and so on; each tile still publishes under its own line's
// tree, and in place its collision record under its line and tile. Lines
// of 17 tiles and 3 more elements, lines of two tiles, and 64-bit lines.
TEST_CASE("look-back: tiles across lines first publish every value, and right") {
  onOnePassProfiles([](Device& device, uint32_t tile) {
    Device::Impl& impl = Device::Access::impl(device);
    const std::vector<CumulativeSummationDesc> descs = {
        test::packedDesc(DataType::UInt32, {3, 17 * tile + 3}, 1),
        test::packedDesc(DataType::UInt32, {40, 2 * tile}, 1),
        test::packedDesc(DataType::UInt64, {5, 3 * tile + 1}, 1),
    };
    test::ScopedRestore<detail::Tuning> restoreTuning(impl.tuning);
    impl.tuning.rowsLinesFastest = true;
    uint64_t seed = 190;
    for (bool misses : {false, true}) {
      CAPTURE(misses);
      impl.tuning.lookbackMissesPublished = misses;
      for (const CumulativeSummationDesc& desc : descs) {
        CAPTURE(test::describe(desc));
        Operator op = device.createOperator(desc);
        const detail::Plan& plan = Device::Access::impl(op).plan;
        REQUIRE(plan.dispatches.size() == 1);
        CHECK((plan.dispatches[0].params.flags & VKSCAN_FLAG_LINES_FASTEST) != 0u);
        for (bool inPlace : {false, true}) {
          CAPTURE(inPlace);
          checkPublished(device, desc, inPlace, ++seed);
        }
      }
    }
  });
}

// What keeps the look-back from chaining tiles: a tile publishes I of each
// node it completes (and V of the parent it completes) as soon as it has
// found that level, not after its whole look-back, so that the tiles of the
// next group need not wait for this one's look-back above (on an H200, 1-D
// lines waited group after group: 9.5 ms for 2^28 elements). A look-back
// stopped below level S (Tuning::lookbackStopLevel) must leave V of every
// completed node up to S and I below it: with publication at the end it
// would leave none of them.
TEST_CASE("look-back: a tile that waits above a level has published what it completed below") {
  onOnePassProfiles([](Device& device, uint32_t tile) {
    Device::Impl& impl = Device::Access::impl(device);
    // 1-D lines of three levels (four in tiles of 256), rows and columns of
    // two, and columns of three.
    const std::vector<CumulativeSummationDesc> descs = {
        test::packedDesc(DataType::UInt32, {(uint64_t{1} << 20) + 300}, 0),
        test::packedDesc(DataType::UInt32, {3, 17 * tile + 3}, 1),
        test::packedDesc(DataType::UInt64, {33 * tile + 1}, 0),
        test::packedDesc(DataType::UInt32, {17 * 256 + 7, 64}, 0),
        test::packedDesc(DataType::UInt32, {257 * 256 + 7, 16}, 0),
    };
    test::ScopedRestore<detail::Tuning> restoreTuning(impl.tuning);
    uint64_t seed = 290;
    for (const CumulativeSummationDesc& desc : descs) {
      CAPTURE(test::describe(desc));
      uint64_t tiles = 0;
      {
        impl.tuning.lookbackStopLevel = 0;
        Operator op = device.createOperator(desc);
        tiles = Device::Access::impl(op).plan.dispatches.at(0).params.chunksPerLine;
      }
      uint32_t levels = 0;
      for (uint64_t n = tiles; n > 1; n = (n + 15) / 16) ++levels;
      REQUIRE(levels >= 2);
      for (uint32_t stop = 1; stop < levels; ++stop) {
        CAPTURE(stop);
        impl.tuning.lookbackStopLevel = stop;
        for (bool inPlace : {false, true}) {
          CAPTURE(inPlace);
          checkPublished(device, desc, inPlace, ++seed, stop);
        }
      }
    }
  });
}

TEST_CASE("look-back: no device's tuning misses published values or stops") {
  for (detail::DeviceClass deviceClass : {detail::DeviceClass::Gpu, detail::DeviceClass::Cpu}) {
    for (uint32_t subgroup : {4u, 32u, 64u}) {
      detail::Tuning tuning = detail::tuningFor(deviceClass, subgroup, 1024, {2, 2});
      CHECK_FALSE(tuning.lookbackMissesPublished);
      CHECK(tuning.lookbackStopLevel == 0);
    }
  }
}
