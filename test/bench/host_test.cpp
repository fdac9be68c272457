#include "host.hpp"

#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <vector>
#include <vkscan/vkscan.hpp>

#include "cases.hpp"

using namespace vkscan;
using namespace vkscan::bench;

TEST_CASE("bench input: FLOAT32 product factors keep 2^28 running products normal") {
  // The GPU matrix's product case. Random factors near 1 alone drift down in
  // the logarithm; on an H200 the scan's products fell below FLT_MIN and a
  // device that flushes denormals returned 0 where the reference did not.
  Case c;
  c.name = "1d_256m_prod";
  c.sizes = {1u << 28};
  c.operation = ScanOperation::Product;
  std::vector<float> input(c.elementCount());
  fillInput(c, input.data(), 7, 1);
  float product = 1.0f;
  float least = 1.0f;
  float most = 1.0f;
  for (float factor : input) {
    product *= factor;
    least = std::fmin(least, std::fabs(product));
    most = std::fmax(most, std::fabs(product));
  }
  CAPTURE(least);
  CAPTURE(most);
  CHECK(least >= FLT_MIN);
  CHECK(std::isfinite(most));
  // Still factors that multiply: none is exactly 1 throughout.
  CHECK(input[0] != 1.0f);
  CHECK(input[0] * input[1] != input[0]);
}

TEST_CASE("bench input and reference: the same bytes on any number of threads") {
  // Lengths past the threads' grain, so that ranges split groups of 16,
  // product pairs and lines at odd places; every path of referenceScan():
  // one line shared by the threads, strided or not, and a line per thread.
  struct Shape {
    DataType type;
    std::vector<uint32_t> sizes;
    uint32_t axis;
    ScanOperation operation;
  };
  const std::vector<Shape> shapes = {
      {DataType::Float32, {300007}, 0, ScanOperation::Sum},
      {DataType::Float32, {300007}, 0, ScanOperation::Product},
      {DataType::Float32, {300007}, 0, ScanOperation::Maximum},
      {DataType::Float16, {300007}, 0, ScanOperation::Sum},
      {DataType::UInt64, {300007}, 0, ScanOperation::Sum},
      {DataType::Float32, {140003, 3}, 0, ScanOperation::Sum},
      {DataType::Float32, {3, 140003}, 1, ScanOperation::Minimum},
      {DataType::Float16, {40001, 9}, 1, ScanOperation::Sum},
  };
  for (const Shape& shape : shapes) {
    for (int flags = 0; flags < 4; ++flags) {
      Case c;
      c.name = "threads";
      c.type = shape.type;
      c.sizes = shape.sizes;
      c.axis = shape.axis;
      c.operation = shape.operation;
      c.exclusive = (flags & 1) != 0;
      c.decreasing = (flags & 2) != 0;
      CAPTURE(c.shapeText());
      CAPTURE(c.axis);
      CAPTURE(c.typeText());
      CAPTURE(c.flagsText());
      CAPTURE(int(c.operation));
      std::vector<uint8_t> input(c.bytes()), expected(c.bytes());
      fillInput(c, input.data(), 11, 1);
      referenceScan(c, input.data(), expected.data(), 1);
      for (unsigned threads : {2u, 3u, 7u}) {
        CAPTURE(threads);
        std::vector<uint8_t> threadedInput(c.bytes(), 0xA5), threaded(c.bytes(), 0x5A);
        fillInput(c, threadedInput.data(), 11, threads);
        CHECK(threadedInput == input);
        referenceScan(c, input.data(), threaded.data(), threads);
        CHECK(threaded == expected);
      }
    }
  }
}
