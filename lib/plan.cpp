#include "plan.hpp"

#include <algorithm>
#include <string>
#include <tuple>

namespace vkscan::detail {
namespace {

constexpr uint64_t kNode = 16;  // canonical order's radix (kernels/common.glsl NODE)
constexpr uint64_t kMaxLinesPerDispatch = uint64_t{1} << 31;
constexpr uint64_t kMaxPieces = 4096;
constexpr uint64_t kScratchAlignment = 16;
// Look-back tiles: level-3 nodes, one per invocation (kernels/chunk_lookback.comp).
constexpr uint32_t kLookbackTileLevels = 3;
constexpr uint64_t kLookbackTile = uint64_t{1} << (4 * kLookbackTileLevels);
constexpr uint64_t kLookbackMaxTiles = 16;
// Chunks are nodes of level 1 to 4 (kernels/chunk.glsl), and lines walked
// whole in a plain walk up to level 5: its 65536 nodes are 32768 loop
// iterations of two. A realigned walk takes one node per iteration and an
// interleaved one loops over each node's rows, so their whole lines stay
// within level 4, under lavapipe's cap of 65,535.
constexpr uint32_t kMaxChunkLevels = 4;
constexpr uint32_t kMaxPlainWholeLineLevels = 5;
// Groups of four vectors' lines on vectors walk apart from the lines left
// over only where those are at most 1/kLaneGroupRestShare of the inner
// extent (Planner::planLaneGroups()). Measured on lavapipe, FLOAT32 along
// axis 1 of [N, 4096, inner], GB/s: inner 68 8.3 to 9.6-10.2, 100 7.8-8.0
// to 8.6-8.9, 132 7.1 to 8.5-9.5, 260 3.2 to 6.4-6.6; inner 52 (4 of 52
// left over) 10.6 to 7.9-8.7, 76 (12 of 76) 8.4 to 6.4-6.5.
constexpr uint64_t kLaneGroupRestShare = 16;
// Room for the dispatches of any one-piece plan, reserved up front: an axis
// of 2^32 - 1 elements takes five (reduce, carries in three, scan).
constexpr size_t kTypicalDispatches = 8;

// Look-back scratch, all filled with kLookbackUnpublished
// (kernels/chunk_lookback.comp): per tile a total and an inclusive value,
// accumulators of `accumulatorBytes`, and a collision record of two words.
uint64_t lookbackScratchBytes(uint64_t tiles, uint64_t accumulatorBytes) {
  return tiles * (2 * accumulatorBytes + 8);
}

uint64_t ceilDiv(uint64_t a, uint64_t b) {
  return (a + b - 1) / b;
}
uint64_t alignUp(uint64_t a, uint64_t b) {
  return ceilDiv(a, b) * b;
}

uint32_t log2Exact(uint64_t value) {
  uint32_t log = 0;
  while ((uint64_t{1} << log) < value) ++log;
  return log;
}

// Elements per vector access in the rows kernels (16 bytes, or 8 for FLOAT16).
int64_t vectorElements(DataType type) {
  return dataTypeSize(type) == 8 ? 2 : 4;
}

// Elements per wide unit of the chunk kernels (32 bytes).
int64_t wideElements(DataType type) {
  return 32 / static_cast<int64_t>(dataTypeSize(type));
}

// Lines one interleaved invocation carries (kernels/chunk.glsl LANE_N) when
// the innermost line dimension has `innerLines`: four vectors' worth where
// they divide it, else one vector's.
uint64_t interleavedLines(DataType type, uint64_t innerLines) {
  uint64_t vector = static_cast<uint64_t>(vectorElements(type));
  return innerLines % (4 * vector) == 0 ? 4 * vector : vector;
}

bool alignedStart(int64_t base, int64_t axisStride, int64_t vector) {
  // Backwards, a node's lowest address is its last traversal element's.
  return axisStride > 0 ? base % vector == 0 : (base + 1) % vector == 0;
}

bool isChunkStage(Stage stage) {
  return stage == Stage::ChunkReduce || stage == Stage::ChunkScan ||
         stage == Stage::ChunkReduceInterleaved || stage == Stage::ChunkScanInterleaved ||
         stage == Stage::ChunkReduceRealigned || stage == Stage::ChunkScanRealigned ||
         isLookback(stage);
}

class Planner {
 public:
  // Reserving the dispatches spares createOperator() reallocations.
  Planner(const PlanLimits& limits, const Tuning& tuning, Plan& plan)
      : limits_(limits), tuning_(tuning), plan_(plan) {
    plan_.dispatches.reserve(kTypicalDispatches);
  }

  // Plans one piece: at most three line dimensions and a line count that fits
  // the kernels' 32-bit line index. `scratchBase` is where this piece's aux
  // regions may start.
  void planPiece(const Problem& p, BufferRole in, uint64_t inOffset, BufferRole out,
                 uint64_t outOffset, uint64_t scratchBase) {
    if (tuning_.rowsForContiguousAxes && std::abs(p.inAxisStride) == 1) {
      planRows(p, in, inOffset, out, outOffset, scratchBase);
    } else {
      planChunks(p, in, inOffset, out, outOffset, scratchBase);
    }
  }

