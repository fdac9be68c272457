// The GPU planner. Contiguous axes take the rows kernels: a node per
// invocation, a workgroup-wide tree in shared memory, coalesced loads.
// Strided axes take chunk walks, an invocation a line (or a lane of adjacent
// lines) walking a subtree, with the carries as a problem of their own.
#include <cstdlib>

#include "plan/planner.hpp"

namespace vkscan::detail {
namespace {

uint32_t log2Exact(uint64_t value) {
  uint32_t log = 0;
  while ((uint64_t{1} << log) < value) ++log;
  return log;
}

class GpuPlanner final : public Planner {
 public:
  using Planner::Planner;

  void planPiece(const Problem& p, const Bindings& b) override {
    if (std::abs(p.inAxisStride) == 1) {
      planRows(p, b);
    } else {
      planChunks(p, b);
    }
  }

 private:
  // A tile (a workgroup's 16 nodes per invocation) per line where lines fit
  // one; otherwise a reduce pass, the carries and a scan pass over tiles.
  void planRows(const Problem& p, const Bindings& b) {
    uint32_t workgroup = tuning_.rowsWorkgroupSize;
    uint64_t tile = uint64_t{workgroup} * kNode;
    uint64_t lines = p.lineCount();
    bool vector = axisVectorizable(p, b.inOffset, b.outOffset);
    Dispatch scan = makeDispatch(Stage::RowsScan, p, b.in, b.inOffset, b.out, b.outOffset);
    setVectorLoads(scan, vector);
    scan.pipeline.workgroupSize = workgroup;
    if (p.axisLen <= tile) {
      uint32_t segmentLog2 = log2Exact(ceilDiv(p.axisLen, kNode));
      scan.params.shape = segmentLog2;
      emit(scan, ceilDiv(lines, workgroup >> segmentLog2));
      return;
    }
    uint64_t chunks = ceilDiv(p.axisLen, tile);
    uint64_t auxBytes =
        alignUp(lines * chunks * dataTypeSize(accumulationType(p.type)), kScratchAlignment);
    reserveScratch(b.scratchBase + auxBytes);

    Dispatch reduce = makeDispatch(Stage::RowsReduce, p, b.in, b.inOffset, BufferRole::None, 0);
    setVectorLoads(reduce, vector);
    reduce.pipeline.workgroupSize = workgroup;
    reduce.params.chunksPerLine = static_cast<uint32_t>(chunks);
    reduce.params.shape = log2Exact(workgroup);
    setAux(reduce, b.scratchBase);
    emit(reduce, lines * chunks);

    Problem carries = carryProblem(
        p, chunks, 1, {lines, static_cast<int64_t>(chunks), static_cast<int64_t>(chunks)});
    planPiece(carries, {BufferRole::Scratch, b.scratchBase, BufferRole::Scratch, b.scratchBase,
                        b.scratchBase + auxBytes});

    scan.params.chunksPerLine = static_cast<uint32_t>(chunks);
    scan.params.shape = log2Exact(workgroup);
    setAux(scan, b.scratchBase);
    emit(scan, lines * chunks);
  }

  // Lines interleaved in vectors where the innermost line dimension is
  // contiguous, else a line per invocation. Lines are walked whole where
  // there are enough of them to fill the device; otherwise the largest chunk
  // (up to a level-3 node) that still gives chunkTargetInvocations.
  void planChunks(const Problem& p, const Bindings& b) {
    ChunkWalk walk;
    walk.interleaved = linesInterleavable(p, b.inOffset, b.outOffset);
    walk.lanes = walk.interleaved ? interleavedLines(p.type, p.lines[0].size) : 1;
    uint64_t invocationsPerChunk = p.lineCount() / walk.lanes;
    uint32_t wholeLevels = walk.interleaved ? kMaxChunkLevels : kMaxPlainWholeLineLevels;
    bool wholeLines = invocationsPerChunk >= tuning_.wholeLineInvocations &&
                      p.axisLen <= (uint64_t{1} << (4 * wholeLevels));
    bool small = invocationsPerChunk * p.axisLen <= tuning_.chunkSmallProblem;
    if (wholeLines || (p.axisLen <= (uint64_t{1} << 12) && small)) {
      walk.levels = levelsFor(p.axisLen);
    } else {
      walk.levels = 3;
      while (walk.levels > 1 &&
             invocationsPerChunk * ceilDiv(p.axisLen, uint64_t{1} << (4 * walk.levels)) <
                 tuning_.chunkTargetInvocations) {
        --walk.levels;
      }
    }
    uint64_t chunks = ceilDiv(p.axisLen, uint64_t{1} << (4 * walk.levels));
    // Few lines walked whole run in workgroups of a subgroup, spread over more of the device.
    bool spread = wholeLines && !walk.interleaved;
    walk.workgroupSize = chunkWorkgroup(invocationsPerChunk * chunks, spread);
    walkChunks(p, b, walk);
  }
};

}  // namespace

void planGpuPiece(const Problem& piece, const PlanLimits& limits, const Tuning& tuning,
                  Plan& plan) {
  GpuPlanner(limits, tuning, plan).planPiece(piece, Bindings{});
}

}  // namespace vkscan::detail
