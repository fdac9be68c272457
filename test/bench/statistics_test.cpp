#include "statistics.hpp"

#include <doctest/doctest.h>

#include <vector>
#include <vkscan/vkscan.hpp>

using vkscan::bench::fastestPerRound;
using vkscan::bench::median;
using vkscan::bench::pairedRatios;
using vkscan::bench::quantile;
using vkscan::bench::RatioSpread;

TEST_CASE("statistics: quantiles interpolate between the nearest ranks, in any input order") {
  const std::vector<double> values = {40, 10, 30, 20, 50};
  CHECK(quantile(values, 0.0) == 10);
  CHECK(quantile(values, 0.25) == 20);
  CHECK(quantile(values, 0.5) == 30);
  CHECK(quantile(values, 0.75) == 40);
  CHECK(quantile(values, 1.0) == 50);
  CHECK(quantile({4, 1, 3, 2}, 0.25) == doctest::Approx(1.75));
  CHECK(median({4, 1, 3, 2}) == doctest::Approx(2.5));
  CHECK(median({7}) == 7);
  CHECK(median({}) == 0);
}

TEST_CASE("statistics: paired ratios take each round's two times together") {
  // Drift doubles both times in the last two rounds: every round's ratio is
  // 0.5, so the spread is nil.
  const RatioSpread steady = pairedRatios({10, 10, 10, 20, 20}, {20, 20, 20, 40, 40});
  CHECK(steady.lowerQuartile == doctest::Approx(0.5));
  CHECK(steady.median == doctest::Approx(0.5));
  CHECK(steady.upperQuartile == doctest::Approx(0.5));

  // Round ratios 0.5, 1 and 1/3; the medians of the two lists alone would
  // give 20 / 30.
  const RatioSpread moving = pairedRatios({10, 30, 20}, {20, 30, 60});
  CHECK(moving.lowerQuartile == doctest::Approx(5.0 / 12));
  CHECK(moving.median == doctest::Approx(0.5));
  CHECK(moving.upperQuartile == doctest::Approx(0.75));

  const RatioSpread none = pairedRatios({}, {});
  CHECK(none.lowerQuartile == 0);
  CHECK(none.median == 0);
  CHECK(none.upperQuartile == 0);
}

TEST_CASE("statistics: paired ratios reject lists of different lengths and non-positive times") {
  CHECK_THROWS_WITH_AS(pairedRatios({1, 2}, {1}),
                       "paired ratios of 2 numerators and 1 denominators", vkscan::Error);
  CHECK_THROWS_WITH_AS(pairedRatios({1, 2}, {1, 0}),
                       doctest::Contains("denominator 1 is 0.000000, not positive"), vkscan::Error);
  CHECK_THROWS_WITH_AS(pairedRatios({1}, {-1}),
                       doctest::Contains("denominator 0 is -1.000000, not positive"),
                       vkscan::Error);
}

TEST_CASE("statistics: the fastest per round takes each round's least time") {
  CHECK(fastestPerRound({{30, 10, 20}, {20, 40, 20}}) == std::vector<double>{20, 10, 20});
  CHECK(fastestPerRound({{5, 6}}) == std::vector<double>{5, 6});
  CHECK_THROWS_AS(fastestPerRound({}), vkscan::Error);
  CHECK_THROWS_AS(fastestPerRound({{1, 2}, {3}}), vkscan::Error);
}
