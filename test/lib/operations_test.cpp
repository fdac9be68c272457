// The scan family's other operations (product, maximum, minimum, and
// log-sum-exp on float types) against the CPU reference, bit for bit, on
// every test profile. They share every kernel
// path with sums: an operation is a specialization constant that changes
// only combine(), the identity and an exclusive scan's first output
// (kernels/common.glsl). The shapes reach each path: 1-D lines across the
// tree's levels and the one-pass tiles, rows, columns (interleaved and
// one-pass), short lines walked several per invocation, strided and padded
// layouts.
//
// Each mode of each type is a pipeline of its own, and lavapipe compiles one
// in about 0.3 s (0.55 s with a cold shader cache), so by default each type
// takes one path in one mode per operation and profile (turning, so that
// across them every type meets every path and mode), and FLOAT32 every mode
// in place and not on the 1-D path (one-pass tiles) for one operation per
// profile. VKSCAN_TEST_EXHAUSTIVE=1 runs
// every operation x type x direction x exclusive x in place x path (about
// 9 minutes per profile without log-sum-exp, whose float types' 256 cases
// compile about four times slower each).
#include <doctest/doctest.h>

#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "descriptors.hpp"
#include "reference.hpp"
#include "test_device.hpp"

using namespace vkscan;

namespace {

const ScanOperation kOperations[] = {ScanOperation::Product, ScanOperation::Maximum,
                                     ScanOperation::Minimum, ScanOperation::LogSumExp};

const DataType kTypes[] = {DataType::Float32, DataType::Float16, DataType::Int32,
                           DataType::UInt32,  DataType::Int64,   DataType::UInt64,
                           DataType::Float64, DataType::BFloat16};

// Log-sum-exp takes float types only (reject_test.cpp refuses the others).
bool takes(ScanOperation operation, DataType type) {
  return operation != ScanOperation::LogSumExp || type == DataType::Float32 ||
         type == DataType::Float16 || type == DataType::BFloat16 || type == DataType::Float64;
}

ScanDesc withOperation(ScanOperation operation, const CumulativeSummationDesc& desc) {
  ScanDesc scan = scanDesc(desc);
  scan.operation = operation;
  return scan;
}

// In place, the output takes the input's layout (a padded output's own
// strides are checked out of place).
void check(ScanDesc desc, bool inPlace, uint64_t seed, test::Profile profile) {
  if (inPlace) desc.output = desc.input;
  CAPTURE(test::describe(desc));
  CAPTURE(inPlace);
  const std::string profileName = test::profileName(profile);
  CAPTURE(profileName);
  CAPTURE(seed);
  size_t elementSize = dataTypeSize(desc.input.dataType);
  std::vector<uint8_t> input = test::randomOperands(
      desc.operation, desc.input.dataType, desc.input.totalBytes() / elementSize + 1, seed);
  input.resize(desc.input.totalBytes());
  std::vector<uint8_t> initialOutput(desc.output.totalBytes(), 0xA5);
  std::vector<uint8_t> expected = inPlace ? input : initialOutput;
  test::referenceScan(desc, input, expected);
  std::vector<uint8_t> actual =
      test::runOnDevice(desc, input, inPlace, initialOutput, test::testDevice(profile));
  int64_t difference = test::firstDifference(actual, expected, elementSize);
  CAPTURE(difference);
  const std::string mismatch = test::describeDifference(actual, expected, elementSize);
  CAPTURE(mismatch);
  const std::string plan =
      difference == -1 ? "" : test::testDevice(profile).createOperator(desc).describe();
  CAPTURE(plan);
  CHECK(actual.size() == expected.size());
  CHECK(difference == -1);
}

// Mode `turn` % 4 (direction, exclusive), in place for odd turns / 4.
ScanDesc inMode(ScanDesc desc, uint32_t turn, bool& inPlace) {
  desc.axisDirection = turn % 2 == 0 ? AxisDirection::Increasing : AxisDirection::Decreasing;
  desc.exclusive = turn / 2 % 2 == 1;
  inPlace = turn / 4 % 2 == 1;
  return desc;
}

// The shapes of the paths (for FLOAT32; 8-byte types take the same
// elements).
std::vector<CumulativeSummationDesc> shapes(DataType type) {
  CumulativeSummationDesc padded = test::packedDesc(type, {3, 700}, 1);
  padded.input.strides = {700 + 8, 1};
  padded.output.strides = {700 + 24, 1};
  return {test::packedDesc(type, {3 * 4096 + 5}, 0),
          test::packedDesc(type, {37, 300}, 1),
          test::packedDesc(type, {700, 48}, 0),
          test::packedDesc(type, {600, 40}, 0),
          test::packedDesc(type, {1000, 3}, 1),
          test::packedDesc(type, {3, 37, 64}, 1),
          padded,
          test::packedDesc(type, {17}, 0)};
}

}  // namespace

