// DeviceOptions::disableFloat64 / disableFloat16: a device that pretends to
// lack a feature reports it, refuses the type with a clear message, and
// still runs every other type.
#include <doctest/doctest.h>

#include <string>

#include "reliability_util.hpp"

using namespace vkscan;
using namespace vkscan::test;

namespace {

void checkRejected(const Device& device, DataType type, const char* feature) {
  CAPTURE(dataTypeName(type));
  CHECK_FALSE(device.capabilities().supports(type));
  std::string message;
  try {
    device.createOperator(packedDesc(type, {10}, 0));
  } catch (const Unsupported& error) {
    message = error.what();
  }
  CAPTURE(message);
  CHECK(message.find(dataTypeName(type)) != std::string::npos);
  CHECK(message.find(feature) != std::string::npos);
}

void checkOthersRun(const Device& device, DataType missing1, DataType missing2) {
  for (DataType type : {DataType::Float32, DataType::Float16, DataType::Int32, DataType::UInt32,
                        DataType::Int64, DataType::UInt64, DataType::Float64}) {
    if (type == missing1 || type == missing2) continue;
    CAPTURE(dataTypeName(type));
    CHECK(device.capabilities().supports(type));
    CHECK(runMatchesReference(device, packedDesc(type, {3, 5000}, 1), 40));
  }
}

}  // namespace

TEST_CASE("missing features: disableFloat64") {
  DeviceOptions options = testDeviceOptions();
  options.disableFloat64 = true;
  Device device(options);
  CHECK_FALSE(device.capabilities().shaderFloat64);
  CHECK(device.capabilities().shaderFloat16);
  checkRejected(device, DataType::Float64, "shaderFloat64");
  checkOthersRun(device, DataType::Float64, DataType::Float64);
}

TEST_CASE("missing features: disableFloat16") {
  DeviceOptions options = testDeviceOptions();
  options.disableFloat16 = true;
  Device device(options);
  CHECK_FALSE(device.capabilities().shaderFloat16);
  CHECK_FALSE(device.capabilities().storageBuffer16BitAccess);
  CHECK(device.capabilities().shaderFloat64);
  checkRejected(device, DataType::Float16, "storageBuffer16BitAccess");
  checkOthersRun(device, DataType::Float16, DataType::Float16);
}

TEST_CASE("missing features: both, and Device::run rejects before allocating") {
  DeviceOptions options = testDeviceOptions();
  options.disableFloat64 = true;
  options.disableFloat16 = true;
  Device device(options);
  checkRejected(device, DataType::Float64, "shaderFloat64");
  checkRejected(device, DataType::Float16, "storageBuffer16BitAccess");
  std::vector<uint8_t> data(80, 0);
  CHECK_THROWS_AS(device.run(packedDesc(DataType::Float64, {10}, 0), data.data(), data.data()),
                  Unsupported);
  CHECK(device.cachedPipelineCount() == 0);
  checkOthersRun(device, DataType::Float64, DataType::Float16);
}
