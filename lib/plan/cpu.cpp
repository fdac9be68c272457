// The CPU-device planner (lavapipe and other CPU implementations of Vulkan),
// where invocations run as host threads, a SIMD lane each, and llvmpipe
// hands each worker thread a block of workgroups in order. Everything takes
// chunk walks: an invocation walks a whole subtree, since a shared-memory
// tree and its barriers cost more than the scan. It reads each line once
// where it can (whole lines, one pass with look-back), moves 32-byte units
// (lane groups, realigned nodes), and keeps every worker busy.
// Look-back: Merrill & Garland, "Single-pass Parallel Prefix Scan with
// Decoupled Look-back", 2016.
#include <algorithm>
#include <cstdlib>

#include "plan/planner.hpp"

namespace vkscan::detail {
namespace {

// Look-back tiles: level-3 nodes, one per invocation (kernels/chunk_lookback.comp).
constexpr uint32_t kLookbackTileLevels = 3;
constexpr uint64_t kLookbackTile = uint64_t{1} << (4 * kLookbackTileLevels);
constexpr uint64_t kLookbackMaxTiles = 16;
// Groups of four vectors' lines on vectors walk apart from the lines left
// over only where those are at most 1/kLaneGroupRestShare of the inner
// extent (planLaneGroups(); docs/tuning.md).
constexpr uint64_t kLaneGroupRestShare = 16;

// Look-back scratch, all filled with kLookbackUnpublished
// (kernels/chunk_lookback.comp): per tile a total and an inclusive value,
// accumulators of `accumulatorBytes`, and a collision record of two words.
uint64_t lookbackScratchBytes(uint64_t tiles, uint64_t accumulatorBytes) {
  return tiles * (2 * accumulatorBytes + 8);
}

class CpuPlanner final : public Planner {
 public:
  using Planner::Planner;

  void planPiece(const Problem& p, const Bindings& b) override {
    bool interleaved = linesInterleavable(p, b.inOffset, b.outOffset);
    if (!interleaved && planSegments(p, b)) return;
    if (planLaneGroups(p, b)) return;
    planChunks(p, b, interleaved, false);
  }

 private:
  // Whether plain chunk walks and the look-back pass of the axis go
  // realigned: a contiguous axis off vectors, long enough for the realigned
  // walk, which needs three full nodes in a chunk (kernels/chunk.glsl), where
  // the walk is wanted.
  bool walksRealigned(const Problem& p, const Bindings& b) const {
    return tuning_.chunkRealign && p.inAxisStride == p.outAxisStride &&
           std::abs(p.inAxisStride) == 1 && p.axisLen >= 3 * kNode &&
           !axisVectorizable(p, b.inOffset, b.outOffset);
  }

  // Lines contiguous in the innermost dimension but not in whole groups of
  // four vectors' lines on vectors: the whole groups walk together first and
  // the lines left over after them (Tuning::chunkLaneGroups). Off vectors,
  // the groups' lanes are built from scalar accesses (PipelineKey::scalarLanes)
  // and the rest walk one per invocation. On vectors (an inner extent that is
  // a multiple of a vector but not of four), the rest walk in lanes of one
  // vector; that pays only where they are few (at most 1/kLaneGroupRestShare
  // of them), since their dispatch runs far below the groups' speed, and in
  // problems large enough to repay a second dispatch. Returns false,
  // planning nothing, where the lines keep a single walk.
  bool planLaneGroups(const Problem& p, const Bindings& b) {
    if (!tuning_.chunkLaneGroups || p.lines.empty()) return false;
    const LineDim& inner = p.lines[0];
    uint64_t lanes = 4 * static_cast<uint64_t>(vectorElements(p.type));
    if (inner.inStride != 1 || inner.outStride != 1 || inner.size < lanes) return false;
    Problem groups = p;
    groups.lines[0].size = inner.size / lanes * lanes;
    uint64_t rest = inner.size - groups.lines[0].size;
    bool onVectors = linesInterleavable(groups, b.inOffset, b.outOffset);
    bool small = p.lineCount() * p.axisLen < tuning_.chunkSmallProblem;
    if (onVectors && (rest == 0 || rest * kLaneGroupRestShare > inner.size || small)) return false;
    planChunks(groups, b, true, !onVectors);
    if (rest == 0) return true;
    Problem left = p;
    left.lines[0].size = rest;
    left.inBase += static_cast<int64_t>(groups.lines[0].size);
    left.outBase += static_cast<int64_t>(groups.lines[0].size);
    planPiece(left, b);
    return true;
  }

