// BFLOAT16 conversions: the kernels widen bfloat16 exactly and round the
// FP32 sums back in integer code, so that every device rounds alike. These
// cases are where devices may differ: ties (round to nearest even, not
// toward zero, which a truncating conversion gives), overflow to infinity,
// signed zeros, infinities, NaNs (inputs, and NaNs that sums make) and
// denormals, which are FP32 denormals and so may be flushed.
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

// kAnyNaN stands for the quiet NaN of either sign: the sign of a NaN that an
// addition makes (infinity minus infinity) is the device's.
constexpr uint16_t kAnyNaN = 0x7FC0;

std::vector<uint16_t> scan(const std::vector<uint16_t>& input, bool exclusive, Profile profile) {
  return scanTwoByte(DataType::BFloat16, input, exclusive, profile);
}

// 0x3F80 is 1, 0x3B80 2^-8 (half an ulp of 1), 0x3780 2^-16; 0x7F7F is the
// largest finite bfloat16, 0x7B00 half its ulp and 0x7A80 a quarter.
const std::vector<TwoByteCase> kCases = {
    {"tie rounds down to even: 1 + 2^-8", {0x3F80, 0x3B80}, {0x3F80, 0x3F80}},
    {"tie rounds up to even: (1 + 2^-7) + 2^-8", {0x3F81, 0x3B80}, {0x3F81, 0x3F82}},
    {"just above a tie rounds up", {0x3F80, 0x3B80, 0x3780}, {0x3F80, 0x3F80, 0x3F81}},
    {"just below a tie rounds down", {0x3F80, 0x3B80, 0xB780}, {0x3F80, 0x3F80, 0x3F80}},
    {"a negative tie rounds to even", {0xBF81, 0xBB80}, {0xBF81, 0xBF82}},
    {"largest + half an ulp ties to even: infinity", {0x7F7F, 0x7B00}, {0x7F7F, 0x7F80}},
    {"largest + a quarter ulp rounds back", {0x7F7F, 0x7A80}, {0x7F7F, 0x7F7F}},
    {"FP32 overflow gives infinity", {0x7F7F, 0x7F7F}, {0x7F7F, 0x7F80}},
    {"negative infinity from overflow", {0xFF7F, 0xFF7F}, {0xFF7F, 0xFF80}},
    {"negative zero stays negative", {0x8000, 0x8000}, {0x8000, 0x8000}},
    {"zeros of both signs sum to +0", {0x8000, 0x0000}, {0x8000, 0x0000}},
    {"infinity propagates", {0x7F80, 0x3F80, 0xBF80}, {0x7F80, 0x7F80, 0x7F80}},
    {"infinities of opposite signs give NaN", {0x7F80, 0xFF80, 0x3F80}, {0x7F80, kAnyNaN, kAnyNaN}},
    {"a NaN input propagates", {0x3F80, 0x7FC0, 0x3F80}, {0x3F80, kAnyNaN, kAnyNaN}},
    {"a NaN with a payload becomes the quiet NaN", {0x7F81, 0x3F80}, {kAnyNaN, kAnyNaN}},
    {"negative NaN input", {0xFFC0, 0x3F80}, {kAnyNaN, kAnyNaN}},
    {"a denormal below half an ulp leaves 1", {0x3F80, 0x0001}, {0x3F80, 0x3F80}},
};

// Denormal bfloat16 values are FP32 denormals, which a device may flush to
// zero (include/vkscan/vkscan.hpp, Denormals): each output is then one of
// the listed results, the exact one first.
struct DenormalCase {
  const char* what;
  std::vector<uint16_t> input;
  std::vector<std::vector<uint16_t>> inclusive;
};

const DenormalCase kDenormalCases[] = {
    {"denormals add exactly and carry into the normals",
     {0x0001, 0x0001, 0x007F},
     {{0x0001, 0x0002, 0x0081}, {0x0000, 0x0000, 0x0000}}},
    {"the smallest normal minus a denormal gives a denormal",
     {0x0080, 0x8001},
     {{0x0080, 0x007F}, {0x0080, 0x0080}, {0x0080, 0x0000}}},
};

}  // namespace

TEST_CASE("BFLOAT16 rounding: ties, overflow, zeros, infinities and NaNs") {
  checkTwoByteCases(DataType::BFloat16, kCases, kAnyNaN);
}

TEST_CASE("BFLOAT16 rounding: denormal inputs sum exactly or flush to zero") {
  for (Profile profile : twoByteProfiles()) {
    std::string profileText = profileName(profile);
    CAPTURE(profileText);
    for (const DenormalCase& c : kDenormalCases) {
      std::string whatText = c.what;
      CAPTURE(whatText);
      std::vector<uint16_t> actual = scan(c.input, false, profile);
      // A flushed zero may take either sign.
      for (uint16_t& value : actual) {
        if (value == 0x8000) value = 0;
      }
      bool listed = false;
      for (const std::vector<uint16_t>& expected : c.inclusive) listed |= actual == expected;
      CHECK(listed);
    }
  }
}

TEST_CASE("BFLOAT16 rounding: sums that round and overflow, every layout, against the reference") {
  // Values of mixed signs around 1, whose sums round at nearly every store,
  // and now and then a positive one near the largest, so that lines overflow
  // to infinity (never to both infinities: a NaN's sign is the device's).
  // Shapes as in the FLOAT16 test: full and partial nodes, odd line counts
  // (neighbouring lines share 32-bit words in the packed kernels) and
  // multiples of 4 (interleaved lines).
  std::mt19937 rng(4321);
  std::uniform_int_distribution<uint32_t> mantissa(0, 0x7F);
  std::uniform_int_distribution<uint32_t> exponent(124, 130);
  std::uniform_int_distribution<uint32_t> hugeExponent(250, 254);
  std::bernoulli_distribution negative(0.4);
  std::bernoulli_distribution huge(0.02);
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
              packedDesc(DataType::BFloat16, shape.sizes, shape.axis, exclusive, direction);
          CAPTURE(describe(desc));
          uint64_t count = 1;
          for (uint32_t size : shape.sizes) count *= size;
          std::vector<uint16_t> values(count);
          for (uint16_t& v : values) {
            v = huge(rng) ? static_cast<uint16_t>((hugeExponent(rng) << 7) | mantissa(rng))
                          : static_cast<uint16_t>((negative(rng) ? 0x8000u : 0u) |
                                                  (exponent(rng) << 7) | mantissa(rng));
          }
          // Buffers are padded to 4 bytes; the padding must come back unchanged.
          std::vector<uint8_t> input = twoByteBytes(values);
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
