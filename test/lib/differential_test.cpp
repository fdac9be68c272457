// Differential tests against the CPU reference, compared bit for bit for
// every type (floats included: the canonical order makes them exact).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "descriptors.hpp"
#include "device/device_impl.hpp"
#include "host/headless_device.hpp"
#include "plan/plan.hpp"
#include "problem.hpp"
#include "reference.hpp"
#include "test_device.hpp"

using namespace vkscan;

namespace {

const DataType kTypes[] = {DataType::Float32, DataType::Float16, DataType::Int32,
                           DataType::UInt32,  DataType::Int64,   DataType::UInt64,
                           DataType::Float64, DataType::BFloat16};

// The costliest suites spread the types over the profiles they run on: the
// profiles of a run take kTypes' even and odd halves in turn (each half a
// float and an integer of 4 and 8 bytes, or the 2-byte floats and the
// unsigned integers, whose kernels are their twins'), and `salt`, a suite's
// own, turns which profile takes which half, so that every type runs on some
// profile of every run of two profiles or more and each profile meets every
// type across suites. Every type everywhere with test::exhaustive().
bool takesType(const std::vector<test::Profile>& profiles, test::Profile profile, DataType type,
               uint32_t salt) {
  if (test::exhaustive() || profiles.size() < 2) return true;
  size_t position = std::find(profiles.begin(), profiles.end(), profile) - profiles.begin();
  size_t index = std::find(std::begin(kTypes), std::end(kTypes), type) - std::begin(kTypes);
  return (index + position + salt) % 2 == 0;
}

// Runs desc on the device and on the reference and compares every byte of
// the output buffer (gaps of strided outputs included).
// A device a test made itself, with the name its messages give it.
struct NamedDevice {
  Device& device;
  std::string name;
};

NamedDevice named(test::Profile profile) {
  return {test::testDevice(profile), "profile=" + std::string(test::profileName(profile))};
}

void checkAgainstReference(const CumulativeSummationDesc& desc, bool inPlace, uint64_t seed,
                           const NamedDevice& device) {
  std::string what = test::describe(desc) + (inPlace ? " in-place" : "") + " " + device.name;
  CAPTURE(what);
  CAPTURE(seed);
  size_t elementSize = dataTypeSize(desc.input.dataType);
  uint64_t inElements = desc.input.totalBytes() / elementSize + 1;
  std::vector<uint8_t> input = test::randomElements(desc.input.dataType, inElements, seed);
  input.resize(desc.input.totalBytes());
  uint64_t outElements = desc.output.totalBytes() / dataTypeSize(desc.output.dataType) + 1;
  std::vector<uint8_t> initialOutput =
      test::randomElements(desc.output.dataType, outElements, seed + 1);
  initialOutput.resize(desc.output.totalBytes());
  std::vector<uint8_t> expected = inPlace ? input : initialOutput;
  test::referenceCumsum(desc, input, expected);
  std::vector<uint8_t> actual =
      test::runOnDevice(desc, input, inPlace, initialOutput, device.device);
  int64_t difference = test::firstDifference(actual, expected, elementSize);
  CAPTURE(difference);
  const std::string mismatch = test::describeDifference(actual, expected, elementSize);
  CAPTURE(mismatch);
  const std::string plan = difference == -1 ? "" : device.device.createOperator(desc).describe();
  CAPTURE(plan);
  CHECK(difference == -1);
}

void checkAgainstReference(const CumulativeSummationDesc& desc, bool inPlace, uint64_t seed,
                           test::Profile profile = test::Profile::Native) {
  checkAgainstReference(desc, inPlace, seed, named(profile));
}

// The plan the device's current tuning (as a test case set it) gives.
detail::Plan planOn(const Device::Impl& impl, const CumulativeSummationDesc& desc) {
  return detail::makePlan(detail::normalize(desc), impl.planLimits(), impl.tuning);
}

// Every direction x exclusive combination, in place and not.
void checkAllModes(CumulativeSummationDesc desc, uint64_t seed, const NamedDevice& device) {
  for (AxisDirection direction : {AxisDirection::Increasing, AxisDirection::Decreasing}) {
    for (bool exclusive : {false, true}) {
      desc.axisDirection = direction;
      desc.hasExclusiveSum = exclusive;
      checkAgainstReference(desc, false, seed, device);
      checkAgainstReference(desc, true, seed + 7, device);
    }
  }
}

void checkAllModes(const CumulativeSummationDesc& desc, uint64_t seed,
                   test::Profile profile = test::Profile::Native) {
  checkAllModes(desc, seed, named(profile));
}

// For a path every type takes: every mode of FLOAT32; for the other types,
// exclusive and decreasing in place (seed + 1) and `desc` as given, an
// inclusive increasing scan (seed + 2).
void checkTypeModes(const CumulativeSummationDesc& desc, uint64_t seed, const NamedDevice& device) {
  if (desc.input.dataType == DataType::Float32) {
    checkAllModes(desc, seed, device);
    return;
  }
  CumulativeSummationDesc reversed = desc;
  reversed.hasExclusiveSum = true;
  reversed.axisDirection = AxisDirection::Decreasing;
  checkAgainstReference(reversed, true, seed + 1, device);
  checkAgainstReference(desc, false, seed + 2, device);
}

void checkTypeModes(const CumulativeSummationDesc& desc, uint64_t seed, test::Profile profile) {
  checkTypeModes(desc, seed, named(profile));
}

}  // namespace

// Each profile takes every length in half the types, turning with the
// profile so that neighbouring profiles share the lengths between them; each
// half holds a float and an integer of every element size, whose plans are
// those the other half gets (test::exhaustive() for every type everywhere).
TEST_CASE("axis lengths around the node, subgroup, workgroup and tile sizes, every type") {
  const uint32_t lengths[] = {1,    2,    3,    4,    5,    7,     8,     9,    15,  16,
                              17,   31,   32,   33,   127,  128,   129,   255,  256, 257,
                              1023, 4095, 4096, 4097, 8191, 65535, 65536, 65537};
  auto firstHalf = [](DataType type) {
    return type == DataType::Float32 || type == DataType::Float16 || type == DataType::Int64 ||
           type == DataType::Float64;
  };
  for (test::Profile profile : test::testedProfiles()) {
    for (DataType type : kTypes) {
      for (uint32_t i = 0; i < std::size(lengths); ++i) {
        uint32_t turn = i + static_cast<uint32_t>(profile) + (firstHalf(type) ? 0 : 1);
        if (!test::exhaustive() && turn % 2 != 0) continue;
        uint32_t n = lengths[i];
        CumulativeSummationDesc desc = test::packedDesc(type, {n}, 0);
        desc.hasExclusiveSum = n % 2 == 0;
        desc.axisDirection = n % 3 == 0 ? AxisDirection::Decreasing : AxisDirection::Increasing;
        checkAgainstReference(desc, n % 5 == 0, n, profile);
      }
    }
  }
}

// Every mode of every type but UINT32 and UINT64, whose kernels add as those
// of INT32 and INT64 do (two's complement wraps alike), and BFLOAT16, whose
// kernels are FLOAT16's but for the conversions of each element: they take
// the two modes of checkTypeModes(), which between them set each mode flag
// both ways. Each mode is a pipeline of its own, and this was CI's costliest
// case, so by default each profile runs every mode on half the shapes and
// checkTypeModes() on the others, turning with the profile, and half the
// types (takesType(); test::exhaustive() for every mode and type everywhere).
TEST_CASE("every mode on rows, columns and short-line shapes") {
  const std::vector<uint32_t> shapes[] = {{37, 300},  {300, 37},  {5, 6000}, {6000, 40},
                                          {3, 70, 5}, {4, 33, 8}, {700, 48}, {3, 37, 64}};
  const uint32_t axes[] = {1, 0, 1, 0, 1, 1, 0, 1};
  const std::vector<test::Profile> profiles = test::testedProfiles();
  for (test::Profile profile : profiles) {
    for (DataType type : kTypes) {
      if (!takesType(profiles, profile, type, 1)) continue;
      bool twin =
          type == DataType::UInt32 || type == DataType::UInt64 || type == DataType::BFloat16;
      for (uint32_t s = 0; s < std::size(shapes); ++s) {
        CumulativeSummationDesc desc = test::packedDesc(type, shapes[s], axes[s]);
        bool allModes = test::exhaustive() || (s + static_cast<uint32_t>(profile)) % 2 == 0;
        if (twin || !allModes) {
          checkTypeModes(desc, 11 + s, profile);
        } else {
          checkAllModes(desc, 11 + s, profile);
        }
      }
    }
  }
}

// Lines of up to 16 elements back to back: on CPU devices one flat line,
// each invocation walking whole lines (segmentLength), which must give the
// bits of one walk per line. 1000 lines of 3, 5, 10 or 15 end in a partial
// node; 7 lines fit one invocation.
TEST_CASE("contiguous lines of up to 16 elements, walked a few lines per invocation") {
  Device::Impl& native = Device::Access::impl(test::testDevice(test::Profile::Native));
  detail::Plan segmented = planOn(native, test::packedDesc(DataType::Float32, {1000, 3}, 1));
  REQUIRE(segmented.dispatches.size() == 1);
  CHECK(segmented.dispatches[0].pipeline.segmentLength == 3);
  const std::vector<test::Profile> profiles = test::testedProfiles();
  for (test::Profile profile : profiles) {
    for (DataType type : kTypes) {
      if (!takesType(profiles, profile, type, 0)) continue;
      for (uint32_t length : {3u, 16u}) {
        // BFLOAT16: FLOAT16's walks, as in the test above.
        if (type == DataType::BFloat16) {
          checkTypeModes(test::packedDesc(type, {1000, length}, 1), 40 + length, profile);
        } else {
          checkAllModes(test::packedDesc(type, {1000, length}, 1), 40 + length, profile);
        }
      }
    }
    for (DataType type : {DataType::Float32, DataType::Int64}) {
      for (uint32_t length : {1u, 2u, 5u, 8u, 10u, 15u}) {
        checkAllModes(test::packedDesc(type, {1000, length}, 1), 60 + length, profile);
      }
      checkAllModes(test::packedDesc(type, {7, 5}, 1), 80, profile);
      checkAllModes(test::packedDesc(type, {2, 3, 7}, 2), 81, profile);
    }
  }
}

TEST_CASE("long axes: multi-level carries in rows and columns") {
  const std::vector<test::Profile> profiles = test::testedProfiles();
  for (size_t p = 0; p < profiles.size(); ++p) {
    test::Profile profile = profiles[p];
    // Each line on every other profile, turning (all of them exhaustive()).
    auto takes = [&](size_t line) {
      return test::exhaustive() || profiles.size() < 2 || (line + p) % 2 == 0;
    };
    if (takes(0)) {
      checkAllModes(test::packedDesc(DataType::Float32, {(1u << 20) + 3}, 0), 21, profile);
    }
    if (takes(1)) {
      checkAgainstReference(test::packedDesc(DataType::Float16, {(1u << 18) + 1}, 0), false, 22,
                            profile);
    }
    if (takes(0)) {
      checkAgainstReference(test::packedDesc(DataType::BFloat16, {(1u << 18) + 1}, 0), false, 26,
                            profile);
    }
    if (takes(1)) {
      checkAgainstReference(test::packedDesc(DataType::UInt64, {(1u << 18) + 5}, 0), false, 23,
                            profile);
    }
    if (takes(0)) {
      checkAgainstReference(test::packedDesc(DataType::Float32, {(1u << 17) + 9, 40}, 0), false, 24,
                            profile);
    }
    if (takes(1)) {
      checkAgainstReference(test::packedDesc(DataType::Float64, {3, (1u << 19) + 1, 2}, 1), true,
                            25, profile);
    }
  }
}

