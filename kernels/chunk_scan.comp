#version 460
#extension GL_GOOGLE_include_directive : require
// Chunk, scan stage: walks one chunk of one line (or of LANE_N interleaved
// lines), adding the chunk's carry from aux, and writes the output.
#include "common.glsl"
#include "chunk.glsl"

void main() {
#ifndef VKSCAN_INTERLEAVED
  if (kSegmentLength != 0u) {
    scanSegments();
    return;
  }
#endif
  ChunkTask task = chunkTask();
  if (!task.valid) return;
  // Lines of one chunk have no carries (the host binds aux exactly when
  // there are chunks to decode), and kChunked compiles the load out: llvmpipe
  // runs a load under a uniform branch as a masked loop over the lanes, taken
  // or not (see keepTouches()).
  scanChunk(task, kChunked && hasAux() ? loadAuxLane(task.auxIndex) : laneIdentity());
}
