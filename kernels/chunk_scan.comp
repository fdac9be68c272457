#version 460
#extension GL_GOOGLE_include_directive : require
// Chunk, scan stage: walks one chunk of one line (or of VEC_N interleaved
// lines), adding the chunk's carry from aux, and writes the output.
#include "common.glsl"
#include "chunk.glsl"

void main() {
  ChunkTask task = chunkTask();
  if (!task.valid) return;
  LANE_T carry = p.auxAddr != 0ul ? LaneAccRef(task.auxAddress).v : kLaneIdentity;
  LevelSums sums = emptyLevelSums();
  // X_2, the carry into the current level-2 node. A chunk is at most a
  // level-3 node, whose carry is the chunk's; in smaller chunks s2 stays the
  // identity, so X_2 is the chunk's carry as it must be.
  precise LANE_T x2 = carry;
  uint nodes = chunkNodes(task);
  for (uint node = 0u; node < nodes; ++node) {
    if ((node & 15u) == 0u) x2 = carry + sums.s2;
    precise LANE_T x1 = x2 + sums.s1;

    int64_t k0 = task.kBegin + int64_t(node) * NODE;
    LANE_T v[NODE];
    loadChunkNode(task, k0, v);
    LANE_T outValues[NODE];
    precise LANE_T s = kLaneIdentity;
    [[unroll]] for (int j = 0; j < NODE; ++j) {
      if (kExclusive) {
        outValues[j] = x1 + s;
        s = s + v[j];
      } else {
        s = s + v[j];
        outValues[j] = x1 + s;
      }
    }
    if (kExclusive && k0 == 0 && firstIsPositiveZero()) outValues[0] = LANE_T(0);
    storeChunkNode(task, k0, outValues);
    foldNode(sums, node, s, node + 1u == nodes);
  }
}