 private:
  Dispatch makeDispatch(Stage stage, const Problem& p, BufferRole in, uint64_t inOffset,
                        BufferRole out, uint64_t outOffset) const {
    Dispatch d;
    d.pipeline.stage = stage;
    d.pipeline.type = p.type;
    d.pipeline.exclusive = p.exclusive && (stage == Stage::RowsScan || stage == Stage::ChunkScan ||
                                           stage == Stage::ChunkScanInterleaved ||
                                           stage == Stage::ChunkScanRealigned || isLookback(stage));
    uint64_t size = dataTypeSize(p.type);
    d.in = in;
    d.inByteOffset = inOffset + static_cast<uint64_t>(p.inBase) * size;
    d.out = out;
    d.outByteOffset = outOffset + static_cast<uint64_t>(p.outBase) * size;
    ScanParams& params = d.params;
    params.inAxisStride = p.inAxisStride;
    params.outAxisStride = p.outAxisStride;
    for (int i = 0; i < 3; ++i) {
      params.lineSize[i] = 1;
      params.inLineStride[i] = 0;
      params.outLineStride[i] = 0;
    }
    for (size_t i = 0; i < p.lines.size(); ++i) {
      params.lineSize[i] = static_cast<uint32_t>(p.lines[i].size);
      params.inLineStride[i] = p.lines[i].inStride;
      params.outLineStride[i] = p.lines[i].outStride;
    }
    params.axisLen = static_cast<uint32_t>(p.axisLen);
    params.lineCount = static_cast<uint32_t>(p.lineCount());
    params.chunksPerLine = 1;
    params.flags = p.firstIsPositiveZero ? VKSCAN_FLAG_FIRST_IS_POSITIVE_ZERO : 0u;
    return d;
  }

  // axisVectorizable() leaves in and out strides equal, +1 or -1.
  static void setVectorLoads(Dispatch& d, bool vector) {
    d.pipeline.vectorLoads = vector;
    d.pipeline.reverse = vector && d.params.inAxisStride < 0;
  }

  // Chunk stages compile in the paths for partial and full nodes only where
  // the dispatch's axis has such nodes.
  static void setNodePaths(Dispatch& d) {
    d.pipeline.partialNodes = d.params.axisLen % kNode != 0;
    d.pipeline.fullNodes = d.params.axisLen >= kNode;
  }

  void setAux(Dispatch& d, uint64_t auxOffset) {
    d.hasAux = true;
    d.auxByteOffset = auxOffset;
  }

  void emit(const Dispatch& planned, uint64_t groups) {
    if (groups == 0) throw InvalidArgument("input.sizes", "a dispatch with no workgroups");
    // Balanced, so that the grid's padding (idle workgroups) is under y.
    uint64_t y = ceilDiv(groups, limits_.maxWorkgroupCountX);
    uint64_t x = ceilDiv(groups, y);
    if (y > limits_.maxWorkgroupCountY) {
      throw InvalidArgument("input.sizes", "needs " + std::to_string(groups) +
                                               " workgroups, more than the device's " +
                                               std::to_string(limits_.maxWorkgroupCountX) + " x " +
                                               std::to_string(limits_.maxWorkgroupCountY));
    }
    // Kernels index invocations, and count lines x chunks, in 32 bits; the
    // padded grid must stay below 2^32 too, or surplus invocations would wrap
    // onto real lines (and a count of exactly 2^32 would wrap to 0).
    if (x * y * planned.pipeline.workgroupSize > UINT32_MAX) {
      throw InvalidArgument("input.sizes", "needs " + std::to_string(groups) + " workgroups of " +
                                               std::to_string(planned.pipeline.workgroupSize) +
                                               " invocations in one dispatch; vkscan indexes at "
                                               "most 2^32 invocations");
    }
    Dispatch& d = plan_.dispatches.emplace_back(planned);
    d.groupsX = static_cast<uint32_t>(x);
    d.groupsY = static_cast<uint32_t>(y);
    d.params.groupsX = d.groupsX;
    d.pipeline.lineDims = d.params.lineSize[2] > 1 ? 3 : d.params.lineSize[1] > 1 ? 2 : 1;
    d.pipeline.chunked = isChunkStage(d.pipeline.stage) && d.params.chunksPerLine > 1;
  }

  // Vector accesses along the axis: a node's elements are contiguous and
  // every node starts on a vector boundary.
  bool axisVectorizable(const Problem& p, uint64_t inOffset, uint64_t outOffset) const {
    return axisAligned(p, inOffset, outOffset, vectorElements(p.type));
  }

  // Whether plain chunk walks and the look-back pass of the axis go
  // realigned: a contiguous axis off vectors, long enough for the realigned
  // walk, which needs three full nodes in a chunk (kernels/chunk.glsl), where
  // the walk is wanted.
  bool walksRealigned(const Problem& p, uint64_t inOffset, uint64_t outOffset) const {
    return tuning_.chunkRealign && p.inAxisStride == p.outAxisStride &&
           std::abs(p.inAxisStride) == 1 && p.axisLen >= 3 * kNode &&
           !axisVectorizable(p, inOffset, outOffset);
  }

