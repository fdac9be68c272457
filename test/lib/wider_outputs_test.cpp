// Outputs wider than their input (outputTypeWidens()): a widening copy, then
// the scan of the output in place, against the reference (the input
// converted exactly, then scanned as the output's type), bit for bit.
#include <doctest/doctest.h>

#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "descriptors.hpp"
#include "device/device_impl.hpp"
#include "host/device_buffer.hpp"
#include "plan/plan.hpp"
#include "plan_invariants.hpp"
#include "problem.hpp"
#include "reference.hpp"
#include "test_device.hpp"

using namespace vkscan;

namespace {

struct Widening {
  DataType input;
  DataType output;
};

const Widening kWidenings[] = {{DataType::Int32, DataType::Int64},
                               {DataType::UInt32, DataType::UInt64},
                               {DataType::Float16, DataType::Float32},
                               {DataType::BFloat16, DataType::Float32},
                               {DataType::Float32, DataType::Float64}};

const ScanOperation kOperations[] = {ScanOperation::Sum, ScanOperation::Maximum,
                                     ScanOperation::Product, ScanOperation::Minimum};

ScanDesc widened(Widening widening, std::vector<uint32_t> sizes, uint32_t axis) {
  ScanDesc desc = scanDesc(test::packedDesc(widening.input, std::move(sizes), axis));
  desc.output.dataType = widening.output;
  return desc;
}

// The paths of the scan after the copy, as the operations suite's: 1-D
// across one-pass tiles, rows, interleaved columns, short lines, columns of
// rows, an input and output of different paddings, a tiny line.
std::vector<ScanDesc> paths(Widening widening) {
  ScanDesc padded = widened(widening, {3, 700}, 1);
  padded.input.strides = {700 + 8, 1};
  padded.output.strides = {700 + 24, 1};
  return {widened(widening, {3 * 4096 + 5}, 0),
          widened(widening, {37, 300}, 1),
          widened(widening, {700, 48}, 0),
          widened(widening, {1000, 3}, 1),
          widened(widening, {3, 37, 64}, 1),
          padded,
          widened(widening, {17}, 0)};
}

void check(const ScanDesc& desc, uint64_t seed, test::Profile profile) {
  CAPTURE(test::describe(desc));
  std::string output = dataTypeName(desc.output.dataType);
  CAPTURE(output);
  const std::string profileName = test::profileName(profile);
  CAPTURE(profileName);
  size_t inSize = dataTypeSize(desc.input.dataType);
  size_t outSize = dataTypeSize(desc.output.dataType);
  std::vector<uint8_t> input = test::randomOperands(desc.operation, desc.input.dataType,
                                                    desc.input.totalBytes() / inSize + 1, seed);
  input.resize(desc.input.totalBytes());
  std::vector<uint8_t> expected(desc.output.totalBytes(), 0xA5);
  std::vector<uint8_t> initialOutput = expected;
  test::referenceScan(desc, input, expected);
  std::vector<uint8_t> actual =
      test::runOnDevice(desc, input, false, initialOutput, test::testDevice(profile));
  int64_t difference = test::firstDifference(actual, expected, outSize);
  CAPTURE(difference);
  CHECK(actual.size() == expected.size());
  CHECK(difference == -1);
}

template <typename T>
std::vector<uint8_t> bytesOf(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

template <typename T>
std::vector<T> valuesOf(const std::vector<uint8_t>& bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

}  // namespace

// Each profile runs each widening on one path in one mode and operation,
// turning with the profile, so that across profiles each widening meets
// every path, mode and operation (test::exhaustive() for all of them).
TEST_CASE("wider outputs: every widening, path, operation and mode against the reference") {
  for (test::Profile profile : test::testedProfiles()) {
    uint32_t turn = static_cast<uint32_t>(profile);
    for (uint32_t w = 0; w < std::size(kWidenings); ++w) {
      std::vector<ScanDesc> shapes = paths(kWidenings[w]);
      for (uint32_t s = 0; s < shapes.size(); ++s) {
        for (uint32_t mode = 0; mode < 4; ++mode) {
          for (uint32_t o = 0; o < std::size(kOperations); ++o) {
            bool chosen = s == (w + turn) % shapes.size() && mode == (w + turn) % 4 &&
                          o == (w + 3 * turn) % std::size(kOperations);
            if (!test::exhaustive() && !chosen) continue;
            ScanDesc desc = shapes[s];
            desc.operation = kOperations[o];
            desc.axisDirection =
                mode % 2 == 0 ? AxisDirection::Increasing : AxisDirection::Decreasing;
            desc.exclusive = mode / 2 == 1;
            check(desc, 100 * w + 10 * s + mode, profile);
          }
        }
      }
    }
  }
}

// The point of a wider output: what the input's type would wrap or round
// away, the output's holds.
TEST_CASE("wider outputs: an INT32 sum that wraps is exact in INT64, a FLOAT16 one in FLOAT32") {
  const uint32_t n = 100003;
  for (test::Profile profile : test::testedProfiles()) {
    const std::string profileName = test::profileName(profile);
    CAPTURE(profileName);
    Device& device = test::testDevice(profile);

    std::vector<int32_t> big(n, (1 << 30) + 7);
    ScanDesc ints = widened({DataType::Int32, DataType::Int64}, {n}, 0);
    std::vector<uint8_t> out(ints.output.totalBytes());
    run(device, ints, bytesOf(big).data(), out.data());
    std::vector<int64_t> sums = valuesOf<int64_t>(out);
    int64_t wrong = -1;
    for (uint32_t i = 0; i < n && wrong < 0; ++i) {
      if (sums[i] != int64_t{(1 << 30) + 7} * (i + 1)) wrong = i;
    }
    CHECK(wrong == -1);
    CHECK(sums[n - 1] > INT32_MAX);

    // Ones: FLOAT16 stops counting at 2048 (2048 + 1 rounds to 2048).
    std::vector<uint16_t> ones(n, 0x3C00);
    ScanDesc halves = widened({DataType::Float16, DataType::Float32}, {n}, 0);
    halves.axisDirection = AxisDirection::Decreasing;
    out.assign(halves.output.totalBytes(), 0);
    run(device, halves, bytesOf(ones).data(), out.data());
    std::vector<float> counts = valuesOf<float>(out);
    wrong = -1;
    for (uint32_t i = 0; i < n && wrong < 0; ++i) {
      if (counts[i] != static_cast<float>(n - i)) wrong = i;
    }
    CHECK(wrong == -1);
  }
}

TEST_CASE("wider outputs: the widening pairs, and no other") {
  const DataType types[] = {DataType::Float32, DataType::Float16, DataType::Int32,
                            DataType::UInt32,  DataType::Int64,   DataType::UInt64,
                            DataType::Float64, DataType::BFloat16};
  int widenings = 0;
  for (DataType input : types) {
    for (DataType output : types) {
      if (input == output) continue;
      ScanDesc desc = scanDesc(test::packedDesc(input, {4, 6}, 1));
      desc.output.dataType = output;
      CAPTURE(dataTypeName(input));
      CAPTURE(dataTypeName(output));
      bool listed = false;
      for (Widening widening : kWidenings) {
        listed |= widening.input == input && widening.output == output;
      }
      CHECK(outputTypeWidens(input, output) == listed);
      if (listed) {
        ++widenings;
        CHECK_NOTHROW(detail::normalize(desc));
        continue;
      }
      try {
        detail::normalize(desc);
        FAIL("accepted a narrowing or unrelated output type");
      } catch (const InvalidArgument& error) {
        CHECK(error.field() == "output.dataType");
        CHECK(std::string(error.what()).find(dataTypeName(output)) != std::string::npos);
      }
    }
  }
  CHECK(widenings == 5);
}

TEST_CASE("wider outputs: a widening copy first, then the scan reads the output in place") {
  ScanDesc desc = widened({DataType::Float16, DataType::Float32}, {3, 5000}, 1);
  detail::Problem problem = detail::normalize(desc);
  REQUIRE(static_cast<bool>(problem.widenedFrom));
  CHECK(problem.type == DataType::Float32);
  CHECK(problem.widenedFrom->type == DataType::Float16);
  for (detail::DeviceClass deviceClass : {detail::DeviceClass::Cpu, detail::DeviceClass::Gpu}) {
    detail::Tuning tuning = detail::tuningFor(deviceClass, 8, 1024, {2, 2});
    detail::Plan plan =
        detail::makePlan(problem, detail::PlanLimits{8, 1024, 65535, 65535}, tuning);
    REQUIRE(plan.dispatches.size() >= 2);
    CHECK(plan.scansOutputInPlace);
    const detail::Dispatch& copy = plan.dispatches[0];
    CHECK(copy.pipeline.stage == detail::Stage::Widen);
    CHECK(copy.in == detail::BufferRole::Input);
    CHECK(copy.out == detail::BufferRole::Output);
    for (size_t i = 1; i < plan.dispatches.size(); ++i) {
      CHECK(plan.dispatches[i].pipeline.stage != detail::Stage::Widen);
      CHECK(plan.dispatches[i].in != detail::BufferRole::Input);
      CHECK(plan.dispatches[i].pipeline.type == DataType::Float32);
    }
  }
  // The plan invariants (as the fuzzer checks them) for every widening on
  // shapes of each plan family, on a CPU device and on GPUs of subgroups
  // 4 to 64.
  for (Widening widening : kWidenings) {
    for (const ScanDesc& shape : paths(widening)) {
      CumulativeSummationDesc geometry{shape.input, shape.output, shape.axis,
                                       AxisDirection::Decreasing, true};
      for (uint32_t subgroup : {4u, 8u, 32u, 64u}) {
        detail::DeviceClass deviceClass =
            subgroup == 8 ? detail::DeviceClass::Cpu : detail::DeviceClass::Gpu;
        detail::PlanLimits limits{subgroup, 1024, 65535, 65535};
        detail::Plan plan =
            detail::makePlan(detail::normalize(geometry), limits,
                             detail::tuningFor(deviceClass, subgroup, 1024, {2, 2}));
        std::vector<std::string> broken = test::planViolations(geometry, plan, limits);
        std::string lines = test::describe(geometry) + " -> " + dataTypeName(widening.output);
        for (const std::string& line : broken) lines += "\n" + line;
        CHECK_MESSAGE(broken.empty(), lines);
      }
    }
  }
  // Past 2^47 elements in one piece the copy would loop more than lavapipe
  // allows: refused, naming the sizes.
  ScanDesc huge = widened({DataType::Int32, DataType::Int64}, {65536, 65536, 65536}, 2);
  try {
    detail::makePlan(detail::normalize(huge), detail::PlanLimits{32, 1024, 65535, 65535},
                     detail::tuningFor(detail::DeviceClass::Gpu, 32, 1024, {}));
    FAIL("planned a widening copy of 2^48 elements");
  } catch (const InvalidArgument& error) {
    CHECK(error.field() == "input.sizes");
  }
  // Same types: no copy.
  detail::Plan plain = detail::makePlan(
      detail::normalize(scanDesc(test::packedDesc(DataType::Float16, {3, 5000}, 1))),
      detail::PlanLimits{8, 1024, 65535, 65535},
      detail::tuningFor(detail::DeviceClass::Gpu, 8, 1024, {}));
  CHECK_FALSE(plain.scansOutputInPlace);
  CHECK(plain.dispatches[0].pipeline.stage != detail::Stage::Widen);
  CHECK(plain.dispatches[0].in == detail::BufferRole::Input);
}

TEST_CASE("wider outputs: in place is refused, by record() and by run()") {
  ScanDesc desc = widened({DataType::Int32, DataType::Int64}, {64}, 0);
  Device& device = test::testDevice();
  Operator op = device.createOperator(desc);
  detail::DeviceBuffer deviceBuffer(Device::Access::impl(device), desc.output.totalBytes());
  // Any non-null handle will do: the check fires before the first command.
  auto commandBuffer = reinterpret_cast<VkCommandBuffer>(uintptr_t{1});
  try {
    op.record(commandBuffer, deviceBuffer.binding(), deviceBuffer.binding());
    FAIL("recorded a widening scan in place");
  } catch (const InvalidArgument& error) {
    CHECK(error.field() == "bindings.output");
    CHECK(std::string(error.reason()).find("wider") != std::string::npos);
  }
  std::vector<uint8_t> buffer(desc.output.totalBytes());
  try {
    run(device, desc, buffer.data(), buffer.data());
    FAIL("ran a widening scan in place");
  } catch (const InvalidArgument& error) {
    CHECK(error.field() == "output");
    CHECK(std::string(error.reason()).find("INT64") != std::string::npos);
  }
}
