#include "statistics.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vkscan/vkscan.hpp>

namespace vkscan::bench {

double quantile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double rank = p * double(values.size() - 1);
  const size_t below = size_t(std::floor(rank));
  const size_t above = std::min(below + 1, values.size() - 1);
  const double weight = rank - double(below);
  return values[below] + weight * (values[above] - values[below]);
}

RatioSpread pairedRatios(const std::vector<double>& numerators,
                         const std::vector<double>& denominators) {
  if (numerators.size() != denominators.size()) {
    throw Error("paired ratios of " + std::to_string(numerators.size()) + " numerators and " +
                std::to_string(denominators.size()) + " denominators");
  }
  std::vector<double> ratios;
  ratios.reserve(numerators.size());
  for (size_t i = 0; i < numerators.size(); ++i) {
    if (!(denominators[i] > 0)) {
      throw Error("paired ratios: denominator " + std::to_string(i) + " is " +
                  std::to_string(denominators[i]) + ", not positive");
    }
    ratios.push_back(numerators[i] / denominators[i]);
  }
  return {quantile(ratios, 0.25), quantile(ratios, 0.5), quantile(ratios, 0.75)};
}

std::vector<double> fastestPerRound(const std::vector<std::vector<double>>& series) {
  if (series.empty()) throw Error("fastest per round of no series");
  std::vector<double> fastest = series.front();
  for (const std::vector<double>& times : series) {
    if (times.size() != fastest.size()) {
      throw Error("fastest per round of series of " + std::to_string(fastest.size()) + " and " +
                  std::to_string(times.size()) + " rounds");
    }
    for (size_t round = 0; round < times.size(); ++round) {
      fastest[round] = std::min(fastest[round], times[round]);
    }
  }
  return fastest;
}

}  // namespace vkscan::bench