  // `interleaved`: lines in groups of lanes (vectors of adjacent lines);
  // `scalarLanes`: lanes built from scalar accesses (an inner extent of
  // whole groups of four vectors' lines). Lines of up to 16 tiles take one
  // pass, with look-back where they hold several; lines are walked whole
  // where that keeps every worker busy (one pass, read once); otherwise the
  // largest chunk (up to a level-3 node) that still does.
  void planChunks(const Problem& p, const Bindings& b, bool interleaved, bool scalarLanes) {
    ChunkWalk walk;
    walk.interleaved = interleaved;
    walk.scalarLanes = scalarLanes;
    walk.lanes = interleaved ? interleavedLines(p.type, p.lines[0].size) : 1;
    uint64_t invocationsPerChunk = p.lineCount() / walk.lanes;
    uint64_t tiles = ceilDiv(p.axisLen, kLookbackTile);
    walk.realigned = !interleaved && walksRealigned(p, b);
    bool onePass = !interleaved && tiles <= kLookbackMaxTiles &&
                   p.lineCount() * p.axisLen <= tuning_.chunkLookbackMaxElements;
    uint64_t wholeFrom =
        interleaved || onePass ? wholeLineInvocationsWithIdleLanes() : tuning_.wholeLineInvocations;
    uint32_t wholeLevels =
        interleaved || walk.realigned ? kMaxChunkLevels : kMaxPlainWholeLineLevels;
    bool wholeLines =
        invocationsPerChunk >= wholeFrom && p.axisLen <= (uint64_t{1} << (4 * wholeLevels));
    if (onePass && tiles > 1 && !wholeLines) {
      planLookback(p, b, tiles);
      return;
    }
    bool small = invocationsPerChunk * p.axisLen <= tuning_.chunkSmallProblem;
    if (wholeLines || (p.axisLen <= (uint64_t{1} << 12) && (onePass || small))) {
      walk.levels = levelsFor(p.axisLen);
    } else {
      // A realigned walk takes the first and last full node of its chunk an
      // element at a time (2 of the 16 nodes of a level-2 chunk, 2 of 256 of
      // a level-3 one): it keeps level-3 chunks while they busy every worker.
      uint64_t target = walk.realigned ? std::min(tuning_.chunkTargetInvocations, busyInvocations())
                                       : tuning_.chunkTargetInvocations;
      walk.levels = chunkLevelsFor(invocationsPerChunk, p.axisLen, target);
    }
    uint64_t chunks = ceilDiv(p.axisLen, uint64_t{1} << (4 * walk.levels));
    uint64_t invocations = invocationsPerChunk * chunks;
    // Few contiguous lines walked whole (few long rows) spread over the
    // workers as one-pass look-back tiles do; interleaved ones only where
    // workgroups of the usual size would leave a worker idle.
    bool spread = onePass || (wholeLines && (!interleaved || leavesWorkersIdle(invocations)));
    walk.workgroupSize = chunkWorkgroup(invocations, spread);
    walk.touchAhead = interleaved && touchesAhead(p);
    uint32_t barrierWorkgroup =
        interleaved && wholeLines && !spread && tuning_.chunkNodeBarriers && touchesAhead(p)
            ? workerWorkgroup(invocations)
            : 0;
    walk.nodeBarrier = barrierWorkgroup != 0;
    if (walk.nodeBarrier) walk.workgroupSize = barrierWorkgroup;
    walkChunks(p, b, walk);
  }