namespace {

// Whether a rows kernels' tile of `workgroup` nodes, as accumulators, fits
// the device's shared memory beside 4 KiB of the rest (kernels/rows.glsl).
bool rowsTileFits(const Device::Impl& impl, uint32_t workgroup, DataType type) {
  uint64_t tileBytes = uint64_t{workgroup} * 16 * dataTypeSize(detail::accumulationType(type));
  return tileBytes + 4096 <= impl.planLimits().maxSharedMemoryBytes;
}

// Rows along the last axis, packed or `padding` elements apart beyond
// their length.
struct RowsShape {
  std::vector<uint32_t> sizes;
  uint32_t padding;
};

// On the GPU-tuned profiles, for FLOAT32, FLOAT16 and UINT64: a rows scan
// stages where its tile fits and its lines are whole vectors that fill a
// subgroup's nodes or lie back to back (then flagged packed); a one pass,
// where `onePass` lets the shape take one, wherever its tile fits. Then
// every mode against the reference.
void checkStagedRows(const std::vector<RowsShape>& shapes, uint64_t seed, bool onePass,
                     std::initializer_list<test::Profile> profiles = {
                         test::Profile::GpuTuning, test::Profile::SmallWorkgroups}) {
  for (test::Profile profile : test::testedProfiles(profiles)) {
    Device::Impl& impl = Device::Access::impl(test::testDevice(profile));
    CAPTURE(std::string(test::profileName(profile)));
    for (DataType type : {DataType::Float32, DataType::Float16, DataType::UInt64}) {
      for (const RowsShape& shape : shapes) {
        CumulativeSummationDesc desc =
            test::packedDesc(type, shape.sizes, static_cast<uint32_t>(shape.sizes.size() - 1));
        if (shape.padding != 0) {
          desc.input.strides = {shape.sizes[1] + shape.padding, 1};
          desc.output.strides = desc.input.strides;
        }
        CAPTURE(type);
        CAPTURE(shape.sizes);
        detail::Plan plan = planOn(impl, desc);
        REQUIRE(plan.dispatches.size() == 1);
        const detail::Dispatch& d = plan.dispatches[0];
        bool fits = rowsTileFits(impl, d.pipeline.workgroupSize, type);
        if (d.pipeline.stage == detail::Stage::RowsScan) {
          bool packed = (d.params.flags & VKSCAN_FLAG_PACKED_LINES) != 0u;
          uint32_t segment = impl.tuning.rowsStagedSegment != 0 ? impl.tuning.rowsStagedSegment
                                                                : impl.planLimits().subgroupSize;
          bool fillsSubgroup = (uint64_t{1} << d.params.shape) >=
                               std::min<uint64_t>(segment, d.pipeline.workgroupSize);
          bool whole = shape.sizes.back() % test::vectorElements(type) == 0;
          bool nodeLong = shape.sizes.back() >= 16;
          CHECK(packed == (d.pipeline.stagedNodes && shape.padding == 0));
          CHECK(d.pipeline.stagedNodes ==
                (fits && (whole || nodeLong) && (shape.padding == 0 || fillsSubgroup)));
        } else {
          REQUIRE(onePass);
          REQUIRE(d.pipeline.stage == detail::Stage::RowsOnePass);
          CHECK(d.pipeline.stagedNodes == fits);
        }
        CHECK(d.pipeline.stagedSegment ==
              (d.pipeline.stagedNodes ? impl.tuning.rowsStagedSegment : 0));
        checkTypeModes(desc, seed++, profile);
      }
    }
  }
}

}  // namespace

// Issue 47: the rows kernels move whole tiles through shared memory where it
// holds one (kernels/rows.glsl kStagedNodes), so that neighbouring lanes
// access neighbouring vectors; a partial last tile off whole vectors, and
// every tile where the tuning says no, move node by node. Most suites run the staged
// tiles already (4-byte types in workgroups of 256, every type in workgroups
// of 16); here the plans say which path runs, and both run for FLOAT32 on
// 256, and for the emulated 64-bit and packed-halves builds on 16 (lavapipe's
// 32 KiB hold no 64-bit tile of 4096).
TEST_CASE("rows kernels: tiles staged through shared memory and node by node") {
  struct Config {
    test::Profile profile;
    uint32_t workgroup;
    bool staged;
    std::vector<DataType> types;
  };
  const Config configs[] = {
      {test::Profile::GpuTuning, 256, false, {DataType::Float32}},
      {test::Profile::GpuTuning, 256, true, {DataType::Float32, DataType::UInt64}},
      {test::Profile::EmulatedGpuTuning, 16, true, {DataType::UInt64, DataType::Float16}},
  };
  const std::vector<test::Profile> profiles =
      test::testedProfiles({test::Profile::GpuTuning, test::Profile::EmulatedGpuTuning});
  for (const Config& config : configs) {
    if (std::find(profiles.begin(), profiles.end(), config.profile) == profiles.end()) continue;
    Device::Impl& impl = Device::Access::impl(test::testDevice(config.profile));
    test::ScopedRestore<detail::Tuning> restoreTuning(impl.tuning);
    impl.tuning.rowsWorkgroupSize = config.workgroup;
    impl.tuning.rowsStagedNodes = config.staged;
    const uint32_t tile = config.workgroup * 16;
    for (DataType type : config.types) {
      bool fits = rowsTileFits(impl, config.workgroup, type);
      CAPTURE(fits);
      // Five whole tiles and a partial one; rows of one tile each.
      for (const CumulativeSummationDesc& desc :
           {test::packedDesc(type, {5 * tile + 48}, 0), test::packedDesc(type, {6, tile}, 1)}) {
        detail::Plan plan = planOn(impl, desc);
        REQUIRE(plan.dispatches.size() == 1);
        CHECK(plan.dispatches[0].pipeline.workgroupSize == config.workgroup);
        CHECK(plan.dispatches[0].pipeline.stagedNodes == (config.staged && fits));
        checkTypeModes(desc, 120 + tile, config.profile);
      }
    }
  }
}

// Lines shorter than a subgroup's nodes stage too where they lie back to
// back (VKSCAN_FLAG_PACKED_LINES): a segment then holds 1 to 8 whole lines
// (subgroups of 8 or 4, lines of 16 to 64), the last segment partly past
// the tensor's lines; padded lines move node by node.
TEST_CASE("rows kernels: tiles staged across packed short lines") {
  checkStagedRows({{{1001, 16}, 0},
                   {{3, 7, 32}, 0},
                   {{45, 64}, 0},
                   {{1, 16}, 0},
                   {{13, 128}, 0},
                   {{200, 32}, 8}},
                  400, false);
}

// Lines of whole vectors short of their nodes stage too: the vectors past a
// line's end (its first in memory where the axis decreases) are neither
// loaded nor stored, the identity in their place. Packed lines of 12 and 20,
// single lines of 300 and 1000 (some subgroups wholly past the end), padded
// lines of 2000, the last tile of one-pass lines of 5000; lines of 18 are
// whole vectors of UINT64 alone.
TEST_CASE("rows kernels: tiles staged on lines short of their nodes") {
  checkStagedRows({{{1000, 12}, 0},
                   {{77, 20}, 0},
                   {{37, 300}, 0},
                   {{5, 1000}, 0},
                   {{1, 8}, 0},
                   {{9, 2000}, 4},
                   {{3, 5000}, 0},
                   {{50, 18}, 0}},
                  450, true);
}

// Lines a node long or more that are not whole vectors stage element by
// element (kernels/rows.glsl loadStagedElements()): packed lines of 77, 17
// and 33, lines of 1001 alone and packed, padded lines of 2002 (whole
// vectors of UINT64 alone), one-pass lines of 4097 and 5003 off vectors, and
// a single line of 8195 on vectors whose last tile ends mid-vector. Lines
// of 15 stay node by node. Then the emulated 64-bit build's elements, in
// workgroups of 16.
TEST_CASE("rows kernels: tiles staged element by element off vectors") {
  const std::vector<test::Profile> profiles = test::testedProfiles(
      {test::Profile::GpuTuning, test::Profile::SmallWorkgroups, test::Profile::EmulatedGpuTuning});
  auto tested = [&profiles](test::Profile profile) {
    return std::find(profiles.begin(), profiles.end(), profile) != profiles.end();
  };
  if (tested(test::Profile::GpuTuning) || tested(test::Profile::SmallWorkgroups)) {
    checkStagedRows({{{2000, 77}, 0},
                     {{300, 17}, 0},
                     {{64, 33}, 0},
                     {{5, 1001}, 0},
                     {{1, 1001}, 0},
                     {{9, 2002}, 2},
                     {{3, 4097}, 0},
                     {{2, 5003}, 0},
                     {{1, 8195}, 0},
                     {{40, 15}, 0}},
                    500, true);
  }
  if (!tested(test::Profile::EmulatedGpuTuning)) return;
  Device::Impl& impl = Device::Access::impl(test::testDevice(test::Profile::EmulatedGpuTuning));
  test::ScopedRestore<detail::Tuning> restoreTuning(impl.tuning);
  impl.tuning.rowsWorkgroupSize = 16;
  for (DataType type : {DataType::UInt64, DataType::Float16}) {
    for (const std::vector<uint32_t>& sizes :
         std::vector<std::vector<uint32_t>>{{300, 77}, {3, 1001}}) {
      CumulativeSummationDesc desc = test::packedDesc(type, sizes, 1);
      CAPTURE(type);
      CAPTURE(sizes);
      detail::Plan plan = planOn(impl, desc);
      REQUIRE(plan.dispatches.size() == 1);
      CHECK(plan.dispatches[0].pipeline.stagedNodes == rowsTileFits(impl, 16, type));
      CHECK_FALSE(plan.dispatches[0].pipeline.vectorLoads);
      checkTypeModes(desc, 520, test::Profile::EmulatedGpuTuning);
    }
  }
}

// A staged segment is a subgroup's nodes (kernels/rows.glsl), so subgroups
// of 32 (NVIDIA's), 64 (AMD's) and up to 128 stage segments wider than any
// lavapipe runs: more packed lines a segment, more vectors past a short
// line's end. Here lavapipe's subgroups run segments of 32, 64 and 128
// joined by workgroup barriers (Tuning::rowsStagedSegment, a test's seam):
// packed short lines, lines short of their nodes, lines off vectors, and
// one-pass lines.
TEST_CASE("rows kernels: staged segments of 32 to 128 lanes, as GPUs' subgroups stage them") {
  // Workgroups of 256: those of 16 hold no wider segment.
  for (test::Profile profile : test::testedProfiles({test::Profile::GpuTuning})) {
    Device::Impl& impl = Device::Access::impl(test::testDevice(profile));
    test::ScopedRestore<detail::Tuning> restoreTuning(impl.tuning);
    for (uint32_t segment : {32u, 64u, 128u}) {
      CAPTURE(segment);
      impl.tuning.rowsStagedSegment = segment;
      checkStagedRows({{{1001, 16}, 0},
                       {{45, 64}, 0},
                       {{13, 128}, 0},
                       {{200, 32}, 8},
                       {{1000, 12}, 0},
                       {{37, 300}, 0},
                       {{9, 2000}, 4},
                       {{300, 17}, 0},
                       {{5, 1001}, 0},
                       {{2, 5003}, 0},
                       {{1, 8195}, 0}},
                      600 + segment, true, {profile});
    }
  }
}

