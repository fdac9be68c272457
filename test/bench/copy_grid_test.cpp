#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "copy_grid.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>
#include <vkscan/vkscan.hpp>

using vkscan::bench::CopyDispatch;
using vkscan::bench::copyDispatches;
using vkscan::bench::kMaxGroupsPerDimension;

namespace {

// Checks that the dispatches cover workgroups 0 to the last one once each,
// in order, and that only a partial last tile runs with bounds checks.
void checkCover(uint64_t count, uint64_t perGroup) {
  CAPTURE(count);
  CAPTURE(perGroup);
  const std::vector<CopyDispatch> dispatches = copyDispatches(count, perGroup);
  const uint64_t groups = (count + perGroup - 1) / perGroup;
  uint64_t next = 0;
  for (size_t i = 0; i < dispatches.size(); ++i) {
    const CopyDispatch& d = dispatches[i];
    CAPTURE(i);
    CHECK(d.firstGroup == next);
    CHECK(d.groupsX >= 1);
    CHECK(d.groupsX <= kMaxGroupsPerDimension);
    CHECK(d.groupsY >= 1);
    CHECK(d.groupsY <= kMaxGroupsPerDimension);
    next += uint64_t(d.groupsX) * d.groupsY;
    const bool holdsPartialTile = next * perGroup > count;
    CHECK(d.wholeTiles == !holdsPartialTile);
    if (holdsPartialTile) CHECK(uint64_t(d.groupsX) * d.groupsY == 1);
  }
  CHECK(next == groups);
  CHECK(dispatches.size() <= 3);
}

}  // namespace

TEST_CASE("roof copy: whole tiles without bounds checks, a partial last tile apart") {
  SUBCASE("whole tiles only: one dispatch, no checks") {
    const std::vector<CopyDispatch> d = copyDispatches(4096 * 16, 4096);
    REQUIRE(d.size() == 1);
    CHECK(d[0].wholeTiles);
    CHECK(d[0].groupsX == 16);
  }
  SUBCASE("a partial last tile: the whole ones unchecked, the last alone") {
    // [4096, 4097] FLOAT32 as 64-bit words, 16 per invocation, 256 per
    // workgroup: 2048.5 tiles, which used to run every tile checked.
    const std::vector<CopyDispatch> d = copyDispatches(4096ull * 4097 / 2, 16 * 256);
    REQUIRE(d.size() == 2);
    CHECK(d[0].wholeTiles);
    CHECK(d[0].groupsX == 2048);
    CHECK_FALSE(d[1].wholeTiles);
    CHECK(d[1].firstGroup == 2048);
  }
  SUBCASE("fewer elements than a tile: one checked workgroup") {
    const std::vector<CopyDispatch> d = copyDispatches(5, 4096);
    REQUIRE(d.size() == 1);
    CHECK_FALSE(d[0].wholeTiles);
  }
  SUBCASE("nothing to copy: no dispatch") {
    CHECK(copyDispatches(0, 4096).empty());
  }
  SUBCASE("past one dimension: full rows, then the rest, then the partial tile") {
    const uint64_t rowsOfGroups = 2;
    const uint64_t perGroup = 64;
    const uint64_t count = (rowsOfGroups * kMaxGroupsPerDimension + 7) * perGroup + 3;
    const std::vector<CopyDispatch> d = copyDispatches(count, perGroup);
    REQUIRE(d.size() == 3);
    CHECK(d[0].groupsX == kMaxGroupsPerDimension);
    CHECK(d[0].groupsY == rowsOfGroups);
    CHECK(d[1].groupsX == 7);
    CHECK(d[2].firstGroup == rowsOfGroups * kMaxGroupsPerDimension + 7);
  }
  SUBCASE("every count near the limits covers its workgroups once") {
    const uint64_t maxX = kMaxGroupsPerDimension;
    for (uint64_t perGroup : std::vector<uint64_t>{1, 64, 4096}) {
      for (uint64_t groups : std::vector<uint64_t>{1, 2, maxX - 1, maxX, maxX + 1, 3 * maxX}) {
        for (uint64_t extra : std::vector<uint64_t>{0, 1, perGroup - 1}) {
          const uint64_t count = (groups - 1) * perGroup + (extra == 0 ? perGroup : extra);
          if (count <= UINT32_MAX) checkCover(count, perGroup);
        }
      }
    }
  }
  SUBCASE("too many elements: an error, not a wrong grid") {
    CHECK_THROWS_AS(copyDispatches(uint64_t(UINT32_MAX) + 1, 4096), vkscan::Error);
    CHECK_THROWS_AS(copyDispatches(UINT32_MAX, 1), vkscan::Error);
  }
}