  static void setRealign(Dispatch& d, const Problem& p) {
    switch (d.pipeline.stage) {
      case Stage::ChunkScan:
        d.pipeline.stage = Stage::ChunkScanRealigned;
        break;
      case Stage::ChunkLookback:
        d.pipeline.stage = Stage::ChunkLookbackRealigned;
        break;
      default:
        d.pipeline.stage = Stage::ChunkReduceRealigned;
    }
    d.pipeline.reverse = p.inAxisStride < 0;
  }

  // Wide units (chunk stages): every node on vector loads, every row of four
  // vectors of interleaved lines, or every group of rows of one vector that
  // lie back to back, starts on 32 bytes from its binding's offset. Storage
  // buffers are bound from that offset (a multiple of 16) rounded down to
  // the device's alignment, so where the alignment does not divide 16 a node
  // may start mid-unit of the binding.
  void setWideVectors(Dispatch& d, const Problem& p, uint64_t inOffset, uint64_t outOffset,
                      bool interleaved) const {
    int64_t unit = wideElements(p.type);
    bool bound = 16 % std::max<uint64_t>(limits_.minStorageBufferOffsetAlignment, 1) == 0;
    if (!bound) return;
    if (!interleaved) {
      d.pipeline.wideVectors = d.pipeline.vectorLoads && axisAligned(p, inOffset, outOffset, unit);
    } else if (d.pipeline.laneVectors == 4) {
      d.pipeline.wideVectors = rowsAligned(p, inOffset, outOffset, unit);
    } else if (rowUnitsAligned(p, inOffset, outOffset)) {
      d.pipeline.wideVectors = true;
      d.pipeline.reverse = p.inAxisStride < 0;
    }
  }

  // Interleaved lanes of one vector whose rows lie back to back (axis strides
  // of one vector, equal in both tensors): every group of a unit's rows
  // starts on a unit, at its lowest address (backwards, its last row's).
  bool rowUnitsAligned(const Problem& p, uint64_t inOffset, uint64_t outOffset) const {
    int64_t vector = vectorElements(p.type);
    int64_t unit = wideElements(p.type);
    if (p.inAxisStride != p.outAxisStride || std::abs(p.inAxisStride) != vector) return false;
    // Lane groups along the inner dimension lie a vector apart, off units,
    // so it must hold one group. It holds more only where an axis of one
    // element let normalize() merge the outer dimensions into it: INT64
    // {2, 1, 2} along axis 1 is 4 lines of stride 1 (found by fuzz_plan).
    if (p.lines[0].size != static_cast<uint64_t>(vector)) return false;
    for (size_t i = 1; i < p.lines.size(); ++i) {
      if (p.lines[i].inStride % unit != 0 || p.lines[i].outStride % unit != 0) return false;
    }
    // Backwards a group's lowest address is its last row's: the line's start
    // less all but one of the unit's vectors, which is the start plus one
    // vector, modulo the unit.
    int64_t backwards = p.inAxisStride < 0 ? vector : 0;
    return (elementStart(p, inOffset, true) + backwards) % unit == 0 &&
           (elementStart(p, outOffset, false) + backwards) % unit == 0;
  }

  // The axis is contiguous in both tensors and every node starts on a
  // multiple of `vector` elements.
  bool axisAligned(const Problem& p, uint64_t inOffset, uint64_t outOffset, int64_t vector) const {
    if (p.inAxisStride != p.outAxisStride || std::abs(p.inAxisStride) != 1) return false;
    for (const LineDim& dim : p.lines) {
      if (dim.inStride % vector != 0 || dim.outStride % vector != 0) return false;
    }
    return alignedStart(elementStart(p, inOffset, true), p.inAxisStride, vector) &&
           alignedStart(elementStart(p, outOffset, false), p.outAxisStride, vector);
  }

  // Vector accesses across lines: the innermost line dimension is contiguous
  // in both tensors, so one vector holds the same element of adjacent lines.
  bool linesInterleavable(const Problem& p, uint64_t inOffset, uint64_t outOffset) const {
    int64_t vector = vectorElements(p.type);
    if (p.lines.empty()) return false;
    const LineDim& inner = p.lines[0];
    if (inner.inStride != 1 || inner.outStride != 1 ||
        inner.size % interleavedLines(p.type, inner.size) != 0) {
      return false;
    }
    return rowsAligned(p, inOffset, outOffset, vector);
  }

  // Every row of an interleaved walk (the elements of one axis index, lines
  // contiguous) starts on a multiple of `vector` elements.
  bool rowsAligned(const Problem& p, uint64_t inOffset, uint64_t outOffset, int64_t vector) const {
    if (p.inAxisStride % vector != 0 || p.outAxisStride % vector != 0) return false;
    for (size_t i = 1; i < p.lines.size(); ++i) {
      if (p.lines[i].inStride % vector != 0 || p.lines[i].outStride % vector != 0) return false;
    }
    return elementStart(p, inOffset, true) % vector == 0 &&
           elementStart(p, outOffset, false) % vector == 0;
  }

