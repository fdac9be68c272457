#include "plan_invariants.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace vkscan::test {

using detail::BufferRole;
using detail::Dispatch;
using detail::Exclusivity;
using detail::ScanParams;
using detail::Stage;

namespace {

bool isScan(Stage stage) {
  return stage == Stage::RowsScan || stage == Stage::ChunkScan ||
         stage == Stage::ChunkScanInterleaved || stage == Stage::ChunkScanRealigned ||
         detail::looksBack(stage);
}
bool isRows(Stage stage) {
  return stage == Stage::RowsScan || stage == Stage::RowsOnePass;
}
bool isInterleaved(Stage stage) {
  return stage == Stage::ChunkReduceInterleaved || stage == Stage::ChunkScanInterleaved;
}
bool isRealigned(Stage stage) {
  return stage == Stage::ChunkReduceRealigned || stage == Stage::ChunkScanRealigned ||
         stage == Stage::ChunkLookbackRealigned;
}
bool isReduce(Stage stage) {
  return stage == Stage::ChunkReduce || stage == Stage::ChunkReduceInterleaved ||
         stage == Stage::ChunkReduceRealigned;
}
int64_t vectorElements(DataType type) {
  return dataTypeSize(type) == 8 ? 2 : 4;
}

// Lowest and highest element offset (from the dispatch's base) that
// `lineSize`, the line strides and the axis can reach, `lanes` adjacent
// lines per line index.
void extent(const ScanParams& p, bool input, int64_t lanes, int64_t& low, int64_t& high) {
  low = 0;
  high = lanes - 1;
  auto add = [&](int64_t count, int64_t stride) {
    int64_t reach = (count - 1) * stride;
    (reach < 0 ? low : high) += reach;
  };
  add(p.axisLen, input ? p.inAxisStride : p.outAxisStride);
  for (int i = 0; i < 3; ++i) add(p.lineSize[i], input ? p.inLineStride[i] : p.outLineStride[i]);
}

class Checker {
 public:
  Checker(const CumulativeSummationDesc& desc, const detail::Plan& plan,
          const detail::PlanLimits& limits)
      : desc_(desc), plan_(plan), limits_(limits) {}

  // ScanDesc::carryIn and totals: their bytes, 0 where not bound.
  void setLines(uint64_t carryBytes, uint64_t totalsBytes) {
    carryBytes_ = carryBytes;
    totalsBytes_ = totalsBytes;
  }

  std::vector<std::string> run() {
    uint64_t elements = desc_.input.elementCount();
    expect((elements == 0) == plan_.dispatches.empty(), "(elements == 0) == dispatches.empty()");
    expect(plan_.scratchBytes % 16 == 0, "scratchBytes % 16 == 0");
    if (plan_.dispatches.empty()) return broken_;
    const Dispatch& last = plan_.dispatches.back();
    expect(isScan(last.pipeline.stage), "the last dispatch scans");
    bool totalsCopied = totalsBytes_ > 0 && !last.pipeline.lineTotals;
    expect(last.out == (totalsCopied ? BufferRole::Totals : BufferRole::Output),
           "the last dispatch writes the output (the totals where bound, or it writes them)");
    // Scratch O(elements / 16): a line of L elements split into chunks of
    // c >= 16 has ceil(L / c) < 2 L / c of them, so each level holds under
    // an eighth of the values below it, and all levels under a seventh (the
    // fuzzer found [33, 33, 33] along a strided axis: 3 chunks of 16 for 33
    // elements, more than a fifteenth).
    uint64_t accSize = dataTypeSize(detail::accumulationType(desc_.output.dataType));
    // Plus, with a carry-in or totals, a value a line for each.
    uint64_t axisLen = desc_.input.sizes.empty() ? 0 : desc_.input.sizes[desc_.axis];
    uint64_t lineValues = axisLen == 0 ? 0 : 2 * (elements / axisLen);
    if (carryBytes_ == 0 && totalsBytes_ == 0) lineValues = 0;
    expect(plan_.scratchBytes <=
               (elements * accSize / 7 + lineValues * accSize) + 64 * plan_.dispatches.size(),
           "scratchBytes <= elements * accSize / 7 + 64 * dispatches");
    for (size_t i = 0; i < plan_.dispatches.size(); ++i) {
      where_ = "dispatch " + std::to_string(i) + " (" +
               detail::stageName(plan_.dispatches[i].pipeline.stage) + "): ";
      checkDispatch(plan_.dispatches[i]);
    }
    where_ = "plan: ";
    checkOutputCovered(elements);
    return broken_;
  }

 private:
  void expect(bool condition, const std::string& what) {
    if (!condition) broken_.push_back(where_ + what);
  }

