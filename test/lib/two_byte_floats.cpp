#include "two_byte_floats.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <string>

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

void checkTwoByteCases(DataType type, const std::vector<TwoByteCase>& cases, uint16_t anyNaN) {
  for (Profile profile : twoByteProfiles()) {
    std::string profileText = profileName(profile);
    CAPTURE(profileText);
    for (const TwoByteCase& c : cases) {
      std::string whatText = c.what;
      CAPTURE(whatText);
      CHECK(sameTwoByte(scanTwoByte(type, c.input, false, profile), c.inclusive, anyNaN));
      std::vector<uint16_t> exclusive(c.input.size(), 0);
      for (size_t i = 1; i < c.input.size(); ++i) exclusive[i] = c.inclusive[i - 1];
      CHECK(sameTwoByte(scanTwoByte(type, c.input, true, profile), exclusive, anyNaN));
    }
  }
}

}  // namespace vkscan::test
