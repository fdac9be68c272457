#include "cases.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>
#include <vkscan/plans.hpp>

using namespace vkscan::bench;

namespace {

std::vector<std::string> names(const std::vector<Case>& cases) {
  std::vector<std::string> result;
  for (const Case& c : cases) result.push_back(c.name);
  return result;
}

}  // namespace

TEST_CASE("bench cases: --case takes names that contain it, or the one name before a '$'") {
  const std::vector<Case> matrix = gpuMatrix(true);
  CHECK(selectCases(matrix, {}).size() == matrix.size());
  CHECK(names(selectCases(matrix, {"1d_256m$"})) == std::vector<std::string>{"1d_256m"});
  const std::vector<std::string> family = names(selectCases(matrix, {"1d_256m"}));
  CHECK(family.size() > 1);
  for (const std::string& name : family) CHECK(name.rfind("1d_256m", 0) == 0);
  // In the matrix's order, whatever the order of the names.
  CHECK(names(selectCases(matrix, {"rows_16k$", "1d_16m$"})) ==
        std::vector<std::string>{"1d_16m", "rows_16k"});
  CHECK(selectCases(matrix, {"1d_256$"}).empty());
  CHECK(selectCases(matrix, {"$"}).empty());
}

namespace {

// "1 << 24" or "16384".
uint64_t sizeOf(const std::string& text) {
  size_t shift = text.find("<<");
  if (shift == std::string::npos) return std::stoull(text);
  return std::stoull(text.substr(0, shift)) << std::stoull(text.substr(shift + 2));
}

}  // namespace

// tools/bench/torch_peer.py times torch on the same cases, joined by name.
TEST_CASE("bench cases: the torch peer's cases are the GPU matrix's, shape and axis") {
  std::ifstream file(VKSCAN_TORCH_PEER);
  REQUIRE(file);
  // Lines of CASES: ("name", "dtype", [sizes], axis),
  const std::regex line(R"re(^\s*\("(\w+)", "\w+", \[([^\]]*)\], (\d+)\),\s*$)re");
  std::vector<Case> peer;
  for (std::string text; std::getline(file, text);) {
    std::smatch match;
    if (!std::regex_match(text, match, line)) continue;
    Case c;
    c.name = match[1];
    std::stringstream sizes(match[2].str());
    for (std::string size; std::getline(sizes, size, ',');) {
      c.sizes.push_back(static_cast<uint32_t>(sizeOf(size)));
    }
    c.axis = static_cast<uint32_t>(std::stoul(match[3]));
    peer.push_back(c);
  }
  const std::vector<Case> matrix = gpuMatrix(false);
  REQUIRE(peer.size() == matrix.size());
  for (size_t i = 0; i < matrix.size(); ++i) {
    CAPTURE(matrix[i].name);
    CHECK(peer[i].name == matrix[i].name);
    CHECK(peer[i].sizes == matrix[i].sizes);
    CHECK(peer[i].axis == matrix[i].axis);
  }
}

// docs/gpu-check.md: rows_4096, rows_16k, rows_262144 and 1d_256m measure the
// look-back level by level only while an NVIDIA GPU plans them all as one
// dispatch of the same 65536 tiles, the first without a look-back.
TEST_CASE("bench cases: the look-back ladder is one dispatch of the same tiles on NVIDIA") {
  const std::vector<Case> matrix = gpuMatrix(false);
  const std::vector<std::pair<std::string, std::string>> ladder = {{"rows_4096", "rows_scan"},
                                                                   {"rows_16k", "rows_onepass"},
                                                                   {"rows_262144", "rows_onepass"},
                                                                   {"1d_256m", "rows_onepass"}};
  for (const auto& [name, kernel] : ladder) {
    CAPTURE(name);
    const std::vector<Case> selected = selectCases(matrix, {name + "$"});
    REQUIRE(selected.size() == 1);
    const vkscan::PlanReport plan = vkscan::planFor(selected[0].desc(), "nvidia");
    REQUIRE(plan.dispatches.size() == 1);
    const vkscan::PlannedDispatch& d = plan.dispatches[0];
    CHECK(d.kernel == kernel);
    CHECK(uint64_t{d.workgroups[0]} * d.workgroups[1] * d.workgroups[2] == 65536);
    CHECK(d.workgroupSize == 256);
    CHECK(d.inputBytesRead == uint64_t{1} << 30);
    CHECK((plan.scratchBytes == 0) == (kernel == "rows_scan"));
  }
}

// vkscan-bench --list gives each case's descriptor as `vkscan plan` takes
// it (scripts/kernel-stats.sh plans the GPU matrix from it).
TEST_CASE("bench cases: plan arguments say the case's shape, axis, type, operation and modes") {
  auto arguments = [](const std::vector<Case>& matrix, const std::string& name) {
    const std::vector<Case> selected = selectCases(matrix, {name + "$"});
    REQUIRE(selected.size() == 1);
    return selected[0].planArguments();
  };
  const std::vector<Case> gpu = gpuMatrix(false);
  CHECK(arguments(gpu, "1d_256m") == "268435456 --axis 0 --dtype FLOAT32");
  CHECK(arguments(gpu, "latency") == "1x1x3x4 --axis 3 --dtype FLOAT32");
  CHECK(arguments(gpu, "1d_128m_u64") == "134217728 --axis 0 --dtype UINT64");
  CHECK(arguments(gpu, "1d_256m_max") == "268435456 --axis 0 --dtype FLOAT32 --operation MAXIMUM");
  CHECK(arguments(gpu, "rows_16k_carried") ==
        "16384x16384 --axis 1 --dtype FLOAT32 --carry-in --totals");
  CHECK(arguments(caseMatrix(false), "square_excl_dec") ==
        "4096x4096 --axis 1 --dtype FLOAT32 --exclusive --reverse");
}
