#include "plan/traffic.hpp"

#include <algorithm>

#include "plan/planner.hpp"
#include "problem.hpp"

namespace vkscan::detail {
namespace {

size_t index(BufferRole role) {
  return static_cast<size_t>(role);
}

// Lines the dispatch covers: interleaved stages count lines in lanes of
// laneVectors vectors (Planner::walkChunks()).
uint64_t linesOf(const Dispatch& d) {
  uint64_t lines = d.params.lineCount;
  Stage stage = d.pipeline.stage;
  if (stage == Stage::ChunkReduceInterleaved || stage == Stage::ChunkScanInterleaved) {
    lines *=
        uint64_t{d.pipeline.laneVectors} * static_cast<uint64_t>(vectorElements(d.pipeline.type));
  }
  return lines;
}

bool isReduce(Stage stage) {
  return stage == Stage::ChunkReduce || stage == Stage::ChunkReduceInterleaved ||
         stage == Stage::ChunkReduceRealigned;
}

// Tiles of a line (0 to tiles - 1) whose ancestor at `level` has an earlier
// sibling: each reads that sibling's I there (lookback_tree.glsl).
uint64_t tilesWithSiblingsAt(uint64_t tiles, unsigned level) {
  uint64_t span = uint64_t{1} << (4 * level);  // tiles under one node
  uint64_t group = 16 * span;                  // under a node and its siblings
  uint64_t firsts = tiles / group * span + std::min(tiles % group, span);
  return tiles - firsts;
}

// The values a tile whose ancestor is sibling c of its group reads at that
// level in the workgroup look-back (lookback_workgroup.glsl): the V of the
// c earlier siblings and the nearest one's I.
uint64_t workgroupReads(uint64_t c) {
  return c == 0 ? 0 : c + 1;
}

// The sum of workgroupReads(c) for c = 0 .. m - 1.
uint64_t workgroupReadsBelow(uint64_t m) {
  return m == 0 ? 0 : m * (m - 1) / 2 + (m - 1);
}

// Values a line of `tiles` tiles reads at `level` in the workgroup look-back.
uint64_t workgroupReadsAt(uint64_t tiles, unsigned level) {
  uint64_t span = uint64_t{1} << (4 * level);
  uint64_t group = 16 * span;
  uint64_t rest = tiles % group;
  return tiles / group * span * workgroupReadsBelow(16) + span * workgroupReadsBelow(rest / span) +
         rest % span * workgroupReads(rest / span);
}

}  // namespace

uint64_t DispatchTraffic::bytesRead() const noexcept {
  return read[1] + read[2] + read[3] + read[4] + read[5] + read[6];
}

uint64_t DispatchTraffic::bytesWritten() const noexcept {
  return written[1] + written[2] + written[3] + written[4] + written[5] + written[6];
}

DispatchTraffic dispatchTraffic(const Dispatch& d) {
  DispatchTraffic t;
  Stage stage = d.pipeline.stage;
  uint64_t lines = linesOf(d);
  uint64_t elements = lines * d.params.axisLen * dataTypeSize(d.pipeline.type);
  uint64_t accumulator = dataTypeSize(accumulationType(d.pipeline.type));
  // One accumulator per line and chunk (a rows tile is its chunk): what a
  // reduce pass writes, and what a chunked scan pass reads back as carries.
  uint64_t carries = lines * d.params.chunksPerLine * accumulator;
  bool chunked = d.params.chunksPerLine > 1;
  if (stage == Stage::Records) {
    // The input and the values, then an index (8 bytes) per element.
    t.read[index(d.in)] += elements;
    t.read[index(d.aux)] += elements;
    t.written[index(d.out)] += lines * d.params.axisLen * 8;
  } else if (stage == Stage::Widen) {
    t.read[index(d.in)] += elements;
    t.written[index(d.out)] += 2 * elements;
  } else if (isLookback(stage)) {
    // Each tile is reduced, then scanned: its elements are read twice.
    t.read[index(d.in)] += 2 * elements;
    t.written[index(d.out)] += elements;
    // Per tile a published total and inclusive value; every tile after a
    // line's first reads its predecessor's inclusive value.
    uint64_t tiles = lines * d.params.chunksPerLine;
    t.statusBytes = 2 * tiles * accumulator;
    t.written[index(BufferRole::Scratch)] += t.statusBytes;
    t.read[index(BufferRole::Scratch)] += (tiles - lines) * accumulator;
  } else if (stage == Stage::RowsOnePass || stage == Stage::ColumnsOnePass) {
    // Each tile is read once and written once. Per node of the lines' trees
    // above the tiles two values are published, plus the tile counter. The
    // reads are those of a look-back that finds every value published (no
    // wait, no fallback): at each level of its ancestors, a rows tile reads
    // the V of every earlier sibling and the nearest one's I, all at once;
    // a columns line reads the nearest one's I. Lines of one tile (columns)
    // look nowhere and count no tiles.
    t.read[index(d.in)] += elements;
    t.written[index(d.out)] += elements;
    uint64_t tiles = lines * d.params.chunksPerLine;
    uint64_t nodes = 0;
    uint64_t reads = 0;
    unsigned level = 0;
    for (uint64_t n = d.params.chunksPerLine; n > 1; n = (n + 15) / 16) {
      nodes += n;
      reads += stage == Stage::RowsOnePass ? workgroupReadsAt(d.params.chunksPerLine, level)
                                           : tilesWithSiblingsAt(d.params.chunksPerLine, level);
      ++level;
    }
    uint64_t counter = d.params.chunksPerLine > 1 ? 4 * tiles : 0;
    t.statusBytes = 2 * lines * nodes * accumulator + counter;
    t.written[index(BufferRole::Scratch)] += t.statusBytes;
    t.read[index(BufferRole::Scratch)] += lines * reads * accumulator + counter;
  } else if (isReduce(stage)) {
    t.read[index(d.in)] += elements;
    if (d.hasAux) t.written[index(BufferRole::Scratch)] += carries;
  } else {
    t.read[index(d.in)] += elements;
    t.written[index(d.out)] += elements;
    // Chunk kernels load carries only where lines hold several chunks, or
    // where a line's carry-in comes in (PipelineKey::chunked).
    bool loadsCarries = d.hasAux && (chunked || d.pipeline.chunked);
    if (loadsCarries) t.read[index(BufferRole::Scratch)] += carries;
  }
  // The rows and columns kernels' line carries (PipelineKey::lineCarryIn,
  // lineTotals): a value a line, read or written once where the tensors lie;
  // their header, written before the dispatch and read by it.
  if (d.pipeline.lineCarryIn) t.read[index(BufferRole::CarryIn)] += lines * accumulator;
  if (d.pipeline.lineTotals) t.written[index(BufferRole::Totals)] += lines * accumulator;
  if (d.writesLineCarries) {
    t.written[index(BufferRole::Scratch)] += kLineCarriesHeaderBytes;
    t.read[index(BufferRole::Scratch)] += kLineCarriesHeaderBytes;
  }
  t.fillBytes = d.clearBytes;
  t.written[index(BufferRole::Scratch)] += d.clearBytes;
  t.read[index(BufferRole::None)] = 0;
  t.written[index(BufferRole::None)] = 0;
  return t;
}

std::vector<DispatchTraffic> planTraffic(const Plan& plan) {
  std::vector<DispatchTraffic> traffic;
  traffic.reserve(plan.dispatches.size());
  for (const Dispatch& dispatch : plan.dispatches) traffic.push_back(dispatchTraffic(dispatch));
  return traffic;
}

}  // namespace vkscan::detail
