// The GPU planner. Contiguous axes take the rows kernels: a node per
// invocation, the workgroup's levels of the tree chained across lanes
// (subgroup shuffles), lines that fit a tile in one workgroup, longer lines
// in one pass with decoupled look-back. Strided axes take the columns one
// pass, or where their lines are fewer than a columns tile's lanes, the rows
// kernels again; chunk walks, an invocation a line (or a lane of adjacent
// lines) walking a subtree with the carries as a problem of their own, take
// lines of a node, lines enough to fill the device, and what those kernels
// cannot (contiguous axes too on devices without subgroup shuffles). A
// line's carry-in and total keep the one-pass plans: their kernels read and
// write them.
#include <algorithm>
#include <cstdlib>

#include "plan/planner.hpp"

namespace vkscan::detail {
namespace {

// Scratch of the one-pass kernel (kernels/rows_onepass.comp), in 32-bit
// words: two accumulators per node of every level of each line's tree below
// its root, a two-word collision record per tile, and the tile counter.
uint64_t onePassScratchWords(const Problem& p, uint64_t tiles) {
  uint64_t lines = p.lineCount();
  uint64_t accumulatorWords = dataTypeSize(accumulationType(p.type)) / 4;
  uint64_t lineNodes = 0;
  for (uint64_t nodes = tiles; nodes > 1; nodes = ceilDiv(nodes, 16)) lineNodes += nodes;
  return 2 * lines * lineNodes * accumulatorWords + 2 * lines * tiles + 1;
}

// Shared memory of the rows kernels besides a staged tile: the workgroup's
// chains and the look-back's slots (kernels/rows.glsl,
// kernels/lookback_workgroup.glsl), rounded up.
constexpr uint64_t kRowsSharedBytes = 4096;

// The columns one-pass kernel's tile along the axis: a workgroup's sixteenth
// lanes of lines (Tuning::columnsWorkgroupSize) by 256 elements, or where
// that is the line, more lanes of fewer nodes.
constexpr uint64_t kColumnsTile = 256;

// Whether consecutive lines lie back to back in input and output (line i
// at i * axisLen elements from line 0), so that a staged segment of the rows
// kernels may span several short lines (VKSCAN_FLAG_PACKED_LINES).
bool linesPacked(const Problem& p) {
  if (p.inAxisStride != p.outAxisStride || std::abs(p.inAxisStride) != 1) return false;
  int64_t next = static_cast<int64_t>(p.axisLen);
  for (const LineDim& dim : p.lines) {
    if (dim.inStride != next || dim.outStride != next) return false;
    next *= static_cast<int64_t>(dim.size);
  }
  return true;
}

uint32_t log2Exact(uint64_t value) {
  uint32_t log = 0;
  while ((uint64_t{1} << log) < value) ++log;
  return log;
}

class GpuPlanner final : public Planner {
 public:
  using Planner::Planner;

  void planPiece(const Problem& p, const Bindings& b) override {
    if (takesRows(p, b)) {
      planRows(p, b);
    } else {
      planChunks(p, b);
    }
  }

 protected:
  // With carries, the plan keeps the rows kernels and the columns one pass
  // wherever they fit, even where the chunk walks would take the lines in
  // one pass (carried()): those would copy the carries through scratch in
  // passes of their own, and read the input twice for totals. These kernels
  // read each line's carry-in where it lies, take it at the line's root and
  // write its total, so a carried scan is still one dispatch. A one pass's
  // look-back words come first in scratch, the carries' header after them,
  // where its kernels find it (kernels/line_carries.glsl).
  bool carriesInKernel(const Problem& p) const override {
    return takesRows(p) || columnsPlanned(p, Bindings{});
  }

  uint64_t scratchBeforeCarries(const Problem& p) const override {
    uint64_t tile = 0;
    if (takesRows(p) && p.axisLen > rowsTile()) tile = rowsTile();
    if (!takesRows(p) && columnsPlanned(p, Bindings{}) && p.axisLen > kColumnsTile) {
      tile = kColumnsTile;
    }
    if (tile == 0) return 0;
    uint64_t tiles = ceilDiv(p.axisLen, tile);
    return 4 * onePassScratchWords(p, tiles);
  }

  void scanCarried(const Problem& p, const LineCarries& carries, uint64_t scratchBase) override {
    if (takesRows(p)) {
      planRows(p, Bindings{}, &carries);
    } else if (columnsPlanned(p, Bindings{})) {
      planColumnsOnePass(p, Bindings{}, &carries);
    } else {
      Planner::scanCarried(p, carries, scratchBase);
    }
  }

 private:
  // Contiguous axes; strided ones where the chunk walks would need passes of
  // their own for the carries and the columns one pass does not take them.
  bool takesRows(const Problem& p, const Bindings& b = {}) const {
    if (!limits_.subgroupShuffles) return false;
    return std::abs(p.inAxisStride) == 1 || stridedRows(p, b);
  }