  void checkDispatch(const Dispatch& d) {
    const ScanParams& p = d.params;
    Stage stage = d.pipeline.stage;
    uint64_t wg = d.pipeline.workgroupSize;
    uint64_t groups = uint64_t{d.groupsX} * d.groupsY;
    uint64_t chunks = p.chunksPerLine;
    uint64_t lines = p.lineCount;
    expect(d.groupsX >= 1 && d.groupsX <= limits_.maxWorkgroupCountX, "groupsX within limits");
    expect(d.groupsY >= 1 && d.groupsY <= limits_.maxWorkgroupCountY, "groupsY within limits");
    expect(p.groupsX == d.groupsX, "params.groupsX == groupsX");
    expect(wg >= 1 && wg <= limits_.maxWorkgroupInvocations, "workgroup size within limits");
    expect(groups * wg <= UINT32_MAX, "invocations fit 32 bits");
    expect(lines >= 1 && chunks >= 1 && p.axisLen >= 1, "lines, chunks and axis not empty");
    expect(uint64_t{p.lineSize[0]} * p.lineSize[1] * p.lineSize[2] == lines,
           "lineSize product == lineCount");
    // Line dimensions the kernel does not decode must be absent.
    expect(d.pipeline.lineDims >= 1 && d.pipeline.lineDims <= 3, "lineDims 1 to 3");
    expect(d.pipeline.lineDims >= 3 || p.lineSize[2] == 1, "lineSize[2] == 1 below 3 dims");
    expect(d.pipeline.lineDims >= 2 || p.lineSize[1] == 1, "lineSize[1] == 1 below 2 dims");
    if (stage == Stage::Widen) {
      checkWiden(d, groups);
      return;
    }
    expect(!plan_.scansOutputInPlace || d.in != BufferRole::Input,
           "after a widening copy, passes read the output");
    if (isRows(stage)) {
      checkRows(d, groups);
    } else if (stage == Stage::ColumnsOnePass) {
      checkColumns(d, groups);
    } else {
      checkChunks(d, groups);
    }
    checkBindings(d);
    checkVectors(d);
    checkLookback(d);
    // Touching ahead is for interleaved walks only, and the flag that keeps
    // the touched words alive must never be set (it stores them).
    expect(!d.pipeline.touchAhead || isInterleaved(stage), "only interleaved walks touch ahead");
    expect(!d.pipeline.stagedNodes || isRows(stage), "staged nodes only in rows stages");
    expect((p.flags & VKSCAN_FLAG_NEVER_SET) == 0, "the never-set flag is clear");
    expect((p.flags & VKSCAN_FLAG_LINES_FASTEST) == 0 ||
               (stage == Stage::RowsOnePass && p.lineCount > 1),
           "tiles across lines first only in a rows one pass of several lines");
    // Exclusivity compiled in agrees with the flag the other kernels read.
    bool flagged = (p.flags & VKSCAN_FLAG_EXCLUSIVE) != 0u;
    expect(d.pipeline.exclusive == Exclusivity::FromFlags ||
               (d.pipeline.exclusive == Exclusivity::Exclusive) == flagged,
           "a compiled-in exclusivity matches the exclusive flag");
    expect(isScan(stage) || (d.pipeline.exclusive == Exclusivity::Inclusive && !flagged),
           "only scan stages are exclusive");
    // A workgroup barrier needs every invocation to meet it as often: whole
    // lines, whose walks all have the same nodes, and no workgroup partly
    // idle (chunk_scan.comp returns before the walk for idle invocations).
    expect(
        !d.pipeline.nodeBarrier || (stage == Stage::ChunkScanInterleaved && p.chunksPerLine == 1),
        "node barriers only in interleaved scans of whole lines");
    expect(!d.pipeline.nodeBarrier || (lines * chunks) % wg == 0,
           "node barriers only where no workgroup is partly idle");
  }

  // The widening copy: first, from the input's type to the output's (twice
  // its size), an invocation per element in p.chunksPerLine rounds.
  void checkWiden(const Dispatch& d, uint64_t groups) {
    const ScanParams& p = d.params;
    expect(plan_.scansOutputInPlace, "a widening copy only where the scan reads the output");
    expect(d.pipeline.type == desc_.input.dataType, "the copy reads the input's type");
    expect(outputTypeWidens(desc_.input.dataType, desc_.output.dataType),
           "the output's type widens the input's");
    expect(2 * dataTypeSize(d.pipeline.type) == dataTypeSize(desc_.output.dataType),
           "the output's elements twice the input's");
    expect(d.in == BufferRole::Input && d.out == BufferRole::Output, "input to output");
    expect(p.chunksPerLine <= 65535, "rounds within lavapipe's loop cap");
    expect(groups * d.pipeline.workgroupSize * p.chunksPerLine >= uint64_t{p.lineCount} * p.axisLen,
           "every element has an invocation");
    checkRange(d, d.in, d.inByteOffset, true);
    checkRange(d, d.out, d.outByteOffset, false, 2);
  }

