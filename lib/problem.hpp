// A validated descriptor reduced to the one shape every plan works on:
// lines of `axisLen` elements, each at an element offset decoded from a few
// line dimensions, walked in traversal order.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>
#include <vkscan/vkscan.hpp>

namespace vkscan::detail {

struct LineDim {
  uint64_t size = 1;
  int64_t inStride = 0;  // elements
  int64_t outStride = 0;
  // ScanDesc::carryIn and totals (0 where not bound).
  int64_t carryStride = 0;
  int64_t totalsStride = 0;
};

struct Problem {
  DataType type = DataType::Float32;
  ScanOperation operation = ScanOperation::Sum;
  // Maximum and minimum of INT32 and INT64, which run the unsigned builds:
  // compare as two's complement.
  bool signedValues = false;
  uint64_t axisLen = 0;
  // Strides between consecutive traversal elements; negative for
  // AxisDirection::Decreasing, with the bases moved to the last element.
  int64_t inAxisStride = 1;
  int64_t outAxisStride = 1;
  int64_t inBase = 0;  // element offset of traversal element 0 of line 0
  int64_t outBase = 0;
  // Non-axis dimensions of size > 1, sorted by input stride (innermost
  // first) and merged where both layouts allow; empty for a single line.
  std::vector<LineDim> lines;
  bool exclusive = false;
  // Exclusive user output starts with exclusiveFirst (+0.0 for sums);
  // internal carry scans keep the identity (-0.0 for sums) so that adding a
  // carry never changes a bit.
  bool firstIsPositiveZero = false;
  bool empty = false;
  // Bytes each tensor spans from its binding's offset (TensorDesc::totalBytes).
  uint64_t inputBytes = 0;
  uint64_t outputBytes = 0;
  // An output wider than the input (outputTypeWidens()): this problem scans
  // the output in place, after a first pass copies the input into it,
  // widened. That copy is `widenedFrom`: the input's type, the input's
  // layout to the output's. Null otherwise.
  std::shared_ptr<const Problem> widenedFrom;
  // Indices of a maximum or minimum (ScanDesc::indices): after this scan a
  // records pass (this problem's layouts, the indices at the output's
  // element offsets), then `indexScan`, a scan of the indices in place.
  // Null otherwise.
  std::shared_ptr<const Problem> indexScan;
  uint64_t indicesBytes = 0;
  // ScanDesc::carryIn and totals: one value of accumulationType(type) per
  // line, at carryBase / totalsBase plus the line's LineDim strides (their
  // tensors have no extent along the axis).
  bool carryIn = false;
  bool totals = false;
  int64_t carryBase = 0;
  int64_t totalsBase = 0;
  uint64_t carryBytes = 0;
  uint64_t totalsBytes = 0;

  uint64_t lineCount() const noexcept;
};

// Checks `desc` and normalises it. Throws InvalidArgument naming the field.
// Device capabilities are not consulted here (see Device::createOperator).
Problem normalize(const ScanDesc& desc);
inline Problem normalize(const CumulativeSummationDesc& desc) {
  return normalize(scanDesc(desc));
}

// The stride of each dimension in elements: the given strides, or the packed
// row-major ones; 0 past the rank. The tensor must already be validated
// (normalize() does): at most kMaxDimensions, and for packed tensors an
// extent whose product cannot overflow. An array, not a vector:
// createOperator() and record() run this on every call, and an allocation
// costs more than the arithmetic.
using ElementStrides = std::array<int64_t, kMaxDimensions>;
ElementStrides elementStrides(const TensorDesc& tensor);

// Same sizes and element strides: one buffer can serve as both (in place).
bool sameLayout(const TensorDesc& a, const TensorDesc& b);

// The accumulation type: carries and totals of FLOAT16 and BFLOAT16 are
// FLOAT32.
DataType accumulationType(DataType type) noexcept;

}  // namespace vkscan::detail
