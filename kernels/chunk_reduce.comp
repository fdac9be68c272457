#version 460
#extension GL_GOOGLE_include_directive : require
// Chunk, reduce stage: sums one chunk of one line (or of VEC_N interleaved
// lines) in the canonical order and writes the chunk total to aux.
#include "common.glsl"
#include "chunk.glsl"

void main() {
  ChunkTask task = chunkTask();
  if (!task.valid) return;
  LevelSums sums = emptyLevelSums();
  uint nodes = chunkNodes(task);
  for (uint node = 0u; node < nodes; ++node) {
    LANE_T v[NODE];
    loadChunkNode(task, task.kBegin + int64_t(node) * NODE, v);
    precise LANE_T s = kLaneIdentity;
    [[unroll]] for (int j = 0; j < NODE; ++j) s = s + v[j];
    foldNode(sums, node, s, node + 1u == nodes);
  }
  LaneAccRef(task.auxAddress).v = sums.s4;
}