  void checkRows(const Dispatch& d, uint64_t groups) {
    const ScanParams& p = d.params;
    uint64_t wg = d.pipeline.workgroupSize;
    expect(wg == 16 || wg == 256, "rows workgroup of 16 or 256");
    expect((uint64_t{1} << p.shape) <= wg, "rows segment within the workgroup");
    uint64_t linesPerGroup = wg >> p.shape;
    uint64_t tile = wg * 16;
    if (p.chunksPerLine == 1) {
      expect(p.axisLen <= tile, "a one-tile line fits the tile");
      expect((uint64_t{16} << p.shape) >= p.axisLen, "the segment covers the line");
      expect(groups * linesPerGroup >= p.lineCount, "every line has a segment");
      expect((groups - d.groupsY) * linesPerGroup < p.lineCount, "idle groups: grid padding only");
    } else {
      expect(linesPerGroup == 1, "a tiled line fills the workgroup");
      expect(groups >= uint64_t{p.lineCount} * p.chunksPerLine, "every tile has a workgroup");
      expect(uint64_t{p.chunksPerLine} * tile >= p.axisLen, "the tiles cover the line");
      expect((uint64_t{p.chunksPerLine} - 1) * tile < p.axisLen, "no empty tile");
      expect(d.pipeline.stage == Stage::RowsOnePass, "tiled lines in one pass");
    }
    // A staged tile (kernels/rows.glsl sStage) moves along one contiguous
    // direction and fits the device's shared memory with the rest; a rows
    // scan stages only lines of whole vectors or of a node or more that fill
    // a subgroup's nodes, or packed lines, back to back in input and output
    // (VKSCAN_FLAG_PACKED_LINES).
    bool packed = (p.flags & VKSCAN_FLAG_PACKED_LINES) != 0u;
    if (packed) {
      expect(d.pipeline.stagedNodes && p.chunksPerLine == 1, "packed lines only staged, whole");
      int64_t next = p.axisLen;
      for (int i = 0; i < 3; ++i) {
        if (p.lineSize[i] <= 1) continue;
        expect(p.inLineStride[i] == next && p.outLineStride[i] == next,
               "packed lines lie back to back");
        next *= p.lineSize[i];
      }
      expect(p.inAxisStride == p.outAxisStride, "packed lines share a direction");
    }
    // Along a strided axis a staged tile moves in traversal order instead,
    // element by element, each segment inside one line.
    bool alongAxis = (p.flags & VKSCAN_FLAG_STAGED_ALONG_AXIS) != 0u;
    expect(!alongAxis || d.pipeline.stagedNodes, "staged along the axis only where staged");
    if (alongAxis) {
      expect(std::abs(p.inAxisStride) != 1, "staged along the axis: a strided axis");
      expect(!packed && !d.pipeline.vectorLoads && !d.pipeline.reverse,
             "staged along the axis: no packed lines, vectors or memory order");
      expect((uint64_t{1} << p.shape) >= std::min<uint64_t>(limits_.subgroupSize, wg),
             "staged along the axis: a segment inside one line");
    }
    if (d.pipeline.stagedNodes) {
      uint64_t accSize = dataTypeSize(detail::accumulationType(d.pipeline.type));
      expect(alongAxis || (p.inAxisStride == p.outAxisStride && std::abs(p.inAxisStride) == 1),
             "staged nodes: one contiguous direction");
      expect(tile * accSize + 4096 <= limits_.maxSharedMemoryBytes,
             "a staged tile fits shared memory");
      if (p.chunksPerLine == 1) {
        uint64_t vector = static_cast<uint64_t>(vectorElements(d.pipeline.type));
        expect((d.pipeline.vectorLoads && p.axisLen % vector == 0) || p.axisLen >= 16,
               "staged lines are whole vectors or a node long");
        expect((p.shape == 0 || p.axisLen > (uint64_t{8} << p.shape)) &&
                   p.axisLen <= (uint64_t{16} << p.shape),
               "a staged line's segment is its nodes");
        expect(packed || (uint64_t{1} << p.shape) >= std::min<uint64_t>(limits_.subgroupSize, wg),
               "staged lines fill a subgroup or are packed");
      }
    }
  }