TEST_CASE("operations: every path, type and mode against the reference") {
  std::vector<test::Profile> profiles = test::testedProfiles();
  for (uint32_t profileIndex = 0; profileIndex < profiles.size(); ++profileIndex) {
    test::Profile profile = profiles[profileIndex];
    for (uint32_t o = 0; o < std::size(kOperations); ++o) {
      for (uint32_t t = 0; t < std::size(kTypes); ++t) {
        if (!takes(kOperations[o], kTypes[t])) continue;
        std::vector<CumulativeSummationDesc> paths = shapes(kTypes[t]);
        for (uint32_t s = 0; s < paths.size(); ++s) {
          ScanDesc desc = withOperation(kOperations[o], paths[s]);
          uint64_t seed = 100 * o + 10 * t + s;
          if (test::exhaustive()) {
            for (uint32_t turn = 0; turn < 8; ++turn) {
              bool inPlace = false;
              check(inMode(desc, turn, inPlace), inPlace, seed + turn, profile);
            }
            continue;
          }
          // Each type on one path in one mode, turning with the operation
          // and profile, so that across them every type meets every path
          // and mode; FLOAT32 in every mode on the first path, for one
          // operation per profile in turn. Log-sum-exp's pipelines compile
          // about four times slower (its step is some 60 operations, which
          // lanes unroll at every call site): one float type, path and mode
          // per profile, so that nine profiles meet every path and mode.
          bool inPlace = false;
          if (kOperations[o] == ScanOperation::LogSumExp) {
            const DataType floats[] = {DataType::Float32, DataType::Float16, DataType::Float64,
                                       DataType::BFloat16};
            if (kTypes[t] == floats[profileIndex % 4] &&
                s == (3 * profileIndex + 1) % paths.size()) {
              check(inMode(desc, profileIndex, inPlace), inPlace, seed, profile);
            }
          } else if (kTypes[t] == DataType::Float32 && s == 0 && o == profileIndex % 3) {
            for (uint32_t turn = 0; turn < 8; ++turn) {
              check(inMode(desc, turn, inPlace), inPlace, seed + turn, profile);
            }
          } else if (s == (t + 3 * o + profileIndex) % paths.size()) {
            check(inMode(desc, t + o + profileIndex, inPlace), inPlace, seed, profile);
          }
        }
      }
    }
  }
}

// Lines past 16^4 elements: the deepest trees and carries, one operation
// and type per profile, in turn.
TEST_CASE("operations: long lines") {
  const DataType types[] = {DataType::Float32, DataType::Int64, DataType::Float16};
  std::vector<test::Profile> profiles = test::testedProfiles();
  for (uint32_t profileIndex = 0; profileIndex < profiles.size(); ++profileIndex) {
    uint32_t o = profileIndex % 3;
    DataType type = types[(o + profileIndex / 3) % std::size(types)];
    ScanDesc desc = withOperation(kOperations[o], test::packedDesc(type, {(1u << 16) + 3}, 0));
    check(desc, false, 10, profiles[profileIndex]);
    ScanDesc columns =
        withOperation(kOperations[o], test::packedDesc(type, {(1u << 15) + 9, 8}, 0, true));
    check(columns, true, 11, profiles[profileIndex]);
  }
}
