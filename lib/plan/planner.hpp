// What both planners share: dispatches made from a piece, the grid within
// the device's limits, scratch, the alignment tests that allow vector
// accesses, and a chunk walk's passes once a planner has chosen its shape.
// No cost model here: the choices are the planners' (gpu.cpp, cpu.cpp).
#pragma once

#include <cstdint>

#include "plan/common.hpp"
#include "problem.hpp"
#include "tuning/tuning.hpp"

namespace vkscan::detail {

inline constexpr uint64_t kNode = 16;  // canonical order's radix (kernels/common.glsl NODE)
inline constexpr uint64_t kScratchAlignment = 16;
// Chunks are nodes of level 1 to 4 (kernels/chunk.glsl), and lines walked
// whole in a plain walk up to level 5: its 65536 nodes are 32768 loop
// iterations of two. A realigned walk takes one node per iteration and an
// interleaved one loops over each node's rows, so their whole lines stay
// within level 4, under lavapipe's cap of 65,535.
inline constexpr uint32_t kMaxChunkLevels = 4;
inline constexpr uint32_t kMaxPlainWholeLineLevels = 5;

inline uint64_t ceilDiv(uint64_t a, uint64_t b) {
  return (a + b - 1) / b;
}
inline uint64_t alignUp(uint64_t a, uint64_t b) {
  return ceilDiv(a, b) * b;
}

// The level of the smallest node that holds `length` elements (at least 1).
uint32_t levelsFor(uint64_t length);

// The chunk level of a walk in chunks: 3, lowered (to 1 at least) while the
// chunks of `axisLen` give fewer than `target` invocations in all.
uint32_t chunkLevelsFor(uint64_t invocationsPerChunk, uint64_t axisLen, uint64_t target);

// Elements per vector access (16 bytes, or 8 for FLOAT16 and BFLOAT16).
int64_t vectorElements(DataType type);

// Elements per wide unit of the chunk kernels (32 bytes).
int64_t wideElements(DataType type);

// Lines one interleaved invocation carries (kernels/chunk.glsl LANE_N) when
// the innermost line dimension has `innerLines`: four vectors' worth where
// they divide it, else one vector's.
uint64_t interleavedLines(DataType type, uint64_t innerLines);

// Vector accesses along the axis: a node's elements are contiguous and
// every node starts on a vector boundary.
bool axisVectorizable(const Problem& p, uint64_t inOffset, uint64_t outOffset);

// The axis is contiguous in both tensors and every node starts on a
// multiple of `vector` elements.
bool axisAligned(const Problem& p, uint64_t inOffset, uint64_t outOffset, int64_t vector);

// Vector accesses across lines: the innermost line dimension is contiguous
// in both tensors, so one vector holds the same element of adjacent lines.
bool linesInterleavable(const Problem& p, uint64_t inOffset, uint64_t outOffset);

// The carries of a multi-chunk scan are the exclusive canonical scan of the
// chunk totals, which are themselves values of the tree one level up: so
// the carry pass is the same problem again, on the totals, in place.
Problem carryProblem(const Problem& p, uint64_t chunks, int64_t axisStride, LineDim lines);

// Where a piece reads and writes (roles and byte offsets into them), and
// where its scratch may start.
struct Bindings {
  BufferRole in = BufferRole::Input;
  uint64_t inOffset = 0;
  BufferRole out = BufferRole::Output;
  uint64_t outOffset = 0;
  uint64_t scratchBase = 0;
};

// A chunk walk as a planner chose it: an invocation walks `lanes` lines
// (1, or a lane group of an interleaved walk) a chunk, a node of `levels`, at a time.
struct ChunkWalk {
  bool interleaved = false;
  // Interleaved lanes built from scalar accesses (PipelineKey::scalarLanes).
  bool scalarLanes = false;
  // Plain walks and the look-back pass: whole nodes shifted into place.
  bool realigned = false;
  uint64_t lanes = 1;
  uint32_t levels = 1;
  uint32_t workgroupSize = 0;
  bool touchAhead = false;
  bool nodeBarrier = false;
};

// Each line's carry-in and total in scratch, one accumulator a line in the
// piece's line order (LineDim order, lineSize[0] fastest), which is the
// order of the chunk walks' aux values and of their carry problems' lines.
// Or, where Planner::carriesInKernel(), carryOffset is where the kernel's
// header goes (kLineCarriesHeaderBytes), and the kernel finds the tensors
// themselves.
struct LineCarries {
  bool carryIn = false;
  uint64_t carryOffset = 0;
  bool totals = false;
  uint64_t totalsOffset = 0;
};

class Planner {
 public:
  Planner(const PlanLimits& limits, const Tuning& tuning, Plan& plan)
      : limits_(limits), tuning_(tuning), plan_(plan) {}
  virtual ~Planner() = default;

