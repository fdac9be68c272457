// The indices of a running maximum or minimum (ScanDesc::indices): records,
// then a scan of the indices in place, against the reference's PyTorch
// semantics (ties to the later element, NaNs winning), with the values bit
// for bit too.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "descriptors.hpp"
#include "device/device_impl.hpp"
#include "host/device_buffer.hpp"
#include "plan/plan.hpp"
#include "problem.hpp"
#include "reference.hpp"
#include "test_device.hpp"

using namespace vkscan;

namespace {

const DataType kTypes[] = {DataType::Float32, DataType::Float16, DataType::Int32,
                           DataType::UInt32,  DataType::Int64,   DataType::UInt64,
                           DataType::Float64, DataType::BFloat16};

ScanDesc withIndices(ScanOperation operation, const CumulativeSummationDesc& geometry) {
  ScanDesc desc = scanDesc(geometry);
  desc.operation = operation;
  desc.indices = {DataType::Int64, desc.output.sizes, desc.output.strides};
  return desc;
}

// The paths of the values' and the indices' scans: 1-D across one-pass
// tiles, rows, interleaved columns, short lines, a padded output.
std::vector<ScanDesc> paths(ScanOperation operation, DataType type) {
  CumulativeSummationDesc padded = test::packedDesc(type, {3, 700}, 1);
  padded.input.strides = {700 + 8, 1};
  padded.output.strides = {700 + 24, 1};
  return {withIndices(operation, test::packedDesc(type, {3 * 4096 + 5}, 0)),
          withIndices(operation, test::packedDesc(type, {37, 300}, 1)),
          withIndices(operation, test::packedDesc(type, {700, 48}, 0)),
          withIndices(operation, test::packedDesc(type, {1000, 3}, 1)),
          withIndices(operation, padded)};
}

void check(const ScanDesc& desc, uint64_t seed, Device& device, const std::string& profileName) {
  CAPTURE(test::describe(desc));
  CAPTURE(profileName);
  CAPTURE(seed);
  size_t size = dataTypeSize(desc.input.dataType);
  std::vector<uint8_t> input = test::randomOperands(desc.operation, desc.input.dataType,
                                                    desc.input.totalBytes() / size + 1, seed);
  input.resize(desc.input.totalBytes());
  std::vector<uint8_t> values(desc.output.totalBytes(), 0xA5);
  std::vector<uint8_t> indices(desc.indices.totalBytes(), 0x5A);
  std::vector<uint8_t> expectedValues = values;
  std::vector<uint8_t> expectedIndices = indices;
  test::referenceScan(desc, input, expectedValues, &expectedIndices);
  run(device, desc, input.data(), values.data(), indices.data());
  int64_t valueDifference = test::firstDifference(values, expectedValues, size);
  int64_t indexDifference = test::firstDifference(indices, expectedIndices, 8);
  CAPTURE(valueDifference);
  CAPTURE(indexDifference);
  CHECK(valueDifference == -1);
  CHECK(indexDifference == -1);
}

}  // namespace

// Each profile runs half the types (a float and an integer of each size
// between them), each on one path, operation and direction, turning with
// the profile so that across profiles each type meets every operation,
// direction and path (test::exhaustive() for all of them). Each check
// compiles the values', records' and indices' pipelines: 145 s cold for
// every type on eight profiles.
TEST_CASE("indices: maximum and minimum, every type, path and direction, against PyTorch's") {
  for (test::Profile profile : test::testedProfiles()) {
    uint32_t turn = static_cast<uint32_t>(profile);
    const std::string profileName = test::profileName(profile);
    for (uint32_t t = 0; t < std::size(kTypes); ++t) {
      for (ScanOperation operation : {ScanOperation::Maximum, ScanOperation::Minimum}) {
        std::vector<ScanDesc> shapes = paths(operation, kTypes[t]);
        for (uint32_t s = 0; s < shapes.size(); ++s) {
          for (AxisDirection direction : {AxisDirection::Increasing, AxisDirection::Decreasing}) {
            uint32_t o = operation == ScanOperation::Maximum ? 0 : 1;
            uint32_t d = direction == AxisDirection::Increasing ? 0 : 1;
            bool chosen = s == (t + turn) % shapes.size() && 2 * o + d == (t + turn) % 4 &&
                          (t / 2 + turn) % 2 == 0;
            if (!test::exhaustive() && !chosen) continue;
            ScanDesc desc = shapes[s];
            desc.axisDirection = direction;
            check(desc, 100 * t + 10 * s + 2 * o + d, test::testDevice(profile), profileName);
          }
        }
      }
    }
  }
}

