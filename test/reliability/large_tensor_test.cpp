// Tensors larger than maxStorageBufferRange (128 MiB on lavapipe): vkscan
// binds by device address, so the descriptor range limit must not apply.
// Compared with the reference bit for bit. Peak memory: input, output and
// expected on the host plus input and output on the device, about 0.8 GB.
#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "device/device_impl.hpp"
#include "plan/plan.hpp"
#include "problem.hpp"
#include "reliability_util.hpp"
#include "test_device.hpp"

using namespace vkscan;
using namespace vkscan::test;

namespace {

void checkLarge(const CumulativeSummationDesc& desc, uint64_t seed,
                Profile profile = Profile::Native) {
  std::string what = describe(desc) + " on " + profileName(profile);
  CAPTURE(what);
  const Device& device = testDevice(profile);
  uint64_t bytes = desc.input.totalBytes();
  CHECK(bytes > capabilities(device).maxStorageBufferRange);
  std::vector<uint8_t> input = randomInput(desc, seed);
  std::vector<uint8_t> expected = referenceOutput(desc, input, {});
  std::vector<uint8_t> output(desc.output.totalBytes());
  run(device, desc, input.data(), output.data());
  int64_t firstDifference = -1;
  size_t size = dataTypeSize(desc.input.dataType);
  for (size_t i = 0; i < output.size() && firstDifference < 0; i += size) {
    if (std::memcmp(&output[i], &expected[i], size) != 0) firstDifference = i / size;
  }
  CAPTURE(firstDifference);
  CHECK(firstDifference == -1);
  MESSAGE(what << ": " << bytes / 1000000 << " MB compared bit for bit");
}

}  // namespace

TEST_CASE("large: 40 M float32 along one axis (160 MB)") {
  checkLarge(packedDesc(DataType::Float32, {40000000}, 0), 81);
}

TEST_CASE("large: many rows, 2^21 rows of 19 float32 (160 MB)") {
  checkLarge(packedDesc(DataType::Float32, {(1u << 21) + 3, 19}, 1, true), 82);
}

TEST_CASE("large: many columns, 20 M x 2 float32 along axis 0 (160 MB)") {
  checkLarge(packedDesc(DataType::Float32, {20000000, 2}, 0, false, AxisDirection::Decreasing), 83);
}

// The int64-free kernels: 32-bit offsets from uvec2 addresses, walking down
// 160 MB from the last element, with 64-bit sums as word pairs.
TEST_CASE("large: without shaderInt64, 20 M int64 decreasing (160 MB)") {
  checkLarge(packedDesc(DataType::Int64, {20000000}, 0, false, AxisDirection::Decreasing), 84,
             Profile::Emulated);
}

// A tensor of exactly maxStorageBufferRange is bound as storage buffers where
// the device's alignment divides 16 (lavapipe), and the validation layer
// (which holds every case here to no messages) checks each pushed range.
// 2^24 UINT64 is 128 MiB.
TEST_CASE("large: 2^24 uint64, exactly maxStorageBufferRange on lavapipe (128 MiB)") {
  CumulativeSummationDesc desc = packedDesc(DataType::UInt64, {1u << 24}, 0);
  const DeviceCapabilities& caps = capabilities(testDevice());
  if (caps.maxStorageBufferRange != desc.input.totalBytes()) {
    MESSAGE("maxStorageBufferRange is " << caps.maxStorageBufferRange << ", not 128 MiB: skipped");
    return;
  }
  const Device::Impl& impl = Device::Access::impl(testDevice());
  detail::Plan plan = detail::makePlan(detail::normalize(desc), impl.planLimits(), impl.tuning);
  REQUIRE(!plan.dispatches.empty());
  for (const detail::Dispatch& d : plan.dispatches) CHECK(d.pipeline.storageBuffers);
  std::vector<uint8_t> input = randomInput(desc, 85);
  std::vector<uint8_t> expected = referenceOutput(desc, input, {});
  std::vector<uint8_t> output(desc.output.totalBytes());
  run(testDevice(), desc, input.data(), output.data());
  CHECK(output == expected);
}
