#include "plan/planner.hpp"

#include <algorithm>
#include <string>

namespace vkscan::detail {
namespace {

bool alignedStart(int64_t base, int64_t axisStride, int64_t vector) {
  // Backwards, a node's lowest address is its last traversal element's.
  return axisStride > 0 ? base % vector == 0 : (base + 1) % vector == 0;
}

int64_t elementStart(const Problem& p, uint64_t byteOffset, bool input) {
  int64_t offset = static_cast<int64_t>(byteOffset / dataTypeSize(p.type));
  return offset + (input ? p.inBase : p.outBase);
}

// Every row of an interleaved walk (the elements of one axis index, lines
// contiguous) starts on a multiple of `vector` elements.
bool rowsAligned(const Problem& p, uint64_t inOffset, uint64_t outOffset, int64_t vector) {
  if (p.inAxisStride % vector != 0 || p.outAxisStride % vector != 0) return false;
  for (size_t i = 1; i < p.lines.size(); ++i) {
    if (p.lines[i].inStride % vector != 0 || p.lines[i].outStride % vector != 0) return false;
  }
  return elementStart(p, inOffset, true) % vector == 0 &&
         elementStart(p, outOffset, false) % vector == 0;
}

// Interleaved lanes of one vector whose rows lie back to back (axis strides
// of one vector, equal in both tensors): every group of a unit's rows
// starts on a unit, at its lowest address (backwards, its last row's).
bool rowUnitsAligned(const Problem& p, uint64_t inOffset, uint64_t outOffset) {
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

}  // namespace

uint32_t levelsFor(uint64_t length) {
  uint32_t levels = 1;
  while ((uint64_t{1} << (4 * levels)) < length) ++levels;
  return levels;
}

uint32_t chunkLevelsFor(uint64_t invocationsPerChunk, uint64_t axisLen, uint64_t target) {
  uint32_t levels = 3;
  while (levels > 1 &&
         invocationsPerChunk * ceilDiv(axisLen, uint64_t{1} << (4 * levels)) < target) {
    --levels;
  }
  return levels;
}

int64_t vectorElements(DataType type) {
  return dataTypeSize(type) == 8 ? 2 : 4;
}

int64_t wideElements(DataType type) {
  return 32 / static_cast<int64_t>(dataTypeSize(type));
}

uint64_t interleavedLines(DataType type, uint64_t innerLines) {
  uint64_t vector = static_cast<uint64_t>(vectorElements(type));
  return innerLines % (4 * vector) == 0 ? 4 * vector : vector;
}

bool axisVectorizable(const Problem& p, uint64_t inOffset, uint64_t outOffset) {
  return axisAligned(p, inOffset, outOffset, vectorElements(p.type));
}

bool axisAligned(const Problem& p, uint64_t inOffset, uint64_t outOffset, int64_t vector) {
  if (p.inAxisStride != p.outAxisStride || std::abs(p.inAxisStride) != 1) return false;
  for (const LineDim& dim : p.lines) {
    if (dim.inStride % vector != 0 || dim.outStride % vector != 0) return false;
  }
  return alignedStart(elementStart(p, inOffset, true), p.inAxisStride, vector) &&
         alignedStart(elementStart(p, outOffset, false), p.outAxisStride, vector);
}

bool linesInterleavable(const Problem& p, uint64_t inOffset, uint64_t outOffset) {
  int64_t vector = vectorElements(p.type);
  if (p.lines.empty()) return false;
  const LineDim& inner = p.lines[0];
  if (inner.inStride != 1 || inner.outStride != 1 ||
      inner.size % interleavedLines(p.type, inner.size) != 0) {
    return false;
  }
  return rowsAligned(p, inOffset, outOffset, vector);
}

Problem carryProblem(const Problem& p, uint64_t chunks, int64_t axisStride, LineDim lines) {
  Problem q;
  q.type = accumulationType(p.type);
  q.operation = p.operation;
  q.signedValues = p.signedValues;
  q.axisLen = chunks;
  q.inAxisStride = axisStride;
  q.outAxisStride = axisStride;
  if (lines.size > 1) q.lines.push_back(lines);
  q.exclusive = true;
  return q;
}

void setVectorLoads(Dispatch& d, bool vector) {
  d.pipeline.vectorLoads = vector;
  d.pipeline.reverse = vector && d.params.inAxisStride < 0;
}

void setNodePaths(Dispatch& d) {
  d.pipeline.partialNodes = d.params.axisLen % kNode != 0;
  d.pipeline.fullNodes = d.params.axisLen >= kNode;
}

void setAux(Dispatch& d, uint64_t auxOffset) {
  d.hasAux = true;
  d.auxByteOffset = auxOffset;
}

void setRealign(Dispatch& d, const Problem& p) {
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

Dispatch Planner::makeDispatch(Stage stage, const Problem& p, BufferRole in, uint64_t inOffset,
                               BufferRole out, uint64_t outOffset) const {
  Dispatch d;
  d.pipeline.stage = stage;
  d.pipeline.type = p.type;
  d.pipeline.operation = static_cast<uint32_t>(p.operation);
  d.pipeline.signedValues = p.signedValues;
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
  bool scans = stage == Stage::RowsScan || stage == Stage::ChunkScan ||
               stage == Stage::ChunkScanInterleaved || stage == Stage::ChunkScanRealigned ||
               looksBack(stage);
  if (p.exclusive && scans) params.flags |= VKSCAN_FLAG_EXCLUSIVE;
  if (scans) d.pipeline.exclusive = Exclusivity::FromFlags;
  return d;
}

void Planner::emit(const Dispatch& planned, uint64_t groups) {
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
  // Here, not in makeDispatch(): setRealign() may have moved a chunk scan's stage since.
  bool chunkScan =
      d.pipeline.stage == Stage::ChunkScan || d.pipeline.stage == Stage::ChunkScanInterleaved;
  if (chunkScan && tuning_.chunkExclusivityCompiled) {
    bool exclusive = (d.params.flags & VKSCAN_FLAG_EXCLUSIVE) != 0u;
    d.pipeline.exclusive = exclusive ? Exclusivity::Exclusive : Exclusivity::Inclusive;
  }
}

void Planner::reserveScratch(uint64_t end) {
  plan_.scratchBytes = std::max(plan_.scratchBytes, end);
}

// Wide units (chunk stages): every node on vector loads, every row of four
// vectors of interleaved lines, or every group of rows of one vector that
// lie back to back, starts on 32 bytes from its binding's offset. Storage
// buffers are bound from that offset (a multiple of 16) rounded down to
// the device's alignment, so where the alignment does not divide 16 a node
// may start mid-unit of the binding.
void Planner::setWideVectors(Dispatch& d, const Problem& p, uint64_t inOffset, uint64_t outOffset,
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

uint32_t Planner::chunkWorkgroup(uint64_t invocations, bool spread) const {
  if (invocations >= tuning_.chunkWideWorkgroupInvocations) {
    return tuning_.chunkWideWorkgroupSize;
  }
  if (spread && invocations < tuning_.chunkTargetInvocations) return subgroupWorkgroup();
  return tuning_.chunkWorkgroupSize;
}

uint32_t Planner::subgroupWorkgroup() const {
  return std::max<uint32_t>(1, std::min(tuning_.chunkWorkgroupSize, limits_.subgroupSize));
}

void Planner::walkChunks(const Problem& p, const Bindings& b, const ChunkWalk& walk,
                         const LineCarries* carries) {
  uint64_t lines = p.lineCount();
  uint64_t chunks = ceilDiv(p.axisLen, uint64_t{1} << (4 * walk.levels));
  uint64_t groups = ceilDiv(lines / walk.lanes * chunks, walk.workgroupSize);
  auto chunkDispatch = [&](Stage plain, Stage interleaved, BufferRole to, uint64_t toOffset) {
    Dispatch d =
        makeDispatch(walk.interleaved ? interleaved : plain, p, b.in, b.inOffset, to, toOffset);
    d.pipeline.workgroupSize = walk.workgroupSize;
    setVectorLoads(d, !walk.interleaved && axisVectorizable(p, b.inOffset, b.outOffset));
    if (walk.realigned) setRealign(d, p);
    setNodePaths(d);
    d.params.shape = walk.levels;
    d.params.chunksPerLine = static_cast<uint32_t>(chunks);
    if (!walk.interleaved && chunks > 1 && std::abs(p.inAxisStride) == 1) {
      d.params.flags |= VKSCAN_FLAG_LINE_MAJOR_CHUNKS;
    }
    d.pipeline.touchAhead = walk.touchAhead;
    if (walk.interleaved) {
      uint32_t lanes = static_cast<uint32_t>(walk.lanes);
      d.params.lineSize[0] /= lanes;
      d.params.inLineStride[0] *= static_cast<int64_t>(lanes);
      d.params.outLineStride[0] *= static_cast<int64_t>(lanes);
      d.params.lineCount /= lanes;
      d.pipeline.laneVectors = static_cast<uint32_t>(walk.lanes / vectorElements(p.type));
      d.pipeline.rowsPerIteration = walk.levels == kMaxChunkLevels ? 2 : 1;
      d.pipeline.scalarLanes = walk.scalarLanes;
    }
    if (!walk.scalarLanes) setWideVectors(d, p, b.inOffset, b.outOffset, walk.interleaved);
    return d;
  };
  Dispatch scan = chunkDispatch(Stage::ChunkScan, Stage::ChunkScanInterleaved, b.out, b.outOffset);
  scan.pipeline.nodeBarrier = walk.nodeBarrier;
  if (chunks == 1) {
    if (carries != nullptr && carries->totals) {
      // Before the scan, which may overwrite the input in place.
      Dispatch reduce =
          chunkDispatch(Stage::ChunkReduce, Stage::ChunkReduceInterleaved, BufferRole::None, 0);
      setAux(reduce, carries->totalsOffset);
      emit(reduce, groups);
    }
    if (carries != nullptr && carries->carryIn) setAux(scan, carries->carryOffset);
    emit(scan, groups);
    // The carry-in is the whole line's chunk carry: chunked compiles its load in.
    if (scan.hasAux) plan_.dispatches.back().pipeline.chunked = true;
    return;
  }
  uint64_t auxBytes =
      alignUp(lines * chunks * dataTypeSize(accumulationType(p.type)), kScratchAlignment);
  reserveScratch(b.scratchBase + auxBytes);

  Dispatch reduce =
      chunkDispatch(Stage::ChunkReduce, Stage::ChunkReduceInterleaved, BufferRole::None, 0);
  setAux(reduce, b.scratchBase);
  emit(reduce, groups);

  Problem carryScan = carryProblem(p, chunks, static_cast<int64_t>(lines), {lines, 1, 1});
  Bindings carryBindings{BufferRole::Scratch, b.scratchBase, BufferRole::Scratch, b.scratchBase,
                         b.scratchBase + auxBytes};
  if (carries != nullptr) {
    walkCarried(carryScan, carryBindings, *carries);
  } else {
    planPiece(carryScan, carryBindings);
  }

  setAux(scan, b.scratchBase);
  emit(scan, groups);
}

void Planner::walkCarried(const Problem& p, const Bindings& b, const LineCarries& carries) {
  ChunkWalk walk;
  walk.interleaved = linesInterleavable(p, b.inOffset, b.outOffset);
  walk.lanes = walk.interleaved ? interleavedLines(p.type, p.lines[0].size) : 1;
  uint64_t invocationsPerChunk = p.lineCount() / walk.lanes;
  // Whole lines up to level 4, where the reduce pass's total is the line's
  // top node (kernels/chunk.glsl reduceChunk()); as the GPU planner's chunk
  // walks otherwise.
  bool wholeLines =
      p.axisLen <= (uint64_t{1} << (4 * kMaxChunkLevels)) &&
      (invocationsPerChunk >= tuning_.wholeLineInvocations || p.axisLen <= (uint64_t{1} << 12));
  if (wholeLines) {
    walk.levels = levelsFor(p.axisLen);
  } else {
    walk.levels = chunkLevelsFor(invocationsPerChunk, p.axisLen, tuning_.chunkTargetInvocations);
  }
  uint64_t chunks = ceilDiv(p.axisLen, uint64_t{1} << (4 * walk.levels));
  walk.workgroupSize = chunkWorkgroup(invocationsPerChunk * chunks, !walk.interleaved);
  walkChunks(p, b, walk, &carries);
}

namespace {

// A copy of each line's value between its tensor (carryIn or totals) and
// scratch in line order: a scan of one element in the unsigned type of the
// carry's size, which moves the bits unchanged.
Problem lineCopy(const Problem& p, bool gather) {
  Problem copy;
  copy.type = dataTypeSize(accumulationType(p.type)) == 8 ? DataType::UInt64 : DataType::UInt32;
  copy.operation = ScanOperation::Sum;
  copy.axisLen = 1;
  copy.inBase = gather ? p.carryBase : 0;
  copy.outBase = gather ? 0 : p.totalsBase;
  int64_t packed = 1;
  for (const LineDim& dim : p.lines) {
    copy.lines.push_back(
        {dim.size, gather ? dim.carryStride : packed, gather ? packed : dim.totalsStride, 0, 0});
    packed *= static_cast<int64_t>(dim.size);
  }
  copy.inputBytes = gather ? p.carryBytes : static_cast<uint64_t>(packed) * dataTypeSize(copy.type);
  copy.outputBytes =
      gather ? static_cast<uint64_t>(packed) * dataTypeSize(copy.type) : p.totalsBytes;
  return copy;
}

}  // namespace

uint64_t Planner::scratchBeforeCarries(const Problem&) const {
  return 0;
}

void Planner::scanCarried(const Problem& p, const LineCarries& carries, uint64_t scratchBase) {
  walkCarried(p, {BufferRole::Input, 0, BufferRole::Output, 0, scratchBase}, carries);
}

bool Planner::carriesInKernel(const Problem&) const {
  return false;
}

void Planner::planCarried(const Problem& p) {
  if (carriesInKernel(p)) {
    LineCarries carries;
    carries.carryIn = p.carryIn;
    carries.totals = p.totals;
    carries.carryOffset = alignUp(scratchBeforeCarries(p), kScratchAlignment);
    uint64_t base = carries.carryOffset + kLineCarriesHeaderBytes;
    reserveScratch(base);
    scanCarried(p, carries, base);
    return;
  }
  uint64_t region =
      alignUp(p.lineCount() * dataTypeSize(accumulationType(p.type)), kScratchAlignment);
  LineCarries carries;
  carries.carryIn = p.carryIn;
  carries.carryOffset = alignUp(scratchBeforeCarries(p), kScratchAlignment);
  carries.totals = p.totals;
  carries.totalsOffset = carries.carryOffset + (p.carryIn ? region : 0);
  uint64_t base = carries.totalsOffset + (p.totals ? region : 0);
  reserveScratch(base);
  if (p.carryIn) {
    planPiece(lineCopy(p, true),
              {BufferRole::CarryIn, 0, BufferRole::Scratch, carries.carryOffset, base});
  }
  scanCarried(p, carries, base);
  if (p.totals) {
    planPiece(lineCopy(p, false),
              {BufferRole::Scratch, carries.totalsOffset, BufferRole::Totals, 0, base});
  }
}

}  // namespace vkscan::detail