  // Fewer lines of a strided axis than fill a columns tile, which the chunk
  // walks would not take (walksPreferred()): the rows kernels read the
  // input once, in one dispatch, their tiles staged along the axis so that
  // neighbouring lanes touch neighbouring elements. Only where a tile fits
  // shared memory: unstaged, each lane would walk its node alone. More lines
  // keep the columns one pass and the chunk walks, whose lanes take
  // neighbouring lines where those interleave: a line per workgroup would
  // read each cache line once per line.
  bool stridedRows(const Problem& p, const Bindings& b) const {
    if (p.lineCount() >= tuning_.columnsScalarLines || columnsPlanned(p, b)) return false;
    return stagesTiles(p, tuning_.rowsWorkgroupSize) &&
           (carried(p) || !walksPreferred(p, chunkShape(p, b)));
  }

  // Lines with a carry-in or totals, which the chunk walks copy through
  // scratch in passes of their own.
  static bool carried(const Problem& p) { return p.carryIn || p.totals; }

  // Tiles staged in traversal order, each element at its own axis stride
  // (VKSCAN_FLAG_STAGED_ALONG_AXIS), where memory order cannot serve: a
  // strided input axis.
  static bool stagedAlongAxis(const Problem& p) { return std::abs(p.inAxisStride) != 1; }

  uint64_t rowsTile() const { return uint64_t{tuning_.rowsWorkgroupSize} * kNode; }

  // The line carries of the rows and columns kernels: the carry-in read, the
  // total written, where the tensors lie, as the header at the carries'
  // start in aux (after the look-back's words, if any) says.
  static void setLineCarries(Dispatch& d, const Problem& p, const LineCarries* carries) {
    if (carries == nullptr) return;
    d.pipeline.lineCarryIn = carries->carryIn;
    d.pipeline.lineTotals = carries->totals;
    if (!d.hasAux) setAux(d, carries->carryOffset);
    d.writesLineCarries = true;
    d.lineCarriesByteOffset = carries->carryOffset;
    d.carryBase = p.carryIn ? p.carryBase : 0;
    d.totalsBase = p.totals ? p.totalsBase : 0;
    for (size_t i = 0; i < p.lines.size() && i < 3; ++i) {
      d.carryStrides[i] = p.carryIn ? p.lines[i].carryStride : 0;
      d.totalsStrides[i] = p.totals ? p.lines[i].totalsStride : 0;
    }
  }

  // A tile (a workgroup's 16 nodes per invocation) per line where lines fit
  // one; otherwise a workgroup per tile in one pass.
  void planRows(const Problem& p, const Bindings& b, const LineCarries* carries = nullptr) {
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
      // Staged where a subgroup's nodes lie back to back: one line's, or
      // packed lines' (kernels/rows.glsl); on vectors where lines are whole
      // ones, else element by element, which lines shorter than a node skip:
      // their direct loads already step through memory a line per lane.
      bool packed = linesPacked(p);
      bool wholeVectors = p.axisLen % static_cast<uint64_t>(vectorElements(p.type)) == 0;
      bool staged = stagesTiles(p, workgroup) && ((vector && wholeVectors) || p.axisLen >= kNode) &&
                    ((uint64_t{1} << segmentLog2) >= stagedSegment(workgroup) || packed);
      setStagedNodes(scan, p, staged);
      if (staged && packed) scan.params.flags |= VKSCAN_FLAG_PACKED_LINES;
      setLineCarries(scan, p, carries);
      emit(scan, ceilDiv(lines, workgroup >> segmentLog2));
      return;
    }
    uint64_t tiles = ceilDiv(p.axisLen, tile);
    Dispatch onePass = makeDispatch(Stage::RowsOnePass, p, b.in, b.inOffset, b.out, b.outOffset);
    setVectorLoads(onePass, vector);
    onePass.pipeline.workgroupSize = workgroup;
    onePass.params.shape = log2Exact(workgroup);
    setStagedNodes(onePass, p, stagesTiles(p, workgroup));
    setLookbackTree(onePass, p, b, tiles);
    setLineCarries(onePass, p, carries);
    // Along a strided axis, tiles across lines first: where lines interleave,
    // the tiles that share cache lines then run together.
    bool acrossLines = tuning_.rowsLinesFastest || stagedAlongAxis(p);
    if (acrossLines && lines > 1) onePass.params.flags |= VKSCAN_FLAG_LINES_FASTEST;
    emit(onePass, lines * tiles);
  }

