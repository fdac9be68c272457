// Log-sum-exp's one step (the CPU reference, which the operations tests hold
// the kernels to bit for bit): its special values, exact commutativity,
// independence from denormal flushing, and its accuracy against long double;
// then a device scan's accuracy against a float64 logcumsumexp. The bounds
// are the ones include/vkscan/vkscan.hpp states.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

#include "descriptors.hpp"
#include "reference.hpp"
#include "test_device.hpp"

using namespace vkscan;

namespace {

template <typename T>
bool sameBits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <typename T>
long double ulpOf(long double value) {
  T magnitude = static_cast<T>(std::fabs(value));
  return static_cast<long double>(std::nextafter(magnitude, std::numeric_limits<T>::infinity())) -
         static_cast<long double>(magnitude);
}

// Operand pairs: both in [-30, 30], gaps up to past the cutoff, large
// values with small gaps, both near zero, and values near each other.
template <typename T>
std::vector<std::pair<T, T>> operandPairs(size_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<std::pair<T, T>> pairs;
  for (size_t i = 0; i < count; ++i) {
    double a = 0;
    double b = 0;
    switch (i % 5) {
      case 0:
        a = unit(rng) * 30;
        b = unit(rng) * 30;
        break;
      case 1:
        a = unit(rng) * 30;
        b = a - std::fabs(unit(rng)) * 800;
        break;
      case 2:
        a = unit(rng) * 1e4;
        b = a - std::exp2(unit(rng) * 8);
        break;
      case 3:
        a = unit(rng);
        b = unit(rng);
        break;
      default:
        a = unit(rng) * std::exp2(unit(rng) * 40);
        b = a + unit(rng) * std::exp2(unit(rng) * 40);
        break;
    }
    pairs.emplace_back(static_cast<T>(a), static_cast<T>(b));
  }
  return pairs;
}

template <typename T>
void checkSpecialValues() {
  const T inf = std::numeric_limits<T>::infinity();
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const T values[] = {T(0), -T(0), T(1.5), T(-2.25), T(1e4), -inf, inf};
  T quietNan = test::logSumExp(nan, T(1));
  CHECK(std::isnan(quietNan));
  CHECK_FALSE(std::signbit(quietNan));
  for (T x : values) {
    CAPTURE(x);
    // -infinity, the identity, gives the other operand, bit for bit.
    CHECK(sameBits(test::logSumExp(-inf, x), x));
    CHECK(sameBits(test::logSumExp(x, -inf), x));
    // +infinity wins over everything but NaN; a NaN operand gives the
    // positive quiet NaN, in either place.
    CHECK(sameBits(test::logSumExp(inf, x), inf));
    CHECK(sameBits(test::logSumExp(x, inf), inf));
    CHECK(sameBits(test::logSumExp(x, nan), quietNan));
    CHECK(sameBits(test::logSumExp(-nan, x), quietNan));
  }
  // Equal operands: x + the step's ln 2 (the general sequence at d = 0,
  // within an ulp of ln 2: ln 2 rounded for float, one ulp above for double).
  const T ln2 = test::logSumExp(T(0), T(0));
  const long double exactLn2 = 0.693147180559945309417232121458L;
  CHECK(std::fabs(ln2 - exactLn2) <= ulpOf<T>(exactLn2));
  for (T x : {T(0), -T(0), T(3), T(-0.6875), T(-30), T(1e4)}) {
    CAPTURE(x);
    volatile T expected = x + ln2;
    CHECK(sameBits(test::logSumExp(x, x), static_cast<T>(expected)));
  }
  // Past the cutoff the larger operand comes back as it is.
  CHECK(sameBits(test::logSumExp(T(2), T(-1000)), T(2)));
  CHECK(sameBits(test::logSumExp(T(-1e30), T(0)), T(0)));
  CHECK(sameBits(test::logSumExp(std::numeric_limits<T>::max(), -std::numeric_limits<T>::max()),
                 std::numeric_limits<T>::max()));
}

template <typename T>
void checkCommutative() {
  for (const auto& [a, b] : operandPairs<T>(200000, 5)) {
    T ab = test::logSumExp(a, b);
    T ba = test::logSumExp(b, a);
    if (!sameBits(ab, ba)) {
      CAPTURE(a);
      CAPTURE(b);
      FAIL_CHECK("log-sum-exp is not commutative bit for bit");
      return;
    }
  }
}

// Worst errors of one step: in ulp of the result where the larger operand
// is >= 0 (no cancellation), and otherwise as (error - 1 ulp of the result)
// in ulp of ln 2: the result m + log1p(exp(-d)) cancels when m < 0, so its
// error there is absolute.
template <typename T>
void stepAccuracy(double& worstUlp, double& worstCancelling) {
  worstUlp = 0;
  worstCancelling = 0;
  const long double ulpLn2 = ulpOf<T>(0.6931471805599453L);
  for (const auto& [a, b] : operandPairs<T>(1000000, 9)) {
    long double m = std::max<long double>(a, b);
    long double d = std::fabs(static_cast<long double>(a) - static_cast<long double>(b));
    long double exact = m + std::log1p(std::exp(-d));
    long double error = std::fabs(static_cast<long double>(test::logSumExp(a, b)) - exact);
    if (m >= 0) {
      worstUlp = std::max(worstUlp, static_cast<double>(error / ulpOf<T>(exact)));
    } else {
      worstCancelling =
          std::max(worstCancelling, static_cast<double>((error - ulpOf<T>(exact)) / ulpLn2));
    }
  }
}

}  // namespace