TEST_CASE("single pass with look-back: strided axes, padded layouts, 16 tiles") {
  const std::vector<test::Profile> profiles = test::testedProfiles();
  for (test::Profile profile : profiles) {
    for (DataType type :
         {DataType::Float32, DataType::Float16, DataType::BFloat16, DataType::Int64}) {
      if (!takesType(profiles, profile, type, 1)) continue;
      // A strided axis whose inner extent (2) is too narrow to interleave.
      checkAllModes(test::packedDesc(type, {3, 9000, 2}, 1), 31, profile);
      // Whole 16-tile lines, padded between lines on both sides.
      CumulativeSummationDesc padded = test::packedDesc(type, {3, 65536}, 1);
      padded.input.strides = {65536 + 8, 1};
      padded.output.strides = {65536 + 24, 1};
      padded.hasExclusiveSum = true;
      checkAgainstReference(padded, false, 32, profile);
    }
  }
}

// Fewer than 16 lines of a strided axis, which chunk walks would scan in
// three passes, take the rows kernels in one dispatch, their tiles staged
// along the axis (VKSCAN_FLAG_STAGED_ALONG_AXIS): one strided line, read
// strided into a packed output; one element broadcast along a line (stride
// 0); lines interleaved (tiles across lines first); lines apart of
// different strides in and out; and, where a tile is 4096 elements, lines of
// one tile (rows_scan). Workgroups of 16 take lines of 17 to 65 tiles: two
// levels of look-back; so does the emulated build (64-bit integers as pairs
// of words, FLOAT16 as packed halves), tuned to workgroups of 16. Every mode
// of FLOAT32, two of the others, out of place and, where input and output
// share their layout, in place; each type where its tile fits shared memory
// (UINT64 in workgroups of 16 on lavapipe).
TEST_CASE("rows kernels: few lines of a strided axis in one dispatch, staged along the axis") {
  struct StridedShape {
    std::vector<uint32_t> sizes;
    uint32_t axis;
    std::vector<uint32_t> inStrides;
    std::vector<uint32_t> outStrides;  // empty: packed
  };
  uint64_t seed = 4800;
  for (test::Profile profile :
       test::testedProfiles({test::Profile::GpuTuning, test::Profile::SmallWorkgroups,
                             test::Profile::EmulatedGpuTuning})) {
    NamedDevice device = named(profile);
    Device::Impl& impl = Device::Access::impl(device.device);
    CAPTURE(device.name);
    test::ScopedRestore<detail::Tuning> restoreTuning(impl.tuning);
    if (profile == test::Profile::EmulatedGpuTuning) impl.tuning.rowsWorkgroupSize = 16;
    const uint32_t workgroup = impl.tuning.rowsWorkgroupSize;
    const uint32_t tile = workgroup * 16;
    // Lines of several tiles on workgroups of 256 too.
    const uint32_t unit = std::max(tile, 4096u);
    std::vector<StridedShape> shapes = {
        {{3 * unit + 5}, 0, {2}, {}},
        {{2 * unit + 9}, 0, {3}, {3}},
        {{2 * unit + 3}, 0, {0}, {}},
        {{3, 2 * unit + 7}, 1, {1, 3}, {1, 3}},
        {{5, 4 * unit + 1}, 1, {8 * unit + 5, 2}, {4 * unit + 3, 1}},
    };
    if (tile == 4096) shapes.push_back({{10, tile - 7}, 1, {1, 10}, {1, 10}});
    const bool emulated = profile == test::Profile::EmulatedGpuTuning;
    for (DataType type : {DataType::Float32, DataType::Float16, DataType::UInt64}) {
      if ((emulated && type == DataType::Float32) || !rowsTileFits(impl, workgroup, type)) continue;
      CAPTURE(type);
      for (const StridedShape& shape : shapes) {
        CumulativeSummationDesc desc = test::packedDesc(type, shape.sizes, shape.axis);
        desc.input.strides = shape.inStrides;
        if (!shape.outStrides.empty()) desc.output.strides = shape.outStrides;
        CAPTURE(test::describe(desc));
        detail::Plan plan = planOn(impl, desc);
        REQUIRE(plan.dispatches.size() == 1);
        const detail::Dispatch& d = plan.dispatches[0];
        bool oneTile = desc.input.sizes[shape.axis] <= tile;
        CHECK(d.pipeline.stage == (oneTile ? detail::Stage::RowsScan : detail::Stage::RowsOnePass));
        CHECK(d.pipeline.stagedNodes);
        CHECK((d.params.flags & VKSCAN_FLAG_STAGED_ALONG_AXIS) != 0u);
        CHECK_FALSE(d.pipeline.reverse);
        bool acrossLines = !oneTile && shape.sizes.size() > 1;
        CHECK(((d.params.flags & VKSCAN_FLAG_LINES_FASTEST) != 0u) == acrossLines);
        bool sameLayout = shape.outStrides == shape.inStrides;
        for (AxisDirection direction : {AxisDirection::Increasing, AxisDirection::Decreasing}) {
          for (bool exclusive : {false, true}) {
            if (type != DataType::Float32 &&
                exclusive != (direction == AxisDirection::Decreasing)) {
              continue;
            }
            desc.axisDirection = direction;
            desc.hasExclusiveSum = exclusive;
            checkAgainstReference(desc, false, seed++, device);
            if (sameLayout) checkAgainstReference(desc, true, seed++, device);
          }
        }
      }
    }
  }
}

// A strided shape whose lines are off vectors, for the columns one pass.
struct OffVectorShape {
  std::vector<uint32_t> sizes;
  uint32_t axis;
  std::vector<uint32_t> strides;  // empty: packed
};

// Each shape planned as one columns dispatch with lanes built element by
// element and run against the reference: two modes of each type (every
// mode of FLOAT32), the types spread over the GPU-tuned profiles, whose
// workgroups hold 256 invocations (takesType(): the emulated profile takes
// the 2-byte floats, on packed halves, and UINT64, on pairs of words).
// scalarLines: the tuning's Tuning::columnsScalarLines, below which each
// shape must first plan chunk walks, or the columns one pass already where
// the rows kernels cannot take it (no room for their tile); 0 keeps the
// profile's.
void checkOffVectorColumns(const std::vector<OffVectorShape>& shapes, uint64_t seed, uint32_t salt,
                           uint64_t scalarLines) {
  const std::vector<test::Profile> profiles =
      test::testedProfiles({test::Profile::GpuTuning, test::Profile::EmulatedGpuTuning});
  for (test::Profile profile : profiles) {
    Device& device = test::testDevice(profile);
    Device::Impl& impl = Device::Access::impl(device);
    CAPTURE(std::string(test::profileName(profile)));
    test::ScopedRestore<detail::Tuning> restoreTuning(impl.tuning);
    const uint64_t profileLines = impl.tuning.columnsScalarLines;
    for (DataType type : kTypes) {
      if (!device.supports(type) || !takesType(profiles, profile, type, salt)) continue;
      for (const OffVectorShape& shape : shapes) {
        CumulativeSummationDesc desc = test::packedDesc(type, shape.sizes, shape.axis);
        if (!shape.strides.empty()) {
          desc.input.strides = shape.strides;
          desc.output.strides = shape.strides;
        }
        CAPTURE(test::describe(desc));
        if (scalarLines != 0) {
          impl.tuning.columnsScalarLines = profileLines;
          bool rowsCan = rowsTileFits(impl, impl.tuning.rowsWorkgroupSize, type);
          CHECK((planOn(impl, desc).dispatches[0].pipeline.stage ==
                 detail::Stage::ColumnsOnePass) == !rowsCan);
          impl.tuning.columnsScalarLines = scalarLines;
        }
        detail::Plan plan = planOn(impl, desc);
        REQUIRE(plan.dispatches.size() == 1);
        CHECK(plan.dispatches[0].pipeline.stage == detail::Stage::ColumnsOnePass);
        CHECK(plan.dispatches[0].pipeline.scalarLanes);
        checkTypeModes(desc, seed++, profile);
      }
    }
  }
}

// Issue 47: strided axes whose lines are off vectors (an inner extent that
// is no multiple of a vector, rows an odd number of elements apart, lines
// with no contiguous dimension) take the columns one pass, its lanes built
// element by element (PipelineKey::scalarLanes), where at least 16 lines
// would otherwise take three chunk passes: one group and a lane of one line,
// several groups, lines across two dimensions, and 18 tiles (two levels of
// look-back).
TEST_CASE("columns one pass: lanes built element by element off vectors") {
  checkOffVectorColumns({{{1000, 17}, 0, {}},
                         {{300, 70}, 0, {71, 1}},
                         {{20, 400, 3}, 1, {1280, 3, 1}},
                         {{1000, 20}, 0, {41, 2}},
                         {{4400, 19}, 0, {}}},
                        600, 0, 0);
}

// Fewer than 16 lines off vectors keep the chunk walks by default
// (Tuning::columnsScalarLines), which a tuning may lower: the columns one
// pass with most of its lanes empty, down to one strided line, is the same
// canonical scan (on problems past chunkSmallProblem, which stay one walk).
TEST_CASE("columns one pass: fewer than 16 lines off vectors, where a tuning takes them") {
  checkOffVectorColumns({{{6000, 3}, 0, {}},
                         {{3000, 7}, 0, {}},
                         {{4400, 15}, 0, {}},
                         {{9000, 2}, 0, {5, 2}},
                         {{20000}, 0, {3}}},
                        650, 1, 1);
}

// Lines of one columns tile (17 to 256 elements along a strided axis) that
// the chunk walks would split into chunks of a node, three passes, take the
// columns one pass without look-back: no scratch, and a lane spans only the
// nodes its lines fill, so that a workgroup takes 256 >> shape lanes (2 to
// 16 nodes, 128 to 16 lanes). Vector lanes and lanes built element by
// element, groups left partly empty, lines across two dimensions; every
// mode of FLOAT32, two of the other types, spread over the GPU-tuned
// profiles.
TEST_CASE("columns one pass: lines of one tile, more lanes a workgroup, no look-back") {
  struct Shape {
    std::vector<uint32_t> sizes;
    uint32_t axis;
    std::vector<uint32_t> strides;  // empty: packed
    uint32_t nodesLog2;
    bool scalarLanes;
  };
  const Shape shapes[] = {
      {{17, 4100}, 0, {}, 1, false},     {{32, 2100}, 0, {}, 1, false},
      {{100, 700}, 0, {}, 3, false},     {{256, 300}, 0, {}, 4, false},
      {{129, 201}, 0, {}, 4, true},      {{7, 60, 260}, 1, {}, 2, false},
      {{50, 400}, 0, {401, 1}, 2, true},
  };
  const std::vector<test::Profile> profiles =
      test::testedProfiles({test::Profile::GpuTuning, test::Profile::EmulatedGpuTuning});
  uint64_t seed = 680;
  for (test::Profile profile : profiles) {
    Device& device = test::testDevice(profile);
    const Device::Impl& impl = Device::Access::impl(device);
    CAPTURE(std::string(test::profileName(profile)));
    for (DataType type : kTypes) {
      if (!device.supports(type) || !takesType(profiles, profile, type, 0)) continue;
      for (const Shape& shape : shapes) {
        CumulativeSummationDesc desc = test::packedDesc(type, shape.sizes, shape.axis);
        if (!shape.strides.empty()) desc.input.strides = desc.output.strides = shape.strides;
        CAPTURE(test::describe(desc));
        detail::Plan plan = planOn(impl, desc);
        REQUIRE(plan.dispatches.size() == 1);
        const detail::Dispatch& d = plan.dispatches[0];
        CHECK(d.pipeline.stage == detail::Stage::ColumnsOnePass);
        CHECK(d.params.chunksPerLine == 1);
        CHECK(d.params.shape == shape.nodesLog2);
        CHECK(d.pipeline.scalarLanes == shape.scalarLanes);
        CHECK(d.clearBytes == 0);
        CHECK(plan.scratchBytes == 0);
        checkTypeModes(desc, seed++, profile);
      }
    }
  }
}

