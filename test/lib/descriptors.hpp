// Descriptor helpers shared by the test suites.
#pragma once

#include <cstdint>
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

// Halves the tensor's largest dimension other than `axis` (rounding up) until
// its elements are at most `budget`, for randomized shapes: cutting the first
// dimension to 1 instead made most rank-2 cases one line. The axis is never
// cut; the caller keeps it within budget.
void fitElements(TensorDesc& tensor, uint32_t axis, uint64_t budget);

// One line naming type, sizes, strides, axis, direction and exclusivity, for
// CAPTURE: a failure message is then enough to reproduce the case.
std::string describe(const CumulativeSummationDesc& desc);
std::string describe(const ScanDesc& desc);  // the same, after the operation's name

}  // namespace vkscan::test