TEST_CASE("operations: log-sum-exp's step, special values") {
  SUBCASE("float") {
    checkSpecialValues<float>();
  }
  SUBCASE("double") {
    checkSpecialValues<double>();
  }
}

TEST_CASE("operations: log-sum-exp's step is commutative bit for bit") {
  SUBCASE("float") {
    checkCommutative<float>();
  }
  SUBCASE("double") {
    checkCommutative<double>();
  }
}

#if defined(__SSE2__)
// No intermediate is a denormal, so a device that flushes them computes the
// same bits: the same step under x86's flush-to-zero and denormals-are-zero.
TEST_CASE("operations: log-sum-exp's step does not depend on denormal flushing") {
  auto pairs = operandPairs<float>(200000, 13);
  auto pairs64 = operandPairs<double>(200000, 13);
  const float cut = 85.0f;
  for (float a : {0.0f, 1e-30f, -1e-30f, 1e-37f, 1.0f, -30.0f}) {
    for (float gap :
         {cut, std::nextafter(cut, 0.0f), std::nextafter(cut, 100.0f), 1e-30f, 1e-8f, 0.0f}) {
      pairs.emplace_back(a, a - gap);
      pairs64.emplace_back(a, a - gap * 700.0 / 85.0);
    }
  }
  std::vector<float> normal;
  std::vector<double> normal64;
  for (const auto& [a, b] : pairs) normal.push_back(test::logSumExp(a, b));
  for (const auto& [a, b] : pairs64) normal64.push_back(test::logSumExp(a, b));
  const unsigned csr = _mm_getcsr();
  _mm_setcsr(csr | 0x8040u);  // flush-to-zero, denormals-are-zero
  std::vector<float> flushed;
  std::vector<double> flushed64;
  for (const auto& [a, b] : pairs) flushed.push_back(test::logSumExp(a, b));
  for (const auto& [a, b] : pairs64) flushed64.push_back(test::logSumExp(a, b));
  _mm_setcsr(csr);
  CHECK(std::memcmp(normal.data(), flushed.data(), normal.size() * sizeof(float)) == 0);
  CHECK(std::memcmp(normal64.data(), flushed64.data(), normal64.size() * sizeof(double)) == 0);
}
#endif

TEST_CASE("operations: log-sum-exp's step within the stated accuracy") {
  double worstUlp = 0;
  double worstCancelling = 0;
  stepAccuracy<float>(worstUlp, worstCancelling);
  MESSAGE("float: " << worstUlp << " ulp; cancelling: 1 ulp + " << worstCancelling << " ulp(ln 2)");
  CHECK(worstUlp <= 2.5);
  CHECK(worstCancelling <= 2.0);
  stepAccuracy<double>(worstUlp, worstCancelling);
  MESSAGE("double: " << worstUlp << " ulp; cancelling: 1 ulp + " << worstCancelling
                     << " ulp(ln 2)");
  CHECK(worstUlp <= 2.5);
  CHECK(worstCancelling <= 2.0);
}

// A FLOAT32 scan of values in [-30, 30] against logcumsumexp in long
// double, serially: the error in ulp of max(|exact|, 1) (below 1 a step may
// cancel, and the error is absolute). Through the reference, which the
// operations tests hold the kernels to bit for bit (test_torch.py checks
// the device against torch); lines of 4 (where the last step cancels most)
// and one of 10^5.
TEST_CASE("operations: a log-sum-exp scan within 4 ulp of float64") {
  std::mt19937_64 rng(21);
  std::uniform_real_distribution<float> value(-30.0f, 30.0f);
  double worst = 0;
  for (uint32_t n : {4u, 4u, 4u, 4u, 16u, 300u, 100000u}) {
    for (int line = 0; line < (n == 4 ? 2000 : 1); ++line) {
      std::vector<float> x(n);
      for (float& v : x) v = value(rng);
      ScanDesc desc = scanDesc(test::packedDesc(DataType::Float32, {n}, 0));
      desc.operation = ScanOperation::LogSumExp;
      std::vector<uint8_t> input(n * sizeof(float));
      std::memcpy(input.data(), x.data(), input.size());
      std::vector<uint8_t> output(input.size());
      test::referenceScan(desc, input, output);
      std::vector<float> out(n);
      std::memcpy(out.data(), output.data(), output.size());
      long double exact = -std::numeric_limits<long double>::infinity();
      for (uint32_t i = 0; i < n; ++i) {
        long double m = std::max<long double>(exact, x[i]);
        exact = m + std::log1p(std::exp(-std::fabs(exact - static_cast<long double>(x[i]))));
        long double scale = std::max(std::fabs(exact), 1.0L);
        worst =
            std::max(worst, static_cast<double>(std::fabs(out[i] - exact) / ulpOf<float>(scale)));
      }
    }
  }
  MESSAGE("FLOAT32 scans: " << worst << " ulp of max(|exact|, 1)");
  CHECK(worst <= 4.0);
}