  static int64_t elementStart(const Problem& p, uint64_t byteOffset, bool input) {
    int64_t offset = static_cast<int64_t>(byteOffset / dataTypeSize(p.type));
    return offset + (input ? p.inBase : p.outBase);
  }

  // The carries of a multi-chunk scan are the exclusive canonical scan of the
  // chunk totals, which are themselves values of the tree one level up: so
  // the carry pass is the same problem again, on the totals, in place.
  Problem carryProblem(const Problem& p, uint64_t chunks, int64_t axisStride, LineDim lines) const {
    Problem q;
    q.type = accumulationType(p.type);
    q.axisLen = chunks;
    q.inAxisStride = axisStride;
    q.outAxisStride = axisStride;
    if (lines.size > 1) q.lines.push_back(lines);
    q.exclusive = true;
    return q;
  }

  void planRows(const Problem& p, BufferRole in, uint64_t inOffset, BufferRole out,
                uint64_t outOffset, uint64_t scratchBase) {
    uint32_t workgroup = tuning_.rowsWorkgroupSize;
    uint64_t tile = uint64_t{workgroup} * kNode;
    uint64_t lines = p.lineCount();
    bool vector = axisVectorizable(p, inOffset, outOffset);
    Dispatch scan = makeDispatch(Stage::RowsScan, p, in, inOffset, out, outOffset);
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
    plan_.scratchBytes = std::max(plan_.scratchBytes, scratchBase + auxBytes);

    Dispatch reduce = makeDispatch(Stage::RowsReduce, p, in, inOffset, BufferRole::None, 0);
    setVectorLoads(reduce, vector);
    reduce.pipeline.workgroupSize = workgroup;
    reduce.params.chunksPerLine = static_cast<uint32_t>(chunks);
    reduce.params.shape = log2Exact(workgroup);
    setAux(reduce, scratchBase);
    emit(reduce, lines * chunks);

    Problem carries = carryProblem(
        p, chunks, 1, {lines, static_cast<int64_t>(chunks), static_cast<int64_t>(chunks)});
    planPiece(carries, BufferRole::Scratch, scratchBase, BufferRole::Scratch, scratchBase,
              scratchBase + auxBytes);

    scan.params.chunksPerLine = static_cast<uint32_t>(chunks);
    scan.params.shape = log2Exact(workgroup);
    setAux(scan, scratchBase);
    emit(scan, lines * chunks);
  }

  void planChunks(const Problem& p, BufferRole in, uint64_t inOffset, BufferRole out,
                  uint64_t outOffset, uint64_t scratchBase) {
    bool interleaved = linesInterleavable(p, inOffset, outOffset);
    if (!interleaved && planSegments(p, in, inOffset, out, outOffset)) return;
    if (planLaneGroups(p, in, inOffset, out, outOffset, scratchBase)) return;
    walkChunks(p, in, inOffset, out, outOffset, scratchBase, interleaved, false);
  }

  // Lines contiguous in the innermost dimension but not in whole groups of
  // four vectors' lines on vectors: on a CPU device, the whole groups walk
  // together first and the lines left over after them
  // (Tuning::chunkLaneGroups). Off vectors, the groups' lanes are built from
  // scalar accesses (PipelineKey::scalarLanes) and the rest walk one per
  // invocation. On vectors (an inner extent that is a multiple of a vector
  // but not of four), the rest walk in lanes of one vector; that pays only
  // where they are few (at most 1/kLaneGroupRestShare of them), since
  // their dispatch runs far below the groups' speed, and in problems large
  // enough to repay a second dispatch. Returns false, planning nothing,
  // where the lines keep a single walk.
  bool planLaneGroups(const Problem& p, BufferRole in, uint64_t inOffset, BufferRole out,
                      uint64_t outOffset, uint64_t scratchBase) {
    if (!tuning_.chunkLaneGroups || p.lines.empty()) return false;
    const LineDim& inner = p.lines[0];
    uint64_t lanes = 4 * static_cast<uint64_t>(vectorElements(p.type));
    if (inner.inStride != 1 || inner.outStride != 1 || inner.size < lanes) return false;
    Problem groups = p;
    groups.lines[0].size = inner.size / lanes * lanes;
    uint64_t rest = inner.size - groups.lines[0].size;
    bool onVectors = linesInterleavable(groups, inOffset, outOffset);
    bool small = p.lineCount() * p.axisLen < tuning_.chunkSmallProblem;
    if (onVectors && (rest == 0 || rest * kLaneGroupRestShare > inner.size || small)) return false;
    walkChunks(groups, in, inOffset, out, outOffset, scratchBase, true, !onVectors);
    if (rest == 0) return true;
    Problem left = p;
    left.lines[0].size = rest;
    left.inBase += static_cast<int64_t>(groups.lines[0].size);
    left.outBase += static_cast<int64_t>(groups.lines[0].size);
    planChunks(left, in, inOffset, out, outOffset, scratchBase);
    return true;
  }

