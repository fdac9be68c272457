// The planners' speed knobs, chosen per device class from the tables in
// gpu.hpp and cpu.hpp. They change speed only: every choice computes the same
// canonical order, and the tests run the suite under each. Why each value is
// what it is, with the measurements behind it: docs/tuning.md.
#pragma once

#include <cstdint>
#include <tuple>

#include "device/cpu_threads.hpp"

namespace vkscan::detail {

// Which planner a device gets (lib/plan/gpu.cpp, lib/plan/cpu.cpp): a CPU
// implementation of Vulkan (VK_PHYSICAL_DEVICE_TYPE_CPU) runs invocations as
// host threads, and pays for memory access and workgroups as a CPU does.
enum class DeviceClass : uint8_t { Gpu, Cpu };

struct Tuning {
  DeviceClass deviceClass;

  // Both planners' chunk walks.
  uint32_t chunkWorkgroupSize;
  // Chunk dispatches of at least this many invocations run in workgroups of
  // chunkWideWorkgroupSize.
  uint64_t chunkWideWorkgroupInvocations;
  uint32_t chunkWideWorkgroupSize;
  // Chunks shrink (16^3 -> 16^2 -> 16) until a pass has this many invocations.
  uint64_t chunkTargetInvocations;
  // Lines are walked whole (one invocation each, one pass) from this many.
  uint64_t wholeLineInvocations;
  // Below this many elements a problem is latency-bound: one pass, however few invocations.
  uint64_t chunkSmallProblem;
  // Look-back: status reads spent on a silent earlier tile before reducing it.
  uint32_t lookbackPolls;
  // GPU planner, tests only: the one-pass kernels' first look-back takes
  // every published value for silent, as a look whose reads all came first
  // may, so that it reduces tiles from memory (in place, after they
  // overwrote their inputs). Never set by tuningFor().
  bool lookbackMissesPublished;
  // GPU planner, tests only: the one-pass kernels' look-back finds the levels
  // below this one only (0: every level), and the tile then leaves unstored,
  // as one still waiting there would be: what it has published by then is
  // what later tiles can read without waiting for it. Never set by tuningFor().
  uint32_t lookbackStopLevel;

  // GPU planner: rows kernels' workgroup (256, a 4096-element tile, or 16).
  uint32_t rowsWorkgroupSize;
  // GPU planner: rows kernels move whole tiles through shared memory, where
  // it holds one (PipelineKey::stagedNodes).
  bool rowsStagedNodes;
  // GPU planner, tests only: staged nodes move in segments of this many
  // invocations (a power of two; 0: a subgroup's), so that lavapipe's
  // subgroups run the segments of subgroups of 32 to 128. Never set by
  // tuningFor().
  uint32_t rowsStagedSegment;
  // GPU planner: the rows one pass hands out its tiles across lines first
  // (tile 0 of every line, then tile 1, ...), so that a tile's earlier
  // siblings started a line count of workgroups before it, not just before.
  bool rowsLinesFastest;
  // GPU planner: the columns one pass takes lines off vectors (lanes built
  // element by element) from this many lines; fewer keep the chunk walks.
  uint64_t columnsScalarLines;
  // GPU planner: strided lines of one columns tile (17 to 256 elements),
  // which the chunk walks would take in three passes, take the columns one
  // pass, with more lanes a workgroup and no look-back.
  bool columnsOneTile;
  // GPU planner: the columns one pass's workgroup (256, 128 or 64), a
  // sixteenth of it lanes of lines per tile.
  uint32_t columnsWorkgroupSize;

  // CPU-device planner; zero or false in a GPU's tuning.
  // Interleaved lines, and lines that would take the look-back pass, are
  // walked whole from this many fewer than wholeLineInvocations.
  uint64_t wholeLineShortfall;
  // One pass with look-back for problems up to this many elements (0: never).
  uint64_t chunkLookbackMaxElements;
  // Worker threads the device hands blocks of workgroups to (0: unknown).
  uint32_t cpuWorkers;
  // Axis strides of at least this many bytes touch the next node ahead (0: never).
  uint64_t chunkTouchAheadStrideBytes;
  // Whole groups of four vectors' lines walk apart from the lines left over.
  bool chunkLaneGroups;
  // Contiguous axes off vectors move whole nodes, shifted into place.
  bool chunkRealign;
  // Storage-buffer dispatches read the input through its texel view, where given.
  bool texelInput;
  // Whole interleaved lines far apart run a workgroup per worker, a barrier per node.
  bool chunkNodeBarriers;
  // Chunk scans (Stage::ChunkScan, ChunkScanInterleaved) compile exclusivity
  // in, where other scans read it from the dispatch's flags and share one
  // pipeline for both modes.
  bool chunkExclusivityCompiled;
};

// Every field (a new one must join the comparison).
inline bool operator==(const Tuning& a, const Tuning& b) noexcept {
  auto tied = [](const Tuning& t) {
    return std::tie(t.deviceClass, t.chunkWorkgroupSize, t.chunkWideWorkgroupInvocations,
                    t.chunkWideWorkgroupSize, t.chunkTargetInvocations, t.wholeLineInvocations,
                    t.chunkSmallProblem, t.lookbackPolls, t.lookbackMissesPublished,
                    t.lookbackStopLevel, t.rowsWorkgroupSize, t.rowsStagedNodes,
                    t.rowsStagedSegment, t.rowsLinesFastest, t.columnsScalarLines, t.columnsOneTile,
                    t.columnsWorkgroupSize, t.wholeLineShortfall, t.chunkLookbackMaxElements,
                    t.cpuWorkers, t.chunkTouchAheadStrideBytes, t.chunkLaneGroups, t.chunkRealign,
                    t.texelInput, t.chunkNodeBarriers, t.chunkExclusivityCompiled);
  };
  return tied(a) == tied(b);
}
inline bool operator!=(const Tuning& a, const Tuning& b) noexcept {
  return !(a == b);
}

// The table of `deviceClass`, fitted to the device: its subgroup size, its
// largest workgroup, and (CPU devices) the threads it runs workgroups on
// (zeros: unknown; a GPU's tuning ignores them).
Tuning tuningFor(DeviceClass deviceClass, uint32_t subgroupSize, uint32_t maxWorkgroupInvocations,
                 CpuThreads cpuThreads);

}  // namespace vkscan::detail
