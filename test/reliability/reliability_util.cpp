#include "reliability_util.hpp"

#include <cstdlib>
#include <cstring>

#include "reference.hpp"
#include "test_device.hpp"

namespace vkscan::test {

DeviceOptions testDeviceOptions() {
  DeviceOptions options;
  const char* env = std::getenv("VKSCAN_TEST_VALIDATION");
  options.enableValidation = env == nullptr || std::strcmp(env, "0") != 0;
  return options;
}

CumulativeSummationDesc packedDesc(DataType type, std::vector<uint32_t> sizes, uint32_t axis,
                                   bool exclusive, AxisDirection direction) {
  CumulativeSummationDesc desc;
  desc.input = {type, std::move(sizes), {}};
  desc.output = desc.input;
  desc.axis = axis;
  desc.hasExclusiveSum = exclusive;
  desc.axisDirection = direction;
  return desc;
}

std::string describe(const CumulativeSummationDesc& desc) {
  auto list = [](const std::vector<uint32_t>& v) {
    std::string s = "{";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
    return s + "}";
  };
  return std::string(dataTypeName(desc.input.dataType)) + " sizes=" + list(desc.input.sizes) +
         " inStrides=" + list(desc.input.strides) + " outStrides=" + list(desc.output.strides) +
         " axis=" + std::to_string(desc.axis) +
         (desc.axisDirection == AxisDirection::Decreasing ? " decreasing" : " increasing") +
         (desc.hasExclusiveSum ? " exclusive" : " inclusive");
}

std::vector<uint8_t> randomInput(const CumulativeSummationDesc& desc, uint64_t seed) {
  size_t size = dataTypeSize(desc.input.dataType);
  std::vector<uint8_t> input =
      randomElements(desc.input.dataType, desc.input.totalBytes() / size + 1, seed);
  input.resize(desc.input.totalBytes());
  return input;
}

std::vector<uint8_t> referenceOutput(const CumulativeSummationDesc& desc,
                                     const std::vector<uint8_t>& input,
                                     std::vector<uint8_t> initialOutput) {
  initialOutput.resize(desc.output.totalBytes());
  referenceCumsum(desc, input, initialOutput);
  return initialOutput;
}

bool runMatchesReference(const Device& device, const CumulativeSummationDesc& desc, uint64_t seed) {
  std::vector<uint8_t> input = randomInput(desc, seed);
  std::vector<uint8_t> output(desc.output.totalBytes(), 0xA5);
  std::vector<uint8_t> expected = referenceOutput(desc, input, output);
  device.run(desc, input.data(), output.data());
  return output == expected;
}

}  // namespace vkscan::test