  // `interleaved`: lines in groups of lanes (vectors of adjacent lines);
  // `scalarLanes`: lanes built from scalar accesses (an inner extent of
  // whole groups of four vectors' lines).
  void walkChunks(const Problem& p, BufferRole in, uint64_t inOffset, BufferRole out,
                  uint64_t outOffset, uint64_t scratchBase, bool interleaved, bool scalarLanes) {
    uint64_t lanes = interleaved ? interleavedLines(p.type, p.lines[0].size) : 1;
    uint64_t lines = p.lineCount();
    uint64_t invocationsPerChunk = lines / lanes;
    // Lines of up to 16 tiles: one pass, with look-back if there are more
    // tiles than one.
    uint64_t tiles = ceilDiv(p.axisLen, kLookbackTile);
    // A whole line per invocation, when that keeps the device busy: one
    // pass without scratch, read once. Measured on lavapipe (AMD EPYC, 2
    // cores), few long rows [16, 2^20]: 0.57 of the copy roof in three
    // passes, 0.69-0.70 walked whole (level 5).
    bool realigned = !interleaved && walksRealigned(p, inOffset, outOffset);
    bool onePass = !interleaved && tiles <= kLookbackMaxTiles &&
                   lines * p.axisLen <= tuning_.chunkLookbackMaxElements;
    uint64_t wholeFrom =
        interleaved || onePass ? wholeLineInvocationsWithIdleLanes() : tuning_.wholeLineInvocations;
    uint32_t wholeLevels = interleaved || realigned ? kMaxChunkLevels : kMaxPlainWholeLineLevels;
    bool wholeLines =
        invocationsPerChunk >= wholeFrom && p.axisLen <= (uint64_t{1} << (4 * wholeLevels));
    if (onePass && tiles > 1 && !wholeLines) {
      planLookback(p, in, inOffset, out, outOffset, scratchBase, tiles);
      return;
    }
    // Otherwise the largest chunk (up to a level-3 node) that keeps it busy.
    uint32_t levels = 3;
    bool small = invocationsPerChunk * p.axisLen <= tuning_.chunkSmallProblem;
    if (wholeLines || (p.axisLen <= (uint64_t{1} << 12) && (onePass || small))) {
      levels = 1;
      while ((uint64_t{1} << (4 * levels)) < p.axisLen) ++levels;
    } else {
      // A realigned walk takes the first and last full node of its chunk an
      // element at a time, 2 of the 16 nodes of a level-2 chunk against 2 of
      // 256: it keeps level-3 chunks while they give two subgroups per worker.
      // Measured on lavapipe, FLOAT32 along axis 1, ratio to the copy roof:
      // [8, 50257] 0.39 in level-2 chunks, 0.51 in level-3; [16, 50257] 0.39
      // and 0.49. Chunks on vectors gained nothing ([8, 50256] 0.53 and 0.55).
      uint64_t target = realigned ? std::min(tuning_.chunkTargetInvocations, busyInvocations())
                                  : tuning_.chunkTargetInvocations;
      while (levels > 1 &&
             invocationsPerChunk * ceilDiv(p.axisLen, uint64_t{1} << (4 * levels)) < target) {
        --levels;
      }
    }
    uint64_t chunks = ceilDiv(p.axisLen, uint64_t{1} << (4 * levels));
    uint64_t invocations = invocationsPerChunk * chunks;
    // Few contiguous lines walked whole (few long rows) spread over the
    // workers as one-pass look-back tiles do: [16, 2^20] is 16 invocations.
    // Interleaved ones only where workgroups of the usual size would leave
    // a worker idle. Measured on lavapipe (AMD EPYC, 2 cores), FLOAT32 along
    // axis 0, ratio to the copy roof: [65536, 512] (32 invocations) 0.30 in
    // one workgroup of 32, 0.58-0.59 in four of 8; but [4096, 1024] (64)
    // 0.61-0.64 in two of 32, 0.59-0.62 in eight of 8.
    bool spread = onePass || (wholeLines && (!interleaved || leavesWorkersIdle(invocations)));
    uint32_t workgroup = chunkWorkgroup(invocations, spread);
    uint32_t barrierWorkgroup =
        interleaved && wholeLines && !spread && tuning_.chunkNodeBarriers && touchesAhead(p)
            ? workerWorkgroup(invocations)
            : 0;
    bool nodeBarriers = barrierWorkgroup != 0;
    if (nodeBarriers) workgroup = barrierWorkgroup;
    uint64_t groups = ceilDiv(invocations, workgroup);
    auto chunkDispatch = [&](Stage plain, Stage wide, BufferRole to, uint64_t toOffset) {
      Dispatch d = makeDispatch(interleaved ? wide : plain, p, in, inOffset, to, toOffset);
      d.pipeline.workgroupSize = workgroup;
      setVectorLoads(d, !interleaved && axisVectorizable(p, inOffset, outOffset));
      if (realigned) setRealign(d, p);
      setNodePaths(d);
      d.params.shape = levels;
      d.params.chunksPerLine = static_cast<uint32_t>(chunks);
      if (!interleaved && chunks > 1 && std::abs(p.inAxisStride) == 1) {
        d.params.flags |= VKSCAN_FLAG_LINE_MAJOR_CHUNKS;
      }
      d.pipeline.touchAhead = interleaved && touchesAhead(p);
      if (interleaved) {
        d.params.lineSize[0] /= static_cast<uint32_t>(lanes);
        d.params.inLineStride[0] *= static_cast<int64_t>(lanes);
        d.params.outLineStride[0] *= static_cast<int64_t>(lanes);
        d.params.lineCount /= static_cast<uint32_t>(lanes);
        d.pipeline.laneVectors = static_cast<uint32_t>(lanes / vectorElements(p.type));
        d.pipeline.rowsPerIteration = levels == kMaxChunkLevels ? 2 : 1;
        d.pipeline.scalarLanes = scalarLanes;
      }
      if (!scalarLanes) setWideVectors(d, p, inOffset, outOffset, interleaved);
      return d;
    };
    Dispatch scan = chunkDispatch(Stage::ChunkScan, Stage::ChunkScanInterleaved, out, outOffset);
    scan.pipeline.nodeBarrier = nodeBarriers;
    if (chunks == 1) {
      emit(scan, groups);
      return;
    }
    uint64_t auxBytes =
        alignUp(lines * chunks * dataTypeSize(accumulationType(p.type)), kScratchAlignment);
    plan_.scratchBytes = std::max(plan_.scratchBytes, scratchBase + auxBytes);

    Dispatch reduce =
        chunkDispatch(Stage::ChunkReduce, Stage::ChunkReduceInterleaved, BufferRole::None, 0);
    setAux(reduce, scratchBase);
    emit(reduce, groups);

    Problem carries = carryProblem(p, chunks, static_cast<int64_t>(lines), {lines, 1, 1});
    planPiece(carries, BufferRole::Scratch, scratchBase, BufferRole::Scratch, scratchBase,
              scratchBase + auxBytes);

    setAux(scan, scratchBase);
    emit(scan, groups);
  }

