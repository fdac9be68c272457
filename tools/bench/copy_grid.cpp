#include "copy_grid.hpp"

#include <string>
#include <vkscan/vkscan.hpp>

namespace vkscan::bench {

std::vector<CopyDispatch> copyDispatches(uint64_t count, uint64_t elementsPerGroup) {
  if (count > UINT32_MAX) throw Error("benchmark copy of more than 2^32 - 1 elements");
  const uint64_t wholeGroups = count / elementsPerGroup;
  const uint64_t rows = wholeGroups / kMaxGroupsPerDimension;
  if (rows > kMaxGroupsPerDimension) {
    throw Error("benchmark copy of " + std::to_string(wholeGroups) + " workgroups is too large");
  }
  std::vector<CopyDispatch> dispatches;
  const uint64_t inRows = rows * kMaxGroupsPerDimension;
  if (rows > 0) dispatches.push_back({0, kMaxGroupsPerDimension, uint32_t(rows), true});
  if (wholeGroups > inRows) {
    dispatches.push_back({uint32_t(inRows), uint32_t(wholeGroups - inRows), 1, true});
  }
  if (count % elementsPerGroup != 0) dispatches.push_back({uint32_t(wholeGroups), 1, 1, false});
  return dispatches;
}

}  // namespace vkscan::bench
