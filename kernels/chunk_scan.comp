#version 460
#extension GL_GOOGLE_include_directive : require
// Chunk, scan stage: walks one chunk of one line (or of VEC_N interleaved
// lines), adding the chunk's carry from aux, and writes the output.
#include "common.glsl"
#include "chunk.glsl"

// Carries of the walk: X_2 of the current level-2 node, and the chunk's.
struct Walk {
  LANE_T chunkCarry;
  LANE_T x2;
  LevelSums sums;
};

void scanNode(ChunkTask task, inout Walk walk, uint node, bool full, bool lastNode) {
  // A chunk is at most a level-3 node, whose carry is the chunk's; in
  // smaller chunks s2 stays the identity, so X_2 is the chunk's carry.
  if ((node & 15u) == 0u) {
    precise LANE_T x2 = ADD(walk.chunkCarry, walk.sums.s2);
    walk.x2 = x2;
  }
  precise LANE_T x1 = ADD(walk.x2, walk.sums.s1);

  OFFSET_T k0 = task.kBegin + OFFSET_T(node) * NODE;
  LANE_T v[NODE];
  loadChunkNode(task, k0, full, v);
  LANE_T outValues[NODE];
  precise LANE_T s = kLaneIdentity;
  [[unroll]] for (int j = 0; j < NODE; ++j) {
    if (kExclusive) {
      outValues[j] = ADD(x1, s);
      s = ADD(s, v[j]);
    } else {
      s = ADD(s, v[j]);
      outValues[j] = ADD(x1, s);
    }
  }
  if (kExclusive && k0 == 0 && firstIsPositiveZero()) outValues[0] = LANE_SPLAT(ACC_T(0));
  storeChunkNode(task, k0, full, outValues);
  foldNode(walk.sums, node, s, lastNode);
}

void main() {
  ChunkTask task = chunkTask();
  if (!task.valid) return;
  Walk walk;
  walk.chunkCarry = hasAux() ? loadAuxLane(task.auxIndex) : kLaneIdentity;
  walk.x2 = walk.chunkCarry;
  walk.sums = emptyLevelSums();
  uint full = fullNodes(task);
  bool partial = hasPartialNode(task);
  if (kFullNodes) {
    for (uint node = 0u; node < full; ++node) {
      scanNode(task, walk, node, true, node + 1u == full && !partial);
    }
  }
  if (axisHasPartialNodes() && partial) scanNode(task, walk, full, false, true);
}