  // Lines of at most a node, back to back in both tensors: one flat line,
  // walked a few whole lines per invocation (kernels/chunk.glsl
  // scanSegments()). Returns false, planning nothing, for other shapes.
  bool planSegments(const Problem& p, BufferRole in, uint64_t inOffset, BufferRole out,
                    uint64_t outOffset) {
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
    if (!axisVectorizable(flat, inOffset, outOffset)) return false;
    Dispatch d = makeDispatch(Stage::ChunkScan, flat, in, inOffset, out, outOffset);
    uint32_t length32 = static_cast<uint32_t>(p.axisLen);
    uint64_t invocations = ceilDiv(flat.axisLen, segmentNodes(length32) * kNode);
    d.pipeline.workgroupSize = chunkWorkgroup(invocations, true);
    d.pipeline.segmentLength = length32;
    setVectorLoads(d, true);
    setWideVectors(d, flat, inOffset, outOffset, false);
    setNodePaths(d);
    d.params.shape = 1;
    emit(d, ceilDiv(invocations, d.pipeline.workgroupSize));
    return true;
  }

  bool touchesAhead(const Problem& p) const {
    uint64_t threshold = tuning_.chunkTouchAheadStrideBytes;
    uint64_t stride =
        static_cast<uint64_t>(std::max(std::abs(p.inAxisStride), std::abs(p.outAxisStride)));
    return threshold != 0 && stride * dataTypeSize(p.type) >= threshold;
  }

