// FLOAT32 accuracy against a float64 reference, on data chosen to be hard:
// the bound is the one include/vkscan/vkscan.hpp states.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "descriptors.hpp"
#include "test_device.hpp"

using namespace vkscan;

namespace {

// Runs an inclusive FLOAT32 scan of x and returns the largest error, as a
// fraction of the header's bound, over all outputs.
double worstErrorOverBound(const std::vector<float>& x) {
  CumulativeSummationDesc desc =
      test::packedDesc(DataType::Float32, {static_cast<uint32_t>(x.size())}, 0);
  std::vector<float> out(x.size());
  run(test::testDevice(), desc, x.data(), out.data());
  double levels = std::ceil(std::log(static_cast<double>(x.size())) / std::log(16.0));
  double unitsOfRoundoff = 15.0 * std::max(levels, 1.0) + 1.0;
  double exact = 0.0;
  double magnitude = 0.0;
  double worst = 0.0;
  for (size_t i = 0; i < x.size(); ++i) {
    exact += x[i];  // float64: its own error is ~2^-29 of this bound or less
    magnitude += std::fabs(x[i]);
    double bound = unitsOfRoundoff * std::ldexp(magnitude, -24);
    if (bound > 0) worst = std::max(worst, std::fabs(out[i] - exact) / bound);
  }
  return worst;
}

}  // namespace

TEST_CASE("accuracy: FLOAT32 within the stated bound on adversarial data") {
  const size_t n = size_t{1} << 24;
  std::mt19937 rng(7);

  std::vector<float> ramp(n);
  for (size_t i = 0; i < n; ++i) ramp[i] = static_cast<float>(i % 4097) * 0.37f + 1.0f;
  double rampWorst = worstErrorOverBound(ramp);
  CAPTURE(rampWorst);
  CHECK(rampWorst <= 1.0);

  // Large terms that cancel pairwise, hiding small ones: running sums stay
  // tiny while every addition rounds at the scale of the large terms.
  std::vector<float> cancelling(n);
  std::uniform_real_distribution<float> big(1e6f, 2e6f), small(-1.0f, 1.0f);
  for (size_t i = 0; i < n; i += 2) {
    float b = big(rng);
    cancelling[i] = b + small(rng);
    cancelling[i + 1] = -b;
  }
  double cancellingWorst = worstErrorOverBound(cancelling);
  CAPTURE(cancellingWorst);
  CHECK(cancellingWorst <= 1.0);

  // Magnitudes across 2^-20 .. 2^20 with random signs.
  std::vector<float> mixed(n);
  std::uniform_int_distribution<int> exponent(-20, 20);
  for (size_t i = 0; i < n; ++i) {
    mixed[i] = std::ldexp(1.0f + small(rng) * 0.5f, exponent(rng)) * ((rng() & 1) ? 1.0f : -1.0f);
  }
  double mixedWorst = worstErrorOverBound(mixed);
  CAPTURE(mixedWorst);
  CHECK(mixedWorst <= 1.0);
  MESSAGE("worst error / bound: ramp " << rampWorst << ", cancelling " << cancellingWorst
                                       << ", mixed " << mixedWorst);
}
