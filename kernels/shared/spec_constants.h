// Specialization constants of every kernel, shared by the host (C++) and the
// kernels (GLSL) so that each is defined once: its ID here, used by GLSL as
// `layout(constant_id = VKSCAN_SPEC_...)`, and its line in
// VKSCAN_SPEC_CONSTANTS, which makes the host's field, its map entry, and
// its value from the PipelineKey field of the same name
// (lib/pipeline_cache.cpp). The checks below fail to compile unless the IDs
// and fields match one to one.
#ifndef VKSCAN_SPEC_CONSTANTS_H
#define VKSCAN_SPEC_CONSTANTS_H

// Invocations per workgroup (local_size_x_id).
#define VKSCAN_SPEC_WORKGROUP_SIZE 0
// Scan stages: 0 inclusive, 1 exclusive, or VKSCAN_EXCLUSIVE_FROM_FLAGS: as
// the dispatch's VKSCAN_FLAG_EXCLUSIVE says, one pipeline for both modes.
#define VKSCAN_SPEC_EXCLUSIVE 1
#define VKSCAN_EXCLUSIVE_FROM_FLAGS 2u
// bool: vector loads allowed.
#define VKSCAN_SPEC_VECTOR_LOADS 2
// bool: reverse (with vector loads: the axis strides are -1).
#define VKSCAN_SPEC_REVERSE 3
// bool, chunk stages: the axis length may not be a multiple of NODE; false
// promises it is.
#define VKSCAN_SPEC_PARTIAL_NODES 4
// Line dimensions, 1 to 3 (lineSize[d] == 1 for every d >= it).
#define VKSCAN_SPEC_LINE_DIMS 5
// bool, chunk stages: chunksPerLine may exceed 1; false promises it is 1.
#define VKSCAN_SPEC_CHUNKED 6
// Interleaved chunk stages: vectors of lines per invocation (chunk.glsl).
#define VKSCAN_SPEC_LANE_VECTORS 7
// bool, chunk stages: the axis may hold a full node; false promises it is
// shorter than NODE.
#define VKSCAN_SPEC_FULL_NODES 8
// Look-back stage: re-reads of a silent earlier tile (chunk_lookback.comp).
#define VKSCAN_SPEC_LOOKBACK_POLLS 9
// bool, look-back stage: the output is bound to the input.
#define VKSCAN_SPEC_IN_PLACE 10
// bool, interleaved chunk stages: read the next node's rows early.
#define VKSCAN_SPEC_TOUCH_AHEAD 11
// Interleaved chunk stages: rows of a node per loop iteration (1 or 2).
#define VKSCAN_SPEC_ROWS_PER_ITERATION 12
// Chunk scan stage: 0, or the length of the lines one flat line is made of.
#define VKSCAN_SPEC_SEGMENT_LENGTH 13
// bool, chunk stages: nodes (or interleaved rows) move in 32-byte units.
#define VKSCAN_SPEC_WIDE_VECTORS 14
// bool, interleaved chunk stages: lanes built from scalar accesses.
#define VKSCAN_SPEC_SCALAR_LANES 15
// bool, interleaved chunk scan stage: a workgroup barrier after every node.
#define VKSCAN_SPEC_NODE_BARRIER 16
// The scan's operation: VKSCAN_OPERATION_* below (kernels/common.glsl
// combine()).
#define VKSCAN_SPEC_OPERATION 17
// bool, maximum and minimum: integers compare as two's complement.
#define VKSCAN_SPEC_SIGNED_VALUES 18
// bool, rows stages: whole tiles move through shared memory, coalesced
// (kernels/rows.glsl kStagedNodes).
#define VKSCAN_SPEC_STAGED_NODES 19
// bool, rows stages: each line's carry-in is read from aux (line_carries.glsl).
#define VKSCAN_SPEC_LINE_CARRY_IN 20
// bool, rows stages: each line's total is written to aux (line_carries.glsl).
#define VKSCAN_SPEC_LINE_TOTALS 21
// bool, one-pass stages (a test's seam): the first look-back misses every
// published value (kernels/lookback_tree.glsl kMissesPublished).
#define VKSCAN_SPEC_LOOKBACK_MISSES_PUBLISHED 22
// uint, one-pass stages (a test's seam): the look-back finds only the levels
// below this one, and the tile then leaves; 0: every level
// (kernels/lookback_tree.glsl kStopLevel).
#define VKSCAN_SPEC_LOOKBACK_STOP_LEVEL 23
// uint, rows stages (a test's seam): staged nodes move in segments of this
// many invocations; 0: a subgroup's (kernels/rows.glsl kStagedSegment).
#define VKSCAN_SPEC_STAGED_SEGMENT 24
#define VKSCAN_SPEC_COUNT 25