  // The tuned workgroup size: wide for many invocations; with `spread`, for
  // few a subgroup's worth, so that they still spread over all of a CPU
  // device's workers (llvmpipe pays per workgroup, which makes small ones
  // slow on large problems).
  uint32_t chunkWorkgroup(uint64_t invocations, bool spread) const {
    if (invocations >= tuning_.chunkWideWorkgroupInvocations) {
      return tuning_.chunkWideWorkgroupSize;
    }
    if (spread && invocations < tuning_.chunkTargetInvocations) return subgroupWorkgroup();
    return tuning_.chunkWorkgroupSize;
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

  // Whether workgroups of the usual size would be fewer than a CPU device's
  // workers (unknown on GPUs, where nothing is predicted).
  bool leavesWorkersIdle(uint64_t invocations) const {
    return ceilDiv(invocations, tuning_.chunkWorkgroupSize) < tuning_.cpuWorkers;
  }

  // Invocations that keep a CPU device busy with walks that pay for a head
  // and a tail in each chunk (realigned walks): two subgroups per worker
  // thread, twice Tuning::wholeLineInvocations; on a GPU, or where the
  // threads are unknown, chunkTargetInvocations as for those. Saturated, so
  // that a wholeLineInvocations of UINT64_MAX (the tests' way to walk no
  // line whole) stays that.
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

  uint32_t subgroupWorkgroup() const {
    return std::max<uint32_t>(1, std::min(tuning_.chunkWorkgroupSize, limits_.subgroupSize));
  }

  // Tiles in each block of workgroups that a CPU device's worker takes
  // (Tuning::cpuWorkers), for the look-back pass to walk lines last first
  // within it (kernels/chunk_lookback.comp lineAndTile()); 0 where no blocks
  // are predicted, or blocks of one workgroup, which run side by side.
  uint32_t lookbackBlock(uint64_t slots, uint32_t workgroup) const {
    uint64_t workers = tuning_.cpuWorkers;
    if (workers < 2) return 0;
    uint64_t block = ceilDiv(slots, workgroup) / workers;
    return block < 2 ? 0 : static_cast<uint32_t>(block * workgroup);
  }

  // Lines of at most 16 tiles, so that a tile's carry is the serial sum of
  // the earlier tiles' totals (the line's root node has the identity carry).
  // Lines off vectors walk realigned, as in three passes: measured on
  // lavapipe, FLOAT32, ratio to the copy roof, 50257 elements decreasing
  // (off vectors from the last element) 0.33-0.35 an element at a time
  // against 0.50-0.52; [2, 50257] along axis 1 0.42 in three realigned
  // passes against 0.49, [3, 40001] 0.40-0.41 against 0.52.
  void planLookback(const Problem& p, BufferRole in, uint64_t inOffset, BufferRole out,
                    uint64_t outOffset, uint64_t scratchBase, uint64_t tiles) {
    uint64_t slots = p.lineCount() * tiles;
    uint64_t valueBytes = lookbackScratchBytes(slots, dataTypeSize(accumulationType(p.type)));
    plan_.scratchBytes =
        std::max(plan_.scratchBytes, scratchBase + alignUp(valueBytes, kScratchAlignment));
    Dispatch d = makeDispatch(Stage::ChunkLookback, p, in, inOffset, out, outOffset);
    // A subgroup per workgroup: llvmpipe (Mesa 22.3) runs the in-place
    // pipeline's memoryBarrierBuffer() as a workgroup execution barrier, and
    // in a workgroup of several subgroups, which reach different numbers of
    // them (the look-back is data-dependent), later subgroups stopped
    // without writing their outputs.
    uint32_t workgroup = subgroupWorkgroup();
    d.pipeline.workgroupSize = workgroup;
    setVectorLoads(d, axisVectorizable(p, inOffset, outOffset));
    if (walksRealigned(p, inOffset, outOffset)) setRealign(d, p);
    setWideVectors(d, p, inOffset, outOffset, false);
    setNodePaths(d);
    d.params.shape = kLookbackTileLevels;
    d.params.chunksPerLine = static_cast<uint32_t>(tiles);
    d.params.lookbackBlock = lookbackBlock(slots, workgroup);
    setAux(d, scratchBase);
    d.pipeline.lookbackPolls = tuning_.lookbackPolls;
    d.clearByteOffset = scratchBase;
    d.clearBytes = valueBytes;
    d.clearWord = kLookbackUnpublished;
    emit(d, ceilDiv(slots, workgroup));
  }

  const PlanLimits& limits_;
  Tuning tuning_;
  Plan& plan_;
};

// Storage-buffer kernels index each binding with 32-bit element offsets and
// are bound from the binding's offset rounded down to
// minStorageBufferOffsetAlignment. Binding offsets are multiples of
// kBindingAlignment, so that lead is at most the alignment less
// kBindingAlignment (none where the alignment divides it, as on lavapipe):
// with it, every tensor (its DML total bytes, whole words) must fit both
// maxStorageBufferRange and 2^31 bytes.
bool fitsStorageBuffers(const Problem& problem, uint64_t scratchBytes, const PlanLimits& limits) {
  if (!limits.pushDescriptor) return false;
  uint64_t range = std::min<uint64_t>(limits.maxStorageBufferRange, uint64_t{1} << 31);
  uint64_t alignment = std::max<uint64_t>(limits.minStorageBufferOffsetAlignment, 1);
  uint64_t lead = alignment > kBindingAlignment ? alignment - kBindingAlignment : 0;
  if (lead > range) return false;
  for (uint64_t bytes : {problem.inputBytes, problem.outputBytes, scratchBytes}) {
    if (bytes > range - lead) return false;
  }
  return true;
}

// Pieces made for line dimensions past the third, saturating.
uint64_t pieceCount(const Problem& p) {
  uint64_t count = 1;
  for (size_t i = 3; i < p.lines.size(); ++i) {
    count = p.lines[i].size > kMaxPieces ? kMaxPieces + 1 : count * p.lines[i].size;
    count = std::min(count, kMaxPieces + 1);
  }
  return count;
}

// What the kernels can index in one dispatch: at most three line dimensions
// (the push constants hold three) and at most 2^31 lines.
bool isPiece(const Problem& p) {
  return p.lines.size() <= 3 && p.lineCount() <= kMaxLinesPerDispatch;
}

// Splitting to keep each dispatch under 2^31 lines adds pieces too; every
// piece goes through here, so their number stays bounded whatever made them.
void addPiece(const Problem& piece, std::vector<Problem>& pieces) {
  if (pieces.size() == kMaxPieces) {
    throw InvalidArgument("input.sizes", "the tensor needs more than " +
                                             std::to_string(kMaxPieces) +
                                             " dispatches of at most 2^31 lines each");
  }
  pieces.push_back(piece);
}

// Splits a problem into pieces (isPiece()). Pieces run one after another
// and reuse the same scratch.
void splitIntoPieces(const Problem& p, std::vector<Problem>& pieces) {
  auto peelOutermost = [&](const Problem& whole) {
    LineDim outer = whole.lines.back();
    Problem piece = whole;
    piece.lines.pop_back();
    for (uint64_t i = 0; i < outer.size; ++i) {
      piece.inBase = whole.inBase + static_cast<int64_t>(i) * outer.inStride;
      piece.outBase = whole.outBase + static_cast<int64_t>(i) * outer.outStride;
      splitIntoPieces(piece, pieces);
    }
  };
  if (p.lines.size() > 3) {
    peelOutermost(p);
    return;
  }
  if (isPiece(p)) {
    addPiece(p, pieces);
    return;
  }
  uint64_t lines = p.lineCount();
  LineDim outer = p.lines.back();
  uint64_t inner = lines / outer.size;
  if (inner > kMaxLinesPerDispatch) {
    peelOutermost(p);
    return;
  }
  uint64_t range = kMaxLinesPerDispatch / inner;
  for (uint64_t start = 0; start < outer.size; start += range) {
    Problem piece = p;
    piece.lines.back().size = std::min(range, outer.size - start);
    piece.inBase = p.inBase + static_cast<int64_t>(start) * outer.inStride;
    piece.outBase = p.outBase + static_cast<int64_t>(start) * outer.outStride;
    addPiece(piece, pieces);
  }
}

}  // namespace

const char* stageName(Stage stage) noexcept {
  switch (stage) {
    case Stage::RowsReduce:
      return "rows_reduce";
    case Stage::RowsScan:
      return "rows_scan";
    case Stage::ChunkReduce:
      return "chunk_reduce";
    case Stage::ChunkScan:
      return "chunk_scan";
    case Stage::ChunkReduceInterleaved:
      return "chunk_reduce_interleaved";
    case Stage::ChunkScanInterleaved:
      return "chunk_scan_interleaved";
    case Stage::ChunkReduceRealigned:
      return "chunk_reduce_realigned";
    case Stage::ChunkScanRealigned:
      return "chunk_scan_realigned";
    case Stage::ChunkLookback:
      return "chunk_lookback";
    case Stage::ChunkLookbackRealigned:
      return "chunk_lookback_realigned";
  }
  return "unknown";
}

namespace {

auto tied(const PipelineKey& k) {
  return std::tie(k.stage, k.type, k.exclusive, k.vectorLoads, k.reverse, k.wideVectors,
                  k.partialNodes, k.fullNodes, k.lineDims, k.chunked, k.laneVectors, k.scalarLanes,
                  k.lookbackPolls, k.inPlace, k.touchAhead, k.rowsPerIteration, k.nodeBarrier,
                  k.segmentLength, k.workgroupSize, k.storageBuffers, k.texelInput);
}

auto tied(const PlanLimits& l) {
  return std::tie(l.subgroupSize, l.maxWorkgroupInvocations, l.maxWorkgroupCountX,
                  l.maxWorkgroupCountY, l.pushDescriptor, l.maxStorageBufferRange,
                  l.minStorageBufferOffsetAlignment);
}

}  // namespace

bool PipelineKey::operator==(const PipelineKey& o) const noexcept {
  return tied(*this) == tied(o);
}

bool PlanLimits::operator==(const PlanLimits& o) const noexcept {
  return tied(*this) == tied(o);
}

size_t PipelineKeyHash::operator()(const PipelineKey& key) const noexcept {
  // FNV-1a a field at a time: every field, so equal keys hash equal.
  uint64_t hash = 0xcbf29ce484222325u;
  std::apply(
      [&hash](const auto&... field) {
        ((hash = (hash ^ static_cast<uint64_t>(field)) * 0x100000001b3u), ...);
      },
      tied(key));
  return static_cast<size_t>(hash);
}

Plan makePlan(const Problem& problem, const PlanLimits& limits, const Tuning& tuning) {
  Plan plan;
  if (problem.empty) return plan;
  if (problem.axisLen > UINT32_MAX) {
    throw InvalidArgument("input.sizes",
                          "axis length " + std::to_string(problem.axisLen) + " exceeds 2^32 - 1");
  }
  uint64_t pieces = pieceCount(problem);
  if (pieces > kMaxPieces) {
    throw InvalidArgument("input.strides",
                          "the layout has more than three dimensions that cannot be merged, whose "
                          "outer extents need " +
                              std::to_string(pieces) + " separate dispatches (limit " +
                              std::to_string(kMaxPieces) + ")");
  }
  Planner planner(limits, tuning, plan);
  if (isPiece(problem)) {
    planner.planPiece(problem, BufferRole::Input, 0, BufferRole::Output, 0, 0);
  } else {
    std::vector<Problem> split;
    splitIntoPieces(problem, split);
    for (const Problem& piece : split) {
      planner.planPiece(piece, BufferRole::Input, 0, BufferRole::Output, 0, 0);
    }
  }
  if (fitsStorageBuffers(problem, plan.scratchBytes, limits)) {
    for (Dispatch& dispatch : plan.dispatches) {
      dispatch.pipeline.storageBuffers = isChunkStage(dispatch.pipeline.stage);
    }
  }
  return plan;
}

}  // namespace vkscan::detail
