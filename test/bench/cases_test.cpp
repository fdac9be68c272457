#include "cases.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

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
