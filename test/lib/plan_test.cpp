// The dispatch plan, without a device.
#include <doctest/doctest.h>

#include "plan.hpp"
#include "problem.hpp"

using namespace vkscan;
using namespace vkscan::detail;

TEST_CASE("plan: a short tensor is one dispatch without scratch") {
  CumulativeSummationDesc desc;
  desc.input = {DataType::Float32, {1, 1, 3, 4}, {}};
  desc.output = desc.input;
  desc.axis = 3;
  Plan plan = makePlan(normalize(desc), PlanLimits{}, tuningFor(false, 32, 1024));
  CHECK(plan.dispatches.size() == 1);
  CHECK(plan.scratchBytes == 0);
}