  // kernels/columns_onepass.comp: a sixteenth of the workgroup (of 64, 128
  // or 256) lanes of lines by 256 elements, lines in whole vectors of the contiguous inner
  // dimension, or lanes built element by element from lines of any layout, as few as the tuning
  // takes (Tuning::columnsScalarLines; the kernel leaves empty lanes idle).
  void checkColumns(const Dispatch& d, uint64_t groups) {
    const ScanParams& p = d.params;
    uint64_t vector = static_cast<uint64_t>(vectorElements(d.pipeline.type));
    uint64_t wg = d.pipeline.workgroupSize;
    expect(wg == 64 || wg == 128 || wg == 256, "columns workgroup of 64, 128 or 256");
    expect(wg <= limits_.maxWorkgroupInvocations, "columns workgroup within the device's");
    // A lane spans 1 << shape nodes: a tile's 16, or where the tile is the
    // line, the nodes the line fills.
    expect(p.shape <= 4, "a lane spans at most 16 nodes");
    expect(p.chunksPerLine == 1 || p.shape == 4, "lines of several tiles: lanes of 16 nodes");
    expect(p.chunksPerLine > 1 || (p.axisLen <= (uint64_t{16} << p.shape) &&
                                   (p.shape == 0 || p.axisLen > (uint64_t{8} << p.shape))),
           "a tile that is the line: the nodes it fills");
    uint64_t lanes = (p.lineCount + vector - 1) / vector;
    uint64_t lanesPerGroup = wg >> p.shape;
    expect(groups >= (lanes + lanesPerGroup - 1) / lanesPerGroup * p.chunksPerLine,
           "every column tile has a workgroup");
    expect(uint64_t{p.chunksPerLine} * 256 >= p.axisLen, "the tiles cover the line");
    expect((uint64_t{p.chunksPerLine} - 1) * 256 < p.axisLen, "no empty tile");
    if (d.pipeline.scalarLanes) {
      expect(p.lineCount >= 1, "columns in scalar lanes: a line at least");
      return;
    }
    expect(p.lineSize[0] % vector == 0, "columns in whole vectors");
    expect(p.inLineStride[0] == 1 && p.outLineStride[0] == 1, "columns contiguous inside");
    // Each lane's vector, at every step along the axis, on whole vectors.
    auto aligned = [&](int64_t axisStride, uint64_t byteOffset, const int64_t* lineStrides) {
      bool on = axisStride % static_cast<int64_t>(vector) == 0 &&
                byteOffset % (vector * dataTypeSize(d.pipeline.type)) == 0;
      for (int i = 1; i < 3; ++i) {
        on = on && (p.lineSize[i] == 1 || lineStrides[i] % static_cast<int64_t>(vector) == 0);
      }
      return on;
    };
    expect(aligned(p.inAxisStride, d.inByteOffset, p.inLineStride), "columns: input on vectors");
    expect(aligned(p.outAxisStride, d.outByteOffset, p.outLineStride),
           "columns: output on vectors");
  }

  void checkChunks(const Dispatch& d, uint64_t groups) {
    const ScanParams& p = d.params;
    uint64_t chunks = p.chunksPerLine;
    // gid = flatWorkgroupIndex() * wg + local id < lineCount * chunksPerLine,
    // all in 32 bits.
    expect(uint64_t{p.lineCount} * chunks < (uint64_t{1} << 32), "lines * chunks fit 32 bits");
    expect(groups * d.pipeline.workgroupSize >= uint64_t{p.lineCount} * chunks,
           "every chunk has an invocation");
    uint32_t segment = d.pipeline.segmentLength;
    if (segment != 0) {
      checkSegments(d, groups);
      return;
    }
    // Level 5 only for a whole line in a plain walk, two nodes per loop
    // iteration (kernels/chunk.glsl).
    bool plainWalk = !isInterleaved(d.pipeline.stage) && !isRealigned(d.pipeline.stage);
    uint32_t maxShape = plainWalk && chunks == 1 ? 5 : 4;
    expect(p.shape >= 1 && p.shape <= maxShape, "chunk shape 1 to 4, 5 for whole plain lines");
    if (p.shape < 1 || p.shape > maxShape) return;
    uint64_t chunk = uint64_t{1} << (4 * p.shape);
    expect(chunks * chunk >= p.axisLen, "the chunks cover the line");
    expect((chunks - 1) * chunk < p.axisLen, "no empty chunk");
    // Without the partial-node path compiled in, every node must be full;
    // without the chunk decoding, a line is one chunk.
    expect(d.pipeline.partialNodes || p.axisLen % 16 == 0, "partial nodes compiled in");
    expect(d.pipeline.chunked || chunks == 1, "chunk decoding compiled in");
    // The scan loads its carry only where chunks are decoded (chunk_scan.comp).
    if (d.pipeline.stage == Stage::ChunkScan || d.pipeline.stage == Stage::ChunkScanInterleaved ||
        d.pipeline.stage == Stage::ChunkScanRealigned) {
      expect(d.hasAux == d.pipeline.chunked, "a chunk scan has aux exactly when chunked");
    }
    uint32_t rows = d.pipeline.rowsPerIteration;
    expect(rows == 1 || rows == 2, "rowsPerIteration 1 or 2");
    if (isInterleaved(d.pipeline.stage)) {
      expect(d.pipeline.laneVectors == 1 || d.pipeline.laneVectors == 4, "laneVectors 1 or 4");
    }
    // lavapipe stops an invocation silently after 65,535 passes through loop
    // bodies, counting the pass that leaves each loop: a walk loops over its
    // chunk's nodes (a plain walk two at a time, then the one left over),
    // an interleaved one over each node's rows as well.
    uint64_t nodes = chunk / 16;
    uint64_t nodePasses = plainWalk ? nodes / 2 + 1 + 2 : nodes + 1;
    uint64_t rowPasses = isInterleaved(d.pipeline.stage) && rows != 0 ? nodes * (16 / rows + 1) : 0;
    expect(nodePasses + rowPasses <= 65535, "a walk within lavapipe's loop cap");
  }

