#include "two_byte_floats.hpp"

#include <algorithm>
#include <cstring>

#include "descriptors.hpp"

namespace vkscan::test {

std::vector<Profile> twoByteProfiles() {
  return testedProfiles({Profile::Native, Profile::GpuTuning, Profile::Emulated,
                         Profile::EmulatedGpuTuning, Profile::PackedHalves});
}

std::vector<uint8_t> twoByteBytes(const std::vector<uint16_t>& values) {
  std::vector<uint8_t> bytes(values.size() * 2);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::vector<uint16_t> scanTwoByte(DataType type, const std::vector<uint16_t>& input, bool exclusive,
                                  Profile profile) {
  CumulativeSummationDesc desc =
      packedDesc(type, {static_cast<uint32_t>(input.size())}, 0, exclusive);
  std::vector<uint8_t> out =
      runOnDevice(desc, twoByteBytes(input), false, std::vector<uint8_t>(), profile);
  std::vector<uint16_t> values(input.size());
  std::memcpy(values.data(), out.data(), std::min(out.size(), values.size() * 2));
  return values;
}

bool sameTwoByte(const std::vector<uint16_t>& actual, const std::vector<uint16_t>& expected,
                 uint16_t anyNaN) {
  if (actual.size() != expected.size()) return false;
  for (size_t i = 0; i < actual.size(); ++i) {
    bool nan = expected[i] == anyNaN && (actual[i] & 0x7FFFu) == anyNaN;
    if (actual[i] != expected[i] && !nan) return false;
  }
  return true;
}

}  // namespace vkscan::test
