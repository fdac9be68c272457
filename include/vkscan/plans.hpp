// vkscan's plan diagnostics, beside the engine-facing core (vkscan.hpp): the
// dispatches an operator records, with the bytes each moves, on the real
// device or on a named device profile built from published limits, so that
// a plan can be inspected (and its memory traffic weighed) without the GPU
// it is meant for. For tools, benchmarks and bug reports; an engine needs
// none of this to record a scan.
//
// The traffic model counts, per dispatch, the bytes the kernels read and
// write in the input, output and scratch bindings:
//   - every pass over the data reads (or writes) each element it covers
//     once; a look-back pass reads its tile twice (it reduces it, then scans
//     it), as its kernel does;
//   - chunk totals and carries are one accumulator (FP32 for FLOAT16 and
//     BFLOAT16) per line and chunk; a carry every invocation of a workgroup
//     loads from one address counts once;
//   - a look-back pass writes a total and an inclusive value per tile and
//     reads its predecessor's inclusive value once; a one-pass kernel
//     writes two values per node of each line's tree above its tiles, and
//     at each level a rows tile reads the totals of its ancestor's earlier
//     siblings and the nearest one's inclusive value, a columns line that
//     inclusive value alone: the case where no tile waits (polls and
//     fallback reductions of a silent tile read more);
//   - scratch filled by vkCmdFillBuffer before a dispatch is written by it,
//     as is the 64-byte header (vkCmdUpdateBuffer) a dispatch that reads
//     carry-ins or writes totals where they lie reads once; those carry-ins
//     and totals count one per line.
//   Reads a CPU device's walks make early to start cache misses (words the
//   walk reads again anyway) are not counted.
//
// VKSCAN_TUNING, a diagnostic for benchmarks: comma-separated NAME=VALUE
// entries that replace the planner's speed knobs on every Device made while
// it is set (describe(const Device&) then names it) and in planFor():
// planner=gpu|cpu, lookbackPolls=N, rowsWorkgroupSize=16|256,
// rowsStagedNodes=0|1, rowsLinesFastest=0|1, columnsScalarLines=N,
// columnsOneTile=0|1, chunkTargetInvocations=N, wholeLineInvocations=N,
// chunkSmallProblem=N
// (docs/tuning.md). Results stay the same bits; only speed and plans change.
// An entry it cannot read makes the Device constructor, createDevice() and
// planFor() throw InvalidArgument with field "VKSCAN_TUNING".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vkscan.hpp"

