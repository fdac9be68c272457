#version 460
#extension GL_GOOGLE_include_directive : require
// Chunk, scan stage: walks one chunk of one line (or of LANE_N interleaved
// lines), adding the chunk's carry from aux, and writes the output.
#include "common.glsl"
#include "chunk.glsl"

void main() {
  ChunkTask task = chunkTask();
  if (!task.valid) return;
  scanChunk(task, hasAux() ? loadAuxLane(task.auxIndex) : kLaneIdentity);
}
