// The traffic model: the bytes each dispatch of a plan reads and writes in
// each binding, as its kernel does them (include/vkscan/plans.hpp states the
// counting rules). A pure function of the dispatch, tested without a device.
#pragma once

#include <cstdint>
#include <vector>

#include "plan/common.hpp"

namespace vkscan::detail {

struct DispatchTraffic {
  // Indexed by BufferRole (None stays 0). A carry pass's roles are Scratch.
  uint64_t read[7] = {0, 0, 0, 0, 0, 0, 0};
  uint64_t written[7] = {0, 0, 0, 0, 0, 0, 0};  // fillBytes included in Scratch
  uint64_t fillBytes = 0;
  // Of written[Scratch] past the fill: the look-back's status words, which
  // the pass writes within the bytes it fills.
  uint64_t statusBytes = 0;

  uint64_t bytesRead() const noexcept;
  uint64_t bytesWritten() const noexcept;
};

DispatchTraffic dispatchTraffic(const Dispatch& dispatch);

// dispatchTraffic() of each of the plan's dispatches, in order.
std::vector<DispatchTraffic> planTraffic(const Plan& plan);

}  // namespace vkscan::detail