namespace vkscan {

// A device as the planner sees it: the published limits and features of a
// kind of device, which planFor() plans with in place of a real one.
struct DeviceProfile {
  std::string name;         // what planFor() takes, e.g. "nvidia"
  std::string description;  // the hardware and driver the limits come from
  bool cpuDevice = false;   // a CPU implementation of Vulkan (plans of their own)
  uint32_t subgroupSize = 0;
  uint32_t maxComputeWorkGroupInvocations = 0;
  uint32_t maxComputeWorkGroupCount[3] = {0, 0, 0};
  uint64_t maxStorageBufferRange = 0;
  uint64_t minStorageBufferOffsetAlignment = 0;
  // Where it holds a whole tile, the rows kernels move tiles through shared
  // memory, so that neighbouring invocations access neighbouring vectors.
  uint32_t maxComputeSharedMemorySize = 0;
  bool pushDescriptor = false;  // VK_KHR_push_descriptor
  bool shaderInt64 = false;
  bool shaderFloat64 = false;
  // VkPhysicalDeviceSubgroupProperties::supportedOperations: GPU plans use
  // the rows kernels only with VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT.
  VkSubgroupFeatureFlags subgroupOperations = 0;
  // The sizes a subgroup may run at, and whether the engine enabled
  // computeFullSubgroups (every profile does, as vkscan's own devices do):
  // GPU plans use the rows kernels, which need full subgroups, only where
  // the sizes are one or full subgroups can be required.
  uint32_t minSubgroupSize = 0;
  uint32_t maxSubgroupSize = 0;
  bool computeFullSubgroups = false;
  // Whether the vendor promises that a workgroup waiting on another lets it
  // make progress. Informational: no plan depends on it (the look-back pass
  // bounds every wait).
  bool forwardProgress = false;
  uint32_t cpuWorkers = 0;  // CPU devices: the worker threads plans expect
};

// Every profile, in a fixed order: nvidia, amd, amd-wave32, intel,
// intel-simd16, mali, apple, lavapipe.
VKSCAN_API const std::vector<DeviceProfile>& deviceProfiles();

// The names of deviceProfiles(), in the same order.
VKSCAN_API std::vector<std::string> profileNames();

// One dispatch of a plan, with the bytes the traffic model gives it.
struct PlannedDispatch {
  std::string kernel;                     // the kernel's stage, e.g. "rows_scan", "chunk_lookback"
  DataType dataType = DataType::Float32;  // what it reads and writes (carries: accumulators)
  uint32_t workgroups[3] = {0, 0, 0};     // the grid, x by y by z
  uint32_t workgroupSize = 0;             // invocations per workgroup
  // Rows kernels: tiles move through shared memory, so that neighbouring
  // lanes load and store neighbouring 16-byte vectors, or neighbouring
  // elements where lines are off vectors; false for every other kernel.
  bool stagedTiles = false;
  // Columns one pass: each lane is built element by element, where lines are
  // off vectors (neighbouring invocations then load neighbouring elements,
  // not vectors); false for every other kernel.
  bool scalarLanes = false;
  // Rows one pass: tiles handed out across lines first (tile 0 of every
  // line, then tile 1, ...), where VKSCAN_TUNING sets rowsLinesFastest, not
  // a line's tiles in a row; false for every other kernel.
  bool tilesAcrossLines = false;
  // The bytes of each tensor (ScanDesc's, and scratch) read and written.
  uint64_t inputBytesRead = 0;
  uint64_t outputBytesRead = 0;   // the values the indices' records pass reads back
  uint64_t indicesBytesRead = 0;  // the index scan's
  uint64_t carryInBytesRead = 0;
  uint64_t scratchBytesRead = 0;
  uint64_t outputBytesWritten = 0;
  uint64_t indicesBytesWritten = 0;
  uint64_t totalsBytesWritten = 0;
  uint64_t scratchBytesWritten = 0;  // fillBytes included
  uint64_t fillBytes = 0;            // scratch filled by vkCmdFillBuffer before it
  uint64_t bytesRead = 0;            // the sum of the five *BytesRead
  uint64_t bytesWritten = 0;         // the sum of the four *BytesWritten
};

// A plan as planFor() or planOf() reports it.
struct PlanReport {
  std::string profile;                           // the profile's name, or the real device's name
  ScanOperation operation = ScanOperation::Sum;  // the descriptor's
  std::vector<PlannedDispatch> dispatches;       // in recording order; none for an empty tensor
  uint64_t scratchBytes = 0;                     // Operator::scratchSize()
  uint64_t bytesMoved = 0;   // the sum of every dispatch's bytesRead and bytesWritten
  uint64_t tensorBytes = 0;  // the input's elements times their size
  // bytesMoved / (2 * tensorBytes): 1 for a scan that reads its input and
  // writes its output once, and nothing else; 0 for an empty tensor.
  double trafficRatio = 0.0;
};

// The plan createOperator() would make for `desc` on a device with the
// limits of the profile named `profile` (deviceProfiles()). Needs no Vulkan
// device or loader. Throws InvalidArgument with field "profile" for a name
// that is no profile, and as Device::createOperator for a descriptor it
// refuses (InvalidArgument naming the field; Unsupported for FLOAT64 on a
// profile without shaderFloat64, or a tensor past kMaxTensorBytesWithoutInt64
// on one without shaderInt64).
// Every operation of a ScanDesc plans alike.
VKSCAN_API PlanReport planFor(const ScanDesc& desc, const std::string& profile);
VKSCAN_API PlanReport planFor(const CumulativeSummationDesc& desc, const std::string& profile);

// The plan `op` records on its own device; profile is the device's name.
// Throws nothing but std::bad_alloc.
VKSCAN_API PlanReport planOf(const Operator& op);

// `report` as one JSON object, on one line, with the keys "profile",
// "operation" (scanOperationName(), e.g. "SUM"), "dispatches" (objects of
// "kernel", "workgroups" [x, y, z], "workgroup_size", "staged_tiles",
// "scalar_lanes", "tiles_across_lines", "bytes_read", "bytes_written"),
// "scratch_bytes", "bytes_moved", "tensor_bytes" and "traffic_ratio".
// Integers are exact; the ratio is the shortest decimal that reads back as
// the same double.
VKSCAN_API std::string toJson(const PlanReport& report);

}  // namespace vkscan