// Lines whose values tie everywhere: the latest element's index each time
// (increasing), the least index of the suffix decreasing; NaNs take over.
TEST_CASE("indices: ties go to the later element, a NaN holds its index until the next NaN") {
  ScanDesc desc = withIndices(ScanOperation::Maximum, test::packedDesc(DataType::Float32, {8}, 0));
  const float nan = NAN;
  const float input[8] = {1, 1, -0.0f, 1, nan, 5, nan, 1};
  float values[8];
  int64_t indices[8];
  run(test::testDevice(), desc, input, values, indices);
  const int64_t increasing[8] = {0, 1, 1, 3, 4, 4, 6, 6};
  CHECK(std::memcmp(indices, increasing, sizeof(indices)) == 0);
  desc.axisDirection = AxisDirection::Decreasing;
  run(test::testDevice(), desc, input, values, indices);
  const int64_t decreasing[8] = {4, 4, 4, 4, 4, 6, 6, 7};
  CHECK(std::memcmp(indices, decreasing, sizeof(indices)) == 0);
  desc.operation = ScanOperation::Minimum;
  desc.axisDirection = AxisDirection::Increasing;
  run(test::testDevice(), desc, input, values, indices);
  const int64_t minimum[8] = {0, 1, 2, 2, 4, 4, 6, 6};
  CHECK(std::memcmp(indices, minimum, sizeof(indices)) == 0);
}

TEST_CASE("indices: refused where they have no meaning, naming the field") {
  Device& device = test::testDevice();
  auto expectRefused = [&](const ScanDesc& desc, const std::string& field) {
    CAPTURE(field);
    try {
      device.createOperator(desc);
      FAIL("accepted");
    } catch (const InvalidArgument& error) {
      CHECK(error.field() == field);
    }
  };
  CumulativeSummationDesc geometry = test::packedDesc(DataType::Float32, {4, 6}, 1);
  ScanDesc desc = withIndices(ScanOperation::Sum, geometry);
  expectRefused(desc, "indices");
  desc = withIndices(ScanOperation::Maximum, geometry);
  desc.indices.dataType = DataType::Int32;
  expectRefused(desc, "indices.dataType");
  desc = withIndices(ScanOperation::Maximum, geometry);
  desc.indices.sizes = {4, 7};
  expectRefused(desc, "indices.sizes");
  desc = withIndices(ScanOperation::Maximum, geometry);
  desc.indices.strides = {12, 1};
  expectRefused(desc, "indices.strides");
  desc = withIndices(ScanOperation::Minimum, geometry);
  desc.exclusive = true;
  expectRefused(desc, "exclusive");
  desc = withIndices(ScanOperation::Maximum, test::packedDesc(DataType::Int32, {4, 6}, 1));
  desc.output.dataType = DataType::Int64;
  expectRefused(desc, "indices");

  // In place, and bindings that miss or overlap.
  desc = withIndices(ScanOperation::Maximum, geometry);
  std::vector<uint8_t> buffer(desc.output.totalBytes());
  std::vector<uint8_t> indices(desc.indices.totalBytes());
  try {
    run(device, desc, buffer.data(), buffer.data(), indices.data());
    FAIL("ran in place");
  } catch (const InvalidArgument& error) {
    CHECK(error.field() == "output");
  }
  try {
    run(device, desc, buffer.data(), indices.data(), nullptr);
    FAIL("ran without indices");
  } catch (const InvalidArgument& error) {
    CHECK(error.field() == "indices");
  }
  Operator op = device.createOperator(desc);
  Device::Impl& impl = Device::Access::impl(device);
  detail::DeviceBuffer a(impl, 4096);
  auto commandBuffer = reinterpret_cast<VkCommandBuffer>(uintptr_t{1});
  BufferBinding in{a.buffer(), 0, 96};
  BufferBinding out{a.buffer(), 128, 96};
  auto expectBindingRefused = [&](const BufferBinding& indexBinding, const std::string& field) {
    CAPTURE(field);
    try {
      op.record(commandBuffer, in, out, indexBinding, {});
      FAIL("accepted the bindings");
    } catch (const InvalidArgument& error) {
      CHECK(error.field() == field);
    }
  };
  expectBindingRefused({}, "bindings.indices.buffer");
  expectBindingRefused({a.buffer(), 256, 8}, "bindings.indices.size");
  expectBindingRefused({a.buffer(), 64, 192}, "bindings.indices");
  try {
    op.record(commandBuffer, in, out);  // no indices binding at all
    FAIL("recorded without indices");
  } catch (const InvalidArgument& error) {
    CHECK(error.field() == "bindings.indices.buffer");
  }
  Operator plain = device.createOperator(geometry);
  try {
    plain.record(commandBuffer, in, out, {a.buffer(), 256, 192}, {});
    FAIL("took indices for a sum");
  } catch (const InvalidArgument& error) {
    CHECK(error.field() == "bindings.indices.buffer");
  }
}