  // Whether the rows kernels may stage tiles: the tuning says so, input and
  // output run the same way along the axis (staged accesses go by memory
  // order) or the axis is strided (staged along it, in traversal order), and
  // the tile, as accumulators, fits the device's shared memory beside the
  // rest (kernels/rows.glsl sStage). A strided axis has no vector loads or
  // packed lines, so a rows scan stages it from a node long, a segment a line.
  bool stagesTiles(const Problem& p, uint32_t workgroup) const {
    return tuning_.rowsStagedNodes && (p.inAxisStride == p.outAxisStride || stagedAlongAxis(p)) &&
           tileFitsShared(p, workgroup);
  }

  // The hardware's part of stagesTiles(), whatever the tuning.
  bool tileFitsShared(const Problem& p, uint32_t workgroup) const {
    uint64_t tileBytes = uint64_t{workgroup} * kNode * dataTypeSize(accumulationType(p.type));
    return tileBytes + kRowsSharedBytes <= limits_.maxSharedMemoryBytes;
  }

  // Staged tiles walk a decreasing axis from its end, on vectors or not;
  // along a strided axis, in traversal order.
  void setStagedNodes(Dispatch& d, const Problem& p, bool staged) const {
    d.pipeline.stagedNodes = staged;
    if (!staged) return;
    d.pipeline.stagedSegment = tuning_.rowsStagedSegment;
    if (stagedAlongAxis(p)) {
      d.params.flags |= VKSCAN_FLAG_STAGED_ALONG_AXIS;
    } else {
      d.pipeline.reverse = p.inAxisStride < 0;
    }
  }

  // The invocations whose nodes move together: a subgroup (or the test's
  // segment), or the workgroup where that is narrower.
  uint64_t stagedSegment(uint32_t workgroup) const {
    uint32_t segment =
        tuning_.rowsStagedSegment != 0 ? tuning_.rowsStagedSegment : limits_.subgroupSize;
    return std::min<uint64_t>(segment, workgroup);
  }

  // The one-pass kernels' look-back over lines of `tiles` tiles
  // (kernels/lookback_tree.glsl): its scratch, cleared to unpublished.
  void setLookbackTree(Dispatch& d, const Problem& p, const Bindings& b, uint64_t tiles) {
    uint64_t clearBytes = 4 * onePassScratchWords(p, tiles);
    reserveScratch(b.scratchBase + alignUp(clearBytes, kScratchAlignment));
    d.pipeline.lookbackPolls = tuning_.lookbackPolls;
    d.pipeline.lookbackMissesPublished = tuning_.lookbackMissesPublished;
    d.pipeline.lookbackStopLevel = tuning_.lookbackStopLevel;
    d.params.chunksPerLine = static_cast<uint32_t>(tiles);
    setAux(d, b.scratchBase);
    d.clearByteOffset = b.scratchBase;
    d.clearBytes = clearBytes;
    d.clearWord = kLookbackUnpublished;
  }

  // Whether a strided axis's lines lie in vectors, VEC_N neighbouring lines
  // to a vector (the columns kernel's vector lanes).
  static bool linesOnVectors(const Problem& p, const Bindings& b) {
    uint64_t vector = static_cast<uint64_t>(vectorElements(p.type));
    return linesInterleavable(p, b.inOffset, b.outOffset) && p.lines[0].size % vector == 0;
  }

  // Whether the columns one pass can take the lines: a tile of W / 16 lanes
  // of lines by 256 elements per workgroup of W (Tuning::
  // columnsWorkgroupSize, kernels/columns_onepass.comp), or
  // where the tile is the line, which needs no look-back, more lanes of
  // fewer nodes (Tuning::columnsOneTile). Lanes are vectors of lines where
  // those lie in vectors, else built element by element from
  // Tuning::columnsScalarLines lines, or along a strided axis from one
  // where the rows kernels cannot take fewer (no subgroup shuffles, or no
  // room for their tile in shared memory: 64-bit types on 32 KiB), which
  // leaves lanes empty rather than read the input twice in chunk walks. The
  // kernel indexes its look-back words in 32 bits, so many lines of
  // millions of tiles keep the chunk walks.
  bool columnsFit(const Problem& p, const Bindings& b) const {
    bool rowsCannot = stagedAlongAxis(p) &&
                      (!limits_.subgroupShuffles || !tileFitsShared(p, tuning_.rowsWorkgroupSize));
    uint32_t workgroup = tuning_.columnsWorkgroupSize;
    return workgroup >= 64 && limits_.maxWorkgroupInvocations >= workgroup &&
           (p.axisLen > kColumnsTile || tuning_.columnsOneTile) &&
           (linesOnVectors(p, b) || p.lineCount() >= tuning_.columnsScalarLines || rowsCannot) &&
           onePassScratchWords(p, ceilDiv(p.axisLen, kColumnsTile)) <= UINT32_MAX;
  }

