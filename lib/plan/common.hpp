// The plan's data types, shared by both planners and by everything that
// records a plan: stages, pipeline keys, dispatches, the device's limits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>
#include <vkscan/vkscan.hpp>

#include "scan_params.h"
#include "spec_constants.h"

namespace vkscan::detail {

enum class Stage : uint8_t {
  RowsScan,
  ChunkReduce,
  ChunkScan,
  ChunkReduceInterleaved,
  ChunkScanInterleaved,
  // Plain chunk walks on a contiguous axis whose nodes are off vectors:
  // nodes move as whole units from the boundaries below them, shifted into
  // place (kernels/chunk.glsl VKSCAN_REALIGNED); PipelineKey::reverse gives
  // the direction. Builds of their own, so that the other chunk pipelines
  // do not compile the realigned walk only to drop it.
  ChunkReduceRealigned,
  ChunkScanRealigned,
  // One pass: an invocation per 4096-element tile, carries by decoupled
  // look-back (kernels/chunk_lookback.comp); realigned as above.
  ChunkLookback,
  ChunkLookbackRealigned,
  // One pass on GPUs: a workgroup per tile of a long contiguous line,
  // carries by decoupled look-back level by level
  // (kernels/rows_onepass.comp).
  RowsOnePass,
  // One pass on GPUs for strided axes with a contiguous inner dimension: a
  // workgroup per 16 vectors of lines by 256 elements along the axis, the
  // same look-back (kernels/columns_onepass.comp).
  ColumnsOnePass,
  // The first pass where the output type is wider than the input's: the
  // input widened into the output, which the scan's passes then scan in
  // place (kernels/widen.comp).
  Widen,
  // The indices of a maximum or minimum: after the values' scan, each
  // element's index where it is the running value, a sentinel elsewhere,
  // which a scan of the indices in place then carries
  // (kernels/records.comp).
  Records,
};

inline bool isLookback(Stage stage) {
  return stage == Stage::ChunkLookback || stage == Stage::ChunkLookbackRealigned;
}

// Stages whose workgroups publish values to each other in scratch: their
// in-place pipelines differ (PipelineKey::inPlace), and the host fills
// their scratch with kLookbackUnpublished first.
inline bool looksBack(Stage stage) {
  return isLookback(stage) || stage == Stage::RowsOnePass || stage == Stage::ColumnsOnePass;
}

// Stages whose kernels cross lanes with subgroup operations
// (kernels/rows.glsl), in a lane order that assumes full subgroups.
inline bool usesSubgroupOperations(Stage stage) {
  return stage == Stage::RowsScan || stage == Stage::RowsOnePass;
}

inline bool isChunkStage(Stage stage) {
  return stage == Stage::ChunkReduce || stage == Stage::ChunkScan ||
         stage == Stage::ChunkReduceInterleaved || stage == Stage::ChunkScanInterleaved ||
         stage == Stage::ChunkReduceRealigned || stage == Stage::ChunkScanRealigned ||
         isLookback(stage);
}

const char* stageName(Stage stage) noexcept;

// Every binding's offset is a multiple of this (matching
// DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT): the vector paths rely on it, and the
// plan on the storage-buffer lead it bounds (fitsStorageBuffers()).
inline constexpr uint64_t kBindingAlignment = 16;

// The 32-bit pattern of a look-back value not yet published
// (kernels/chunk_lookback.comp kUnpublished).
inline constexpr uint32_t kLookbackUnpublished = 0x7FBADBADu;

// The line carries' header in scratch (Dispatch::writesLineCarries): two
// addresses and six strides, 64-bit each (kernels/line_carries.glsl).
inline constexpr uint64_t kLineCarriesHeaderBytes = 64;

// Nodes each invocation of a segmented walk covers for lines of `length`
// (1 to 16) elements: the fewest whole nodes that hold whole lines,
// lcm(16, length) / 16, and at least two (kernels/chunk.glsl segmentNodes()).
inline uint32_t segmentNodes(uint32_t length) {
  uint32_t nodes = length / (length & (0u - length));
  return nodes < 2 ? 2 : nodes;
}

static_assert(static_cast<uint32_t>(ScanOperation::Sum) == VKSCAN_OPERATION_SUM &&
                  static_cast<uint32_t>(ScanOperation::Product) == VKSCAN_OPERATION_PRODUCT &&
                  static_cast<uint32_t>(ScanOperation::Maximum) == VKSCAN_OPERATION_MAXIMUM &&
                  static_cast<uint32_t>(ScanOperation::Minimum) == VKSCAN_OPERATION_MINIMUM &&
                  static_cast<uint32_t>(ScanOperation::LogSumExp) == VKSCAN_OPERATION_LOG_SUM_EXP,
              "the kernels number operations as ScanOperation does");

// CarryIn and Totals: ScanDesc::carryIn and totals, which only the copies
// between them and scratch touch (Planner::planCarried()).
enum class BufferRole : uint8_t { None, Input, Output, Scratch, Indices, CarryIn, Totals };

// How a scan kernel knows whether it is exclusive (VKSCAN_SPEC_EXCLUSIVE):
// compiled in, or read from the dispatch's VKSCAN_FLAG_EXCLUSIVE, so that an
// inclusive and an exclusive scan share one pipeline.
enum class Exclusivity : uint32_t {
  Inclusive = 0,
  Exclusive = 1,
  FromFlags = VKSCAN_EXCLUSIVE_FROM_FLAGS,
};

// Everything that selects a pipeline. Two dispatches with equal keys share
// one VkPipeline; rank, axis and direction are normalised away before this.
struct PipelineKey {
  Stage stage = Stage::RowsScan;
  DataType type = DataType::Float32;  // the kernel's storage type
  // ScanOperation as a number (kernels: VKSCAN_OPERATION_*), and whether
  // maximum and minimum compare integers as signed (Problem::signedValues).
  uint32_t operation = VKSCAN_OPERATION_SUM;
  bool signedValues = false;
  // Scan stages: FromFlags, or compiled in for chunk scans where
  // Tuning::chunkExclusivityCompiled (Planner::emit()).
  Exclusivity exclusive = Exclusivity::Inclusive;
  bool vectorLoads = false;
  // With vectorLoads, or in realigned stages: the axis runs down through
  // memory (strides -1); with wideVectors on interleaved lanes of one vector: likewise (strides of
  // minus one vector).
  bool reverse = false;
  // Chunk stages: every node on vector loads, every row of four vectors of
  // interleaved lines, or every group of rows of one vector that lie back to
  // back (axis strides of one vector), starts on 32 bytes of its binding and
  // moves in 32-byte units (kernels/common.glsl kWideVectors).
  bool wideVectors = false;
  // Chunk stages: the axis length is not a multiple of the node (16), so the
  // kernel keeps its partial-node path; otherwise that path is compiled out.
  bool partialNodes = false;
  // Chunk stages: the axis holds at least one full node (16 elements);
  // otherwise the full-node loop is compiled out.
  bool fullNodes = true;
  // Line dimensions the kernel decodes (1 to 3: lineSize[d] == 1 for every
  // d >= lineDims), so that absent ones cost no division.
  uint32_t lineDims = 3;
  // Chunk stages: more than one chunk per line (a chunk index to decode).
  bool chunked = false;
  // Interleaved chunk stages: vectors of adjacent lines (4 per vector, 2 for
  // 8-byte types) each invocation carries (4, or 1 when the inner extent is
  // not a multiple of 4 vectors); 4, unused, everywhere else.
  uint32_t laneVectors = 4;
  // Interleaved chunk stages: lanes of four vectors of lines built from
  // scalar accesses, for lines not on vectors (kernels/chunk.glsl
  // kScalarLanes).
  bool scalarLanes = false;
  // Look-back stage: status reads spent waiting for a silent earlier tile
  // before reducing it in the looking invocation (Tuning::lookbackPolls).
  uint32_t lookbackPolls = 0;
  // One-pass stages, a test's seam: the first look-back misses every
  // published value (Tuning::lookbackMissesPublished).
  bool lookbackMissesPublished = false;
  // One-pass stages, a test's seam: the look-back stops below this level
  // (Tuning::lookbackStopLevel; 0: never).
  uint32_t lookbackStopLevel = 0;
  // Look-back stages: the output is bound to the input, so a tile orders its
  // published total before its outputs (memory barriers). Chosen at record
  // time, when the bindings are known (Operator keeps both pipelines).
  bool inPlace = false;
  // Interleaved chunk stages: each row's words of the next node are read
  // early, to start a CPU's cache misses (Tuning::chunkTouchAheadStrideBytes).
  bool touchAhead = false;
  // Interleaved chunk stages: rows of a node per iteration of the walk's row
  // loop, 1, or 2 where a chunk is a level-4 node (4096 nodes of 16 rows would
  // pass lavapipe's 65,535-iteration cap); 1, unused, everywhere else.
  uint32_t rowsPerIteration = 1;
  // Interleaved chunk scan stage walking whole lines: the workgroup meets at
  // a barrier after every node (Tuning::chunkNodeBarriers; kernels/chunk.glsl
  // kNodeBarrier).
  bool nodeBarrier = false;
  // Chunk scan stage: 0, or the dispatch walks one flat line made of
  // contiguous lines of this many elements (1 to 16), restarting the sums at
  // each (kernels/chunk.glsl kSegmentLength).
  uint32_t segmentLength = 0;
  uint32_t workgroupSize = 0;
  // Chunk stages: tensors bound as storage buffers (push descriptors), with
  // element offsets in the address fields, instead of device addresses.
  bool storageBuffers = false;
  // Storage-buffer stages reading the operator's input: 32-byte units load
  // through the input's uniform texel buffer view, bound as binding 3
  // (recordWithInputTexels(); kernels/common.glsl VKSCAN_TEXEL_INPUT).
  // Chosen at record time, when the bindings are known (Operator keeps both
  // pipelines).
  bool texelInput = false;
  // Rows stages: whole tiles move through shared memory, so that
  // neighbouring invocations access neighbouring vectors, or elements off
  // vectors (kernels/rows.glsl kStagedNodes); where the device's shared
  // memory holds the tile.
  bool stagedNodes = false;
  // Staged rows stages, a test's seam: invocations a segment
  // (Tuning::rowsStagedSegment; 0: a subgroup's).
  uint32_t stagedSegment = 0;
  // Rows and columns stages: each line's carry-in enters at its root, and
  // each line's total is written, where Dispatch::writesLineCarries says
  // (kernels/line_carries.glsl).
  bool lineCarryIn = false;
  bool lineTotals = false;