  // One flat line of lines of `segment` elements, each invocation walking the
  // fewest whole nodes that hold whole lines (lcm(16, segment) / 16, at least
  // two): far below lavapipe's loop cap.
  void checkSegments(const Dispatch& d, uint64_t groups) {
    const ScanParams& p = d.params;
    uint32_t segment = d.pipeline.segmentLength;
    expect(segment <= 16, "segmentLength 1 to 16");
    expect(d.pipeline.stage == Stage::ChunkScan, "segments in the plain chunk scan");
    expect(p.lineCount == 1 && p.chunksPerLine == 1 && !d.pipeline.chunked, "one flat line");
    expect(p.axisLen % segment == 0, "whole lines");
    expect(d.pipeline.vectorLoads && std::abs(p.inAxisStride) == 1, "contiguous vector nodes");
    uint64_t nodes = detail::segmentNodes(segment);
    expect(nodes <= 16, "a walk of at most 16 nodes");
    expect(groups * d.pipeline.workgroupSize * nodes * 16 >= p.axisLen, "every node has a walk");
    expect(d.pipeline.partialNodes || p.axisLen % 16 == 0, "partial nodes compiled in");
    expect(!d.hasAux, "no carries");
  }

  // The dispatches that write the output (pieces of a split plan, lane
  // groups and the lines left over) write as many elements as the tensor
  // holds, each from a base of its own: a piece dropped, doubled or given
  // another's base breaks one of the two. Each dispatch's own reach is
  // checkBindings()'.
  void checkOutputCovered(uint64_t elements) {
    uint64_t written = 0;
    std::vector<uint64_t> bases;
    uint64_t copied = 0;
    for (const Dispatch& d : plan_.dispatches) {
      if (d.pipeline.stage == Stage::Widen) {
        copied += uint64_t{d.params.lineCount} * d.params.axisLen;
        continue;
      }
      if (d.out != BufferRole::Output) continue;
      written += uint64_t{d.params.lineCount} * d.params.axisLen * uint64_t(lanes(d));
      bases.push_back(d.outByteOffset);
    }
    expect(written == elements, "the output dispatches write every element once (" +
                                    std::to_string(written) + " of " + std::to_string(elements) +
                                    ")");
    expect(copied == (plan_.scansOutputInPlace ? elements : 0),
           "a widening copy covers every element, or there is none");
    std::sort(bases.begin(), bases.end());
    expect(std::adjacent_find(bases.begin(), bases.end()) == bases.end(),
           "each output dispatch from a base of its own");
  }

  int64_t lanes(const Dispatch& d) const {
    if (!isInterleaved(d.pipeline.stage)) return 1;
    return vectorElements(d.pipeline.type) * d.pipeline.laneVectors;
  }

  // Every address inside its binding.
  // `scale`: the tensor's elements are that many times the pipeline type's.
  void checkRange(const Dispatch& d, BufferRole role, uint64_t byteOffset, bool input,
                  int64_t scale = 1) {
    int64_t size = scale * static_cast<int64_t>(dataTypeSize(d.pipeline.type));
    expect(role != BufferRole::None, "a bound tensor");
    expect(byteOffset % size == 0, "offset a whole element");
    int64_t low, high;
    extent(d.params, input, lanes(d), low, high);
    int64_t first = static_cast<int64_t>(byteOffset / size) + low;
    int64_t end = static_cast<int64_t>(byteOffset / size) + high + 1;
    uint64_t bound = role == BufferRole::Input     ? desc_.input.totalBytes()
                     : role == BufferRole::Output  ? desc_.output.totalBytes()
                     : role == BufferRole::CarryIn ? carryBytes_
                     : role == BufferRole::Totals  ? totalsBytes_
                                                   : plan_.scratchBytes;
    expect(role != BufferRole::CarryIn || carryBytes_ > 0, "reads a carry-in only where bound");
    expect(role != BufferRole::Totals || totalsBytes_ > 0, "writes totals only where bound");
    expect(role != BufferRole::CarryIn || input, "the carry-in is read only");
    expect(first >= 0, input ? "input reach from 0" : "output reach from 0");
    expect(static_cast<uint64_t>(end * size) <= bound,
           input ? "input reach within its binding" : "output reach within its binding");
    if (role == BufferRole::Scratch) {
      expect(d.pipeline.type == detail::accumulationType(d.pipeline.type),
             "scratch holds accumulators");
    }
  }