#define VKSCAN_OPERATION_SUM 0u
#define VKSCAN_OPERATION_PRODUCT 1u
#define VKSCAN_OPERATION_MAXIMUM 2u
#define VKSCAN_OPERATION_MINIMUM 3u
#define VKSCAN_OPERATION_LOG_SUM_EXP 4u

#ifdef __cplusplus
#include <array>
#include <cstddef>
#include <cstdint>

namespace vkscan::detail {

// Every constant once: its ID and its host field, 32 bits each (uint, or
// VkBool32 for a bool).
#define VKSCAN_SPEC_CONSTANTS(X)                                    \
  X(VKSCAN_SPEC_WORKGROUP_SIZE, workgroupSize)                      \
  X(VKSCAN_SPEC_EXCLUSIVE, exclusive)                               \
  X(VKSCAN_SPEC_VECTOR_LOADS, vectorLoads)                          \
  X(VKSCAN_SPEC_REVERSE, reverse)                                   \
  X(VKSCAN_SPEC_PARTIAL_NODES, partialNodes)                        \
  X(VKSCAN_SPEC_LINE_DIMS, lineDims)                                \
  X(VKSCAN_SPEC_CHUNKED, chunked)                                   \
  X(VKSCAN_SPEC_LANE_VECTORS, laneVectors)                          \
  X(VKSCAN_SPEC_FULL_NODES, fullNodes)                              \
  X(VKSCAN_SPEC_LOOKBACK_POLLS, lookbackPolls)                      \
  X(VKSCAN_SPEC_IN_PLACE, inPlace)                                  \
  X(VKSCAN_SPEC_TOUCH_AHEAD, touchAhead)                            \
  X(VKSCAN_SPEC_ROWS_PER_ITERATION, rowsPerIteration)               \
  X(VKSCAN_SPEC_SEGMENT_LENGTH, segmentLength)                      \
  X(VKSCAN_SPEC_WIDE_VECTORS, wideVectors)                          \
  X(VKSCAN_SPEC_SCALAR_LANES, scalarLanes)                          \
  X(VKSCAN_SPEC_NODE_BARRIER, nodeBarrier)                          \
  X(VKSCAN_SPEC_OPERATION, operation)                               \
  X(VKSCAN_SPEC_SIGNED_VALUES, signedValues)                        \
  X(VKSCAN_SPEC_STAGED_NODES, stagedNodes)                          \
  X(VKSCAN_SPEC_LINE_CARRY_IN, lineCarryIn)                         \
  X(VKSCAN_SPEC_LINE_TOTALS, lineTotals)                            \
  X(VKSCAN_SPEC_LOOKBACK_MISSES_PUBLISHED, lookbackMissesPublished) \
  X(VKSCAN_SPEC_LOOKBACK_STOP_LEVEL, lookbackStopLevel)             \
  X(VKSCAN_SPEC_STAGED_SEGMENT, stagedSegment)

struct SpecializationData {
#define VKSCAN_SPEC_FIELD(id, field) uint32_t field;
  VKSCAN_SPEC_CONSTANTS(VKSCAN_SPEC_FIELD)
#undef VKSCAN_SPEC_FIELD
};

// A VkSpecializationMapEntry without its size, which is 4 for every constant.
struct SpecializationEntry {
  uint32_t id;
  uint32_t offset;
};

// A constant missing from VKSCAN_SPEC_CONSTANTS leaves a zeroed entry, which
// repeats ID 0; one too many does not compile.
constexpr std::array<SpecializationEntry, VKSCAN_SPEC_COUNT> kSpecializationEntries = {{
#define VKSCAN_SPEC_ENTRY(id, field) \
  {id, static_cast<uint32_t>(offsetof(SpecializationData, field))},
    VKSCAN_SPEC_CONSTANTS(VKSCAN_SPEC_ENTRY)
#undef VKSCAN_SPEC_ENTRY
}};

constexpr bool specializationIdsAreEachOnce() {
  for (uint32_t id = 0; id < VKSCAN_SPEC_COUNT; ++id) {
    int uses = 0;
    for (const SpecializationEntry& entry : kSpecializationEntries) uses += entry.id == id ? 1 : 0;
    if (uses != 1) return false;
  }
  return true;
}

static_assert(specializationIdsAreEachOnce(),
              "every VKSCAN_SPEC_* ID below VKSCAN_SPEC_COUNT needs exactly one line in "
              "VKSCAN_SPEC_CONSTANTS");
static_assert(sizeof(SpecializationData) == VKSCAN_SPEC_COUNT * sizeof(uint32_t),
              "one 32-bit field per specialization constant");

}  // namespace vkscan::detail
#endif
#endif
