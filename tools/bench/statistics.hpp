// Summaries of the benchmark's timed repetitions. Pure functions, so that
// they are testable without Vulkan.
#ifndef VKSCAN_BENCH_STATISTICS_HPP
#define VKSCAN_BENCH_STATISTICS_HPP

#include <utility>
#include <vector>

namespace vkscan::bench {

// The p-quantile (0 <= p <= 1) of `values`, interpolated linearly between
// the two nearest ranks (numpy's default); quantile(v, 0.5) is the median,
// the mean of the middle two of an even count. 0 for no values.
double quantile(std::vector<double> values, double p);

inline double median(std::vector<double> values) {
  return quantile(std::move(values), 0.5);
}

// The spread of a ratio over round-robin rounds: the quartiles of
// numerator[i] / denominator[i], each round's two times taken together.
// Drift on a shared machine moves both methods of a round alike, so these
// say how steady the ratio was within one run, which the ratio of the two
// medians does not.
struct RatioSpread {
  double lowerQuartile = 0;
  double median = 0;
  double upperQuartile = 0;
};

// Throws vkscan::Error where the two lists differ in length or a
// denominator is not positive; all zeros for no rounds.
RatioSpread pairedRatios(const std::vector<double>& numerators,
                         const std::vector<double>& denominators);

// Round by round, the least of the methods' times: series[m][round]. The
// roof of a case is the faster of its copies in each round, so that the
// round's ratio pairs vkscan with the copies timed beside it. Throws
// vkscan::Error where there is no series or their lengths differ.
std::vector<double> fastestPerRound(const std::vector<std::vector<double>>& series);

}  // namespace vkscan::bench

#endif