  // Plans one piece: at most three line dimensions and a line count that fits
  // the kernels' 32-bit line index.
  virtual void planPiece(const Problem& p, const Bindings& b) = 0;

  // Plans a piece with a carry-in or totals (Problem::carryIn, totals). Where
  // carriesInKernel(), one scan whose kernel reads and writes them in place
  // (Dispatch::writesLineCarries). Otherwise the carries copied into scratch
  // in line order, a chunk walk that takes them at its root (walkCarried()),
  // the totals copied out; the copies are scans of one element in UINT32 or
  // UINT64, so the bits move unchanged.
  void planCarried(const Problem& p);

 protected:
  // Whether the piece's scan reads its carry-ins and writes its totals
  // itself (the GPU's rows and columns kernels); the scan is then
  // scanCarried() with the header's place in LineCarries::carryOffset.
  virtual bool carriesInKernel(const Problem& p) const;
  // Scratch the carried scan keeps before the carries: 0 where its own
  // scratch follows them (chunk walks), its look-back's words where its
  // kernels find the carries after those (the GPU's one-pass kernels).
  virtual uint64_t scratchBeforeCarries(const Problem& p) const;
  // The carried scan between the two copies; its own scratch may start at
  // `scratchBase`, after the carries.
  virtual void scanCarried(const Problem& p, const LineCarries& carries, uint64_t scratchBase);

  Dispatch makeDispatch(Stage stage, const Problem& p, BufferRole in, uint64_t inOffset,
                        BufferRole out, uint64_t outOffset) const;
  // Appends `planned` in `groups` workgroups, on a grid within the limits.
  void emit(const Dispatch& planned, uint64_t groups);
  // Scratch reaches at least `end` bytes.
  void reserveScratch(uint64_t end);

  void setWideVectors(Dispatch& d, const Problem& p, uint64_t inOffset, uint64_t outOffset,
                      bool interleaved) const;

  // The tuned workgroup size: wide for many invocations; with `spread`, for
  // few a subgroup's worth, so that they still spread over the device.
  uint32_t chunkWorkgroup(uint64_t invocations, bool spread) const;
  uint32_t subgroupWorkgroup() const;

  // Emits the walk's scan, or, where a line holds several chunks, its reduce
  // pass, the carries (planned as a piece of their own) and the scan. With
  // `carries`: whole lines take the carry-in as their chunk's carry, and a
  // reduce of the line gives its total; lines of several chunks hand both to
  // their carry problem, whose root and total are the line's.
  void walkChunks(const Problem& p, const Bindings& b, const ChunkWalk& walk,
                  const LineCarries* carries = nullptr);

  // The chunk walk of a piece with carries, whatever the layout: the chunk
  // kernels are the ones that take a carry at a line's root.
  void walkCarried(const Problem& p, const Bindings& b, const LineCarries& carries);

  const PlanLimits& limits_;
  const Tuning& tuning_;
  Plan& plan_;
};

// axisVectorizable() leaves in and out strides equal, +1 or -1.
void setVectorLoads(Dispatch& d, bool vector);

// Chunk stages compile in the paths for partial and full nodes only where
// the dispatch's axis has such nodes.
void setNodePaths(Dispatch& d);

void setAux(Dispatch& d, uint64_t auxOffset);

// The chunk stage's realigned build (PipelineKey::reverse gives its direction).
void setRealign(Dispatch& d, const Problem& p);

// The planners of each device class: each plans one piece into `plan`.
void planGpuPiece(const Problem& piece, const PlanLimits& limits, const Tuning& tuning, Plan& plan);
void planCpuPiece(const Problem& piece, const PlanLimits& limits, const Tuning& tuning, Plan& plan);
// The records pass of a piece of a scan with indices (Problem::indexScan).
void planRecordsPiece(const Problem& piece, const PlanLimits& limits, const Tuning& tuning,
                      Plan& plan);
// The widening copy of a piece (Problem::widenedFrom), on any device.
void planWidenPiece(const Problem& piece, const PlanLimits& limits, const Tuning& tuning,
                    Plan& plan);

}  // namespace vkscan::detail
