// Tuning constants, as data keyed by what they depend on. They change speed
// only: every choice here computes the same canonical order, and the tests
// run the suite under each.
#pragma once

#include <algorithm>
#include <cstdint>
#include <tuple>

#include "device/cpu_threads.hpp"

namespace vkscan::detail {

struct Tuning {
  // Contiguous axes on GPUs: the rows kernels (a node per invocation, a
  // workgroup-wide tree in shared memory, coalesced loads). On devices that
  // run invocations as CPU threads the shared-memory tree and its barriers
  // cost more than the scan, so everything goes to the chunk kernels (an
  // invocation walks a whole subtree).
  bool rowsForContiguousAxes;
  // Rows kernels: 256 invocations (a 4096-element tile) where the device
  // allows it, else 16 (a 256-element tile). Both are whole subtrees of the
  // canonical order, which is why nothing in between is offered.
  uint32_t rowsWorkgroupSize;
  uint32_t chunkWorkgroupSize;
  // Chunk dispatches of at least this many invocations run in workgroups of
  // chunkWideWorkgroupSize: llvmpipe pays per workgroup, which shows where
  // each invocation has little to do. Measured on lavapipe, [2^20, 16] along
  // axis 1: 8.4-8.7 GB/s in workgroups of 32, 9.1-9.3 in workgroups of 256.
  // Not below it: the few invocations of long strided walks must spread over
  // every worker ([64, 65536, 4] along axis 1 fell from 0.5 of the copy roof
  // to 0.33-0.44 in workgroups of 64 or 128).
  uint64_t chunkWideWorkgroupInvocations;
  uint32_t chunkWideWorkgroupSize;
  // Chunk kernels (past the look-back pass's reach) shrink chunks
  // (16^3 -> 16^2 -> 16) until a pass has at least this many invocations,
  // at the price of a reduce and a carry pass.
  uint64_t chunkTargetInvocations;
  // ... but walk lines of up to 16^4 elements whole (16^5 in plain walks; an
  // invocation each, one pass, no scratch) from this many invocations on: a
  // line walked whole is read once, where chunks and the look-back pass read it
  // twice (reduce, then scan), and chunks add two dispatches. On a CPU device
  // one subgroup per worker thread keeps every core busy on contiguous lines
  // (per CPU where workers outnumber the CPUs they share: CpuThreads::busy),
  // and fewer where a pass that reads lines twice costs more
  // (wholeLineShortfall). Measured on lavapipe, 2 cores, 32 against 256:
  // [64, 65536, 4] along axis 1 went from 0.69 of the copy roof to 1.0-1.07,
  // [4096, 1024] along axis 0 from 0.28-0.31 to 0.48-0.51, and [64, 50257]
  // along axis 1 (the look-back pass before) from 0.58-0.60 to 0.80-0.83. 16
  // against 32 (AMD EPYC), FLOAT32 along axis 1, contiguous lines that took the
  // look-back pass: [31, 4097] 0.49-0.50 to 0.88-0.94, [16, 8192] 0.56-0.57 to
  // 0.89-0.93, [16, 65536] 0.54-0.56 to 0.85-0.86, [16, 50256] 0.57-0.58 to
  // 0.76-0.77, [20, 20001] 0.49-0.51 to 0.73.
  uint64_t wholeLineInvocations;
  // Interleaved lines, and contiguous lines that would otherwise take the
  // look-back pass, are walked whole from this many fewer than
  // wholeLineInvocations: subgroupSize - 1 where several threads are busy, so
  // that the last busy thread may get a subgroup with idle lanes rather than a
  // pass that reads every line twice and pays for more than its reads (the
  // look-back, or two dispatches of interleaved chunks); 0 on a single thread
  // (the other passes fill its lanes with chunks) and on GPUs. Measured on
  // lavapipe (AMD EPYC, 2 cores; walks in workgroups of 8), ratio to the copy
  // roof. FLOAT32 along axis 1 against the look-back pass, medians of five
  // rounds: [9, 65536] 0.67 against 0.56, [12, 65536] 0.74 against 0.59,
  // [15, 65536] 0.84 against 0.56, [12, 50257] 0.68 against 0.50, [9, 50257]
  // 0.59 against 0.50. Along axis 0 against three passes (groups of 16 columns;
  // two rounds): [8192, 256] 0.78-0.83 against 0.41-0.46, [65536, 256]
  // 0.63-0.71 against 0.35-0.39, [65536, 192] 0.66-0.69 against 0.45-0.49,
  // [16384, 160] 0.64 against 0.45-0.49, [65536, 320] 0.51-0.52 against
  // 0.33-0.37, [32768, 448] 0.49-0.50 against 0.39-0.45; UINT64 [32768, 128]
  // 0.77-0.85 against 0.45-0.47, FLOAT16 [65536, 320] 0.36 against 0.28-0.29,
  // lines off vectors [65536, 255] 0.48-0.50 against 0.35. Longer contiguous
  // lines keep three passes, which ran as fast or faster: [9, 2^20] 0.54-0.56
  // against 0.43-0.44 walked whole, [12, 2^20] 0.55-0.57 against 0.54-0.62.
  uint64_t wholeLineShortfall;
  // Below this many elements a problem is latency-bound: one pass, however
  // few invocations it gives, beats three dispatches.
  uint64_t chunkSmallProblem;
  // Chunk kernels: problems of at most this many elements whose lines hold
  // at most 16 tiles (65536 elements) and are not interleaved take one
  // pass, with decoupled look-back where lines hold more than one tile (4096
  // elements), instead of three (reduce, carries, scan): on a CPU device a
  // dispatch and its barrier cost about as much as scanning 2^15 elements,
  // and a tile read twice in a row comes from cache the second time.
  // Measured on lavapipe against three passes: 0.60 against 0.47-0.59 of
  // the copy roof at 2^16 elements, 0.72 against 0.62 at [16, 65536], even
  // at [256, 65536] (2^24). 0 on GPUs, whose contiguous axes go to the rows
  // kernels.
  uint64_t chunkLookbackMaxElements;
  // Status reads a looking invocation spends on a tile that has published
  // nothing before it reduces that tile itself. Vulkan does not promise the
  // tile's workgroup progress meanwhile, so the wait must be bounded; a
  // short one saves the redundant reduction where workgroups do run
  // concurrently. Any value gives the same bits (0: the tests' way to run
  // the fallback).
  uint32_t lookbackPolls;
  // Worker threads of a CPU device (0: unknown, or a GPU). llvmpipe (Mesa
  // 22.3) gives each worker a block of floor(workgroups / workers) workgroups
  // in order. A line that crosses from one block into the next had the later
  // worker's first workgroup wait on the earlier worker's last, give up, and
  // reduce the tiles before it itself; so the look-back pass walks each
  // block's lines last first (ScanParams::lookbackBlock), which puts such a
  // line's head first in its block and its tail last in the next. A wrong
  // guess costs speed, never bits. Measured on lavapipe (2 cores), FLOAT32
  // along axis 1, ratio to the copy roof: [8, 50256] and [8, 53248] (13 tiles
  // a line, the blocks' boundary after 9 tiles of a line) 0.38-0.41 in the
  // look-back pass in line order, 0.49-0.53 in three passes, 0.55-0.60 in
  // the look-back pass with blocks walked last line first; lines whose tiles
  // fill the blocks ([8, 65536], [16, 12288]) 0.55-0.60 either way.
  uint32_t cpuWorkers;
  // Chunk walks whose axis stride is at least this many bytes (in either
  // tensor) read one word per row a node ahead (PipelineKey::touchAhead),
  // which starts a CPU's cache misses early where its prefetchers do not
  // follow the stride. 0: never (GPUs hide latency with other invocations).
  // Measured on lavapipe: [4096, 4096] along axis 0 went from 0.35-0.42 of
  // the copy roof to 0.45-0.52; rows 512 bytes apart lost about 10 %.
  uint64_t chunkTouchAheadStrideBytes;
  // Lines contiguous in the innermost dimension but not in whole groups of
  // four vectors' lines on vectors walk those groups together, and the lines
  // left over after them (Planner::planLaneGroups()). On a CPU device an
  // invocation then reads 64 bytes of a row where it read 4 (lines off
  // vectors: lanes built from scalar accesses, PipelineKey::scalarLanes) or
  // 16 (an inner extent a multiple of a vector but not of four); a GPU
  // coalesces narrow lanes across invocations, and keeps them.
  bool chunkLaneGroups;
  // Plain chunk walks and the look-back pass on a contiguous axis whose
  // nodes are off vectors (rows of odd length) move nodes as whole units,
  // shifted into place (Stage::ChunkScanRealigned and the others), where each
  // element was an access of its own. A GPU coalesces those accesses across
  // invocations. Measured on lavapipe (AMD EPYC, 2 cores), FLOAT32 along
  // axis 1, ratio to the copy roof: [4096, 4097] 0.45 to 0.88 (0.70 with
  // 32-bit stores, which stay one per element), [64, 50257] 0.50 to
  // 0.73-0.78; in the look-back pass, 50257 elements decreasing 0.33 to 0.50.
  bool chunkRealign;
  // Storage-buffer dispatches read the input's 32-byte units through its
  // uniform texel buffer view (BufferBinding::texelView) where the caller
  // gives one: llvmpipe gathers texel fetches across lanes, where it loads
  // storage buffers a lane and a component at a time (kernels/common.glsl
  // VKSCAN_TEXEL_INPUT). A GPU loads storage buffers at full speed.
  bool texelInput;
  // Interleaved lines walked whole (one chunk a line) whose rows lie far
  // apart (chunkTouchAheadStrideBytes) run one workgroup per worker, whose
  // subgroups meet at a barrier after every node (PipelineKey::nodeBarrier):
  // llvmpipe runs a workgroup's subgroups one after another on its worker
  // and switches between them at barriers, so each node's rows are read
  // across the whole workgroup's columns before the next, where each
  // subgroup otherwise walked its own columns down every row alone.
  // Measured on lavapipe (AMD EPYC, 2 cores), texel reads, FLOAT32
  // [4096, 4096] along axis 0, ratio to the copy roof: 0.25-0.35 in eight
  // workgroups of 32, 0.38-0.55 in two of 128 with node barriers. Rows close
  // together lost ([64, 65536, 4] along axis 1: 0.63 to 0.45). A GPU runs
  // its subgroups side by side anyway.
  bool chunkNodeBarriers;
};

// Every field (a new one must join the comparison).
inline bool operator==(const Tuning& a, const Tuning& b) noexcept {
  auto tied = [](const Tuning& t) {
    return std::tie(t.rowsForContiguousAxes, t.rowsWorkgroupSize, t.chunkWorkgroupSize,
                    t.chunkWideWorkgroupInvocations, t.chunkWideWorkgroupSize,
                    t.chunkTargetInvocations, t.wholeLineInvocations, t.wholeLineShortfall,
                    t.chunkSmallProblem, t.chunkLookbackMaxElements, t.lookbackPolls, t.cpuWorkers,
                    t.chunkTouchAheadStrideBytes, t.chunkLaneGroups, t.chunkRealign, t.texelInput,
                    t.chunkNodeBarriers);
  };
  return tied(a) == tied(b);
}
inline bool operator!=(const Tuning& a, const Tuning& b) noexcept {
  return !(a == b);
}

// `cpuLike`: the device is a CPU implementation (VK_PHYSICAL_DEVICE_TYPE_CPU);
// `cpuThreads`: the threads it runs workgroups on (zeros: unknown; GPUs
// ignore them).
inline Tuning tuningFor(bool cpuLike, uint32_t subgroupSize, uint32_t maxWorkgroupInvocations,
                        CpuThreads cpuThreads) {
  Tuning tuning{};
  tuning.rowsForContiguousAxes = !cpuLike;
  tuning.rowsWorkgroupSize = maxWorkgroupInvocations >= 256 ? 256 : 16;
  uint32_t chunk = cpuLike ? 32 : (subgroupSize >= 64 ? subgroupSize : 64);
  tuning.chunkWorkgroupSize = chunk <= maxWorkgroupInvocations ? chunk : maxWorkgroupInvocations;
  tuning.chunkWideWorkgroupInvocations = uint64_t{1} << 14;
  tuning.chunkWideWorkgroupSize =
      cpuLike ? std::min<uint32_t>(256, maxWorkgroupInvocations) : tuning.chunkWorkgroupSize;
  // A CPU device needs a few invocations per SIMD lane of each core; a GPU
  // needs tens of thousands in flight.
  tuning.chunkTargetInvocations = cpuLike ? 256 : (uint64_t{1} << 16);
  uint64_t subgroupPerThread = uint64_t{cpuThreads.busy} * std::max<uint32_t>(subgroupSize, 1);
  tuning.wholeLineInvocations = cpuLike && cpuThreads.busy != 0
                                    ? std::min(tuning.chunkTargetInvocations, subgroupPerThread)
                                    : tuning.chunkTargetInvocations;
  tuning.wholeLineShortfall =
      cpuLike && cpuThreads.busy >= 2 ? std::max<uint32_t>(subgroupSize, 1) - 1 : 0;
  tuning.chunkSmallProblem = uint64_t{1} << 14;
  tuning.chunkLookbackMaxElements = cpuLike ? uint64_t{1} << 24 : 0;
  tuning.lookbackPolls = 256;
  tuning.cpuWorkers = cpuLike ? cpuThreads.workers : 0;
  tuning.chunkTouchAheadStrideBytes = cpuLike ? 2048 : 0;
  tuning.chunkLaneGroups = cpuLike;
  tuning.chunkRealign = cpuLike;
  tuning.texelInput = cpuLike;
  tuning.chunkNodeBarriers = cpuLike;
  return tuning;
}

}  // namespace vkscan::detail
