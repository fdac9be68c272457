// The dispatch plan: which kernels, how many passes, workgroup counts and the
// scratch layout. A pure function of the normalised problem, the device's
// limits and its tuning, so it is unit-tested without a device. The tuning's
// device class picks the planner (gpu.cpp, cpu.cpp).
#pragma once

#include "plan/common.hpp"
#include "problem.hpp"
#include "tuning/tuning.hpp"

namespace vkscan::detail {

// Throws InvalidArgument if the problem cannot be planned within the limits.
Plan makePlan(const Problem& problem, const PlanLimits& limits, const Tuning& tuning);

}  // namespace vkscan::detail