  // Lines of at most a node, back to back in both tensors: one flat line,
  // walked a few whole lines per invocation (kernels/chunk.glsl
  // scanSegments()). Returns false, planning nothing, for other shapes.
  bool planSegments(const Problem& p, const Bindings& b) {
    if (p.axisLen > kNode || p.lines.size() != 1 || p.inAxisStride != p.outAxisStride) return false;
    const LineDim& lines = p.lines[0];
    int64_t length = static_cast<int64_t>(p.axisLen);
    if (std::abs(p.inAxisStride) != 1 || lines.inStride != length || lines.outStride != length) {
      return false;
    }
    Problem flat = p;
    flat.lines.clear();
    flat.axisLen = lines.size * p.axisLen;
    if (flat.axisLen > UINT32_MAX) return false;
    // Traversal runs down through memory on a decreasing axis, from the last line.
    int64_t last = p.inAxisStride < 0 ? static_cast<int64_t>(lines.size - 1) * length : 0;
    flat.inBase += last;
    flat.outBase += last;
    if (!axisVectorizable(flat, b.inOffset, b.outOffset)) return false;
    Dispatch d = makeDispatch(Stage::ChunkScan, flat, b.in, b.inOffset, b.out, b.outOffset);
    uint32_t length32 = static_cast<uint32_t>(p.axisLen);
    uint64_t invocations = ceilDiv(flat.axisLen, segmentNodes(length32) * kNode);
    d.pipeline.workgroupSize = chunkWorkgroup(invocations, true);
    d.pipeline.segmentLength = length32;
    setVectorLoads(d, true);
    setWideVectors(d, flat, b.inOffset, b.outOffset, false);
    setNodePaths(d);
    d.params.shape = 1;
    emit(d, ceilDiv(invocations, d.pipeline.workgroupSize));
    return true;
  }

  // Lines of at most 16 tiles, so that a tile's carry is the serial sum of
  // the earlier tiles' totals (the line's root node has the identity carry).
  // Lines off vectors walk realigned, as in three passes.
  void planLookback(const Problem& p, const Bindings& b, uint64_t tiles) {
    uint64_t slots = p.lineCount() * tiles;
    uint64_t valueBytes = lookbackScratchBytes(slots, dataTypeSize(accumulationType(p.type)));
    reserveScratch(b.scratchBase + alignUp(valueBytes, kScratchAlignment));
    Dispatch d = makeDispatch(Stage::ChunkLookback, p, b.in, b.inOffset, b.out, b.outOffset);
    // A subgroup per workgroup: llvmpipe (Mesa 22.3) runs the in-place
    // pipeline's memoryBarrierBuffer() as a workgroup execution barrier, and
    // in a workgroup of several subgroups, which reach different numbers of
    // them (the look-back is data-dependent), later subgroups stopped
    // without writing their outputs.
    uint32_t workgroup = subgroupWorkgroup();
    d.pipeline.workgroupSize = workgroup;
    setVectorLoads(d, axisVectorizable(p, b.inOffset, b.outOffset));
    if (walksRealigned(p, b)) setRealign(d, p);
    setWideVectors(d, p, b.inOffset, b.outOffset, false);
    setNodePaths(d);
    d.params.shape = kLookbackTileLevels;
    d.params.chunksPerLine = static_cast<uint32_t>(tiles);
    d.params.lookbackBlock = lookbackBlock(slots, workgroup);
    setAux(d, b.scratchBase);
    d.pipeline.lookbackPolls = tuning_.lookbackPolls;
    d.clearByteOffset = b.scratchBase;
    d.clearBytes = valueBytes;
    d.clearWord = kLookbackUnpublished;
    emit(d, ceilDiv(slots, workgroup));
  }

