// What the FLOAT16 and BFLOAT16 rounding tests share: 2-byte values in and
// out of a 1-D scan, the profiles that run every build of the 2-byte kernels,
// and a comparison that takes either sign of a NaN that sums make.
#pragma once

#include <cstdint>
#include <vector>
#include <vkscan/vkscan.hpp>

#include "test_device.hpp"

namespace vkscan::test {

// The 16-bit-storage builds, the packed-word ones, with and without Int64.
std::vector<Profile> twoByteProfiles();

// The values' bytes, as a tensor holds them.
std::vector<uint8_t> twoByteBytes(const std::vector<uint16_t>& values);

// The 1-D scan of `input` (the values' bits) as `type` on the profile's device.
std::vector<uint16_t> scanTwoByte(DataType type, const std::vector<uint16_t>& input, bool exclusive,
                                  Profile profile);

// Equal bits, except that where `expected` holds `anyNaN` (a quiet NaN) a
// NaN of either sign matches: the sign of infinity minus infinity is the
// device's.
bool sameTwoByte(const std::vector<uint16_t>& actual, const std::vector<uint16_t>& expected,
                 uint16_t anyNaN);

// A 1-D input and its inclusive sums' bits.
struct TwoByteCase {
  const char* what;
  std::vector<uint16_t> input;
  std::vector<uint16_t> inclusive;
};

// Checks every case, inclusive and exclusive (+0 first, then the inclusive
// sums shifted), on every twoByteProfiles() device.
void checkTwoByteCases(DataType type, const std::vector<TwoByteCase>& cases, uint16_t anyNaN);

}  // namespace vkscan::test
