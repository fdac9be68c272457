#include "reliability_util.hpp"

#include "reference.hpp"
#include "test_device.hpp"

namespace vkscan::test {

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
  run(device, desc, input.data(), output.data());
  return output == expected;
}

}  // namespace vkscan::test