// The columns one pass in workgroups of 128 and 64 (Tuning::
// columnsWorkgroupSize: 8 and 4 lanes of lines a tile, 8 lanes on devices
// that allow only Vulkan's least workgroups) gives the bits of 256: only the
// lines a workgroup takes change. Vector lanes and lanes built element by
// element, a last group partly empty, two levels of look-back (18 tiles),
// lines of one tile (more lanes of fewer nodes), lines across two
// dimensions; every mode of FLOAT32, two of the other types, each size with
// the look-back waiting and never waiting (its fallback).
TEST_CASE("columns one pass: workgroups of 128 and 64 give the same bits") {
  // Each shape with the tiles of its lines.
  const std::pair<OffVectorShape, uint32_t> shapes[] = {
      {{{1000, 40}, 0, {}}, 4}, {{{4400, 19}, 0, {}}, 18}, {{{600, 37}, 0, {38, 1}}, 3},
      {{{100, 100}, 0, {}}, 1}, {{{30, 520}, 0, {}}, 1},   {{{5, 300, 12}, 1, {}}, 2},
  };
  uint64_t seed = 740;
  for (test::Profile profile : test::testedProfiles({test::Profile::GpuTuning})) {
    Device::Impl& impl = Device::Access::impl(test::testDevice(profile));
    test::ScopedRestore<detail::Tuning> restoreTuning(impl.tuning);
    for (uint32_t workgroup : {128u, 64u}) {
      CAPTURE(workgroup);
      impl.tuning.columnsWorkgroupSize = workgroup;
      for (DataType type : {DataType::Float32, DataType::Float16, DataType::UInt64}) {
        for (const auto& [shape, tiles] : shapes) {
          CumulativeSummationDesc desc = test::packedDesc(type, shape.sizes, shape.axis);
          if (!shape.strides.empty()) desc.input.strides = desc.output.strides = shape.strides;
          CAPTURE(test::describe(desc));
          impl.tuning.lookbackPolls = seed % 2 == 0 ? 0 : 256;
          detail::Plan plan = planOn(impl, desc);
          REQUIRE(plan.dispatches.size() == 1);
          const detail::Dispatch& d = plan.dispatches[0];
          CHECK(d.pipeline.stage == detail::Stage::ColumnsOnePass);
          CHECK(d.pipeline.workgroupSize == workgroup);
          CHECK(d.params.chunksPerLine == tiles);
          checkTypeModes(desc, seed++, profile);
        }
      }
    }
  }
}

// A small problem (chunkSmallProblem) of strided lines longer than a node
// is no longer walked whole on GPUs (a load's latency per node, in
// sequence): past a level-3 node ([4097, 32] along axis 0) the chunk walks
// took three passes, below it ([4096, 32]) two invocations walked 4096
// steps each. The columns one pass takes them, and the rows kernels where
// fewer lines lie off vectors; lines of a node keep their walk.
TEST_CASE("columns one pass: small strided problems spread their lines, in one dispatch") {
  struct Small {
    std::vector<uint32_t> sizes;
    std::vector<uint32_t> strides;  // empty: packed
    detail::Stage stage;
  };
  const Small shapes[] = {
      {{4097, 32}, {}, detail::Stage::ColumnsOnePass},
      {{5000, 4}, {}, detail::Stage::ColumnsOnePass},
      {{4096, 32}, {}, detail::Stage::ColumnsOnePass},
      {{1000, 16}, {}, detail::Stage::ColumnsOnePass},
      {{300, 3}, {}, detail::Stage::RowsScan},
      {{40, 6}, {}, detail::Stage::RowsScan},
      {{3000}, {3}, detail::Stage::RowsScan},
      {{16, 40}, {}, detail::Stage::ChunkScanInterleaved},
  };
  uint64_t seed = 690;
  for (test::Profile profile : test::testedProfiles({test::Profile::GpuTuning})) {
    Device& device = test::testDevice(profile);
    const Device::Impl& impl = Device::Access::impl(device);
    for (DataType type : {DataType::Float32, DataType::Float16, DataType::UInt64}) {
      for (const Small& shape : shapes) {
        CumulativeSummationDesc desc = test::packedDesc(type, shape.sizes, 0);
        if (!shape.strides.empty()) desc.input.strides = desc.output.strides = shape.strides;
        CAPTURE(test::describe(desc));
        detail::Plan plan = planOn(impl, desc);
        REQUIRE(plan.dispatches.size() == 1);
        detail::Stage stage = plan.dispatches[0].pipeline.stage;
        if (type == DataType::Float16 && shape.stage != detail::Stage::ChunkScanInterleaved) {
          // Lines on vectors of 8 or off them: either one pass, never a walk.
          CHECK((stage == detail::Stage::ColumnsOnePass || stage == detail::Stage::RowsScan ||
                 stage == detail::Stage::RowsOnePass));
        } else if (type == DataType::UInt64 && shape.stage == detail::Stage::RowsScan) {
          // No 64-bit rows tile fits lavapipe's 32 KiB of shared memory.
          CHECK(stage == detail::Stage::ColumnsOnePass);
        } else {
          CHECK(stage == shape.stage);
        }
        checkTypeModes(desc, seed++, profile);
      }
    }
  }
}

// Fewer than 16 lines of a strided axis off vectors, where no rows tile
// fits shared memory (64-bit types on lavapipe's 32 KiB, as on Mali and
// Apple GPUs) or the device has no subgroup shuffles: the chunk walks read
// the input twice in three passes (five dispatches for [2^24, 3] UINT64),
// the columns one pass reads it once, its lanes built element by element
// and mostly empty. One strided line, three interleaved, five apart; a
// line of one tile; and FLOAT32 with the device's subgroup shuffles hidden.
TEST_CASE("columns one pass: few lines off vectors where the rows kernels cannot take them") {
  struct Few {
    std::vector<uint32_t> sizes;
    uint32_t axis;
    std::vector<uint32_t> strides;  // empty: packed
  };
  const Few shapes[] = {
      {{9000}, 0, {2}},
      {{3, 6000}, 1, {1, 3}},
      {{5, 5000}, 1, {10001, 2}},
      {{200, 3}, 0, {}},
  };
  uint64_t seed = 720;
  for (test::Profile profile : test::testedProfiles({test::Profile::GpuTuning})) {
    Device::Impl& impl = Device::Access::impl(test::testDevice(profile));
    test::ScopedRestore<DeviceCapabilities> restoreCapabilities(impl.capabilities);
    const VkSubgroupFeatureFlags operations = impl.capabilities.subgroupOperations;
    for (DataType type : {DataType::UInt64, DataType::Int64, DataType::Float32}) {
      // Where a tile fits: as on a device without subgroup shuffles.
      impl.capabilities.subgroupOperations = operations;
      if (rowsTileFits(impl, impl.tuning.rowsWorkgroupSize, type)) {
        impl.capabilities.subgroupOperations &=
            ~VkSubgroupFeatureFlags{VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT};
      }
      CAPTURE(type);
      for (const Few& shape : shapes) {
        CumulativeSummationDesc desc = test::packedDesc(type, shape.sizes, shape.axis);
        if (!shape.strides.empty()) desc.input.strides = desc.output.strides = shape.strides;
        CAPTURE(test::describe(desc));
        detail::Plan plan = planOn(impl, desc);
        REQUIRE(plan.dispatches.size() == 1);
        CHECK(plan.dispatches[0].pipeline.stage == detail::Stage::ColumnsOnePass);
        CHECK(plan.dispatches[0].pipeline.scalarLanes);
        checkTypeModes(desc, seed++, profile);
      }
    }
  }
}

// Mesa's ANV compiles a pipeline that does not require full subgroups at 8
// or 16 lanes while gl_SubgroupSize reads 32, and the rows kernels number
// lanes as if every subgroup were full. A device that varies its subgroup
// size must therefore plan them only with computeFullSubgroups enabled;
// lavapipe, made to report sizes from half its own, runs both plans.
TEST_CASE("rows kernels: only in full subgroups where the subgroup size may vary") {
  const std::vector<uint32_t> shapes[] = {{16384}, {64, 4100}, {300, 16}};
  uint64_t seed = 1720;
  for (test::Profile profile : test::testedProfiles({test::Profile::GpuTuning})) {
    Device::Impl& impl = Device::Access::impl(test::testDevice(profile));
    test::ScopedRestore<DeviceCapabilities> restoreCapabilities(impl.capabilities);
    REQUIRE(impl.planLimits().subgroupShuffles);
    for (bool fullSubgroups : {false, true}) {
      CAPTURE(fullSubgroups);
      impl.capabilities.minSubgroupSize = std::max(1u, impl.capabilities.subgroupSize / 2);
      impl.capabilities.maxSubgroupSize = impl.capabilities.subgroupSize;
      impl.capabilities.computeFullSubgroups = fullSubgroups;
      CHECK(impl.planLimits().subgroupShuffles == fullSubgroups);
      for (const std::vector<uint32_t>& sizes : shapes) {
        CumulativeSummationDesc desc =
            test::packedDesc(DataType::Float32, sizes, static_cast<uint32_t>(sizes.size() - 1));
        CAPTURE(test::describe(desc));
        detail::Plan plan = planOn(impl, desc);
        bool subgroupStages = false;
        for (const detail::Dispatch& d : plan.dispatches) {
          subgroupStages |= detail::usesSubgroupOperations(d.pipeline.stage);
        }
        CHECK(subgroupStages == fullSubgroups);
        checkAllModes(desc, seed++, profile);
      }
    }
  }
}

// Regression: with 32-invocation workgroups (4 subgroups) lavapipe left the
// outputs of later subgroups unwritten (it runs memoryBarrierBuffer() as a
// workgroup execution barrier, which the subgroups reached different numbers
// of times); the pass now runs a subgroup per workgroup. With many tiles, as
// the planner then chose 32-invocation workgroups (the size limit raised in
// case a tuning lowers it).
// Many lines would be walked whole by default: the threshold is raised.
TEST_CASE("single pass with look-back: many tiles") {
  for (test::Profile profile :
       test::testedProfiles({test::Profile::Native, test::Profile::DeviceAddresses})) {
    Device::Impl& impl = Device::Access::impl(test::testDevice(profile));
    test::ScopedRestore<detail::Tuning> restoreTuning(impl.tuning);
    // The CPU-device planner's path, on whatever device runs the test.
    impl.tuning.deviceClass = detail::DeviceClass::Cpu;
    impl.tuning.chunkLookbackMaxElements = uint64_t{1} << 24;
    impl.tuning.wholeLineInvocations = UINT64_MAX;
    // Whatever blocks of workgroups this host's workers would take.
    impl.tuning.cpuWorkers = 0;
    const CumulativeSummationDesc few = test::packedDesc(DataType::Float32, {16, 65536}, 1);
    const CumulativeSummationDesc many = test::packedDesc(DataType::Int32, {300, 8192}, 1);
    for (const CumulativeSummationDesc& desc : {few, many}) {
      detail::Plan plan = planOn(impl, desc);
      REQUIRE(plan.dispatches.size() == 1);
      CHECK(plan.dispatches[0].pipeline.stage == detail::Stage::ChunkLookback);
    }
    checkAllModes(few, 36, profile);
    checkAgainstReference(many, false, 37, profile);
  }
}