  void checkBindings(const Dispatch& d) {
    const ScanParams& p = d.params;
    checkRange(d, d.in, d.inByteOffset, true);
    expect(plan_.scansOutputInPlace || d.in != BufferRole::Output, "reads no output");
    if (isReduce(d.pipeline.stage)) {
      expect(d.out == BufferRole::None, "a reduce writes no tensor");
      expect(d.hasAux, "a reduce writes aux");
    } else {
      checkRange(d, d.out, d.outByteOffset, false);
      expect(d.out != BufferRole::Input, "writes no input");
    }
    bool lineCarries = d.pipeline.lineCarryIn || d.pipeline.lineTotals;
    bool onePassOrRows = isRows(d.pipeline.stage) || d.pipeline.stage == Stage::ColumnsOnePass;
    expect(!lineCarries || onePassOrRows, "line carries only in rows and columns stages");
    expect(!d.pipeline.lineCarryIn || carryBytes_ > 0, "a carry-in read only where one is bound");
    expect(!d.pipeline.lineTotals || totalsBytes_ > 0, "totals written only where bound");
    expect(onePassOrRows || !d.writesLineCarries, "a line carries' header only for rows kernels");
    if (onePassOrRows) {
      checkLineCarries(d);
    } else if (d.hasAux) {
      uint64_t accSize = dataTypeSize(detail::accumulationType(d.pipeline.type));
      uint64_t auxElements = uint64_t{p.lineCount} * p.chunksPerLine * lanes(d);
      // A carry-in or total of a line walked whole is its chunk's aux.
      bool lineValues = (carryBytes_ > 0 && d.pipeline.chunked) ||
                        (totalsBytes_ > 0 && isReduce(d.pipeline.stage));
      expect(p.chunksPerLine > 1 || lineValues, "aux only with chunks");
      expect(d.pipeline.chunked ==
                     (p.chunksPerLine > 1 || (lineValues && !isReduce(d.pipeline.stage))) ||
                 !detail::isChunkStage(d.pipeline.stage),
             "chunked where carries are loaded");
      expect(d.auxByteOffset % 16 == 0, "aux aligned");
      expect(d.auxByteOffset + auxElements * accSize <= plan_.scratchBytes, "aux within scratch");
    }
  }

  // The rows and columns kernels' aux: a one pass's look-back words, then the
  // line carries' header (kernels/line_carries.glsl), which points into the
  // carry-in and totals bindings: each line's value inside them.
  void checkLineCarries(const Dispatch& d) {
    bool onePass = looksBack(d);
    bool lineCarries = d.pipeline.lineCarryIn || d.pipeline.lineTotals;
    expect(d.hasAux == (onePass || lineCarries), "rows aux for the look-back or line carries");
    expect(d.writesLineCarries == lineCarries, "line carries come with their header");
    if (!d.hasAux) return;
    expect(d.auxByteOffset % 16 == 0, "aux aligned");
    if (!lineCarries) return;
    uint64_t start = onePass ? (d.clearBytes + 15) / 16 * 16 : 0;
    expect(d.lineCarriesByteOffset == d.auxByteOffset + start, "the header where the kernel looks");
    expect(d.lineCarriesByteOffset + detail::kLineCarriesHeaderBytes <= plan_.scratchBytes,
           "the header within scratch");
    uint64_t accSize = dataTypeSize(detail::accumulationType(d.pipeline.type));
    auto within = [&](int64_t base, const int64_t strides[3], uint64_t bytes, const char* what) {
      int64_t last = base;
      for (int i = 0; i < 3; ++i) {
        expect(strides[i] >= 0, std::string(what) + ": strides not negative");
        last += static_cast<int64_t>(d.params.lineSize[i] - 1) * strides[i];
      }
      expect(base >= 0 && static_cast<uint64_t>(last + 1) * accSize <= bytes,
             std::string(what) + ": every line's value within the binding");
    };
    if (d.pipeline.lineCarryIn) within(d.carryBase, d.carryStrides, carryBytes_, "carry-in");
    if (d.pipeline.lineTotals) within(d.totalsBase, d.totalsStrides, totalsBytes_, "totals");
  }