  bool operator==(const PipelineKey& other) const noexcept;
};

// For PipelineCache's hash map: createOperator() looks every dispatch's key
// up on each call, and hashing once and comparing for equality costs a
// fraction of an ordered map's field-by-field comparisons at every node.
struct PipelineKeyHash {
  size_t operator()(const PipelineKey& key) const noexcept;
};

struct Dispatch {
  PipelineKey pipeline;
  // Addresses are filled in at record time: binding address + byte offset.
  BufferRole in = BufferRole::None;
  uint64_t inByteOffset = 0;
  BufferRole out = BufferRole::None;
  uint64_t outByteOffset = 0;
  bool hasAux = false;
  uint64_t auxByteOffset = 0;  // into `aux`
  BufferRole aux = BufferRole::Scratch;
  // Scratch bytes filled with clearWord (vkCmdFillBuffer) before the
  // dispatch: the look-back's values, which read as unpublished until
  // written. A multiple of 4, at a multiple of 4.
  uint64_t clearByteOffset = 0;
  uint64_t clearBytes = 0;
  uint32_t clearWord = 0;
  // Rows and columns stages with line carries (PipelineKey::lineCarryIn,
  // lineTotals): the header the host writes into scratch at
  // lineCarriesByteOffset before the dispatch (vkCmdUpdateBuffer), so that
  // the kernel reads each line's carry-in and writes its total where those
  // tensors lie (kernels/line_carries.glsl). Line 0's element and the line
  // strides, in accumulators of the CarryIn and Totals bindings.
  bool writesLineCarries = false;
  uint64_t lineCarriesByteOffset = 0;
  int64_t carryBase = 0;
  int64_t carryStrides[3] = {0, 0, 0};
  int64_t totalsBase = 0;
  int64_t totalsStrides[3] = {0, 0, 0};
  ScanParams params{};  // addresses zero here
  uint32_t groupsX = 0;
  uint32_t groupsY = 0;
};

// The dispatch reads the operator's input through storage buffers, so its
// texel variant (PipelineKey::texelInput) can load it through the input's
// texel view instead.
inline bool readsInputTexels(const Dispatch& dispatch) {
  return dispatch.pipeline.storageBuffers && dispatch.in == BufferRole::Input;
}

struct PlanLimits {
  uint32_t subgroupSize = 32;
  uint32_t maxWorkgroupInvocations = 128;
  uint32_t maxWorkgroupCountX = 65535;
  uint32_t maxWorkgroupCountY = 65535;
  // Storage-buffer chunk kernels need VK_KHR_push_descriptor and every
  // binding within maxStorageBufferRange.
  bool pushDescriptor = false;
  uint64_t maxStorageBufferRange = 0;
  uint64_t minStorageBufferOffsetAlignment = 1;
  // VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT in compute shaders, in full
  // subgroups (planLimitsOf()): the rows kernels chain lanes with
  // subgroupShuffleUp.
  bool subgroupShuffles = true;
  // maxComputeSharedMemorySize: the rows kernels stage whole tiles where it
  // holds one (16384 bytes, Vulkan's least, holds none).
  uint32_t maxSharedMemoryBytes = 16384;

  // Every field (a new one must join tied() in common.cpp).
  bool operator==(const PlanLimits& other) const noexcept;
  bool operator!=(const PlanLimits& other) const noexcept { return !(*this == other); }
};

struct Plan {
  std::vector<Dispatch> dispatches;  // in order; a barrier separates each pair
  uint64_t scratchBytes = 0;
  // A Widen pass comes first, and the scan's passes read the output: record
  // them with their in-place pipelines.
  bool scansOutputInPlace = false;
  // Records and a scan of the indices in place follow the scan (record
  // with the in-place pipelines too).
  bool scansIndicesInPlace = false;
};

}  // namespace vkscan::detail