// On a CPU device the pass walks the lines of each block of workgroups a
// worker takes last first (kernels/chunk_lookback.comp lineAndTile()): every
// tile once, with its own carry, where blocks end inside lines, hold several
// lines or lie inside one, and where the last block is short. Worker counts
// and workgroups of 2 invocations that this host would not give; blocks
// that no worker takes as predicted only change speed. One profile: the
// other builds decode tiles with the same code.
TEST_CASE("single pass with look-back: each block of workgroups walks its lines last first") {
  struct Shape {
    DataType type;
    uint32_t lines;
    uint32_t length;
  };
  const Shape shapes[] = {
      {DataType::Float32, 8, 50256}, {DataType::Int32, 5, 61440}, {DataType::UInt64, 6, 40960}};
  for (test::Profile profile : test::testedProfiles({test::Profile::Native})) {
    Device::Impl& impl = Device::Access::impl(test::testDevice(profile));
    test::ScopedRestore<detail::Tuning> restoreTuning(impl.tuning);
    // The CPU-device planner's path, on whatever device runs the test.
    impl.tuning.deviceClass = detail::DeviceClass::Cpu;
    impl.tuning.chunkLookbackMaxElements = uint64_t{1} << 24;
    impl.tuning.wholeLineInvocations = UINT64_MAX;
    for (const auto& [workgroup, workers] : {std::pair<uint32_t, uint32_t>{8, 2}, {8, 3}, {2, 5}}) {
      impl.tuning.chunkWorkgroupSize = workgroup;
      impl.tuning.cpuWorkers = workers;
      for (const Shape& shape : shapes) {
        CAPTURE(workgroup);
        CAPTURE(workers);
        CumulativeSummationDesc desc = test::packedDesc(shape.type, {shape.lines, shape.length}, 1);
        detail::Plan plan = planOn(impl, desc);
        REQUIRE(plan.dispatches.size() == 1);
        REQUIRE(plan.dispatches[0].pipeline.stage == detail::Stage::ChunkLookback);
        uint32_t tiles = plan.dispatches[0].params.chunksPerLine;
        uint32_t block = plan.dispatches[0].params.lookbackBlock;
        CAPTURE(block);
        REQUIRE(block != 0);
        REQUIRE(block < shape.lines * tiles);
        checkAgainstReference(desc, false, 90 + workers, profile);
        desc.hasExclusiveSum = true;
        desc.axisDirection = AxisDirection::Decreasing;
        checkAgainstReference(desc, true, 95 + workers, profile);
      }
    }
  }
}

// A tile total (and inclusive value) whose bits equal the look-back's
// unpublished pattern reads as silent: later tiles must still finish, by
// reducing that tile themselves, with the same sums. Waiting (native) and
// not (device addresses: no polls).
TEST_CASE("single pass with look-back: totals equal to the unpublished pattern") {
  CumulativeSummationDesc desc = test::packedDesc(DataType::Int32, {3 * 4096 + 5}, 0);
  std::vector<int32_t> values(3 * 4096 + 5, 0);
  values[0] = static_cast<int32_t>(detail::kLookbackUnpublished);  // tile 0 total and inclusive
  values[4096] = values[0];                                        // tile 1 total
  values[4097] = -values[0];
  std::vector<uint8_t> input(values.size() * sizeof(int32_t));
  std::memcpy(input.data(), values.data(), input.size());
  for (test::Profile profile :
       test::testedProfiles({test::Profile::Native, test::Profile::DeviceAddresses})) {
    for (bool inPlace : {false, true}) {
      const std::string profileName = test::profileName(profile);
      CAPTURE(profileName);
      CAPTURE(inPlace);
      std::vector<uint8_t> initialOutput(input.size(), 0xA5);
      std::vector<uint8_t> expected = inPlace ? input : initialOutput;
      test::referenceCumsum(desc, input, expected);
      CHECK(test::runOnDevice(desc, input, inPlace, initialOutput, profile) == expected);
    }
  }
}

namespace {

// `input` scanned on `device` out of place and in place equals the
// reference, bit for bit (the difference described where not).
void checkOutOfPlaceAndInPlace(const CumulativeSummationDesc& desc,
                               const std::vector<uint8_t>& input, Device& device) {
  for (bool inPlace : {false, true}) {
    CAPTURE(inPlace);
    std::vector<uint8_t> initialOutput(input.size(), 0xA5);
    std::vector<uint8_t> expected = inPlace ? input : initialOutput;
    test::referenceCumsum(desc, input, expected);
    std::vector<uint8_t> actual = test::runOnDevice(desc, input, inPlace, initialOutput, device);
    const std::string mismatch = test::describeDifference(actual, expected, 4);
    CAPTURE(mismatch);
    CHECK(actual == expected);
  }
}

}  // namespace

// Regression: in place, the GPU one-pass kernels (rows and columns) reduced a
// tile whose total reads as silent from memory again after the tile had
// written its outputs over its inputs (the look-back repeated while the
// tile's collision record, which holds the total, went unread), and gave
// wrong carries. Rows in tiles of 4096 (waiting) and of 256 (no polls, and
// a node of 16 tiles above whose values read silent too); columns of 17
// tiles of 256, two of whose lines hold such a tile.
TEST_CASE("one-pass kernels regression: in place, a silent tile total comes from its record") {
  const auto silent = static_cast<int32_t>(detail::kLookbackUnpublished);
  CumulativeSummationDesc rows = test::packedDesc(DataType::Int32, {3 * 4096 + 5}, 0);
  std::vector<int32_t> line(3 * 4096 + 5, 0);
  line[0] = silent;  // tile 0's total, and every inclusive value of its group
  CumulativeSummationDesc columns = test::packedDesc(DataType::Int32, {4101, 64}, 0);
  std::vector<int32_t> grid(4101 * 64, 0);
  grid[5] = silent;             // column 5, tile 0
  grid[256 * 64 + 9] = silent;  // column 9, tile 1 (and its inclusive value)
  for (test::Profile profile :
       test::testedProfiles({test::Profile::GpuTuning, test::Profile::SmallWorkgroups})) {
    const std::string profileName = test::profileName(profile);
    CAPTURE(profileName);
    Device& device = test::testDevice(profile);
    const Device::Impl& impl = Device::Access::impl(device);
    for (const auto& [desc, values, stage] :
         {std::tuple{rows, line, detail::Stage::RowsOnePass},
          std::tuple{columns, grid, detail::Stage::ColumnsOnePass}}) {
      detail::Plan plan = planOn(impl, desc);
      REQUIRE(plan.dispatches.size() == 1);
      REQUIRE(plan.dispatches[0].pipeline.stage == stage);
      std::vector<uint8_t> input(values.size() * sizeof(int32_t));
      std::memcpy(input.data(), values.data(), input.size());
      checkOutOfPlaceAndInPlace(desc, input, device);
    }
  }
}

// Tuning::rowsLinesFastest: tiles handed out across lines first (tile 0 of
// every line, then tile 1, ...) give the reference's bits, in every mode
// for FLOAT32 and in two for the other types. Lines of 2 to 18 tiles, the
// last partial, a line count that no tile count divides, strided lines.
TEST_CASE("one-pass kernels: tiles across lines first give the reference's bits") {
  for (test::Profile profile :
       test::testedProfiles({test::Profile::GpuTuning, test::Profile::SmallWorkgroups})) {
    const std::string profileName = test::profileName(profile);
    CAPTURE(profileName);
    NamedDevice device = named(profile);
    Device::Impl& impl = Device::Access::impl(device.device);
    test::ScopedRestore<detail::Tuning> restoreTuning(impl.tuning);
    impl.tuning.rowsLinesFastest = true;
    const uint32_t tile = impl.tuning.rowsWorkgroupSize * 16;
    uint64_t seed = 4700;
    for (DataType type : kTypes) {
      CAPTURE(type);
      std::vector<CumulativeSummationDesc> descs = {
          test::packedDesc(type, {7, 2 * tile}, 1),
          test::packedDesc(type, {3, 17 * tile + 3}, 1),
          test::packedDesc(type, {2, 5, 3 * tile - 1}, 2),
      };
      CumulativeSummationDesc strided = test::packedDesc(type, {3, 2 * tile + 9}, 1);
      strided.input.strides = strided.output.strides = {2 * tile + 40, 1};
      descs.push_back(strided);
      for (const CumulativeSummationDesc& desc : descs) {
        detail::Plan plan = planOn(impl, desc);
        REQUIRE(plan.dispatches.size() == 1);
        REQUIRE(plan.dispatches[0].pipeline.stage == detail::Stage::RowsOnePass);
        CHECK((plan.dispatches[0].params.flags & VKSCAN_FLAG_LINES_FASTEST) != 0u);
        checkTypeModes(desc, seed += 10, device);
      }
    }
  }
}

// The same in place, where tiles' totals read as silent: a tile records its
// total under its own line and tile, which later tiles of its line read;
// tile 0 of lines 1 and 2 (and of line 0) holds such a total.
TEST_CASE("one-pass kernels: tiles across lines first keep their records, in place") {
  const auto silent = static_cast<int32_t>(detail::kLookbackUnpublished);
  for (test::Profile profile :
       test::testedProfiles({test::Profile::GpuTuning, test::Profile::SmallWorkgroups})) {
    const std::string profileName = test::profileName(profile);
    CAPTURE(profileName);
    Device& device = test::testDevice(profile);
    Device::Impl& impl = Device::Access::impl(device);
    test::ScopedRestore<detail::Tuning> restoreTuning(impl.tuning);
    impl.tuning.rowsLinesFastest = true;
    const uint32_t tile = impl.tuning.rowsWorkgroupSize * 16;
    const uint32_t length = 3 * tile + 5;
    CumulativeSummationDesc desc = test::packedDesc(DataType::Int32, {4, length}, 1);
    detail::Plan plan = planOn(impl, desc);
    REQUIRE(plan.dispatches.size() == 1);
    REQUIRE(plan.dispatches[0].pipeline.stage == detail::Stage::RowsOnePass);
    std::vector<int32_t> values(4 * length, 0);
    for (uint32_t line : {0u, 1u, 2u}) values[line * length] = silent;
    values[3 * length + 1] = 1;  // a line of ordinary totals
    std::vector<uint8_t> input(values.size() * sizeof(int32_t));
    std::memcpy(input.data(), values.data(), input.size());
    checkOutOfPlaceAndInPlace(desc, input, device);
  }
}

