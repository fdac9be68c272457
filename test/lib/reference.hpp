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
// The input's elements (bytes of `from`, back to back) converted exactly to
// the wider type `to` (outputTypeWidens()).
std::vector<uint8_t> widenElements(DataType from, DataType to, const std::vector<uint8_t>& input);

// One step of LogSumExp as the kernels compute it (float for FLOAT32,
// FLOAT16 and BFLOAT16, double for FLOAT64).
template <typename T>
T logSumExp(T a, T b);

// The same for any operation of the family; a wider output type scans the
// input converted by widenElements().
void referenceScan(const ScanDesc& desc, const std::vector<uint8_t>& input,
                   std::vector<uint8_t>& output);
// The same, with the indices of a maximum or minimum (PyTorch's cummax and
// cummin, as its CPU kernel finds them) into `indices` (bytes laid out as
// the output's elements, 8 bytes each), unless null.
void referenceScan(const ScanDesc& desc, const std::vector<uint8_t>& input,
                   std::vector<uint8_t>& output, std::vector<uint8_t>* indices);
// The same with each line's carry-in (bytes laid out as desc.carryIn, in
// carryType(), entering at the line's root; null: none) and totals (the top
// node's value, into bytes laid out as desc.totals, unless null).
void referenceScan(const ScanDesc& desc, const std::vector<uint8_t>& input,
                   std::vector<uint8_t>& output, std::vector<uint8_t>* indices,
                   const std::vector<uint8_t>* carryIn, std::vector<uint8_t>* totals);

}  // namespace vkscan::test
