// The four examples of the DML reference page, exactly, plus exclusive and
// decreasing together.
#include <doctest/doctest.h>

#include <vector>

#include "test_device.hpp"

using namespace vkscan;

namespace {

const std::vector<float> kInput = {2, 1, 3, 5, 3, 8, 7, 3, 9, 6, 2, 4};

std::vector<float> scan(uint32_t axis, AxisDirection direction, bool exclusive) {
  CumulativeSummationDesc desc;
  desc.input = {DataType::Float32, {1, 1, 3, 4}, {}};
  desc.output = desc.input;
  desc.axis = axis;
  desc.axisDirection = direction;
  desc.hasExclusiveSum = exclusive;
  std::vector<float> output(kInput.size(), -1.0f);
  run(test::testDevice(), desc, kInput.data(), output.data());
  return output;
}

}  // namespace

TEST_CASE("spec example 1: inclusive along axis 3") {
  CHECK(scan(3, AxisDirection::Increasing, false) ==
        std::vector<float>{2, 3, 6, 11, 3, 11, 18, 21, 9, 15, 17, 21});
}

TEST_CASE("spec example 2: exclusive sums") {
  CHECK(scan(3, AxisDirection::Increasing, true) ==
        std::vector<float>{0, 2, 3, 6, 0, 3, 11, 18, 0, 9, 15, 17});
}

TEST_CASE("spec example 3: decreasing direction") {
  CHECK(scan(3, AxisDirection::Decreasing, false) ==
        std::vector<float>{11, 9, 8, 5, 21, 18, 10, 3, 21, 12, 6, 4});
}

TEST_CASE("spec example 4: along axis 2") {
  CHECK(scan(2, AxisDirection::Increasing, false) ==
        std::vector<float>{2, 1, 3, 5, 5, 9, 10, 8, 14, 15, 12, 12});
}

TEST_CASE("exclusive and decreasing together") {
  CHECK(scan(3, AxisDirection::Decreasing, true) ==
        std::vector<float>{9, 8, 5, 0, 18, 10, 3, 0, 12, 6, 4, 0});
}