// Where no earlier tile publishes a tile's total, the rows one-pass kernel's
// whole workgroup reduces that tile, in the canonical order. FLOAT64 tile 0
// holds values of mixed magnitudes, whose sum changes with their order, and
// a last element that makes the total (and tile 0's inclusive value) a
// double whose low word is the unpublished pattern: tile 1 then finds
// neither, and its carry, and every later output, are right only if the
// workgroup's reduction kept the order. Tiles of 4096 (waiting first) and
// of 256; in place the tile's collision record gives the total instead.
TEST_CASE("one-pass kernels: a silent tile is reduced by the workgroup, in canonical order") {
  for (test::Profile profile :
       test::testedProfiles({test::Profile::GpuTuning, test::Profile::SmallWorkgroups})) {
    const std::string profileName = test::profileName(profile);
    CAPTURE(profileName);
    Device& device = test::testDevice(profile);
    const Device::Impl& impl = Device::Access::impl(device);
    const uint32_t tile = impl.tuning.rowsWorkgroupSize * 16;
    CumulativeSummationDesc desc = test::packedDesc(DataType::Float64, {3 * tile + 5}, 0);
    detail::Plan plan = planOn(impl, desc);
    REQUIRE(plan.dispatches.size() == 1);
    REQUIRE(plan.dispatches[0].pipeline.stage == detail::Stage::RowsOnePass);
    std::vector<double> values(3 * tile + 5, 0.0);
    std::mt19937_64 random(47);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_int_distribution<int> exponent(-40, 40);
    // The last sixteenth of tile 0 zero (a group of 16 nodes, or a node), so
    // that its last element alone lands the total: the tree's sum and the
    // serial one then differ only in additions of zeros.
    for (uint32_t i = 0; i < tile - tile / 16; ++i) {
      values[i] = std::ldexp(unit(random), exponent(random));
    }
    values[0] = 1.5;  // the total near 1.5, whatever the others sum to
    auto scanned = [&](const std::vector<double>& line) {
      std::vector<uint8_t> input(line.size() * sizeof(double));
      std::memcpy(input.data(), line.data(), input.size());
      std::vector<uint8_t> output(input.size());
      test::referenceCumsum(desc, input, output);
      std::vector<double> sums(line.size());
      std::memcpy(sums.data(), output.data(), output.size());
      return sums;
    };
    // The serial sum of tile 0 but its last element, then a last element
    // (exact by Sterbenz's lemma) that makes it the silent double.
    double before = scanned(values)[tile - 2];
    uint64_t bits;
    std::memcpy(&bits, &before, sizeof bits);
    bits = (bits & ~uint64_t{0xFFFFFFFF}) | detail::kLookbackUnpublished;
    double silent;
    std::memcpy(&silent, &bits, sizeof silent);
    values[tile - 1] = silent - before;
    REQUIRE(scanned(values)[tile - 1] == silent);
    values[tile] = 0.25;  // tile 1, whose carry is the silent total
    std::vector<uint8_t> input(values.size() * sizeof(double));
    std::memcpy(input.data(), values.data(), input.size());
    checkOutOfPlaceAndInPlace(desc, input, device);
  }
}

// Regression: in place, a tile total that reads as silent was reduced by
// later tiles from inputs its own outputs had overwritten (here the later
// tiles run after it: llvmpipe's workers take blocks of workgroups). Every
// inclusive value of such a line (16 tiles) is silent too, so each later
// tile needs tile 0's total. Each silent pattern of an accumulator's words,
// which FLOAT64 values hold too; the lines of zeros are the control. With
// and without polls, and with 64-bit values as pairs of words (no Int64).
TEST_CASE("single pass with look-back: in place, silent totals of overwritten tiles") {
  constexpr uint64_t kSilent = detail::kLookbackUnpublished;
  auto run = [](DataType type, const std::vector<uint64_t>& firstOfLine) {
    std::string typeName = dataTypeName(type);
    CAPTURE(typeName);
    const uint32_t length = 65536;
    CumulativeSummationDesc desc =
        test::packedDesc(type, {static_cast<uint32_t>(firstOfLine.size()), length}, 1);
    size_t size = dataTypeSize(type);
    std::vector<uint8_t> input(firstOfLine.size() * length * size, 0);
    for (size_t line = 0; line < firstOfLine.size(); ++line) {
      std::memcpy(input.data() + line * length * size, &firstOfLine[line], size);
    }
    std::vector<uint8_t> expected = input;
    test::referenceCumsum(desc, input, expected);
    for (test::Profile profile :
         test::testedProfiles({test::Profile::Native, test::Profile::DeviceAddresses,
                               test::Profile::Emulated, test::Profile::EmulatedDeviceAddresses})) {
      std::string profileName = test::profileName(profile);
      CAPTURE(profileName);
      Device::Impl& impl = Device::Access::impl(test::testDevice(profile));
      // Whatever blocks of workgroups this host's workers would take.
      test::ScopedRestore<detail::Tuning> restoreTuning(impl.tuning);
      impl.tuning.cpuWorkers = 0;
      detail::Plan plan = planOn(impl, desc);
      REQUIRE(plan.dispatches.size() == 1);
      REQUIRE(plan.dispatches[0].pipeline.stage == detail::Stage::ChunkLookback);
      std::vector<uint8_t> initialOutput(input.size(), 0xA5);
      CHECK(test::runOnDevice(desc, input, true, initialOutput, profile) == expected);
    }
  };
  run(DataType::Int32, {kSilent, kSilent, 0, kSilent});
  run(DataType::UInt64,
      {kSilent | (uint64_t{5} << 32), 7 | (kSilent << 32), kSilent | (kSilent << 32), 0});
  // Finite doubles: 1 + kSilent * 2^-52, and two of about 1.68 * 2^1020.
  run(DataType::Float64,
      {kSilent | (uint64_t{0x3FF00000} << 32), 1 | (kSilent << 32), kSilent | (kSilent << 32), 0});
}

// Interleaved walks carry four vectors of adjacent lines where they divide
// the inner extent, else one: both, for every type, with and without chunks
// (a reduce pass), strided outer dimensions included. The profiles are those
// whose interleaved kernels differ (the emulated ones only for the types
// they emulate), and the deepest carries; the others change only workgroup
// sizes, and each costs CI minutes of shader compilation.
TEST_CASE("interleaved lines: one vector and four vectors of lines, every type") {
  for (test::Profile profile :
       test::testedProfiles({test::Profile::Native, test::Profile::DeviceAddresses,
                             test::Profile::ManyPasses, test::Profile::Emulated})) {
    Device::Impl& impl = Device::Access::impl(test::testDevice(profile));
    auto planned = [&](const CumulativeSummationDesc& desc) { return planOn(impl, desc); };
    for (DataType type : kTypes) {
      bool emulatedType =
          dataTypeSize(type) == 2 || type == DataType::Int64 || type == DataType::UInt64;
      if (profile == test::Profile::Emulated && !emulatedType) continue;
      uint32_t vector = test::vectorElements(type);
      for (uint32_t vectors : {3u, 8u}) {
        uint32_t laneVectors = vectors == 8u ? 4 : 1;
        CumulativeSummationDesc columns = test::packedDesc(type, {300, vectors * vector}, 0);
        columns.hasExclusiveSum = vectors == 3u;
        detail::Plan plan = planned(columns);
        CHECK(plan.dispatches.back().pipeline.stage == detail::Stage::ChunkScanInterleaved);
        CHECK(plan.dispatches.back().pipeline.laneVectors == laneVectors);
        checkAgainstReference(columns, false, 51, profile);
        CumulativeSummationDesc chunked = test::packedDesc(type, {2, 5000, vectors * vector}, 1);
        chunked.axisDirection = AxisDirection::Decreasing;
        // In chunks on any host: at subgroup size 4 on two threads, 6 groups
        // of lines would be walked whole.
        test::ScopedRestore<detail::Tuning> restoreTuning(impl.tuning);
        impl.tuning.wholeLineInvocations = UINT64_MAX;
        plan = planned(chunked);
        CHECK(plan.dispatches.front().pipeline.stage == detail::Stage::ChunkReduceInterleaved);
        CHECK(plan.dispatches.front().pipeline.laneVectors == laneVectors);
        checkAgainstReference(chunked, vectors == 8u, 52, profile);
      }
    }
  }
}

// Contiguous nodes that start on 32 bytes move as wide units
// (PipelineKey::wideVectors); lines half a unit longer start every other
// line mid-unit and move as vectors. Both must give the reference's bits in
// one pass, with look-back and in three passes, forwards and backwards,
// through storage buffers and device addresses. Interleaved rows of four
// vectors of lines likewise, on units and, padded, mid-unit.
TEST_CASE("wide units: nodes and interleaved rows on 32 bytes and mid-unit, every type") {
  const std::vector<test::Profile> profiles =
      test::testedProfiles({test::Profile::Native, test::Profile::DeviceAddresses});
  for (test::Profile profile : profiles) {
    Device::Impl& impl = Device::Access::impl(test::testDevice(profile));
    bool chunkWalks =
        impl.tuning.deviceClass == detail::DeviceClass::Cpu &&
        16 % std::max<uint64_t>(impl.planLimits().minStorageBufferOffsetAlignment, 1) == 0;
    for (DataType type : kTypes) {
      if (!takesType(profiles, profile, type, 0)) continue;
      uint32_t unit = static_cast<uint32_t>(32 / dataTypeSize(type));
      for (uint32_t shift : {0u, unit / 2}) {
        for (std::vector<uint32_t> sizes : {std::vector<uint32_t>{300, 64 * unit + shift},
                                            {2, 20480 + shift},
                                            {2, 70000 + shift}}) {
          CumulativeSummationDesc desc = test::packedDesc(type, sizes, 1);
          detail::Plan plan = planOn(impl, desc);
          if (chunkWalks) {
            CHECK(plan.dispatches.front().pipeline.wideVectors == (shift == 0));
            CHECK(plan.dispatches.back().pipeline.wideVectors == (shift == 0));
          }
          checkTypeModes(desc, 46, profile);
        }
        uint32_t lines = dataTypeSize(type) == 8 ? 16 : 32;  // eight vectors
        CumulativeSummationDesc columns = test::packedDesc(type, {60, lines}, 0);
        columns.input.strides = {lines + shift, 1};
        columns.output.strides = columns.input.strides;
        detail::Plan plan = planOn(impl, columns);
        CHECK(plan.dispatches.back().pipeline.stage == detail::Stage::ChunkScanInterleaved);
        CHECK(plan.dispatches.back().pipeline.laneVectors == 4);
        if (chunkWalks) CHECK(plan.dispatches.back().pipeline.wideVectors == (shift == 0));
        checkAllModes(columns, 49, profile);
      }
    }
  }
}

