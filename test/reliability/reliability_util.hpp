// Helpers shared by the reliability tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>
#include <vkscan/host.hpp>

#include "descriptors.hpp"  // packedDesc(), describe()
#include "test_device.hpp"  // testDeviceOptions()

namespace vkscan::test {

// Random input bytes for desc.input (seeded).
std::vector<uint8_t> randomInput(const CumulativeSummationDesc& desc, uint64_t seed);

// The reference result of desc on `input`, starting from `initialOutput`.
std::vector<uint8_t> referenceOutput(const CumulativeSummationDesc& desc,
                                     const std::vector<uint8_t>& input,
                                     std::vector<uint8_t> initialOutput);

// Runs desc on `device` (not in place) and returns whether the output equals
// the reference bit for bit.
bool runMatchesReference(const Device& device, const CumulativeSummationDesc& desc, uint64_t seed);

}  // namespace vkscan::test
