#version 460
#extension GL_GOOGLE_include_directive : require
// Chunk, reduce stage: sums one chunk of one line (or of LANE_N interleaved
// lines) in the canonical order and writes the chunk total to aux.
#include "common.glsl"
#include "chunk.glsl"

void main() {
  ChunkTask task = chunkTask();
  if (!task.valid) return;
  storeAuxLane(task.auxIndex, reduceChunk(task, true));
}