// Contiguous lines off vectors walk realigned (Stage::ChunkScanRealigned):
// nodes move as whole units from the unit boundaries below them, shifted
// into place, with the first and last full node of each chunk plain. Lines
// start at every phase against the unit; chunks hold three full nodes and
// more, with a partial node and without; lines of several chunks (reduce,
// carries, scan) put chunk boundaries mid-unit, and so do lines of several
// tiles in the look-back pass; padded layouts check that
// nothing outside the lines is written; lines of thousands of nodes are
// walked whole. Through storage buffers and device addresses, with 32-byte
// stores (Bits64) and 32-bit ones (Load64Store32 on the Native profile), and
// FLOAT16 on packed halves.
TEST_CASE("realigned walks: lines off vectors at every phase, every type and mode") {
  std::vector<NamedDevice> devices;
  std::vector<test::Profile> profiles;
  bool packedHalves = false;
  for (test::Profile profile : test::testedProfiles(
           {test::Profile::Native, test::Profile::DeviceAddresses, test::Profile::PackedHalves})) {
    if (profile == test::Profile::PackedHalves) {
      packedHalves = true;
    } else {
      devices.push_back(named(profile));
      profiles.push_back(profile);
    }
  }
  const detail::VectorWords bits64 = detail::VectorWords::Bits64;
  Device unitStoresDevice = detail::createDevice(test::testDeviceOptions(), &bits64);
  devices.push_back({unitStoresDevice, "storage buffers, Bits64"});
  // Lines of 3750 nodes, each walked whole by one invocation: a walk whose
  // node steps were loops would pass lavapipe's cap on loop iterations.
  Device::Access::impl(unitStoresDevice).tuning.wholeLineInvocations = 1;
  {
    CumulativeSummationDesc desc = test::packedDesc(DataType::Float32, {3, 60001}, 1);
    detail::Plan plan = planOn(Device::Access::impl(unitStoresDevice), desc);
    const detail::Dispatch& scan = plan.dispatches.back();
    CHECK(scan.pipeline.stage == detail::Stage::ChunkScanRealigned);
    CHECK(scan.params.shape == 4);
    checkTypeModes(desc, 60, devices.back());
  }
  for (const NamedDevice& device : devices) {
    Device::Impl& impl = Device::Access::impl(device.device);
    for (DataType type : kTypes) {
      // One type per unit width (8, 16 and 4 elements) in every shape; the
      // others in the first, with 32-byte stores on storage buffers, as on
      // lavapipe by default. Pipeline creation is most of the test's time.
      bool unitWidth =
          type == DataType::Float32 || dataTypeSize(type) == 2 || type == DataType::UInt64;
      if (&device.device != &unitStoresDevice &&
          (!unitWidth || !takesType(profiles, profiles[&device - devices.data()], type, 1))) {
        continue;
      }
      CAPTURE(device.name);
      // 17 lines of 53: every phase of 16 elements; 64 elements with lines
      // 67 apart: four full nodes, no partial one; 3 lines of 4 tiles, the
      // last of 13 elements: the look-back pass.
      CumulativeSummationDesc padded = test::packedDesc(type, {11, 64}, 1);
      padded.input.strides = {67, 1};
      padded.output.strides = padded.input.strides;
      std::vector<CumulativeSummationDesc> shapes = {test::packedDesc(type, {17, 53}, 1)};
      if (unitWidth) {
        shapes.push_back(padded);
        shapes.push_back(test::packedDesc(type, {2, 70001}, 1));
        shapes.push_back(test::packedDesc(type, {3, 3 * 4096 + 13}, 1));
      }
      for (const CumulativeSummationDesc& desc : shapes) {
        detail::Plan plan = planOn(impl, desc);
        const detail::Dispatch& scan = plan.dispatches.back();
        // Chunk walks of the CPU tuning.
        if (impl.tuning.chunkRealign && detail::isLookback(scan.pipeline.stage)) {
          CHECK(scan.pipeline.stage == detail::Stage::ChunkLookbackRealigned);
        } else if (impl.tuning.chunkRealign) {
          CHECK(scan.pipeline.stage == detail::Stage::ChunkScanRealigned);
          bool chunked = plan.dispatches.size() > 1;
          CHECK(
              plan.dispatches.front().pipeline.stage ==
              (chunked ? detail::Stage::ChunkReduceRealigned : detail::Stage::ChunkScanRealigned));
        }
        checkTypeModes(desc, 61, device);
      }
    }
  }
  if (packedHalves) {
    for (DataType type : {DataType::Float16, DataType::BFloat16}) {
      checkTypeModes(test::packedDesc(type, {17, 53}, 1), 62, test::Profile::PackedHalves);
      checkTypeModes(test::packedDesc(type, {2, 70001}, 1), 63, test::Profile::PackedHalves);
    }
  }
}

// Interleaved lanes of one vector whose rows lie back to back (an inner
// extent of one vector) move a unit's worth of rows per access
// (PipelineKey::wideVectors with laneVectors 1), lowest address first. Lines
// a vector longer start every other group mid-unit and move as vectors. Both
// must give the reference's bits walked whole (a partial last node, four
// levels of carries) and in three passes (the reduce streams units too),
// forwards and backwards, through storage buffers and device addresses.
TEST_CASE("row units: interleaved rows of one vector, back to back, every type") {
  const std::vector<test::Profile> profiles =
      test::testedProfiles({test::Profile::Native, test::Profile::DeviceAddresses});
  for (test::Profile profile : profiles) {
    Device::Impl& impl = Device::Access::impl(test::testDevice(profile));
    bool chunkWalks =
        16 % std::max<uint64_t>(impl.planLimits().minStorageBufferOffsetAlignment, 1) == 0;
    for (DataType type : kTypes) {
      if (!takesType(profiles, profile, type, 1)) continue;
      uint32_t vector = test::vectorElements(type);
      for (uint32_t pad : {0u, vector}) {
        for (std::vector<uint32_t> sizes :
             {std::vector<uint32_t>{40, 4104, vector}, {2, 20000, vector}}) {
          CumulativeSummationDesc desc = test::packedDesc(type, sizes, 1);
          desc.input.strides = {sizes[1] * vector + pad, vector, 1};
          desc.output.strides = desc.input.strides;
          for (AxisDirection direction : {AxisDirection::Increasing, AxisDirection::Decreasing}) {
            desc.axisDirection = direction;
            detail::Plan plan = planOn(impl, desc);
            const detail::Dispatch& scan = plan.dispatches.back();
            CHECK(scan.pipeline.stage == detail::Stage::ChunkScanInterleaved);
            CHECK(scan.pipeline.laneVectors == 1);
            CHECK(scan.pipeline.wideVectors == (chunkWalks && pad == 0));
            CHECK(plan.dispatches.front().pipeline.wideVectors == (chunkWalks && pad == 0));
            CHECK(scan.pipeline.reverse ==
                  (scan.pipeline.wideVectors && direction == AxisDirection::Decreasing));
          }
          desc.axisDirection = AxisDirection::Increasing;
          checkTypeModes(desc, 53, profile);
        }
      }
    }
  }
}

// Lines contiguous in the innermost dimension but off vectors walk, on CPU
// devices, in lanes of four vectors' lines built from scalar accesses
// (PipelineKey::scalarLanes), the lines left over one per invocation after
// them. Inner extents with lines left over, rows an odd number of elements
// apart, an outer dimension, three passes, and rows far enough apart to
// touch ahead, in every type, through storage buffers and device addresses.
// Rows move as pairs of elements where they can (chunk.glsl
// loadScalarRow()), starting on a pair or on a pair's second: with 64-bit
// loads and 32-bit stores (Native), 64-bit both ways through addresses
// (DeviceAddresses) and on storage buffers (ManyPasses, on the two shapes
// whose rows alternate), and element by element without Int64 and 16-bit
// storage (Emulated, likewise).
TEST_CASE("scalar lanes: lines off vectors, in groups and left over, every type") {
  const std::vector<test::Profile> profiles =
      test::testedProfiles({test::Profile::Native, test::Profile::DeviceAddresses,
                            test::Profile::ManyPasses, test::Profile::Emulated});
  for (test::Profile profile : profiles) {
    Device::Impl& impl = Device::Access::impl(test::testDevice(profile));
    bool everyShape = profile == test::Profile::Native || profile == test::Profile::DeviceAddresses;
    for (DataType type : kTypes) {
      if (!takesType(profiles, profile, type, 0)) continue;
      CumulativeSummationDesc padded = test::packedDesc(type, {300, 64}, 0);
      padded.input.strides = {65, 1};
      padded.output.strides = padded.input.strides;
      std::vector<CumulativeSummationDesc> descs = {test::packedDesc(type, {300, 37}, 0), padded};
      if (everyShape) {
        descs.push_back(test::packedDesc(type, {5, 40, 21}, 1));
        descs.push_back(test::packedDesc(type, {20000, 19}, 0));
        descs.push_back(test::packedDesc(type, {100, 1023}, 0));
      }
      for (const CumulativeSummationDesc& desc : descs) {
        detail::Plan plan = planOn(impl, desc);
        bool scalarLanes = false;
        for (const detail::Dispatch& d : plan.dispatches) {
          scalarLanes = scalarLanes || d.pipeline.scalarLanes;
        }
        CHECK(scalarLanes == impl.tuning.chunkLaneGroups);
        checkTypeModes(desc, 56, profile);
      }
    }
  }
}

// Inner extents a multiple of a vector but not of four walk, on CPU devices,
// in whole groups of four vectors' lines and then the lines left over in
// lanes of one vector, a second walk at its own offset. Groups and rest in
// one pass and in three, an outer dimension, and rows far enough apart to
// touch ahead, in every type, through storage buffers and device addresses.
TEST_CASE("lane groups: four-vector lanes, then the lines left over, every type") {
  const std::vector<test::Profile> profiles =
      test::testedProfiles({test::Profile::Native, test::Profile::DeviceAddresses});
  for (test::Profile profile : profiles) {
    Device::Impl& impl = Device::Access::impl(test::testDevice(profile));
    for (DataType type : kTypes) {
      if (!takesType(profiles, profile, type, 1)) continue;
      uint32_t vector = test::vectorElements(type);
      uint32_t lanes = 4 * vector;
      for (const CumulativeSummationDesc& desc :
           {test::packedDesc(type, {300, 16 * lanes + vector}, 0),
            test::packedDesc(type, {5000, 4 * lanes + vector}, 0),
            test::packedDesc(type, {5, 40, 16 * lanes + 3 * vector}, 1),
            test::packedDesc(type, {100, 32 * lanes + vector}, 0)}) {
        std::vector<uint32_t> scans;
        for (const detail::Dispatch& d : planOn(impl, desc).dispatches) {
          if (d.out == detail::BufferRole::Output) scans.push_back(d.pipeline.laneVectors);
        }
        CHECK(scans == (impl.tuning.chunkLaneGroups ? std::vector<uint32_t>{4, 1}
                                                    : std::vector<uint32_t>{1}));
        checkTypeModes(desc, 59, profile);
      }
    }
  }
}

// Interleaved walks whose rows lie far apart read each row's words a node
// early (PipelineKey::touchAhead). The reads must change no output, and the
// last nodes of a chunk, which have no node ahead to touch, must still be
// scanned. The threshold is set here so that every device runs the path.
TEST_CASE("touching ahead: columns 2 KiB and more apart, every type and mode") {
  const std::vector<test::Profile> profiles =
      test::testedProfiles({test::Profile::Native, test::Profile::DeviceAddresses});
  for (test::Profile profile : profiles) {
    Device::Impl& impl = Device::Access::impl(test::testDevice(profile));
    test::ScopedRestore<detail::Tuning> restoreTuning(impl.tuning);
    // The CPU-device planner's path, on whatever device runs the test.
    impl.tuning.deviceClass = detail::DeviceClass::Cpu;
    impl.tuning.chunkTouchAheadStrideBytes = 2048;
    auto checkTouching = [&](const CumulativeSummationDesc& desc) {
      detail::Plan plan = planOn(impl, desc);
      CHECK(plan.dispatches.back().pipeline.touchAhead);
    };
    // Every type natively, one per element size through addresses; every
    // mode for FLOAT32.
    for (DataType type : kTypes) {
      if (!takesType(profiles, profile, type, 0)) continue;
      uint32_t columns = static_cast<uint32_t>(2048 / dataTypeSize(type));
      CumulativeSummationDesc columnsDesc = test::packedDesc(type, {100, columns}, 0);
      checkTouching(columnsDesc);
      if (type == DataType::Float32) {
        checkAllModes(columnsDesc, 41, profile);
      } else if (profile == test::Profile::Native || dataTypeSize(type) != 4) {
        columnsDesc.hasExclusiveSum = true;
        columnsDesc.axisDirection = AxisDirection::Decreasing;
        checkAgainstReference(columnsDesc, true, 42, profile);
      }
    }
    // Inner extents of 16 lines (mat4) and of 4 (one vector), strided outer.
    CumulativeSummationDesc wide = test::packedDesc(DataType::Float32, {3, 77, 528}, 1);
    checkTouching(wide);
    checkAllModes(wide, 43, profile);
    CumulativeSummationDesc narrow = test::packedDesc(DataType::Float32, {2, 50, 516}, 1);
    checkTouching(narrow);
    checkAllModes(narrow, 44, profile);
    // Chunked columns: the reduce pass touches too, and chunk ends stop it.
    CumulativeSummationDesc chunked = test::packedDesc(DataType::Float32, {4100, 512}, 0);
    checkTouching(chunked);
    checkAgainstReference(chunked, false, 45, profile);
    chunked.hasExclusiveSum = true;
    chunked.axisDirection = AxisDirection::Decreasing;
    checkAgainstReference(chunked, true, 46, profile);
  }
}