  void planColumnsOnePass(const Problem& p, const Bindings& b,
                          const LineCarries* carries = nullptr) {
    uint64_t lanes = ceilDiv(p.lineCount(), static_cast<uint64_t>(vectorElements(p.type)));
    uint64_t tiles = ceilDiv(p.axisLen, kColumnsTile);
    Dispatch d = makeDispatch(Stage::ColumnsOnePass, p, b.in, b.inOffset, b.out, b.outOffset);
    d.pipeline.workgroupSize = tuning_.columnsWorkgroupSize;
    d.pipeline.scalarLanes = !linesOnVectors(p, b);
    // A lane's nodes: the tile's 16, or where the tile is the line the nodes
    // it fills, so that a workgroup takes more lanes of short lines.
    d.params.shape = tiles > 1 ? 4 : log2Exact(ceilDiv(p.axisLen, kNode));
    if (tiles > 1) setLookbackTree(d, p, b, tiles);
    setLineCarries(d, p, carries);
    emit(d, ceilDiv(lanes, uint64_t{tuning_.columnsWorkgroupSize} >> d.params.shape) * tiles);
  }

  // How the chunk walks would take a strided axis: lines interleaved in
  // vectors where the innermost line dimension is contiguous, else a line
  // per invocation; whole lines where there are enough of them to fill the
  // device; a small problem.
  struct ChunkShape {
    bool interleaved = false;
    uint64_t lanes = 1;
    uint64_t invocationsPerChunk = 0;
    bool wholeLines = false;
    bool small = false;
  };

  ChunkShape chunkShape(const Problem& p, const Bindings& b) const {
    ChunkShape shape;
    shape.interleaved = linesInterleavable(p, b.inOffset, b.outOffset);
    shape.lanes = shape.interleaved ? interleavedLines(p.type, p.lines[0].size) : 1;
    shape.invocationsPerChunk = p.lineCount() / shape.lanes;
    uint32_t wholeLevels = shape.interleaved ? kMaxChunkLevels : kMaxPlainWholeLineLevels;
    shape.wholeLines = shape.invocationsPerChunk >= tuning_.wholeLineInvocations &&
                       p.axisLen <= (uint64_t{1} << (4 * wholeLevels));
    shape.small = shape.invocationsPerChunk * p.axisLen <= tuning_.chunkSmallProblem;
    return shape;
  }

  // Whether the chunk walks take each line whole, a chunk of one walk: lines
  // that fill the device, or a small problem of lines up to a level-3 node.
  static bool walksInOnePass(const Problem& p, const ChunkShape& shape) {
    return shape.wholeLines || (p.axisLen <= (uint64_t{1} << 12) && shape.small);
  }

  // Whether the chunk walks take lines a one-pass kernel could: lines of a
  // node (one step of a walk), or enough lines to fill the device walked
  // whole. Not a small problem of longer lines: its few invocations would
  // each walk them in sequence, a load's latency per node, where a one pass
  // spreads a line over a workgroup.
  static bool walksPreferred(const Problem& p, const ChunkShape& shape) {
    return p.axisLen <= kNode || shape.wholeLines;
  }

  // Strided lines take the columns one pass where it fits, unless the chunk
  // walks take them (walksPreferred()); carried lines wherever it fits.
  bool columnsPlanned(const Problem& p, const Bindings& b) const {
    if (!columnsFit(p, b)) return false;
    return carried(p) || !walksPreferred(p, chunkShape(p, b));
  }

  // Chunk walks: lines walked whole, or else the largest chunk (up to a
  // level-3 node) that still gives chunkTargetInvocations.
  void planChunks(const Problem& p, const Bindings& b) {
    if (columnsPlanned(p, b)) {
      planColumnsOnePass(p, b);
      return;
    }
    ChunkShape shape = chunkShape(p, b);
    ChunkWalk walk;
    walk.interleaved = shape.interleaved;
    walk.lanes = shape.lanes;
    if (walksInOnePass(p, shape)) {
      walk.levels = levelsFor(p.axisLen);
    } else {
      walk.levels =
          chunkLevelsFor(shape.invocationsPerChunk, p.axisLen, tuning_.chunkTargetInvocations);
    }
    uint64_t chunks = ceilDiv(p.axisLen, uint64_t{1} << (4 * walk.levels));
    // Few lines walked whole run in workgroups of a subgroup, spread over more of the device.
    bool spread = shape.wholeLines && !walk.interleaved;
    walk.workgroupSize = chunkWorkgroup(shape.invocationsPerChunk * chunks, spread);
    walkChunks(p, b, walk);
  }
};

}  // namespace

void planGpuPiece(const Problem& piece, const PlanLimits& limits, const Tuning& tuning,
                  Plan& plan) {
  GpuPlanner planner(limits, tuning, plan);
  if (piece.carryIn || piece.totals) {
    planner.planCarried(piece);
  } else {
    planner.planPiece(piece, Bindings{});
  }
}

}  // namespace vkscan::detail
