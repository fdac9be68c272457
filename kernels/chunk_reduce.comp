#version 460
#extension GL_GOOGLE_include_directive : require
// Chunk, reduce stage: sums one chunk of one line (or of VEC_N interleaved
// lines) in the canonical order and writes the chunk total to aux.
#include "common.glsl"
#include "chunk.glsl"

void reduceNode(ChunkTask task, inout LevelSums sums, uint node, bool full, bool lastNode) {
  LANE_T v[NODE];
  loadChunkNode(task, task.kBegin + OFFSET_T(node) * NODE, full, v);
  precise LANE_T s = kLaneIdentity;
  [[unroll]] for (int j = 0; j < NODE; ++j) s = ADD(s, v[j]);
  foldNode(sums, node, s, lastNode);
}

void main() {
  ChunkTask task = chunkTask();
  if (!task.valid) return;
  LevelSums sums = emptyLevelSums();
  uint full = fullNodes(task);
  bool partial = hasPartialNode(task);
  if (kFullNodes) {
    for (uint node = 0u; node < full; ++node) {
      reduceNode(task, sums, node, true, node + 1u == full && !partial);
    }
  }
  if (axisHasPartialNodes() && partial) reduceNode(task, sums, full, false, true);
  storeAuxLane(task.auxIndex, sums.s4);
}