// Interleaved lines walked whole meet at a barrier after every node
// (PipelineKey::nodeBarrier) where rows lie far apart, partial last nodes
// included. Set here on every device, which a GPU's tuning leaves off.
TEST_CASE("node barriers: whole interleaved lines, every type and mode") {
  for (test::Profile profile :
       test::testedProfiles({test::Profile::Native, test::Profile::DeviceAddresses})) {
    Device::Impl& impl = Device::Access::impl(test::testDevice(profile));
    test::ScopedRestore<detail::Tuning> restoreTuning(impl.tuning);
    // The CPU-device planner's path, on whatever device runs the test.
    impl.tuning.deviceClass = detail::DeviceClass::Cpu;
    impl.tuning.chunkNodeBarriers = true;
    impl.tuning.chunkTouchAheadStrideBytes = 2048;
    auto checkBarriers = [&](const CumulativeSummationDesc& desc) {
      detail::Plan plan = planOn(impl, desc);
      CHECK(plan.dispatches.back().pipeline.nodeBarrier);
    };
    // 96 groups of 16 columns (two workgroups of 48 on two lavapipe
    // workers), 2 full nodes and one of 8 rows.
    CumulativeSummationDesc partial = test::packedDesc(DataType::Float32, {40, 1536}, 0);
    checkBarriers(partial);
    checkAllModes(partial, 47, profile);
    // Rows 16 KiB apart (texel reads on lavapipe), every type.
    for (DataType type : kTypes) {
      if (profile != test::Profile::Native && dataTypeSize(type) == 4) continue;
      uint32_t columns = static_cast<uint32_t>(16384 / dataTypeSize(type));
      CumulativeSummationDesc square = test::packedDesc(type, {33, columns}, 0);
      checkBarriers(square);
      square.hasExclusiveSum = true;
      square.axisDirection = AxisDirection::Decreasing;
      checkAgainstReference(square, true, 48, profile);
    }
  }
}

// Lines of up to 65536 elements are walked whole, one invocation each (a
// chunk of shape 4: carries of four levels), where there are enough lines
// to keep the device busy. The threshold is lowered here so that small
// tensors take the path on every device (0: interleaved lines too).
TEST_CASE("whole lines of up to 65536 elements in one pass, every type and mode") {
  for (test::Profile profile : test::testedProfiles(
           {test::Profile::Native, test::Profile::DeviceAddresses, test::Profile::Emulated})) {
    Device::Impl& impl = Device::Access::impl(test::testDevice(profile));
    test::ScopedRestore<detail::Tuning> restoreTuning(impl.tuning);
    impl.tuning.wholeLineInvocations = 0;
    auto checkWhole = [&](const CumulativeSummationDesc& desc) {
      detail::Plan plan = planOn(impl, desc);
      REQUIRE(plan.dispatches.size() == 1);
      CHECK(plan.dispatches[0].params.shape == 4);
      CHECK(plan.dispatches[0].params.chunksPerLine == 1);
    };
    for (DataType type : kTypes) {
      uint32_t vector = test::vectorElements(type);
      // One element past a level-3 node, misaligned lines; a whole level-4
      // node; interleaved columns with a partial last level-3 node; one
      // vector of interleaved columns 65536 rows long, whose walk would pass
      // lavapipe's loop cap with a row per iteration of its row loop.
      CumulativeSummationDesc justOver = test::packedDesc(type, {5, 4097}, 1);
      CumulativeSummationDesc full = test::packedDesc(type, {2, 65536}, 1);
      CumulativeSummationDesc columns = test::packedDesc(type, {9000, 4 * vector}, 0);
      CumulativeSummationDesc tall = test::packedDesc(type, {65536, vector}, 0);
      for (const CumulativeSummationDesc& desc : {justOver, full, columns, tall}) checkWhole(desc);
      checkAgainstReference(tall, false, 66, profile);
      if (type == DataType::Float32) {
        checkAllModes(justOver, 61, profile);
        checkAllModes(columns, 62, profile);
      } else {
        checkAgainstReference(justOver, false, 63, profile);
        columns.hasExclusiveSum = true;
        columns.axisDirection = AxisDirection::Decreasing;
        checkAgainstReference(columns, true, 64, profile);
      }
      full.axisDirection = AxisDirection::Decreasing;
      checkAgainstReference(full, false, 65, profile);
    }
  }
}

// Few interleaved lines walked whole run in workgroups of a subgroup where
// workgroups of 32 would leave a CPU device's worker idle. The workers and
// thresholds are set so that every host plans it: 32 lanes of lines, a
// partial last node.
TEST_CASE("few interleaved whole lines in workgroups of a subgroup, every unit width") {
  for (test::Profile profile :
       test::testedProfiles({test::Profile::Native, test::Profile::Emulated})) {
    Device::Impl& impl = Device::Access::impl(test::testDevice(profile));
    test::ScopedRestore<detail::Tuning> restoreTuning(impl.tuning);
    // The CPU-device planner's path, on whatever device runs the test.
    impl.tuning.deviceClass = detail::DeviceClass::Cpu;
    impl.tuning.cpuWorkers = 2;
    impl.tuning.chunkWorkgroupSize = 32;
    impl.tuning.wholeLineInvocations = 16;
    for (DataType type :
         {DataType::Float32, DataType::Float16, DataType::BFloat16, DataType::UInt64}) {
      CAPTURE(dataTypeName(type));
      uint32_t lanes = 4 * test::vectorElements(type);
      CumulativeSummationDesc desc = test::packedDesc(type, {1000, 32 * lanes}, 0);
      detail::Plan plan = planOn(impl, desc);
      REQUIRE(plan.dispatches.size() == 1);
      const detail::Dispatch& scan = plan.dispatches[0];
      CHECK(scan.pipeline.stage == detail::Stage::ChunkScanInterleaved);
      CHECK(scan.pipeline.workgroupSize < 32);
      CHECK(uint64_t{scan.groupsX} * scan.groupsY * scan.pipeline.workgroupSize >= 32);
      checkAgainstReference(desc, false, 69, profile);
      desc.hasExclusiveSum = true;
      desc.axisDirection = AxisDirection::Decreasing;
      checkAgainstReference(desc, true, 70, profile);
    }
  }
}

// Plain walks take two nodes per loop iteration, so a line on vectors is
// walked whole up to a level-5 node: 2^20 elements in 32768 iterations,
// under lavapipe's cap of 65,535, each level-4 node after the first with
// the carry X_4. One type per unit width (8, 16 and 4 elements).
TEST_CASE("whole lines of up to 2^20 elements: level-5 walks, every unit width") {
  for (test::Profile profile : test::testedProfiles(
           {test::Profile::Native, test::Profile::DeviceAddresses, test::Profile::Emulated})) {
    Device::Impl& impl = Device::Access::impl(test::testDevice(profile));
    test::ScopedRestore<detail::Tuning> restoreTuning(impl.tuning);
    impl.tuning.wholeLineInvocations = 0;
    for (DataType type :
         {DataType::Float32, DataType::Float16, DataType::BFloat16, DataType::UInt64}) {
      // A whole level-5 node; its last node partial, in place.
      CumulativeSummationDesc full = test::packedDesc(type, {1u << 20}, 0);
      CumulativeSummationDesc partial = test::packedDesc(type, {(1u << 20) - 8}, 0);
      partial.hasExclusiveSum = true;
      for (const CumulativeSummationDesc& desc : {full, partial}) {
        detail::Plan plan = planOn(impl, desc);
        REQUIRE(plan.dispatches.size() == 1);
        CHECK(plan.dispatches[0].pipeline.stage == detail::Stage::ChunkScan);
        CHECK(plan.dispatches[0].params.shape == 5);
      }
      checkAgainstReference(full, false, 67, profile);
      checkAgainstReference(partial, true, 68, profile);
    }
  }
}

TEST_CASE("randomized: ranks 1 to 8, every axis, type, mode, layout") {
  std::mt19937_64 rng(20261122);
  const int cases = test::randomizedCases(std::getenv("VKSCAN_RANDOMIZED_CASES"), 300);
  int longAxes = 0, empties = 0;
  const std::vector<test::Profile> profiles = test::testedProfiles();
  for (int c = 0; c < cases; ++c) {
    uint64_t seed = rng();
    std::mt19937_64 pick(seed);
    uint32_t rank = 1 + pick() % 8;
    CumulativeSummationDesc desc;
    desc.input.dataType = kTypes[pick() % std::size(kTypes)];
    desc.axis = pick() % rank;
    std::vector<uint32_t>& sizes = desc.input.sizes;
    for (uint32_t d = 0; d < rank; ++d) {
      sizes.push_back(1 + pick() % (rank <= 2 ? 600 : (rank <= 4 ? 12 : 4)));
    }
    // Now and then an axis of several 4096-element tiles, so that strided and
    // broadcast layouts meet the look-back and multi-pass plans too.
    if (pick() % 8 == 0) {
      sizes[desc.axis] = 4096 + pick() % 16384;
      ++longAxes;
    }
    test::fitElements(desc.input, desc.axis, 1 << 15);
    if (pick() % 32 == 0) {
      sizes[pick() % rank] = 0;
      ++empties;
    }
    desc.output = desc.input;
    desc.axisDirection = pick() % 2 ? AxisDirection::Decreasing : AxisDirection::Increasing;
    desc.hasExclusiveSum = pick() % 2;
    bool inPlace = pick() % 3 == 0;
    // Strided layouts: a permuted (e.g. Fortran) order with padding, and
    // sometimes a broadcast input dimension.
    uint32_t layout = pick() % 3;
    if (layout > 0 && !inPlace) {
      std::vector<uint32_t> order(rank);
      for (uint32_t d = 0; d < rank; ++d) order[d] = d;
      std::shuffle(order.begin(), order.end(), pick);
      for (TensorDesc* tensor : {&desc.input, &desc.output}) {
        tensor->strides.assign(rank, 0);
        uint32_t stride = 1 + pick() % 2;
        for (uint32_t d : order) {
          tensor->strides[d] = stride;
          stride *= std::max<uint32_t>(1, tensor->sizes[d]) + pick() % 2;
        }
      }
      if (layout == 2) desc.input.strides[pick() % rank] = 0;
    }
    checkAgainstReference(desc, inPlace, seed, profiles[c % profiles.size()]);
  }
  MESSAGE(cases << " cases, " << longAxes << " with a long axis, " << empties << " empty");
  CHECK(longAxes >= cases / 16);
  CHECK(empties <= cases / 16);
}
