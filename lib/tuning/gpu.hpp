// The GPU table: one value a line, with its reason. tuningFor() fits it to
// the device (lib/tuning/tuning.cpp); docs/tuning.md says more.
#pragma once

#include <cstdint>

namespace vkscan::detail::gpu_tuning {

// Chunk walks: workgroups of 64 invocations, or of one subgroup where that is wider.
inline constexpr uint32_t kChunkWorkgroupSize = 64;
// Never wider for large dispatches: a GPU pays per invocation, not per workgroup.
inline constexpr uint64_t kChunkWideWorkgroupInvocations = uint64_t{1} << 14;
// Tens of thousands of invocations in flight hide memory latency.
inline constexpr uint64_t kChunkTargetInvocations = uint64_t{1} << 16;
// Below this many elements a problem is latency-bound: one pass beats three dispatches.
inline constexpr uint64_t kChunkSmallProblem = uint64_t{1} << 14;
// Bounded wait: Vulkan does not promise that an earlier workgroup makes progress.
inline constexpr uint32_t kLookbackPolls = 256;
// Coalesced: neighbouring invocations access neighbouring vectors, as GPUs' memory wants.
inline constexpr bool kRowsStagedNodes = true;
// A line's tiles in a row, as measured on the H200; across lines first is unmeasured on a GPU.
inline constexpr bool kRowsLinesFastest = false;
// Lines off vectors in one pass from a rows tile's worth a workgroup (16 lines x 256).
inline constexpr uint64_t kColumnsScalarLines = 16;
// Short strided lines in one pass: 1.0 of the tensor's bytes moved where the chunk walks move 1.6.
inline constexpr bool kColumnsOneTile = true;
// Columns tiles of 16 lanes: unmeasured on a GPU against 128 and 64 (the check's A/B).
inline constexpr uint32_t kColumnsWorkgroupSize = 256;

}  // namespace vkscan::detail::gpu_tuning