  bool touchesAhead(const Problem& p) const {
    uint64_t threshold = tuning_.chunkTouchAheadStrideBytes;
    uint64_t stride =
        static_cast<uint64_t>(std::max(std::abs(p.inAxisStride), std::abs(p.outAxisStride)));
    return threshold != 0 && stride * dataTypeSize(p.type) >= threshold;
  }

  // Workgroups for node barriers (Tuning::chunkNodeBarriers): the widest, up
  // to chunkWideWorkgroupSize, that come in a multiple of the workers, each a
  // block of adjacent columns, and hold whole subgroups with no invocation
  // idle (a barrier needs every invocation to meet it in the same control
  // flow). 0 where none does, or the workers are unknown.
  // createOperator() plans on every call, so the search runs over the
  // sizes (at most chunkWideWorkgroupSize / subgroup of them), not over
  // group counts, which grow with the tensor.
  uint32_t workerWorkgroup(uint64_t invocations) const {
    uint64_t workers = tuning_.cpuWorkers;
    uint64_t subgroup = std::max<uint64_t>(limits_.subgroupSize, 1);
    if (workers == 0) return 0;
    uint64_t widest = tuning_.chunkWideWorkgroupSize - tuning_.chunkWideWorkgroupSize % subgroup;
    for (uint64_t size = widest; size >= subgroup; size -= subgroup) {
      if (invocations % size == 0 && (invocations / size) % workers == 0) {
        return static_cast<uint32_t>(size);
      }
    }
    return 0;
  }

  // Whether workgroups of the usual size would be fewer than the workers.
  bool leavesWorkersIdle(uint64_t invocations) const {
    return ceilDiv(invocations, tuning_.chunkWorkgroupSize) < tuning_.cpuWorkers;
  }

  // Invocations that keep the workers busy with walks that pay for a head
  // and a tail in each chunk (realigned walks): two subgroups per worker
  // thread, twice Tuning::wholeLineInvocations; where the threads are
  // unknown, chunkTargetInvocations as for those. Saturated, so that a
  // wholeLineInvocations of UINT64_MAX (the tests' way to walk no line
  // whole) stays that.
  uint64_t busyInvocations() const {
    uint64_t whole = tuning_.wholeLineInvocations;
    uint64_t twice = whole > UINT64_MAX / 2 ? UINT64_MAX : 2 * whole;
    return std::min(twice, std::max(whole, tuning_.chunkTargetInvocations));
  }

  // Interleaved lines, and contiguous ones that would otherwise take the
  // look-back pass, are walked whole from this many
  // (Tuning::wholeLineShortfall).
  uint64_t wholeLineInvocationsWithIdleLanes() const {
    uint64_t whole = tuning_.wholeLineInvocations;
    return whole - std::min(whole, tuning_.wholeLineShortfall);
  }

  // Tiles in each block of workgroups that a worker takes
  // (Tuning::cpuWorkers), for the look-back pass to walk lines last first
  // within it (kernels/chunk_lookback.comp lineAndTile()); 0 where no blocks
  // are predicted, or blocks of one workgroup, which run side by side.
  uint32_t lookbackBlock(uint64_t slots, uint32_t workgroup) const {
    uint64_t workers = tuning_.cpuWorkers;
    if (workers < 2) return 0;
    uint64_t block = ceilDiv(slots, workgroup) / workers;
    return block < 2 ? 0 : static_cast<uint32_t>(block * workgroup);
  }
};

}  // namespace

void planCpuPiece(const Problem& piece, const PlanLimits& limits, const Tuning& tuning,
                  Plan& plan) {
  CpuPlanner planner(limits, tuning, plan);
  if (piece.carryIn || piece.totals) {
    planner.planCarried(piece);
  } else {
    planner.planPiece(piece, Bindings{});
  }
}

}  // namespace vkscan::detail
