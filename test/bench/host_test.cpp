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
  fillInput(c, input.data(), 7);
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