  // Vector accesses: aligned, given bindings aligned to 16 bytes; the vector
  // path reads nodes forwards or, with reverse, backwards. Wide units: every
  // node, or interleaved row, on 32 bytes of a binding that storage buffers
  // bind unrounded.
  void checkVectors(const Dispatch& d) {
    const ScanParams& p = d.params;
    Stage stage = d.pipeline.stage;
    int64_t size = static_cast<int64_t>(dataTypeSize(d.pipeline.type));
    int64_t vector = vectorElements(d.pipeline.type);
    int64_t unit = 32 / size;
    // Contiguous nodes: every line's first node starts on `step` elements
    // (backwards, its lowest address is its last traversal element's).
    auto nodesOn = [&](int64_t step, const std::string& what) {
      auto startsOn = [&](uint64_t byteOffset, int64_t axisStride) {
        int64_t start = static_cast<int64_t>(byteOffset) / size;
        return axisStride > 0 ? start % step == 0 : (start + 1) % step == 0;
      };
      for (int i = 0; i < 3; ++i) {
        expect(p.lineSize[i] == 1 || p.inLineStride[i] % step == 0, "input lines " + what);
        expect(p.lineSize[i] == 1 || isReduce(stage) || p.outLineStride[i] % step == 0,
               "output lines " + what);
      }
      expect(startsOn(d.inByteOffset, p.inAxisStride), "input nodes " + what);
      expect(isReduce(stage) || startsOn(d.outByteOffset, p.outAxisStride), "output nodes " + what);
    };
    // Interleaved lanes: every row of every line group starts on `step`.
    auto rowsOn = [&](int64_t step, const std::string& what) {
      auto check = [&](int64_t axisStride, uint64_t byteOffset, const int64_t* lineStrides,
                       const std::string& tensor) {
        expect(axisStride % step == 0, "interleaved " + tensor + " rows " + what);
        expect(static_cast<int64_t>(byteOffset / size) % step == 0,
               "interleaved " + tensor + " base " + what);
        for (int i = 0; i < 3; ++i) {
          expect(p.lineSize[i] == 1 || lineStrides[i] % step == 0,
                 "interleaved " + tensor + " lines " + what);
        }
      };
      check(p.inAxisStride, d.inByteOffset, p.inLineStride, "input");
      if (!isReduce(stage)) check(p.outAxisStride, d.outByteOffset, p.outLineStride, "output");
    };
    // Interleaved lanes of one vector on units: rows back to back, so that a
    // unit holds unit / vector of them, and every such group on a unit at
    // its lowest address (backwards, its last row's).
    auto rowGroupsOn = [&](int64_t step) {
      expect(p.inAxisStride == p.outAxisStride, "row units: equal axis strides");
      expect(std::abs(p.inAxisStride) == vector, "row units: rows of one vector, back to back");
      expect(d.pipeline.reverse == (p.inAxisStride < 0), "row units: reverse matches the sign");
      int64_t backwards = p.inAxisStride < 0 ? vector : 0;
      auto check = [&](uint64_t byteOffset, const int64_t* lineStrides, const std::string& tensor) {
        expect((static_cast<int64_t>(byteOffset) / size + backwards) % step == 0,
               "row units: " + tensor + " groups on units");
        for (int i = 0; i < 3; ++i) {
          expect(p.lineSize[i] == 1 || lineStrides[i] % step == 0,
                 "row units: " + tensor + " lines on units");
        }
      };
      check(d.inByteOffset, p.inLineStride, "input");
      if (!isReduce(stage)) check(d.outByteOffset, p.outLineStride, "output");
    };
    bool rowUnits = isInterleaved(stage) && d.pipeline.wideVectors && d.pipeline.laneVectors == 1;
    if (d.pipeline.vectorLoads) {
      expect(!isInterleaved(stage), "vector nodes are not interleaved");
      expect(p.inAxisStride == p.outAxisStride, "vector nodes: equal axis strides");
      expect(std::abs(p.inAxisStride) == 1, "vector nodes: a contiguous axis");
      expect(d.pipeline.reverse == (p.inAxisStride < 0), "reverse matches the stride's sign");
      nodesOn(vector, "aligned");
    } else if (isRealigned(stage)) {
      expect(p.inAxisStride == p.outAxisStride, "realigned nodes: equal axis strides");
      expect(std::abs(p.inAxisStride) == 1, "realigned nodes: a contiguous axis");
      expect(d.pipeline.reverse == (p.inAxisStride < 0), "realigned: reverse matches the sign");
    } else if (d.pipeline.stagedNodes) {
      // Staged along a strided axis, tiles move in traversal order.
      bool alongAxis = (p.flags & VKSCAN_FLAG_STAGED_ALONG_AXIS) != 0u;
      expect(d.pipeline.reverse == (!alongAxis && p.inAxisStride < 0),
             "staged: reverse matches the sign");
    } else if (!rowUnits) {
      expect(!d.pipeline.reverse,
             "reverse only with vector nodes, realigned nodes, staged nodes or row units");
    }
    if (d.pipeline.scalarLanes && stage != Stage::ColumnsOnePass) {
      expect(isInterleaved(stage), "scalar lanes only in interleaved walks and columns");
      expect(d.pipeline.laneVectors == 4, "scalar lanes: four vectors of lines");
      expect(!d.pipeline.wideVectors, "scalar lanes: no units");
    } else if (isInterleaved(stage)) {
      rowsOn(vector, "aligned");
    }
    if (d.pipeline.wideVectors) {
      expect(!isRows(stage), "wide units only in chunk stages");
      expect(16 % std::max<uint64_t>(limits_.minStorageBufferOffsetAlignment, 1) == 0,
             "wide units only where bindings are bound unrounded");
      if (rowUnits) {
        rowGroupsOn(unit);
      } else if (isInterleaved(stage)) {
        expect(d.pipeline.laneVectors == 4, "wide units: four vectors of lines, or rows of one");
        rowsOn(unit, "on units");
      } else {
        expect(d.pipeline.vectorLoads, "wide units only on vector nodes");
        nodesOn(unit, "on units");
      }
    }
  }

