// The shape matrix the benchmark measures.
#pragma once

#include <cstdint>
#include <string>
#include <vector>
#include <vkscan/vkscan.hpp>

namespace vkscan::bench {

struct Case {
  std::string name;
  DataType type = DataType::Float32;
  std::vector<uint32_t> sizes;
  uint32_t axis = 0;
  bool exclusive = false;
  bool decreasing = false;
  bool inPlace = false;
  bool latency = false;  // reported in µs rather than GB/s
  ScanOperation operation = ScanOperation::Sum;
  // Sums only: each line takes a carry-in (the identity, -0.0 or 0, so the
  // output is the plain scan's) and gives its total, as a chunk of a stream.
  bool carried = false;

  uint64_t elementCount() const;
  uint64_t bytes() const;  // one tensor
  // The packed tensor seen as [outer, axisLen, inner].
  uint64_t outer() const;
  uint64_t axisLen() const { return sizes[axis]; }
  uint64_t inner() const;

  std::string shapeText() const;  // "4096x4096"
  std::string flagsText() const;  // "inclusive", "exclusive+decreasing", "inclusive+inplace"
  std::string typeText() const;   // "f32", "f16", "u64"
  ScanDesc desc() const;
  // desc() as `vkscan plan` takes it: "SIZES --axis N --dtype T" and
  // --operation, --exclusive, --reverse, --carry-in --totals where they
  // apply (in place is no part of a descriptor).
  std::string planArguments() const;
};

// --quick shrinks every shape so the whole run is a smoke test.
std::vector<Case> caseMatrix(bool quick);
// --gpu-matrix: the shapes a GPU is judged on (issue 47), 1-D up to 2^28
// elements; --quick shrinks them to what lavapipe runs in seconds.
std::vector<Case> gpuMatrix(bool quick);

// The cases of `matrix` that --case NAMEs pick, in the matrix's order: those
// whose name contains a NAME, or equals it where the NAME ends in '$'
// ("1d_256m$" without 1d_256m_f16). No NAMEs: every case.
std::vector<Case> selectCases(const std::vector<Case>& matrix,
                              const std::vector<std::string>& names);

}  // namespace vkscan::bench
