// How the roof's copy (copy.comp) covers its workgroups. A pure function of
// the element count, so that it is testable without Vulkan.
#ifndef VKSCAN_BENCH_COPY_GRID_HPP
#define VKSCAN_BENCH_COPY_GRID_HPP

#include <cstdint>
#include <vector>

namespace vkscan::bench {

// Workgroups per grid dimension that every Vulkan device accepts
// (maxComputeWorkGroupCount's required minimum).
constexpr uint32_t kMaxGroupsPerDimension = 65535;

// One dispatch of the copy: workgroups [firstGroup, firstGroup + groupsX *
// groupsY) of the whole copy, flattened row by row.
struct CopyDispatch {
  uint32_t firstGroup = 0;
  uint32_t groupsX = 0;
  uint32_t groupsY = 0;
  // Every workgroup of the dispatch has a full tile, so its pipeline drops
  // copy.comp's bounds checks.
  bool wholeTiles = false;
};

// The dispatches that copy `count` elements in workgroups of
// `elementsPerGroup` (> 0): the whole tiles in grids that hold exactly them
// (a 2-D grid of full rows, then one row of the rest), and a partial last
// tile, if any, in a dispatch of its own. llvmpipe runs a kernel's every
// path, taken or not, so a bounds-checked path costs each workgroup of a
// pipeline that has it; split this way, the roof is a tuned copy of any
// size, not only of sizes its tiles divide. Throws vkscan::Error where the
// workgroups exceed kMaxGroupsPerDimension squared or count exceeds 2^32 - 1.
std::vector<CopyDispatch> copyDispatches(uint64_t count, uint64_t elementsPerGroup);

}  // namespace vkscan::bench

#endif