  // The look-back pass: one level-3 tile per invocation, at most 16 per line
  // (the carry is then a serial sum of tile totals), and its aux of
  // 2 x tiles values and a two-word collision record per tile, all filled
  // with the unpublished pattern before it.
  void checkLookback(const Dispatch& d) {
    const ScanParams& p = d.params;
    if (d.pipeline.stage == Stage::RowsOnePass || d.pipeline.stage == Stage::ColumnsOnePass) {
      checkOnePass(d);
      return;
    }
    if (!detail::isLookback(d.pipeline.stage)) {
      expect(d.clearBytes == 0, "only the look-back pass clears scratch");
      expect(p.lookbackBlock == 0, "only the look-back pass has blocks");
      return;
    }
    // lineAndTile() reverses lines within blocks of whole workgroups.
    expect(p.lookbackBlock % d.pipeline.workgroupSize == 0, "look-back blocks of whole workgroups");
    uint64_t accSize = dataTypeSize(detail::accumulationType(d.pipeline.type));
    uint64_t tiles = uint64_t{p.lineCount} * p.chunksPerLine;
    expect(p.shape == 3, "look-back tiles of 4096");
    expect(p.chunksPerLine <= 16, "look-back lines of at most 16 tiles");
    // lavapipe's loop cap (checkChunks) in the worst look-back: the last tile
    // of a line polls every earlier tile in vain and reduces each itself,
    // besides reducing and scanning its own (a pass per node, and one more
    // per loop), so the polls and the tiles per line must stay small.
    uint64_t tilePasses = 256 + 2;
    uint64_t earlier = p.chunksPerLine - 1;
    expect(earlier * (d.pipeline.lookbackPolls + 2 + tilePasses + 1) + 2 * tilePasses + 1 <= 65535,
           "look-back within lavapipe's loop cap");
    expect(d.hasAux, "look-back aux");
    expect(d.clearByteOffset == d.auxByteOffset, "look-back clears its aux");
    expect(d.clearBytes == tiles * (2 * accSize + 8),
           "look-back clears two values and a collision record per tile");
    expect(d.clearWord == detail::kLookbackUnpublished, "look-back clears to unpublished");
    expect(d.clearByteOffset + d.clearBytes <= plan_.scratchBytes, "look-back clear in scratch");
    expect(!d.pipeline.inPlace, "in-place chosen at record time");
  }

  // A one pass over lines of several tiles: columns of one tile have none.
  static bool looksBack(const Dispatch& d) {
    return d.pipeline.stage == Stage::RowsOnePass ||
           (d.pipeline.stage == Stage::ColumnsOnePass && d.params.chunksPerLine > 1);
  }

  // kernels/rows_onepass.comp: two values per node of each line's tree below
  // its root, a collision record per tile and the tile counter, all cleared.
  void checkOnePass(const Dispatch& d) {
    const ScanParams& p = d.params;
    expect(p.lookbackBlock == 0, "only the look-back pass has blocks");
    expect(!d.pipeline.inPlace, "in-place chosen at record time");
    if (!looksBack(d)) {
      expect(d.clearBytes == 0, "columns of one tile clear nothing");
      return;
    }
    uint64_t accWords = dataTypeSize(detail::accumulationType(d.pipeline.type)) / 4;
    uint64_t nodes = 0;
    for (uint64_t level = p.chunksPerLine; level > 1; level = (level + 15) / 16) nodes += level;
    uint64_t tiles = uint64_t{p.lineCount} * p.chunksPerLine;
    uint64_t words = 2 * p.lineCount * nodes * accWords + 2 * tiles + 1;
    if (d.pipeline.stage == Stage::RowsOnePass) {
      expect(p.chunksPerLine >= 2, "one pass for lines of several tiles");
      expect((uint64_t{1} << p.shape) == d.pipeline.workgroupSize, "one-pass segment: the tile");
    }
    expect(d.hasAux, "one-pass aux");
    expect(d.clearByteOffset == d.auxByteOffset, "one pass clears its aux");
    expect(d.clearBytes == 4 * words, "one pass clears values, collision records and counter");
    expect(words < (uint64_t{1} << 32), "one-pass words indexed in 32 bits");
    expect(d.clearWord == detail::kLookbackUnpublished, "one pass clears to unpublished");
    expect(d.clearByteOffset + d.clearBytes <= plan_.scratchBytes, "one-pass clear in scratch");
  }

  const CumulativeSummationDesc& desc_;
  uint64_t carryBytes_ = 0;
  uint64_t totalsBytes_ = 0;
  const detail::Plan& plan_;
  const detail::PlanLimits& limits_;
  std::string where_ = "plan: ";
  std::vector<std::string> broken_;
};

}  // namespace

std::vector<std::string> planViolations(const CumulativeSummationDesc& desc,
                                        const detail::Plan& plan,
                                        const detail::PlanLimits& limits) {
  return Checker(desc, plan, limits).run();
}

std::vector<std::string> planViolations(const ScanDesc& desc, const detail::Plan& plan,
                                        const detail::PlanLimits& limits) {
  CumulativeSummationDesc geometry{desc.input, desc.output, desc.axis, desc.axisDirection,
                                   desc.exclusive};
  Checker checker(geometry, plan, limits);
  checker.setLines(desc.carryIn.sizes.empty() ? 0 : desc.carryIn.totalBytes(),
                   desc.totals.sizes.empty() ? 0 : desc.totals.totalBytes());
  return checker.run();
}

}  // namespace vkscan::test