TEST_CASE("indices: the values' scan, then records, then the indices scanned in place") {
  ScanDesc desc =
      withIndices(ScanOperation::Minimum, test::packedDesc(DataType::Float16, {3, 5000}, 1));
  desc.axisDirection = AxisDirection::Decreasing;
  detail::Problem problem = detail::normalize(desc);
  REQUIRE(static_cast<bool>(problem.indexScan));
  CHECK(problem.indexScan->type == DataType::Int64);
  CHECK(problem.indexScan->operation == ScanOperation::Minimum);
  CHECK(problem.indexScan->signedValues);
  for (detail::DeviceClass deviceClass : {detail::DeviceClass::Cpu, detail::DeviceClass::Gpu}) {
    detail::Tuning tuning = detail::tuningFor(deviceClass, 8, 1024, {2, 2});
    detail::Plan plan =
        detail::makePlan(problem, detail::PlanLimits{8, 1024, 65535, 65535}, tuning);
    CHECK(plan.scansIndicesInPlace);
    size_t records = plan.dispatches.size();
    for (size_t i = 0; i < plan.dispatches.size(); ++i) {
      const detail::Dispatch& d = plan.dispatches[i];
      if (d.pipeline.stage == detail::Stage::Records) {
        CHECK(records == plan.dispatches.size());  // one piece: one records pass
        records = i;
        CHECK(d.in == detail::BufferRole::Input);
        CHECK(d.aux == detail::BufferRole::Output);
        CHECK(d.out == detail::BufferRole::Indices);
        CHECK(d.pipeline.reverse);
      } else if (i < records) {
        CHECK(d.pipeline.type == DataType::Float16);
        CHECK(d.in != detail::BufferRole::Indices);
        CHECK(d.out != detail::BufferRole::Indices);
      } else {
        CHECK(d.pipeline.type == DataType::Int64);
        CHECK(d.in != detail::BufferRole::Input);
        CHECK(d.in != detail::BufferRole::Output);
        CHECK(d.out != detail::BufferRole::Output);
      }
    }
    CHECK(records > 0);
    CHECK(records + 1 < plan.dispatches.size());
  }
}
