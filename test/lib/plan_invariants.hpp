// What the kernels (kernels/*.glsl) assume of every dispatch plan, written
// once for the plan tests (plan_test.cpp) and the plan fuzzer
// (fuzz/fuzz_plan.cpp), so that the two cannot drift apart.
#pragma once

#include <string>
#include <vector>

#include "plan/plan.hpp"
#include "vkscan/vkscan.hpp"

namespace vkscan::test {

// Checks `plan`, made by detail::makePlan() for `desc` under `limits`:
// workgroup counts within the limits, 32-bit invocation indices that cannot
// wrap, every line and element covered, every address a dispatch can reach
// inside its binding (input, output or scratch), vector accesses aligned,
// specialization constants consistent with the push constants, scratch
// O(elements / 16). Returns one line per broken invariant, naming the
// dispatch, its stage and the condition; empty when the plan holds them all.
std::vector<std::string> planViolations(const CumulativeSummationDesc& desc,
                                        const detail::Plan& plan, const detail::PlanLimits& limits);
// The same for a scan with a carry-in or totals (ScanDesc::carryIn, totals):
// their copies stay inside the bindings, the totals are written last, and
// aux carries come where lines hold several chunks or take a carry-in.
std::vector<std::string> planViolations(const ScanDesc& desc, const detail::Plan& plan,
                                        const detail::PlanLimits& limits);

}  // namespace vkscan::test
