// The CPU-device table (lavapipe and other CPU implementations of Vulkan):
// one value a line, with its reason. tuningFor() fits it to the device and
// its worker threads (lib/tuning/tuning.cpp); docs/tuning.md gives the
// measurements behind each value.
#pragma once

#include <cstdint>

namespace vkscan::detail::cpu_tuning {

// Chunk walks: a few SIMD rows of a core per workgroup.
inline constexpr uint32_t kChunkWorkgroupSize = 32;
// Dispatches of this many invocations and more run in wide workgroups: llvmpipe pays per workgroup.
inline constexpr uint64_t kChunkWideWorkgroupInvocations = uint64_t{1} << 14;
// ... of 256 invocations, not more, so that long strided walks still spread over every worker.
inline constexpr uint32_t kChunkWideWorkgroupSize = 256;
// A few invocations per SIMD lane of each core keep it busy.
inline constexpr uint64_t kChunkTargetInvocations = 256;
// Below this many elements a problem is latency-bound: one pass beats three dispatches.
inline constexpr uint64_t kChunkSmallProblem = uint64_t{1} << 14;
// One pass with look-back up to 2^24 elements: a dispatch costs about as much as 2^15 elements.
inline constexpr uint64_t kChunkLookbackMaxElements = uint64_t{1} << 24;
// Bounded wait: Vulkan does not promise that an earlier workgroup makes progress.
inline constexpr uint32_t kLookbackPolls = 256;
// Rows 2 KiB apart and more: start the cache misses a node early, past the prefetchers' reach.
inline constexpr uint64_t kChunkTouchAheadStrideBytes = 2048;
// Lanes of 64 bytes a row where lines leave partial groups (one access each, not 4 or 16 bytes).
inline constexpr bool kChunkLaneGroups = true;
// Nodes off vectors move as whole units, where each element was an access of its own.
inline constexpr bool kChunkRealign = true;
// llvmpipe gathers texel fetches across lanes; it loads storage buffers a lane at a time.
inline constexpr bool kTexelInput = true;
// A worker walks each node's rows across its whole workgroup before the next node.
inline constexpr bool kChunkNodeBarriers = true;
// Chunk scans are ALU-bound on llvmpipe, where a select per element shows.
inline constexpr bool kChunkExclusivityCompiled = true;

}  // namespace vkscan::detail::cpu_tuning
