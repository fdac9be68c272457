// The tests' CPU reference: the canonical order (sum, product, maximum,
// minimum and log-sum-exp) of
// include/vkscan/vkscan.hpp written as directly as possible (whole levels
// of the tree, one after another), sharing no code with the library.
#pragma once

#include <cstdint>
#include <vector>
#include <vkscan/host.hpp>

namespace vkscan::test {

// IEEE binary16 <-> binary32, round to nearest even.
float halfToFloat(uint16_t half);
uint16_t floatToHalf(float value);

// bfloat16 <-> binary32: exact one way, round to nearest even the other
// (every NaN to the quiet NaN 0x7FC0 of its sign).
float bfloat16ToFloat(uint16_t bits);
uint16_t floatToBfloat16(float value);

// Cumulative sum of `input` (bytes laid out as desc.input) into `output`
// (bytes laid out as desc.output; elements the output does not cover are
// left as they are).
void referenceCumsum(const CumulativeSummationDesc& desc, const std::vector<uint8_t>& input,
                     std::vector<uint8_t>& output);
// One step of LogSumExp as the kernels compute it (float for FLOAT32,
// FLOAT16 and BFLOAT16, double for FLOAT64).
template <typename T>
T logSumExp(T a, T b);

// The same for any operation of the family.
void referenceScan(const ScanDesc& desc, const std::vector<uint8_t>& input,
                   std::vector<uint8_t>& output);

}  // namespace vkscan::test
