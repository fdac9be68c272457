// Descriptor helpers shared by the test suites.
#pragma once

#include <string>
#include <vector>
#include <vkscan/host.hpp>

namespace vkscan::test {

// A packed (row-major) tensor description, input and output alike.
CumulativeSummationDesc packedDesc(DataType type, std::vector<uint32_t> sizes, uint32_t axis,
                                   bool exclusive = false,
                                   AxisDirection direction = AxisDirection::Increasing);

// Elements in one 16-byte vector access of the kernels' lanes (2 for 8-byte
// types, else 4), for building shapes around the plan's vector and lane sizes.
uint32_t vectorElements(DataType type);

// One line naming type, sizes, strides, axis, direction and exclusivity, for
// CAPTURE: a failure message is then enough to reproduce the case.
std::string describe(const CumulativeSummationDesc& desc);
std::string describe(const ScanDesc& desc);  // the same, after the operation's name

}  // namespace vkscan::test
