#include "report.hpp"

#include <doctest/doctest.h>

#include <string>

using vkscan::bench::CaseResult;
using vkscan::bench::formatCsv;
using vkscan::bench::formatText;
using vkscan::bench::pairedRatios;
using vkscan::bench::Report;

namespace {

// A case whose medians alone would give 20 / 30 = 0.667, where its rounds'
// ratios are 0.5, 1 and 1/3.
Report driftedReport() {
  CaseResult r;
  r.c.name = "drifted";
  r.c.sizes = {1024};
  r.ran = true;
  r.roofNs = 20;
  r.vkscanNs = 30;
  r.ratioSpread = pairedRatios({10, 30, 20}, {20, 30, 60});
  Report report;
  report.cases.push_back(r);
  return report;
}

}  // namespace

TEST_CASE("report: the ratio is the median of the rounds' ratios, not the ratio of medians") {
  const Report report = driftedReport();
  const std::string csv = formatCsv(report);
  CAPTURE(csv);
  CHECK(csv.find(",0.5000,") != std::string::npos);
  CHECK(csv.find("0.6667") == std::string::npos);

  const std::string text = formatText(report);
  CAPTURE(text);
  CHECK(text.find(" 0.500   0.42-0.75 ") != std::string::npos);
}
