// libFuzzer target: descriptor validation and planning, without a device.
// Random ranks, sizes, strides, axes, types, directions, device limits and
// tunings go through detail::normalize() and detail::makePlan(); both may
// reject with InvalidArgument, anything else is a bug. Every plan is then
// checked against what the kernels assume (test/lib/plan_invariants.hpp,
// the plan tests' own checks): workgroup counts within the limits, 32-bit
// invocation indices that cannot wrap, every line and element covered, and
// every address a dispatch can touch inside its binding.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "plan/plan.hpp"
#include "plan_invariants.hpp"
#include "problem.hpp"

using namespace vkscan;
using namespace vkscan::detail;

namespace {

uint32_t pickSize(FuzzedDataProvider& data) {
  switch (data.ConsumeIntegralInRange<int>(0, 7)) {
    case 0:
      return 0;
    case 1:
    case 2:
    case 3:
      return data.ConsumeIntegralInRange<uint32_t>(1, 20);
    case 4:
      return data.ConsumeIntegralInRange<uint32_t>(1, 5000);
    case 5: {  // around powers of 16 and 2
      uint32_t base = uint32_t{1} << data.ConsumeIntegralInRange<int>(0, 31);
      return base + data.ConsumeIntegralInRange<int>(-1, 1);
    }
    default:
      return data.ConsumeIntegral<uint32_t>();
  }
}

void pickStrides(FuzzedDataProvider& data, TensorDesc& tensor) {
  size_t rank = tensor.sizes.size();
  switch (data.ConsumeIntegralInRange<int>(0, 3)) {
    case 0:
      return;  // packed
    case 1: {  // a permuted order with padding (C, Fortran, anything)
      std::vector<size_t> order(rank);
      for (size_t d = 0; d < rank; ++d) order[d] = d;
      for (size_t d = rank; d > 1; --d) {
        std::swap(order[d - 1], order[data.ConsumeIntegralInRange<size_t>(0, d - 1)]);
      }
      tensor.strides.assign(rank, 0);
      uint64_t stride = data.ConsumeIntegralInRange<uint32_t>(1, 4);
      for (size_t d : order) {
        tensor.strides[d] = static_cast<uint32_t>(std::min<uint64_t>(stride, UINT32_MAX));
        stride *=
            std::max<uint64_t>(1, tensor.sizes[d]) + data.ConsumeIntegralInRange<uint32_t>(0, 2);
      }
      return;
    }
    default:  // arbitrary, broadcast zeros included
      tensor.strides.clear();
      for (size_t d = 0; d < rank; ++d) {
        tensor.strides.push_back(data.ConsumeBool() ? data.ConsumeIntegralInRange<uint32_t>(0, 64)
                                                    : data.ConsumeIntegral<uint32_t>());
      }
      return;
  }
}

// FUZZ_PLAN_PRINT=1 fuzz_plan <file> prints the case a file decodes to.
void printCase(const CumulativeSummationDesc& desc, const PlanLimits& limits,
               const Tuning& tuning) {
  auto list = [](const std::vector<uint32_t>& v) {
    std::string s = "{";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "}";
  };
  std::fprintf(
      stderr,
      "input: type %u sizes %s strides %s\noutput: type %u sizes %s strides %s\n"
      "axis %u direction %u exclusive %d\nlimits: subgroup %u invocations %u groups %u x "
      "%u shared %u\ntuning: class %d rowsWG %u chunkWG %u wideWG %u from %llu target %llu whole "
      "%llu shortfall %llu small %llu staged %d scalar lines %llu lines fastest %d one tile %d "
      "columns WG %u\n",
      static_cast<unsigned>(desc.input.dataType), list(desc.input.sizes).c_str(),
      list(desc.input.strides).c_str(), static_cast<unsigned>(desc.output.dataType),
      list(desc.output.sizes).c_str(), list(desc.output.strides).c_str(), desc.axis,
      static_cast<unsigned>(desc.axisDirection), desc.hasExclusiveSum, limits.subgroupSize,
      limits.maxWorkgroupInvocations, limits.maxWorkgroupCountX, limits.maxWorkgroupCountY,
      limits.maxSharedMemoryBytes, static_cast<int>(tuning.deviceClass), tuning.rowsWorkgroupSize,
      tuning.chunkWorkgroupSize, tuning.chunkWideWorkgroupSize,
      static_cast<unsigned long long>(tuning.chunkWideWorkgroupInvocations),
      static_cast<unsigned long long>(tuning.chunkTargetInvocations),
      static_cast<unsigned long long>(tuning.wholeLineInvocations),
      static_cast<unsigned long long>(tuning.wholeLineShortfall),
      static_cast<unsigned long long>(tuning.chunkSmallProblem),
      static_cast<int>(tuning.rowsStagedNodes),
      static_cast<unsigned long long>(tuning.columnsScalarLines),
      static_cast<int>(tuning.rowsLinesFastest), static_cast<int>(tuning.columnsOneTile),
      tuning.columnsWorkgroupSize);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t length) {
  FuzzedDataProvider data(bytes, length);
  CumulativeSummationDesc desc;
  desc.input.dataType = static_cast<DataType>(data.ConsumeIntegralInRange<uint32_t>(0, 7));
  desc.output.dataType = data.ConsumeIntegralInRange<int>(0, 15) == 0
                             ? static_cast<DataType>(data.ConsumeIntegralInRange<uint32_t>(0, 7))
                             : desc.input.dataType;
  size_t rank = data.ConsumeIntegralInRange<size_t>(0, 9);
  for (size_t d = 0; d < rank; ++d) desc.input.sizes.push_back(pickSize(data));
  desc.output.sizes = desc.input.sizes;
  if (rank > 0 && data.ConsumeIntegralInRange<int>(0, 15) == 0) {
    desc.output.sizes[data.ConsumeIntegralInRange<size_t>(0, rank - 1)] = pickSize(data);
  }
  pickStrides(data, desc.input);
  if (data.ConsumeBool()) {
    desc.output.strides = desc.input.strides;
  } else {
    pickStrides(data, desc.output);
  }
  desc.axis = data.ConsumeIntegralInRange<uint32_t>(0, static_cast<uint32_t>(rank));
  desc.axisDirection = static_cast<AxisDirection>(data.ConsumeIntegralInRange<uint32_t>(0, 2));
  desc.hasExclusiveSum = data.ConsumeBool();

  // Limits a Vulkan device may report (the spec's minimums and up).
  PlanLimits limits;
  limits.subgroupSize = uint32_t{1} << data.ConsumeIntegralInRange<int>(0, 7);
  limits.maxWorkgroupInvocations =
      data.ConsumeBool() ? 1024 : data.ConsumeIntegralInRange<uint32_t>(128, 2048);
  limits.maxWorkgroupCountX =
      data.ConsumeBool() ? 65535 : data.ConsumeIntegralInRange<uint32_t>(65535, UINT32_MAX);
  limits.maxWorkgroupCountY =
      data.ConsumeBool() ? 65535 : data.ConsumeIntegralInRange<uint32_t>(65535, UINT32_MAX);
  DeviceClass deviceClass = data.ConsumeBool() ? DeviceClass::Cpu : DeviceClass::Gpu;
  Tuning tuning;
  if (data.ConsumeBool()) {
    // Speed-only knobs: any value must still give a valid plan, under
    // either planner (true: the GPU's, which has the rows kernels).
    tuning = tuningFor(deviceClass, limits.subgroupSize, limits.maxWorkgroupInvocations, {});
    tuning.deviceClass = data.ConsumeBool() ? DeviceClass::Gpu : DeviceClass::Cpu;
    tuning.chunkTargetInvocations = data.ConsumeIntegralInRange<uint64_t>(1, uint64_t{1} << 24);
    tuning.chunkSmallProblem = data.ConsumeIntegralInRange<uint64_t>(0, uint64_t{1} << 24);
    tuning.wholeLineInvocations = data.ConsumeIntegralInRange<uint64_t>(1, uint64_t{1} << 24);
    tuning.chunkWideWorkgroupInvocations =
        data.ConsumeIntegralInRange<uint64_t>(1, uint64_t{1} << 24);
  } else {
    // As many workers as CPUs: the other branch fuzzes the threshold they set.
    uint32_t threads = data.ConsumeIntegralInRange<uint32_t>(0, 256);
    tuning = tuningFor(deviceClass, limits.subgroupSize, limits.maxWorkgroupInvocations,
                       {threads, threads});
  }

  // Read last, so that earlier inputs decode as before: shared memory from
  // Vulkan's least, and the knob that stages rows tiles in it.
  limits.maxSharedMemoryBytes =
      data.ConsumeBool() ? 49152 : data.ConsumeIntegralInRange<uint32_t>(16384, 65536);
  if (data.ConsumeBool()) tuning.rowsStagedNodes = !tuning.rowsStagedNodes;
  // Then the fewest lines off vectors the columns one pass takes.
  if (data.ConsumeBool()) tuning.columnsScalarLines = data.ConsumeIntegralInRange<uint64_t>(1, 64);
  // Then the rows one pass's tile order.
  tuning.rowsLinesFastest = data.ConsumeBool();
  // Then whether the columns one pass takes lines of one tile.
  if (data.ConsumeBool()) tuning.columnsOneTile = !tuning.columnsOneTile;
  // Then the columns one pass's workgroup, where the device allows it.
  if (data.ConsumeBool()) {
    uint32_t workgroup = uint32_t{64} << data.ConsumeIntegralInRange<int>(0, 2);
    if (workgroup <= limits.maxWorkgroupInvocations) tuning.columnsWorkgroupSize = workgroup;
  }

  if (std::getenv("FUZZ_PLAN_PRINT") != nullptr) printCase(desc, limits, tuning);
  // FUZZ_PLAN_MAX_ELEMENTS=n skips larger tensors, to explore past a known
  // bug with huge ones; CI leaves it unset.
  static const char* maxElements = std::getenv("FUZZ_PLAN_MAX_ELEMENTS");
  if (maxElements != nullptr) {
    double elements = 1;
    for (uint32_t size : desc.output.sizes) elements *= size;
    if (elements > std::strtod(maxElements, nullptr)) return 0;
  }

  Problem problem;
  try {
    problem = normalize(desc);
  } catch (const InvalidArgument&) {
    return 0;
  }
  Plan plan;
  try {
    plan = makePlan(problem, limits, tuning);
  } catch (const InvalidArgument&) {
    return 0;
  }
  std::vector<std::string> broken = vkscan::test::planViolations(desc, plan, limits);
  if (!broken.empty()) {
    for (const std::string& line : broken) std::fprintf(stderr, "fuzz_plan: %s\n", line.c_str());
    std::abort();
  }
  return 0;
}
