#include "tuning/tuning.hpp"

#include <algorithm>

#include "tuning/cpu.hpp"
#include "tuning/gpu.hpp"

namespace vkscan::detail {
namespace {

// What both classes derive from the device alike.
Tuning common(DeviceClass deviceClass, uint32_t chunkWorkgroupSize,
              uint32_t maxWorkgroupInvocations) {
  Tuning tuning{};
  tuning.deviceClass = deviceClass;
  tuning.chunkWorkgroupSize = std::min(chunkWorkgroupSize, maxWorkgroupInvocations);
  // Rows kernels: whole subtrees of the canonical order only (4096 or 256 elements).
  tuning.rowsWorkgroupSize = maxWorkgroupInvocations >= 256 ? 256 : 16;
  return tuning;
}

Tuning gpuTuning(uint32_t subgroupSize, uint32_t maxWorkgroupInvocations) {
  using namespace gpu_tuning;
  Tuning tuning = common(DeviceClass::Gpu, std::max(subgroupSize, kChunkWorkgroupSize),
                         maxWorkgroupInvocations);
  tuning.chunkWideWorkgroupInvocations = kChunkWideWorkgroupInvocations;
  tuning.chunkWideWorkgroupSize = tuning.chunkWorkgroupSize;
  tuning.chunkTargetInvocations = kChunkTargetInvocations;
  tuning.wholeLineInvocations = kChunkTargetInvocations;
  tuning.chunkSmallProblem = kChunkSmallProblem;
  tuning.lookbackPolls = kLookbackPolls;
  tuning.rowsStagedNodes = kRowsStagedNodes;
  tuning.rowsLinesFastest = kRowsLinesFastest;
  tuning.columnsScalarLines = kColumnsScalarLines;
  tuning.columnsOneTile = kColumnsOneTile;
  // Vulkan promises workgroups of 128.
  tuning.columnsWorkgroupSize =
      std::min(kColumnsWorkgroupSize, maxWorkgroupInvocations >= 256 ? 256u : 128u);
  return tuning;
}

Tuning cpuTuning(uint32_t subgroupSize, uint32_t maxWorkgroupInvocations, CpuThreads threads) {
  using namespace cpu_tuning;
  Tuning tuning = common(DeviceClass::Cpu, kChunkWorkgroupSize, maxWorkgroupInvocations);
  uint64_t subgroup = std::max<uint32_t>(subgroupSize, 1);
  tuning.chunkWideWorkgroupInvocations = kChunkWideWorkgroupInvocations;
  tuning.chunkWideWorkgroupSize = std::min(kChunkWideWorkgroupSize, maxWorkgroupInvocations);
  tuning.chunkTargetInvocations = kChunkTargetInvocations;
  // Lines walked whole from a subgroup per busy thread; fewer by the shortfall
  // where several threads are busy and the other pass reads every line twice.
  tuning.wholeLineInvocations = threads.busy != 0
                                    ? std::min(kChunkTargetInvocations, threads.busy * subgroup)
                                    : kChunkTargetInvocations;
  tuning.wholeLineShortfall = threads.busy >= 2 ? subgroup - 1 : 0;
  tuning.chunkSmallProblem = kChunkSmallProblem;
  tuning.chunkLookbackMaxElements = kChunkLookbackMaxElements;
  tuning.lookbackPolls = kLookbackPolls;
  tuning.cpuWorkers = threads.workers;
  tuning.chunkTouchAheadStrideBytes = kChunkTouchAheadStrideBytes;
  tuning.chunkLaneGroups = kChunkLaneGroups;
  tuning.chunkRealign = kChunkRealign;
  tuning.texelInput = kTexelInput;
  tuning.chunkNodeBarriers = kChunkNodeBarriers;
  tuning.chunkExclusivityCompiled = kChunkExclusivityCompiled;
  return tuning;
}

}  // namespace

Tuning tuningFor(DeviceClass deviceClass, uint32_t subgroupSize, uint32_t maxWorkgroupInvocations,
                 CpuThreads cpuThreads) {
  return deviceClass == DeviceClass::Cpu
             ? cpuTuning(subgroupSize, maxWorkgroupInvocations, cpuThreads)
             : gpuTuning(subgroupSize, maxWorkgroupInvocations);
}

}  // namespace vkscan::detail
