// FLOAT16 conversions: the kernels convert halves in integer code so that
// every device rounds alike. These cases are where devices may differ:
// ties (round to nearest even, not toward zero), overflow to infinity,
// denormal halves (which a device may flush), signed zeros, infinities and
// NaNs (inputs, and NaNs that sums make).
// Each runs through the 16-bit-storage kernels and the packed-word ones.
#include <doctest/doctest.h>

#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "descriptors.hpp"
#include "reference.hpp"
#include "test_device.hpp"
#include "two_byte_floats.hpp"

using namespace vkscan;
using namespace vkscan::test;

namespace {

// kAnyNaN stands for a quiet NaN of either sign: the sign of a NaN that an
// addition makes (infinity minus infinity) is the device's.
constexpr uint16_t kAnyNaN = 0x7E00;

const std::vector<TwoByteCase> kCases = {
    {"tie rounds down to even: 1 + 2^-11", {0x3C00, 0x1000}, {0x3C00, 0x3C00}},
    {"tie rounds up to even: (1 + 2^-10) + 2^-11", {0x3C01, 0x1000}, {0x3C01, 0x3C02}},
    {"just above a tie rounds up", {0x3C00, 0x1000, 0x0002}, {0x3C00, 0x3C00, 0x3C01}},
    {"65504 + 16 = 65520 overflows to infinity", {0x7BFF, 0x4C00}, {0x7BFF, 0x7C00}},
    {"65504 + 8 rounds back to 65504", {0x7BFF, 0x4800}, {0x7BFF, 0x7BFF}},
    {"denormals add exactly and carry into the normals",
     {0x0001, 0x0001, 0x03FF},
     {0x0001, 0x0002, 0x0401}},
    {"a normal minus a denormal gives a denormal", {0x0400, 0x8001}, {0x0400, 0x03FF}},
    {"negative zero stays negative", {0x8000, 0x8000}, {0x8000, 0x8000}},
    {"infinity propagates", {0x7C00, 0x3C00, 0xBC00}, {0x7C00, 0x7C00, 0x7C00}},
    {"negative infinity from overflow", {0xFBFF, 0xFBFF}, {0xFBFF, 0xFC00}},
    {"infinities of opposite signs give NaN", {0x7C00, 0xFC00, 0x3C00}, {0x7C00, kAnyNaN, kAnyNaN}},
    {"a NaN input propagates", {0x3C00, 0x7E00, 0x3C00}, {0x3C00, kAnyNaN, kAnyNaN}},
    {"a NaN with a payload becomes the quiet NaN", {0x7C01, 0x3C00}, {kAnyNaN, kAnyNaN}},
    {"negative NaN input", {0xFE00, 0x3C00}, {kAnyNaN, kAnyNaN}},
};

}  // namespace

TEST_CASE("FLOAT16 rounding: ties, overflow, denormals, zeros, infinities and NaNs") {
  checkTwoByteCases(DataType::Float16, kCases, kAnyNaN);
}

TEST_CASE("FLOAT16 rounding: tiny values everywhere, every layout, against the reference") {
  // Exponents 0 to 3: denormal halves and the smallest normals, so most sums
  // are denormal or round at the bottom of the range. Sizes give full and
  // partial nodes, odd line counts (neighbouring lines share 32-bit words in
  // the packed kernels) and multiples of 4 (interleaved lines).
  std::mt19937 rng(1234);
  std::uniform_int_distribution<uint32_t> mantissa(0, 0x3FF);
  std::uniform_int_distribution<uint32_t> exponent(0, 3);
  std::bernoulli_distribution negative(0.3);
  struct Shape {
    std::vector<uint32_t> sizes;
    uint32_t axis;
  };
  const Shape shapes[] = {{{4099}, 0}, {{123, 7}, 0}, {{123, 8}, 0}, {{7, 301}, 1}};
  // Each shape on every other profile, turning (all of them exhaustive()).
  const std::vector<Profile> profiles = twoByteProfiles();
  for (size_t p = 0; p < profiles.size(); ++p) {
    Profile profile = profiles[p];
    std::string profileText = profileName(profile);
    CAPTURE(profileText);
    for (size_t s = 0; s < std::size(shapes); ++s) {
      if (!exhaustive() && profiles.size() > 1 && (s + p) % 2 != 0) continue;
      const Shape& shape = shapes[s];
      for (bool exclusive : {false, true}) {
        for (AxisDirection direction : {AxisDirection::Increasing, AxisDirection::Decreasing}) {
          CumulativeSummationDesc desc =
              packedDesc(DataType::Float16, shape.sizes, shape.axis, exclusive, direction);
          CAPTURE(describe(desc));
          uint64_t count = 1;
          for (uint32_t size : shape.sizes) count *= size;
          std::vector<uint16_t> halves(count);
          for (uint16_t& h : halves) {
            h = static_cast<uint16_t>((negative(rng) ? 0x8000u : 0u) | (exponent(rng) << 10) |
                                      mantissa(rng));
          }
          // Buffers are padded to 4 bytes; the padding must come back unchanged.
          std::vector<uint8_t> input = twoByteBytes(halves);
          input.resize(desc.input.totalBytes(), 0xEE);
          std::vector<uint8_t> expected(input.size(), 0xEE);
          referenceCumsum(desc, input, expected);
          std::vector<uint8_t> initial(input.size(), 0xEE);
          CHECK(runOnDevice(desc, input, false, initial, profile) == expected);
          CHECK(runOnDevice(desc, input, true, initial, profile) == expected);
        }
      }
    }
  }
}
