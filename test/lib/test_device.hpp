// The device every library test shares: headless, with the Khronos
// validation layer (and synchronization validation) when it is installed,
// unless VKSCAN_TEST_VALIDATION=0. Tests check validationMessageCount()
// stays 0.
#pragma once

#include <vkscan/vkscan.hpp>

#include <cstdint>
#include <vector>

namespace vkscan::test {

Device& testDevice();

// Runs desc on the test device through Device::run(). For in place the
// input must be laid out exactly as the output.
std::vector<uint8_t> runOnDevice(const CumulativeSummationDesc& desc,
                                 const std::vector<uint8_t>& input, bool inPlace,
                                 const std::vector<uint8_t>& initialOutput);

// Random element bytes for `count` elements of `type`: floats with random
// mantissas and exponents in [-8, 8] (so partial sums never go subnormal,
// which some devices flush), integers over their full range.
std::vector<uint8_t> randomElements(DataType type, uint64_t count, uint64_t seed);

}  // namespace vkscan::test
